/* latency_model.cu - lab 07: the latency-hidden-factor model and its predictions */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must return, and how it is graded) is in latency_model.h; README.md
 * explains the model. `make grade LAB=07` grades your work; everything but
 * predict.rank runs without a GPU.
 */
#include "latency_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARP LATENCY_MODEL_WARP

/* ================================================= part 1: the model */

/* ---- argument checks (given): the contract's -1 cases that are not the model */

static int finite_nonneg(double x) {
    return x >= 0.0 && x < INFINITY; /* false for NaN, negative and infinite values */
}

static int valid_limits(const latency_model_gpu *g) {
    return g != NULL && g->sm_count >= 1 && g->max_threads_per_block >= 1 &&
           g->max_threads_per_sm >= 1 && g->max_warps_per_sm >= 1 && g->max_blocks_per_sm >= 1 &&
           g->regs_per_sm >= 1 && g->smem_per_sm >= 0;
}

static int valid_launch(const latency_model_gpu *g, const latency_model_kernel *k) {
    return valid_limits(g) && k != NULL && k->threads_per_block >= 1 && k->regs_per_thread >= 0 &&
           k->smem_per_block >= 0;
}

static int valid_level(const latency_model_gpu *g, const latency_model_block *b) {
    return g != NULL && b != NULL && b->level >= LATENCY_MODEL_NONE &&
           b->level <= LATENCY_MODEL_SHARED;
}

static int valid_factor_args(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                             int j) {
    return finite_nonneg(ilp) && finite_nonneg(ilp_next) && finite_nonneg(la) &&
           finite_nonneg(bw) && tlp >= 1 && blp >= 1 && j >= 1 &&
           (long long)j <= (long long)tlp * blp;
}

/* ---- TLP, BLP, RepNum */

int latency_model_tlp(const latency_model_gpu *g, const latency_model_kernel *k) {
    if (!valid_launch(g, k))
        return -1;
    /* BEGIN STUDENT CODE */
    /* The paper counts a warp as one of its "threads", so TLP, the
     * parallelism among the warps of one block, is the block's warp count.
     * A partial warp is still a whole warp (lab 02), and registers are
     * handed out per warp: 32 lanes' worth, idle lanes included. A block
     * that exceeds any one limit cannot start at all: then there is no
     * parallelism to speak of, and the launch would fail. */
    const int warps = (k->threads_per_block + WARP - 1) / WARP;
    const long long regs = (long long)k->regs_per_thread * WARP * warps;
    const int fits = k->threads_per_block <= g->max_threads_per_block &&
                     k->threads_per_block <= g->max_threads_per_sm &&
                     warps <= g->max_warps_per_sm && regs <= g->regs_per_sm &&
                     k->smem_per_block <= g->smem_per_sm;
    return fits ? warps : 0;
    /* END STUDENT CODE */
}

/* BEGIN STUDENT CODE */
int latency_model_blp(const latency_model_gpu *g, const latency_model_kernel *k) {
    if (!valid_launch(g, k))
        return -1;
    /* Every resource of the SM is divided among resident blocks; the one
     * that runs out first decides how many blocks live there at once. */
    const int warps = latency_model_tlp(g, k);
    if (warps <= 0)
        return warps;
    int blp = g->max_blocks_per_sm;
    if (g->max_warps_per_sm / warps < blp)
        blp = g->max_warps_per_sm / warps;
    if (g->max_threads_per_sm / k->threads_per_block < blp)
        blp = g->max_threads_per_sm / k->threads_per_block;
    if (k->regs_per_thread > 0) {
        const long long per_block = (long long)k->regs_per_thread * WARP * warps;
        if (g->regs_per_sm / per_block < blp)
            blp = (int)(g->regs_per_sm / per_block);
    }
    if (k->smem_per_block > 0 && g->smem_per_sm / k->smem_per_block < blp)
        blp = g->smem_per_sm / k->smem_per_block;
    return blp;
}

