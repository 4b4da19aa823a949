/* wb_report.c - grader output: console lines, Gradescope results.json, CSV */
/* SPDX-License-Identifier: MIT */
#include "wb_report.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GREEN "\033[32m"
#define RED "\033[31m"
#define YELLOW "\033[33m"
#define RESET "\033[0m"

const char *wb_verdict_name(wb_verdict v) {
    return v == WB_PASS ? "PASS" : v == WB_FAIL ? "FAIL" : v == WB_RERUN ? "RERUN" : "SKIP";
}

int wb_color_enabled(FILE *f) {
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    if (nc && *nc)
        return 0;
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return isatty(fileno(f));
}

void wb_format_header(char *buf, size_t cap, const char *lab, const char *right) {
    int used = snprintf(buf, cap, "== %s ", lab);
    int fill = 80 - used - 2 - (int)strlen(right);
    if (fill < 2)
        fill = 2;
    for (int i = 0; i < fill && (size_t)used + 1 < cap; i++)
        buf[used++] = '=';
    buf[used] = '\0';
    snprintf(buf + used, cap - (size_t)used, "  %s", right);
}

/* The length of the well-formed UTF-8 sequence at s (1-4), or 0 when s does not start one. */
static int utf8_length(const unsigned char *s) {
    unsigned c = s[0];
    int n = c >= 0xc2 && c <= 0xdf   ? 2
            : c >= 0xe0 && c <= 0xef ? 3
            : c >= 0xf0 && c <= 0xf4 ? 4
                                     : 0;
    /* The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
     */
    unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    if (n == 0 || s[1] < lo || s[1] > hi)
        return 0;
    for (int k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf)
            return 0;
    return n;
}

void wb_text_clean(char *s) {
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        if (*p < 0x20 || *p == 0x7f) {
            *p++ = ' ';
            continue;
        }
        if (*p < 0x80) {
            p++;
            continue;
        }
        int n = utf8_length(p);
        /* C1 controls (U+0080-U+009F: CSI among them) and the bidirectional embeddings,
         * overrides and isolates (U+202A-U+202E, U+2066-U+2069) are well formed but unsafe. */
        int unsafe = (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f) ||
                     (n == 3 && p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
                     (n == 3 && p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9);
        if (n == 0)
            n = 1;
        if (n == 1 || unsafe)
            memset(p, '?', (size_t)n);
        p += n;
    }
}

void wb_format_result(char *buf, size_t cap, const wb_result *r, int color) {
    const char *c = !color                  ? ""
                    : r->verdict == WB_PASS ? GREEN
                    : r->verdict == WB_FAIL ? RED
                                            : YELLOW;
    char pts[24];
    snprintf(pts, sizeof pts, "%d/%d", r->points, r->max_points);
    wb_result clean = *r; /* the texts as a terminal may show them (wb_text_clean) */
    wb_text_clean(clean.id);
    wb_text_clean(clean.measured);
    wb_text_clean(clean.reason);
    wb_text_clean(clean.hint);
    r = &clean;
    /* The reason goes on the same line when nothing was measured. */
    const char *text = r->measured[0] ? r->measured : r->reason;
    const char *name = wb_verdict_name(r->verdict);
    int n = snprintf(buf, cap, "  %s%s%s%s%-34s %6s  %s", c, name, color ? RESET : "",
                     strlen(name) > 4 ? " " : "  ", r->id, pts, text); /* RERUN keeps the columns */
    while (n > 0 && (size_t)n < cap && buf[n - 1] == ' ')
        buf[--n] = '\0';
    if (r->measured[0] && r->reason[0] && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, "\n        %s", r->reason);
    if (r->hint[0] && r->verdict == WB_FAIL && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, "\n        hint: %s", r->hint);
}

void wb_csv_field(FILE *f, const char *s) {
    if (!s)
        s = "";
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void wb_csv_row(FILE *f, int n, const char *const *fields) {
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        wb_csv_field(f, fields[i]);
    }
    fputc('\n', f);
}

