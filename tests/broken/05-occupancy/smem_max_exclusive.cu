/* smem_max_exclusive.cu - broken lab 05: a block asking for exactly max_smem_per_block is refused
 * (>= for >) */
/* SPDX-License-Identifier: MIT */
/* Random kernels hit the maximum exactly only now and then; the grader
 * asks for it, and for one byte more, on every architecture. On the GPU the
 * driver decides whether the full opt-in is granted, and with it whether
 * correct.calc_device asks for exactly the maximum.
 * expect: correct.calc_random FAIL wrong blocks_per_sm
 * expect: correct.calc_factors FAIL wrong limit_smem
 * expect: correct.calc_device ANY
 * expect: measure.sweep FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

static int min4(int a, int b, int c, int d) {
    int m = a < b ? a : b;
    m = m < c ? m : c;
    return m < d ? m : d;
}

/* The reference's figures with one limit replaced: the least limit, the
 * bits and the occupancy worked out again. */
static void recombine(const occupancy_arch *a, int warps, occupancy_result *r) {
    int n = min4(r->limit_warps, r->limit_regs, r->limit_smem, r->limit_blocks);
    r->blocks_per_sm = n;
    r->limiting = (r->limit_warps == n ? OCCUPANCY_LIMIT_WARPS : 0u) |
                  (r->limit_regs == n ? OCCUPANCY_LIMIT_REGISTERS : 0u) |
                  (r->limit_smem == n ? OCCUPANCY_LIMIT_SHARED : 0u) |
                  (r->limit_blocks == n ? OCCUPANCY_LIMIT_BLOCKS : 0u);
    r->warps_per_sm = n * warps;
    r->occupancy = (double)r->warps_per_sm / a->max_warps_per_sm;
}

extern "C" int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k,
                              occupancy_result *out) {
    occupancy_result r;
    if (out == NULL || reference_calc(a, k, &r) != 0)
        return -1;
    int warps = warps_per_block(k);
    if (k->smem_per_block >= a->max_smem_per_block)
        r.limit_smem = 0;
    recombine(a, warps, &r);
    *out = r;
    return 0;
}
