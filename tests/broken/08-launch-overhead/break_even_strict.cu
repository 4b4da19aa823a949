/* break_even_strict.cu - broken lab 08: the break-even point where the time first passes 2x */
/* SPDX-License-Identifier: MIT */
/* "Twice as long" read as "more than twice": a point exactly at the
 * threshold is passed over. It changes nothing where the next point is
 * above (the line from the equal point starts at the threshold), but a
 * last point exactly at it is never counted (-1), and a point exactly at
 * it followed by a dip gives way to a later crossing.
 * expect: correct.break_even FAIL the last point exactly at the threshold
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
    const double threshold = 2.0 * empty_async_us;
    for (int i = 0; i < points; i++) {
        if (!(pts[i].async_us > threshold)) /* should be >= */
            continue;
        if (i == 0)
            return (double)pts[0].cycles;
        const double c0 = (double)pts[i - 1].cycles, c1 = (double)pts[i].cycles;
        const double a0 = pts[i - 1].async_us, a1 = pts[i].async_us;
        return c0 + (c1 - c0) * (threshold - a0) / (a1 - a0);
    }
    return -1.0;
}
