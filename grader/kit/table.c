/* table.c - the check of a lab's test table, made before any test runs */
/* SPDX-License-Identifier: MIT */
#include "kit.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

typedef struct problems {
    char *buf;
    size_t cap, used;
    int n;
} problems;

static void problem(problems *p, int row, const wb_test *t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void problem(problems *p, int row, const wb_test *t, const char *fmt, ...) {
    p->n++;
    if (p->used + 1 >= p->cap)
        return;
    int k = row < 0 ? snprintf(p->buf + p->used, p->cap - p->used, "  the lab: ")
                    : snprintf(p->buf + p->used, p->cap - p->used, "  row %d (%s): ", row + 1,
                               t && t->id ? t->id : "no id");
    if (k > 0 && (size_t)k < p->cap - p->used)
        p->used += (size_t)k;
    va_list ap;
    va_start(ap, fmt);
    k = vsnprintf(p->buf + p->used, p->cap - p->used, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k < p->cap - p->used)
        p->used += (size_t)k;
    if (p->used + 1 < p->cap) {
        p->buf[p->used++] = '\n';
        p->buf[p->used] = '\0';
    }
}

static int index_of(const wb_lab *lab, const char *id, int before) {
    for (int j = 0; j < before; j++)
        if (lab->tests[j].id && strcmp(lab->tests[j].id, id) == 0)
            return j;
    return -1;
}

/* "group.name": lower-case letters, digits and underscores around one dot. */
static int well_formed(const char *id) {
    const char *dot = strchr(id, '.');
    if (!dot || dot == id || !dot[1] || strchr(dot + 1, '.'))
        return 0;
    for (const char *c = id; *c; c++)
        if (!(*c == '.' || *c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
            return 0;
    return 1;
}

static int starts(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int blank(const char *s) {
    return !s || !*s;
}

/* A test that measures and is graded: a performance test with points, or a
 * check, measure or predict test with points. */
static int graded_measurement(const wb_test *t) {
    return t->points > 0 && (t->kind == WB_PERFORMANCE || starts(t->id, "check.") ||
                             starts(t->id, "measure.") || starts(t->id, "predict."));
}

static void check_requires(problems *p, const wb_lab *lab, int i) {
    const wb_test *t = &lab->tests[i];
    if (!t->requires)
        return;
    char req[1024];
    if (strlen(t->requires) >= sizeof req)
        problem(p, i, t, "requires names more than %zu characters of ids", sizeof req - 1);
    snprintf(req, sizeof req, "%s", t->requires);
    if (!*req)
        problem(p, i, t, "requires is empty: leave it out, or name the tests that must pass");
    for (char *s = NULL, *id = strtok_r(req, " ", &s); id; id = strtok_r(NULL, " ", &s)) {
        if (strcmp(id, t->id) == 0)
            problem(p, i, t, "requires itself");
        else if (index_of(lab, id, i) < 0)
            problem(p, i, t, "requires \"%s\", which is no earlier test of the table%s", id,
                    index_of(lab, id, lab->n_tests) >= 0 ? " (it comes later)" : "");
    }
}

/* A test skipped with another is skipped on that test's word alone: it
 * must come earlier, be worth nothing, and never run the student's code. */
static void check_skip_with(problems *p, const wb_lab *lab, int i) {
    const wb_test *t = &lab->tests[i];
    if (!t->skip_with)
        return;
    int j = index_of(lab, t->skip_with, i);
    if (j < 0)
        problem(p, i, t, "skip_with \"%s\" is no earlier test of the table", t->skip_with);
    else if (lab->tests[j].points != 0 || lab->tests[j].needs_student)
        problem(p, i, t,
                "skip_with %s must be worth 0 points and never run the student's code "
                "(needs_student 0)",
                t->skip_with);
}

/* AddressSanitizer's targets: earlier tests that run the student's code and time nothing
 * (ASan slows host code), a GPU declared where one of them needs it. */
static void check_asan(problems *p, const wb_lab *lab, int i) {
    const wb_test *t = &lab->tests[i];
    char ids[1024];
    snprintf(ids, sizeof ids, "%s", t->target ? t->target : "");
    if (!*ids || strlen(t->target) >= sizeof ids)
        problem(p, i, t, "asan needs its targets: ids of earlier tests, space-separated");
    for (char *s = NULL, *id = strtok_r(ids, " ", &s); id; id = strtok_r(NULL, " ", &s)) {
        int j = index_of(lab, id, i);
        const wb_test *u = j >= 0 ? &lab->tests[j] : NULL;
        if (!u)
            problem(p, i, t, "its target \"%s\" is no earlier test of the table", id);
        else if (u->kind == WB_SANITIZER || !u->fn || !u->needs_student)
            problem(p, i, t, "its target %s is not a test whose body runs the student's code",
                    id);
        else if (u->kind == WB_PERFORMANCE)
            problem(p, i, t,
                    "its target %s is timed: AddressSanitizer slows host code, so name the "
                    "correctness tests of the same code",
                    id);
        else if (u->needs_gpu && !t->needs_gpu)
            problem(p, i, t, "its target %s needs a GPU: declare .needs_gpu = 1", id);
    }
}

static void check_sanitizer(problems *p, const wb_lab *lab, int i) {
    const wb_test *t = &lab->tests[i];
    if (t->sanitizer && strcmp(t->sanitizer, "asan") == 0) {
        check_asan(p, lab, i);
        return;
    }
    static const char *tools[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
    int known = 0;
    for (int k = 0; k < 4 && t->sanitizer; k++)
        known |= strcmp(t->sanitizer, tools[k]) == 0;
    if (!known)
        problem(p, i, t,
                "sanitizer \"%s\" is not memcheck, racecheck, synccheck, initcheck or asan",
                t->sanitizer ? t->sanitizer : "");
    int j = t->target ? index_of(lab, t->target, i) : -1;
    if (j < 0)
        problem(p, i, t, "its target \"%s\" is no earlier test of the table",
                t->target ? t->target : "");
    else if (lab->tests[j].kind == WB_SANITIZER || !lab->tests[j].needs_gpu)
        problem(p, i, t, "its target %s is not a GPU test with a body of its own", t->target);
}

static void check_perf(problems *p, int i, const wb_test *t) {
    const wb_perf *s = t->perf;
    if (t->points <= 0)
        problem(p, i, t, "a declared performance check must be worth points");
    if (blank(s->metric) || blank(s->baseline) || blank(s->size) || blank(s->advice))
        problem(p, i, t, "the performance check needs a metric, a baseline, a size and advice");
    if (!(s->limit > 0) || !isfinite(s->limit))
        problem(p, i, t, "the performance check's limit %g is not a positive number", s->limit);
    if (blank(s->derivation) || blank(s->figures))
        problem(p, i, t, "the performance check has no derivation of its limit, or no figures");
    if (!s->open || !s->poison || !s->check)
        problem(p, i, t, "the performance check needs open, poison and check hooks");
}

static void check_row(problems *p, const wb_lab *lab, int i) {
    const wb_test *t = &lab->tests[i];
    if (blank(t->id)) {
        problem(p, i, t, "a test needs an id");
        return;
    }
    if (!well_formed(t->id))
        problem(p, i, t, "the id is not of the form group.name (lower case, digits, _)");
    if (index_of(lab, t->id, i) >= 0)
        problem(p, i, t, "the id is used twice (first in row %d)", index_of(lab, t->id, i) + 1);
    if ((int)t->kind < WB_CORRECTNESS || (int)t->kind > WB_SANITIZER)
        problem(p, i, t, "unknown kind %d", (int)t->kind);
    if (t->points < 0 || (t->points == 0 && t->kind != WB_PERFORMANCE))
        problem(p, i, t, "a graded test must be worth points (only measurements may be 0)");
    if (t->timeout_s < 0)
        problem(p, i, t, "timeout_s is negative");
    if (t->kind == WB_SANITIZER)
        check_sanitizer(p, lab, i);
    else if (!t->fn)
        problem(p, i, t, "the test has no body (fn)");
    check_requires(p, lab, i);
    check_skip_with(p, lab, i);
    if (t->kind == WB_QUESTION && t->fn == wb_question_test &&
        (!t->question || blank(t->question->key) || blank(t->question->what) ||
         !t->question->hash))
        problem(p, i, t, "a hashed question needs a key, a stored hash and what it asks");
    if (t->perf)
        check_perf(p, i, t);
    else if (t->fn == wb_perf_test)
        problem(p, i, t, "the kit's performance body needs a declared check (.perf)");
    if (!t->perf && graded_measurement(t) &&
        (blank(t->limit.text) || blank(t->limit.derivation) || blank(t->limit.figures)))
        problem(p, i, t,
                "a graded measurement needs .limit: its text, the derivation of why it holds on "
                "every GPU, and the figures it rests on");
    if (!blank(t->limit.text) && (blank(t->limit.derivation) || blank(t->limit.figures)))
        problem(p, i, t, "the limit \"%s\" has no derivation or no figures", t->limit.text);
}

int wb_lab_validate(const wb_lab *lab, char *err, size_t cap) {
    problems p = {err, cap, 0, 0};
    if (cap)
        err[0] = '\0';
    if (blank(lab->name) || blank(lab->source) || blank(lab->salt))
        problem(&p, -1, NULL, "the lab needs a name, a source file and a salt");
    if (lab->n_tests < 1 || lab->n_tests > WB_MAX_TESTS) {
        problem(&p, -1, NULL, "a lab has 1 to %d tests, not %d", WB_MAX_TESTS, lab->n_tests);
        return p.n;
    }
    for (int i = 0; i < lab->n_tests; i++)
        check_row(&p, lab, i);
    return p.n;
}
