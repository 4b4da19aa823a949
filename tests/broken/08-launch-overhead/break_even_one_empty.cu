/* break_even_one_empty.cu - broken lab 08: the threshold is one empty launch, not two */
/* SPDX-License-Identifier: MIT */
/* Every sweep starts at about one empty launch, so this "break-even point"
 * is at or near the first point, whatever the GPU.
 * expect: correct.break_even FAIL returned 0, expected 1500
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_break_even reference_break_even
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_break_even

extern "C" double launch_overhead_break_even(const launch_overhead_point *pts, int points,
                                             double empty_async_us) {
    return reference_break_even(pts, points, empty_async_us / 2.0);
}
