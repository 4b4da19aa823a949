/* wb_clocks.h - GPU clocks and throttle reasons through NVML, loaded at run time */
/* SPDX-License-Identifier: MIT */
#ifndef WB_CLOCKS_H
#define WB_CLOCKS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NVML's clocks event reasons (nvml.h's nvmlClocksEventReason*, formerly
 * nvmlClocksThrottleReason*: the same bits). nvml.h is not part of the CUDA
 * Toolkit everywhere, so the values are copied from the NVML API reference. */
#define WB_CLK_GPU_IDLE 0x1ULL         /* nothing runs: clocks drop to idle */
#define WB_CLK_APP_CLOCKS 0x2ULL       /* clocks set to application clocks (a setting) */
#define WB_CLK_SW_POWER_CAP 0x4ULL     /* clocks lowered to stay under the power limit */
#define WB_CLK_HW_SLOWDOWN 0x8ULL      /* hardware slowdown, clocks halved or worse */
#define WB_CLK_SYNC_BOOST 0x10ULL      /* held to the clock of a sync-boost group */
#define WB_CLK_SW_THERMAL 0x20ULL      /* lowered to keep the temperature down */
#define WB_CLK_HW_THERMAL 0x40ULL      /* hardware slowdown for temperature */
#define WB_CLK_HW_POWER_BRAKE 0x80ULL  /* hardware slowdown by an external power brake */
#define WB_CLK_DISPLAY_CLOCKS 0x100ULL /* limited by the display clock (a setting) */
#define WB_CLK_BOARD_LIMIT 0x200ULL    /* board limit (newer drivers) */
#define WB_CLK_RELIABILITY 0x400ULL    /* reliability limit (newer drivers) */
/* The reasons that disturb a timing: every one above but idle and the two
 * settings, which hold clocks steady rather than move them. */
#define WB_CLK_DISTURBING                                                                          \
    (WB_CLK_SW_POWER_CAP | WB_CLK_HW_SLOWDOWN | WB_CLK_SYNC_BOOST | WB_CLK_SW_THERMAL |            \
     WB_CLK_HW_THERMAL | WB_CLK_HW_POWER_BRAKE | WB_CLK_BOARD_LIMIT | WB_CLK_RELIABILITY)
/* A clock that falls by more than this share between two samples disturbs a timing. */
#define WB_CLK_DROP 0.10

/* What NVML says of the GPU at one moment. */
typedef struct wb_clock_sample {
    int valid;                  /* the clocks were read (0: no NVML, or a call failed) */
    unsigned sm_mhz, mem_mhz;   /* current SM and memory clocks */
    unsigned sm_max_mhz;        /* the highest SM clock the GPU allows; 0 unknown */
    int has_reasons;            /* reasons was read */
    unsigned long long reasons; /* WB_CLK_* bits now set */
    int temp_c;                 /* GPU temperature in degrees C; -1 unknown */
} wb_clock_sample;

/* One GPU as NVML sees it. */
typedef struct wb_clocks {
    void *dev;     /* nvmlDevice_t; NULL when not open */
    char why[200]; /* when dev is NULL: why ("NVML not available: ...") */
} wb_clocks;

/* Opens the GPU at pci_bus_id ("0000:65:00.0", as cudaDeviceGetPCIBusId
 * gives it): loads libnvidia-ml.so.1 with dlopen on first use (never
 * linked, so graders start on machines without a driver) and initialises
 * NVML. Returns 0, or -1 with c->why set (library, function or GPU not
 * found); never crashes, and a closed c samples as invalid. */
int wb_clocks_open(wb_clocks *c, const char *pci_bus_id);
/* wb_clocks_open for the calling thread's current CUDA device (matched by
 * PCI bus id, so CUDA_VISIBLE_DEVICES and device order do not matter).
 * Returns 0 or -1 with c->why set. */
int wb_clocks_open_current(wb_clocks *c);
/* Releases NVML for c (nothing when c is not open). */
void wb_clocks_close(wb_clocks *c);
/* Reads the clocks, the maximum SM clock, the reasons and the temperature
 * now. Returns 0 when the clocks were read (s->valid); -1 otherwise, with
 * s->valid 0. Reasons and temperature are optional (has_reasons, temp_c). */
int wb_clocks_sample(const wb_clocks *c, wb_clock_sample *s);

/* Whether the timing between before and after was disturbed: a
 * WB_CLK_DISTURBING reason set in either sample, or the SM or memory clock
 * down by more than WB_CLK_DROP. Idle and the clock settings never count.
 * Returns 1 and says why in why ("the SM clock fell from 1980 to 1410 MHz
 * during the timing (power cap)"), else 0 with why "". Either sample
 * invalid: 0 (nothing is known). Pure; unit-tested without a GPU. */
int wb_clocks_disturbed(const wb_clock_sample *before, const wb_clock_sample *after, char *why,
                        size_t cap);
/* The reasons in bits as words, comma-separated ("power cap, thermal
 * slowdown"); "none" for 0; unknown bits as "reason 0x800". */
void wb_clocks_reason_words(unsigned long long bits, char *buf, size_t cap);
/* One line for a header: "SM clock 1755 MHz now (max 1980), memory clock
 * 2619 MHz, 41 C; reasons: power cap". */
void wb_clocks_describe(const wb_clock_sample *s, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
