/* check_common.c - unit tests of common/: statistics, generator, answers, reports, GPU arithmetic,
 * the ledger of validated GPUs */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wb_answers.h"
#include "wb_clocks.h"
#include "wb_env.h"
#include "wb_gpu.h"
#include "wb_csv.h"
#include "wb_ledger.h"
#include "wb_poison.h"
#include "wb_report.h"
#include "wb_rng.h"
#include "wb_stats.h"
#include "wb_timing.h"
#include "sim_devices.h"
#include "sim_waits.h"

#include <cuda_runtime_api.h>

START_TEST(test_stats_median_odd_even) {
    double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
    ck_assert_double_eq(wb_median(odd, 3), 3);
    ck_assert_double_eq(wb_median(even, 4), 2.5);
    ck_assert_double_eq(odd[0], 5); /* input untouched */
    ck_assert(isnan(wb_median(odd, 0)));
}
END_TEST

START_TEST(test_stats_quantiles_spread) {
    double v[] = {1, 2, 3, 4, 5};
    ck_assert_double_eq(wb_quantile(v, 5, 0.25), 2);
    ck_assert_double_eq(wb_quantile(v, 5, 0.75), 4);
    ck_assert_double_eq_tol(wb_rel_spread(v, 5), 2.0 / 3.0, 1e-12);
    ck_assert_double_eq(wb_rel_spread(v, 1), 0);
    ck_assert_double_eq(wb_min(v, 5), 1);
    ck_assert_double_eq(wb_max(v, 5), 5);
}
END_TEST

START_TEST(test_rng_deterministic_and_bounded) {
    wb_rng a, b;
    wb_rng_seed(&a, 42);
    wb_rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_eq(wb_rng_u64(&a), wb_rng_u64(&b));
    wb_rng_seed(&b, 43);
    ck_assert_uint_ne(wb_rng_u64(&a), wb_rng_u64(&b));
    int seen[7] = {0};
    for (int i = 0; i < 10000; i++) {
        int64_t x = wb_rng_range(&a, -3, 3);
        ck_assert(x >= -3 && x <= 3);
        seen[x + 3]++;
        double u = wb_rng_uniform(&a);
        ck_assert(u >= 0 && u < 1);
    }
    for (int k = 0; k < 7; k++)
        ck_assert_int_gt(seen[k], 1200); /* about 1429 each */
}
END_TEST

START_TEST(test_rng_known_sequence) {
    /* Pinned so that SEED=n gives the same inputs on every machine and release. */
    wb_rng r;
    wb_rng_seed(&r, 1);
    uint64_t first = wb_rng_u64(&r);
    wb_rng_seed(&r, 1);
    ck_assert_uint_eq(wb_rng_u64(&r), first);
    ck_assert_uint_eq(first, 0xb3f2af6d0fc710c5ULL);
}
END_TEST

START_TEST(test_seed_from_env) {
    setenv("SEED", "12345", 1);
    ck_assert_uint_eq(wb_rng_seed_from_env(), 12345);
    unsetenv("SEED");
    ck_assert_uint_lt(wb_rng_seed_from_env(), 1000000000ULL);
}
END_TEST

/* One reader for every variable: a valid value is read, a bad one is an
 * error that names the variable and its value, unset is "not given". */
START_TEST(test_env_reader) {
    char err[256];
    unsigned long long u = 7;
    double d = 0;
    unsetenv("WB_TEST_VAR");
    ck_assert_int_eq(wb_env_ull("WB_TEST_VAR", 0, 10, &u, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(u, 7);
    setenv("WB_TEST_VAR", "", 1);
    ck_assert_int_eq(wb_env_ull("WB_TEST_VAR", 0, 10, &u, NULL, err, sizeof err), 0);
    setenv("WB_TEST_VAR", "9", 1);
    ck_assert_int_eq(wb_env_ull("WB_TEST_VAR", 0, 10, &u, NULL, err, sizeof err), 1);
    ck_assert_uint_eq(u, 9);
    const char *bad[] = {"abc", "11", "-1", "+3", " 3", "3x", "99999999999999999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        setenv("WB_TEST_VAR", bad[k], 1);
        ck_assert_int_eq(wb_env_ull("WB_TEST_VAR", 0, 10, &u, "what it does", err, sizeof err), -1);
        ck_assert_ptr_nonnull(strstr(err, "WB_TEST_VAR="));
        ck_assert_ptr_nonnull(strstr(err, bad[k]));
        ck_assert_ptr_nonnull(strstr(err, "from 0 to 10"));
    }
    setenv("WB_TEST_VAR", "2.5", 1);
    ck_assert_int_eq(wb_env_double("WB_TEST_VAR", 0.01, 1000, &d, NULL, err, sizeof err), 1);
    ck_assert_double_eq(d, 2.5);
    const char *bad_d[] = {"0", "fast", "nan", "inf", "1e9", "2,5"};
    for (size_t k = 0; k < sizeof bad_d / sizeof bad_d[0]; k++) {
        setenv("WB_TEST_VAR", bad_d[k], 1);
        ck_assert_int_eq(wb_env_double("WB_TEST_VAR", 0.01, 1000, &d, NULL, err, sizeof err), -1);
    }
    unsetenv("WB_TEST_VAR");
    setenv("SEED", "abc", 1);
    ck_assert_int_eq(wb_env_check_grader(err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "SEED=abc"));
    unsetenv("SEED");
    ck_assert_int_eq(wb_env_check_grader(err, sizeof err), 0);
}
END_TEST

/* The run's GPU, seed and version survive the trip through results.json. */
START_TEST(test_results_json_run_info) {
    char path[] = "/tmp/wb_info_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    wb_run_info in = {.lab = "03-x", .set = "labs", .gpu = "NVIDIA H200", .arch = "sm_90",
                      .sm_count = 132, .driver = "580.1", .cuda_driver = "13.0",
                      .cuda_runtime = "12.9", .seed = 18446744073709551615ULL,
                      .grader_version = "abc123-dirty", .other_processes = 2},
                out;
    wb_result r[1] = {{.id = "correct.a", .verdict = WB_PASS, .points = 1, .max_points = 1}};
    ck_assert_int_eq(wb_results_json_write(path, r, 1, "x", &in), 0);
    ck_assert_int_eq(wb_results_json_read_info(path, &out), 0);
    ck_assert_str_eq(out.gpu, "NVIDIA H200");
    ck_assert_str_eq(out.arch, "sm_90");
    ck_assert_str_eq(out.grader_version, "abc123-dirty");
    ck_assert_str_eq(out.cuda_driver, "13.0");
    ck_assert_str_eq(out.cuda_runtime, "12.9");
    ck_assert_uint_eq(out.seed, 18446744073709551615ULL);
    ck_assert_int_eq(out.sm_count, 132);
    ck_assert_int_eq(out.other_processes, 2);
    ck_assert_int_eq(wb_results_json_write(path, r, 1, "x", NULL), 0);
    ck_assert_int_eq(wb_results_json_read_info(path, &out), -1);
    unlink(path);
}
END_TEST

START_TEST(test_answers_parse_ok) {
    wb_answers a;
    const char *text = "# comment\n\nalpha = 42\nbeta_2 =   hello world  # note\nempty =\n";
    ck_assert_int_eq(wb_answers_parse(text, "t", &a), 0);
    ck_assert_int_eq(a.n, 3);
    ck_assert_str_eq(wb_answers_get(&a, "alpha"), "42");
    ck_assert_str_eq(wb_answers_get(&a, "beta_2"), "hello world");
    ck_assert_str_eq(wb_answers_get(&a, "empty"), "");
    ck_assert_ptr_null(wb_answers_get(&a, "gamma"));
    ck_assert_int_eq(a.items[2].line, 5);
    wb_answers_free(&a);
}
END_TEST

START_TEST(test_answers_parse_errors) {
    wb_answers a;
    ck_assert_int_eq(wb_answers_parse("ok = 1\nno equals sign\n", "f.txt", &a), -1);
    ck_assert_ptr_nonnull(strstr(a.error, "f.txt:2"));
    wb_answers_free(&a);
    ck_assert_int_eq(wb_answers_parse("Bad-Key = 1\n", "f.txt", &a), -1);
    ck_assert_ptr_nonnull(strstr(a.error, "bad key"));
    wb_answers_free(&a);
    ck_assert_int_eq(wb_answers_parse("k = 1\nk = 2\n", "f.txt", &a), -1);
    ck_assert_ptr_nonnull(strstr(a.error, "already given on line 1"));
    wb_answers_free(&a);
    ck_assert_int_eq(wb_answers_load("/nonexistent/answers.txt", &a), -1);
    ck_assert_ptr_nonnull(strstr(a.error, "cannot be read"));
}
END_TEST

START_TEST(test_answer_numbers) {
    double v;
    ck_assert_int_eq(wb_answer_number("221,184", &v), 0);
    ck_assert_double_eq(v, 221184);
    ck_assert_int_eq(wb_answer_number("221 184", &v), 0);
    ck_assert_double_eq(v, 221184);
    ck_assert_int_eq(wb_answer_number("1555 GB/s", &v), 0);
    ck_assert_double_eq(v, 1555);
    ck_assert_int_eq(wb_answer_number("1.5e3", &v), 0);
    ck_assert_double_eq(v, 1500);
    ck_assert_int_eq(wb_answer_number("seventeen", &v), -1);
    ck_assert_int_eq(wb_answer_number("12 34 x", &v), 0); /* "12 34" is 1234 */
    ck_assert_double_eq(v, 1234);
    ck_assert_int_eq(wb_answer_number("", &v), -1);
}
END_TEST

START_TEST(test_answer_normalise_and_hash) {
    char out[64];
    ck_assert_int_eq(wb_answer_normalise("221,184", out, sizeof out), 0);
    ck_assert_str_eq(out, "221184");
    ck_assert_int_eq(wb_answer_normalise("221184.0", out, sizeof out), 0);
    ck_assert_str_eq(out, "221184");
    ck_assert_int_eq(wb_answer_normalise("  Warp   Index ", out, sizeof out), 0);
    ck_assert_str_eq(out, "warp index");
    ck_assert_uint_eq(wb_answer_hash("s", "k", "1,000"), wb_answer_hash("s", "k", "1000"));
    ck_assert_uint_ne(wb_answer_hash("s", "k", "1000"), wb_answer_hash("t", "k", "1000"));
    ck_assert_uint_ne(wb_answer_hash("s", "k", "1000"), wb_answer_hash("s", "k", "1001"));
    /* Pinned: graders store these values. */
    ck_assert_uint_eq(wb_answer_hash("00-device-query/v1", "a100_blocks_per_sm_128", "16"),
                      0xac552ce1b1adb18eULL);
}
END_TEST

START_TEST(test_csv_escaping) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *row[] = {"plain", "with,comma", "with \"quote\"", "two\nlines", ""};
    wb_csv_row(f, 5, row);
    fclose(f);
    ck_assert_str_eq(buf, "plain,\"with,comma\",\"with \"\"quote\"\"\",\"two\nlines\",\n");
    free(buf);
}
END_TEST

