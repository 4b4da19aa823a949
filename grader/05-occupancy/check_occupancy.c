/* check_occupancy.c - the grader of lab 05: SM limits, occupancy calculator, register cliff */
/* SPDX-License-Identifier: MIT */
#include "wb_answers.h"
#include "wb_grader.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include "occ_reference.h"
#include "occupancy.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W OCCUPANCY_WARP_SIZE
#define README_TABLE "README.md, \"The limits of an SM\""
#define README_SLOTS "README.md, \"Thread and block slots\""
#define README_REGS "README.md, \"Registers\""
#define README_SMEM "README.md, \"Shared memory\""
#define README_TOGETHER "README.md, \"Putting the limits together\""
#define README_WORKED "README.md, \"The worked A100 cases\""
#define README_CONTRACT "README.md, \"The contract\""
#define README_CLIFF "README.md, \"The register cliff\""
#define README_SWEEP "README.md, \"The sweep\""
#define README_NCU "README.md, \"Reading the profiler\""

/* The grader's configuration holds 16 warps per SM on an H100 or H200 (76
 * registers, 25 % occupancy) and a 32-register build 64 (100 %). A hop
 * waits one DRAM latency (about 690 cycles idle, more under load), so a
 * step of 8 hops waits several thousand cycles, while a step's 16 table
 * loads cost a warp 64 cycles of the SM's load path (512 bytes each at 128
 * bytes a cycle): 4,096 cycles for 64 warps, under the wait. Measured on an
 * H100 (2026-11-22, CUDA 13.0): the reference (256 threads, 32 registers,
 * 100 %) 3.21-3.22x, 75 % occupancy 2.40-2.48x, 62.5 % 2.18x, 50 % 1.9x,
 * the stub 1.0x (the H200: 3.32x, 2.46-2.50x, 2.19x, 1.89-1.92x, 1.00x).
 * 2.05x sits in the gap between 50 % and 62.5 %, the widest above half
 * occupancy: at 62.5 % or more a build passes by 6 % or more, at 50 % or
 * less it fails by 6 % or more,
 * so no plausible configuration sits on the limit. The reference clears it
 * by 57 %, the stub misses it by 51 %. The nearest wrong launch is a
 * register budget sized for another SM (__launch_bounds__(256, 4), as for
 * 1024 threads per SM, allows 64 registers here): 50 %, 1.9x, out. */
#define CLIFF_LIMIT 2.05
/* The limit on other SMs: the same share of the way from the grader's
 * configuration (1.0x) to what filling the SM could give over it at best
 * (its warps over the grader's: 4x on 64-warp SMs, 3x on 48, 2x on the 32
 * of 7.5). 0.35 of the way gives 2.05x on 64 warps, 1.70x on 48 and 1.35x
 * on 32, where a full SM gives about 3.2x, 2.4x and 1.9x (the H100's and
 * H200's 100 %, 75 % and 50 % rows: the same warps per SM): the reference
 * clears each by 41 % or more and the stub (1.0x) misses each by 26 % or
 * more. README.md, "Why the limits hold on every GPU". */
#define CLIFF_FRACTION 0.35

/* This GPU's limit, from the grader's configuration's share of the SM's
 * warp slots (runtime occupancy API, measured here). */
static double cliff_limit(double base_occupancy) {
    if (!(base_occupancy > 0 && base_occupancy < 1))
        return CLIFF_LIMIT;
    return 1 + CLIFF_FRACTION * (1 / base_occupancy - 1);
}
/* Lines of the chase's memory for the timed runs: 512 MB, ten times the
 * 50 MB L2 of an H100 (eight times the 60 MB of an H200), so each hop is
 * a DRAM access. */
#define PERF_LINES (1u << 22)
/* Lines one chain visits. */
#define CHAIN_HOPS (OCCUPANCY_CLIFF_STEPS * OCCUPANCY_CLIFF_HOPS)
/* Waves of chains at full occupancy in the timed runs. */
#define PERF_WAVES 4
/* Words of guard space after d_out, in the same allocation: poisoned with
 * 0xFF bytes like d_out and checked unchanged after every call. A launch
 * rounds the chains up to whole blocks, so threads past the last chain
 * exist whenever the chains do not fill the last block: one that does not
 * stop them writes here. */
#define OUT_GUARD 256

typedef __typeof__(&occupancy_arch_limits) limits_fn;
typedef __typeof__(&occupancy_calc) calc_fn;
typedef __typeof__(&occupancy_cliff) cliff_fn;
typedef __typeof__(&occupancy_cliff_config) config_fn;

/* -------------------------------------------------- shared helpers */

/* The grader's table row of the i-th known capability. */
static void ref_arch_of(wb_ctx *ctx, const occ_ref_props *p, occupancy_arch *a) {
    if (occ_ref_arch(p, a) != 0)
        wb_fail(ctx, "grader error: cuda_occupancy.h does not know capability %d.%d", p->major,
                p->minor);
}

static void ref_calc(wb_ctx *ctx, const occ_ref_props *p, const occupancy_kernel *k,
                     occupancy_result *r) {
    if (occ_ref_calc(p, k, r) != 0)
        wb_fail(ctx,
                "grader error: cudaOccMaxActiveBlocksPerMultiprocessor refused cc %d.%d, %d "
                "threads, %d registers, %d bytes",
                p->major, p->minor, k->threads_per_block, k->regs_per_thread, k->smem_per_block);
}

/* The calculator is graded on the seven capabilities of the table, then
 * on the made-up SMs of occ_ref_other. */
static int n_calc_archs(void) {
    return occ_ref_n_known() + occ_ref_n_other();
}

static const occ_ref_props *calc_arch(int i) {
    return i < occ_ref_n_known() ? occ_ref_known(i) : occ_ref_other(i - occ_ref_n_known());
}

/* "" for a row of the table; for a made-up SM, what sets it apart. */
static const char *arch_note(const occupancy_arch *a, char *buf, size_t cap) {
    const occ_ref_props *p = occ_ref_lookup(a->cc_major, a->cc_minor);
    occupancy_arch row;
    if (p && occ_ref_arch(p, &row) == 0 && memcmp(&row, a, sizeof row) == 0)
        return "";
    snprintf(buf, cap,
             " (a made-up SM with that capability's rules: regs_per_sm %d, regs_per_block %d; "
             "take every figure from *a)",
             a->regs_per_sm, a->regs_per_block);
    return buf;
}

static const char *limit_text(int v, char *buf, size_t cap) {
    if (v == OCCUPANCY_UNLIMITED)
        snprintf(buf, cap, "unlimited");
    else
        snprintf(buf, cap, "%d", v);
    return buf;
}

static const char *bits_text(unsigned b, char *buf, size_t cap) {
    snprintf(buf, cap, "%s%s%s%s%s", b & OCCUPANCY_LIMIT_WARPS ? "warps " : "",
             b & OCCUPANCY_LIMIT_REGISTERS ? "registers " : "",
             b & OCCUPANCY_LIMIT_SHARED ? "shared " : "",
             b & OCCUPANCY_LIMIT_BLOCKS ? "blocks " : "", b ? "" : "none ");
    size_t n = strlen(buf);
    if (n > 0)
        buf[n - 1] = '\0';
    return buf;
}

/* The README section that explains the first per-resource limit the
 * student got wrong, or the one on combining them. */
static const char *section_for(const occupancy_result *got, const occupancy_result *want) {
    if (got->limit_warps != want->limit_warps || got->limit_blocks != want->limit_blocks)
        return README_SLOTS;
    if (got->limit_regs != want->limit_regs || got->regs_per_block != want->regs_per_block)
        return README_REGS;
    if (got->limit_smem != want->limit_smem || got->smem_per_block != want->smem_per_block)
        return README_SMEM;
    return README_TOGETHER;
}

/* "3 blocks; limits: warps 10, registers 3, shared 85, blocks 16; per block
 * 18432 registers and 768 bytes; limiting registers" */
static void result_text(const occupancy_result *r, char *buf, size_t cap) {
    char w[16], g[16], m[16], b[16], bits[48];
    snprintf(buf, cap,
             "%d blocks; limits: warps %s, registers %s, shared %s, blocks %s; per block %d "
             "registers and %d bytes; limiting %s",
             r->blocks_per_sm, limit_text(r->limit_warps, w, sizeof w),
             limit_text(r->limit_regs, g, sizeof g), limit_text(r->limit_smem, m, sizeof m),
             limit_text(r->limit_blocks, b, sizeof b), r->regs_per_block, r->smem_per_block,
             bits_text(r->limiting, bits, sizeof bits));
}

/* Fails with everything a student needs to redo case k by hand. */
static void __attribute__((noreturn))
fail_case(wb_ctx *ctx, const occupancy_arch *a, const occupancy_kernel *k, const char *what,
          const occupancy_result *got, const occupancy_result *want) {
    char you[256], exp[256], note[160];
    result_text(got, you, sizeof you);
    result_text(want, exp, sizeof exp);
    wb_fail(ctx,
            "cc %d.%d%s, %d threads, %d registers, %d bytes of shared memory: %s. You: %s. "
            "Expected: %s (%s)",
            a->cc_major, a->cc_minor, arch_note(a, note, sizeof note), k->threads_per_block,
            k->regs_per_thread, k->smem_per_block, what, you, exp, section_for(got, want));
}

/* Runs the student's calculator; a -1 on valid input is a failure. */
static void student_calc(wb_ctx *ctx, calc_fn calc, const occupancy_arch *a,
                         const occupancy_kernel *k, occupancy_result *got) {
    char note[160];
    memset(got, 0xA5, sizeof *got);
    if (calc(a, k, got) != 0)
        wb_fail(ctx,
                "occupancy_calc returned -1 for cc %d.%d%s, %d threads, %d registers, %d bytes "
                "of shared memory: valid input, expected 0 (%s)",
                a->cc_major, a->cc_minor, arch_note(a, note, sizeof note), k->threads_per_block,
                k->regs_per_thread, k->smem_per_block, README_CONTRACT);
}

/* Checks blocks, warps and occupancy. */
static void check_counts(wb_ctx *ctx, const occupancy_arch *a, const occupancy_kernel *k,
                         const occupancy_result *got, const occupancy_result *want) {
    if (got->blocks_per_sm != want->blocks_per_sm)
        fail_case(ctx, a, k, "wrong blocks_per_sm", got, want);
    if (got->warps_per_sm != want->warps_per_sm)
        fail_case(ctx, a, k, "blocks right, but warps_per_sm wrong", got, want);
    /* Exact but for rounding: warps over warp slots is a ratio of small
     * integers, and the nearest wrong one (a warp more or less of 64) is
     * 1.6e-2 away. */
    char note[160];
    if (!(fabs(got->occupancy - want->occupancy) <= 1e-9))
        wb_fail(ctx,
                "cc %d.%d%s, %d threads, %d registers, %d bytes: occupancy %.6f, expected %.6f "
                "(%d of %d warp slots) (%s)",
                a->cc_major, a->cc_minor, arch_note(a, note, sizeof note), k->threads_per_block,
                k->regs_per_thread, k->smem_per_block, got->occupancy, want->occupancy,
                want->warps_per_sm, a->max_warps_per_sm, README_TOGETHER);
}

