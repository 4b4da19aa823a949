/* sim_devices.h - simulated GPUs: the runtime's device queries answered for other GPUs */
/* SPDX-License-Identifier: MIT */
#ifndef SIM_DEVICES_H
#define SIM_DEVICES_H

#include <stddef.h>

/* One GPU's figures, as cudaDeviceGetAttribute reports them (clocks in kHz). */
typedef struct wb_sim_device {
    const char *name;
    unsigned long long global_mem;
    int cc_major, cc_minor, sm_count, threads_per_sm, blocks_per_sm, regs_per_sm, regs_per_block;
    int smem_per_sm, smem_per_block, smem_optin, l2_bytes, sm_clock_khz, mem_clock_khz, bus_bits;
} wb_sim_device;

/* The most GPUs one simulated machine holds. */
#define WB_SIM_MAX_DEVICES 4

int wb_sim_count(void);
const wb_sim_device *wb_sim_get(int i);
/* From now on, in this process, the runtime's device count, properties and
 * attributes answer for d (device 0 of 1); NULL: the real GPUs again. */
void wb_sim_use(const wb_sim_device *d);
/* The same for a machine of n GPUs, d[0] .. d[n-1] (at most
 * WB_SIM_MAX_DEVICES), devices 0 .. n-1; cudaSetDevice and cudaGetDevice
 * then choose among them. NULL or n < 1: the real GPUs again. */
void wb_sim_use_machine(const wb_sim_device *const *d, int n);
/* The runtime's own function `name` (the next definition after the
 * grader's), which an answer passes the call to when no simulated GPU is
 * chosen. */
void *wb_sim_next(const char *name);
/* From now on, in this process, while no simulated GPU is chosen, the real
 * GPUs answer as themselves except their SM count, which reads at most n
 * (cudaDeviceGetAttribute's multiprocessor count and cudaGetDeviceProperties'
 * multiProcessorCount); n <= 0: as they are. Only what code reads changes:
 * kernels still run on every SM. A sanitizer's run uses it so that code
 * sizing its grid by the SM count launches a few blocks, not one per SM of a
 * large GPU (the tool checks each block's shared-memory accesses alike). */
void wb_sim_show_sms(int n);
/* The simulated GPU that is current now, or NULL while none is chosen. */
const wb_sim_device *wb_sim_current(void);

/* A compiled kernel as cudaFuncGetAttributes describes it. */
typedef struct wb_sim_kernel {
    int max_threads_per_block, regs_per_thread;
    size_t static_smem, max_dynamic_smem;
} wb_sim_kernel;

/* Blocks of kernel k launched with `threads` threads and dynamic_smem bytes
 * that fit on one SM of d, by the toolkit's cuda_occupancy.h (what the
 * runtime's occupancy API answers while a simulated GPU is chosen).
 * Returns 0, or -1 where the calculator refuses the input. */
int wb_sim_blocks_per_sm(const wb_sim_device *d, const wb_sim_kernel *k, int threads,
                         size_t dynamic_smem, int *blocks);
/* Shared memory the driver keeps per block: 1 KiB from compute capability
 * 8.0 on, none before. */
size_t wb_sim_reserved_smem(const wb_sim_device *d);

#endif