/* Text from code under test, made safe in place: controls to ' ', what is not UTF-8 (and the
 * unsafe code points) to '?', well-formed text kept byte for byte. */
START_TEST(test_text_clean) {
    const struct {
        const char *in, *out;
    } cases[] = {
        {"plain \303\251t\303\251 \342\211\245 1.5x \360\237\230\200", NULL}, /* kept as is */
        {"a\tb\nc\rd\033[2Je\177", "a b c d [2Je "},
        {"\302\23331m \302\205", "??31m ??"},       /* C1: CSI, NEL */
        {"x\342\200\256y\342\201\246", "x???y???"}, /* bidi override, isolate */
        {"\377\376\200", "???"},                    /* no lead byte */
        /* overlong, surrogate, past U+10FFFF */
        {"\300\257 \340\200\257 \355\240\200 \364\220\200\200", "?? ??? ??? ????"},
        {"cut \342\202", "cut ??"}, /* a sequence cut short */
        {"\342\202A", "??A"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", cases[i].in);
        wb_text_clean(buf);
        ck_assert_str_eq(buf, cases[i].out ? cases[i].out : cases[i].in);
    }
}
END_TEST

static wb_result sample(wb_verdict v) {
    wb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.lab, sizeof r.lab, "03-divergence");
    snprintf(r.id, sizeof r.id, "perf.warp_aligned");
    snprintf(r.kind, sizeof r.kind, "performance");
    r.verdict = v;
    r.max_points = 30;
    r.points = v == WB_PASS ? 30 : 0;
    snprintf(r.measured, sizeof r.measured, "speedup 1.02x over divergent baseline, need >= 1.60x");
    snprintf(r.hint, sizeof r.hint, "branch on the warp index");
    snprintf(r.reason, sizeof r.reason, "text with \"quotes\", tabs\tand \\ backslashes");
    r.seconds = 1.5;
    return r;
}

START_TEST(test_console_format) {
    char buf[1024];
    wb_result r = sample(WB_FAIL);
    wb_format_result(buf, sizeof buf, &r, 0);
    ck_assert_ptr_nonnull(strstr(buf, "  FAIL  perf.warp_aligned"));
    ck_assert_ptr_nonnull(strstr(buf, "0/30  speedup 1.02x"));
    ck_assert_ptr_nonnull(strstr(buf, "\n        hint: branch on the warp index"));
    ck_assert_ptr_null(strchr(buf, '\033')); /* no colour when off */
    wb_format_result(buf, sizeof buf, &r, 1);
    ck_assert_ptr_nonnull(strchr(buf, '\033'));
    r = sample(WB_PASS);
    wb_format_result(buf, sizeof buf, &r, 0);
    ck_assert_ptr_null(strstr(buf, "hint:")); /* hints only under failures */
    wb_format_header(buf, sizeof buf, "03-divergence", "NVIDIA H200 (sm_90)");
    ck_assert_int_eq((int)strlen(buf), 80);
    ck_assert_ptr_nonnull(strstr(buf, "== 03-divergence ="));
    ck_assert_ptr_nonnull(strstr(buf, "==  NVIDIA H200 (sm_90)"));
}
END_TEST

START_TEST(test_no_color_env) {
    setenv("NO_COLOR", "1", 1);
    ck_assert_int_eq(wb_color_enabled(stdout), 0);
    unsetenv("NO_COLOR");
}
END_TEST

START_TEST(test_results_json_roundtrip) {
    char path[] = "/tmp/wb_results_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    wb_result in[3] = {sample(WB_PASS), sample(WB_FAIL), sample(WB_SKIP)};
    ck_assert_int_eq(wb_results_json_write(path, in, 3, "GPU \"x\"", NULL), 0);
    wb_result *out;
    ck_assert_int_eq(wb_results_json_read(path, &out), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(out[i].id, in[i].id);
        /* Quotes and backslashes come back as written; a tab as a space (wb_text_clean). */
        ck_assert_str_eq(out[i].reason, "text with \"quotes\", tabs and \\ backslashes");
        ck_assert_str_eq(out[i].kind, "performance");
        ck_assert_int_eq(out[i].verdict, in[i].verdict);
        ck_assert_int_eq(out[i].points, in[i].points);
        ck_assert_int_eq(out[i].max_points, 30);
    }
    free(out);
    /* Gradescope's fields are there. */
    FILE *f = fopen(path, "r");
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "\"score\":30"));
    ck_assert_ptr_nonnull(strstr(text, "\"max_score\":30"));
    ck_assert_ptr_nonnull(strstr(text, "\"status\":\"failed\""));
    unlink(path);
    ck_assert_int_eq(wb_results_json_read("/nonexistent.json", &out), -1);
}
END_TEST

