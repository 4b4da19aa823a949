/* occ_reference.h - lab 05's grader side: the toolkit's occupancy calculator and the grader's
 * kernels */
/* SPDX-License-Identifier: MIT */
#ifndef OCC_REFERENCE_H
#define OCC_REFERENCE_H

#include "occupancy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What cudaGetDeviceProperties reports for a device of one capability: the
 * inputs of cuda_occupancy.h's cudaOccDeviceProp. */
typedef struct occ_ref_props {
    int major, minor;
    int max_threads_per_block, max_threads_per_sm;
    int regs_per_sm, regs_per_block;
    int smem_per_sm, smem_per_block, smem_optin, smem_reserved;
} occ_ref_props;

/* ---- occ_reference.cu: host only ---- */

int occ_ref_n_known(void);
const occ_ref_props *occ_ref_known(int i);
/* Made-up SMs for the calculator (occ_reference.cu says which): the rules
 * of a known capability with another register file. */
int occ_ref_n_other(void);
const occ_ref_props *occ_ref_other(int i);
/* NULL for a capability outside the lab's seven. */
const occ_ref_props *occ_ref_lookup(int major, int minor);
/* The lab's table row for a device with properties p, every field the
 * header derives taken from the header. Returns 0, or -1 when the header
 * does not know the capability. */
int occ_ref_arch(const occ_ref_props *p, occupancy_arch *out);
/* cudaOccMaxActiveBlocksPerMultiprocessor for kernel k (all its shared
 * memory dynamic, opted in), as an occupancy_result. Returns 0 or -1. */
int occ_ref_calc(const occ_ref_props *p, const occupancy_kernel *k, occupancy_result *out);
/* The header's blocks per SM with static and dynamic shared memory and the
 * function's opt-in limit given apart, as the runtime holds them; -1 on error. */
int occ_ref_blocks_runtime_view(const occ_ref_props *p, int threads, int regs, int static_smem,
                                int dynamic_smem, int max_dynamic);
/* Smallest multiple of 32 threads per block that fills every warp slot
 * when only warp and block slots count; -1 if none. */
int occ_ref_min_block_full(const occupancy_arch *a);

/* ---- occ_kernels.cu: the grader's kernels (GPU) ---- */

/* The properties of the current device, as occ_ref_props, and its block
 * slots per SM (cudaDeviceProp::maxBlocksPerMultiProcessor). Returns a
 * cudaError_t value. */
int occ_dev_props(occ_ref_props *p, int *max_blocks_per_sm);
/* Fills d_next (lines x 32 words) so that line h(p) leads to line
 * h(p + 1 mod lines): one cycle through every line, in the scrambled order
 * occ_line_at gives. lines must be a power of two, at most 2^24. */
int occ_fill_next(unsigned *d_next, unsigned lines, void *stream);
/* The line at position p of that cycle (a bijection of 0 .. lines-1), and
 * the position of line l (its inverse). */
unsigned occ_line_at(unsigned p, unsigned lines);
unsigned occ_line_pos(unsigned l, unsigned lines);

/* The grader's launch of the chase: 512-thread blocks of a kernel compiled
 * with __launch_bounds__(512, 1). */
int occ_baseline_cliff(const unsigned *d_next, const unsigned *d_table, const unsigned *d_start,
                       unsigned *d_out, int n_chains, void *stream);
const void *occ_baseline_kernel(void);

/* The sweep's kernels: the same chase compiled with different register
 * budgets. Kernel i (0 .. occ_sweep_count()-1) is described by
 * occ_sweep_name(i) and launched with occ_sweep_launch. */
int occ_sweep_count(void);
const char *occ_sweep_name(int i);
const void *occ_sweep_kernel(int i);
/* Largest block size kernel i accepts (its __launch_bounds__). */
int occ_sweep_max_block(int i);
int occ_sweep_launch(int i, int block, const unsigned *d_next, const unsigned *d_table,
                     const unsigned *d_start, unsigned *d_out, int n_chains, void *stream);

/* Kernels with static shared memory, for checking the calculator against
 * the runtime: kernel i uses occ_smem_static(i) bytes of static shared
 * memory and accepts dynamic shared memory too. */
int occ_smem_count(void);
const void *occ_smem_kernel(int i);
int occ_smem_static(int i);

/* The launch whose achieved occupancy the student reads with ncu
 * (question.my_achieved_occupancy). OCC_ACHIEVED_THREADS-thread blocks of
 * occ_achieved_kernel, each asking for all the dynamic shared memory one
 * block may have (the opt-in maximum), so that one block fits per SM on
 * every capability; warp w of a block spins (w + 1) x
 * OCC_ACHIEVED_UNIT_CYCLES SM cycles and exits (a triangular workload: the
 * block keeps its SM's resources until its last warp ends); the grid is one
 * wave and a half, SMs + SMs / 2 blocks. */
#define OCC_ACHIEVED_KERNEL "occ_achieved_kernel"
#define OCC_ACHIEVED_THREADS 512
#define OCC_ACHIEVED_UNIT_CYCLES 50000
typedef struct occ_achieved_info {
    int block, grid;           /* threads per block, blocks */
    int regs;                  /* numRegs */
    int smem_static, smem_dyn; /* bytes per block, without the driver's reservation */
    int blocks_per_sm;         /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
    int max_warps_per_sm;      /* the SM's warp slots */
} occ_achieved_info;
/* Fills *out for the current device (its attributes: nothing launched).
 * Returns a cudaError_t value. */
int occ_achieved_describe(occ_achieved_info *out);
/* Launches the launch described and waits for it. Returns a cudaError_t value. */
int occ_achieved_run(const occ_achieved_info *in);

#ifdef __cplusplus
}
#endif
#endif
