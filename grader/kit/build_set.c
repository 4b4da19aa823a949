/* build_set.c - which source set a grader was linked for (compiled once per set) */
/* SPDX-License-Identifier: MIT */
#ifndef WB_BUILD_SET
#define WB_BUILD_SET "labs"
#endif
const char wb_build_set[] = WB_BUILD_SET;