START_TEST(test_gpu_peaks) {
    /* H100 SXM: 132 SMs x 128 lanes x 1.98 GHz x 2; HBM3 2619 MHz x 5120 bits x 2. */
    ck_assert_double_eq_tol(wb_peak_fp32_gflops(132, 128, 1980000), 66908.16, 1e-6);
    ck_assert_double_eq_tol(wb_peak_dram_gbps(2619000, 5120), 3352.32, 1e-6);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(8, 0), 64);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(8, 6), 128);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(9, 0), 128);
    ck_assert_int_eq(wb_fp32_lanes_per_sm(3, 5), 0);
}
END_TEST

START_TEST(test_gpu_pick_best) {
    wb_gpu g[3];
    memset(g, 0, sizeof g);
    g[0].peak_fp32_gflops = 100, g[0].peak_dram_gbps = 10;
    g[1].peak_fp32_gflops = 200, g[1].peak_dram_gbps = 10;
    g[2].peak_fp32_gflops = 200, g[2].peak_dram_gbps = 20;
    ck_assert_int_eq(wb_gpu_pick_best(g, 3), 2);
    g[2].peak_dram_gbps = 10;
    ck_assert_int_eq(wb_gpu_pick_best(g, 3), 1); /* full tie: lower index */
    ck_assert_int_eq(wb_gpu_pick_best(g, 0), -1);
}
END_TEST

/* The shared-memory poison reads loudly however a kernel uses a word of
 * it: a NaN as a float and as a double; as a byte offset, odd; scaled as
 * an index of 1- to 16-byte elements in 32-bit shared addresses (they
 * wrap), more than an SM's shared memory (at most 228 KB) before the array,
 * where 0xFFFFFFFF would be one element before it. */
START_TEST(test_poison_word) {
    uint32_t w = WB_POISON_WORD;
    float f;
    memcpy(&f, &w, sizeof f);
    ck_assert(isnan(f));
    uint64_t w2 = ((uint64_t)w << 32) | w;
    double d;
    memcpy(&d, &w2, sizeof d);
    ck_assert(isnan(d));
    ck_assert_uint_eq(w % 2, 1);
    for (uint32_t scale = 1; scale <= 16; scale *= 2) {
        int32_t at = (int32_t)(uint32_t)(w * scale); /* the byte offset, wrapped */
        ck_assert_int_lt(at, -(int32_t)(256 * 1024));
        ck_assert_int_lt((int32_t)(uint32_t)(0xFFFFFFFFu * scale), 0);
        ck_assert_int_gt((int32_t)(uint32_t)(0xFFFFFFFFu * scale), -32);
    }
    ck_assert_int_gt(WB_POISON_BLOCKS_PER_SM, 1);
}
END_TEST

START_TEST(test_within_noise) {
    ck_assert_int_eq(wb_within_noise(1.49, 0.01, 1.5), 1); /* 0.7 % short: re-measure */
    ck_assert_int_eq(wb_within_noise(1.40, 0.01, 1.5), 0); /* 6.7 % short: a clear miss */
    ck_assert_int_eq(wb_within_noise(1.40, 0.05, 1.5), 1); /* noisy run: wider band */
    ck_assert_int_eq(wb_within_noise(1.50, 0.01, 1.5), 0); /* at the limit: passes */
    ck_assert_int_eq(wb_within_noise(1.00, 0.02, 1.5), 0); /* the stub: never re-measured */
    /* Timing stops early only when no pair could change the verdict. */
    ck_assert_int_eq(wb_clear_of_limit(9.4, 0.05, 4.0), 1);   /* 135 % over, 20 % band */
    ck_assert_int_eq(wb_clear_of_limit(1.0, 0.02, 4.0), 1);   /* the stub: 75 % short */
    ck_assert_int_eq(wb_clear_of_limit(1.55, 0.02, 1.45), 0); /* 7 % over: keep timing */
    ck_assert_int_eq(wb_clear_of_limit(1.7, 0.02, 1.45), 1);  /* 17 % over, 10 % band */
    ck_assert_int_eq(wb_clear_of_limit(1.7, 0.05, 1.45), 0);  /* noisy: 20 % band */
    ck_assert_int_eq(wb_clear_of_limit(1.4, 0.01, 1.45), 0);  /* near miss: keep timing */
    /* When timing stops: never with nothing timed, whatever the clock says. */
    wb_time_opts o = wb_time_defaults();
    double r[20];
    for (int i = 0; i < 20; i++)
        r[i] = i % 2 ? 9.0 : 10.0; /* spread 10 %: above the 3 % target */
    ck_assert_int_eq(wb_enough_trials(r, 0, &o, 1e6, 4.0), 0); /* past the cap, 0 pairs */
    ck_assert_int_eq(wb_enough_trials(r, 2, &o, 1e6, 4.0), 0);
    ck_assert_int_eq(wb_enough_trials(r, WB_MIN_PAIRS, &o, 1e6, 4.0), 1);
    ck_assert_int_eq(wb_enough_trials(r, 14, &o, 0.1, 4.0), 0);  /* below min_trials */
    ck_assert_int_eq(wb_enough_trials(r, 15, &o, 0.1, 4.0), 1);  /* 9.5x: clear of 4x */
    ck_assert_int_eq(wb_enough_trials(r, 15, &o, 0.1, 9.3), 0);  /* near 9.3x: go on */
    ck_assert_int_eq(wb_enough_trials(r, 15, &o, 0.1, 0), 0);    /* no limit: spread rules */
    ck_assert_int_eq(wb_enough_trials(r, 15, &o, 11.0, 9.3), 1); /* past the 10 s cap */
    ck_assert_int_eq(wb_enough_trials(r, o.max_trials, &o, 0.1, 9.3), 1);
    o.max_trials = 1;
    ck_assert_int_eq(wb_enough_trials(r, 1, &o, 0.1, 9.3), 1);
    /* Inconclusive only when short, within the noise, and the spread is large. */
    ck_assert_int_eq(wb_inconclusive(1.40, 0.12, 1.5), 1); /* busy GPU, near miss */
    ck_assert_int_eq(wb_inconclusive(1.40, 0.02, 1.5), 0); /* quiet GPU: a real miss */
    ck_assert_int_eq(wb_inconclusive(1.00, 0.12, 1.5), 0); /* the stub: a clear miss even so */
    ck_assert_int_eq(wb_inconclusive(1.60, 0.30, 1.5), 0); /* above the limit: passes */
}
END_TEST

/* A sample as NVML would give it: SM and memory clocks, reasons. */
static wb_clock_sample clock_sample(unsigned sm, unsigned mem, unsigned long long reasons) {
    wb_clock_sample s = {.valid = 1,
                         .sm_mhz = sm,
                         .mem_mhz = mem,
                         .sm_max_mhz = 1980,
                         .has_reasons = 1,
                         .reasons = reasons,
                         .temp_c = 87};
    return s;
}

