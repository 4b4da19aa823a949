/* record.c - the record channel: what a test's process tells the parent, one line a fact */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A test's record is build/report/<set>/<lab>/records/<index>.rec, lines of
 * "key<TAB>value": measured, hint, reason, skip, rerun, csv and, last, done.
 * The parent removes every record before the run and reads each one when
 * its test has ended; only the parent writes reports. */
static void record_path(int idx, char *buf, size_t cap) {
    snprintf(buf, cap, "%s/%d.rec", G.tmpdir, idx);
}

/* Appends "key<TAB>field<TAB>field..." to test idx's record, one line;
 * tabs and breaks inside a field are flattened to spaces. */
void wb_record_put_fields(int idx, const char *key, int n, const char *const *fields) {
    char path[PATH_MAX + 16];
    record_path(idx, path, sizeof path);
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    fputs(key, f);
    for (int k = 0; k < n; k++) {
        fputc('\t', f);
        for (const char *p = fields[k] ? fields[k] : ""; *p; p++)
            fputc(*p == '\n' || *p == '\t' || *p == '\r' ? ' ' : *p, f);
    }
    fputc('\n', f);
    fclose(f);
}

void wb_record_put(int idx, const char *key, const char *value) {
    wb_record_put_fields(idx, key, 1, &value);
}

/* Stale records would be read as this run's. */
void wb_record_clear_all(void) {
    char path[PATH_MAX + 16];
    for (int i = 0; i < WB_MAX_TESTS; i++) {
        record_path(i, path, sizeof path);
        unlink(path);
    }
}

/* One "csv" line of a record: the measurement, with the run's lab, set,
 * test, GPU and seed, goes to measurements.csv. */
static void csv_line(const wb_result *r, char *v) {
    if (!G.csv)
        return;
    char *fld[5] = {0};
    char *s = NULL, *p = strtok_r(v, "\t", &s);
    for (int k = 0; k < 5 && p; k++, p = strtok_r(NULL, "\t", &s))
        fld[k] = p;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)G.seed);
    const char *row[] = {G.lab->name, G.opt.set, r->id, fld[0], fld[1], fld[2],
                         fld[3],      fld[4],    G.gpu_ok ? G.gpu.name : "", seed};
    wb_csv_row(G.csv, 10, row);
    fflush(G.csv);
}

/* Reads test idx's record into r (measured, hint, reason) and s. */
void wb_record_read(int idx, wb_result *r, wb_record_summary *s) {
    char path[PATH_MAX + 16], line[1024];
    record_path(idx, path, sizeof path);
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        char *v = tab + 1;
        if (strcmp(line, "measured") == 0)
            snprintf(r->measured, sizeof r->measured, "%s", v);
        else if (strcmp(line, "hint") == 0)
            snprintf(r->hint, sizeof r->hint, "%s", v);
        else if (strcmp(line, "reason") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            s->has_reason = 1;
        } else if (strcmp(line, "done") == 0) {
            s->complete = 1;
        } else if (strcmp(line, "skip") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            s->skipped = 1;
        } else if (strcmp(line, "rerun") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            s->rerun = 1;
        } else if (strcmp(line, "csv") == 0) {
            csv_line(r, v);
        }
    }
    if (f)
        fclose(f);
}
