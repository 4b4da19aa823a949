/* check_asan.c - the grader kit's AddressSanitizer support without a GPU: its reading of ASan's
 * reports, when its runs can be made, and where it looks for the library built for them */
/* SPDX-License-Identifier: MIT */
#include "kit.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reports as gcc 12's libasan prints them (addresses and pids kept, shadow dumps cut), and the
 * wording of newer runtimes ("after" for "to the right of"). */
static const char *heap_write =
    "=================================================================\n"
    "==2537==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020000001c0 at pc "
    "0x7f549e6ccdca bp 0x7ffec1c56550 sp 0x7ffec1c56548\n"
    "WRITE of size 4 at 0x6020000001c0 thread T0\n"
    "    #0 0x7f549e6ccdc9 in latency_model_time_one_rep "
    "tests/broken/07-latency-model/cases_seen_past_end.cu:29\n"
    "    #1 0x558a67df6cce in check_times (/work/build/solutions/07-latency-model/grade+0x9cce)\n"
    "    #5 0x7f549e245249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n"
    "\n"
    "0x6020000001c0 is located 0 bytes to the right of 16-byte region "
    "[0x6020000001b0,0x6020000001c0)\n"
    "allocated by thread T0 here:\n"
    "    #0 0x7f549e8b83b7 in __interceptor_calloc "
    "../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:77\n"
    "    #1 0x7f549e6cccb6 in latency_model_time_one_rep "
    "tests/broken/07-latency-model/cases_seen_past_end.cu:22\n"
    "\n"
    "SUMMARY: AddressSanitizer: heap-buffer-overflow "
    "tests/broken/07-latency-model/cases_seen_past_end.cu:29 in latency_model_time_one_rep\n"
    "Shadow bytes around the buggy address:\n";

static const char *stack_write =
    "==25188==ERROR: AddressSanitizer: stack-buffer-underflow on address 0x7fff4437ba28 at pc "
    "0x555b860862d6 bp 0x7fff4437ba00 sp 0x7fff4437b9f8\n"
    "WRITE of size 8 at 0x7fff4437ba28 thread T0\n"
    "    #0 0x555b860862d5 in latency_hiding_global_gbps "
    "/home/s/labs/06-latency-hiding/latency_hiding.cu:298:19\n"
    "    #1 0x555b8608630f in test_global_bw (build/labs/06-latency-hiding/grade+0x1234)\n"
    "Address 0x7fff4437ba28 is located in stack of thread T0 at offset 24 in frame\n"
    "    #0 0x555b860861b8 in latency_hiding_global_gbps "
    "/home/s/labs/06-latency-hiding/latency_hiding.cu:262\n"
    "  This frame has 3 object(s):\n"
    "    [32, 120) 'ms' (line 271) <== Memory access at offset 24 underflows this variable\n"
    "    [160, 168) 'a' (line 270)\n"
    "SUMMARY: AddressSanitizer: stack-buffer-underflow "
    "/home/s/labs/06-latency-hiding/latency_hiding.cu:298 in latency_hiding_global_gbps\n";

static const char *memset_after =
    "==4060==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60200000001a at pc "
    "0x7f4d89047681 bp 0x7ffff9371890 sp 0x7ffff9371040\n"
    "WRITE of size 11 at 0x60200000001a thread T0\n"
    "    #0 0x7f4d89047680 in __interceptor_memset "
    "../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc:799\n"
    "    #1 0x563dfdbf639b in fill_row labs/08-launch-overhead/launch_overhead.cu:10:5\n"
    "0x60200000001a is located 0 bytes after 10-byte region [0x602000000010,0x60200000001a)\n"
    "allocated by thread T0 here:\n"
    "    #0 0x7f4d890b89cf in malloc (/lib/x86_64-linux-gnu/libasan.so.8+0xb89cf)\n"
    "    #1 0x563dfdbf6381 in fill_row labs/08-launch-overhead/launch_overhead.cu:9:15\n"
    "SUMMARY: AddressSanitizer: heap-buffer-overflow (libasan.so.8+0x47680) in memset\n";

static const char *double_free =
    "==4058==ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T0:\n"
    "    #0 0x7f8bc4cb76a8 in __interceptor_free "
    "../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:52\n"
    "    #1 0x55db3b5fa2b0 in release k.cu:7\n"
    "0x602000000010 is located 0 bytes inside of 16-byte region [0x602000000010,0x602000000020)\n"
    "freed by thread T0 here:\n"
    "    #0 0x7f8bc4cb76a8 in __interceptor_free "
    "../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:52\n"
    "    #1 0x55db3b5fa2a4 in release k.cu:6\n"
    "previously allocated by thread T0 here:\n"
    "    #1 0x55db3b5fa294 in make k.cu:3\n"
    "SUMMARY: AddressSanitizer: double-free "
    "../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:52 in __interceptor_free\n";

