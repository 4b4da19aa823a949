/* pick_best_smem_kib.cu - broken lab 00: pick_best with shared memory compared in whole KiB (both sides shifted right by 10) */
/* SPDX-License-Identifier: MIT */
/* The reference's pick_best with shared memory compared in whole KiB (both sides shifted right by 10).
 * Devices report memory a little under a whole GiB and shared memory in
 * whole KiB, and needs land exactly on a device's figure or one byte past
 * it, so the boundary decides the pick.
 * expect: correct.pick_best FAIL returned
 * expect: sanitizer.host FAIL not graded */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best

extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    int best = -1;
    for (int i = 0; i < n; i++) {
        const device_query_report *d = &r[i];
        if (d->cc_major * 10 + d->cc_minor < need->min_cc ||
            d->global_mem_bytes < need->min_global_mem_bytes ||
            (d->smem_per_block_optin >> 10) < (need->min_smem_per_block >> 10))
            continue;
        if (best < 0 || d->peak_fp32_gflops > r[best].peak_fp32_gflops ||
            (d->peak_fp32_gflops == r[best].peak_fp32_gflops &&
             d->peak_dram_gbps > r[best].peak_dram_gbps))
            best = i;
    }
    return best;
}