double latency_model_rep_num(const latency_model_gpu *g, const latency_model_kernel *k) {
    if (!valid_launch(g, k))
        return -1.0;
    /* One "repetition" is BLP blocks on each of the NSM SMs. The paper
     * divides without rounding, so a last, partial round counts for the
     * share of a full one that it is (README.md, "Reading the paper"). */
    const int blp = latency_model_blp(g, k);
    if (blp < 1 || k->blocks < 1)
        return -1.0;
    return (double)k->blocks / ((double)blp * (double)g->sm_count);
}
/* END STUDENT CODE */

/* ---- one basic block: ILP_i, MemAccLa_i, MemAccBw_i */

double latency_model_ilp(const latency_model_gpu *g, const latency_model_block *b) {
    if (g == NULL || b == NULL || b->compute < 0 || b->global < 0 || b->shared < 0 ||
        !finite_nonneg(g->compute_cycles) || !finite_nonneg(g->global_issue_cycles) ||
        !finite_nonneg(g->shared_issue_cycles))
        return -1.0;
    /* BEGIN STUDENT CODE */
    /* How long one warp keeps the SM's issue slot busy between two waits:
     * each instruction costs its throughput, in cycles per warp. The
     * memory instructions count here only for issuing; their data takes
     * MemAccLa and MemAccBw. */
    return b->compute * g->compute_cycles + b->global * g->global_issue_cycles +
           b->shared * g->shared_issue_cycles;
    /* END STUDENT CODE */
}

/* BEGIN STUDENT CODE */
double latency_model_mem_la(const latency_model_gpu *g, const latency_model_block *b) {
    if (!valid_level(g, b))
        return -1.0;
    /* The latency of the level the data comes from (Table 2: "La."). */
    double la = 0.0;
    if (b->level == LATENCY_MODEL_GLOBAL)
        la = g->global_latency;
    else if (b->level == LATENCY_MODEL_SHARED)
        la = g->shared_latency;
    return finite_nonneg(la) ? la : -1.0;
}

double latency_model_mem_bw(const latency_model_gpu *g, const latency_model_block *b) {
    if (!valid_level(g, b) || b->bytes < 0 || (b->bytes > 0 && b->level == LATENCY_MODEL_NONE))
        return -1.0;
    if (b->bytes == 0)
        return 0.0;
    /* The time a warp's data occupies its SM's share of the bandwidth: all
     * SMs share the global memory equally (Bandwidth / NSM, converted from
     * bytes per ns to bytes per cycle); each SM has its own shared memory. */
    double per_sm;
    if (b->level == LATENCY_MODEL_GLOBAL)
        per_sm = g->global_gbps / g->clock_ghz / g->sm_count;
    else
        per_sm = g->shared_bytes_per_cycle;
    if (!(per_sm > 0.0 && per_sm < INFINITY))
        return -1.0; /* also catches a zero or negative clock or SM count */
    return (double)WARP * b->bytes / per_sm;
}
/* END STUDENT CODE */

/* ---- the latency-hidden factors */

int latency_model_case(double ilp, double ilp_next, double bw) {
    if (!finite_nonneg(ilp) || !finite_nonneg(ilp_next) || !finite_nonneg(bw))
        return -1;
    /* BEGIN STUDENT CODE */
    /* Two questions: does a warp's own compute (ILP_i) outlast its data
     * transfer, so that transfers of successive warps never queue? And
     * does the next block's compute outlast it? */
    if (ilp >= bw)
        return ilp_next >= bw ? 1 : 2;
    return ilp_next >= bw ? 4 : 3;
    /* END STUDENT CODE */
}