/* Checks every other field: the four limits, the allocations, the bits. */
static void check_factors(wb_ctx *ctx, const occupancy_arch *a, const occupancy_kernel *k,
                          const occupancy_result *got, const occupancy_result *want) {
    if (got->limit_warps != want->limit_warps || got->limit_blocks != want->limit_blocks)
        fail_case(ctx, a, k, "wrong limit_warps or limit_blocks", got, want);
    if (got->regs_per_block != want->regs_per_block)
        fail_case(ctx, a, k, "wrong regs_per_block", got, want);
    if (got->limit_regs != want->limit_regs)
        fail_case(ctx, a, k, "wrong limit_regs", got, want);
    if (got->smem_per_block != want->smem_per_block)
        fail_case(ctx, a, k, "wrong smem_per_block", got, want);
    if (got->limit_smem != want->limit_smem)
        fail_case(ctx, a, k, "wrong limit_smem", got, want);
    if (got->limiting != want->limiting)
        fail_case(ctx, a, k, "wrong limiting bits", got, want);
}

/* A random kernel, drawn so that every limit binds often, including the
 * edges: blocks too large to launch, 0 and 255 registers, shared memory
 * around the per-block maximum. */
static occupancy_kernel random_kernel(wb_rng *g, const occupancy_arch *a) {
    occupancy_kernel k;
    int r = (int)wb_rng_range(g, 0, 99);
    if (r < 45)
        k.threads_per_block = (int)wb_rng_range(g, 1, a->max_threads_per_block);
    else if (r < 70)
        k.threads_per_block = W * (int)wb_rng_range(g, 1, a->max_threads_per_block / W);
    else if (r < 96)
        k.threads_per_block = (int)wb_rng_range(g, 1, 128);
    else
        k.threads_per_block = (int)wb_rng_range(g, a->max_threads_per_block + 1, 4096);
    r = (int)wb_rng_range(g, 0, 99);
    if (r < 25)
        k.regs_per_thread = (int)wb_rng_range(g, 0, OCCUPANCY_MAX_REGS_PER_THREAD);
    else if (r < 88)
        k.regs_per_thread = (int)wb_rng_range(g, 16, 96);
    else if (r < 94)
        k.regs_per_thread = 0;
    else
        k.regs_per_thread = (int)wb_rng_range(g, 200, OCCUPANCY_MAX_REGS_PER_THREAD);
    r = (int)wb_rng_range(g, 0, 99);
    if (r < 30)
        k.smem_per_block = 0;
    else if (r < 62)
        k.smem_per_block = (int)wb_rng_range(g, 1, 16384);
    else if (r < 94)
        k.smem_per_block = (int)wb_rng_range(g, 0, a->max_smem_per_block);
    else
        k.smem_per_block =
            (int)wb_rng_range(g, a->max_smem_per_block - 2048, a->max_smem_per_block + 4096);
    return k;
}

#define N_RANDOM 20000

/* ------------------------------------------------ part 1: the table */

static const char *field_names[] = {
    "max_threads_per_block", "max_warps_per_sm", "max_blocks_per_sm",      "regs_per_sm",
    "regs_per_block",        "reg_alloc_unit",   "reg_partitions",         "smem_per_sm",
    "max_smem_per_block",    "smem_alloc_unit",  "smem_reserved_per_block"};
#define N_FIELDS ((int)(sizeof field_names / sizeof field_names[0]))

static void fields_of(const occupancy_arch *a, int v[N_FIELDS]) {
    int f[N_FIELDS] = {
        a->max_threads_per_block, a->max_warps_per_sm, a->max_blocks_per_sm,      a->regs_per_sm,
        a->regs_per_block,        a->reg_alloc_unit,   a->reg_partitions,         a->smem_per_sm,
        a->max_smem_per_block,    a->smem_alloc_unit,  a->smem_reserved_per_block};
    memcpy(v, f, sizeof f);
}

static void test_table(wb_ctx *ctx) {
    limits_fn limits;
    WB_BIND(ctx, limits, occupancy_arch_limits);
    int checked = 0;
    for (int i = 0; i < occ_ref_n_known(); i++) {
        const occ_ref_props *p = occ_ref_known(i);
        occupancy_arch want, got;
        ref_arch_of(ctx, p, &want);
        memset(&got, 0, sizeof got);
        if (limits(p->major, p->minor, &got) != 0)
            wb_fail(ctx,
                    "occupancy_arch_limits(%d, %d) returned -1; capability %d.%d is one of "
                    "the seven the table must hold (" README_TABLE ")",
                    p->major, p->minor, p->major, p->minor);
        if (got.cc_major != p->major || got.cc_minor != p->minor)
            wb_fail(ctx,
                    "occupancy_arch_limits(%d, %d) filled in capability %d.%d (" README_TABLE ")",
                    p->major, p->minor, got.cc_major, got.cc_minor);
        int g[N_FIELDS], w[N_FIELDS];
        fields_of(&got, g);
        fields_of(&want, w);
        for (int f = 0; f < N_FIELDS; f++, checked++)
            if (g[f] != w[f])
                wb_fail(ctx, "capability %d.%d: %s = %d, expected %d (" README_TABLE ")", p->major,
                        p->minor, field_names[f], g[f], w[f]);
    }
    static const int unknown[][2] = {{7, 0}, {6, 1},  {5, 2},  {3, 5}, {8, 8},
                                     {9, 1}, {11, 5}, {13, 0}, {0, 0}, {-1, 5}};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        occupancy_arch got;
        memset(&got, 0x5A, sizeof got);
        occupancy_arch before = got;
        int r = limits(unknown[i][0], unknown[i][1], &got);
        if (r != -1)
            wb_fail(ctx,
                    "occupancy_arch_limits(%d, %d) returned %d: not one of the seven "
                    "capabilities, expected -1 (" README_CONTRACT ")",
                    unknown[i][0], unknown[i][1], r);
        if (memcmp(&got, &before, sizeof got) != 0)
            wb_fail(ctx,
                    "occupancy_arch_limits(%d, %d) returned -1 but wrote to *out; it must "
                    "write nothing then (" README_CONTRACT ")",
                    unknown[i][0], unknown[i][1]);
    }
    if (limits(9, 0, NULL) != -1)
        wb_fail(ctx, "occupancy_arch_limits(9, 0, NULL) must return -1 (" README_CONTRACT ")");
    wb_measured(ctx, "%d fields of %d capabilities match cuda_occupancy.h; 10 others refused",
                checked, occ_ref_n_known());
}

/* ------------------------------------------------- part 2: the calculator */

typedef struct worked_case {
    int threads, regs, smem;
    int blocks;       /* what the seed (or this lab's README) says */
    double occupancy; /* likewise */
    const char *what;
} worked_case;

/* The seed's A100 cases (README.md, "The worked A100 cases"). */
static const worked_case worked[] = {
    {32, 32, 0, 32, 0.50, "32-thread blocks: 32 block slots, 1024 of 2048 threads"},
    {64, 32, 0, 32, 1.00, "64-thread blocks fill every thread slot"},
    {768, 32, 0, 2, 0.75, "768-thread blocks: 2 blocks, 1536 of 2048 threads"},
    {1024, 32, 0, 2, 1.00, "1024-thread blocks: 2 blocks"},
    {512, 31, 0, 4, 1.00, "512-thread blocks at 31 registers: 4 blocks"},
    {512, 33, 0, 3, 0.75, "512-thread blocks at 33 registers: 3 blocks (the cliff)"},
    {256, 64, 0, 4, 0.50, "64 registers: at most 1024 threads"},
    {1024, 64, 0, 1, 0.50, "64 registers, 1024-thread blocks"},
    {256, 32, 48 * 1024, 3, 0.375, "48 KB of shared memory per block"},
    {128, 40, 0, 12, 0.75, "40 registers at 128 threads"},
};

static void test_calc_worked(wb_ctx *ctx) {
    calc_fn calc;
    WB_BIND(ctx, calc, occupancy_calc);
    const occ_ref_props *p = occ_ref_lookup(8, 0);
    occupancy_arch a;
    ref_arch_of(ctx, p, &a);
    char line[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof worked / sizeof worked[0]; i++) {
        const worked_case *c = &worked[i];
        occupancy_kernel k = {c->threads, c->regs, c->smem};
        occupancy_result got, want;
        ref_calc(ctx, p, &k, &want);
        if (want.blocks_per_sm != c->blocks || fabs(want.occupancy - c->occupancy) > 1e-9)
            wb_fail(ctx,
                    "grader error: cuda_occupancy.h gives %d blocks for the worked case "
                    "\"%s\", the README %d",
                    want.blocks_per_sm, c->what, c->blocks);
        student_calc(ctx, calc, &a, &k, &got);
        if (got.blocks_per_sm != want.blocks_per_sm || got.warps_per_sm != want.warps_per_sm ||
            fabs(got.occupancy - want.occupancy) > 1e-9) {
            char what[160];
            snprintf(what, sizeof what, "%s; your occupancy %.1f %%, expected %.1f %% (see %s)",
                     c->what, 100 * got.occupancy, 100 * want.occupancy, README_WORKED);
            fail_case(ctx, &a, &k, what, &got, &want);
        }
        if (i == 0 || i == 2 || i == 4 || i == 5)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%d@%d regs: %.0f%%",
                                     used ? ", " : "", c->threads, c->regs, 100 * got.occupancy);
    }
    wb_measured(ctx, "A100: %s (%d cases right)", line, (int)(sizeof worked / sizeof worked[0]));
}

static void test_calc_random(wb_ctx *ctx) {
    calc_fn calc;
    WB_BIND(ctx, calc, occupancy_calc);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    long by[5] = {0}, total = 0;
    for (int i = 0; i < n_calc_archs(); i++) {
        const occ_ref_props *p = calc_arch(i);
        occupancy_arch a;
        ref_arch_of(ctx, p, &a);
        for (int n = 0; n < N_RANDOM + 2; n++, total++) {
            /* First the per-block shared-memory maximum exactly, and one byte more. */
            occupancy_kernel k = n < 2 ? (occupancy_kernel){96, 32, a.max_smem_per_block + n}
                                       : random_kernel(&g, &a);
            occupancy_result got, want;
            ref_calc(ctx, p, &k, &want);
            student_calc(ctx, calc, &a, &k, &got);
            check_counts(ctx, &a, &k, &got, &want);
            if (want.blocks_per_sm == 0)
                by[4]++;
            else
                for (int b = 0; b < 4; b++)
                    by[b] += (want.limiting >> b) & 1u;
        }
    }
    wb_measured(ctx,
                "%ld kernels on %d capabilities and %d made-up SMs agree with cuda_occupancy.h "
                "(limited by warps %.0f%%, registers %.0f%%, shared %.0f%%, blocks %.0f%%; cannot "
                "run %.0f%%)",
                total, occ_ref_n_known(), occ_ref_n_other(), 100.0 * by[0] / total,
                100.0 * by[1] / total, 100.0 * by[2] / total, 100.0 * by[3] / total,
                100.0 * by[4] / total);
}

static void test_calc_grid(wb_ctx *ctx) {
    calc_fn calc;
    WB_BIND(ctx, calc, occupancy_calc);
    long n = 0;
    for (int i = 0; i < occ_ref_n_known(); i++) {
        const occ_ref_props *p = occ_ref_known(i);
        occupancy_arch a;
        ref_arch_of(ctx, p, &a);
        for (int t = 1; t <= a.max_threads_per_block; t++)
            for (int r = 0; r <= OCCUPANCY_MAX_REGS_PER_THREAD; r++, n++) {
                occupancy_kernel k = {t, r, 0};
                occupancy_result got, want;
                ref_calc(ctx, p, &k, &want);
                student_calc(ctx, calc, &a, &k, &got);
                check_counts(ctx, &a, &k, &got, &want);
            }
    }
    wb_measured(ctx,
                "every block size 1..1024 x every register count 0..255 on %d capabilities: "
                "%ld kernels right",
                occ_ref_n_known(), n);
}

