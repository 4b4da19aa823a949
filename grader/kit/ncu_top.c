/* ncu_top.c - a question on the largest of a family of ncu's readings: which member, and its value
 */
/* SPDX-License-Identifier: MIT */
#include "kit.h"

#include "wb_answers.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The letters of s, in lower case, and nothing else. */
static void letters(const char *s, char *out, size_t cap) {
    size_t k = 0;
    for (; *s && k + 1 < cap; s++)
        if (isalpha((unsigned char)*s))
            out[k++] = (char)tolower((unsigned char)*s);
    out[k] = '\0';
}

/* Drops word from the start (at_end 0) or the end of s, where s is longer. */
static void drop(char *s, const char *word, int at_end) {
    size_t n = strlen(s), w = strlen(word);
    if (w == 0 || n <= w)
        return;
    if (!at_end && strncmp(s, word, w) == 0)
        memmove(s, s + w, n - w + 1);
    else if (at_end && strcmp(s + n - w, word) == 0)
        s[n - w] = '\0';
}

/* s as names are compared: its letters, without the family's prefix and
 * suffix where s is a whole metric name, and without ncu's word "stall" at
 * either end, which its sections' labels add ("Stall Wait") and one
 * member's name ends with (dispatch_stall, labelled "Stall Dispatch"). */
static void spelled(const wb_ncu_family *f, const char *s, char *out, size_t cap) {
    char fix[64];
    letters(s, out, cap);
    letters(f->prefix, fix, sizeof fix);
    drop(out, fix, 0);
    letters(f->suffix, fix, sizeof fix);
    drop(out, fix, 1);
    drop(out, "stall", 0);
    drop(out, "stall", 1);
}

int wb_ncu_names(const wb_ncu_family *f, const char *answer, const char *member) {
    char a[WB_ANSWER_VALUE_MAX], m[WB_ANSWER_VALUE_MAX];
    spelled(f, answer, a, sizeof a);
    spelled(f, member, m, sizeof m);
    return a[0] && strcmp(a, m) == 0;
}

int wb_ncu_family_find(const wb_ncu_family *f, const char *answer) {
    for (int k = 0; k < f->n; k++)
        if (wb_ncu_names(f, answer, f->m[k].name))
            return k;
    return -1;
}

/* Why name (of q's family) answers nothing, or NULL where it may. */
static const char *left_out_why(const wb_ncu_top *q, const char *name) {
    for (const wb_ncu_left_out *l = q->left_out; l && l->name; l++)
        if (wb_ncu_names(q->family, name, l->name))
            return l->why;
    return NULL;
}

/* The largest member of f that is not left out, or -1. */
static int largest(const wb_ncu_top *q, const wb_ncu_family *f) {
    int top = -1;
    for (int k = 0; k < f->n; k++)
        if (!left_out_why(q, f->m[k].name) && (top < 0 || f->m[k].value > f->m[top].value))
            top = k;
    return top;
}

static int close_to(double got, double want, double tol, double floor) {
    double t = tol * fabs(want);
    return fabs(got - want) <= (t > floor ? t : floor);
}

/* "<name> <value>": the name is what comes before the first digit (or a
 * '.', '+' or '-' just before one), the value what follows, a unit after
 * it allowed. Returns 1 when the value is a number (in *value). */
static int split_answer(const char *v, char *name, size_t cap, double *value) {
    const char *p = v;
    while (*p && !isdigit((unsigned char)*p) &&
           !(strchr(".+-", *p) && isdigit((unsigned char)p[1])))
        p++;
    size_t n = (size_t)(p - v) < cap ? (size_t)(p - v) : cap - 1;
    memcpy(name, v, n);
    name[n] = '\0';
    return *p && wb_answer_number(p, value) == 0;
}

