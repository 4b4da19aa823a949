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
    /* TODO(07-latency-model): how many warps does one block have, and does it fit on an SM at all?
     * Hint: README.md, "TLP, BLP and RepNum". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

/* TODO(07-latency-model): BLP, how many blocks the scarcest resource of an SM leaves
 * room for; then RepNum, the rounds of BLP blocks on every SM (the argument checks
 * are given). Hint: README.md, "TLP, BLP and RepNum". */
/* BEGIN STUDENT CODE */
int latency_model_blp(const latency_model_gpu *g, const latency_model_kernel *k) {
    if (!valid_launch(g, k))
        return -1;
    return 0;
}

double latency_model_rep_num(const latency_model_gpu *g, const latency_model_kernel *k) {
    if (!valid_launch(g, k))
        return -1.0;
    return 0.0;
}
/* END STUDENT CODE */

/* ---- one basic block: ILP_i, MemAccLa_i, MemAccBw_i */

double latency_model_ilp(const latency_model_gpu *g, const latency_model_block *b) {
    if (g == NULL || b == NULL || b->compute < 0 || b->global < 0 || b->shared < 0 ||
        !finite_nonneg(g->compute_cycles) || !finite_nonneg(g->global_issue_cycles) ||
        !finite_nonneg(g->shared_issue_cycles))
        return -1.0;
    /* TODO(07-latency-model): one warp's issue time for the block, from each instruction's
     * throughput. Hint: README.md, "Basic blocks and ILP". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

/* TODO(07-latency-model): the latency of the level the block waits on, and the time a
 * warp's data takes at its SM's share of the bandwidth (the argument checks are given).
 * Hint: README.md, "MemAccLa and MemAccBw". */
/* BEGIN STUDENT CODE */
double latency_model_mem_la(const latency_model_gpu *g, const latency_model_block *b) {
    if (!valid_level(g, b))
        return -1.0;
    return 0.0;
}

double latency_model_mem_bw(const latency_model_gpu *g, const latency_model_block *b) {
    if (!valid_level(g, b) || b->bytes < 0 || (b->bytes > 0 && b->level == LATENCY_MODEL_NONE))
        return -1.0;
    if (b->bytes == 0)
        return 0.0;
    return 0.0;
}
/* END STUDENT CODE */

/* ---- the latency-hidden factors */

int latency_model_case(double ilp, double ilp_next, double bw) {
    if (!finite_nonneg(ilp) || !finite_nonneg(ilp_next) || !finite_nonneg(bw))
        return -1;
    /* TODO(07-latency-model): which of the four cases of section 2.3?
     * Hint: README.md, "The four cases and LatencyHiddenCon". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

double latency_model_con(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                         int j) {
    if (!valid_factor_args(ilp, ilp_next, la, bw, tlp, blp, j))
        return -1.0;
    /* TODO(07-latency-model): the merged formula of the four cases.
     * Hint: README.md, "The four cases and LatencyHiddenCon". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

double latency_model_syn(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                         int j) {
    if (!valid_factor_args(ilp, ilp_next, la, bw, tlp, blp, j))
        return -1.0;
    /* TODO(07-latency-model): the factor when a barrier ends the block.
     * Hint: README.md, "LatencyHiddenSyn". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

/* ---- the time of one repetition, and of the kernel */

/* TODO(07-latency-model): compute time and exposed waits of every basic block for one
 * round, then the time of all rounds (the argument checks are given).
 * Hint: README.md, "TimeOneRep and TimeTotal". */
/* BEGIN STUDENT CODE */
double latency_model_time_one_rep(const latency_model_gpu *g, const latency_model_kernel *k,
                                  latency_model_sum how) {
    if (!valid_launch(g, k) || k->nbb < 1 || k->bb == NULL ||
        (how != LATENCY_MODEL_PRINTED && how != LATENCY_MODEL_OVERLAPPED))
        return -1.0;
    for (int i = 0; i < k->nbb; i++)
        if (k->bb[i].sync != 0 && k->bb[i].sync != 1)
            return -1.0;
    return 0.0;
}

double latency_model_time_total(const latency_model_gpu *g, const latency_model_kernel *k,
                                latency_model_sum how) {
    (void)g;
    (void)k;
    (void)how;
    return 0.0;
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
    /* TODO(07-latency-model): the naive kernel's basic blocks, and its launch.
     * Hint: README.md, "The matrix multiplies in the model's terms". */
    /* BEGIN STUDENT CODE */
    (void)cap;
    return 0;
    /* END STUDENT CODE */
}

/* TODO(07-latency-model): the tiled kernel's basic blocks and its launch, then those of
 * Volkov's kernel, whose register blocking needs the rules extended (the argument checks
 * are given). Hint: README.md, "The matrix multiplies in the model's terms". */
/* BEGIN STUDENT CODE */
int latency_model_describe_tiled(int n, int bs, int regs_per_thread, latency_model_kernel *k,
                                 latency_model_block *bb, int cap) {
    if (!valid_mm_args(n, bs, regs_per_thread, k, bb))
        return -1;
    (void)cap;
    return 0;
}

int latency_model_describe_volkov(int n, int regs_per_thread, latency_model_kernel *k,
                                  latency_model_block *bb, int cap) {
    if (!valid_mm_args(n, 16, regs_per_thread, k, bb) || n % 64 != 0)
        return -1;
    (void)cap;
    return 0;
}
/* END STUDENT CODE */
