/* wb_answers.h - read a lab's answers.txt (`key = value` lines) and check answers */
/* SPDX-License-Identifier: MIT */
#ifndef WB_ANSWERS_H
#define WB_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WB_ANSWER_KEY_MAX 64
#define WB_ANSWER_VALUE_MAX 256

typedef struct wb_answer {
    char key[WB_ANSWER_KEY_MAX];
    char value[WB_ANSWER_VALUE_MAX]; /* trimmed; "" when left blank */
    int line;
} wb_answer_item;

typedef struct wb_answers {
    wb_answer_item *items;
    int n;
    char error[320]; /* set when parsing fails: file, line and what is wrong */
} wb_answers;

/* Parses text in the answers format: one `key = value` per line, `#` starts
 * a comment (at the start of a line, or after white space), blank lines are
 * ignored. Keys are lower-case letters, digits and `_`. Returns 0, or -1 with
 * a->error naming the first malformed or duplicated line. */
int wb_answers_parse(const char *text, const char *name, wb_answers *a);
/* Reads and parses a file; -1 with a->error when it cannot be read or parsed. */
int wb_answers_load(const char *path, wb_answers *a);
void wb_answers_free(wb_answers *a);
/* The value for key: NULL when the key is absent, "" when left blank. */
const char *wb_answers_get(const wb_answers *a, const char *key);

/* Reads a number written by a person: "65536", "65,536", "65 536",
 * "1.5e3", "1234 GB/s" (a trailing unit is ignored). Returns 0 on success. */
int wb_answer_number(const char *value, double *out);
/* Canonical form of an answer: numbers as the shortest exact integer when
 * integral ("65,536" and "65536.0" both give "65536"), otherwise text
 * lower-cased with white space collapsed. Returns 0, or -1 when out is too small. */
int wb_answer_normalise(const char *value, char *out, size_t cap);
/* Salted 64-bit FNV-1a hash of "salt:key:normalised value": how graders store
 * expected answers without writing them in plain text. */
uint64_t wb_answer_hash(const char *salt, const char *key, const char *value);

#ifdef __cplusplus
}
#endif
#endif