/* Whether a timing was disturbed, and the words that say how. */
START_TEST(test_clocks_disturbed) {
    char why[300];
    wb_clock_sample a = clock_sample(1980, 2619, 0), b = a;
    /* No change: steady clocks, no reason. */
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 0);
    ck_assert_str_eq(why, "");
    /* A thermal slowdown appears: disturbed, named, with the temperature. */
    b.reasons = WB_CLK_SW_THERMAL;
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "thermal slowdown"));
    ck_assert_ptr_nonnull(strstr(why, "87 C"));
    /* The SM clock drops 15 %: disturbed, with both clocks and the reason. */
    b = clock_sample(1683, 2619, WB_CLK_SW_POWER_CAP);
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 1);
    ck_assert_str_eq(why, "the SM clock fell from 1980 to 1683 MHz during the timing (power cap)");
    b.reasons = 0;
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "NVML gave no reason"));
    /* A drop of 5 % with no reason: within what boost clocks do. */
    b = clock_sample(1881, 2619, 0);
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 0);
    /* Idle and the clock settings are not events, before or after. */
    a = clock_sample(1980, 2619, WB_CLK_GPU_IDLE);
    b = clock_sample(1980, 2619, WB_CLK_GPU_IDLE | WB_CLK_APP_CLOCKS);
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 0);
    /* Clocks rising from idle are no drop; the memory clock falling is. */
    a = clock_sample(345, 2619, WB_CLK_GPU_IDLE);
    b = clock_sample(1980, 2619, 0);
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 0);
    b.mem_mhz = 1593;
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "memory clock fell from 2619 to 1593"));
    /* A reason already set before the timing counts too (it ran throttled). */
    a = clock_sample(1980, 2619, WB_CLK_HW_SLOWDOWN);
    b = clock_sample(1980, 2619, 0);
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "HW slowdown"));
    /* Nothing read (no NVML): nothing known, never disturbed. */
    b = clock_sample(990, 2619, WB_CLK_SW_THERMAL);
    a.valid = 0;
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 0);
    /* Reasons not read: only the clocks count. */
    a = clock_sample(1980, 2619, 0);
    b.has_reasons = 0;
    b.sm_mhz = 1900;
    ck_assert_int_eq(wb_clocks_disturbed(&a, &b, why, sizeof why), 0);
}
END_TEST

START_TEST(test_clocks_words) {
    char buf[200];
    wb_clocks_reason_words(0, buf, sizeof buf);
    ck_assert_str_eq(buf, "none");
    wb_clocks_reason_words(WB_CLK_SW_POWER_CAP | WB_CLK_SYNC_BOOST | WB_CLK_HW_THERMAL, buf,
                           sizeof buf);
    ck_assert_str_eq(buf, "power cap, sync boost, HW thermal slowdown");
    wb_clocks_reason_words(0x800ULL | WB_CLK_GPU_IDLE, buf, sizeof buf);
    ck_assert_str_eq(buf, "GPU idle, reason 0x800");
    wb_clocks_reason_words(WB_CLK_SW_POWER_CAP | WB_CLK_HW_THERMAL, buf, 8); /* truncated, ended */
    ck_assert_uint_lt(strlen(buf), 8);
    wb_clock_sample s = clock_sample(1755, 2619, WB_CLK_SW_POWER_CAP);
    wb_clocks_describe(&s, buf, sizeof buf);
    ck_assert_str_eq(buf, "SM clock 1755 MHz now (max 1980), memory clock 2619 MHz, 87 C; "
                          "reasons: power cap");
    s.valid = 0;
    wb_clocks_describe(&s, buf, sizeof buf);
    ck_assert_str_eq(buf, "clocks not read");
}
END_TEST

/* Without NVML (CI), or for a GPU NVML does not know, opening fails with a
 * reason, and sampling a closed handle reads nothing: no crash. */
START_TEST(test_clocks_open_fails_cleanly) {
    wb_clocks c;
    wb_clock_sample s;
    ck_assert_int_eq(wb_clocks_open(&c, "ffff:ff:1f.7"), -1);
    ck_assert_ptr_null(c.dev);
    ck_assert_uint_gt(strlen(c.why), 0);
    ck_assert_int_eq(wb_clocks_sample(&c, &s), -1);
    ck_assert_int_eq(s.valid, 0);
    wb_clocks_close(&c); /* harmless on a closed handle */
}
END_TEST

/* ---- the ledger of validated GPUs (wb_ledger) */

#define LEDGER_HEAD                                                                                \
    "# ledger entry: make bench on one GPU model\n"                                                \
    "# gpu=NVIDIA H100 80GB HBM3\n# sms=132\n# cc=9.0\n# driver=580.159.04\n"                      \
    "# cuda_runtime=13.0\n# date=2026-11-23\n# restricted_sms=0\n# runs=10\n" WB_LEDGER_COLUMNS    \
    "\n"
/* 03-x clears its limit both ways; 05-x's reference is short; 06-x's limit is
 * exact (a share of 1 met every run); 07-x's correctness test flipped; 09-x's
 * reference failed a test in every run (the stub failing one is expected). */
#define LEDGER_ROWS                                                                                \
    "solutions,03-x,perf.run,run_speedup,1.45,ge,10,1.9,1.87,1.92,29,10,0,0\n"                     \
    "labs,03-x,perf.run,run_speedup,1.45,ge,10,1,0.99,1.01,-30.3,0,10,0\n"                         \
    "solutions,03-x,perf.run,verdict,,,10,,,,,10,0,0\n"                                            \
    "solutions,05-x,perf.cliff,cliff_speedup,2.05,ge,10,2.4,2.3,2.5,12.2,10,0,0\n"                 \
    "solutions,06-x,check.rank,ranked_share,1,ge,10,1,1,1,0,10,0,0\n"                              \
    "solutions,07-x,correct.a,verdict,,,10,,,,,9,1,1\n"                                            \
    "solutions,09-x,measure.b,verdict,,,10,,,,,0,10,0\n"                                           \
    "labs,09-x,measure.c,verdict,,,10,,,,,0,10,0\n"

