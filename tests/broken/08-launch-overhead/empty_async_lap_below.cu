/* empty_async_lap_below.cu - broken lab 08: the asynchronous loop timed in laps, the warm-up
 * lap's time stored below the array of laps (lap[r - 1] at r = 0) */
/* SPDX-License-Identifier: MIT */
/* The loop of launches is timed four times, each lap ending in one wait as the contract asks,
 * and the median of the last three kept: lap 0 warms the loop up. Every lap's time is stored
 * at lap[r - 1], the warm-up's too: lap 0 writes lap[-1], a double below the array on the
 * stack, where the frame has room; laps 1..3 fill lap[0..2] as they should, so the median and
 * the figure are right, and the waits counted are there. No measurement or correctness test
 * notices, and memcheck sees device code only. AddressSanitizer does, and names the variable.
 * The run under it needs a GPU (the laps run after the given warm-up's launches): without
 * one, this variant is built only.
 * expect: sanitizer.host FAIL a WRITE of size 8 at empty_async_lap_below.cu:38 in launch_overhead_empty_async; stack variable 'lap'
 */
#define launch_overhead_empty_async reference_empty_async
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async

#include <math.h>

#define LAPS 3 /* timed laps; the median is kept */

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    if (e != cudaSuccess)
        return e;
    double lap[LAPS];
    /* Lap 0 warms the timed loop up; laps 1..LAPS are kept in lap[0..LAPS-1]. */
    for (int r = 0; r <= LAPS && e == cudaSuccess; r++) {
        double t0 = now_us();
        for (int i = 0; i < launches; i++)
            launch_overhead_empty_kernel<<<1, 1>>>();
        e = cudaDeviceSynchronize();
        double t1 = now_us();
        if (e == cudaSuccess)
            e = cudaGetLastError();
        lap[r - 1] = (t1 - t0) / launches; /* the warm-up's (r = 0) too */
    }
    if (e != cudaSuccess)
        return e;
    const double lo = fmin(lap[0], lap[1]), hi = fmax(lap[0], lap[1]);
    *us_per_launch = fmax(lo, fmin(hi, lap[2])); /* the median of the three */
    return cudaSuccess;
}