static void test_calc_factors(wb_ctx *ctx) {
    calc_fn calc;
    WB_BIND(ctx, calc, occupancy_calc);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    long total = 0, ties = 0;
    for (int i = 0; i < n_calc_archs(); i++) {
        const occ_ref_props *p = calc_arch(i);
        occupancy_arch a;
        ref_arch_of(ctx, p, &a);
        for (int n = 0; n < N_RANDOM + 2; n++, total++) {
            occupancy_kernel k = n < 2 ? (occupancy_kernel){96, 32, a.max_smem_per_block + n}
                                       : random_kernel(&g, &a);
            occupancy_result got, want;
            ref_calc(ctx, p, &k, &want);
            student_calc(ctx, calc, &a, &k, &got);
            check_factors(ctx, &a, &k, &got, &want);
            ties += __builtin_popcount(want.limiting) > 1;
        }
    }
    wb_measured(ctx,
                "%ld kernels on %d capabilities and %d made-up SMs: every limit, allocation and "
                "limiting bit right (%ld ties)",
                total, occ_ref_n_known(), occ_ref_n_other(), ties);
}

static void test_invalid(wb_ctx *ctx) {
    calc_fn calc;
    WB_BIND(ctx, calc, occupancy_calc);
    occupancy_arch a;
    ref_arch_of(ctx, occ_ref_lookup(9, 0), &a);
    occupancy_kernel ok = {256, 32, 0};
    occupancy_result r;
    if (calc(NULL, &ok, &r) != -1 || calc(&a, NULL, &r) != -1 || calc(&a, &ok, NULL) != -1)
        wb_fail(ctx, "occupancy_calc with a NULL argument must return -1 (" README_CONTRACT ")");
    static const occupancy_kernel bad[] = {{0, 32, 0},
                                           {-64, 32, 0},
                                           {OCCUPANCY_MAX_THREADS_INPUT + 1, 32, 0},
                                           {256, -1, 0},
                                           {256, 256, 0},
                                           {256, 1000, 0},
                                           {256, 32, -1},
                                           {256, 32, OCCUPANCY_MAX_SMEM_INPUT + 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        occupancy_result before, got;
        memset(&before, 0x3C, sizeof before);
        got = before;
        int rc = calc(&a, &bad[i], &got);
        if (rc != -1)
            wb_fail(ctx,
                    "occupancy_calc for %d threads, %d registers, %d bytes returned %d, "
                    "expected -1 (" README_CONTRACT ")",
                    bad[i].threads_per_block, bad[i].regs_per_thread, bad[i].smem_per_block, rc);
        if (memcmp(&got, &before, sizeof got) != 0)
            wb_fail(ctx, "occupancy_calc returned -1 but wrote to *out; it must write nothing "
                         "then (" README_CONTRACT ")");
    }
    /* An architecture with one field zeroed (or the reservation negative). */
    for (int f = 0; f < N_FIELDS; f++) {
        occupancy_arch b = a;
        int *fields[N_FIELDS] = {&b.max_threads_per_block,  &b.max_warps_per_sm,
                                 &b.max_blocks_per_sm,      &b.regs_per_sm,
                                 &b.regs_per_block,         &b.reg_alloc_unit,
                                 &b.reg_partitions,         &b.smem_per_sm,
                                 &b.max_smem_per_block,     &b.smem_alloc_unit,
                                 &b.smem_reserved_per_block};
        *fields[f] = f == N_FIELDS - 1 ? -1 : 0;
        if (calc(&b, &ok, &r) != -1)
            wb_fail(ctx,
                    "occupancy_calc with %s = %d in the architecture returned 0, expected "
                    "-1 (" README_CONTRACT ")",
                    field_names[f], *fields[f]);
    }
    /* Valid edges that are not errors: a block too large to launch, 0 and
     * 255 registers, shared memory just past the per-block maximum. */
    static const occupancy_kernel edge[] = {{1025, 32, 0}, {256, 0, 0}, {32, 255, 0}, {256, 32, 0}};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        occupancy_kernel k = edge[i];
        if (i == 3)
            k.smem_per_block = a.max_smem_per_block + 1;
        if (calc(&a, &k, &r) != 0)
            wb_fail(ctx,
                    "occupancy_calc for %d threads, %d registers, %d bytes returned -1: a "
                    "kernel that cannot run gets blocks_per_sm = 0, it is not an error "
                    "(" README_CONTRACT ")",
                    k.threads_per_block, k.regs_per_thread, k.smem_per_block);
    }
    wb_measured(ctx, "3 NULL arguments, 8 bad kernels and 11 bad architectures refused; 4 "
                     "edge kernels accepted");
}

/* --------------------------------------------------------- with a GPU */

/* The architecture of the GPU being graded, from its own properties and
 * the header's rules. */
static void device_arch(wb_ctx *ctx, occ_ref_props *p, occupancy_arch *a, int *dev_blocks) {
    WB_CUDA(ctx, occ_dev_props(p, dev_blocks));
    if (occ_ref_arch(p, a) != 0)
        wb_fail(ctx,
                "this GPU is compute capability %d.%d, which the toolkit's cuda_occupancy.h does "
                "not know: the grader cannot check the calculator here; grade on a GPU of the "
                "lab's seven capabilities",
                p->major, p->minor);
}

static void test_table_device(wb_ctx *ctx) {
    limits_fn limits;
    WB_BIND(ctx, limits, occupancy_arch_limits);
    occ_ref_props p;
    int dev_blocks;
    WB_CUDA(ctx, occ_dev_props(&p, &dev_blocks));
    occupancy_arch got;
    if (limits(p.major, p.minor, &got) != 0) {
        if (occ_ref_lookup(p.major, p.minor))
            wb_fail(ctx,
                    "occupancy_arch_limits(%d, %d) returned -1, but this GPU is one of "
                    "the seven capabilities (" README_TABLE ")",
                    p.major, p.minor);
        wb_measured(ctx, "this GPU (cc %d.%d) is not one of the table's seven: nothing to compare",
                    p.major, p.minor);
        return;
    }
    struct {
        const char *name;
        int got, dev;
    } f[] = {
        {"max_threads_per_block", got.max_threads_per_block, p.max_threads_per_block},
        {"max_warps_per_sm", got.max_warps_per_sm, p.max_threads_per_sm / W},
        {"max_blocks_per_sm", got.max_blocks_per_sm, dev_blocks},
        {"regs_per_sm", got.regs_per_sm, p.regs_per_sm},
        {"regs_per_block", got.regs_per_block, p.regs_per_block},
        {"smem_per_sm", got.smem_per_sm, p.smem_per_sm},
        {"max_smem_per_block", got.max_smem_per_block, p.smem_optin},
        {"smem_reserved_per_block", got.smem_reserved_per_block, p.smem_reserved},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].got != f[i].dev)
            wb_fail(ctx, "capability %d.%d: your %s = %d, this GPU reports %d (" README_TABLE ")",
                    p.major, p.minor, f[i].name, f[i].got, f[i].dev);
    wb_measured(ctx, "cc %d.%d: 8 fields equal the GPU's own properties", p.major, p.minor);
}

typedef struct device_tally {
    long checked, disagree; /* disagree: driver and header differ; not graded */
    char first_disagreement[200];
} device_tally;

/* One real kernel at one block size and dynamic shared memory: what the
 * runtime says (cudaOccupancyMaxActiveBlocksPerMultiprocessor), whether the
 * toolkit's header agrees with it there (where not, the case is not
 * graded), and what the student's calculator says. */
typedef struct real_case {
    char name[48]; /* the kernel, commas as ';' (a CSV field) */
    int regs, static_smem, block, dyn;
    int runtime; /* blocks per SM, from the runtime */
    int header;  /* blocks per SM, from cuda_occupancy.h */
    int calc_rc; /* occupancy_calc's return */
    int yours;   /* its blocks_per_sm (-1 when it returned -1) */
} real_case;

/* Fills *c for kernel fn at block threads and dyn bytes of dynamic shared
 * memory (the opt-in set to max_dyn). Returns 0, asking nothing, when the
 * kernel cannot be launched with that block. Judges nothing: judge_real
 * does, so that a table of every case can be written first. */
static int measure_real(wb_ctx *ctx, calc_fn calc, const occ_ref_props *p, const occupancy_arch *a,
                        const void *fn, const char *name, int block, int dyn, int max_dyn,
                        real_case *c) {
    struct cudaFuncAttributes attr;
    WB_CUDA(ctx, cudaFuncGetAttributes(&attr, fn));
    if (block > attr.maxThreadsPerBlock)
        return 0;
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    for (char *q = c->name; *q; q++)
        *q = *q == ',' ? ';' : *q;
    c->regs = attr.numRegs;
    c->static_smem = (int)attr.sharedSizeBytes;
    c->block = block;
    c->dyn = dyn;
    c->runtime = -1;
    WB_CUDA(ctx,
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&c->runtime, fn, block, (size_t)dyn));
    c->header = occ_ref_blocks_runtime_view(p, block, attr.numRegs, c->static_smem, dyn, max_dyn);
    occupancy_kernel k = {block, attr.numRegs, c->static_smem + dyn};
    occupancy_result got;
    memset(&got, 0xA5, sizeof got);
    c->calc_rc = calc(a, &k, &got);
    c->yours = c->calc_rc == 0 ? got.blocks_per_sm : -1;
    return 1;
}

/* Counts case c, or fails where the student's calculator disagrees with the
 * runtime; a case where the runtime and the header disagree is counted
 * apart, not graded. `where` ends a failure (where the table of it is). */
static void judge_real(wb_ctx *ctx, const occupancy_arch *a, const real_case *c, device_tally *t,
                       const char *where) {
    if (c->header != c->runtime) {
        if (t->disagree++ == 0)
            snprintf(t->first_disagreement, sizeof t->first_disagreement,
                     "%s at %d threads, %d B dynamic: driver %d blocks, header %d", c->name,
                     c->block, c->dyn, c->runtime, c->header);
        return;
    }
    if (c->calc_rc != 0)
        wb_fail(ctx,
                "occupancy_calc returned -1 for cc %d.%d, %d threads, %d registers, %d bytes of "
                "shared memory: valid input, expected 0 (%s)%s",
                a->cc_major, a->cc_minor, c->block, c->regs, c->static_smem + c->dyn,
                README_CONTRACT, where);
    if (c->yours != c->runtime)
        wb_fail(ctx,
                "%s (%d registers, %d bytes static shared memory) at %d threads with %d bytes "
                "dynamic: your calculator says %d blocks per SM, "
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor %d (%s)%s",
                c->name, c->regs, c->static_smem, c->block, c->dyn, c->yours, c->runtime,
                README_TOGETHER, where);
    t->checked++;
}

static void check_real(wb_ctx *ctx, calc_fn calc, const occ_ref_props *p, const occupancy_arch *a,
                       const void *fn, const char *name, int block, int dyn, int max_dyn,
                       device_tally *t) {
    real_case c;
    if (measure_real(ctx, calc, p, a, fn, name, block, dyn, max_dyn, &c))
        judge_real(ctx, a, &c, t, "");
}

