/* sim_waits.h - the runtime's launches and waits for the GPU, counted while student code runs */
/* SPDX-License-Identifier: MIT */
#ifndef SIM_WAITS_H
#define SIM_WAITS_H

/* What a piece of code asked of the runtime, in order, between
 * wb_sim_waits_begin and wb_sim_waits_end (sim_waits.c says which calls
 * count as what, and why). */
typedef struct wb_sim_waits {
    long launches; /* kernels and graphs launched (<<<>>>, cudaLaunchKernel, ...) */
    long waits;    /* calls that waited for the GPU (or for a stream or an event) */
    long waited;   /* waits that waited for launches no wait before had waited for */
    long pending;  /* launches made after the last launch waited for: 0 when that was the last */
} wb_sim_waits;

/* Zeroes the counts and counts, in this process, from now on. */
void wb_sim_waits_begin(void);
/* Stops counting and writes the counts into *out. */
void wb_sim_waits_end(wb_sim_waits *out);

#endif
