/* wb_summary.c - the summary after grading: a table across labs, one results.json, Score */
/* SPDX-License-Identifier: MIT */
#include "wb_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* usage: wb-summary SET LAB... ; reads build/report/SET/LAB/results.json,
 * writes build/report/SET/results.json and prints the table. Exit status 0
 * only when every lab has a result and every point was earned. */
/* wb-summary --tsv FILE: one line per test, "id<TAB>verdict<TAB>points<TAB>max<TAB>reason",
 * for the workbook's own test scripts. */
static int print_tsv(const char *path) {
    wb_result *r;
    int n = wb_results_json_read(path, &r);
    if (n < 0) {
        fprintf(stderr, "%s: missing or not a results.json\n", path);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        /* One line of five fields whatever the file holds: a tab or a line break in a text
         * would shift the columns that scripts (the gradebook) read. */
        wb_text_clean(r[i].id);
        wb_text_clean(r[i].reason);
        printf("%s\t%s\t%d\t%d\t%s\n", r[i].id, wb_verdict_name(r[i].verdict), r[i].points,
               r[i].max_points, r[i].reason);
    }
    free(r);
    return 0;
}

/* wb-summary --info FILE KEY: one field of the run a results.json records
 * (gpu, arch, sm_count, driver, cuda_driver, cuda_runtime, seed,
 * grader_version, set, lab, other_processes), so scripts never read them
 * from console text. */
static int print_info(const char *path, const char *key) {
    wb_run_info in;
    if (wb_results_json_read_info(path, &in) != 0) {
        fprintf(stderr, "%s: missing, or records no run information\n", path);
        return 2;
    }
    if (strcmp(key, "gpu") == 0)
        printf("%s\n", in.gpu);
    else if (strcmp(key, "arch") == 0)
        printf("%s\n", in.arch);
    else if (strcmp(key, "sm_count") == 0)
        printf("%d\n", in.sm_count);
    else if (strcmp(key, "driver") == 0)
        printf("%s\n", in.driver);
    else if (strcmp(key, "cuda_driver") == 0)
        printf("%s\n", in.cuda_driver);
    else if (strcmp(key, "cuda_runtime") == 0)
        printf("%s\n", in.cuda_runtime);
    else if (strcmp(key, "seed") == 0)
        printf("%llu\n", in.seed);
    else if (strcmp(key, "grader_version") == 0)
        printf("%s\n", in.grader_version);
    else if (strcmp(key, "set") == 0)
        printf("%s\n", in.set);
    else if (strcmp(key, "lab") == 0)
        printf("%s\n", in.lab);
    else if (strcmp(key, "other_processes") == 0)
        printf("%d\n", in.other_processes);
    else {
        fprintf(stderr, "wb-summary --info: unknown field %s\n", key);
        return 2;
    }
    return 0;
}

/* wb-summary --clean: standard input to standard output, each line as wb_text_clean leaves it
 * (its line break kept), for scripts that write names and texts into CSV or onto a terminal. */
static int print_clean(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        int nl = line[n - 1] == '\n';
        line[n - nl] = '\0';
        wb_text_clean(line); /* a NUL inside the line ends it there */
        printf("%s%s", line, nl ? "\n" : "");
    }
    free(line);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--clean") == 0)
        return print_clean();
    if (argc == 3 && strcmp(argv[1], "--tsv") == 0)
        return print_tsv(argv[2]);
    if (argc == 4 && strcmp(argv[1], "--info") == 0)
        return print_info(argv[2], argv[3]);
    if (argc < 3) {
        fprintf(stderr, "usage: %s SET LAB...\n", argv[0]);
        return 2;
    }
    const char *set = argv[1];
    wb_result *all = NULL;
    wb_run_info info, lab_info;
    memset(&info, 0, sizeof info);
    int n_all = 0, score = 0, total = 0, skipped = 0, rerun = 0, missing = 0;
    printf("\n%-24s %7s %6s %6s %6s %6s\n", "lab", "points", "pass", "fail", "skip", "total");
    for (int i = 2; i < argc; i++) {
        char path[1024];
        snprintf(path, sizeof path, "build/report/%s/%s/results.json", set, argv[i]);
        wb_result *r;
        int n = wb_results_json_read(path, &r);
        if (n >= 0 && !info.gpu[0] && wb_results_json_read_info(path, &lab_info) == 0)
            info = lab_info; /* the set's run: the first lab's GPU, seed and version */
        if (n < 0) {
            printf("%-24s %7s  no result: the grader did not run (see the messages above)\n",
                   argv[i], "-");
            missing++;
            continue;
        }
        int s = 0, t = 0, pass = 0, fail = 0, skip = 0;
        for (int k = 0; k < n; k++) {
            s += r[k].points;
            t += r[k].max_points;
            pass += r[k].verdict == WB_PASS;
            fail += r[k].verdict == WB_FAIL || r[k].verdict == WB_RERUN;
            skip += r[k].verdict == WB_SKIP;
            if (r[k].verdict == WB_SKIP)
                skipped += r[k].max_points;
            if (r[k].verdict == WB_RERUN)
                rerun += r[k].max_points;
        }
        char pts[32];
        snprintf(pts, sizeof pts, "%d/%d", s, t);
        printf("%-24s %7s %6d %6d %6d %6d\n", argv[i], pts, pass, fail, skip, n);
        score += s;
        total += t;
        all = realloc(all, (size_t)(n_all + n) * sizeof *all);
        memcpy(all + n_all, r, (size_t)n * sizeof *r);
        n_all += n;
        free(r);
    }
    char path[1024], out[256];
    snprintf(path, sizeof path, "build/report/%s/results.json", set);
    snprintf(out, sizeof out, "set %s: %d/%d", set, score, total);
    snprintf(info.lab, sizeof info.lab, "all");
    snprintf(info.set, sizeof info.set, "%s", set);
    if (wb_results_json_write(path, all, n_all, out, info.gpu[0] ? &info : NULL) != 0)
        fprintf(stderr, "warning: could not write %s\n", path);
    printf("Score: %d/%d", score, total);
    if (skipped)
        printf("  (%d points skipped: not graded here, see SKIP lines)", skipped);
    if (rerun)
        printf("  (%d points inconclusive: the GPU was busy, see RERUN lines; grade again when "
               "it is idle)",
               rerun);
    if (missing)
        printf("  (%d lab(s) without a result)", missing);
    printf("\nreports: build/report/%s/ (results.json, per lab check.tap and measurements.csv)\n",
           set);
    free(all);
    return (score == total && !missing) ? 0 : 1;
}