double latency_model_con(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                         int j) {
    if (!valid_factor_args(ilp, ilp_next, la, bw, tlp, blp, j))
        return -1.0;
    /* BEGIN STUDENT CODE */
    /* Warp j waits la + bw for its data, plus the queue of the j-1 warps
     * ahead of it whenever one transfer outlasts one warp's compute. While
     * it waits, the SM issues block i for the W-j warps behind it and
     * block i+1 for the j-1 warps ahead, each of those taking at least as
     * long as its data arrives apart (max(ilp, bw)) but no longer than the
     * block itself (ilp_next). What is not covered stays exposed. */
    if (la + bw == 0.0)
        return 0.0;
    const int w = tlp * blp;
    const double covered = ilp * (w - j) + (j - 1) * fmin(ilp_next, fmax(ilp, bw));
    const double wait = la + bw + (j - 1) * fmax(0.0, bw - ilp);
    return fmax(0.0, 1.0 - covered / wait);
    /* END STUDENT CODE */
}

double latency_model_syn(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                         int j) {
    if (!valid_factor_args(ilp, ilp_next, la, bw, tlp, blp, j))
        return -1.0;
    /* BEGIN STUDENT CODE */
    /* A barrier ends block i. Only warps of earlier thread blocks can run
     * block i+1 while warp j waits (its own block's warps are held at the
     * barrier), so the j-1 warps ahead are rounded down to whole blocks of
     * NT warps. And no warp of the block leaves before the block's last
     * data arrives, so the queue ahead is rounded up to whole blocks. */
    if (la + bw == 0.0)
        return 0.0;
    const int w = tlp * blp, nt = tlp, ahead = j - 1;
    const double done_blocks = (double)(ahead / nt * nt);
    const double queued_blocks = (double)((ahead + nt - 1) / nt * nt);
    const double covered = ilp * (w - j) + done_blocks * fmin(ilp_next, fmax(ilp, bw));
    const double wait = la + bw + queued_blocks * fmax(0.0, bw - ilp);
    return fmax(0.0, 1.0 - covered / wait);
    /* END STUDENT CODE */
}

/* ---- the time of one repetition, and of the kernel */

/* BEGIN STUDENT CODE */
double latency_model_time_one_rep(const latency_model_gpu *g, const latency_model_kernel *k,
                                  latency_model_sum how) {
    if (!valid_launch(g, k) || k->nbb < 1 || k->bb == NULL ||
        (how != LATENCY_MODEL_PRINTED && how != LATENCY_MODEL_OVERLAPPED))
        return -1.0;
    for (int i = 0; i < k->nbb; i++)
        if (k->bb[i].sync != 0 && k->bb[i].sync != 1)
            return -1.0;
    const int tlp = latency_model_tlp(g, k), blp = latency_model_blp(g, k);
    if (tlp < 1 || blp < 1)
        return -1.0;
    const int w = tlp * blp;
    double total = 0.0;
    for (int i = 0; i < k->nbb; i++) {
        const latency_model_block *b = &k->bb[i];
        const latency_model_block *next = &k->bb[(i + 1) % k->nbb]; /* ILP_{NBB+1} = ILP_1 */
        const double ilp = latency_model_ilp(g, b), ilp_next = latency_model_ilp(g, next);
        const double la = latency_model_mem_la(g, b), bw = latency_model_mem_bw(g, b);
        if (ilp < 0 || ilp_next < 0 || la < 0 || bw < 0)
            return -1.0;
        /* Each warp's exposed wait is its factor times the wait the factor
         * is a share of (the factor's denominator). */
        double exposed = 0.0;
        for (int j = 1; j <= w; j++) {
            double factor, queued;
            if (b->sync) {
                factor = latency_model_syn(ilp, ilp_next, la, bw, tlp, blp, j);
                queued = (double)((j - 1 + tlp - 1) / tlp * tlp);
            } else {
                factor = latency_model_con(ilp, ilp_next, la, bw, tlp, blp, j);
                queued = (double)(j - 1);
            }
            const double e = factor * (la + bw + queued * fmax(0.0, bw - ilp));
            /* As printed, every warp's exposed wait adds to the SM's time.
             * But the warps wait at the same time: a stall that delays warp
             * 1 delays all the warps behind it too, so the SM idles only as
             * long as the worst-covered warp (README.md, "TimeOneRep and
             * TimeTotal"). */
            exposed = how == LATENCY_MODEL_PRINTED ? exposed + e : fmax(exposed, e);
        }
        /* SMComputeTime_i: the SM issues block i once for each of its W warps. */
        total += w * ilp + exposed;
    }
    return total;
}