/* The member named is right: now its value, against ncu's reading of it. */
static void judge_value(wb_ctx *ctx, const wb_ncu_top *q, const char *v, int k, int top,
                        int has_value, double got) {
    const wb_ncu_family *f = q->family;
    const char *name = f->m[k].name;
    if (!has_value)
        wb_fail(ctx,
                "%s = %s: the reason is right; write after it its value in %s, as ncu reads it "
                "(`%s <value>`; %s)",
                q->key, v, q->unit, name, q->readme);
    if (!close_to(got, f->m[k].value, q->tol, q->floor)) {
        char like[300] = "";
        int j;
        if (q->other_unit && (j = wb_ncu_family_find(q->other_unit, name)) >= 0 &&
            close_to(got, q->other_unit->m[j].value, q->tol, q->floor))
            snprintf(like, sizeof like, "; your value is %s", q->other_unit_what);
        else if (q->other && (j = wb_ncu_family_find(q->other, name)) >= 0 &&
                 close_to(got, q->other->m[j].value, q->tol, q->floor))
            snprintf(like, sizeof like,
                     "; your value is %s reading of it (the two kernels swapped)", q->other_whose);
        wb_fail(ctx,
                "%s = %s: the reason is right, but its value is not within %.0f %% (or %.1f %s) "
                "of ncu's reading of %s in the same launch just now (not shown: it is the "
                "answer)%s; take it with the commands of %s",
                q->key, v, q->tol * 100, q->floor, q->unit, name, like, q->readme);
    }
    char rank[200] = "the largest", out[200] = "";
    if (k != top)
        snprintf(rank, sizeof rank, "within %.0f %% of the largest, %s %.2f,", q->tol * 100,
                 f->m[top].name, f->m[top].value);
    for (int j = 0; j < f->n; j++)
        if (left_out_why(q, f->m[j].name))
            snprintf(out + strlen(out), sizeof out - strlen(out), ", %s left out", f->m[j].name);
    char metric[64];
    snprintf(metric, sizeof metric, "ncu_%s", strncmp(q->key, "my_", 3) == 0 ? q->key + 3 : q->key);
    wb_record(ctx, metric, f->m[k].value, q->unit, got, "in");
    wb_measured(ctx, "%s = %s; ncu here: %s %.2f %s, %s of the %d it read%s", q->key, v, name,
                f->m[k].value, q->unit, rank, f->n, out);
}

void wb_ncu_judge_top(wb_ctx *ctx, const wb_ncu_top *q) {
    const wb_ncu_family *f = q->family;
    const char *v = wb_answer(ctx, q->key);
    char name[WB_ANSWER_VALUE_MAX], said[WB_ANSWER_VALUE_MAX];
    double got = 0;
    int has_value = split_answer(v, name, sizeof name, &got);
    letters(name, said, sizeof said);
    if (!said[0])
        wb_fail(ctx, "%s = %s names nothing: expected %s, written `<name> <value>` (%s)", q->key, v,
                q->what, q->readme);
    const char *why = left_out_why(q, name);
    if (why)
        wb_fail(ctx, "%s = %s: %s; expected %s (%s)", q->key, v, why, q->what, q->readme);
    int top = largest(q, f), k = wb_ncu_family_find(f, name);
    if (top < 0)
        wb_fail(ctx, "grader error: ncu gave no reading of %s...%s for %s", f->prefix, f->suffix,
                f->kernel[0] ? f->kernel : "the launch");
    if (k < 0) {
        char names[400] = "";
        for (int j = 0; j < f->n; j++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? ", " : "",
                     f->m[j].name);
        wb_fail(ctx,
                "%s = %s: ncu read nothing of that name in this launch (%s); the names it "
                "read: %s",
                q->key, v, q->readme, names);
    }
    if (!close_to(f->m[k].value, f->m[top].value, q->tol, 0)) {
        int ot = q->other ? largest(q, q->other) : -1;
        char like[200] = "";
        if (ot >= 0 && wb_ncu_names(f, name, q->other->m[ot].name))
            snprintf(like, sizeof like,
                     "; it is %s largest (the two kernels swapped, or carried over from it "
                     "instead of read)",
                     q->other_whose);
        wb_fail(ctx,
                "%s = %s: ncu reads %s in this launch, but it is not the largest, nor within "
                "%.0f %% of it (two that close would both be right)%s; expected %s (%s)",
                q->key, v, f->m[k].name, q->tol * 100, like, q->what, q->readme);
    }
    judge_value(ctx, q, v, k, top, has_value, got);
}
