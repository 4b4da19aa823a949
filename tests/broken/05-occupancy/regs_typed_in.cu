/* regs_typed_in.cu - broken lab 05: the register file's 65536 registers and 256-register unit typed
 * in, not read from *a */
/* SPDX-License-Identifier: MIT */
/* Right on all seven capabilities of the table (every one has 65536); the
 * calculator is for the SM it is given, and a made-up SM with half the
 * register file shows the difference. (The 256-register unit typed in is
 * right on every capability cuda_occupancy.h knows, so the grader cannot
 * tell it apart; the 65536 it can.)
 * expect: correct.calc_random FAIL take every figure from *a
 * expect: correct.calc_factors FAIL take every figure from *a
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
    int per_warp = round_up(k->regs_per_thread * WARP, 256);
    if (r.limit_regs != 0 && per_warp > 0)
        r.limit_regs = 65536 / a->reg_partitions / per_warp * a->reg_partitions / warps;
    recombine(a, warps, &r);
    *out = r;
    return 0;
}
