/* wb_stats.h - order statistics for timings: median, quantiles, relative spread */
/* SPDX-License-Identifier: MIT */
#ifndef WB_STATS_H
#define WB_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Quantile q in [0, 1] of v[0..n) by linear interpolation between order
 * statistics; v is not modified. Returns NAN when n == 0. */
double wb_quantile(const double *v, size_t n, double q);
double wb_median(const double *v, size_t n);
/* Relative spread: interquartile range over the median (0 for n < 2,
 * INFINITY when the median is 0). Timings use it to decide to re-measure. */
double wb_rel_spread(const double *v, size_t n);
double wb_min(const double *v, size_t n);
double wb_max(const double *v, size_t n);

#ifdef __cplusplus
}
#endif
#endif
