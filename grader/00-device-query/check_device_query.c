/* check_device_query.c - the grader of lab 00: device queries, derived peaks, questions */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "wb_grader.h"
#include "wb_ceiling.h"
#include "wb_gpu.h"
#include "wb_rng.h"

#include "device_query.h"
#include "sim_devices.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UNRESTRICTED_PEAK                                                                          \
    "the peak is computed from all the SMs the runtime reports, while a green context runs "       \
    "the measurement on fewer"
#define README_PEAKS "README.md, \"Peak rates\""
#define README_CONTRACT "README.md, \"The contract\""
#define README_READING "README.md, \"Reading properties and attributes\""

/* ------------------------------------------------------- guard zones */

/* Every output the grader hands over is followed, in the same allocation,
 * by GUARD_BYTES bytes of GUARD_BYTE, and they must be untouched after the
 * call. A report is 392 bytes; cudaDeviceProp, the likeliest wrong size to
 * clear or copy it with, is 1008 (CUDA 13), and a report written as
 * element dev of an array lands a whole report past the end. */
#define GUARD_BYTE 0xA5
#define GUARD_BYTES 4096

/* The offset of the first byte of g[0 .. n) that is not GUARD_BYTE; -1 if none. */
static long first_touched(const unsigned char *g, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (g[i] != GUARD_BYTE)
            return (long)i;
    return -1;
}

/* A report with its guard after it. */
typedef struct guarded_report {
    device_query_report r;
    unsigned char guard[GUARD_BYTES];
} guarded_report;

/* Calls fill(dev, &g->r) on a report poisoned with GUARD_BYTE (an unwritten
 * field cannot pass) and fails when it wrote past the report's end; where
 * says on which device set, for the message. Returns fill's error. */
static int fill_guarded(wb_ctx *ctx, __typeof__(&device_query_fill) fill, int dev,
                        guarded_report *g, const char *where) {
    memset(g, GUARD_BYTE, sizeof *g);
    int e = fill(dev, &g->r);
    long k = first_touched(g->guard, sizeof g->guard);
    if (k >= 0)
        wb_fail(ctx,
                "%sdevice_query_fill(%d) wrote past the end of its report: byte %ld after the "
                "%zu bytes of *r is 0x%02x, expected untouched (0x%02x); write only the fields "
                "of *r (%s)",
                where, dev, k, sizeof g->r, g->guard[k], GUARD_BYTE, README_CONTRACT);
    g->r.name[sizeof g->r.name - 1] = '\0';
    return e;
}

/* ------------------------------------------------------- pure host code */

static void test_lanes_table(wb_ctx *ctx) {
    __typeof__(&device_query_fp32_lanes) lanes;
    WB_BIND(ctx, lanes, device_query_fp32_lanes);
    static const int known[][2] = {{5, 0}, {5, 2}, {5, 3},  {6, 0},  {6, 1},  {6, 2},
                                   {7, 0}, {7, 2}, {7, 5},  {8, 0},  {8, 6},  {8, 7},
                                   {8, 9}, {9, 0}, {10, 0}, {10, 3}, {12, 0}, {12, 1}};
    static const int unknown[][2] = {{0, 0}, {1, 0}, {3, 5}, {9, 9}, {13, 0}, {99, 9}};
    int n = (int)(sizeof known / sizeof known[0]);
    for (int i = 0; i < n; i++) {
        int want = wb_fp32_lanes_per_sm(known[i][0], known[i][1]);
        int got = lanes(known[i][0], known[i][1]);
        if (got != want)
            wb_fail(ctx, "device_query_fp32_lanes(%d, %d) returned %d, expected %d (%s)",
                    known[i][0], known[i][1], got, want, README_PEAKS);
    }
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        int got = lanes(unknown[i][0], unknown[i][1]);
        if (got != 0)
            wb_fail(ctx,
                    "device_query_fp32_lanes(%d, %d) returned %d, expected 0 for a "
                    "capability the table does not list (device_query.h)",
                    unknown[i][0], unknown[i][1], got);
    }
    wb_measured(ctx, "%d capabilities and %d unknown ones right", n,
                (int)(sizeof unknown / sizeof unknown[0]));
}