/* Writes text to dir/name; the path goes to path. */
static void put_file(const char *dir, const char *name, const char *text, char *path, size_t cap) {
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* One splitter for ncu's quoted CSV and the ledger's plain rows: quoted
 * fields keep their commas, every field is counted (empty ones, and those
 * past max, so a long or short row shows), an empty line is one field. */
START_TEST(test_csv_split) {
    char a[] = "\"ID\",\"Kernel Name\",\"a, b\",\"1,234.5\"", b[] = "x,,y,", c[] = "",
         d[] = "1,2,3,4,5";
    char *f[4];
    ck_assert_int_eq(wb_csv_split(a, f, 4), 4);
    ck_assert_str_eq(f[0], "ID");
    ck_assert_str_eq(f[1], "Kernel Name");
    ck_assert_str_eq(f[2], "a, b");
    ck_assert_str_eq(f[3], "1,234.5");
    ck_assert_int_eq(wb_csv_split(b, f, 4), 4);
    ck_assert_str_eq(f[0], "x");
    ck_assert_str_eq(f[1], "");
    ck_assert_str_eq(f[2], "y");
    ck_assert_str_eq(f[3], "");
    ck_assert_int_eq(wb_csv_split(c, f, 4), 1);
    ck_assert_str_eq(f[0], "");
    ck_assert_int_eq(wb_csv_split(d, f, 2), 5);
    ck_assert_str_eq(f[1], "2");
}
END_TEST

/* The file name comes from the name cudaGetDeviceProperties gives, whatever
 * its case, spaces and punctuation; another model is another name. */
START_TEST(test_ledger_names) {
    char f[300];
    wb_ledger_file_name("NVIDIA H100 80GB HBM3", 0, f, sizeof f);
    ck_assert_str_eq(f, "nvidia-h100-80gb-hbm3.csv");
    wb_ledger_file_name("  nvidia  H100_80GB-hbm3 ", 0, f, sizeof f);
    ck_assert_str_eq(f, "nvidia-h100-80gb-hbm3.csv");
    wb_ledger_file_name("NVIDIA H200", 32, f, sizeof f);
    ck_assert_str_eq(f, "nvidia-h200-sms32.csv");
    wb_ledger_file_name("", 0, f, sizeof f);
    ck_assert_str_eq(f, "unknown-gpu.csv");
    ck_assert(wb_ledger_same_model("NVIDIA H100 80GB HBM3", "nvidia h100 80gb  HBM3"));
    ck_assert(!wb_ledger_same_model("NVIDIA H100 80GB HBM3", "NVIDIA H100"));
    ck_assert(!wb_ledger_same_model("NVIDIA H200", "NVIDIA H200 NVL"));
    ck_assert(!wb_ledger_same_model("", ""));
}
END_TEST

/* A good entry reads back whole; its limits are judged against the target. */
START_TEST(test_ledger_read_and_judge) {
    char dir[] = "/tmp/wb_ledger_XXXXXX", path[PATH_MAX], why[400];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    put_file(dir, "e.csv", LEDGER_HEAD LEDGER_ROWS, path, sizeof path);
    wb_ledger l;
    ck_assert_int_eq(wb_ledger_read(path, &l, why, sizeof why), 0);
    ck_assert_str_eq(l.gpu, "NVIDIA H100 80GB HBM3");
    ck_assert_str_eq(l.date, "2026-11-23");
    ck_assert_int_eq(l.runs, 10);
    ck_assert_int_eq(l.sms, 132);
    ck_assert_int_eq(l.n_rows, 8);
    wb_ledger_limit *k;
    ck_assert_int_eq(wb_ledger_limits(&l, NULL, &k), 3);
    ck_assert_str_eq(k[0].ref->lab, "03-x");
    ck_assert(k[0].ref_ok && k[0].stub_ok && !k[0].exact);
    ck_assert(!k[1].ref_ok && k[1].stub_ok && k[1].stub == NULL); /* 05-x: +12.2 % */
    ck_assert(k[2].exact && k[2].ref_ok);                         /* 06-x: a share of 1 */
    char how[400];
    wb_ledger_limit_describe(&k[1], how, sizeof how);
    ck_assert_str_eq(how, "reference worst +12.2 % (need >= +25 %); stub not measured");
    free(k);
    int flips;
    const wb_ledger_row *f = wb_ledger_first_flip(&l, NULL, &flips);
    ck_assert_int_eq(flips, 1);
    ck_assert_str_eq(f->lab, "07-x");
    int ref_fails;
    f = wb_ledger_first_ref_fail(&l, NULL, &ref_fails);
    ck_assert_int_eq(ref_fails, 1); /* not 07-x's flip, nor the stub's fails */
    ck_assert_str_eq(f->test, "measure.b");
    ck_assert_ptr_null(wb_ledger_first_ref_fail(&l, "03-x", &ref_fails));
    ck_assert_int_eq(ref_fails, 0);
    wb_ledger_free(&l);
    unlink(path);
    ck_assert_int_eq(wb_ledger_read(path, &l, why, sizeof why), -1); /* missing */
    rmdir(dir);
}
END_TEST

/* Each malformed entry is refused by line, saying what was expected and found. */
START_TEST(test_ledger_malformed) {
    struct {
        const char *text, *why;
    } bad[] = {
        {LEDGER_HEAD "solutions,03-x,perf.run,run_speedup,1.45\n", "line 11: expected 14"},
        {LEDGER_HEAD "stubs,03-x,perf.run,verdict,,,10,,,,,10,0,0\n", "expected solutions or labs"},
        {LEDGER_HEAD "solutions,03-x,perf.run,m,x,ge,10,1,1,1,1,10,0,0\n", "expected numbers"},
        {LEDGER_HEAD "solutions,03-x,perf.run,m,1,gt,10,1,1,1,1,10,0,0\n", "expected ge, le or eq"},
        {LEDGER_HEAD "solutions,03-x,perf.run,verdict,,,2,,,,,2,1,1\n", "passes + fails <= runs"},
        {LEDGER_HEAD, "no rows under the column header"},
        {"# gpu=NVIDIA H200\n# runs=1\n# date=2026-11-23\nset,lab\n", "expected the column header"},
        {"# runs=1\n# date=2026-11-23\n" WB_LEDGER_COLUMNS "\n" LEDGER_ROWS, "no \"# gpu=\" line"},
        {"# gpu=NVIDIA H200\n# runs=ten\n", "runs=ten: expected a whole number"},
        {"# gpu=NVIDIA H200\n# runs=1\n# date=23.11.2026\n", "expected a date as YYYY-MM-DD"},
        {"\177ELF\001\002\n", "expected the column header"},
    };
    char dir[] = "/tmp/wb_ledger_XXXXXX", path[PATH_MAX], why[400];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put_file(dir, "e.csv", bad[i].text, path, sizeof path);
        wb_ledger l;
        ck_assert_int_eq(wb_ledger_read(path, &l, why, sizeof why), -2);
        ck_assert_msg(strstr(why, bad[i].why), "case %zu: \"%s\" lacks \"%s\"", i, why, bad[i].why);
        ck_assert_ptr_null(l.rows);
    }
    char *long_line = malloc(5000);
    memset(long_line, 'x', 4999);
    long_line[4999] = '\0';
    put_file(dir, "e.csv", long_line, path, sizeof path);
    free(long_line);
    wb_ledger l;
    ck_assert_int_eq(wb_ledger_read(path, &l, why, sizeof why), -2);
    ck_assert_ptr_nonnull(strstr(why, "line 1: longer than"));
    unlink(path);
    rmdir(dir);
}
END_TEST

