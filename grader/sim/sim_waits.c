/* sim_waits.c - the runtime's launches and waits for the GPU, and the host clock reads, counted in
 * order while student code runs */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "sim_waits.h"
#include "sim_devices.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A grader links this file only where its lab's exports.list names
 * cudaDeviceSynchronize (the Makefile), which exports these runtime
 * functions, and clock_gettime, so that the student's library calls them
 * here, as the simulated GPUs' queries are (sim_devices.c). Each passes the
 * call to the runtime's (or the C library's) own function unchanged;
 * between wb_sim_waits_begin and wb_sim_waits_end it also counts it, in the
 * order the calls come. The grader's own calls land here too: a grader
 * counts only around its call of the student's function.
 *
 * What counts as a launch: cudaLaunchKernel, cudaLaunchKernelExC,
 * cudaLaunchCooperativeKernel, cudaGraphLaunch, __cudaLaunchKernel (the
 * runtime function that nvcc 13's code for <<<...>>> calls; older
 * toolkits call cudaLaunchKernel), and their per-thread default stream
 * variants (_ptsz, what code built with CUDA_API_PER_THREAD_DEFAULT_STREAM
 * calls). Each call counts, whether or not the launch succeeds, with the
 * stream it was made on (0 is the legacy stream, or in a _ptsz variant the
 * per-thread one). A launch through the driver API (cuLaunchKernel) is not
 * seen: a grader that asked for n launches can tell that it saw fewer.
 *
 * What counts as a wait for the GPU, and which launches it waits for:
 * - cudaDeviceSynchronize, whatever it returns: all of them;
 * - cudaMemcpy and cudaMemcpy_ptds of at least one byte, of every kind but
 *   DeviceToDevice and HostToHost: all of them (a copy that touches host
 *   memory waits for the legacy stream's earlier work, and the legacy
 *   stream for every blocking stream's). A copy between device buffers
 *   does not wait for the GPU; one from host to host or of 0 bytes need
 *   not, so neither counts (no correct timed loop relies on one to wait);
 *   cudaMemcpyDefault is taken to wait, wherever its pointers live;
 * - cudaStreamSynchronize whatever it returns, cudaStreamQuery only when it
 *   returns cudaSuccess (the last lap of a loop that polls; NotReady is no
 *   wait): the launches since the last wait when they were all made on
 *   that stream, else none;
 * - cudaEventSynchronize whatever it returns, cudaEventQuery only when it
 *   returns cudaSuccess: the launches made before the event was last
 *   recorded (cudaEventRecord, cudaEventRecordWithFlags, and their _ptsz
 *   variants) in the counting window, when they were all made on the
 *   stream it was recorded on; none for an event not recorded in the
 *   window (an idle stream's query, an unrecorded event's: they return at
 *   once without waiting for anything).
 * A wait that waits for none of the launches since the last one still
 * counts as a wait (waits), not as one after new launches (waited).
 *
 * Not counted, so not a way to satisfy a grader: cudaFree and cudaFreeHost
 * (they do synchronise, but no timed loop frees anything), asynchronous
 * copies from pageable memory, host callbacks and the driver API.
 *
 * What counts as a host clock read: a call of clock_gettime (any clock)
 * made on the thread that began counting, from the object that holds the
 * code wb_sim_waits_begin was given (the student's library: its now_us(),
 * or a clock_gettime of its own) or from the C++ standard library
 * (std::chrono's clocks call clock_gettime through its PLT). The CUDA
 * runtime and driver read clocks inside their own calls, and other threads
 * read them at any time: none of those is the student's reading, so a read
 * made inside one of the runtime calls above, from another object or on
 * another thread is not counted. gettimeofday, timespec_get, time, clock
 * and the processor's time-stamp counter are not seen at all.
 *
 * The counts are plain integers: the contracts graded this way launch and
 * wait from one host thread. */

/* Events remembered per window; past that, an event not found is taken to
 * wait for everything (no correct call fails for the grader's memory). */
#define EVENTS 64
/* Objects whose clock reads count (the reader's, the C++ library's). */
#define SPANS 8

typedef struct recorded {
    cudaEvent_t ev;
    long upto; /* launches it waits for: those numbered up to upto */
} recorded;

/* The addresses of one loaded object's segments, lo to hi. */
typedef struct span {
    uintptr_t lo, hi;
} span;

static int counting;
static wb_sim_waits counts;
static long seq, done_upto;      /* launches so far; all up to done_upto waited for */
static cudaStream_t pend_stream; /* stream of the launches after done_upto ... */
static int pend_mixed;           /* ... unless they were made on more than one */
static recorded events[EVENTS];
static int n_events, events_lost;
static wb_sim_run runs[WB_SIM_TAIL]; /* the last runs, a ring: run k in runs[k % WB_SIM_TAIL] */
static long n_runs;
static span spans[SPANS];
static int n_spans;
/* The thread that counts clock reads (set on it only), and how deep it is
 * in the runtime calls above, whose own clock reads are not the caller's. */
static __thread int clock_window __attribute__((tls_model("initial-exec")));
static __thread int in_runtime __attribute__((tls_model("initial-exec")));

/* Whether path names the C++ standard library (GNU's or LLVM's). */
static int cxx_library(const char *path) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return strncmp(b, "libstdc++.", 10) == 0 || strncmp(b, "libc++.", 7) == 0;
}

/* dl_iterate_phdr's visit: keeps the span of the object that holds the
 * reader's code, and of the C++ library. */
static int add_span(struct dl_phdr_info *info, size_t size, void *reader) {
    uintptr_t lo = UINTPTR_MAX, hi = 0, r = (uintptr_t)reader;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + p->p_vaddr;
        lo = a < lo ? a : lo;
        hi = a + p->p_memsz > hi ? a + p->p_memsz : hi;
    }
    if (lo < hi && n_spans < SPANS &&
        ((r >= lo && r < hi) || cxx_library(info->dlpi_name ? info->dlpi_name : "")))
        spans[n_spans++] = (span){lo, hi};
    return 0;
}