/* A report with plausible random values; consistent lanes for its capability. */
static void random_report(wb_rng *g, device_query_report *r, int dev) {
    static const int ccs[][2] = {{7, 5}, {8, 0}, {8, 6}, {8, 9}, {9, 0}, {10, 0}, {12, 0}};
    static const int buses[] = {64, 128, 192, 256, 320, 384, 512, 4096, 5120, 6144};
    memset(r, 0, sizeof *r);
    int k = (int)wb_rng_range(g, 0, 6);
    r->device = dev;
    snprintf(r->name, sizeof r->name, "Test GPU %d-%d", dev, (int)wb_rng_range(g, 100, 999));
    r->cc_major = ccs[k][0];
    r->cc_minor = ccs[k][1];
    r->sm_count = (int)wb_rng_range(g, 1, 200);
    r->sm_clock_khz = (int)wb_rng_range(g, 500000, 2700000);
    r->mem_clock_khz = (int)wb_rng_range(g, 400000, 12000000);
    r->mem_bus_width_bits = buses[wb_rng_range(g, 0, 9)];
    r->fp32_lanes_per_sm = wb_fp32_lanes_per_sm(r->cc_major, r->cc_minor);
    /* As the runtime reports it: a little under a whole GiB (an H100 80GB
     * reports 79.2 GiB), so that a size compared in whole GiB goes wrong. */
    r->global_mem_bytes = ((size_t)wb_rng_range(g, 2, 192) << 30) -
                          ((size_t)wb_rng_range(g, 0, 1 << 20) << 10) - (size_t)wb_rng_range(g, 0, 1023);
    r->smem_per_block_optin = (size_t)wb_rng_range(g, 48, 232) << 10;
    r->max_threads_per_block = 1024;
    r->peak_fp32_gflops = wb_peak_fp32_gflops(r->sm_count, r->fp32_lanes_per_sm, r->sm_clock_khz);
    r->peak_dram_gbps = wb_peak_dram_gbps(r->mem_clock_khz, r->mem_bus_width_bits);
}

static int rel_close(double got, double want, double tol) {
    return isfinite(got) && fabs(got - want) <= tol * fabs(want);
}

/* For a result off by no more than float's rounding (a relative 1e-6), the
 * likely cause: the formula is right, the arithmetic too coarse. */
static const char *near_miss(double got, double want) {
    return rel_close(got, want, 1e-6) ? " (float keeps about 7 digits: compute in double)" : "";
}

static void test_peak_fp32_random(wb_ctx *ctx) {
    __typeof__(&device_query_peak_fp32_gflops) peak;
    WB_BIND(ctx, peak, device_query_peak_fp32_gflops);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    for (int i = 0; i < 1000; i++) {
        device_query_report r;
        random_report(&g, &r, 0);
        double want = r.peak_fp32_gflops, got = peak(&r);
        if (!rel_close(got, want, 1e-9))
            wb_fail(ctx,
                    "for sm_count=%d, fp32_lanes_per_sm=%d, sm_clock_khz=%d: returned %.12g "
                    "GFLOP/s, expected %.12g to a relative 1e-9%s (%s)",
                    r.sm_count, r.fp32_lanes_per_sm, r.sm_clock_khz, got, want,
                    near_miss(got, want), README_PEAKS);
    }
    wb_measured(ctx, "1000 random reports right to 1e-9");
}

static void test_peak_dram_random(wb_ctx *ctx) {
    __typeof__(&device_query_peak_dram_gbps) peak;
    WB_BIND(ctx, peak, device_query_peak_dram_gbps);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    for (int i = 0; i < 1000; i++) {
        device_query_report r;
        random_report(&g, &r, 0);
        double want = r.peak_dram_gbps, got = peak(&r);
        if (!rel_close(got, want, 1e-9))
            wb_fail(ctx,
                    "for mem_clock_khz=%d, mem_bus_width_bits=%d: returned %.12g GB/s, "
                    "expected %.12g to a relative 1e-9%s (%s)",
                    r.mem_clock_khz, r.mem_bus_width_bits, got, want, near_miss(got, want),
                    README_PEAKS);
    }
    wb_measured(ctx, "1000 random reports right to 1e-9");
}

/* The rule of device_query.h, written again on the grader's side. */
static int reference_pick(const device_query_report *r, int n, const device_query_need *need) {
    int best = -1;
    for (int i = 0; i < n; i++) {
        const device_query_report *d = &r[i];
        if (d->cc_major * 10 + d->cc_minor < need->min_cc ||
            d->global_mem_bytes < need->min_global_mem_bytes ||
            d->smem_per_block_optin < need->min_smem_per_block)
            continue;
        if (best < 0 || d->peak_fp32_gflops > r[best].peak_fp32_gflops ||
            (d->peak_fp32_gflops == r[best].peak_fp32_gflops &&
             d->peak_dram_gbps > r[best].peak_dram_gbps))
            best = i;
    }
    return best;
}

static void describe_case(char *buf, size_t cap, const device_query_report *r, int n,
                          const device_query_need *need) {
    int k = snprintf(buf, cap, "need cc>=%d, %zu B memory, %zu B smem; devices:", need->min_cc,
                     need->min_global_mem_bytes, need->min_smem_per_block);
    for (int i = 0; i < n && k > 0 && (size_t)k < cap; i++)
        k += snprintf(buf + k, cap - (size_t)k,
                      " [%d: cc %d.%d, %zu B, %zu B, %.0f GFLOP/s, %.0f GB/s]", i,
                      r[i].cc_major, r[i].cc_minor, r[i].global_mem_bytes,
                      r[i].smem_per_block_optin, r[i].peak_fp32_gflops, r[i].peak_dram_gbps);
}

