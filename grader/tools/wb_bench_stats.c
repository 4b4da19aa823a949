/* wb_bench_stats.c - the bench's statistics: per limit the median, range, worst margin and flips */
/* SPDX-License-Identifier: MIT */
#include "wb_ledger.h"
#include "wb_stats.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* usage: wb-bench-stats limits RAW.csv   one row per (set, lab, test, metric): bench.csv
 *        wb-bench-stats times TIMES.csv  one row per lab: lab,reference median,stub median (s)
 *        wb-bench-stats ledger ENTRY DIR this bench's ledger entry against the ledger folder
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

/* A set's worst margin in an entry, or "not measured". */
static const char *margin_of(const wb_ledger_row *r, char *buf, size_t cap) {
    if (!r)
        return "not measured";
    snprintf(buf, cap, "%+.1f %%", r->margin);
    return buf;
}

/* The listed limit of the same lab, test and metric, or NULL. */
static const wb_ledger_limit *find_limit(const wb_ledger_limit *k, int n,
                                         const wb_ledger_limit *x) {
    const wb_ledger_row *a = x->ref ? x->ref : x->stub;
    for (int i = 0; i < n; i++) {
        const wb_ledger_row *b = k[i].ref ? k[i].ref : k[i].stub;
        if (!strcmp(a->lab, b->lab) && !strcmp(a->test, b->test) && !strcmp(a->metric, b->metric))
            return &k[i];
    }
    return NULL;
}

/* The flag of one limit here, against its listed figures (old: NULL when not listed). */
static const char *flag_of(const wb_ledger_limit *k, const wb_ledger_limit *old, int listed) {
    const wb_ledger_row *r = k->ref ? k->ref : k->stub,
                        *o = old ? (old->ref ? old->ref : old->stub) : NULL;
    if (!k->ref_ok || !k->stub_ok)
        return "SHORT";
    if (!listed)
        return "ok";
    if (!old)
        return "NEW";
    if (o->limit != r->limit || strcmp(o->comparison, r->comparison) != 0)
        return "LIMIT";
    if (!k->exact &&
        ((k->ref && old->ref && k->ref->margin < old->ref->margin - WB_LEDGER_SLACK_PCT) ||
         (k->stub && old->stub && k->stub->margin > old->stub->margin + WB_LEDGER_SLACK_PCT)))
        return "LOWER";
    return "ok";
}

/* One line per limit of this bench: its flag, name, figures and the listed ones.
 * Returns the count flagged; *short_n counts those short of the target. */
static int print_limits(const wb_ledger *here, const wb_ledger *listed, int *short_n) {
    wb_ledger_limit *k, *old = NULL;
    int n = wb_ledger_limits(here, NULL, &k), m = listed ? wb_ledger_limits(listed, NULL, &old) : 0;
    int flagged = 0, gone = 0;
    char name[200], how[400], a[32], b[32];
    for (int i = 0; i < n; i++) {
        const wb_ledger_limit *o = listed ? find_limit(old, m, &k[i]) : NULL;
        const char *flag = flag_of(&k[i], o, listed != NULL);
        flagged += strcmp(flag, "ok") != 0;
        *short_n += strcmp(flag, "SHORT") == 0;
        wb_ledger_limit_name(&k[i], name, sizeof name);
        wb_ledger_limit_describe(&k[i], how, sizeof how);
        printf("  %-6s %s: %s", flag, name, how);
        if (o && !strcmp(flag, "LIMIT"))
            printf("; listed with %s %g: the limit changed since the entry",
                   o->ref ? o->ref->comparison : o->stub->comparison,
                   o->ref ? o->ref->limit : o->stub->limit);
        else if (o)
            printf("; listed: reference %s, stub %s", margin_of(o->ref, a, sizeof a),
                   margin_of(o->stub, b, sizeof b));
        else if (listed)
            printf("; not in the listed entry");
        printf("\n");
    }
    for (int i = 0; i < m; i++)
        if (!find_limit(k, n, &old[i])) {
            wb_ledger_limit_name(&old[i], name, sizeof name);
            printf("  %-6s %s: listed (reference %s, stub %s) but not measured here\n", "GONE",
                   name, margin_of(old[i].ref, a, sizeof a), margin_of(old[i].stub, b, sizeof b));
            gone++;
        }
    flagged += gone;
    printf("%d of %d limit%s flagged", flagged, n + gone, n + gone == 1 ? "" : "s");
    if (flagged)
        printf(" (SHORT: short of the %.0f %% target here", WB_LEDGER_TARGET_PCT);
    if (flagged && listed)
        printf("; LOWER: a worst margin %.0f points or more worse than listed; LIMIT: changed "
               "since the entry; NEW: not listed; GONE: listed, not measured here",
               WB_LEDGER_SLACK_PCT);
    if (flagged)
        printf(")");
    printf(".\n");
    free(k);
    free(old);
    return flagged;
}

