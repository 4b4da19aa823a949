/* break_even_no_interp.cu - broken lab 08: the break-even point snaps to the first point past it */
/* SPDX-License-Identifier: MIT */
/* Right only when a point falls exactly on the threshold; otherwise late
 * by up to one step of the sweep.
 * expect: correct.break_even FAIL returned 2000, expected 1500
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_break_even reference_break_even
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_break_even

extern "C" double launch_overhead_break_even(const launch_overhead_point *pts, int points,
                                             double empty_async_us) {
    if (pts == NULL || points < 1 || !(empty_async_us > 0) || !isfinite(empty_async_us))
        return -1.0;
    for (int i = 1; i < points; i++)
        if (pts[i].cycles <= pts[i - 1].cycles)
            return -1.0;
    for (int i = 0; i < points; i++)
        if (pts[i].async_us >= 2.0 * empty_async_us)
            return (double)pts[i].cycles;
    return -1.0;
}