static void test_pick_best_cases(wb_ctx *ctx) {
    __typeof__(&device_query_pick_best) pick;
    WB_BIND(ctx, pick, device_query_pick_best);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    device_query_report r[8];
    device_query_need none = {0, 0, 0};
    if (pick(r, 0, &none) != -1)
        wb_fail(ctx, "with no devices (n = 0) it must return -1 (device_query.h)");
    for (int c = 0; c < 3000; c++) {
        int n = (int)wb_rng_range(&g, 1, 8);
        for (int i = 0; i < n; i++) {
            random_report(&g, &r[i], i);
            if (i > 0 && wb_rng_range(&g, 0, 3) == 0) { /* ties, broken by bandwidth or order */
                r[i].peak_fp32_gflops = r[i - 1].peak_fp32_gflops;
                if (wb_rng_range(&g, 0, 1))
                    r[i].peak_dram_gbps = r[i - 1].peak_dram_gbps;
            }
        }
        device_query_need need = {
            (int)wb_rng_range(&g, 0, 1) ? 0 : (int)wb_rng_range(&g, 70, 100),
            (size_t)wb_rng_range(&g, 0, 1) ? 0 : (size_t)wb_rng_range(&g, 0, 96) << 30,
            (size_t)wb_rng_range(&g, 0, 1) ? 0 : (size_t)wb_rng_range(&g, 0, 200) << 10};
        /* One case in four asks exactly for a device's memory or shared memory,
         * or one byte more: the boundary a >, or a size compared in GiB or KiB,
         * gets wrong. */
        int at = (int)wb_rng_range(&g, 0, n - 1), how = (int)wb_rng_range(&g, 0, 7);
        if (how < 2)
            need.min_global_mem_bytes = r[at].global_mem_bytes + (size_t)how;
        else if (how < 4)
            need.min_smem_per_block = r[at].smem_per_block_optin + (size_t)(how - 2);
        int want = reference_pick(r, n, &need), got = pick(r, n, &need);
        if (got != want) {
            char desc[1400];
            describe_case(desc, sizeof desc, r, n, &need);
            wb_fail(ctx,
                    "case %d: returned %d, expected %d; %s (device_query.h: a device qualifies "
                    "with at least the bytes asked for, to the byte)",
                    c, got, want, desc);
        }
    }
    wb_measured(ctx, "3000 random device lists right");
}

/* Whether each accepted form of the rate v (in G/s: whole G/s, T/s with one
 * or two decimals) reads differently rounded and truncated. */
static int truncation_shows(double v) {
    double g = v - floor(v), t1 = v / 100 - floor(v / 100), t2 = v / 10 - floor(v / 10);
    return g >= 0.55 && g <= 0.95 && t1 >= 0.55 && t1 <= 0.95 && t2 >= 0.55 && t2 <= 0.95;
}

/* Whether text holds the rate v (in G/s) in G/s or in T/s, rounded to as
 * many decimals as it is printed with (none, one, two, ...): a number x
 * printed with d decimals stands for v where |x - v| <= 0.5 x 10^-d. A cut
 * figure (40396 for 40396.7, 40.39 for 40.3967) is further off than that. */
static int holds_rate(const char *text, double v) {
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) || (p > text && (isdigit((unsigned char)p[-1]) ||
                                                         p[-1] == '.' || p[-1] == ',')))
            continue;
        char *e;
        double x = strtod(p, &e);
        const char *dot = memchr(p, '.', (size_t)(e - p));
        int d = dot ? (int)(e - dot - 1) : 0;
        if (*e == ',' && isdigit((unsigned char)e[1]))
            continue; /* a thousands separator: not a number this check reads */
        double half = 0.5 * pow(10.0, -d) * (1 + 1e-9);
        if (fabs(x - v) <= half || fabs(x - v / 1e3) <= half)
            return 1;
    }
    return 0;
}

/* Prints r with the student's print and returns what is missing, or NULL. */
static const char *print_lacks(wb_ctx *ctx, void (*print)(FILE *, const device_query_report *),
                               const device_query_report *r, char *first, size_t cap) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        wb_fail(ctx, "open_memstream failed: the grader's machine is out of memory");
    print(f, r);
    fclose(f);
    char cc[16], sms[16];
    snprintf(cc, sizeof cc, "%d.%d", r->cc_major, r->cc_minor);
    snprintf(sms, sizeof sms, "%d", r->sm_count);
    const char *missing = !strstr(text, r->name) ? "the name"
                          : !strstr(text, cc)    ? "the compute capability as major.minor"
                          : !strstr(text, sms)   ? "the SM count"
                          : !holds_rate(text, r->peak_fp32_gflops)
                              ? "the peak FP32 rate (in GFLOP/s or TFLOP/s, rounded to the "
                                "digits printed, not cut)"
                          : !holds_rate(text, r->peak_dram_gbps)
                              ? "the peak DRAM bandwidth (in GB/s or TB/s, rounded to the digits "
                                "printed, not cut)"
                              : NULL;
    snprintf(first, cap, "%s", text ? text : "");
    for (char *p = first; *p; p++)
        *p = *p == '\n' ? '|' : *p;
    free(text);
    return missing;
}

