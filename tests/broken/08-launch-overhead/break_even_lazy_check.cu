/* break_even_lazy_check.cu - broken lab 08: the cycles are checked only up to the crossing */
/* SPDX-License-Identifier: MIT */
/* One pass that checks the order of the cycles as it looks for the
 * crossing returns before it sees the rest of the sweep: cycles that
 * decrease after the crossing go unnoticed, where the contract asks -1.
 * expect: correct.break_even FAIL cycles that decrease after the crossing
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_break_even reference_break_even
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_break_even
extern "C" double launch_overhead_break_even(const launch_overhead_point *pts, int points,
                                             double empty_async_us) {
    if (pts == NULL || points < 1 || !(empty_async_us > 0) || !isfinite(empty_async_us))
        return -1.0;
    const double threshold = 2.0 * empty_async_us;
    for (int i = 0; i < points; i++) {
        if (i > 0 && pts[i].cycles <= pts[i - 1].cycles)
            return -1.0;
        if (!(pts[i].async_us >= threshold))
            continue;
        if (i == 0)
            return (double)pts[0].cycles;
        const double c0 = (double)pts[i - 1].cycles, c1 = (double)pts[i].cycles;
        const double a0 = pts[i - 1].async_us, a1 = pts[i].async_us;
        return c0 + (c1 - c0) * (threshold - a0) / (a1 - a0);
    }
    return -1.0;
}