void wb_sim_waits_begin(const void *reader) {
    memset(&counts, 0, sizeof counts);
    seq = done_upto = 0;
    pend_stream = NULL;
    pend_mixed = 0;
    n_events = events_lost = 0;
    n_runs = 0;
    n_spans = 0;
    if (reader)
        dl_iterate_phdr(add_span, (void *)reader);
    clock_window = n_spans > 0;
    counting = 1;
}

void wb_sim_waits_end(wb_sim_waits *out) {
    counting = 0;
    clock_window = 0;
    counts.tail_cut = n_runs > WB_SIM_TAIL;
    counts.tail_n = 0;
    for (long k = n_runs > WB_SIM_TAIL ? n_runs - WB_SIM_TAIL : 0; k < n_runs; k++)
        counts.tail[counts.tail_n++] = runs[k % WB_SIM_TAIL];
    if (out)
        *out = counts;
}

int wb_sim_clock_early(const wb_sim_waits *w) {
    return w->clocks > 0 && w->launches > 0 && w->clock_launches == w->launches &&
           w->clock_pending > 0;
}

/* One run as text: "launch", "20000 launches", "cudaDeviceSynchronize",
 * "2 x cudaStreamSynchronize (waiting for none of them)", "clock read". */
static void run_text(const wb_sim_run *r, char *buf, size_t cap) {
    const char *what = r->kind == 'L'   ? (r->count == 1 ? "launch" : "launches")
                       : r->kind == 'C' ? (r->count == 1 ? "clock read" : "clock reads")
                                        : r->call;
    const char *none = r->kind == 'w' ? " (waiting for none of them)" : "";
    if (r->count == 1)
        snprintf(buf, cap, "%s%s", what, none);
    else
        snprintf(buf, cap, "%ld%s%s%s", r->count, r->kind == 'L' || r->kind == 'C' ? " " : " x ",
                 what, none);
}

void wb_sim_waits_order(const wb_sim_waits *w, char *buf, size_t cap) {
    char text[WB_SIM_TAIL][96];
    size_t need = 0;
    int first = w->tail_n;
    if (cap == 0)
        return;
    /* As many of the last runs as fit whole, "..., " before them when any
     * is left out. */
    while (first > 0) {
        run_text(&w->tail[first - 1], text[first - 1], sizeof text[0]);
        size_t more = strlen(text[first - 1]) + (first < w->tail_n ? 2 : 0);
        int cut = first - 1 > 0 || w->tail_cut;
        if (need + more + (cut ? 5 : 0) >= cap)
            break;
        need += more;
        first--;
    }
    buf[0] = '\0';
    if (first > 0 || w->tail_cut)
        snprintf(buf, cap, "...");
    for (int i = first; i < w->tail_n; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", len > 0 ? ", " : "", text[i]);
    }
}

/* One more event of a kind (and call): the current run grows, or a new
 * one begins. */
static void note(char kind, const char *call) {
    wb_sim_run *r = n_runs > 0 ? &runs[(n_runs - 1) % WB_SIM_TAIL] : NULL;
    if (r && r->kind == kind && (r->call == call || (r->call && call && !strcmp(r->call, call)))) {
        r->count++;
        return;
    }
    runs[n_runs++ % WB_SIM_TAIL] = (wb_sim_run){kind, call, 1};
}