/* Two made-up devices: one drawn at random, and one drawn until both of its
 * peaks read differently rounded and truncated in every accepted form, so
 * that a print that cuts the digits off fails whatever the seed. */
static void test_print_report(wb_ctx *ctx) {
    __typeof__(&device_query_print) print;
    WB_BIND(ctx, print, device_query_print);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    device_query_report r[2];
    random_report(&g, &r[0], 3);
    int tries = 0;
    do
        random_report(&g, &r[1], 5);
    while (!(truncation_shows(r[1].peak_fp32_gflops) && truncation_shows(r[1].peak_dram_gbps)) &&
           ++tries < 1000000);
    if (tries == 1000000)
        wb_fail(ctx, "the grader found no made-up device whose peaks show truncation (a grader "
                     "defect: report it)");
    for (int i = 0; i < 2; i++) {
        char first[80];
        const char *missing = print_lacks(ctx, print, &r[i], first, sizeof first);
        if (missing)
            wb_fail(ctx,
                    "the printed report lacks %s (report for \"%s\", peaks %.2f GFLOP/s and "
                    "%.2f GB/s, began: \"%s\") (README.md, \"Build, run and expected output\")",
                    missing, r[i].name, r[i].peak_fp32_gflops, r[i].peak_dram_gbps, first);
    }
    wb_measured(ctx, "2 made-up devices, all required items present in both");
}

/* ------------------------------------------------------------ on the GPU */

static void test_count_devices(wb_ctx *ctx) {
    __typeof__(&device_query_count) count;
    WB_BIND(ctx, count, device_query_count);
    int want = 0;
    struct {
        int n;
        unsigned char guard[64];
    } c;
    memset(&c, GUARD_BYTE, sizeof c);
    c.n = -12345;
    WB_CUDA(ctx, cudaGetDeviceCount(&want));
    int e = count(&c.n), got = c.n;
    if (e != cudaSuccess)
        wb_fail(ctx, "device_query_count returned %s, expected cudaSuccess",
                cudaGetErrorName((cudaError_t)e));
    long k = first_touched(c.guard, sizeof c.guard);
    if (k >= 0)
        wb_fail(ctx,
                "device_query_count wrote past the end of *count: byte %ld after the int is "
                "0x%02x, expected untouched (0x%02x) (%s)",
                k, c.guard[k], GUARD_BYTE, README_CONTRACT);
    if (got != want)
        wb_fail(ctx,
                "device_query_count gave %d devices, the runtime says %d (README, "
                "\"Counting devices\")",
                got, want);
    /* Again on a simulated machine of two GPUs: a count typed in is right
     * on one kind of machine only. */
    const wb_sim_device *two[2] = {wb_sim_get(1), wb_sim_get(0)};
    wb_sim_use_machine(two, 2);
    c.n = -12345;
    e = count(&c.n);
    wb_sim_use(NULL);
    if (e != cudaSuccess || c.n != 2)
        wb_fail(ctx,
                "on a simulated machine of two GPUs device_query_count returned %s and %d "
                "devices, expected cudaSuccess and 2, what cudaGetDeviceCount says there (README, "
                "\"Counting devices\")",
                cudaGetErrorName((cudaError_t)e), c.n);
    wb_measured(ctx, "%d device(s); 2 on a simulated machine of two", got);
}