/* wb-bench-stats ledger ENTRY DIR: the entry this bench wrote, against the
 * ledger folder DIR: is the GPU model listed, and does each limit hold? */
static int ledger(const char *entry, const char *dir) {
    wb_ledger here, listed;
    char why[400], file[300], path[PATH_MAX], on[40] = "";
    int rc = wb_ledger_read(entry, &here, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "wb-bench-stats: the ledger entry %s %s\n", entry,
                rc == -1 ? "is missing" : why);
        return 2;
    }
    wb_ledger_file_name(here.gpu, here.restricted_sms, file, sizeof file);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (here.restricted_sms)
        snprintf(on, sizeof on, " on %d SMs (SMS=%d)", here.restricted_sms, here.restricted_sms);
    rc = wb_ledger_read(path, &listed, why, sizeof why);
    if (rc == 0 && (!wb_ledger_same_model(listed.gpu, here.gpu) ||
                    listed.restricted_sms != here.restricted_sms)) {
        snprintf(why, sizeof why, "it is for \"%s\" with SMS=%d, not \"%s\" with SMS=%d",
                 listed.gpu, listed.restricted_sms, here.gpu, here.restricted_sms);
        wb_ledger_free(&listed);
        rc = -3;
    }
    if (rc == 0)
        printf("Ledger: %s%s is listed in %s (%d runs, %s, driver %s, CUDA %s): this bench against "
               "it, and each limit against the %.0f %% target\n",
               here.gpu, on, path, listed.runs, listed.date, listed.driver[0] ? listed.driver : "?",
               listed.cuda_runtime[0] ? listed.cuda_runtime : "?", WB_LEDGER_TARGET_PCT);
    else if (rc == -1)
        printf("Ledger: %s%s is not in %s/ (no %s): each limit against the %.0f %% target (the "
               "reference clears it by %.0f %% or more, the stub misses it by as much)\n",
               here.gpu, on, dir, path, WB_LEDGER_TARGET_PCT, WB_LEDGER_TARGET_PCT);
    else
        printf("Ledger: %s is %s: %s; so %s%s is judged as not listed: each limit against the "
               "%.0f %% target (the reference clears it by %.0f %% or more, the stub misses it "
               "by as much)\n",
               path, rc == -2 ? "malformed" : "another model's entry", why, here.gpu, on,
               WB_LEDGER_TARGET_PCT, WB_LEDGER_TARGET_PCT);
    int short_n = 0, flips, flagged = print_limits(&here, rc == 0 ? &listed : NULL, &short_n);
    const wb_ledger_row *f = wb_ledger_first_flip(&here, NULL, &flips);
    if (f)
        printf("%d test%s flipped between runs, first %s %s %s: %d passes, %d fails in %d runs.\n",
               flips, flips == 1 ? "" : "s", f->set, f->lab, f->test, f->passes, f->fails, f->runs);
    int ref_fails;
    const wb_ledger_row *rf = wb_ledger_first_ref_fail(&here, NULL, &ref_fails);
    if (rf)
        printf("The reference failed %d test%s in every run, first %s %s: %d fails in %d runs "
               "(expected to pass every test; its log: runs/*/solutions/%s.log).\n",
               ref_fails, ref_fails == 1 ? "" : "s", rf->lab, rf->test, rf->fails, rf->runs,
               rf->lab);
    if (short_n || f || rf)
        printf("A verdict on this GPU may not hold: see the report above and README.md, \"How "
               "reliable are the verdicts\".\n");
    else if (flagged)
        printf("This bench and the listed entry differ: replace the entry if this bench is the "
               "better record (an idle GPU, the current limits, every lab).\n");
    printf("%s: cp %s %s\n",
           rc == 0    ? "To replace the listed entry with this bench"
           : rc == -2 ? "To replace the malformed entry with this bench"
           : rc == -3 ? "To replace the other model's entry with this bench"
                      : "To add this GPU model to the ledger",
           entry, path);
    wb_ledger_free(&here);
    if (rc == 0)
        wb_ledger_free(&listed);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "limits") == 0)
        return limits(argv[2]);
    if (argc == 3 && strcmp(argv[1], "times") == 0)
        return times(argv[2]);
    if (argc == 4 && strcmp(argv[1], "ledger") == 0)
        return ledger(argv[2], argv[3]);
    fprintf(stderr, "usage: %s limits RAW.csv | times TIMES.csv | ledger ENTRY.csv LEDGER-DIR\n",
            argv[0]);
    return 2;
}