/* A stream handle as the runtime reads it: 0 is the legacy stream, or in a
 * _ptsz call the calling thread's default stream. */
static cudaStream_t legacy(cudaStream_t s) {
    return s ? s : cudaStreamLegacy;
}
static cudaStream_t per_thread(cudaStream_t s) {
    return s ? s : cudaStreamPerThread;
}

static void launched(cudaStream_t s) {
    if (!counting)
        return;
    counts.launches++;
    if (seq++ == done_upto) { /* the first launch since the last wait */
        pend_stream = s;
        pend_mixed = 0;
    } else if (s != pend_stream)
        pend_mixed = 1;
    counts.pending = seq - done_upto;
    note('L', NULL);
}

/* A wait (the runtime function `call`) for the launches numbered up to upto. */
static void waited_upto(long upto, const char *call) {
    if (!counting)
        return;
    counts.waits++;
    note(upto > done_upto ? 'W' : 'w', call);
    if (upto > done_upto) {
        counts.waited++;
        done_upto = upto;
    }
    counts.pending = seq - done_upto;
}

/* The launches so far, where every launch since the last wait was made on
 * stream s; else only those already waited for. */
static long upto_on(cudaStream_t s) {
    return !pend_mixed && pend_stream == s ? seq : done_upto;
}

static void waited_all(const char *call) {
    waited_upto(seq, call);
}

static void waited_stream(cudaStream_t s, const char *call) {
    if (counting)
        waited_upto(upto_on(s), call);
}

static void recorded_event(cudaEvent_t ev, cudaStream_t s) {
    if (!counting)
        return;
    int i = 0;
    while (i < n_events && events[i].ev != ev)
        i++;
    if (i == EVENTS) { /* full: forget the oldest */
        events_lost = 1;
        for (i = 1; i < EVENTS; i++)
            events[i - 1] = events[i];
        i = EVENTS - 1;
    } else if (i == n_events)
        n_events++;
    events[i] = (recorded){ev, upto_on(s)};
}

static void waited_event(cudaEvent_t ev, const char *call) {
    if (!counting)
        return;
    for (int i = 0; i < n_events; i++)
        if (events[i].ev == ev) {
            waited_upto(events[i].upto, call);
            return;
        }
    waited_upto(events_lost ? seq : done_upto, call);
}

/* Whether a cudaMemcpy waits for the GPU: one of at least one byte with
 * host memory on one side. A cudaMemcpyDefault copy is taken to (asking
 * the runtime where its pointers live would change what the student's
 * cudaGetLastError returns where the query fails). */
static int copy_waits(size_t count, enum cudaMemcpyKind kind) {
    return count > 0 && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyHostToHost;
}

/* ------------------------------------------------------------ host clock reads */

static int (*real_clock_gettime)(clockid_t, struct timespec *);

/* The C library's clock_gettime, found before main where it can be. */
__attribute__((constructor)) static void find_clock(void) {
    real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
}

/* Whether code at address `from` belongs to an object whose reads count. */
static int from_reader(uintptr_t from) {
    for (int i = 0; i < n_spans; i++)
        if (from >= spans[i].lo && from < spans[i].hi)
            return 1;
    return 0;
}

/* A clock read by the code at `from`, on the counting thread, outside the
 * runtime's calls. */
static void clock_read(uintptr_t from) {
    if (!counting || !from_reader(from))
        return;
    counts.clocks++;
    counts.clock_launches = seq;
    counts.clock_pending = seq - done_upto;
    note('C', NULL);
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    if (!real_clock_gettime)
        find_clock();
    if (!real_clock_gettime)
        return (int)syscall(SYS_clock_gettime, id, ts);
    int r = real_clock_gettime(id, ts);
    if (clock_window && !in_runtime)
        clock_read((uintptr_t)__builtin_return_address(0));
    return r;
}

/* ------------------------------------------------------------ the runtime's calls */

/* The runtime's own `name`, looked up once: these calls are timed, and a
 * lookup per call would add to every launch the grader measures. */