/* The header's line, for each way an entry can be there or not. */
START_TEST(test_ledger_validated_line) {
    char dir[] = "/tmp/wb_ledger_XXXXXX", path[PATH_MAX], p2[PATH_MAX], line[1024];
    const char *h100 = "NVIDIA H100 80GB HBM3";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(wb_ledger_validated("/nonexistent/ledger", h100, 0, "03-x", line, sizeof line),
                     0);
    ck_assert_str_eq(line, "validated: no: no ledger folder (expected /nonexistent/ledger; "
                           "README.md, \"How reliable are the verdicts\")");
    ck_assert_int_eq(wb_ledger_validated(dir, h100, 0, "03-x", line, sizeof line), 0);
    ck_assert_str_eq(line, "validated: no: this GPU model has no bench in ledger/ (expected "
                           "ledger/nvidia-h100-80gb-hbm3.csv; make bench writes it; README.md, "
                           "\"How reliable are the verdicts\")");
    put_file(dir, "nvidia-h100-80gb-hbm3.csv", LEDGER_HEAD LEDGER_ROWS, path, sizeof path);
    ck_assert_int_eq(
        wb_ledger_validated(dir, "nvidia h100 80GB HBM3", 0, "03-x", line, sizeof line), 1);
    ck_assert_str_eq(line, "validated: yes (ledger/nvidia-h100-80gb-hbm3.csv: NVIDIA H100 80GB "
                           "HBM3, 10 runs, 2026-11-23)");
    ck_assert_int_eq(wb_ledger_validated(dir, h100, 0, "06-x", line, sizeof line), 1);
    ck_assert_int_eq(wb_ledger_validated(dir, h100, 0, "05-x", line, sizeof line), 0);
    ck_assert_ptr_nonnull(strstr(line,
                                 "shows 1 limit short of the 25 % target, first 05-x "
                                 "perf.cliff cliff_speedup ge 2.05: reference worst +12.2 %"));
    ck_assert_int_eq(wb_ledger_validated(dir, h100, 0, "07-x", line, sizeof line), 0);
    ck_assert_ptr_nonnull(strstr(line, "1 test whose verdict flipped, first solutions 07-x "
                                       "correct.a: 9 passes, 1 fails in 10 runs"));
    ck_assert_int_eq(wb_ledger_validated(dir, h100, 0, "09-x", line, sizeof line), 0);
    ck_assert_ptr_nonnull(strstr(line, "shows the reference failing 1 test in every run, first "
                                       "09-x measure.b: 10 fails in 10 runs"));
    ck_assert_int_eq(wb_ledger_validated(dir, h100, 0, "08-x", line, sizeof line), 0);
    ck_assert_ptr_nonnull(strstr(line, "has no figures for 08-x"));
    /* A test the lab has now and the bench never measured (added since): "no". */
    const char *benched[] = {"perf.run"}, *added[] = {"perf.run", "correct.new", "perf.new"};
    ck_assert_int_eq(wb_ledger_validated_tests(dir, h100, 0, "03-x", benched, 1, line, sizeof line),
                     1);
    ck_assert_int_eq(wb_ledger_validated_tests(dir, h100, 0, "03-x", added, 3, line, sizeof line),
                     0);
    ck_assert_ptr_nonnull(strstr(line, "has no figures for 2 tests of this lab, first correct.new "
                                       "(added after that bench"));
    /* Not this model, not this restriction, or malformed: "no", with where to look. */
    ck_assert_int_eq(wb_ledger_validated(dir, h100, 32, "03-x", line, sizeof line), 0);
    ck_assert_ptr_nonnull(strstr(line, "expected ledger/nvidia-h100-80gb-hbm3-sms32.csv"));
    put_file(dir, "nvidia-h200.csv", LEDGER_HEAD LEDGER_ROWS, p2, sizeof p2);
    ck_assert_int_eq(wb_ledger_validated(dir, "NVIDIA H200", 0, "03-x", line, sizeof line), 0);
    ck_assert_ptr_nonnull(strstr(line, "ledger/nvidia-h200.csv is for \"NVIDIA H100 80GB HBM3\", "
                                       "not this \"NVIDIA H200\""));
    put_file(dir, "nvidia-h200.csv", LEDGER_HEAD "solutions,03-x\n", p2, sizeof p2);
    ck_assert_int_eq(wb_ledger_validated(dir, "NVIDIA H200", 0, "03-x", line, sizeof line), 0);
    ck_assert_ptr_nonnull(strstr(line, "ledger/nvidia-h200.csv is malformed: line 11: expected 14 "
                                       "comma-separated fields"));
    unlink(p2);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Every entry kept in ledger/ is well formed and validates every lab it
 * covers: a malformed or short entry would print "validated: no" on the GPU
 * it names. Run from the workbook's top folder (as make test-unit does). */
START_TEST(test_ledger_entries_kept) {
    FILE *ls = popen("ls ledger/*.csv 2>/dev/null", "r");
    char path[PATH_MAX], line[1024];
    int entries = 0;
    ck_assert_ptr_nonnull(ls);
    while (fgets(path, sizeof path, ls)) {
        path[strcspn(path, "\n")] = '\0';
        FILE *f = fopen(path, "r");
        char gpu[256] = "", labs[1024] = "", text[1024];
        int sms = 0, checked = 0;
        ck_assert_ptr_nonnull(f);
        while (fgets(text, sizeof text, f) && text[0] == '#') {
            text[strcspn(text, "\n")] = '\0';
            if (strncmp(text, "# gpu=", 6) == 0)
                snprintf(gpu, sizeof gpu, "%s", text + 6);
            if (strncmp(text, "# restricted_sms=", 17) == 0)
                sms = atoi(text + 17);
            if (strncmp(text, "# labs=", 7) == 0)
                snprintf(labs, sizeof labs, "%s", text + 7);
        }
        fclose(f);
        ck_assert_msg(gpu[0], "%s: no '# gpu=' line", path);
        /* every lab the entry says its bench graded */
        for (char *save = NULL, *lab = strtok_r(labs, " ", &save); lab;
             lab = strtok_r(NULL, " ", &save), checked++) {
            int ok = wb_ledger_validated("ledger", gpu, sms, lab, line, sizeof line);
            ck_assert_msg(ok == 1, "%s, lab %s: expected \"validated: yes\", got \"%s\"", path,
                          lab, line);
        }
        ck_assert_msg(checked > 0, "%s: no '# labs=' line naming the labs benched", path);
        entries++;
    }
    pclose(ls);
    ck_assert_msg(entries > 0, "no entry in ledger/ (run from the workbook's top folder)");
}
END_TEST

/* The occupancy API of a simulated GPU (grader/sim/sim_occupancy.c): each
 * figure worked by hand from the GPU's per-SM limits. */
static const wb_sim_device *sim_named(const char *name) {
    for (int i = 0; i < wb_sim_count(); i++)
        if (strstr(wb_sim_get(i)->name, name))
            return wb_sim_get(i);
    return NULL;
}

START_TEST(test_sim_occupancy) {
    const wb_sim_device *t4 = sim_named("T4"), *a100 = sim_named("A100"),
                        *rtx = sim_named("4090"), *h200 = sim_named("H200");
    ck_assert_ptr_nonnull(t4);
    ck_assert_ptr_nonnull(a100);
    ck_assert_ptr_nonnull(rtx);
    ck_assert_ptr_nonnull(h200);
    const wb_sim_kernel light = {1024, 32, 0, 49152}, heavy = {1024, 64, 0, 49152},
                        huge = {1024, 255, 0, 49152}, smem24 = {1024, 32, 24 << 10, 24 << 10};
    struct {
        const wb_sim_device *d;
        const wb_sim_kernel *k;
        int threads;
        size_t dyn;
        int want;
    } c[] = {
        {t4, &light, 256, 0, 4},          /* 1,024 threads per SM */
        {a100, &light, 256, 0, 8},        /* 2,048 */
        {rtx, &light, 256, 0, 6},         /* 1,536 */
        {h200, &light, 32, 0, 32},        /* 32 blocks per SM */
        {t4, &light, 32, 0, 16},          /* 16 blocks per SM */
        {a100, &heavy, 1024, 0, 1},       /* 64 x 1,024 registers: the whole file */
        {h200, &huge, 1024, 0, 0},        /* 255 registers x 1,024 threads: never fits */
        {t4, &light, 96, 40 << 10, 1},    /* 64 KiB of shared memory per SM */
        {a100, &light, 96, 40 << 10, 4},  /* 164 KiB per SM, 41 KiB a block with 1 KiB reserved */
        {a100, &light, 64, 32 << 10, 4},  /* 33 KiB a block: 4, where 32 would fit 5 */
        {t4, &light, 64, 32 << 10, 2},    /* nothing reserved before 8.0: 2 x 32 KiB */
        {t4, &smem24, 128, 0, 2},         /* 24 KiB static of 64 */
        {h200, &smem24, 128, 0, 9},       /* 25 KiB of 228 */
    };
    /* The simulated runtime reports the same reserved shared memory the
     * calculator counts, so code that feeds the calculator from it agrees. */
    const wb_sim_device *both[2] = {t4, a100};
    for (int i = 0; i < 2; i++) {
        struct cudaDeviceProp prop;
        int v = -1;
        wb_sim_use(both[i]);
        ck_assert_int_eq(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
        ck_assert_int_eq(cudaDeviceGetAttribute(&v, cudaDevAttrReservedSharedMemoryPerBlock, 0),
                         cudaSuccess);
        wb_sim_use(NULL);
        ck_assert_uint_eq(prop.reservedSharedMemPerBlock, wb_sim_reserved_smem(both[i]));
        ck_assert_int_eq(v, (int)wb_sim_reserved_smem(both[i]));
        ck_assert_uint_eq(wb_sim_reserved_smem(both[i]), i == 0 ? 0 : 1024);
    }
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        int got = -1;
        ck_assert_int_eq(wb_sim_blocks_per_sm(c[i].d, c[i].k, c[i].threads, c[i].dyn, &got), 0);
        ck_assert_msg(got == c[i].want, "case %zu (%s, %d threads, %zu B): %d blocks, expected %d",
                      i, c[i].d->name, c[i].threads, c[i].dyn, got, c[i].want);
    }
}
END_TEST

/* wb_sim_show_sms caps the SM count the real GPU reports, and nothing else:
 * with a GPU, min(real, 8) from both queries and the real figure again when
 * lifted; a simulated GPU keeps its own count; without a GPU, the runtime's
 * error passes unchanged (no count made up). */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int dev);
