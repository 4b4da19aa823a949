/* wrong_fields.cu - broken lab 00: two fields wrong, everything else right */
/* SPDX-License-Identifier: MIT */
/* expect: correct.fields FAIL regs_per_block
 * expect: check.fp32_vs_measured FAIL not graded
 * expect: check.dram_vs_measured FAIL not graded
 * expect: correct.other_gpus FAIL not graded
 * expect: sanitizer.fill FAIL not graded */
#define device_query_fill reference_fill
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_fill

extern "C" cudaError_t device_query_fill(int dev, device_query_report *r) {
    cudaError_t e = reference_fill(dev, r);
    r->regs_per_block = r->regs_per_sm / 2;      /* a plausible mix-up */
    r->smem_per_block_optin = r->smem_per_block; /* the default, not the opt-in limit */
    return e;
}
