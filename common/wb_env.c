/* wb_env.c - one reader for the environment variables the workbook's programs take */
/* SPDX-License-Identifier: MIT */
#include "wb_env.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(const char *name, const char *v, const char *want, const char *usage, char *err,
               size_t cap) {
    snprintf(err, cap, "%s=%s is not valid: expected %s%s%s", name, v, want, usage ? "; " : "",
             usage ? usage : "");
    return -1;
}

int wb_env_ull(const char *name, unsigned long long lo, unsigned long long hi,
               unsigned long long *out, const char *usage, char *err, size_t cap) {
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char want[96];
    snprintf(want, sizeof want, "a whole number from %llu to %llu", lo, hi);
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (v[0] < '0' || v[0] > '9' || *end || errno == ERANGE || x < lo || x > hi)
        return bad(name, v, want, usage, err, cap);
    *out = x;
    return 1;
}

int wb_env_double(const char *name, double lo, double hi, double *out, const char *usage, char *err,
                  size_t cap) {
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char want[96];
    snprintf(want, sizeof want, "a number from %g to %g", lo, hi);
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(x) || x < lo || x > hi)
        return bad(name, v, want, usage, err, cap);
    *out = x;
    return 1;
}

int wb_env_check_grader(char *err, size_t cap) {
    unsigned long long u;
    double d;
    if (wb_env_ull("SEED", 0, UINT64_MAX, &u, "SEED=n repeats the random inputs of a run", err,
                   cap) < 0 ||
        wb_env_ull("DEVICE", 0, 1023, &u, "DEVICE=n grades on GPU n (nvidia-smi -L lists them)",
                   err, cap) < 0 ||
        wb_env_ull("SMS", 1, 1024, &u,
                   "SMS=n grades with every test confined to n SMs (a green context; "
                   "make bench-restricted)",
                   err, cap) < 0 ||
        wb_env_double("CK_TIMEOUT_MULTIPLIER", 0.01, 1000, &d,
                      "CK_TIMEOUT_MULTIPLIER=k gives every test k times longer", err, cap) < 0)
        return -1;
    static const char *refused[] = {"CK_RUN_SUITE", "CK_RUN_CASE", "CK_INCLUDE_TAGS",
                                    "CK_EXCLUDE_TAGS"};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        const char *v = getenv(refused[k]);
        if (v && *v) {
            snprintf(err, cap,
                     "%s=%s is set: it would leave tests of the grader unrun; unset it (the "
                     "grader's --only id,id runs some tests)",
                     refused[k], v);
            return -1;
        }
    }
    return 0;
}