START_TEST(test_sim_show_sms) {
    int real = -1, capped = -1, again = -1, sim_sms = -1;
    cudaError_t e0 = cudaDeviceGetAttribute(&real, cudaDevAttrMultiProcessorCount, 0);
    wb_sim_show_sms(8);
    cudaError_t e1 = cudaDeviceGetAttribute(&capped, cudaDevAttrMultiProcessorCount, 0);
    struct cudaDeviceProp prop, prop2;
    memset(&prop, 0, sizeof prop);
    memset(&prop2, 0, sizeof prop2);
    cudaError_t e2 = cudaGetDeviceProperties(&prop, 0);
    cudaError_t e3 = cudaGetDeviceProperties_v2(&prop2, 0);
    wb_sim_use(sim_named("A100"));
    ck_assert_int_eq(cudaDeviceGetAttribute(&sim_sms, cudaDevAttrMultiProcessorCount, 0),
                     cudaSuccess);
    wb_sim_use(NULL);
    wb_sim_show_sms(0);
    cudaError_t e4 = cudaDeviceGetAttribute(&again, cudaDevAttrMultiProcessorCount, 0);
    ck_assert_int_eq(sim_sms, 108);
    ck_assert_int_eq(e1, e0);
    ck_assert_int_eq(e4, e0);
    if (e0 != cudaSuccess) {
        ck_assert_int_eq(capped, -1);
        ck_assert_int_ne(e2, cudaSuccess);
        return;
    }
    const int want = real < 8 ? real : 8;
    ck_assert_int_eq(capped, want);
    ck_assert_int_eq(e2, cudaSuccess);
    ck_assert_int_eq(e3, cudaSuccess);
    ck_assert_int_eq(prop.multiProcessorCount, want);
    ck_assert_int_eq(prop2.multiProcessorCount, want);
    ck_assert_int_eq(again, real);
}
END_TEST

/* The launches and waits of grader/sim/sim_waits.c, counted in order and
 * only between begin and end. The calls reach the runtime, which fails them
 * without a GPU (and the NULL kernels with one): each still counts, except a
 * query, which counts only when it finds the work done, and a copy between
 * device buffers, which does not wait. */
START_TEST(test_sim_waits) {
    const dim3 one = {1, 1, 1};
    int a = 1, b = 2;
    wb_sim_waits w, after;
    cudaDeviceSynchronize(); /* before begin: not counted */
    wb_sim_waits_begin(NULL);
    for (int i = 0; i < 3; i++)
        cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    cudaDeviceSynchronize();  /* a wait after new launches */
    cudaStreamSynchronize(0); /* a wait, after none */
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    cudaMemcpy(NULL, NULL, 0, cudaMemcpyDeviceToDevice); /* no wait */
    cudaMemcpy(&a, &b, sizeof a, cudaMemcpyDefault);     /* a wait after new launches */
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    const int done = cudaStreamQuery(0) == cudaSuccess; /* never without a GPU */
    wb_sim_waits_end(&w);
    cudaDeviceSynchronize(); /* after end: not counted */
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    wb_sim_waits_end(&after);
    ck_assert_int_eq(w.launches, 6);
    ck_assert_int_eq(w.waits, 3 + done);
    ck_assert_int_eq(w.waited, 2 + done);
    ck_assert_int_eq(w.pending, done ? 0 : 2);
    ck_assert_mem_eq(&after, &w, sizeof w);
    wb_sim_waits_begin(NULL);
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.launches + w.waits + w.waited + w.pending, 0);
}
END_TEST

/* Which launches a wait waits for (grader/sim/sim_waits.c): a stream's
 * those made on it, an event's those before it was recorded on their
 * stream, none for an event not recorded while counting; copies of 0 bytes
 * and from host to host are no waits. Without a GPU every call fails and
 * still counts; the handles are then never looked at. */
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                  cudaStream_t s);
START_TEST(test_sim_waits_which) {
    const dim3 one = {1, 1, 1};
    int x = 1, y = 2;
    cudaEvent_t ev_before, ev_after;
    wb_sim_waits w;
    if (cudaEventCreate(&ev_before) != cudaSuccess || cudaEventCreate(&ev_after) != cudaSuccess) {
        ev_before = (cudaEvent_t)&x;
        ev_after = (cudaEvent_t)&y;
    }
    wb_sim_waits_begin(NULL);
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    cudaStreamSynchronize(cudaStreamPerThread);    /* another stream than the launch's */
    cudaEventSynchronize(ev_before);                       /* not recorded while counting */
    cudaMemcpy(&x, &y, 0, cudaMemcpyHostToDevice); /* 0 bytes */
    cudaMemcpy(&x, &y, sizeof x, cudaMemcpyHostToHost);
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.launches, 1);
    ck_assert_int_eq(w.waits, 2);
    ck_assert_int_eq(w.waited, 0);
    ck_assert_int_eq(w.pending, 1);

    wb_sim_waits_begin(NULL);
    cudaEventRecord(ev_before, 0); /* before the launches */
    cudaLaunchKernel(NULL, one, one, NULL, 0, cudaStreamLegacy);
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0); /* 0 is the legacy stream too */
    cudaEventRecord(ev_after, cudaStreamLegacy);
    cudaEventSynchronize(ev_before); /* waits for neither */
    cudaEventSynchronize(ev_after); /* waits for both */
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    cudaLaunchKernel(NULL, one, one, NULL, 0, cudaStreamPerThread);
    cudaStreamSynchronize(0); /* not for the launch on the other stream */
    cudaEventRecord(ev_before, 0);    /* nor an event recorded on one of the two */
    cudaEventSynchronize(ev_before);
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.launches, 4);
    ck_assert_int_eq(w.waits, 4);
    ck_assert_int_eq(w.waited, 1);
    ck_assert_int_eq(w.pending, 2);

    wb_sim_waits_begin(NULL);
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    cudaLaunchKernel(NULL, one, one, NULL, 0, cudaStreamPerThread);
    cudaDeviceSynchronize(); /* for every stream */
    cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
    cudaStreamSynchronize(cudaStreamLegacy);           /* the stream launched on, named otherwise */
    cudaLaunchKernel_ptsz(NULL, one, one, NULL, 0, 0); /* 0 is the thread's default stream */
    cudaStreamSynchronize(cudaStreamPerThread);
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.launches, 4);
    ck_assert_int_eq(w.waits, 3);
    ck_assert_int_eq(w.waited, 3);
    ck_assert_int_eq(w.pending, 0);
    if (ev_before != (cudaEvent_t)&x) {
        cudaEventDestroy(ev_before);
        cudaEventDestroy(ev_after);
    }
}
END_TEST

/* A host clock read of this executable's own: the reader the clock tests
 * below name (sim_waits.c counts the reads of one object's code). */
static void read_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
}

static void launch_n(int n) {
    const dim3 one = {1, 1, 1};
    for (int i = 0; i < n; i++)
        cudaLaunchKernel(NULL, one, one, NULL, 0, 0);
}

/* The clock reads among the launches and waits (grader/sim/sim_waits.c),
 * and the rule lab 08 applies to them (wb_sim_clock_early): the last
 * reading must not come after the last launch while that launch is not yet
 * waited for. Extra readings, a reading before the warm-up, or none at
 * all (a call timed with CUDA events) judge nothing. Without a GPU every
 * call fails and still counts. */
