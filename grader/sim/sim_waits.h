/* sim_waits.h - the runtime's launches and waits for the GPU, and the host clock reads, counted in
 * order while student code runs */
/* SPDX-License-Identifier: MIT */
#ifndef SIM_WAITS_H
#define SIM_WAITS_H

#include <stddef.h>

/* The last runs of events a count keeps, for a message. */
#define WB_SIM_TAIL 6

/* Consecutive events of one kind, and of one call for waits. */
typedef struct wb_sim_run {
    char kind;        /* 'L' launches, 'W' waits after new launches, 'w' waits for none of
                         them, 'C' host clock reads */
    const char *call; /* the wait's runtime function; NULL for launches and clock reads */
    long count;
} wb_sim_run;

/* What a piece of code asked of the runtime, in order, between
 * wb_sim_waits_begin and wb_sim_waits_end (sim_waits.c says which calls
 * count as what, and why). */
typedef struct wb_sim_waits {
    long launches; /* kernels and graphs launched (<<<>>>, cudaLaunchKernel, ...) */
    long waits;    /* calls that waited for the GPU (or for a stream or an event) */
    long waited;   /* waits that waited for launches no wait before had waited for */
    long pending;  /* launches made after the last launch waited for: 0 when that was the last */
    long clocks;   /* host clock reads (clock_gettime) of the code counted */
    long clock_launches; /* launches made before the last clock read */
    long clock_pending;  /* of those, launches no wait had waited for when it was read */
    int tail_n;          /* runs in tail[], oldest first; more came before when tail_cut */
    int tail_cut;
    wb_sim_run tail[WB_SIM_TAIL];
} wb_sim_waits;

/* Zeroes the counts and counts, in this process, from now on: the
 * launches and waits of every thread, and the host clock reads made on the
 * calling thread by the object (library or executable) that holds the code
 * at `reader`, or through the C++ standard library's clocks; none when
 * reader is NULL. */
void wb_sim_waits_begin(const void *reader);
/* Stops counting and writes the counts into *out. */
void wb_sim_waits_end(wb_sim_waits *out);

/* Whether the last clock read of w came after its last launch while that
 * launch was not yet waited for: the clock read a second time before the
 * GPU had run what was timed. 0 where no clock read or no launch was seen,
 * and where the last read came before the last launch (nothing to judge). */
int wb_sim_clock_early(const wb_sim_waits *w);

/* The last events of w, oldest first, as text: "clock read, 20000
 * launches, clock read, cudaDeviceSynchronize". */
void wb_sim_waits_order(const wb_sim_waits *w, char *buf, size_t cap);

#endif
