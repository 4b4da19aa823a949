/* wb_answers.c - parse answers.txt and normalise, compare and hash answers */
/* SPDX-License-Identifier: MIT */
#include "wb_answers.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s) {
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Cuts a comment: `#` at the start or after white space. */
static void cut_comment(char *s) {
    for (char *p = s; *p; p++) {
        if (*p == '#' && (p == s || isspace((unsigned char)p[-1]))) {
            *p = '\0';
            return;
        }
    }
}

static int valid_key(const char *k) {
    if (!*k || strlen(k) >= WB_ANSWER_KEY_MAX)
        return 0;
    for (; *k; k++)
        if (!(islower((unsigned char)*k) || isdigit((unsigned char)*k) || *k == '_'))
            return 0;
    return 1;
}

static int parse_line(char *line, int lineno, const char *name, wb_answers *a) {
    cut_comment(line);
    char *s = trim(line);
    if (!*s)
        return 0;
    char *eq = strchr(s, '=');
    if (!eq) {
        snprintf(a->error, sizeof a->error, "%s:%d: expected `key = value`, found \"%.60s\"", name,
                 lineno, s);
        return -1;
    }
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (!valid_key(key)) {
        snprintf(a->error, sizeof a->error,
                 "%s:%d: bad key \"%.60s\" (use lower-case letters, digits and _)", name, lineno,
                 key);
        return -1;
    }
    if (strlen(value) >= WB_ANSWER_VALUE_MAX) {
        snprintf(a->error, sizeof a->error, "%s:%d: answer longer than %d characters", name, lineno,
                 WB_ANSWER_VALUE_MAX - 1);
        return -1;
    }
    for (int i = 0; i < a->n; i++) {
        if (strcmp(a->items[i].key, key) == 0) {
            snprintf(a->error, sizeof a->error, "%s:%d: key \"%s\" already given on line %d", name,
                     lineno, key, a->items[i].line);
            return -1;
        }
    }
    wb_answer_item *grown = realloc(a->items, (size_t)(a->n + 1) * sizeof *grown);
    if (!grown) {
        snprintf(a->error, sizeof a->error, "%s: out of memory", name);
        return -1;
    }
    a->items = grown;
    wb_answer_item *it = &a->items[a->n++];
    snprintf(it->key, sizeof it->key, "%s", key);
    snprintf(it->value, sizeof it->value, "%s", value);
    it->line = lineno;
    return 0;
}

int wb_answers_parse(const char *text, const char *name, wb_answers *a) {
    memset(a, 0, sizeof *a);
    char *copy = strdup(text);
    if (!copy)
        return -1;
    int lineno = 0, rc = 0;
    char *save = NULL;
    /* strtok_r would skip empty lines and lose line numbers: split by hand. */
    for (char *line = copy; line && rc == 0; line = save) {
        char *nl = strchr(line, '\n');
        save = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        lineno++;
        rc = parse_line(line, lineno, name, a);
    }
    free(copy);
    return rc;
}

int wb_answers_load(const char *path, wb_answers *a) {
    memset(a, 0, sizeof *a);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(a->error, sizeof a->error, "%s: cannot be read", path);
        return -1;
    }
    size_t cap = 1 << 16;
    char *buf = malloc(cap + 1);
    size_t n = buf ? fread(buf, 1, cap, f) : 0;
    int too_big = !feof(f);
    fclose(f);
    if (!buf || too_big) {
        free(buf);
        snprintf(a->error, sizeof a->error, "%s: larger than 64 KiB", path);
        return -1;
    }
    buf[n] = '\0';
    int rc = wb_answers_parse(buf, path, a);
    free(buf);
    return rc;
}

void wb_answers_free(wb_answers *a) {
    free(a->items);
    a->items = NULL;
    a->n = 0;
}

const char *wb_answers_get(const wb_answers *a, const char *key) {
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->items[i].key, key) == 0)
            return a->items[i].value;
    return NULL;
}

int wb_answer_number(const char *value, double *out) {
    char buf[WB_ANSWER_VALUE_MAX];
    size_t j = 0;
    const char *p = value;
    while (isspace((unsigned char)*p))
        p++;
    /* Keep the leading number, dropping thousands separators (`,`, `_`, ` `)
     * that sit between digits; stop at the first other character. */
    for (; *p && j + 1 < sizeof buf; p++) {
        int sep = (*p == ',' || *p == '_' || *p == ' ') && j > 0 &&
                  isdigit((unsigned char)buf[j - 1]) && isdigit((unsigned char)p[1]);
        if (sep)
            continue;
        if (isdigit((unsigned char)*p) || strchr("+-.eE", *p))
            buf[j++] = *p;
        else
            break;
    }
    buf[j] = '\0';
    if (j == 0)
        return -1;
    char *end;
    double v = strtod(buf, &end);
    if (end == buf || *end != '\0' || !isfinite(v))
        return -1;
    /* Whatever follows must be a unit or a comment, not more digits. */
    while (isspace((unsigned char)*p))
        p++;
    if (*p && !isalpha((unsigned char)*p) && *p != '%' && *p != '/')
        return -1;
    *out = v;
    return 0;
}

int wb_answer_normalise(const char *value, char *out, size_t cap) {
    double v;
    int n;
    if (wb_answer_number(value, &v) == 0) {
        if (v == floor(v) && fabs(v) < 9.2e18)
            n = snprintf(out, cap, "%lld", (long long)v);
        else
            n = snprintf(out, cap, "%.15g", v);
        return (n < 0 || (size_t)n >= cap) ? -1 : 0;
    }
    size_t j = 0;
    int space = 0;
    for (const char *p = value; *p; p++) {
        if (isspace((unsigned char)*p)) {
            space = j > 0;
            continue;
        }
        if (space && j + 1 < cap)
            out[j++] = ' ';
        space = 0;
        if (j + 1 >= cap)
            return -1;
        out[j++] = (char)tolower((unsigned char)*p);
    }
    out[j] = '\0';
    return 0;
}

uint64_t wb_answer_hash(const char *salt, const char *key, const char *value) {
    char norm[WB_ANSWER_VALUE_MAX];
    if (wb_answer_normalise(value, norm, sizeof norm) != 0)
        norm[0] = '\0';
    uint64_t h = 0xcbf29ce484222325ULL;
    const char *parts[5] = {salt, ":", key, ":", norm};
    for (int i = 0; i < 5; i++)
        for (const char *p = parts[i]; *p; p++) {
            h ^= (unsigned char)*p;
            h *= 0x100000001b3ULL;
        }
    return h;
}