static const int device_blocks[] = {32,  64,  96,  100, 128, 192,  256,
                                    320, 384, 512, 640, 768, 1000, 1024};
#define N_DEVICE_BLOCKS ((int)(sizeof device_blocks / sizeof device_blocks[0]))
/* Kernels of the register table: the sweep's, the grader's chase, yours. */
#define MAX_CALC_KERNELS 24

/* Writes the register table as CSV for `make plots`
 * (slides/plots/05-calculator.gp): one row per kernel and block size, with
 * blocks and warps per SM from the runtime and from your calculator (-1
 * where it returned -1), the SM's warp slots, and compared (0 where the
 * runtime and the header disagree: not graded). Not graded itself: a file
 * that cannot be written costs no points. */
static void write_calc_csv(const char *path, const real_case *c, int n, int max_warps) {
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "kernel,registers,block_size,runtime_blocks,your_blocks,runtime_warps,your_warps,"
               "max_warps,compared\n");
    for (int i = 0; i < n; i++) {
        int warps = (c[i].block + W - 1) / W;
        fprintf(f, "%s,%d,%d,%d,%d,%d,%lld,%d,%d\n", c[i].name, c[i].regs, c[i].block, c[i].runtime,
                c[i].yours, c[i].runtime * warps,
                c[i].yours >= 0 ? (long long)c[i].yours * warps : -1LL, max_warps,
                c[i].header == c[i].runtime);
    }
    fclose(f);
}

/* The chase kernels (registers from 24 to about 80) at every block size:
 * all measured and written as calc_vs_runtime.csv, then judged. */
static void check_register_kernels(wb_ctx *ctx, calc_fn calc, config_fn config,
                                   const occ_ref_props *p, const occupancy_arch *a, device_tally *t,
                                   char *csv, size_t cap) {
    static real_case cases[MAX_CALC_KERNELS * N_DEVICE_BLOCKS];
    const void *fn[MAX_CALC_KERNELS];
    const char *name[MAX_CALC_KERNELS];
    int nk = 0, n = 0;
    for (int i = 0; i < occ_sweep_count() && nk < MAX_CALC_KERNELS - 2; i++, nk++) {
        fn[nk] = occ_sweep_kernel(i);
        name[nk] = occ_sweep_name(i);
    }
    fn[nk] = occ_baseline_kernel();
    name[nk++] = "the grader's chase";
    int block;
    const void *yours = NULL;
    if (config(&block, &yours) == 0 && yours) {
        fn[nk] = yours;
        name[nk++] = "your chase kernel";
    }
    for (int k = 0; k < nk; k++)
        for (int b = 0; b < N_DEVICE_BLOCKS; b++)
            n += measure_real(ctx, calc, p, a, fn[k], name[k], device_blocks[b], 0, 0, &cases[n]);
    snprintf(csv, cap, "%s/calc_vs_runtime.csv", wb_out_dir(ctx));
    write_calc_csv(csv, cases, n, a->max_warps_per_sm);
    char where[4400];
    snprintf(where, sizeof where,
             "; every launch of the register kernels: %s (make plots draws "
             "build/plots/05-calculator.svg)",
             csv);
    for (int i = 0; i < n; i++)
        judge_real(ctx, a, &cases[i], t, where);
}

static void test_calc_device(wb_ctx *ctx) {
    calc_fn calc;
    config_fn config;
    WB_BIND(ctx, calc, occupancy_calc);
    WB_BIND(ctx, config, occupancy_cliff_config);
    occ_ref_props p;
    occupancy_arch a;
    int dev_blocks;
    device_arch(ctx, &p, &a, &dev_blocks);
    device_tally t = {0, 0, ""};
    char csv[4200];
    check_register_kernels(ctx, calc, config, &p, &a, &t, csv, sizeof csv);
    /* Static and dynamic shared memory, with the opt-in set to the most
     * each kernel may take. */
    static const int dyn[] = {0, 1, 1024, 5000, 16384, 30000, 49152, 65536, 100000, 150000, 200000};
    for (int i = 0; i < occ_smem_count(); i++) {
        /* The opt-in allows up to sharedMemPerBlockOptin in all; where the
         * driver keeps some of it back (it refuses the full figure on some
         * GPUs), step down 1 KB at a time and check with what it grants. */
        struct cudaFuncAttributes sa;
        WB_CUDA(ctx, cudaFuncGetAttributes(&sa, occ_smem_kernel(i)));
        int max_dyn = p.smem_optin - (int)sa.sharedSizeBytes;
        cudaError_t e = cudaErrorInvalidValue;
        for (int tries = 0; tries < 16 && max_dyn > 0; tries++, max_dyn -= 1024) {
            e = cudaFuncSetAttribute(occ_smem_kernel(i),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, max_dyn);
            if (e == cudaSuccess)
                break;
            (void)cudaGetLastError();
        }
        if (e != cudaSuccess)
            wb_fail(ctx, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) returned %s (%s)",
                    cudaGetErrorName(e), cudaGetErrorString(e));
        char name[48];
        snprintf(name, sizeof name, "a kernel with %d B of static shared memory",
                 occ_smem_static(i));
        for (int b = 0; b < N_DEVICE_BLOCKS; b += 2)
            for (size_t d = 0; d <= sizeof dyn / sizeof dyn[0]; d++) {
                int bytes = d < sizeof dyn / sizeof dyn[0] ? dyn[d] : max_dyn;
                if (bytes <= max_dyn)
                    check_real(ctx, calc, &p, &a, occ_smem_kernel(i), name, device_blocks[b], bytes,
                               max_dyn, &t);
            }
    }
    wb_record(ctx, "device_cases_checked", (double)t.checked, "cases", 0, "ref");
    wb_record(ctx, "device_cases_driver_vs_header", (double)t.disagree, "cases", 0, "ref");
    if (t.checked < 100)
        wb_fail(ctx,
                "grader error: only %ld cases could be compared (driver and header "
                "disagree on %ld, first: %s)",
                t.checked, t.disagree, t.first_disagreement);
    if (t.disagree)
        wb_measured(ctx,
                    "%ld launches agree with cudaOccupancyMaxActiveBlocksPerMultiprocessor; "
                    "%ld where driver and header differ not graded (first: %s); the register "
                    "kernels' table in %s (make plots draws build/plots/05-calculator.svg)",
                    t.checked, t.disagree, t.first_disagreement, csv);
    else
        wb_measured(ctx,
                    "%ld launches of real kernels agree with "
                    "cudaOccupancyMaxActiveBlocksPerMultiprocessor; the register kernels' table "
                    "in %s (make plots draws build/plots/05-calculator.svg)",
                    t.checked, csv);
}

/* ------------------------------------------------ part 3: the cliff */

typedef struct chase {
    unsigned lines;
    int n_chains;
    unsigned *d_next, *d_table, *d_start, *d_out;
    unsigned *h_table, *h_start;
} chase;

static void chase_open(wb_ctx *ctx, chase *c, unsigned lines, int n_chains, int disjoint,
                       wb_rng *g) {
    memset(c, 0, sizeof *c);
    c->lines = lines;
    c->n_chains = n_chains;
    c->h_table = (unsigned *)malloc(OCCUPANCY_CLIFF_TABLE_WORDS * sizeof(unsigned));
    c->h_start = (unsigned *)malloc((size_t)n_chains * sizeof(unsigned));
    if (!c->h_table || !c->h_start)
        wb_fail(ctx, "out of host memory");
    for (int i = 0; i < OCCUPANCY_CLIFF_TABLE_WORDS; i++)
        c->h_table[i] = (unsigned)wb_rng_u64(g);
    for (int i = 0; i < n_chains; i++)
        c->h_start[i] = disjoint ? occ_line_at((unsigned)i * CHAIN_HOPS, lines)
                                 : (unsigned)wb_rng_range(g, 0, lines - 1);
    size_t next_bytes = (size_t)lines * OCCUPANCY_CLIFF_LINE_WORDS * sizeof(unsigned);
    size_t out_bytes = ((size_t)n_chains * W + OUT_GUARD) * sizeof(unsigned);
    WB_CUDA(ctx, cudaMalloc((void **)&c->d_next, next_bytes));
    WB_CUDA(ctx, cudaMalloc((void **)&c->d_table, OCCUPANCY_CLIFF_TABLE_WORDS * sizeof(unsigned)));
    WB_CUDA(ctx, cudaMalloc((void **)&c->d_start, (size_t)n_chains * sizeof(unsigned)));
    WB_CUDA(ctx, cudaMalloc((void **)&c->d_out, out_bytes));
    WB_CUDA(ctx, occ_fill_next(c->d_next, lines, NULL));
    WB_CUDA(ctx, cudaMemcpy(c->d_table, c->h_table, OCCUPANCY_CLIFF_TABLE_WORDS * sizeof(unsigned),
                            cudaMemcpyHostToDevice));
    WB_CUDA(ctx, cudaMemcpy(c->d_start, c->h_start, (size_t)n_chains * sizeof(unsigned),
                            cudaMemcpyHostToDevice));
    WB_CUDA(ctx, cudaMemset(c->d_out, 0xFF, out_bytes));
    WB_CUDA(ctx, cudaDeviceSynchronize());
}

static void chase_close(chase *c) {
    cudaFree(c->d_next);
    cudaFree(c->d_table);
    cudaFree(c->d_start);
    cudaFree(c->d_out);
    free(c->h_table);
    free(c->h_start);
}

/* The CPU's result for chain i: the same walk, the same folds. */
static unsigned chase_reference(const chase *c, int i) {
    unsigned pos = occ_line_pos(c->h_start[i], c->lines), s0 = (unsigned)i, s1 = (unsigned)i + 1u;
    for (int step = 0; step < OCCUPANCY_CLIFF_STEPS; step++) {
        unsigned line =
            occ_line_at((pos + (unsigned)step * OCCUPANCY_CLIFF_HOPS) & (c->lines - 1u), c->lines);
        const unsigned *row =
            c->h_table + (size_t)(line % OCCUPANCY_CLIFF_ROWS) * OCCUPANCY_CLIFF_ROW_VECS * 4;
        for (int j = 0; j < OCCUPANCY_CLIFF_ROW_VECS; j += 2) {
            const unsigned *q = row + 4 * j;
            s0 = occupancy_cliff_fold(s0, q[0], q[1], q[2], q[3]);
            s1 = occupancy_cliff_fold(s1, q[4], q[5], q[6], q[7]);
        }
    }
    return occupancy_cliff_result(s0, s1);
}

/* Fails when a word of the guard after d_out (h: d_out copied back, guard
 * included) is no longer the poison, naming the first. */
static void guard_check(wb_ctx *ctx, const chase *c, const unsigned *h, const char *who) {
    size_t n = (size_t)c->n_chains * W;
    for (size_t k = 0; k < OUT_GUARD; k++)
        if (h[n + k] != 0xFFFFFFFFu)
            wb_fail(ctx,
                    "%s, %d chains: d_out[%zu], %zu past the end of its %zu words (chains x 32), "
                    "was changed to 0x%08x; expected the grader's poison 0xffffffff left alone: "
                    "threads past the last chain must write nothing (" README_CONTRACT ")",
                    who, c->n_chains, n + k, k + 1, n, h[n + k]);
}

/* Copies d_out back and checks chains 0, stride, 2*stride, ... (all 32
 * lanes), then the guard after it. */