/* The grader's own answer for every field, read attribute by attribute. */
static void truth(wb_ctx *ctx, int dev, device_query_report *t) {
    struct cudaDeviceProp p;
    int v[22];
    static const enum cudaDeviceAttr a[22] = {cudaDevAttrComputeCapabilityMajor,
                                              cudaDevAttrComputeCapabilityMinor,
                                              cudaDevAttrMultiProcessorCount,
                                              cudaDevAttrWarpSize,
                                              cudaDevAttrMaxThreadsPerBlock,
                                              cudaDevAttrMaxThreadsPerMultiProcessor,
                                              cudaDevAttrMaxBlocksPerMultiprocessor,
                                              cudaDevAttrMaxBlockDimX,
                                              cudaDevAttrMaxBlockDimY,
                                              cudaDevAttrMaxBlockDimZ,
                                              cudaDevAttrMaxGridDimX,
                                              cudaDevAttrMaxGridDimY,
                                              cudaDevAttrMaxGridDimZ,
                                              cudaDevAttrMaxRegistersPerMultiprocessor,
                                              cudaDevAttrMaxRegistersPerBlock,
                                              cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                                              cudaDevAttrMaxSharedMemoryPerBlock,
                                              cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                              cudaDevAttrL2CacheSize,
                                              cudaDevAttrClockRate,
                                              cudaDevAttrMemoryClockRate,
                                              cudaDevAttrGlobalMemoryBusWidth};
    memset(t, 0, sizeof *t);
    WB_CUDA(ctx, cudaGetDeviceProperties(&p, dev));
    for (int i = 0; i < 22; i++)
        WB_CUDA(ctx, cudaDeviceGetAttribute(&v[i], a[i], dev));
    t->device = dev;
    snprintf(t->name, sizeof t->name, "%s", p.name);
    t->global_mem_bytes = p.totalGlobalMem;
    t->cc_major = v[0], t->cc_minor = v[1], t->sm_count = v[2], t->warp_size = v[3];
    t->max_threads_per_block = v[4], t->max_threads_per_sm = v[5], t->max_blocks_per_sm = v[6];
    for (int k = 0; k < 3; k++)
        t->max_threads_dim[k] = v[7 + k], t->max_grid_size[k] = v[10 + k];
    t->regs_per_sm = v[13], t->regs_per_block = v[14];
    t->smem_per_sm = (size_t)v[15], t->smem_per_block = (size_t)v[16];
    t->smem_per_block_optin = (size_t)v[17], t->l2_bytes = (size_t)v[18];
    t->sm_clock_khz = v[19], t->mem_clock_khz = v[20], t->mem_bus_width_bits = v[21];
    t->fp32_lanes_per_sm = wb_fp32_lanes_per_sm(t->cc_major, t->cc_minor);
    t->peak_fp32_gflops = wb_peak_fp32_gflops(t->sm_count, t->fp32_lanes_per_sm, t->sm_clock_khz);
    t->peak_dram_gbps = wb_peak_dram_gbps(t->mem_clock_khz, t->mem_bus_width_bits);
}

/* Compares one device's report with the truth; returns the number of wrong
 * fields and describes the first in first. */
