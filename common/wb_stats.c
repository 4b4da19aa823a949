/* wb_stats.c - order statistics for timings */
/* SPDX-License-Identifier: MIT */
#include "wb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double wb_quantile(const double *v, size_t n, double q) {
    if (n == 0)
        return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double pos = q * (double)(n - 1);
    size_t i = (size_t)floor(pos);
    double frac = pos - (double)i;
    double r = (i + 1 < n) ? s[i] + frac * (s[i + 1] - s[i]) : s[i];
    free(s);
    return r;
}

double wb_median(const double *v, size_t n) {
    return wb_quantile(v, n, 0.5);
}

double wb_rel_spread(const double *v, size_t n) {
    if (n < 2)
        return 0.0;
    double med = wb_median(v, n);
    if (med == 0.0)
        return INFINITY;
    return (wb_quantile(v, n, 0.75) - wb_quantile(v, n, 0.25)) / fabs(med);
}

double wb_min(const double *v, size_t n) {
    double m = n ? v[0] : NAN;
    for (size_t i = 1; i < n; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

double wb_max(const double *v, size_t n) {
    double m = n ? v[0] : NAN;
    for (size_t i = 1; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}
