/* wb_ledger.h - the ledger of validated GPUs (ledger/): read an entry, judge its limits */
/* SPDX-License-Identifier: MIT */
#ifndef WB_LEDGER_H
#define WB_LEDGER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An entry is ledger/<model>.csv: "# key=value" settings, then the rows of
 * the bench's bench.csv under this very column header (ledger/README.md). */
#define WB_LEDGER_COLUMNS                                                                          \
    "set,lab,test,metric,limit,comparison,runs,median,min,max,worst_margin_pct,passes,fails,flips"
#define WB_LEDGER_N_COLUMNS 14
/* A limit holds when the reference clears it by this much and the stub
 * misses it by this much, in % of the limit (DESIGN.md, "Measuring"). */
#define WB_LEDGER_TARGET_PCT 25.0
/* The bench flags a worst margin this many points worse than the ledger's. */
#define WB_LEDGER_SLACK_PCT 5.0

/* One row: a limit of one set (metric), or a test's verdicts alone
 * (metric "verdict": the numbers other than runs and counts are 0). */
typedef struct wb_ledger_row {
    char set[16]; /* "solutions" (the reference) or "labs" (the stub) */
    char lab[48], test[64], metric[64];
    char comparison[4]; /* "ge", "le", "eq"; "" for a verdict row */
    double limit, median, min, max, margin;
    int runs, passes, fails, flips;
} wb_ledger_row;

typedef struct wb_ledger {
    char gpu[256];           /* cudaGetDeviceProperties().name: "NVIDIA H100 80GB HBM3" */
    char cc[16];             /* compute capability: "9.0" */
    char driver[64];         /* "580.159.04" */
    char cuda_driver[16];    /* the CUDA version the driver supports: "13.0" */
    char cuda_runtime[16];   /* the runtime the graders ran with: "13.0" */
    char date[16];           /* of the last sitting: "2026-11-23" */
    char grader_version[64]; /* git describe of the grader */
    int sms;                 /* SMs of the GPU */
    int runs;                /* runs of each set */
    int restricted_sms;      /* SMS=n of the bench (0: the whole GPU) */
    int n_rows;
    wb_ledger_row *rows;
} wb_ledger;

/* One limit of an entry: its rows for the reference and the stub (NULL when
 * that set never reached the measurement) and how it stands against the target. */
typedef struct wb_ledger_limit {
    const wb_ledger_row *ref, *stub;
    int exact;   /* "eq", or a limit of 0: a count that must hold, no margin */
    int ref_ok;  /* the reference passed every run, by the target when not exact */
    int stub_ok; /* the stub failed every run it reached, by the target when not exact */
} wb_ledger_limit;

/* The entry's file name for a GPU model: the name lower-cased, each run of
 * other characters than letters and digits one '-', "-smsN" when restricted
 * to N SMs, then ".csv": "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3.csv". */
void wb_ledger_file_name(const char *model, int restricted_sms, char *out, size_t cap);
/* 1 when two names are the same GPU model up to case, spaces and punctuation. */
int wb_ledger_same_model(const char *a, const char *b);

/* Reads an entry. Returns 0; -1 when the file does not exist; -2 when it
 * cannot be read or is malformed, with why naming the line, what was expected
 * and what was found. On 0 the caller frees it with wb_ledger_free. */
int wb_ledger_read(const char *path, wb_ledger *l, char *why, size_t cap);
void wb_ledger_free(wb_ledger *l);

/* The limits of one lab of the entry (every lab when lab is NULL), sorted by
 * lab, test and metric; *out is malloc'ed (free it). Returns the count, -1
 * without memory. */
int wb_ledger_limits(const wb_ledger *l, const char *lab, wb_ledger_limit **out);
/* The first row of lab (NULL: any) whose test's verdict flipped between
 * runs, and the count of such rows in *count; NULL when none. */
const wb_ledger_row *wb_ledger_first_flip(const wb_ledger *l, const char *lab, int *count);
/* The first row of lab (NULL: any) whose test the reference failed in every
 * run it ran (a RERUN counts as a fail), and the count of such rows in
 * *count; NULL when none. The reference passes every test it is graded on,
 * so one it always fails on this GPU is a defect of the lab there, which no
 * limit's margin shows (a test without a limit, or a limit never reached). */
const wb_ledger_row *wb_ledger_first_ref_fail(const wb_ledger *l, const char *lab, int *count);
/* "02-x perf.shade shade_speedup ge 1.5" */
void wb_ledger_limit_name(const wb_ledger_limit *k, char *buf, size_t cap);
/* How a limit stands: "reference worst +36.4 % (need >= +25 %); stub not measured". */
void wb_ledger_limit_describe(const wb_ledger_limit *k, char *buf, size_t cap);

/* The grader's header line for a GPU model graded by lab, from the ledger
 * folder dir: "validated: yes (ledger/<file>: <gpu>, <runs> runs, <date>)" when
 * the model's entry is well formed and every limit of lab held there with the
 * target margin and no flip, else "validated: no: " and why, where to look.
 * Never fails: a missing folder, a missing or malformed entry are each a "no".
 * Returns 1 for yes, 0 for no. */
int wb_ledger_validated(const char *dir, const char *model, int restricted_sms, const char *lab,
                        char *line, size_t cap);
/* The same, and a "no" where a test of lab as the grader has it now (its
 * n_tests ids) has no verdict row of the reference in the entry: a test
 * added after the bench was never measured there. tests NULL: not asked. */
int wb_ledger_validated_tests(const char *dir, const char *model, int restricted_sms,
                              const char *lab, const char *const *tests, int n_tests, char *line,
                              size_t cap);

#ifdef __cplusplus
}
#endif
#endif
