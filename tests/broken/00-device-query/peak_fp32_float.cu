/* peak_fp32_float.cu - broken lab 00: the FP32 peak worked out in float */
/* SPDX-License-Identifier: MIT */
/* The formula is right; float keeps about 7 digits, so the result is off
 * by up to about 1e-7 relative, where the contract asks 1e-9. The message
 * shows both figures to 12 digits, so the difference can be seen.
 * expect: correct.peak_fp32 FAIL compute in double
 * expect: sanitizer.host FAIL not graded */
#define device_query_peak_fp32_gflops reference_peak_fp32
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_peak_fp32_gflops

extern "C" double device_query_peak_fp32_gflops(const device_query_report *r) {
    float ghz = r->sm_clock_khz / 1e6f; /* kHz to GHz */
    return 2.0f * r->fp32_lanes_per_sm * r->sm_count * ghz;
}
