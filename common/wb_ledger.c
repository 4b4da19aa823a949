/* wb_ledger.c - the ledger of validated GPUs: read an entry (ledger/NAME.csv), judge its limits */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* getline */
#include "wb_ledger.h"
#include "wb_csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LINE_MAX_CHARS 2048

/* The name reduced to lower-case words of letters and digits, joined by '-'. */
static void slug(const char *model, char *out, size_t cap) {
    size_t n = 0;
    int dash = 0;
    for (const char *p = model ? model : ""; *p && n + 2 < cap; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && n > 0)
                out[n++] = '-';
            out[n++] = (char)tolower((unsigned char)*p);
            dash = 0;
        } else
            dash = 1;
    }
    out[n] = '\0';
}

void wb_ledger_file_name(const char *model, int restricted_sms, char *out, size_t cap) {
    char s[256];
    slug(model, s, sizeof s);
    if (restricted_sms > 0)
        snprintf(out, cap, "%s-sms%d.csv", s[0] ? s : "unknown-gpu", restricted_sms);
    else
        snprintf(out, cap, "%s.csv", s[0] ? s : "unknown-gpu");
}

int wb_ledger_same_model(const char *a, const char *b) {
    char x[256], y[256];
    slug(a, x, sizeof x);
    slug(b, y, sizeof y);
    return x[0] && strcmp(x, y) == 0;
}

static int say(char *why, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return -2;
}