static void chase_check(wb_ctx *ctx, const chase *c, int stride, const char *who) {
    size_t n = (size_t)c->n_chains * W;
    unsigned *h = (unsigned *)malloc((n + OUT_GUARD) * sizeof(unsigned));
    if (!h)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx,
            cudaMemcpy(h, c->d_out, (n + OUT_GUARD) * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < c->n_chains; i += stride) {
        unsigned want = chase_reference(c, i);
        for (int lane = 0; lane < W; lane++)
            if (h[(size_t)i * W + lane] != want) {
                unsigned got = h[(size_t)i * W + lane];
                free(h);
                wb_fail(ctx,
                        "%s, %d chains: chain %d lane %d wrote 0x%08x, expected 0x%08x%s "
                        "(" README_CLIFF ")",
                        who, c->n_chains, i, lane, got, want,
                        got == 0xFFFFFFFFu ? " (never written: still poisoned)" : "");
            }
    }
    guard_check(ctx, c, h, who);
    free(h);
}

/* 1 when every word of d_next still holds the line after its own on the
 * cycle, as occ_fill_next wrote it. */
static int next_unchanged(wb_ctx *ctx, const chase *c) {
    size_t words = (size_t)c->lines * OCCUPANCY_CLIFF_LINE_WORDS;
    unsigned *h = (unsigned *)malloc(words * sizeof(unsigned));
    if (!h)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMemcpy(h, c->d_next, words * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int same = 1;
    for (unsigned l = 0; l < c->lines && same; l++) {
        unsigned want = occ_line_at((occ_line_pos(l, c->lines) + 1u) & (c->lines - 1u), c->lines);
        for (int w = 0; w < OCCUPANCY_CLIFF_LINE_WORDS; w++)
            same &= h[(size_t)l * OCCUPANCY_CLIFF_LINE_WORDS + w] == want;
    }
    free(h);
    return same;
}

static void test_cliff(wb_ctx *ctx) {
    cliff_fn cliff;
    WB_BIND(ctx, cliff, occupancy_cliff);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    int full = gpu->sm_count * (gpu->max_threads_per_sm / W);
    const int sizes[] = {1, 3, 33, 1000, full + 5};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        chase c;
        chase_open(ctx, &c, 1u << 16, sizes[s], 0, &g);
        int e = cliff(c.d_next, c.d_table, c.d_start, c.d_out, c.n_chains, 0);
        if (e != cudaSuccess)
            wb_fail(ctx, "occupancy_cliff(%d chains) returned %s, expected cudaSuccess", c.n_chains,
                    cudaGetErrorName((cudaError_t)e));
        cudaError_t k = cudaDeviceSynchronize();
        if (k != cudaSuccess)
            wb_fail(ctx, "the chase kernel of occupancy_cliff(%d chains) returned %s (%s)",
                    c.n_chains, cudaGetErrorName(k), cudaGetErrorString(k));
        chase_check(ctx, &c, 1, "occupancy_cliff");
        unsigned table[OCCUPANCY_CLIFF_TABLE_WORDS],
            *start = (unsigned *)malloc((size_t)c.n_chains * sizeof(unsigned));
        WB_CUDA(ctx, cudaMemcpy(table, c.d_table, sizeof table, cudaMemcpyDeviceToHost));
        WB_CUDA(ctx, cudaMemcpy(start, c.d_start, (size_t)c.n_chains * sizeof(unsigned),
                                cudaMemcpyDeviceToHost));
        if (memcmp(table, c.h_table, sizeof table) != 0 ||
            memcmp(start, c.h_start, (size_t)c.n_chains * sizeof(unsigned)) != 0 ||
            !next_unchanged(ctx, &c))
            wb_fail(ctx,
                    "occupancy_cliff(%d chains) changed d_next, d_table or d_start; they are "
                    "inputs only, only d_out is written (occupancy.h)",
                    c.n_chains);
        free(start);
        chase_close(&c);
    }
    if (cliff(NULL, NULL, NULL, NULL, 4, 0) != cudaErrorInvalidValue)
        wb_fail(ctx, "occupancy_cliff(NULL, ...) must return cudaErrorInvalidValue");
    wb_measured(ctx, "5 sizes up to %d chains, every lane right, inputs unchanged", full + 5);
}

/* The occupancy of a kernel at a block size, from the runtime. */
static double runtime_occupancy(wb_ctx *ctx, const void *fn, int block, int *blocks) {
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    WB_CUDA(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, fn, block, 0));
    return (double)*blocks * ((block + W - 1) / W) / (gpu->max_threads_per_sm / W);
}

/* The student's launch configuration and what the compiler made of it. */
typedef struct cliff_view {
    int block, blocks;
    double occupancy;
    struct cudaFuncAttributes attr;
} cliff_view;

static void view_student(wb_ctx *ctx, cliff_view *v) {
    config_fn config;
    WB_BIND(ctx, config, occupancy_cliff_config);
    const void *fn = NULL;
    if (config(&v->block, &fn) != 0 || fn == NULL)
        wb_fail(ctx, "occupancy_cliff_config returned no kernel (" README_CONTRACT ")");
    cudaError_t e = cudaFuncGetAttributes(&v->attr, fn);
    if (e != cudaSuccess)
        wb_fail(ctx,
                "cudaFuncGetAttributes on your kernel (from occupancy_cliff_config) returned %s "
                "(%s) (" README_CONTRACT ")",
                cudaGetErrorName(e), cudaGetErrorString(e));
    if (v->block < 1 || v->block > v->attr.maxThreadsPerBlock)
        wb_fail(ctx,
                "your chase launches %d-thread blocks, but the kernel accepts at most %d (its "
                "__launch_bounds__ or its registers) (" README_CLIFF ")",
                v->block, v->attr.maxThreadsPerBlock);
    v->occupancy = runtime_occupancy(ctx, fn, v->block, &v->blocks);
}

static void view_baseline(wb_ctx *ctx, cliff_view *v) {
    v->block = 512;
    WB_CUDA(ctx, cudaFuncGetAttributes(&v->attr, occ_baseline_kernel()));
    v->occupancy = runtime_occupancy(ctx, occ_baseline_kernel(), 512, &v->blocks);
}

static void fail_if_spills(wb_ctx *ctx, const cliff_view *v) {
    if (v->attr.localSizeBytes > 0)
        wb_fail(ctx,
                "your chase kernel has %zu bytes of local memory per thread at %d registers: "
                "ptxas spilled registers (a budget too small) or placed an array there; "
                "localSizeBytes must be 0 "
                "(" README_CLIFF ")",
                (size_t)v->attr.localSizeBytes, v->attr.numRegs);
}

static void test_cliff_resources(wb_ctx *ctx) {
    cliff_view yours, base;
    view_student(ctx, &yours);
    view_baseline(ctx, &base);
    wb_record(ctx, "cliff_registers", yours.attr.numRegs, "registers", base.attr.numRegs, "ref");
    wb_record(ctx, "cliff_occupancy", 100 * yours.occupancy, "%", 100 * base.occupancy, "ref");
    wb_measured(ctx,
                "%d threads, %d registers, %zu B local: %d blocks, %.1f%% occupancy "
                "(grader's: 512 threads, %d registers, %.1f%%)",
                yours.block, yours.attr.numRegs, (size_t)yours.attr.localSizeBytes, yours.blocks,
                100 * yours.occupancy, base.attr.numRegs, 100 * base.occupancy);
    fail_if_spills(ctx, &yours);
    if (!(yours.occupancy > base.occupancy + 1e-9))
        wb_fail(ctx,
                "occupancy %.1f%% is not above the grader's configuration (%.1f%%): %d registers "
                "per thread cap this SM at %d blocks of %d threads; lower the register budget "
                "with __launch_bounds__ (" README_CLIFF ")",
                100 * yours.occupancy, 100 * base.occupancy, yours.attr.numRegs, yours.blocks,
                yours.block);
}

/* The timed problem: PERF_WAVES waves of chains over PERF_LINES lines, the
 * student's launch and the grader's configuration as the compiler built them. */
typedef struct cliff_perf {
    cliff_fn student;
    chase c;
    cliff_view yours, base;
} cliff_perf;

static cliff_perf cperf;

static int run_student_cliff(void *p, void *stream) {
    cliff_perf *a = (cliff_perf *)p;
    return a->student(a->c.d_next, a->c.d_table, a->c.d_start, a->c.d_out, a->c.n_chains,
                      (cudaStream_t)stream);
}

static int run_baseline_cliff(void *p, void *stream) {
    cliff_perf *a = (cliff_perf *)p;
    return occ_baseline_cliff(a->c.d_next, a->c.d_table, a->c.d_start, a->c.d_out, a->c.n_chains,
                              stream);
}

/* Chains for the timed runs: PERF_WAVES waves at full occupancy, each on
 * its own stretch of the cycle so no line is read twice in a run. */
static int perf_chains(const wb_gpu *gpu) {
    int n = gpu->sm_count * (gpu->max_threads_per_sm / W) * PERF_WAVES;
    int most = (int)(PERF_LINES / CHAIN_HOPS);
    return n < most ? n : most;
}

/* A kernel that spills fails before anything is timed. */
static void cliff_open(wb_ctx *ctx, wb_perf_run *run) {
    WB_BIND(ctx, cperf.student, occupancy_cliff);
    view_student(ctx, &cperf.yours);
    view_baseline(ctx, &cperf.base);
    fail_if_spills(ctx, &cperf.yours);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    chase_open(ctx, &cperf.c, PERF_LINES, perf_chains(gpu), 1, &g);
    run->baseline = run_baseline_cliff;
    run->candidate = run_student_cliff;
    run->arg = &cperf;
    run->limit = cliff_limit(cperf.base.occupancy);
    /* No run can move the chase's lines faster than DRAM can: a faster
     * time means the timed launch did not walk them. The reference takes
     * about 6x this floor on an H100 (0.123 ms against 0.021 ms), so the
     * kit's 0.9 of it is far from any honest run; a launch that walks only
     * part of the chains is the output check's to catch. */
    double bytes = (double)cperf.c.n_chains * CHAIN_HOPS * 32; /* one sector a hop */
    run->floor_ms = gpu->peak_dram_gbps > 0 ? bytes / (gpu->peak_dram_gbps * 1e9) * 1e3 : 0;
    run->floor_why = "this GPU's DRAM can deliver the chase's lines";
    run->floor_advice = "every chain must be walked by the launch on the stream given";
}

static void cliff_poison(wb_ctx *ctx, void *arg) {
    chase *c = &((cliff_perf *)arg)->c;
    /* d_out only: the guard keeps chase_open's poison through every timed
     * call, and cliff_check looks at it after them all. */
    WB_CUDA(ctx, cudaMemset(c->d_out, 0xFF, (size_t)c->n_chains * W * sizeof(unsigned)));
}

static void cliff_check(wb_ctx *ctx, void *arg) {
    chase_check(ctx, &((cliff_perf *)arg)->c, 61, "occupancy_cliff (timed size)");
}

static void cliff_describe(wb_ctx *ctx, void *arg, const wb_ratio *r, char *buf, size_t cap) {
    (void)r;
    (void)ctx;
    const cliff_perf *a = (const cliff_perf *)arg;
    snprintf(buf, cap, "occupancy %.0f%% vs %.0f%%", 100 * a->yours.occupancy,
             100 * a->base.occupancy);
}

static void cliff_close(void *arg) {
    chase_close(&((cliff_perf *)arg)->c);
}

/* The grader's configuration holds 16 warps per SM on an H100 or H200 (76
 * registers, 25 % occupancy), a 32-register build 64 (100 %); see
 * CLIFF_LIMIT for the figures the limit rests on. */