START_TEST(test_sim_clock_order) {
    wb_sim_waits w;
    char order[256];
    const void *me = (const void *)read_clock;

    wb_sim_waits_begin(me); /* the reference: warm-up, read, launch, wait, read */
    launch_n(2);
    cudaDeviceSynchronize();
    read_clock();
    launch_n(3);
    cudaDeviceSynchronize();
    read_clock();
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clocks, 2);
    ck_assert_int_eq(w.clock_launches, 5);
    ck_assert_int_eq(w.clock_pending, 0);
    ck_assert(!wb_sim_clock_early(&w));
    wb_sim_waits_order(&w, order, sizeof order);
    ck_assert_str_eq(order, "2 launches, cudaDeviceSynchronize, clock read, 3 launches, "
                            "cudaDeviceSynchronize, clock read");

    wb_sim_waits_begin(me); /* the second reading before the wait */
    launch_n(2);
    cudaDeviceSynchronize();
    read_clock();
    launch_n(3);
    read_clock();
    cudaDeviceSynchronize();
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clock_launches, 5);
    ck_assert_int_eq(w.clock_pending, 3);
    ck_assert_int_eq(w.pending, 0);
    ck_assert(wb_sim_clock_early(&w));
    wb_sim_waits_order(&w, order, sizeof order);
    ck_assert_str_eq(order, "2 launches, cudaDeviceSynchronize, clock read, 3 launches, "
                            "clock read, cudaDeviceSynchronize");
    wb_sim_waits_order(&w, order, 60); /* short of room: the last runs that fit whole */
    ck_assert_str_eq(order, "..., 3 launches, clock read, cudaDeviceSynchronize");

    wb_sim_waits_begin(me); /* a synchronised loop: right, then its last wait after the reading */
    read_clock();
    for (int i = 0; i < 3; i++) {
        launch_n(1);
        cudaStreamSynchronize(0);
    }
    read_clock();
    wb_sim_waits_end(&w);
    ck_assert(!wb_sim_clock_early(&w));
    wb_sim_waits_begin(me);
    read_clock();
    for (int i = 0; i < 4; i++) {
        launch_n(1);
        if (i < 3)
            cudaStreamSynchronize(0);
    }
    read_clock();
    cudaStreamSynchronize(0);
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clock_pending, 1);
    ck_assert(wb_sim_clock_early(&w));
    wb_sim_waits_order(&w, order, sizeof order);
    ck_assert_str_eq(order, "..., cudaStreamSynchronize, launch, cudaStreamSynchronize, launch, "
                            "clock read, cudaStreamSynchronize");

    wb_sim_waits_begin(me); /* extra readings: before the warm-up, and before the wait */
    read_clock();
    launch_n(2);
    cudaDeviceSynchronize();
    read_clock();
    launch_n(3);
    read_clock();
    cudaDeviceSynchronize();
    read_clock();
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clocks, 4);
    ck_assert(!wb_sim_clock_early(&w));

    wb_sim_waits_begin(me); /* no reading at all: events, or a clock not seen */
    launch_n(3);
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clocks, 0);
    ck_assert(!wb_sim_clock_early(&w));

    wb_sim_waits_begin(me); /* the last reading before the last launch */
    read_clock();
    launch_n(3);
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clock_launches, 0);
    ck_assert(!wb_sim_clock_early(&w));

    wb_sim_waits_begin(me); /* a wait for none of the launches is no wait for them */
    read_clock();
    launch_n(3);
    cudaStreamSynchronize(cudaStreamPerThread);
    read_clock();
    wb_sim_waits_end(&w);
    ck_assert(wb_sim_clock_early(&w));
    wb_sim_waits_order(&w, order, sizeof order);
    ck_assert_str_eq(order, "clock read, 3 launches, cudaStreamSynchronize (waiting for none of "
                            "them), clock read");
}
END_TEST

static void *read_clock_thread(void *arg) {
    (void)arg;
    read_clock();
    return NULL;
}

/* Whose clock reads count: the reader's object's and the C++ library's,
 * on the thread that began counting, between begin and end; not another
 * object's (the CUDA runtime's own, here stood in for by this executable
 * with the runtime named the reader), not another thread's, none without
 * a reader. */
START_TEST(test_sim_clock_whose) {
    wb_sim_waits w;
    pthread_t t;
    const void *me = (const void *)read_clock;
    void *cxx = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_GLOBAL); /* before begin: its span */
    long long (*steady_now)(void) =
        (long long (*)(void))dlsym(RTLD_DEFAULT, "_ZNSt6chrono3_V212steady_clock3nowEv");
    const void *runtime = dlsym(RTLD_DEFAULT, "cudaGetErrorName");
    ck_assert_ptr_nonnull(cxx); /* nvcc needs the C++ library: it is there */
    ck_assert_ptr_nonnull(steady_now);
    ck_assert_ptr_nonnull(runtime);

    read_clock(); /* before begin */
    wb_sim_waits_begin(me);
    read_clock();
    ck_assert_int_eq(pthread_create(&t, NULL, read_clock_thread, NULL), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    steady_now(); /* std::chrono::steady_clock::now() */
    wb_sim_waits_end(&w);
    read_clock(); /* after end */
    ck_assert_int_eq(w.clocks, 2);

    wb_sim_waits_begin(runtime); /* this executable is not the reader now */
    read_clock();
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clocks, 0);

    wb_sim_waits_begin(NULL);
    read_clock();
    steady_now();
    wb_sim_waits_end(&w);
    ck_assert_int_eq(w.clocks, 0);
    dlclose(cxx);
}
END_TEST

/* Unpredictable bytes: every byte of an odd length written, two draws differ. */
START_TEST(test_rng_entropy) {
    unsigned char a[13], b[13];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    wb_rng_entropy(a, sizeof a);
    wb_rng_entropy(b, sizeof b);
    ck_assert_int_ne(memcmp(a, b, sizeof a), 0);
    unsigned char zero[13] = {0};
    ck_assert_int_ne(memcmp(a, zero, sizeof a), 0);
}
END_TEST

static Suite *common_suite(void) {
    Suite *s = suite_create("common");
    struct {
        const char *name;
        const TTest *fn;
    } cases[] = {
        {"stats", test_stats_median_odd_even},
        {"stats", test_stats_quantiles_spread},
        {"rng", test_rng_deterministic_and_bounded},
        {"rng", test_rng_known_sequence},
        {"rng", test_seed_from_env},
        {"rng", test_rng_entropy},
        {"env", test_env_reader},
        {"report", test_results_json_run_info},
        {"answers", test_answers_parse_ok},
        {"answers", test_answers_parse_errors},
        {"answers", test_answer_numbers},
        {"answers", test_answer_normalise_and_hash},
        {"report", test_csv_escaping},
        {"report", test_console_format},
        {"report", test_no_color_env},
        {"report", test_results_json_roundtrip},
        {"gpu", test_gpu_peaks},
        {"gpu", test_gpu_pick_best},
        {"gpu", test_poison_word},
        {"timing", test_within_noise},
        {"clocks", test_clocks_disturbed},
        {"clocks", test_clocks_words},
        {"clocks", test_clocks_open_fails_cleanly},
        {"csv", test_csv_split},
        {"report", test_text_clean},
        {"ledger", test_ledger_names},
        {"ledger", test_ledger_read_and_judge},
        {"ledger", test_ledger_malformed},
        {"ledger", test_ledger_validated_line},
        {"ledger", test_ledger_entries_kept},
        {"sim", test_sim_occupancy},
        {"sim", test_sim_show_sms},
        {"sim", test_sim_waits},
        {"sim", test_sim_waits_which},
        {"sim", test_sim_clock_order},
        {"sim", test_sim_clock_whose},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_add_test(tc, cases[i].fn);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(common_suite());
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
