/* wb_bench_stats.c - the bench's statistics: per limit the median, range, worst margin and flips */
/* SPDX-License-Identifier: MIT */
#include "wb_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* usage: wb-bench-stats limits RAW.csv   one row per (set, lab, test, metric): bench.csv
 *        wb-bench-stats times TIMES.csv  one row per lab: lab,reference median,stub median (s)
 * RAW.csv rows: run,set,lab,test,metric,value,limit,comparison,verdict (metric "verdict" for a
 * test's verdict alone). TIMES.csv rows: run,set,lab,seconds. Both with a header line. */

#define MAX_ROWS 200000
#define MAX_FIELDS 9

typedef struct row {
    char *f[MAX_FIELDS];
} row;

/* Reads a headed CSV of plain fields (no quotes) into rows; returns the count. */
static int read_csv(const char *path, row **out, int want) {
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    row *rows = calloc(MAX_ROWS, sizeof *rows);
    char line[2048];
    int n = 0, first = 1;
    while (rows && n < MAX_ROWS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (first) {
            first = 0;
            continue;
        }
        char *p = strdup(line);
        for (int k = 0; k < want; k++) {
            rows[n].f[k] = p ? p : "";
            char *c = p ? strchr(p, ',') : NULL;
            if (c)
                *c = '\0';
            p = c ? c + 1 : NULL;
        }
        n++;
    }
    fclose(f);
    *out = rows;
    return rows ? n : -1;
}

static int cmp_key(const row *a, const row *b) {
    for (int k = 1; k <= 4; k++) { /* set, lab, test, metric */
        int c = strcmp(a->f[k], b->f[k]);
        if (c)
            return c;
    }
    return 0;
}

static int by_key(const void *x, const void *y) {
    return cmp_key((const row *)x, (const row *)y);
}

/* The run nearest the limit: for the reference (solutions) the one nearest
 * to failing, for the stub (labs) the one nearest to passing; in % of the
 * limit, positive on the passing side. */
static double worst_margin(const char *set, const char *cmp, double lim, const double *v, int n) {
    int stub = strcmp(set, "labs") == 0;
    double lo = wb_min(v, (size_t)n), hi = wb_max(v, (size_t)n);
    if (strcmp(cmp, "ge") == 0)
        return ((stub ? hi : lo) / lim - 1) * 100;
    if (strcmp(cmp, "le") == 0) {
        double x = stub ? lo : hi;
        return x > 0 ? (lim / x - 1) * 100 : 0;
    }
    return 0;
}

static void group(const row *r, int n) {
    double *v = malloc((size_t)n * sizeof *v);
    int pass = 0, fail = 0;
    for (int i = 0; i < n; i++) {
        v[i] = atof(r[i].f[5]);
        pass += strcmp(r[i].f[8], "PASS") == 0;
        fail += strcmp(r[i].f[8], "FAIL") == 0 || strcmp(r[i].f[8], "RERUN") == 0;
    }
    int flips = pass < fail ? pass : fail;
    const char *s = r->f[1], *l = r->f[2], *t = r->f[3], *m = r->f[4];
    if (strcmp(m, "verdict") == 0) {
        printf("%s,%s,%s,verdict,,,%d,,,,,%d,%d,%d\n", s, l, t, n, pass, fail, flips);
    } else {
        double lim = atof(r->f[6]);
        printf("%s,%s,%s,%s,%g,%s,%d,%g,%g,%g,%.1f,%d,%d,%d\n", s, l, t, m, lim, r->f[7], n,
               wb_median(v, (size_t)n), wb_min(v, (size_t)n), wb_max(v, (size_t)n),
               worst_margin(s, r->f[7], lim, v, n), pass, fail, flips);
    }
    free(v);
}

static int limits(const char *path) {
    row *r;
    int n = read_csv(path, &r, 9);
    if (n < 0) {
        fprintf(stderr, "wb-bench-stats: cannot read %s\n", path);
        return 2;
    }
    qsort(r, (size_t)n, sizeof *r, by_key);
    printf("set,lab,test,metric,limit,comparison,runs,median,min,max,worst_margin_pct,passes,"
           "fails,flips\n");
    for (int i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && cmp_key(&r[i], &r[j]) == 0; j++)
            ;
        group(r + i, j - i);
    }
    return 0;
}

/* The median grading time of one lab and set. */
static double median_time(const row *r, int n, const char *lab, const char *set) {
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(r[i].f[2], lab) == 0 && strcmp(r[i].f[1], set) == 0)
            v[k++] = atof(r[i].f[3]);
    double m = k ? wb_median(v, (size_t)k) : 0;
    free(v);
    return m;
}

static int by_lab(const void *x, const void *y) {
    return strcmp(((const row *)x)->f[2], ((const row *)y)->f[2]);
}

static int times(const char *path) {
    row *r;
    int n = read_csv(path, &r, 4);
    if (n < 0) {
        fprintf(stderr, "wb-bench-stats: cannot read %s\n", path);
        return 2;
    }
    qsort(r, (size_t)n, sizeof *r, by_lab);
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(r[i].f[2], r[i - 1].f[2]) != 0)
            printf("%s,%.1f,%.1f\n", r[i].f[2], median_time(r, n, r[i].f[2], "solutions"),
                   median_time(r, n, r[i].f[2], "labs"));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "limits") == 0)
        return limits(argv[2]);
    if (argc == 3 && strcmp(argv[1], "times") == 0)
        return times(argv[2]);
    fprintf(stderr, "usage: %s limits RAW.csv | times TIMES.csv\n", argv[0]);
    return 2;
}