static const wb_perf perf_cliff = {
    .metric = "cliff",
    .limit = CLIFF_LIMIT,
    .baseline = "the grader's configuration",
    .size = "4 waves of chains at full occupancy, 512 MB of lines",
    .derivation = "the chase is latency-bound, so its time follows the warps each SM keeps in "
                  "flight, and the grader's configuration keeps 16 on every capability (one "
                  "512-thread block at 72-78 registers); the limit is 0.35 of the way from 1.0x to "
                  "what a full SM could give over it on the GPU graded (its warps over 16: 2.05x "
                  "on the 64-warp SMs of 8.0, 9.0 and 10.0, between 50 % at most 1.92x and 62.5 % "
                  "at least 2.18x; 1.70x on the 48 warps of 8.6, 8.9 and 12.0; 1.35x on the 32 of "
                  "7.5), where a full SM gives about 3.2x, 2.4x and 1.9x (41 % clear or more) and "
                  "the stub, the grader's configuration, 1.0x (26 % short or more)",
    .figures = "H100 (2026-11-22, CUDA 13.0): reference (256 threads, 32 registers, 100 %) "
               "3.21-3.22x in 3 runs, 75 % 2.40-2.48x, 62.5 % 2.18x, 50 % 1.87-1.91x, stub "
               "1.00x in 2 runs; H200: 3.32x, 2.46-2.50x, 2.19x, 1.89-1.92x, stub 1.00x",
    .advice = "the chase is latency-bound: its speed follows the warps each SM keeps in flight; "
              "keep more of the warp slots busy (" README_CLIFF ")",
    .open = cliff_open,
    .poison = cliff_poison,
    .check = cliff_check,
    .describe = cliff_describe,
    .close = cliff_close,
};

/* ------------------------------------------------------------ the sweep */

typedef struct sweep_row {
    const char *series; /* "block", "registers", "baseline", "yours" */
    char kernel[32];
    int block, regs, local, blocks, predicted; /* predicted: -1 when not compared */
    double occupancy, ms;
} sweep_row;

typedef struct sweep_args {
    int kernel; /* -1: the grader's baseline, -2: the student's launch */
    int block;
    chase *c;
    cliff_fn student;
} sweep_args;

static int run_sweep(void *p, void *stream) {
    sweep_args *a = (sweep_args *)p;
    chase *c = a->c;
    if (a->kernel == -1)
        return occ_baseline_cliff(c->d_next, c->d_table, c->d_start, c->d_out, c->n_chains, stream);
    if (a->kernel == -2)
        return a->student(c->d_next, c->d_table, c->d_start, c->d_out, c->n_chains,
                          (cudaStream_t)stream);
    return occ_sweep_launch(a->kernel, a->block, c->d_next, c->d_table, c->d_start, c->d_out,
                            c->n_chains, stream);
}

static const int sweep_blocks[] = {32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024};
#define N_SWEEP_BLOCKS ((int)(sizeof sweep_blocks / sizeof sweep_blocks[0]))

/* Measures one row: the runtime's occupancy, the student's prediction
 * (where the runtime and the header agree), and the time. */
static void sweep_measure(wb_ctx *ctx, calc_fn calc, const occ_ref_props *p,
                          const occupancy_arch *a, const void *fn, sweep_args *args,
                          sweep_row *row) {
    struct cudaFuncAttributes attr;
    WB_CUDA(ctx, cudaFuncGetAttributes(&attr, fn));
    row->block = args->block;
    row->regs = attr.numRegs;
    row->local = (int)attr.localSizeBytes;
    row->occupancy = runtime_occupancy(ctx, fn, args->block, &row->blocks);
    row->predicted = -1;
    if (occ_ref_blocks_runtime_view(p, args->block, attr.numRegs, (int)attr.sharedSizeBytes, 0,
                                    0) == row->blocks) {
        occupancy_kernel k = {args->block, attr.numRegs, (int)attr.sharedSizeBytes};
        occupancy_result got;
        if (calc(a, &k, &got) == 0)
            row->predicted = got.blocks_per_sm;
        else
            row->predicted = -2;
    }
    wb_time_opts o = wb_time_defaults();
    o.warmup = 2;
    o.min_trials = 5;
    o.max_trials = 21;
    o.max_seconds = 1.0;
    double spread;
    WB_CUDA(ctx, wb_time_one(run_sweep, args, &o, &row->ms, &spread));
}

/* Writes the rows as occupancy_sweep.csv, which `make plots` draws
 * (slides/plots/05-occupancy.gp), and as occupancy_sweep.txt, a table with
 * bars to read in a terminal. */
static void sweep_write(wb_ctx *ctx, const sweep_row *rows, int n, double base_ms, int max_warps) {
    char path[4096];
    snprintf(path, sizeof path, "%s/occupancy_sweep.csv", wb_out_dir(ctx));
    FILE *f = fopen(path, "w");
    if (!f)
        wb_fail(ctx, "cannot write %s: %s", path, strerror(errno));
    fprintf(f, "series,kernel,block_size,registers,local_bytes,blocks_per_sm,occupancy_pct,"
               "predicted_pct,time_ms,speedup\n");
    for (int i = 0; i < n; i++) {
        const sweep_row *r = &rows[i];
        int warps = (r->block + W - 1) / W;
        double pred = r->predicted >= 0 ? 100.0 * r->predicted * warps / max_warps : -1;
        fprintf(f, "%s,%s,%d,%d,%d,%d,%.2f,%.2f,%.4f,%.3f\n", r->series, r->kernel, r->block,
                r->regs, r->local, r->blocks, 100 * r->occupancy, pred, r->ms, base_ms / r->ms);
    }
    fclose(f);

    snprintf(path, sizeof path, "%s/occupancy_sweep.txt", wb_out_dir(ctx));
    f = fopen(path, "w");
    if (!f)
        wb_fail(ctx, "cannot write %s: %s", path, strerror(errno));
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    double worst = 0;
    for (int i = 0; i < n; i++)
        worst = rows[i].ms > worst ? rows[i].ms : worst;
    fprintf(f, "Occupancy and time of the chase on %s (cc %d.%d), %d chains x %d hops\n", gpu->name,
            gpu->cc_major, gpu->cc_minor, perf_chains(gpu), CHAIN_HOPS);
    fprintf(f, "%-9s %-13s %5s %4s %5s %6s  %-28s %-34s %s\n", "series", "kernel", "block", "regs",
            "local", "blk/SM", "occupancy", "time (ms)", "speedup");
    for (int i = 0; i < n; i++) {
        const sweep_row *r = &rows[i];
        char occ_bar[21], time_bar[25];
        int ob = (int)(20 * r->occupancy + 0.5), tb = (int)(24 * r->ms / worst + 0.5);
        memset(occ_bar, '#', 20);
        occ_bar[ob > 20 ? 20 : ob] = '\0';
        memset(time_bar, '=', 24);
        time_bar[tb > 24 ? 24 : tb] = '\0';
        fprintf(f, "%-9s %-13s %5d %4d %5d %6d  %5.1f%% %-20s  %8.3f %-24s %5.2fx\n", r->series,
                r->kernel, r->block, r->regs, r->local, r->blocks, 100 * r->occupancy, occ_bar,
                r->ms, time_bar, base_ms / r->ms);
    }
    fclose(f);
}

static void test_sweep(wb_ctx *ctx) {
    calc_fn calc;
    WB_BIND(ctx, calc, occupancy_calc);
    cliff_fn student;
    WB_BIND(ctx, student, occupancy_cliff);
    config_fn config;
    WB_BIND(ctx, config, occupancy_cliff_config);
    occ_ref_props p;
    occupancy_arch a;
    int dev_blocks;
    device_arch(ctx, &p, &a, &dev_blocks);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    chase c;
    chase_open(ctx, &c, PERF_LINES, perf_chains(gpu), 1, &g);
    sweep_row rows[64];
    int n = 0;
    sweep_args args = {-1, 512, &c, student};
    rows[n].series = "baseline";
    snprintf(rows[n].kernel, sizeof rows[n].kernel, "bounds(512;1)");
    sweep_measure(ctx, calc, &p, &a, occ_baseline_kernel(), &args, &rows[n++]);
    double base_ms = rows[0].ms;
    for (int b = 0; b < N_SWEEP_BLOCKS; b++) {
        sweep_args s = {0, sweep_blocks[b], &c, student};
        rows[n].series = "block";
        snprintf(rows[n].kernel, sizeof rows[n].kernel, "%s", occ_sweep_name(0));
        sweep_measure(ctx, calc, &p, &a, occ_sweep_kernel(0), &s, &rows[n++]);
    }
    for (int i = 0; i < occ_sweep_count() && n < 60; i++) {
        sweep_args s = {i, 256, &c, student};
        rows[n].series = "registers";
        snprintf(rows[n].kernel, sizeof rows[n].kernel, "%s", occ_sweep_name(i));
        for (char *q = rows[n].kernel; *q; q++)
            *q = *q == ',' ? ';' : *q;
        sweep_measure(ctx, calc, &p, &a, occ_sweep_kernel(i), &s, &rows[n++]);
    }
    int yb;
    const void *yk = NULL;
    if (config(&yb, &yk) == 0 && yk) {
        struct cudaFuncAttributes attr;
        if (cudaFuncGetAttributes(&attr, yk) == cudaSuccess && yb >= 1 &&
            yb <= attr.maxThreadsPerBlock) {
            sweep_args s = {-2, yb, &c, student};
            rows[n].series = "yours";
            snprintf(rows[n].kernel, sizeof rows[n].kernel, "occupancy.cu");
            sweep_measure(ctx, calc, &p, &a, yk, &s, &rows[n++]);
        }
    }
    sweep_write(ctx, rows, n, base_ms, a.max_warps_per_sm);
    chase_close(&c);
    int compared = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i].predicted == -1)
            continue;
        compared++;
        if (rows[i].predicted == -2)
            wb_fail(ctx,
                    "sweep row %s %s: occupancy_calc returned -1 for %d threads, %d registers "
                    "(valid input) (" README_CONTRACT ")",
                    rows[i].series, rows[i].kernel, rows[i].block, rows[i].regs);
        if (rows[i].predicted != rows[i].blocks)
            wb_fail(ctx,
                    "sweep row %s %s at %d threads, %d registers: your calculator says %d "
                    "blocks per SM, the runtime %d (" README_SWEEP ")",
                    rows[i].series, rows[i].kernel, rows[i].block, rows[i].regs, rows[i].predicted,
                    rows[i].blocks);
    }
    double best = rows[0].ms;
    int best_i = 0;
    for (int i = 1; i < n; i++)
        if (rows[i].ms < best) {
            best = rows[i].ms;
            best_i = i;
        }
    wb_record(ctx, "sweep_best_speedup", base_ms / best, "x", 0, "ref");
    wb_measured(ctx,
                "%d rows, %d predictions right; fastest: %s %s at %d threads, %d registers, "
                "%.0f%% occupancy, %.2fx; table in %s/occupancy_sweep.txt (make plots draws "
                "it)",
                n, compared, rows[best_i].series, rows[best_i].kernel, rows[best_i].block,
                rows[best_i].regs, 100 * rows[best_i].occupancy, base_ms / best, wb_out_dir(ctx));
}

/* ------------------------------------------------------------- questions */

#define A100 "the A100 of README \"Questions\""

