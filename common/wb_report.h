/* wb_report.h - grader output: console lines, Gradescope results.json, CSV */
/* SPDX-License-Identifier: MIT */
#ifndef WB_REPORT_H
#define WB_REPORT_H

#include <stdio.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RERUN: the measurement could not be called either way (a busy GPU); no
 * points, and the student is told to grade again on an idle GPU. */
typedef enum { WB_PASS = 0, WB_FAIL = 1, WB_SKIP = 2, WB_RERUN = 3 } wb_verdict;

/* One graded test as every report shows it. */
typedef struct wb_result {
    char lab[48];  /* "00-device-query" */
    char id[64];   /* "correct.fields" */
    char kind[16]; /* correctness, performance, question, sanitizer */
    wb_verdict verdict;
    int points; /* earned */
    int max_points;
    char measured[256]; /* "speedup 1.02x over baseline, need >= 1.60x" */
    char reason[512];   /* why points were lost or the test skipped */
    char hint[256];     /* where to look */
    double seconds;
} wb_result;

const char *wb_verdict_name(wb_verdict v);
/* Colour only on a terminal, never with NO_COLOR set or TERM=dumb. */
int wb_color_enabled(FILE *f);
/* "== 00-device-query ====...==  NVIDIA H200 (sm_90)", 80 columns when it fits. */
void wb_format_header(char *buf, size_t cap, const char *lab, const char *right);
/* The test's line and, when present, its indented reason and hint lines. */
void wb_format_result(char *buf, size_t cap, const wb_result *r, int color);

/* Makes text from code under test (a record, an answer, a compiler's line) safe to show and to
 * store, in place and never longer: control characters (C0, DEL, C1: terminal escapes, line
 * breaks, tabs) become ' ', bytes that are not well-formed UTF-8 (a stray byte, a sequence
 * cut short by a buffer's end, overlong forms, surrogates) and the bidirectional overrides
 * that reorder a line on screen become '?'. Every report and the console show only such text,
 * so nothing a student wrote can move the terminal's cursor, forge a line, or make
 * results.json or a CSV invalid UTF-8. */
void wb_text_clean(char *s);

/* Writes one CSV field, quoted when it holds a comma, quote or line break. */
void wb_csv_field(FILE *f, const char *s);
/* Writes n fields and a line break. */
void wb_csv_row(FILE *f, int n, const char *const *fields);

/* What a grading run was: written into results.json (its top-level
 * "extra_data"), so that scripts read the GPU, seed and grader version from
 * there, never from console text. */
typedef struct wb_run_info {
    char lab[48], set[16];
    char gpu[256];           /* "NVIDIA H200", or "no GPU" */
    char arch[16];           /* "sm_90"; "" without a GPU */
    int sm_count;
    char driver[64];         /* the driver's version, as nvidia-smi gives it */
    char cuda_driver[16];    /* the CUDA version the driver supports: "13.0" */
    char cuda_runtime[16];   /* the CUDA runtime the grader ran with: "13.0" */
    unsigned long long seed; /* SEED=seed repeats the run */
    char grader_version[64]; /* git describe of the grader's source */
    int other_processes;     /* other processes on a GPU when grading began */
} wb_run_info;
/* Writes a Gradescope results.json for n results; output is the text shown
 * above the tests (GPU, seed); info (may be NULL) goes under "extra_data".
 * Returns 0, or -1 when the file cannot be written. */
int wb_results_json_write(const char *path, const wb_result *r, int n, const char *output,
                          const wb_run_info *info);
/* Reads the run's "extra_data" back. Returns 0, or -1 when the file is
 * missing or has none. */
int wb_results_json_read_info(const char *path, wb_run_info *info);
/* Reads back what wb_results_json_write wrote; *out is malloc'ed. Returns the
 * count, or -1 when the file is missing or not in that format. */
int wb_results_json_read(const char *path, wb_result **out);

#ifdef __cplusplus
}
#endif
#endif