double latency_model_time_total(const latency_model_gpu *g, const latency_model_kernel *k,
                                latency_model_sum how) {
    const double one = latency_model_time_one_rep(g, k, how);
    const double reps = latency_model_rep_num(g, k);
    if (one < 0 || reps < 0)
        return -1.0;
    return one * reps;
}
/* END STUDENT CODE */

/* ======================= part 2: the matrix multiplies in the model's terms */

static int valid_mm_args(int n, int bs, int regs_per_thread, const latency_model_kernel *k,
                         const latency_model_block *bb) {
    return k != NULL && bb != NULL && bs >= 1 && bs <= 32 && n >= bs && n % bs == 0 &&
           regs_per_thread >= 0;
}

/* One block, in the order of the struct's fields. */
[[maybe_unused]] static latency_model_block mm_block(int compute, int global, int shared, int level,
                                                     int bytes, int sync) {
    latency_model_block b = {compute, global, shared, level, bytes, sync};
    return b;
}

int latency_model_describe_naive(int n, int bs, int regs_per_thread, latency_model_kernel *k,
                                 latency_model_block *bb, int cap) {
    if (!valid_mm_args(n, bs, regs_per_thread, k, bb))
        return -1;
    /* BEGIN STUDENT CODE */
    /* A warp waits each time it uses the elements of A and B it loaded,
     * so every step of the k-loop is a basic block: the multiply-add of
     * the previous step's elements, and the loads of this step's. Block 0
     * computes the indices and issues the first loads; the last block
     * does the last multiply-add and stores C (the paper keeps the store
     * apart: WA + 2 blocks; it changes nothing of substance). */
    const int nbb = n + 1;
    if (cap < nbb)
        return -1;
    k->threads_per_block = bs * bs;
    k->regs_per_thread = regs_per_thread;
    k->smem_per_block = 0;
    k->blocks = (long long)(n / bs) * (n / bs);
    k->nbb = nbb;
    k->bb = bb;
    /* row, col from blockIdx and threadIdx (2 IMAD), the two base addresses
     * (2), the accumulator and the loop counter (2); LDG A, LDG B */
    bb[0] = mm_block(6, 2, 0, LATENCY_MODEL_GLOBAL, 8, 0);
    /* FFMA, the two addresses advance (A by 1, B by n), the loop test;
     * LDG A, LDG B */
    for (int s = 1; s < n; s++)
        bb[s] = mm_block(4, 2, 0, LATENCY_MODEL_GLOBAL, 8, 0);
    /* the last FFMA and C's address; STG C */
    bb[n] = mm_block(2, 1, 0, LATENCY_MODEL_GLOBAL, 4, 0);
    return nbb;
    /* END STUDENT CODE */
}