/* Questions about the GPU being graded: the expected answers come from its
 * own properties and the toolkit's header. */
static void my_gpu(wb_ctx *ctx, occ_ref_props *p, occupancy_arch *a) {
    int dev_blocks;
    device_arch(ctx, p, a, &dev_blocks);
}

static void test_q_my_warps(wb_ctx *ctx) {
    occ_ref_props p;
    occupancy_arch a;
    my_gpu(ctx, &p, &a);
    wb_question_number(ctx, "my_max_warps_per_sm", a.max_warps_per_sm, 0.0,
                       "warp slots of one SM of the GPU you grade on");
}

static void test_q_my_min_block(wb_ctx *ctx) {
    occ_ref_props p;
    occupancy_arch a;
    my_gpu(ctx, &p, &a);
    wb_question_number(ctx, "my_min_block_full", occ_ref_min_block_full(&a), 0.0,
                       "the smallest block size (a multiple of 32) that can fill every thread "
                       "slot of an SM of the GPU you grade on");
}

static void test_q_my_regs_full(wb_ctx *ctx) {
    occ_ref_props p;
    occupancy_arch a;
    my_gpu(ctx, &p, &a);
    int best = -1;
    for (int r = 0; r <= OCCUPANCY_MAX_REGS_PER_THREAD; r++) {
        occupancy_kernel k = {256, r, 0};
        occupancy_result res;
        ref_calc(ctx, &p, &k, &res);
        if (res.warps_per_sm == a.max_warps_per_sm)
            best = r;
    }
    wb_question_number(ctx, "my_max_regs_full_256", best, 0.0,
                       "the most registers per thread at which 256-thread blocks still fill "
                       "every warp slot of the GPU you grade on");
}

static void test_q_my_occ_33(wb_ctx *ctx) {
    occ_ref_props p;
    occupancy_arch a;
    my_gpu(ctx, &p, &a);
    occupancy_kernel k = {512, 33, 0};
    occupancy_result res;
    ref_calc(ctx, &p, &k, &res);
    wb_question_number(ctx, "my_occ_512_33regs", 100 * res.occupancy, 1e-9,
                       "occupancy in percent of 512-thread blocks at 33 registers on the GPU "
                       "you grade on");
}

/* ------------------------------------------ reading the profiler (ncu) */

/* Nsight Compute's "Achieved Occupancy" (its Occupancy section): warps
 * active per active cycle of an SM, in percent of its warp slots. Two
 * neighbours of it, read in the same run to name a student's slip: the same
 * count over all elapsed cycles (idle SMs included), and warps per active
 * cycle as a count. */
#define ACHIEVED_METRIC "sm__warps_active.avg.pct_of_peak_sustained_active"
#define ACHIEVED_ELAPSED "sm__warps_active.avg.pct_of_peak_sustained_elapsed"
#define ACHIEVED_PER_CYCLE "sm__warps_active.avg.per_cycle_active"
/* The launch is clock-driven: warp w of each 16-warp block lives (w + 1)
 * units of SM cycles, the block 16, one block per SM on any GPU, so the
 * reading depends only on the SM's warp slots (32, 48 or 64). Launch, start
 * and exit of a block take some hundred cycles of its 800,000, so two
 * readings of it agree to about a tenth of a point, and an answer rounded
 * to a whole percent is within half a point: 0.6 points takes in both. The
 * nearest wrong answers lie further on every SM size: half the theoretical
 * figure (a guess of 8 warps on average) three quarters of a point or more
 * below; the elapsed variant (the half wave leaves half the SMs idle for
 * half the time) a quarter of the reading below; warps per cycle as a
 * count, the theoretical figure and a fraction several points off. The
 * figures themselves are not written here (this file ships with the
 * handout): the reading is the answer of question.my_achieved_occupancy. */
#define ACHIEVED_TOL 0.6
#define ACHIEVED_TAG "wb-achieved: block grid regs smem_static smem_dyn blocks_per_sm max_warps:"
#define ACHIEVED_CALC_TAG "wb-achieved-calc: status occupancy:"

/* Under ncu: the grader's launch alone, no student code in the process, so
 * nothing under test can write into ncu's log. Also what a student runs by
 * hand (README.md, "Reading the profiler"). */
static void achieved_launch_child(wb_ctx *ctx) {
    occ_achieved_info in;
    WB_CUDA(ctx, occ_achieved_describe(&in));
    WB_CUDA(ctx, occ_achieved_run(&in));
    printf("%s %d %d %d %d %d %d %d\n", ACHIEVED_TAG, in.block, in.grid, in.regs, in.smem_static,
           in.smem_dyn, in.blocks_per_sm, in.max_warps_per_sm);
    printf("ran %d blocks of %d threads of " OCC_ACHIEVED_KERNEL " (%d registers, %d bytes of "
           "shared memory per block); the theoretical occupancy your calculator gives for it is "
           "occupancy_calc on your row of this GPU with {%d, %d, %d}\n",
           in.grid, in.block, in.regs, in.smem_static + in.smem_dyn, in.block, in.regs,
           in.smem_static + in.smem_dyn);
    fflush(stdout);
}

/* In a confined process of its own: the student's table and calculator for
 * that launch (shown beside the verdict, never graded here). */
static void achieved_calc_child(wb_ctx *ctx) {
    limits_fn limits;
    calc_fn calc;
    WB_BIND(ctx, limits, occupancy_arch_limits);
    WB_BIND(ctx, calc, occupancy_calc);
    occ_ref_props p;
    int dev_blocks;
    occ_achieved_info in;
    WB_CUDA(ctx, occ_dev_props(&p, &dev_blocks));
    WB_CUDA(ctx, occ_achieved_describe(&in));
    occupancy_arch a;
    occupancy_result r;
    occupancy_kernel k = {in.block, in.regs, in.smem_static + in.smem_dyn};
    memset(&r, 0, sizeof r);
    int st = limits(p.major, p.minor, &a);
    if (st == 0)
        st = calc(&a, &k, &r);
    printf("%s %d %.6f\n", ACHIEVED_CALC_TAG, st, r.occupancy);
    fflush(stdout);
}

/* The numbers after tag on the last line of log that has it; how many. */
static int read_tag(const char *log, const char *tag, double *v, int n) {
    FILE *f = fopen(log, "r");
    char line[512];
    int got = 0;
    while (f && fgets(line, sizeof line, f)) {
        const char *t = strstr(line, tag);
        if (!t)
            continue;
        t += strlen(tag);
        got = 0;
        for (char *end; got < n; t = end) {
            v[got] = strtod(t, &end);
            if (end == t)
                break;
            got++;
        }
    }
    if (f)
        fclose(f);
    return got;
}

/* Where an answer outside the tolerance came from, when it is a known slip. */
static const char *achieved_slip(double x, double achieved, double elapsed, double per_cycle,
                                 double theory, double calc) {
    if (x > 0 && x <= 1 && achieved > 1 + ACHIEVED_TOL)
        return "it looks like a fraction: ncu gives Achieved Occupancy in percent";
    if (fabs(x - theory) <= 0.5 || (calc > 0 && fabs(x - calc) <= 0.5) || fabs(x - 100) <= 0.5)
        return "it is the theoretical occupancy (your calculator's, or ncu's Theoretical "
               "Occupancy), not the achieved one that ncu measures";
    if (fabs(x - theory / 2) <= 0.3)
        return "it is half the theoretical figure: a guess, not a reading; read it with ncu";
    if (fabs(x - elapsed) <= ACHIEVED_TOL)
        return "it is the warps active over all elapsed cycles (" ACHIEVED_ELAPSED "), not "
               "Achieved Occupancy, which counts an SM's active cycles only (" ACHIEVED_METRIC ")";
    if (fabs(x - per_cycle) <= 0.5)
        return "it is warps active per cycle (" ACHIEVED_PER_CYCLE "), a count, not a share "
               "of the SM's warp slots";
    return "it is not ncu's Achieved Occupancy of " OCC_ACHIEVED_KERNEL " in that launch: "
           "profile the command of the README with --kernel-name " OCC_ACHIEVED_KERNEL;
}

/* One run of the grader's launch under ncu: the three readings, the launch
 * as its body printed it, and where ncu's log and the body's output are. */
typedef struct achieved_run {
    wb_ncu_reading a, e, c; /* ACHIEVED_METRIC, ACHIEVED_ELAPSED, ACHIEVED_PER_CYCLE */
    double info[7];         /* ACHIEVED_TAG's numbers */
    int n_info, status;     /* how many of them; ncu's exit status */
    double theory;          /* the launch's theoretical occupancy, in percent */
    wb_ncu_logs logs;       /* ncu's log and the body's output */
} achieved_run;

/* Runs this test's body again under ncu, where it makes the grader's launch
 * alone (WB_OCC_PART=launch: no student code in that process), and reads
 * it. Returns 1 when ncu gave Achieved Occupancy and the body described the
 * launch; 0 otherwise (r says what ncu said). */
static int achieved_profile(wb_ctx *ctx, achieved_run *r) {
    memset(r, 0, sizeof *r);
    const char *opts[] = {"--clock-control",
                          "none",
                          "--csv",
                          "--kernel-name",
                          OCC_ACHIEVED_KERNEL,
                          "--metrics",
                          ACHIEVED_METRIC "," ACHIEVED_ELAPSED "," ACHIEVED_PER_CYCLE,
                          NULL};
    r->status = wb_run_self_under_ncu(ctx, opts, "WB_OCC_PART=launch", &r->logs);
    const char *log = r->logs.ncu;
    wb_ncu_read(log, ACHIEVED_METRIC, OCC_ACHIEVED_KERNEL, NULL, &r->a);
    wb_ncu_read(log, ACHIEVED_ELAPSED, OCC_ACHIEVED_KERNEL, NULL, &r->e);
    wb_ncu_read(log, ACHIEVED_PER_CYCLE, OCC_ACHIEVED_KERNEL, NULL, &r->c);
    r->n_info = read_tag(r->logs.app, ACHIEVED_TAG, r->info, 7);
    if (!r->a.found || r->n_info != 7 || !(r->info[6] > 0))
        return 0;
    r->theory = 100.0 * r->info[5] * (r->info[0] / 32) / r->info[6];
    return 1;
}

/* ncu.achieved (0 points, the grader's code only): whether ncu can read this
 * GPU's counters, on the launch the student reads. Where it cannot, SKIP
 * with the fix, and the runner skips question.my_achieved_occupancy with
 * it (.skip_with). The reading itself is shown by that question alone. */
static void test_ncu_achieved(wb_ctx *ctx) {
    if (wb_under_tool(ctx)) {
        achieved_launch_child(ctx);
        return;
    }
    achieved_run r;
    int ok = achieved_profile(ctx, &r);
    /* ncu's log is named through wb_ncu_keep_log, which publishes none that
     * holds a reading: those are the answer of question.my_achieved_occupancy
     * or close to it. */
    if (r.a.no_permission)
        wb_ncu_skip_if_closed(ctx, &r.a, wb_ncu_keep_log(ctx, &r.logs));
    if (!ok)
        wb_skip(ctx,
                "ncu gave no %s for the grader's own launch of %s (exit status %d%s%s); "
                "ncu's log: %s",
                ACHIEVED_METRIC, OCC_ACHIEVED_KERNEL, r.status, r.a.error[0] ? ": " : "", r.a.error,
                wb_ncu_keep_log(ctx, &r.logs));
    wb_measured(ctx,
                "ncu reads this GPU's counters: %s of %s, %d blocks of %d threads (%d registers, "
                "%d bytes of shared memory a block; theoretical %.1f %%), read by "
                "question.my_achieved_occupancy",
                ACHIEVED_METRIC, OCC_ACHIEVED_KERNEL, (int)r.info[1], (int)r.info[0],
                (int)r.info[2], (int)(r.info[3] + r.info[4]), r.theory);
}