static int parse_int(const char *s, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > 1000000000)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_num(const char *s, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* "# key=value" with key of [a-z_]: a setting (an unknown key is ignored, so
 * that entries written by later benches still read); any other '#' line is a
 * comment. */
static int parse_setting(char *line, int no, wb_ledger *l, char *why, size_t cap) {
    char *k = line + 1;
    while (*k == ' ')
        k++;
    char *e = k;
    while (islower((unsigned char)*e) || *e == '_')
        e++;
    if (e == k || *e != '=')
        return 0;
    *e = '\0';
    const char *v = e + 1;
    struct {
        const char *key;
        char *dst;
        size_t cap;
    } text[] = {{"gpu", l->gpu, sizeof l->gpu},
                {"cc", l->cc, sizeof l->cc},
                {"driver", l->driver, sizeof l->driver},
                {"cuda_driver", l->cuda_driver, sizeof l->cuda_driver},
                {"cuda_runtime", l->cuda_runtime, sizeof l->cuda_runtime},
                {"date", l->date, sizeof l->date},
                {"grader_version", l->grader_version, sizeof l->grader_version}};
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        if (strcmp(k, text[i].key) == 0) {
            snprintf(text[i].dst, text[i].cap, "%s", v);
            return 0;
        }
    int *num = strcmp(k, "sms") == 0              ? &l->sms
               : strcmp(k, "runs") == 0           ? &l->runs
               : strcmp(k, "restricted_sms") == 0 ? &l->restricted_sms
                                                  : NULL;
    if (num && parse_int(v, num) != 0)
        return say(why, cap, "line %d: %s=%.40s: expected a whole number", no, k, v);
    return 0;
}

static int parse_row(char *line, int no, wb_ledger_row *r, char *why, size_t cap) {
    char *f[WB_LEDGER_N_COLUMNS];
    int n = wb_csv_split(line, f, WB_LEDGER_N_COLUMNS);
    if (n != WB_LEDGER_N_COLUMNS)
        return say(why, cap, "line %d: expected %d comma-separated fields (%s), found %d", no,
                   WB_LEDGER_N_COLUMNS, WB_LEDGER_COLUMNS, n);
    memset(r, 0, sizeof *r);
    if (strcmp(f[0], "solutions") != 0 && strcmp(f[0], "labs") != 0)
        return say(why, cap, "line %d: set \"%.40s\": expected solutions or labs", no, f[0]);
    if (!*f[1] || !*f[2] || !*f[3] || strlen(f[1]) >= sizeof r->lab ||
        strlen(f[2]) >= sizeof r->test || strlen(f[3]) >= sizeof r->metric)
        return say(why, cap,
                   "line %d: expected a lab, a test and a metric (fields 2-4), found "
                   "\"%.40s\", \"%.40s\", \"%.40s\"",
                   no, f[1], f[2], f[3]);
    snprintf(r->set, sizeof r->set, "%s", f[0]);
    snprintf(r->lab, sizeof r->lab, "%s", f[1]);
    snprintf(r->test, sizeof r->test, "%s", f[2]);
    snprintf(r->metric, sizeof r->metric, "%s", f[3]);
    if (parse_int(f[6], &r->runs) || r->runs < 1 || parse_int(f[11], &r->passes) ||
        parse_int(f[12], &r->fails) || parse_int(f[13], &r->flips) ||
        r->passes + r->fails > r->runs)
        return say(why, cap,
                   "line %d: expected runs >= 1 and passes + fails <= runs (whole "
                   "numbers, fields 7, 12-14), found %s, %s, %s",
                   no, f[6], f[11], f[12]);
    if (strcmp(r->metric, "verdict") == 0)
        return 0;
    if (strcmp(f[5], "ge") != 0 && strcmp(f[5], "le") != 0 && strcmp(f[5], "eq") != 0)
        return say(why, cap, "line %d: comparison \"%.8s\": expected ge, le or eq", no, f[5]);
    snprintf(r->comparison, sizeof r->comparison, "%s", f[5]);
    if (parse_num(f[4], &r->limit) || parse_num(f[7], &r->median) || parse_num(f[8], &r->min) ||
        parse_num(f[9], &r->max) || parse_num(f[10], &r->margin))
        return say(why, cap,
                   "line %d: expected numbers for limit, median, min, max and worst "
                   "margin (fields 5, 8-11), found %s, %s, %s, %s, %s",
                   no, f[4], f[7], f[8], f[9], f[10]);
    return 0;
}

static int add_row(wb_ledger *l, const wb_ledger_row *r) {
    if (l->n_rows % 64 == 0) {
        wb_ledger_row *m = realloc(l->rows, (size_t)(l->n_rows + 64) * sizeof *m);
        if (!m)
            return -1;
        l->rows = m;
    }
    l->rows[l->n_rows++] = *r;
    return 0;
}

/* One line of the file; control characters become '?', so that a message
 * quoting a binary file prints plain text. */
static int parse_line(char *line, int no, int *header, wb_ledger *l, char *why, size_t cap) {
    size_t n = strlen(line);
    while (n > 0 && isspace((unsigned char)line[n - 1]))
        line[--n] = '\0';
    for (char *p = line; *p; p++)
        if (iscntrl((unsigned char)*p))
            *p = '?';
    if (line[0] == '#')
        return parse_setting(line, no, l, why, cap);
    if (!line[0])
        return 0;
    if (!*header) {
        if (strcmp(line, WB_LEDGER_COLUMNS) != 0)
            return say(why, cap, "line %d: expected the column header \"%s\", found \"%.60s\"", no,
                       WB_LEDGER_COLUMNS, line);
        *header = 1;
        return 0;
    }
    wb_ledger_row r;
    if (parse_row(line, no, &r, why, cap) != 0)
        return -2;
    return add_row(l, &r) == 0 ? 0 : say(why, cap, "line %d: out of memory", no);
}

/* What every entry must say, once the whole file is read. */
static int check_complete(const wb_ledger *l, int header, char *why, size_t cap) {
    int y, m, d;
    char extra;
    if (!l->gpu[0])
        return say(why, cap,
                   "no \"# gpu=\" line (expected the GPU's name, as make bench "
                   "writes it)");
    if (l->runs < 1)
        return say(why, cap, "no \"# runs=\" line of 1 or more (expected the runs of each set)");
    if (sscanf(l->date, "%4d-%2d-%2d%c", &y, &m, &d, &extra) != 3 || m < 1 || m > 12 || d < 1 ||
        d > 31)
        return say(why, cap, "\"# date=%.20s\": expected a date as YYYY-MM-DD", l->date);
    if (!header)
        return say(why, cap, "no column header (expected the line \"%s\")", WB_LEDGER_COLUMNS);
    if (l->n_rows == 0)
        return say(why, cap,
                   "no rows under the column header (expected the rows of "
                   "build/bench/bench.csv)");
    return 0;
}

int wb_ledger_read(const char *path, wb_ledger *l, char *why, size_t cap) {
    memset(l, 0, sizeof *l);
    why[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return -1;
        return say(why, cap, "cannot be read: %s", strerror(errno));
    }
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t len;
    int no = 0, header = 0, rc = 0;
    while (rc == 0 && (len = getline(&line, &line_cap, f)) >= 0) {
        no++;
        for (ssize_t k = 0; k < len; k++)
            line[k] = line[k] ? line[k] : '?'; /* a NUL byte: a binary file */
        if (len >= LINE_MAX_CHARS)
            rc = say(why, cap, "line %d: longer than %d characters (expected a bench.csv row)", no,
                     LINE_MAX_CHARS - 1);
        else
            rc = parse_line(line, no, &header, l, why, cap);
    }
    free(line);
    if (rc == 0 && ferror(f))
        rc = say(why, cap, "cannot be read: %s", strerror(errno));
    fclose(f);
    if (rc == 0)
        rc = check_complete(l, header, why, cap);
    if (rc != 0)
        wb_ledger_free(l);
    return rc == 0 ? 0 : -2;
}

void wb_ledger_free(wb_ledger *l) {
    free(l->rows);
    l->rows = NULL;
    l->n_rows = 0;
}

static int same_limit(const wb_ledger_row *a, const wb_ledger_row *b) {
    return strcmp(a->lab, b->lab) == 0 && strcmp(a->test, b->test) == 0 &&
           strcmp(a->metric, b->metric) == 0;
}

/* A reference that lands on its limit in every run measures a share or a
 * count that must be met exactly (lab 07's ranked_share >= 1): no margin. */
static void judge(wb_ledger_limit *k) {
    const wb_ledger_row *r = k->ref ? k->ref : k->stub;
    k->exact = strcmp(r->comparison, "eq") == 0 || r->limit == 0 ||
               (k->ref && k->ref->min == k->ref->limit && k->ref->max == k->ref->limit);
    k->ref_ok =
        k->ref && k->ref->fails == 0 && (k->exact || k->ref->margin >= WB_LEDGER_TARGET_PCT);
    k->stub_ok =
        !k->stub || k->exact || (k->stub->passes == 0 && k->stub->margin <= -WB_LEDGER_TARGET_PCT);
}

static int by_name(const void *x, const void *y) {
    const wb_ledger_limit *a = x, *b = y;
    const wb_ledger_row *p = a->ref ? a->ref : a->stub, *q = b->ref ? b->ref : b->stub;
    int c = strcmp(p->lab, q->lab);
    c = c ? c : strcmp(p->test, q->test);
    return c ? c : strcmp(p->metric, q->metric);
}

int wb_ledger_limits(const wb_ledger *l, const char *lab, wb_ledger_limit **out) {
    *out = calloc((size_t)(l->n_rows ? l->n_rows : 1), sizeof **out);
    if (!*out)
        return -1;
    int n = 0;
    for (int i = 0; i < l->n_rows; i++) {
        const wb_ledger_row *r = &l->rows[i];
        if (strcmp(r->metric, "verdict") == 0 || (lab && strcmp(r->lab, lab) != 0))
            continue;
        int k = 0;
        while (k < n && !same_limit(((*out)[k].ref ? (*out)[k].ref : (*out)[k].stub), r))
            k++;
        if (k == n)
            n++;
        if (strcmp(r->set, "solutions") == 0)
            (*out)[k].ref = r;
        else
            (*out)[k].stub = r;
    }
    for (int k = 0; k < n; k++)
        judge(&(*out)[k]);
    qsort(*out, (size_t)n, sizeof **out, by_name);
    return n;
}

const wb_ledger_row *wb_ledger_first_flip(const wb_ledger *l, const char *lab, int *count) {
    const wb_ledger_row *first = NULL;
    *count = 0;
    for (int i = 0; i < l->n_rows; i++) {
        const wb_ledger_row *r = &l->rows[i];
        if (strcmp(r->metric, "verdict") != 0 || r->flips == 0 || (lab && strcmp(r->lab, lab)))
            continue;
        if (!first)
            first = r;
        ++*count;
    }
    return first;
}

const wb_ledger_row *wb_ledger_first_ref_fail(const wb_ledger *l, const char *lab, int *count) {
    const wb_ledger_row *first = NULL;
    *count = 0;
    for (int i = 0; i < l->n_rows; i++) {
        const wb_ledger_row *r = &l->rows[i];
        if (strcmp(r->metric, "verdict") != 0 || strcmp(r->set, "solutions") != 0 ||
            r->fails == 0 || r->passes > 0 || (lab && strcmp(r->lab, lab)))
            continue;
        if (!first)
            first = r;
        ++*count;
    }
    return first;
}

void wb_ledger_limit_name(const wb_ledger_limit *k, char *buf, size_t cap) {
    const wb_ledger_row *r = k->ref ? k->ref : k->stub;
    snprintf(buf, cap, "%s %s %s %s %g", r->lab, r->test, r->metric, r->comparison, r->limit);
}

/* One set's side of a limit: "reference worst +36.4 % (need >= +25 %)". */
static void side(const wb_ledger_row *r, int exact, int ref, char *buf, size_t cap) {
    const char *who = ref ? "reference" : "stub";
    int odd = r ? (ref ? r->fails : r->passes) : 0;
    if (!r)
        snprintf(buf, cap, "%s not measured", who);
    else if (exact && !ref)
        snprintf(buf, cap, "stub: no target (an exact check)");
    else if (exact && odd)
        snprintf(buf, cap, "reference failed %d of %d runs (an exact check)", odd, r->runs);
    else if (exact)
        snprintf(buf, cap, "reference passed every run (an exact check: no margin)");
    else
        snprintf(buf, cap, "%s worst %+.1f %% (need %s %+.0f %%)", who, r->margin,
                 ref ? ">=" : "<=", ref ? WB_LEDGER_TARGET_PCT : -WB_LEDGER_TARGET_PCT);
    size_t n = strlen(buf);
    if (r && odd && !exact && n < cap)
        snprintf(buf + n, cap - n, ", %s %d of %d runs", ref ? "failed" : "passed", odd, r->runs);
}

void wb_ledger_limit_describe(const wb_ledger_limit *k, char *buf, size_t cap) {
    char a[160], b[160];
    side(k->ref, k->exact, 1, a, sizeof a);
    side(k->stub, k->exact, 0, b, sizeof b);
    snprintf(buf, cap, "%s; %s", a, b);
}

#define WHERE "README.md, \"How reliable are the verdicts\""

/* The entry is there and well formed: do this lab's figures hold? */
/* Tests of lab (ids) with no verdict row of the reference set in l; the
 * first of them in *first. */
static int tests_not_benched(const wb_ledger *l, const char *lab, const char *const *tests,
                             int n_tests, const char **first) {
    int missing = 0;
    *first = NULL;
    for (int t = 0; lab && tests && t < n_tests; t++) {
        int found = 0;
        for (int i = 0; i < l->n_rows && !found; i++) {
            const wb_ledger_row *r = &l->rows[i];
            found = strcmp(r->set, "solutions") == 0 && strcmp(r->lab, lab) == 0 &&
                    strcmp(r->test, tests[t]) == 0 && strcmp(r->metric, "verdict") == 0;
        }
        if (!found && missing++ == 0)
            *first = tests[t];
    }
    return missing;
}

static int judge_lab(const wb_ledger *l, const char *file, const char *lab,
                     const char *const *tests, int n_tests, char *line, size_t cap) {
    wb_ledger_limit *k;
    int n = wb_ledger_limits(l, lab, &k), flips = 0, short_n = 0, first = -1, rows = 0;
    for (int i = 0; i < l->n_rows; i++)
        rows += !lab || strcmp(l->rows[i].lab, lab) == 0;
    for (int i = 0; i < n; i++)
        if (!k[i].ref_ok || !k[i].stub_ok) {
            short_n++;
            first = first < 0 ? i : first;
        }
    const wb_ledger_row *flip = wb_ledger_first_flip(l, lab, &flips);
    int ref_fails;
    const wb_ledger_row *ref_fail = wb_ledger_first_ref_fail(l, lab, &ref_fails);
    const char *unbenched = NULL;
    int new_tests = tests_not_benched(l, lab, tests, n_tests, &unbenched);
    char name[200], how[340];
    int yes = 0;
    if (n < 0)
        snprintf(line, cap, "validated: not known: out of memory reading ledger/%s", file);
    else if (rows == 0)
        snprintf(line, cap,
                 "validated: no: ledger/%s has no figures for %s (make bench "
                 "benches every lab; " WHERE ")",
                 file, lab ? lab : "any lab");
    else if (new_tests)
        snprintf(line, cap,
                 "validated: no: ledger/%s has no figures for %d test%s of this lab, "
                 "first %s (added after that bench: make bench measures %s; " WHERE ")",
                 file, new_tests, new_tests == 1 ? "" : "s", unbenched,
                 new_tests == 1 ? "it" : "them");
    else if (short_n) {
        wb_ledger_limit_name(&k[first], name, sizeof name);
        wb_ledger_limit_describe(&k[first], how, sizeof how);
        snprintf(line, cap,
                 "validated: no: ledger/%s shows %d limit%s short of the %.0f %% "
                 "target, first %s: %s (" WHERE ")",
                 file, short_n, short_n == 1 ? "" : "s", WB_LEDGER_TARGET_PCT, name, how);
    } else if (ref_fails)
        snprintf(line, cap,
                 "validated: no: ledger/%s shows the reference failing %d test%s in every run, "
                 "first %s %s: %d fails in %d runs (" WHERE ")",
                 file, ref_fails, ref_fails == 1 ? "" : "s", ref_fail->lab, ref_fail->test,
                 ref_fail->fails, ref_fail->runs);
    else if (flips)
        snprintf(line, cap,
                 "validated: no: ledger/%s shows %d test%s whose verdict flipped, "
                 "first %s %s %s: %d passes, %d fails in %d runs (" WHERE ")",
                 file, flips, flips == 1 ? "" : "s", flip->set, flip->lab, flip->test, flip->passes,
                 flip->fails, flip->runs);
    else {
        char on[32] = "";
        if (l->restricted_sms)
            snprintf(on, sizeof on, " on %d SMs", l->restricted_sms);
        snprintf(line, cap, "validated: yes (ledger/%s: %s%s, %d runs, %s)", file, l->gpu, on,
                 l->runs, l->date);
        yes = 1;
    }
    free(k);
    return yes;
}

int wb_ledger_validated(const char *dir, const char *model, int restricted_sms, const char *lab,
                        char *line, size_t cap) {
    return wb_ledger_validated_tests(dir, model, restricted_sms, lab, NULL, 0, line, cap);
}

int wb_ledger_validated_tests(const char *dir, const char *model, int restricted_sms,
                              const char *lab, const char *const *tests, int n_tests, char *line,
                              size_t cap) {
    char file[300], path[4400], why[400];
    struct stat st;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(line, cap, "validated: no: no ledger folder (expected %s; " WHERE ")",
                 dir ? dir : "ledger/");
        return 0;
    }
    wb_ledger_file_name(model, restricted_sms, file, sizeof file);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    wb_ledger l;
    int rc = wb_ledger_read(path, &l, why, sizeof why);
    if (rc == -1) {
        snprintf(line, cap,
                 "validated: no: this GPU model has no bench in ledger/ (expected "
                 "ledger/%s; make bench writes it; " WHERE ")",
                 file);
        return 0;
    }
    if (rc != 0) {
        snprintf(line, cap,
                 "validated: no: ledger/%s is malformed: %s (make bench writes a "
                 "well-formed entry)",
                 file, why);
        return 0;
    }
    int yes = 0;
    if (!wb_ledger_same_model(l.gpu, model))
        snprintf(line, cap,
                 "validated: no: ledger/%s is for \"%s\", not this \"%s\" (expected "
                 "the name make bench records in \"# gpu=\")",
                 file, l.gpu, model);
    else if (l.restricted_sms != restricted_sms)
        snprintf(line, cap,
                 "validated: no: ledger/%s was benched with SMS=%d, not SMS=%d "
                 "(expected the same restriction; make bench SMS=%d writes it)",
                 file, l.restricted_sms, restricted_sms, restricted_sms);
    else
        yes = judge_lab(&l, file, lab, tests, n_tests, line, cap);
    wb_ledger_free(&l);
    return yes;
}