static json_object *result_to_json(const wb_result *given) {
    wb_result clean = *given; /* valid UTF-8 without control characters (wb_text_clean) */
    const wb_result *r = &clean;
    wb_text_clean(clean.lab);
    wb_text_clean(clean.id);
    wb_text_clean(clean.kind);
    wb_text_clean(clean.measured);
    wb_text_clean(clean.reason);
    wb_text_clean(clean.hint);
    json_object *t = json_object_new_object();
    char name[128], out[1100];
    snprintf(name, sizeof name, "%s: %s", r->lab, r->id);
    snprintf(out, sizeof out, "%s%s%s%s%s", r->measured, r->measured[0] && r->reason[0] ? "\n" : "",
             r->reason, r->hint[0] ? "\nhint: " : "", r->hint);
    json_object_object_add(t, "name", json_object_new_string(name));
    json_object_object_add(t, "score", json_object_new_int(r->points));
    json_object_object_add(t, "max_score", json_object_new_int(r->max_points));
    json_object_object_add(t, "status",
                           json_object_new_string(r->verdict == WB_PASS ? "passed" : "failed"));
    json_object_object_add(t, "output", json_object_new_string(out));
    json_object *tags = json_object_new_array();
    json_object_array_add(tags, json_object_new_string(r->kind));
    json_object_array_add(tags, json_object_new_string(wb_verdict_name(r->verdict)));
    json_object_object_add(t, "tags", tags);
    /* Kept apart so the summary can be rebuilt from the file alone. */
    json_object *wb = json_object_new_object();
    json_object_object_add(wb, "lab", json_object_new_string(r->lab));
    json_object_object_add(wb, "id", json_object_new_string(r->id));
    json_object_object_add(wb, "verdict", json_object_new_string(wb_verdict_name(r->verdict)));
    json_object_object_add(wb, "measured", json_object_new_string(r->measured));
    json_object_object_add(wb, "reason", json_object_new_string(r->reason));
    json_object_object_add(wb, "hint", json_object_new_string(r->hint));
    json_object_object_add(wb, "seconds", json_object_new_double(r->seconds));
    json_object_object_add(t, "extra_data", wb);
    return t;
}

static json_object *info_to_json(const wb_run_info *info) {
    json_object *o = json_object_new_object();
    json_object_object_add(o, "lab", json_object_new_string(info->lab));
    json_object_object_add(o, "set", json_object_new_string(info->set));
    json_object_object_add(o, "gpu", json_object_new_string(info->gpu));
    json_object_object_add(o, "arch", json_object_new_string(info->arch));
    json_object_object_add(o, "sm_count", json_object_new_int(info->sm_count));
    json_object_object_add(o, "driver", json_object_new_string(info->driver));
    json_object_object_add(o, "cuda_driver", json_object_new_string(info->cuda_driver));
    json_object_object_add(o, "cuda_runtime", json_object_new_string(info->cuda_runtime));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", info->seed);
    json_object_object_add(o, "seed", json_object_new_string(seed));
    json_object_object_add(o, "grader_version", json_object_new_string(info->grader_version));
    json_object_object_add(o, "other_processes", json_object_new_int(info->other_processes));
    return o;
}

int wb_results_json_write(const char *path, const wb_result *r, int n, const char *output,
                          const wb_run_info *info) {
    json_object *root = json_object_new_object();
    json_object *tests = json_object_new_array();
    int score = 0;
    double secs = 0;
    for (int i = 0; i < n; i++) {
        score += r[i].points;
        secs += r[i].seconds;
        json_object_array_add(tests, result_to_json(&r[i]));
    }
    json_object_object_add(root, "score", json_object_new_int(score));
    json_object_object_add(root, "execution_time", json_object_new_int((int)(secs + 0.5)));
    json_object_object_add(root, "output", json_object_new_string(output ? output : ""));
    json_object_object_add(root, "tests", tests);
    if (info)
        json_object_object_add(root, "extra_data", info_to_json(info));
    int rc = json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY);
    json_object_put(root);
    return rc == 0 ? 0 : -1;
}