static void test_q_my_achieved(wb_ctx *ctx) {
    if (wb_under_tool(ctx)) {
        const char *part = getenv("WB_OCC_PART");
        if (part && strcmp(part, "calc") == 0)
            achieved_calc_child(ctx);
        else
            achieved_launch_child(ctx);
        return;
    }
    const char *v = wb_answer(ctx, "my_achieved_occupancy");
    double x;
    if (wb_answer_number(v, &x) != 0)
        wb_fail(ctx,
                "my_achieved_occupancy = %s is not a number: write ncu's Achieved Occupancy, "
                "in percent (%s)",
                v, README_NCU);
    char calc_log[PATH_MAX + 32];
    snprintf(calc_log, sizeof calc_log, "%s/achieved_calc.log", wb_out_dir(ctx));
    /* Everything of ncu's run is read before any student code runs (below). */
    achieved_run r;
    int ok = achieved_profile(ctx, &r);
    if (r.a.no_permission)
        wb_rerun(ctx,
                 "ncu could read the GPU's counters when grading began, and not now "
                 "(ERR_NVGPUCTRPERM); grade again (README.md, \"Debugging\"); log: %s",
                 wb_ncu_keep_log(ctx, &r.logs));
    if (!ok)
        wb_fail(ctx,
                "grader error: ncu gave no %s for the grader's own launch of %s (exit "
                "status %d%s%s); report it to your instructor; log: %s",
                ACHIEVED_METRIC, OCC_ACHIEVED_KERNEL, r.status, r.a.error[0] ? ": " : "", r.a.error,
                wb_ncu_keep_log(ctx, &r.logs));
    double theory = r.theory;
    /* The student's calculator, in a confined process (env runs what follows it). */
    const char *calc_argv[] = {"/usr/bin/env", NULL};
    wb_run_self_under(ctx, calc_argv, "WB_OCC_PART=calc", calc_log);
    double cv[2] = {-1, 0};
    char calc_words[96];
    if (read_tag(calc_log, ACHIEVED_CALC_TAG, cv, 2) == 2 && cv[0] == 0)
        snprintf(calc_words, sizeof calc_words, "your calculator %.1f %%", 100 * cv[1]);
    else
        snprintf(calc_words, sizeof calc_words, "your calculator gave no answer");
    double calc = cv[0] == 0 ? 100 * cv[1] : -1;
    if (!(fabs(x - r.a.value) <= ACHIEVED_TOL))
        wb_fail(ctx,
                "my_achieved_occupancy = %s: expected ncu's Achieved Occupancy (%s) of %s in "
                "the grader's launch (%d blocks of %d threads), within %.1f points of the "
                "grader's own reading of it on this GPU (not shown: the reading is the "
                "answer), which yours is not; %s. "
                "Theoretical: %.1f %% (%s). Take the reading with the command of %s",
                v, ACHIEVED_METRIC, OCC_ACHIEVED_KERNEL, (int)r.info[1], (int)r.info[0],
                ACHIEVED_TOL,
                achieved_slip(x, r.a.value, r.e.found ? r.e.value : -1, r.c.found ? r.c.value : -1,
                              theory, calc),
                theory, calc_words, README_NCU);
    /* Recorded only once the answer agrees: a measurements.csv that kept the
     * grader's reading after a miss would hand it to the student. */
    wb_record(ctx, "achieved_occupancy_pct", r.a.value, "%", 0, "ref");
    wb_record(ctx, "theoretical_occupancy_pct", theory, "%", 0, "ref");
    wb_record(ctx, "answered_achieved_pct", x, "%", ACHIEVED_TOL, "in");
    wb_measured(ctx,
                "my_achieved_occupancy = %s; ncu reads %.2f %% (%s), theoretical %.1f %% (%s): "
                "achieved is %.0f %% of theoretical (%s)",
                v, r.a.value, ACHIEVED_METRIC, theory, calc_words, 100 * r.a.value / theory,
                README_NCU);
}

/* ----------------------------------------------------------- the table */

static const wb_test tests[] = {
    WB_HOST("correct.table", 12, test_table, .hint = README_TABLE),
    WB_HOST("correct.calc_worked", 8, test_calc_worked, .hint = README_WORKED),
    WB_HOST("correct.calc_random", 10, test_calc_random, .timeout_s = 60,
            .hint = "compare your limits with the expected ones in the message, resource by "
                    "resource (" README_TOGETHER ")"),
    WB_HOST("correct.calc_grid", 6, test_calc_grid, .timeout_s = 120, .hint = README_REGS),
    WB_HOST("correct.calc_factors", 8, test_calc_factors, .timeout_s = 60, .hint = README_TOGETHER),
    WB_HOST("correct.invalid", 3, test_invalid, .hint = README_CONTRACT),
    /* The host tests' bodies again, the library built for AddressSanitizer: a write one past
     * an array the table or the calculator allocates (the allocator's slack) or declares (the
     * frame's padding) changes no field the tests above check. Without a GPU, like them. */
    WB_ASAN_OF("sanitizer.host", 2,
               "correct.table correct.calc_worked correct.calc_random correct.calc_grid "
               "correct.calc_factors correct.invalid"),
    WB_GPU("correct.table_device", 4, test_table_device, .timeout_s = 60, .hint = README_TABLE),
    WB_GPU("correct.calc_device", 5, test_calc_device, .timeout_s = 120, .hint = README_TOGETHER),
    WB_GPU("correct.cliff", 4, test_cliff, .timeout_s = 120, .hint = README_CLIFF),
    WB_GPU("correct.cliff_resources", 6, test_cliff_resources, .timeout_s = 60,
           .hint = "__launch_bounds__(threads, blocks per SM) caps the registers at 65536 / "
                   "(threads x blocks) (" README_CLIFF ")"),
    WB_PERF("perf.cliff", 12, perf_cliff, .timeout_s = 180, .requires = "correct.cliff",
            .hint = README_CLIFF),
    WB_GPU("measure.sweep", 5, test_sweep, .timeout_s = 240, .requires = "correct.calc_random",
           .hint = README_SWEEP,
           .limit = {.text =
                         "on every row of occupancy_sweep.csv, your calculator's blocks per "
                         "SM equal the runtime's (cudaOccupancyMaxActiveBlocksPerMultiprocessor)",
                     .derivation = "a right calculator gives the runtime's blocks per SM exactly, "
                                   "on any GPU, for the registers and shared memory the compiler "
                                   "gave each kernel, and rows where the driver and "
                                   "cuda_occupancy.h disagree are not compared, so only a wrong "
                                   "calculator misses",
                     .figures = "H100 and H200 (2026-11-22, CUDA 13.0): reference 22 rows, 22 "
                                "predictions right; stub not graded (correct.calc_random "
                                "fails)"}),
    /* The A100 questions are not the chapter's worked cases (README.md shows
     * those worked): the same reasoning, other blocks and registers. */
    WB_QUESTION_HASH("a100_occ_40_threads", 1, 0x5fb90921a5050d50ULL,
                     "occupancy in percent of 40-thread blocks on " A100 ", counted in warp "
                     "slots: resident warps over the SM's 64, a partial warp taking a whole "
                     "slot (not resident threads over 2048)"),
    WB_QUESTION_HASH("a100_warps_896_threads", 1, 0xfc7da71aa2524a31ULL,
                     "resident warps per SM of 896-thread blocks on " A100),
    WB_QUESTION_HASH("a100_occ_1024_40regs", 1, 0x50ecda2453c9e40dULL,
                     "occupancy in percent of 1024-thread blocks at 40 registers on " A100),
    WB_QUESTION_HASH("a100_blocks_256_65regs", 1, 0x077bc5f167cbe015ULL,
                     "resident 256-thread blocks per SM at 65 registers per thread on " A100),
    WB_QUESTION_HASH("a100_occ_512_41regs", 1, 0x6c6c6c566e81f8e9ULL,
                     "occupancy in percent of 512-thread blocks at 41 registers on " A100),
    WB_QUESTION_HASH("a100_regs_alloc_512_41regs", 1, 0x85e787c85419b5d9ULL,
                     "registers the SM gives its resident 512-thread blocks at 41 registers "
                     "per thread on " A100 ", allocation units included"),
    WB_QUESTION_HASH("a100_occ_128regs", 1, 0x77c8fd126b768636ULL,
                     "the highest occupancy in percent of a kernel with 128 registers per "
                     "thread on " A100),
    WB_QUESTION_HASH("a100_blocks_smem_32k", 1, 0xd9628652d87f0cffULL,
                     "resident blocks per SM of 256-thread blocks with 32 KB of shared memory "
                     "each on " A100),
    WB_QUESTION_HASH("a100_limit_128_40regs", 1, 0xb579c414ef887332ULL,
                     "the letter of the resource that limits 128-thread blocks at 40 registers "
                     "on " A100),
    WB_QUESTION_HASH("cc86_min_block_full", 1, 0xa3bb343807db5b30ULL,
                     "the smallest block size (a multiple of 32) that can fill every thread slot "
                     "of a compute capability 8.6 SM"),
    WB_QUESTION_FN("question.my_max_warps_per_sm", 1, test_q_my_warps, .needs_gpu = 1),
    WB_QUESTION_FN("question.my_min_block_full", 1, test_q_my_min_block, .needs_gpu = 1),
    WB_QUESTION_FN("question.my_max_regs_full_256", 1, test_q_my_regs_full, .needs_gpu = 1),
    WB_QUESTION_FN("question.my_occ_512_33regs", 1, test_q_my_occ_33, .needs_gpu = 1),
    /* The student reads the profiler: ncu's Achieved Occupancy of the grader's
     * launch, against the grader's own reading. ncu.achieved profiles that
     * launch with the grader's code only: where it skips (the GPU's counters
     * closed, ncu broken), the question is skipped with it, by the runner. */
    WB_MEASURE_OWN("ncu.achieved", test_ncu_achieved, .timeout_s = 240, .tool = "ncu",
                   .hint = README_NCU),
    {.id = "question.my_achieved_occupancy",
     .kind = WB_QUESTION,
     .points = 3,
     .needs_gpu = 1,
     .timeout_s = 240,
     .fn = test_q_my_achieved,
     .tool = "ncu",
     .skip_with = "ncu.achieved",
     .hint = README_NCU,
     .limit = {.text = "your Achieved Occupancy within 0.6 percentage points of the "
                       "grader's ncu reading (sm__warps_active.avg.pct_of_peak_"
                       "sustained_active) of the same launch on the same GPU",
               .derivation = "the launch is clock-driven, so two readings agree to a tenth of "
                             "a point and a whole percent is within half a point, while the "
                             "nearest wrong answers (half the theoretical figure, three "
                             "quarters of a point or more off; the elapsed variant, three "
                             "quarters of the reading; warps per cycle) lie further on every "
                             "SM size, the theoretical figure further still",
               .figures = "H100 80GB HBM3 (2026-11-27): four ncu readings the same to the "
                          "hundredth, the reference's answer within them (the reading, the "
                          "question's answer, is not written here)"}},
};

WB_LAB_MAIN(tests)