static const char *segv =
    "AddressSanitizer:DEADLYSIGNAL\n"
    "=================================================================\n"
    "==3963==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x55fdb012723b "
    "bp 0x7ffc08a91a40 sp 0x7ffc08a91a30 T0)\n"
    "==3963==The signal is caused by a WRITE memory access.\n"
    "==3963==Hint: address points to the zero page.\n"
    "    #0 0x55fdb012723b in store k.cu:9\n"
    "AddressSanitizer can not provide additional info.\n"
    "SUMMARY: AddressSanitizer: SEGV k.cu:9 in store\n";

static const char *global_write =
    "==3960==ERROR: AddressSanitizer: global-buffer-overflow on address 0x557672fc5114 at pc "
    "0x557672fc22e4 bp 0x7ffd3c0bf770 sp 0x7ffd3c0bf768\n"
    "WRITE of size 4 at 0x557672fc5114 thread T0\n"
    "    #0 0x557672fc22e3 in main /tmp/k.cu:8\n"
    "0x557672fc5114 is located 4 bytes to the right of global variable 'g' defined in "
    "'k.cu:3:5' (0x557672fc5100) of size 16\n"
    "SUMMARY: AddressSanitizer: global-buffer-overflow /tmp/k.cu:8 in main\n";

static const char *no_shadow =
    "==12==ERROR: AddressSanitizer failed to allocate 0xdfff0001000 (15392894357504) bytes at "
    "address 2008fff7000 (errno: 12)\n"
    "==12==ReserveShadowMemoryRange failed while trying to map 0xdfff0001000 bytes. Perhaps "
    "you're using ulimit -v\n";

static const char *not_first =
    "==3768==ASan runtime does not come first in initial library list; you should either link "
    "runtime to your application or manually preload it with LD_PRELOAD.\n";

/* A body that printed what looks like a report's words, and ran clean. */
static const char *clean = "correct.con: 200000 vectors\n"
                           "SUMMARY: nothing\n";

/* Writes text to a temporary file and parses it. */
static void parse_text(const char *text, wb_asan_report *r) {
    char path[] = "/tmp/check_asan.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    wb_asan_parse(path, r);
    unlink(path);
}

typedef struct parsed {
    const char **text;
    int found, no_start;
    const char *kind, *access, *where, *located, *origin, *said;
} parsed;

static const parsed cases[] = {
    {&heap_write, 1, 0, "heap-buffer-overflow", "WRITE of size 4",
     "cases_seen_past_end.cu:29 in latency_model_time_one_rep",
     "0 bytes to the right of 16-byte region",
     "allocated at cases_seen_past_end.cu:22 in latency_model_time_one_rep",
     "heap-buffer-overflow, a WRITE of size 4 at cases_seen_past_end.cu:29 in "
     "latency_model_time_one_rep; 0 bytes to the right of 16-byte region, allocated at "
     "cases_seen_past_end.cu:22 in latency_model_time_one_rep"},
    {&stack_write, 1, 0, "stack-buffer-underflow", "WRITE of size 8",
     "latency_hiding.cu:298 in latency_hiding_global_gbps",
     "stack variable 'ms' (line 271): the access underflows this variable", "",
     "stack-buffer-underflow, a WRITE of size 8 at latency_hiding.cu:298 in "
     "latency_hiding_global_gbps; stack variable 'ms' (line 271): the access underflows this "
     "variable"},
    {&memset_after, 1, 0, "heap-buffer-overflow", "WRITE of size 11",
     "launch_overhead.cu:10 in fill_row", "0 bytes after 10-byte region",
     "allocated at launch_overhead.cu:9 in fill_row", NULL},
    {&double_free, 1, 0, "attempting double-free", "", "k.cu:7 in release",
     "0 bytes inside of 16-byte region", "freed at k.cu:6 in release", NULL},
    {&segv, 1, 0, "SEGV", "WRITE", "k.cu:9 in store", "", "", "SEGV, a WRITE at k.cu:9 in store"},
    {&global_write, 1, 0, "global-buffer-overflow", "WRITE of size 4", "k.cu:8 in main",
     "4 bytes to the right of global variable 'g' defined in 'k.cu:3:5'", "", NULL},
    {&no_shadow, 0, 1, "", "", "", "", "", NULL},
    {&not_first, 0, 1, "", "", "", "", "", NULL},
    {&clean, 0, 0, "", "", "", "", "", NULL},
};

