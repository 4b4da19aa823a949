/* wb_env.h - one reader for the environment variables the workbook's programs take */
/* SPDX-License-Identifier: MIT */
#ifndef WB_ENV_H
#define WB_ENV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads variable name as a whole number in [lo, hi]. Returns 0 when it is
 * unset or empty (*out untouched), 1 when it is valid (*out set), -1 when
 * it is set but not such a number: err then says which variable, its value
 * and what it must be (usage, when not NULL, says what the variable does). */
int wb_env_ull(const char *name, unsigned long long lo, unsigned long long hi,
               unsigned long long *out, const char *usage, char *err, size_t cap);
/* The same for a number with a fraction, in [lo, hi]. */
int wb_env_double(const char *name, double lo, double hi, double *out, const char *usage, char *err,
                  size_t cap);
/* Checks every variable a grader reads (SEED, DEVICE, CK_TIMEOUT_MULTIPLIER)
 * and refuses the Check variables that would leave tests unrun
 * (CK_RUN_SUITE, CK_RUN_CASE, CK_INCLUDE_TAGS, CK_EXCLUDE_TAGS). Returns 0,
 * or -1 with the first problem in err. */
int wb_env_check_grader(char *err, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