/* BEGIN STUDENT CODE */
int latency_model_describe_tiled(int n, int bs, int regs_per_thread, latency_model_kernel *k,
                                 latency_model_block *bb, int cap) {
    if (!valid_mm_args(n, bs, regs_per_thread, k, bb))
        return -1;
    /* Three basic blocks per tile, as the paper counts them (3 WA/BS + 1):
     * the global loads (the warp then waits for them), the stores into
     * shared memory ending in a barrier, and the bs multiply-adds from
     * shared memory ending in a barrier. The inner loop is unrolled (bs is
     * a compile-time constant in the grader's kernel), so its shared loads
     * are issued together and waited for once. Then C is stored. */
    const int tiles = n / bs, nbb = 3 * tiles + 1;
    if (cap < nbb)
        return -1;
    k->threads_per_block = bs * bs;
    k->regs_per_thread = regs_per_thread;
    k->smem_per_block = 2 * bs * bs * (int)sizeof(float); /* As and Bs */
    k->blocks = (long long)tiles * tiles;
    k->nbb = nbb;
    k->bb = bb;
    for (int t = 0; t < tiles; t++) {
        /* (tile 0: the indices and base addresses) the two addresses;
         * LDG A, LDG B */
        bb[3 * t] = mm_block(t == 0 ? 8 : 3, 2, 0, LATENCY_MODEL_GLOBAL, 8, 0);
        /* STS As, STS Bs; BAR */
        bb[3 * t + 1] = mm_block(1, 0, 2, LATENCY_MODEL_SHARED, 8, 1);
        /* bs x (LDS As, LDS Bs, FFMA), the loop test; BAR */
        bb[3 * t + 2] = mm_block(bs + 2, 0, 2 * bs, LATENCY_MODEL_SHARED, 8 * bs, 1);
    }
    /* C's address; STG C */
    bb[3 * tiles] = mm_block(1, 1, 0, LATENCY_MODEL_GLOBAL, 4, 0);
    return nbb;
}

int latency_model_describe_volkov(int n, int regs_per_thread, latency_model_kernel *k,
                                  latency_model_block *bb, int cap) {
    if (!valid_mm_args(n, 16, regs_per_thread, k, bb) || n % 64 != 0)
        return -1;
    /* The tiled kernel's rules, with two blocks for every step of k in
     * place of one: a step needs an element from global memory and a row
     * of the tile from shared memory, and a block waits on one level
     * only. Register blocking shows in the counts: the one global load of
     * a step feeds 16 multiply-adds, one per element of C the thread
     * holds, and each of them needs one shared load (the tiled kernel's
     * needs two). Per tile of 16 steps: the tile's global loads; its
     * stores into shared memory ending in a barrier; 16 x (the previous
     * step's FMAs and this step's global load; this step's row of the
     * tile); the last step's FMAs ending in the second barrier. Then C. */
    const int steps = 16, tiles = n / steps, per_tile = 2 * steps + 3;
    const int nbb = per_tile * tiles + 1;
    if (cap < nbb)
        return -1;
    k->threads_per_block = 16 * 4;
    k->regs_per_thread = regs_per_thread;
    k->smem_per_block = 16 * 17 * (int)sizeof(float); /* the tile, padded as Volkov's */
    k->blocks = (long long)(n / 64) * (n / 16);       /* 16 rows x 64 columns of C each */
    k->nbb = nbb;
    k->bb = bb;
    for (int t = 0; t < tiles; t++) {
        latency_model_block *p = bb + per_tile * t;
        /* (tile 0: the indices and base addresses) the address; 4 x LDG */
        p[0] = mm_block(t == 0 ? 8 : 2, 4, 0, LATENCY_MODEL_GLOBAL, 16, 0);
        /* 4 x STS into the tile; BAR */
        p[1] = mm_block(1, 0, 4, LATENCY_MODEL_SHARED, 16, 1);
        for (int s = 0; s < steps; s++) {
            /* 16 FFMA of the previous step (none before the first), the
             * address; LDG of this step's element */
            p[2 + 2 * s] = mm_block(s == 0 ? 1 : steps + 1, 1, 0, LATENCY_MODEL_GLOBAL, 4, 0);
            /* 16 x LDS: this step's row of the tile */
            p[3 + 2 * s] = mm_block(0, 0, steps, LATENCY_MODEL_SHARED, 4 * steps, 0);
        }
        /* 16 FFMA of the last step, the loop test; BAR (nothing to wait for) */
        p[per_tile - 1] = mm_block(steps + 2, 0, 0, LATENCY_MODEL_NONE, 0, 1);
    }
    /* the address; 16 x STG of C */
    bb[nbb - 1] = mm_block(2, 16, 0, LATENCY_MODEL_GLOBAL, 64, 0);
    return nbb;
}
/* END STUDENT CODE */