START_TEST(test_parse) {
    const parsed *c = &cases[_i];
    wb_asan_report r;
    parse_text(*c->text, &r);
    ck_assert_int_eq(r.found, c->found);
    ck_assert_int_eq(r.no_start, c->no_start);
    ck_assert_str_eq(r.kind, c->kind);
    ck_assert_str_eq(r.access, c->access);
    ck_assert_str_eq(r.where, c->where);
    ck_assert_str_eq(r.located, c->located);
    ck_assert_str_eq(r.origin, c->origin);
    if (c->said) {
        char said[400];
        wb_asan_describe(&r, said, sizeof said);
        ck_assert_str_eq(said, c->said);
    }
    if (c->no_start) {
        char said[400];
        wb_asan_describe(&r, said, sizeof said);
        ck_assert_msg(strstr(said, "could not start") && strstr(said, "==") != NULL, "said: %s",
                      said);
    }
}
END_TEST

/* A missing log is no report, and no crash. */
START_TEST(test_parse_missing_log) {
    wb_asan_report r;
    wb_asan_parse("/nonexistent/asan.log", &r);
    ck_assert_int_eq(r.found + r.no_start, 0);
}
END_TEST

/* Runs wb_asan_usable in a child with the environment and limit given: 1 when usable, with
 * why into out. */
static int usable_in_child(const char *libasan, rlim_t as_limit, char *out, size_t cap) {
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        if (libasan)
            setenv("WB_LIBASAN", libasan, 1);
        if (as_limit != RLIM_INFINITY) {
            struct rlimit r = {as_limit, as_limit};
            setrlimit(RLIMIT_AS, &r);
        }
        char why[400] = "";
        int ok = wb_asan_usable(why, sizeof why);
        ssize_t w = write(fd[1], why, strlen(why));
        (void)w;
        _exit(ok);
    }
    close(fd[1]);
    ssize_t n = read(fd[0], out, cap - 1);
    out[n > 0 ? n : 0] = '\0';
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* No runtime: SKIP's words name the package; a limited address space: they say ulimit -v. A
 * runtime that exists (any readable file stands in for it here) with no limit: usable, where
 * the kernel overcommits. */
START_TEST(test_usable) {
    char why[400];
    ck_assert_int_eq(usable_in_child("/nonexistent/libasan.so", RLIM_INFINITY, why, sizeof why), 0);
    ck_assert_msg(strstr(why, "libasan8") != NULL, "why: %s", why);
    ck_assert_int_eq(usable_in_child("libasan.so", RLIM_INFINITY, why, sizeof why), 0);
    ck_assert_int_eq(usable_in_child("/proc/self/exe", (rlim_t)8 << 30, why, sizeof why), 0);
    ck_assert_msg(strstr(why, "ulimit -v") != NULL, "why: %s", why);
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = 0;
    if (f && fscanf(f, "%d", &mode) != 1)
        mode = 0;
    if (f)
        fclose(f);
    if (mode != 2)
        ck_assert_msg(usable_in_child("/proc/self/exe", RLIM_INFINITY, why, sizeof why) == 1,
                      "a runtime and no limit: not usable: %s", why);
}
END_TEST

/* The library built for ASan is found beside the one graded, as the Makefile names it. */
START_TEST(test_default_path) {
    static const struct {
        const char *student, *want;
    } paths[] = {{"build/labs/07-latency-model/libstudent.so",
                  "build/labs/07-latency-model/libstudent.asan.so"},
                 {"build/tests/broken/07-latency-model/x.so",
                  "build/tests/broken/07-latency-model/x.asan.so"},
                 {"/tmp/lib", "/tmp/lib.asan.so"}};
    for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
        wb_options o;
        memset(&o, 0, sizeof o);
        o.set = "labs";
        o.student = paths[k].student;
        wb_default_paths(&o, "07-latency-model");
        ck_assert_str_eq(o.student_asan, paths[k].want);
    }
    wb_options o;
    memset(&o, 0, sizeof o);
    o.set = "solutions";
    wb_default_paths(&o, "07-latency-model");
    ck_assert_str_eq(o.student_asan, "build/solutions/07-latency-model/libstudent.asan.so");
}
END_TEST

static Suite *asan_suite(void) {
    Suite *s = suite_create("asan");
    TCase *tc = tcase_create("asan");
    tcase_add_loop_test(tc, test_parse, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, test_parse_missing_log);
    tcase_add_test(tc, test_usable);
    tcase_add_test(tc, test_default_path);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(asan_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