static int compare(const device_query_report *got, const device_query_report *t, char *first,
                   size_t cap) {
#define WB_INT(f, src)                                                                             \
    if (got->f != t->f && wrong++ == 0)                                                            \
        snprintf(first, cap, "%s: expected %lld, got %lld (%s)", #f, (long long)t->f,              \
                 (long long)got->f, src);
#define WB_DBL(f, src)                                                                             \
    if (!rel_close(got->f, t->f, 1e-6) && wrong++ == 0)                                            \
        snprintf(first, cap, "%s: expected %.6g, got %.6g (%s)", #f, t->f, got->f, src);
    int wrong = 0;
    if (strcmp(got->name, t->name) != 0 && wrong++ == 0)
        snprintf(first, cap, "name: expected \"%s\", got \"%.60s\" (cudaDeviceProp.name)", t->name,
                 got->name);
    WB_INT(device, "the index asked for");
    WB_INT(cc_major, "cudaDevAttrComputeCapabilityMajor");
    WB_INT(cc_minor, "cudaDevAttrComputeCapabilityMinor");
    WB_INT(sm_count, "cudaDevAttrMultiProcessorCount");
    WB_INT(warp_size, "cudaDevAttrWarpSize");
    WB_INT(max_threads_per_block, "cudaDevAttrMaxThreadsPerBlock");
    WB_INT(max_threads_per_sm, "cudaDevAttrMaxThreadsPerMultiProcessor");
    WB_INT(max_blocks_per_sm, "cudaDevAttrMaxBlocksPerMultiprocessor");
    WB_INT(max_threads_dim[0], "cudaDevAttrMaxBlockDimX");
    WB_INT(max_threads_dim[1], "cudaDevAttrMaxBlockDimY");
    WB_INT(max_threads_dim[2], "cudaDevAttrMaxBlockDimZ");
    WB_INT(max_grid_size[0], "cudaDevAttrMaxGridDimX");
    WB_INT(max_grid_size[1], "cudaDevAttrMaxGridDimY");
    WB_INT(max_grid_size[2], "cudaDevAttrMaxGridDimZ");
    WB_INT(regs_per_sm, "cudaDevAttrMaxRegistersPerMultiprocessor");
    WB_INT(regs_per_block, "cudaDevAttrMaxRegistersPerBlock");
    WB_INT(smem_per_sm, "cudaDevAttrMaxSharedMemoryPerMultiprocessor");
    WB_INT(smem_per_block, "cudaDevAttrMaxSharedMemoryPerBlock");
    WB_INT(smem_per_block_optin, "cudaDevAttrMaxSharedMemoryPerBlockOptin");
    WB_INT(l2_bytes, "cudaDevAttrL2CacheSize");
    WB_INT(global_mem_bytes, "cudaDeviceProp.totalGlobalMem");
    WB_INT(sm_clock_khz, "cudaDevAttrClockRate, in kHz");
    WB_INT(mem_clock_khz, "cudaDevAttrMemoryClockRate, in kHz");
    WB_INT(mem_bus_width_bits, "cudaDevAttrGlobalMemoryBusWidth");
    WB_INT(fp32_lanes_per_sm, "device_query_fp32_lanes");
    WB_DBL(peak_fp32_gflops, "device_query_peak_fp32_gflops");
    WB_DBL(peak_dram_gbps, "device_query_peak_dram_gbps");
    return wrong;
#undef WB_INT
#undef WB_DBL
}

static void test_fields_all_devices(wb_ctx *ctx) {
    __typeof__(&device_query_fill) fill;
    WB_BIND(ctx, fill, device_query_fill);
    int n = 0;
    WB_CUDA(ctx, cudaGetDeviceCount(&n));
    for (int dev = 0; dev < n; dev++) {
        device_query_report t;
        guarded_report got;
        truth(ctx, dev, &t);
        int e = fill_guarded(ctx, fill, dev, &got, "");
        if (e != cudaSuccess)
            wb_fail(ctx, "device_query_fill(%d) returned %s, expected cudaSuccess", dev,
                    cudaGetErrorName((cudaError_t)e));
        char first[400];
        int wrong = compare(&got.r, &t, first, sizeof first);
        if (wrong)
            wb_fail(ctx, "device %d: %d of 29 fields wrong; first, %s", dev, wrong, first);
    }
    wb_measured(ctx, "29 fields right on %d device(s), nothing written past the report", n);
}

/* The same fields on GPUs other than the one grading: the runtime's device
 * queries answer, in this process, for an A100, a T4, an RTX 4090, an H200,
 * a laptop RTX 3060 and a Tegra X2 (grader/sim/). Code that hard-codes the
 * grading GPU's figures (its clock, its SM count, registers per SM read
 * from the per-block attribute, equal on the grading GPU) is right there
 * only. */
static void check_one_gpu(wb_ctx *ctx, __typeof__(&device_query_fill) fill,
                          const wb_sim_device *d) {
    char where[96];
    snprintf(where, sizeof where, "on a simulated %s: ", d->name);
    wb_sim_use(d);
    device_query_report t;
    guarded_report got;
    truth(ctx, 0, &t);
    int e = fill_guarded(ctx, fill, 0, &got, where);
    if (e != cudaSuccess)
        wb_fail(ctx,
                "on a simulated %s: device_query_fill(0) returned %s, expected cudaSuccess "
                "(the simulation answers cudaGetDeviceCount, cudaGetDeviceProperties and "
                "cudaDeviceGetAttribute, which are all the contract needs)",
                d->name, cudaGetErrorName((cudaError_t)e));
    char first[400];
    int wrong = compare(&got.r, &t, first, sizeof first);
    if (wrong)
        wb_fail(ctx,
                "on a simulated %s (compute capability %d.%d): %d of 29 fields wrong; first, "
                "%s: read every figure from the runtime for the device asked for, none from "
                "the GPU you tested on (%s)",
                d->name, d->cc_major, d->cc_minor, wrong, first, README_READING);
}

/* A machine of two GPUs, a T4 as device 0 and an A100 as device 1: the
 * report of device 1 must be the A100's. Code that reads device 0, or the
 * current device, whatever dev asks is right on a machine of one GPU only,
 * which is what most graders run on. */
static void check_two_gpus(wb_ctx *ctx, __typeof__(&device_query_fill) fill) {
    const wb_sim_device *m[2] = {wb_sim_get(1), wb_sim_get(0)};
    char where[160];
    snprintf(where, sizeof where, "on a simulated machine of two GPUs (0: %s, 1: %s): ", m[0]->name,
             m[1]->name);
    wb_sim_use_machine(m, 2);
    for (int dev = 1; dev >= 0; dev--) {
        device_query_report t;
        guarded_report got;
        truth(ctx, dev, &t);
        int e = fill_guarded(ctx, fill, dev, &got, where);
        if (e != cudaSuccess)
            wb_fail(ctx, "%sdevice_query_fill(%d) returned %s, expected cudaSuccess", where, dev,
                    cudaGetErrorName((cudaError_t)e));
        char first[400];
        int wrong = compare(&got.r, &t, first, sizeof first);
        if (wrong)
            wb_fail(ctx,
                    "%sdevice %d: %d of 29 fields wrong; first, %s: read every figure of the "
                    "device dev, not of device 0 or of the current device (%s)",
                    where, dev, wrong, first, README_READING);
    }
}

static void test_other_gpus(wb_ctx *ctx) {
    __typeof__(&device_query_fill) fill;
    WB_BIND(ctx, fill, device_query_fill);
    for (int i = 0; i < wb_sim_count(); i++)
        check_one_gpu(ctx, fill, wb_sim_get(i));
    check_two_gpus(ctx, fill);
    wb_sim_use(NULL);
    wb_measured(ctx,
                "29 fields right on %d simulated GPUs (A100, T4, RTX 4090, H200, laptop RTX "
                "3060, Tegra X2) and on both of a simulated machine of two (T4, A100)",
                wb_sim_count());
}

/* Measures a ceiling and checks that it lies between lo and hi times the
 * student's peak for the graded device. */
static void check_against_peak(wb_ctx *ctx, int fp32, double lo, double hi) {
    __typeof__(&device_query_fill) fill;
    WB_BIND(ctx, fill, device_query_fill);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    guarded_report g;
    int e = fill_guarded(ctx, fill, gpu->index, &g, "");
    const device_query_report r = g.r;
    if (e != cudaSuccess)
        wb_fail(ctx, "device_query_fill(%d) returned %s, expected cudaSuccess", gpu->index,
                cudaGetErrorName((cudaError_t)e));
    wb_ceiling c;
    if (fp32)
        WB_CUDA(ctx, wb_measure_fma_gflops(&c));
    else
        WB_CUDA(ctx, wb_measure_copy_gbps(&c));
    double peak = fp32 ? r.peak_fp32_gflops : r.peak_dram_gbps;
    const char *unit = fp32 ? "GFLOP/s" : "GB/s";
    double ratio = peak > 0 ? c.value / peak : INFINITY;
    wb_record(ctx, fp32 ? "fma_throughput" : "copy_bandwidth", c.value, unit, peak, "ref");
    wb_record(ctx, fp32 ? "fma_over_peak" : "copy_over_peak", ratio, "ratio", lo, "ge");
    wb_measured(ctx, "measured %.0f %s = %.0f%% of your peak %.0f %s, need %.0f%%..%.0f%%", c.value,
                unit, ratio * 100, peak, unit, lo * 100, hi * 100);
    if (!(ratio >= lo)) {
        wb_rerun_if_shared(ctx, "the GPU reached %.0f%% of your peak (need %.0f%%)", ratio * 100,
                           lo * 100);
        wb_fail(ctx,
                "your peak is more than %.0fx what the GPU reaches: check the units "
                "(kHz, bits) and the factor 2 (%s)",
                1 / lo, README_PEAKS);
    }
    if (ratio > hi)
        wb_fail(ctx, "the GPU beat your peak by %.0f%%: a peak is an upper bound; check %s (%s)",
                (ratio - 1) * 100,
                fp32 ? "lanes per SM and the factor 2 per FMA" : "the factor 2 of double data rate",
                README_PEAKS);
}

/* Both checks run after correct.fields, which already holds the peaks to
 * the grader's own within 1e-6, so a peak off by a unit or by the factor 2
 * never gets here; the bands decide whether the formula describes this GPU
 * (the table's .limit and README.md, "Why the limits hold on every GPU").
 * FMA: the loop reaches 0.97 of a right peak where the SMs hold the clock
 * the runtime reports, 1.02-1.09 on GeForce cards that boost above it; the
 * nearest wrong peak, an FMA counted as one FLOP, would read 1.94 (above
 * 1.20), and a doubled one 0.49 (below 0.50, by 3 %: correct.fields is the
 * guard against it, not this band). */
static void test_fp32_vs_measured(wb_ctx *ctx) {
    check_against_peak(ctx, 1, 0.50, 1.20);
}

/* Copy: 0.88-0.91 of a right peak on HBM3, HBM3e and GDDR6X; a copy never
 * beats the memory (5 % for the reported clock's rounding). A peak without
 * the double data rate would read about 1.78 (above 1.05), one counted
 * twice about 0.45 (below 0.50). */
static void test_dram_vs_measured(wb_ctx *ctx) {
    check_against_peak(ctx, 0, 0.50, 1.05);
}

/* ------------------------------------------------------------- questions */

static void test_q_my_threads(wb_ctx *ctx) {
    const wb_gpu *g = wb_ctx_gpu(ctx);
    wb_question_number(ctx, "my_resident_threads", (double)g->sm_count * g->max_threads_per_sm, 0.0,
                       "threads resident at once on the whole GPU you grade on");
}

/* 1 %: the peak as copied from a report, rounded; the nearest wrong answers
 * (an FMA counted as one FLOP, another capability's lanes per SM, the
 * clock in MHz read as GHz) are off by a factor of 1.5 or more. */
static void test_q_my_fp32(wb_ctx *ctx) {
    const wb_gpu *g = wb_ctx_gpu(ctx);
    wb_question_number(ctx, "my_peak_fp32_gflops", g->peak_fp32_gflops, 0.01,
                       "peak FP32 GFLOP/s of the GPU you grade on, from your report");
}

/* ----------------------------------------------------------- the table */

#define A100 "the A100 of README \"Questions\""
#define FIGURES_DATE "2026-11-22, CUDA 13.0"

static const wb_test tests[] = {
    WB_HOST("correct.lanes", 10, test_lanes_table, .timeout_s = 20,
            .hint = "README.md, \"Peak rates\": the lanes table"),
    WB_HOST("correct.peak_fp32", 10, test_peak_fp32_random, .timeout_s = 20, .hint = README_PEAKS),
    WB_HOST("correct.peak_dram", 10, test_peak_dram_random, .timeout_s = 20, .hint = README_PEAKS),
    WB_HOST("correct.pick_best", 10, test_pick_best_cases, .timeout_s = 20,
            .hint = "README.md, \"Choosing a device\""),
    WB_HOST("correct.print", 5, test_print_report, .timeout_s = 20,
            .hint = "README.md, \"Build, run and expected output\""),
    /* The host tests' bodies again, the library built for AddressSanitizer: a write one past
     * an array the host functions allocate (the allocator's slack) or declare (the frame's
     * padding), the lanes table's say, changes no figure the tests above check. Without a
     * GPU, like them (device_query_count and _fill run only in the tests that need one). */
    WB_ASAN_OF("sanitizer.host", 2,
               "correct.lanes correct.peak_fp32 correct.peak_dram correct.pick_best "
               "correct.print"),
    WB_GPU("correct.count", 5, test_count_devices, .hint = "README.md, \"Counting devices\""),
    WB_GPU("correct.fields", 15, test_fields_all_devices, .timeout_s = 60,
           .hint = "README.md, \"Reading properties and attributes\""),
    WB_GPU("correct.other_gpus", 5, test_other_gpus, .requires = "correct.fields",
           .hint = README_READING),
    WB_GPU("check.fp32_vs_measured", 5, test_fp32_vs_measured, .timeout_s = 120,
           .requires = "correct.fields", .hint = README_PEAKS, .unrestricted = UNRESTRICTED_PEAK,
           .limit = {.text = "measured FMA rate 50% to 120% of your peak FP32",
                     .derivation = "your peak already equals the grader's (correct.fields), so "
                                   "the ratio is the FMA loop's efficiency (0.97 on any SM from "
                                   "7.5 to 12.0, whatever the SM count or memory) times the clock "
                                   "the SMs hold over the clock the runtime reports: 0.97 on "
                                   "data-centre parts, which never run above it, inside the range "
                                   "while the clock holds 52 % of it, and up to about 1.09 on "
                                   "GeForce cards that boost 12 % above it (inside, but less than "
                                   "25 % below 1.2), while a peak off by a unit or a factor of 2 "
                                   "fails correct.fields first",
                     .figures = "H100 SXM: 65200 of 66908 GFLOP/s = 97 %; H200: 65011 of 66908 "
                                "= 97 % (" FIGURES_DATE "; stub: not graded, peak 0)"}),
    WB_GPU("check.dram_vs_measured", 5, test_dram_vs_measured, .timeout_s = 120,
           .requires = "correct.fields", .hint = README_PEAKS, .unrestricted = UNRESTRICTED_PEAK,
           .limit = {.text = "measured copy rate 50% to 105% of your peak DRAM",
                     .derivation = "your peak already equals the grader's (correct.fields), so "
                                   "the ratio is the efficiency of a copy of 16 x the L2 that "
                                   "streams through DRAM on any GPU (0.88-0.89 on HBM3 and HBM3e, "
                                   "about 0.9 on GDDR6X), which can never beat the memory at the "
                                   "clock the runtime reports (5 % absorbs its rounding), while a "
                                   "peak off by a unit or a factor of 2 fails correct.fields "
                                   "first",
                     .figures = "H100 SXM: 2977 of 3352 GB/s = 89 %; H200: 4238 of 4814 = 88 % "
                                "(" FIGURES_DATE "; stub: not graded, peak 0)"}),
    WB_SANITIZER_OF("sanitizer.fill", 5, "memcheck", "correct.fields"),
    WB_QUESTION_HASH("a100_resident_threads", 2, 0x9ea0d28c37cc7b3aULL,
                     "threads resident at once on the whole GPU, " A100),
    WB_QUESTION_HASH("a100_peak_fp32_gflops", 2, 0x69cfb4ed331dc5c6ULL,
                     "peak FP32 GFLOP/s of " A100 ", rounded to a whole number"),
    WB_QUESTION_HASH("a100_peak_dram_gbps", 2, 0x5307cb071774859dULL,
                     "peak DRAM GB/s of " A100 ", rounded to a whole number"),
    WB_QUESTION_HASH("a100_blocks_per_sm_160", 1, 0xc6cd50d32e1bde76ULL,
                     "blocks of 160 threads resident on one SM of " A100
                     " when only thread and block slots limit"),
    WB_QUESTION_HASH("a100_regs_blocks_160", 1, 0xce2b2dfeeb700455ULL,
                     "most registers per thread at which one SM of " A100
                     " still holds as many 160-thread blocks as its thread and block slots "
                     "allow"),
    WB_QUESTION_HASH("claim_resident_threads", 2, 0x5649206fe898b140ULL,
                     "the letter that judges the claim about resident threads of " A100),
    WB_QUESTION_FN("question.my_resident_threads", 3, test_q_my_threads, .needs_gpu = 1),
    WB_QUESTION_FN("question.my_peak_fp32_gflops", 2, test_q_my_fp32, .needs_gpu = 1),
};

WB_LAB_MAIN(tests)