static void copy_str(char *dst, size_t cap, json_object *obj, const char *key) {
    json_object *v;
    const char *s = json_object_object_get_ex(obj, key, &v) ? json_object_get_string(v) : "";
    snprintf(dst, cap, "%s", s ? s : "");
}

static int result_from_json(json_object *t, wb_result *r) {
    json_object *wb, *v, *tags;
    memset(r, 0, sizeof *r);
    if (!json_object_object_get_ex(t, "extra_data", &wb))
        return -1;
    copy_str(r->lab, sizeof r->lab, wb, "lab");
    copy_str(r->id, sizeof r->id, wb, "id");
    copy_str(r->measured, sizeof r->measured, wb, "measured");
    copy_str(r->reason, sizeof r->reason, wb, "reason");
    copy_str(r->hint, sizeof r->hint, wb, "hint");
    char verdict[8];
    copy_str(verdict, sizeof verdict, wb, "verdict");
    r->verdict = strcmp(verdict, "PASS") == 0    ? WB_PASS
                 : strcmp(verdict, "SKIP") == 0  ? WB_SKIP
                 : strcmp(verdict, "RERUN") == 0 ? WB_RERUN
                                                 : WB_FAIL;
    if (json_object_object_get_ex(wb, "seconds", &v))
        r->seconds = json_object_get_double(v);
    if (json_object_object_get_ex(t, "score", &v))
        r->points = json_object_get_int(v);
    if (json_object_object_get_ex(t, "max_score", &v))
        r->max_points = json_object_get_int(v);
    if (json_object_object_get_ex(t, "tags", &tags) && json_object_array_length(tags) > 0)
        snprintf(r->kind, sizeof r->kind, "%s",
                 json_object_get_string(json_object_array_get_idx(tags, 0)));
    return 0;
}

int wb_results_json_read(const char *path, wb_result **out) {
    json_object *root = json_object_from_file(path), *tests;
    *out = NULL;
    if (!root)
        return -1;
    if (!json_object_object_get_ex(root, "tests", &tests) ||
        !json_object_is_type(tests, json_type_array)) {
        json_object_put(root);
        return -1;
    }
    int n = (int)json_object_array_length(tests), k = 0;
    *out = calloc((size_t)(n ? n : 1), sizeof **out);
    for (int i = 0; i < n && *out; i++)
        if (result_from_json(json_object_array_get_idx(tests, (size_t)i), &(*out)[k]) == 0)
            k++;
    json_object_put(root);
    return *out ? k : -1;
}

int wb_results_json_read_info(const char *path, wb_run_info *info) {
    json_object *root = json_object_from_file(path), *o, *v;
    memset(info, 0, sizeof *info);
    if (!root)
        return -1;
    if (!json_object_object_get_ex(root, "extra_data", &o)) {
        json_object_put(root);
        return -1;
    }
    copy_str(info->lab, sizeof info->lab, o, "lab");
    copy_str(info->set, sizeof info->set, o, "set");
    copy_str(info->gpu, sizeof info->gpu, o, "gpu");
    copy_str(info->arch, sizeof info->arch, o, "arch");
    copy_str(info->driver, sizeof info->driver, o, "driver");
    copy_str(info->cuda_driver, sizeof info->cuda_driver, o, "cuda_driver");
    copy_str(info->cuda_runtime, sizeof info->cuda_runtime, o, "cuda_runtime");
    copy_str(info->grader_version, sizeof info->grader_version, o, "grader_version");
    char seed[32];
    copy_str(seed, sizeof seed, o, "seed");
    info->seed = strtoull(seed, NULL, 10);
    if (json_object_object_get_ex(o, "sm_count", &v))
        info->sm_count = json_object_get_int(v);
    if (json_object_object_get_ex(o, "other_processes", &v))
        info->other_processes = json_object_get_int(v);
    json_object_put(root);
    return 0;
}