#define NEXT(name)                                                                                 \
    static __typeof__(&name) next_;                                                                \
    cudaError_t ret_;                                                                              \
    if (!next_ && !(next_ = (__typeof__(&name))wb_sim_next(#name)))                                \
        return cudaErrorNotSupported;
/* Calls it, with the clock reads it makes inside left uncounted. */
#define CALL(...) (in_runtime++, ret_ = next_(__VA_ARGS__), in_runtime--, ret_)

cudaError_t cudaDeviceSynchronize(void) {
    NEXT(cudaDeviceSynchronize)
    cudaError_t e = CALL();
    waited_all("cudaDeviceSynchronize");
    return e;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    NEXT(cudaStreamSynchronize)
    cudaError_t e = CALL(s);
    waited_stream(legacy(s), "cudaStreamSynchronize");
    return e;
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) {
    NEXT(cudaStreamSynchronize_ptsz)
    cudaError_t e = CALL(s);
    waited_stream(per_thread(s), "cudaStreamSynchronize");
    return e;
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
    NEXT(cudaStreamQuery)
    cudaError_t e = CALL(s);
    if (e == cudaSuccess)
        waited_stream(legacy(s), "cudaStreamQuery");
    return e;
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t s);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) {
    NEXT(cudaStreamQuery_ptsz)
    cudaError_t e = CALL(s);
    if (e == cudaSuccess)
        waited_stream(per_thread(s), "cudaStreamQuery");
    return e;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s) {
    NEXT(cudaEventRecord)
    recorded_event(ev, legacy(s));
    return CALL(ev, s);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s) {
    NEXT(cudaEventRecord_ptsz)
    recorded_event(ev, per_thread(s));
    return CALL(ev, s);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned int flags) {
    NEXT(cudaEventRecordWithFlags)
    recorded_event(ev, legacy(s));
    return CALL(ev, s, flags);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t ev, cudaStream_t s, unsigned int flags);
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t ev, cudaStream_t s, unsigned int flags) {
    NEXT(cudaEventRecordWithFlags_ptsz)
    recorded_event(ev, per_thread(s));
    return CALL(ev, s, flags);
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev) {
    NEXT(cudaEventSynchronize)
    cudaError_t e = CALL(ev);
    waited_event(ev, "cudaEventSynchronize");
    return e;
}

cudaError_t cudaEventQuery(cudaEvent_t ev) {
    NEXT(cudaEventQuery)
    cudaError_t e = CALL(ev);
    if (e == cudaSuccess)
        waited_event(ev, "cudaEventQuery");
    return e;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    NEXT(cudaMemcpy)
    cudaError_t e = CALL(dst, src, count, kind);
    if (copy_waits(count, kind))
        waited_all("cudaMemcpy");
    return e;
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    NEXT(cudaMemcpy_ptds)
    cudaError_t e = CALL(dst, src, count, kind);
    if (copy_waits(count, kind))
        waited_all("cudaMemcpy");
    return e;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                             cudaStream_t s) {
    NEXT(cudaLaunchKernel)
    launched(legacy(s));
    return CALL(func, grid, block, args, smem, s);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                  cudaStream_t s);
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                  cudaStream_t s) {
    NEXT(cudaLaunchKernel_ptsz)
    launched(per_thread(s));
    return CALL(func, grid, block, args, smem, s);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
    NEXT(cudaLaunchKernelExC)
    launched(legacy(config ? config->stream : 0));
    return CALL(config, func, args);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args) {
    NEXT(cudaLaunchKernelExC_ptsz)
    launched(per_thread(config ? config->stream : 0));
    return CALL(config, func, args);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t smem, cudaStream_t s) {
    NEXT(cudaLaunchCooperativeKernel)
    launched(legacy(s));
    return CALL(func, grid, block, args, smem, s);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                             size_t smem, cudaStream_t s);
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                             size_t smem, cudaStream_t s) {
    NEXT(cudaLaunchCooperativeKernel_ptsz)
    launched(per_thread(s));
    return CALL(func, grid, block, args, smem, s);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t g, cudaStream_t s) {
    NEXT(cudaGraphLaunch)
    launched(legacy(s));
    return CALL(g, s);
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t g, cudaStream_t s);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t g, cudaStream_t s) {
    NEXT(cudaGraphLaunch_ptsz)
    launched(per_thread(s));
    return CALL(g, s);
}

/* No header declares these for C: their first argument is a cudaKernel_t, a
 * pointer. Absent from runtimes whose <<<...>>> calls cudaLaunchKernel,
 * where nothing calls them. */
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t s);
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t s) {
    NEXT(__cudaLaunchKernel)
    launched(legacy(s));
    return CALL(kernel, grid, block, args, smem, s);
}

cudaError_t __cudaLaunchKernel_ptsz(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                                    cudaStream_t s);
cudaError_t __cudaLaunchKernel_ptsz(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                                    cudaStream_t s) {
    NEXT(__cudaLaunchKernel_ptsz)
    launched(per_thread(s));
    return CALL(kernel, grid, block, args, smem, s);
}
