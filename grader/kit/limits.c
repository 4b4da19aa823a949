/* limits.c - `grade --list` and `grade --limits`: the table and its graded limits, printed */
/* SPDX-License-Identifier: MIT */
#include "kit.h"

#include <string.h>

const char *wb_kind_name(wb_kind k) {
    static const char *names[] = {"correctness", "performance", "question", "sanitizer"};
    return (int)k >= 0 && (int)k < 4 ? names[k] : "unknown";
}

void wb_list_tests(void) {
    int total = 0;
    for (int i = 0; i < G.lab->n_tests; i++) {
        const wb_test *t = &G.lab->tests[i];
        printf("%-30s %-12s %3d%s%s%s\n", t->id, wb_kind_name(t->kind), t->points,
               t->needs_gpu ? "  gpu" : "", t->requires ? "  requires " : "",
               t->requires ? t->requires : "");
        total += t->points;
    }
    printf("total %d\n", total);
}

/* The limit of test t in words: declared (.limit.text), or made from its
 * performance check. Empty when t has no graded limit. */
static void limit_text(const wb_test *t, char *buf, size_t cap) {
    if (t->perf)
        snprintf(buf, cap, "speedup >= %.2fx over %s at %s", t->perf->limit, t->perf->baseline,
                 t->perf->size);
    else
        snprintf(buf, cap, "%s", t->limit.text ? t->limit.text : "");
}

/* Flattens tabs and line breaks, for one TSV field. */
static void tsv_field(const char *s) {
    for (; s && *s; s++)
        putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

/* Every test with a graded limit: human-readable, or as TSV (id, points,
 * limit, derivation, figures) for scripts. */
void wb_list_limits(int tsv) {
    if (!tsv)
        printf("%s: graded limits (why each holds across GPUs, and where that is not yet "
               "shown)\n",
               G.lab->name);
    for (int i = 0; i < G.lab->n_tests; i++) {
        const wb_test *t = &G.lab->tests[i];
        char text[512];
        limit_text(t, text, sizeof text);
        if (!text[0])
            continue;
        const char *why = t->perf ? t->perf->derivation : t->limit.derivation;
        const char *figures = t->perf ? t->perf->figures : t->limit.figures;
        if (tsv) {
            printf("%s\t%d\t", t->id, t->points);
            tsv_field(text);
            putchar('\t');
            tsv_field(why);
            putchar('\t');
            tsv_field(figures);
            putchar('\n');
        } else {
            printf("\n%s (%d points)\n  limit:   %s\n  why:     %s\n  figures: %s\n", t->id,
                   t->points, text, why ? why : "", figures ? figures : "");
        }
    }
}
