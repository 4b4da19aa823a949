/* wb_driver.h - driver API calls reached through the runtime, so that nothing links libcuda */
/* SPDX-License-Identifier: MIT */
#ifndef WB_DRIVER_H
#define WB_DRIVER_H

#ifdef __cplusplus
extern "C" {
#endif

/* The driver's function `name` as of CUDA version `version` (12040 for
 * 12.4), or NULL where the driver lacks it. A grader must start where there
 * is no driver at all (to report its tests as skipped), so no grader links
 * against libcuda; this is how the few driver calls it needs are reached. */
void *wb_driver_entry(const char *name, unsigned version);

/* Confines the current thread's later CUDA work to `sms` SMs of device dev
 * (a green context made current; the runtime then launches into it).
 * Stores the number of SMs granted in *got (the driver rounds up to its
 * partition size, a multiple of 8 on Hopper). Returns 0, or -1 with the
 * reason in why. */
int wb_green_restrict(int dev, int sms, int *got, char *why, unsigned long cap);

#ifdef __cplusplus
}
#endif
#endif
