/* check_prefetching.c - the grader of lab 08: prefetch variants, their launch, LDGSTS, speedup,
 * sweep */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "wb_grader.h"
#include "wb_answers.h"
#include "wb_ceiling.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include "prefetching.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define README_WHEN "README.md, \"When prefetching pays\""
#define README_LAUNCH "README.md, \"The fixed launch\""
#define README_REGS "README.md, \"Rolling prefetch into registers\""
#define README_SMEM "README.md, \"Rolling prefetch into shared memory\""
#define README_ASYNC "README.md, \"Asynchronous copies\""
#define README_PAD "README.md, \"Padding against bank conflicts\""
#define README_MODEL "README.md, \"A model of the loop\""
#define README_BEST "README.md, \"Choosing the best\""
#define README_SWEEP "README.md, \"The sweep\""
#define README_CONTRACT "README.md, \"The contract\""

#define B PREFETCHING_BLOCK
/* Largest size of the correctness tests, and the size that is timed. */
#define CORRECT_NMAX 300000
#define PERF_N (1 << 25)

/* From the model of README "A model of the loop": the plain loop takes
 * latency + work per element, the prefetched loop about the work alone.
 * Measured on an H100 (2026-11-22, CUDA 13.0): latency 686-688 cycles,
 * work 274, the plain loop 1,092-1,094 cycles per element (16 % of copy
 * bandwidth, 12 % of FP32 peak: latency-bound), model ceiling 3.5x; the
 * reference (asynchronous copies, distance 8) 3.03-3.04x, the best of the
 * sweep 3.04-3.06x (distance 11), the stub 1.00x. 2.0x (the blog's 1.6x
 * and more): the reference clears it by 52 %, the stub misses it by 50 %. */
#define PERF_LIMIT 2.0

/* ------------------------------------------------ the grader's own models */

static int ref_conflict_ways(int s) {
    int a = s, b = 32;
    while (b) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static int ref_min_distance(int latency, int work) {
    int d = (latency + work - 1) / work;
    return d < 1 ? 1 : d;
}

static double ref_model(double latency, double work, int distance) {
    double per_load = latency / distance;
    return (latency + work) / (work > per_load ? work : per_load);
}

/* The blog's padding: the smallest p >= 0 with distance + p = 2^k + 1. */
static int blog_padding(int distance) {
    int p2 = 1;
    while (p2 + 1 < distance)
        p2 *= 2;
    return p2 + 1 - distance;
}

/* ------------------------------------------------------------ the variants */

typedef cudaError_t (*variant_fn)(const float *, float *, int, int, int, int, cudaStream_t);
typedef cudaError_t (*best_fn)(const float *, float *, int, int, cudaStream_t);

typedef struct variant {
    const char *name; /* regs, smem, async */
    const char *sym;
    const char *readme;
    int slots; /* uses (distance + padding) floats of shared memory per thread */
} variant;

static const variant VARIANTS[3] = {
    {"regs", "prefetching_regs", README_REGS, 0},
    {"smem", "prefetching_smem", README_SMEM, 1},
    {"async", "prefetching_async", README_ASYNC, 1},
};

static variant_fn bind_variant(wb_ctx *ctx, const variant *v) {
    return (variant_fn)wb_student_sym(ctx, v->sym);
}

/* SMs of the current device: the `blocks` of every timed launch. Asked of
 * the device itself, so that it is right under --run-body too. */
static int sm_count(wb_ctx *ctx) {
    int dev = 0, sms = 0;
    wb_cuda(ctx, cudaGetDevice(&dev), "cudaGetDevice");
    wb_cuda(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
            "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
    return sms > 0 ? sms : 1;
}

static int device_cc(void) {
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return major * 10 + minor;
}

/* ------------------------------------------- the launch, seen in a graph */

typedef struct launch_seen {
    int kernels, others;
    unsigned grid[3], block[3], smem;
} launch_seen;

/* Enqueues one call on stream s; returns a cudaError_t value. */
typedef int (*call_fn)(void *arg, cudaStream_t s);

/* The driver's CUDA_KERNEL_NODE_PARAMS as cuGraphKernelNodeGetParams (v1) fills it. */
typedef struct drv_kernel_params {
    void *func;
    unsigned gx, gy, gz, bx, by, bz, smem;
    void **params, **extra;
} drv_kernel_params;

/* Grid, block and shared memory of a kernel node. The runtime's call is
 * tried first; where it cannot map a kernel of another library back to its
 * host function, the driver's (the same libcuda the runtime loaded). */
static int kernel_node_shape(cudaGraphNode_t node, launch_seen *s) {
    struct cudaKernelNodeParams p;
    memset(&p, 0, sizeof p);
    cudaError_t e = cudaGraphKernelNodeGetParams(node, &p);
    if (e == cudaSuccess) {
        unsigned g[3] = {p.gridDim.x, p.gridDim.y, p.gridDim.z};
        unsigned b[3] = {p.blockDim.x, p.blockDim.y, p.blockDim.z};
        memcpy(s->grid, g, sizeof g);
        memcpy(s->block, b, sizeof b);
        s->smem = p.sharedMemBytes;
        return 0;
    }
    cudaGetLastError();
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    int (*get)(void *, drv_kernel_params *) = NULL;
    if (lib)
        *(void **)(&get) = dlsym(lib, "cuGraphKernelNodeGetParams");
    drv_kernel_params d;
    memset(&d, 0, sizeof d);
    if (!get || get(node, &d) != 0)
        return (int)e;
    unsigned g[3] = {d.gx, d.gy, d.gz}, b[3] = {d.bx, d.by, d.bz};
    memcpy(s->grid, g, sizeof g);
    memcpy(s->block, b, sizeof b);
    s->smem = d.smem;
    return 0;
}

/* Captures one call into a CUDA graph instead of running it, and reports
 * the operations it put on its stream. */
static void capture_launch(wb_ctx *ctx, call_fn call, void *arg, const char *what,
                           launch_seen *out) {
    cudaStream_t s;
    cudaGraph_t g = NULL;
    memset(out, 0, sizeof *out);
    wb_cuda(ctx, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    wb_cuda(ctx, cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture");
    int e = call(arg, s);
    cudaError_t ec = cudaStreamEndCapture(s, &g);
    if (e != 0)
        wb_fail(ctx, "%s returned %s when its launch was captured into a CUDA graph (%s)", what,
                cudaGetErrorName((cudaError_t)e), README_LAUNCH);
    if (ec != cudaSuccess || !g)
        wb_fail(ctx,
                "%s broke the capture of its stream (%s): it may only enqueue its kernel on the "
                "stream it is given, without synchronizing (%s)",
                what, cudaGetErrorName(ec), README_LAUNCH);
    cudaGetLastError();
    size_t n = 0;
    wb_cuda(ctx, cudaGraphGetNodes(g, NULL, &n), "cudaGraphGetNodes");
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)calloc(n ? n : 1, sizeof *nodes);
    if (!nodes)
        wb_fail(ctx, "out of host memory");
    if (n > 0) /* an empty graph: the driver refuses to list its zero nodes */
        wb_cuda(ctx, cudaGraphGetNodes(g, nodes, &n), "cudaGraphGetNodes");
    for (size_t i = 0; i < n; i++) {
        enum cudaGraphNodeType type;
        wb_cuda(ctx, cudaGraphNodeGetType(nodes[i], &type), "cudaGraphNodeGetType");
        if (type != cudaGraphNodeTypeKernel) {
            out->others++;
        } else if (out->kernels++ == 0) {
            int k = kernel_node_shape(nodes[i], out);
            if (k != 0)
                wb_fail(ctx,
                        "could not read the launch of %s back from its graph (%s): run the test "
                        "again, and report it if it persists",
                        what, cudaGetErrorName((cudaError_t)k));
        }
    }
    free(nodes);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
}

/* The contract's launch: one kernel of `blocks` x 1 x 1 blocks of 256 x 1 x 1
 * threads, at most PREFETCHING_MAX_SMEM bytes of dynamic shared memory. */
static void check_launch(wb_ctx *ctx, const char *what, const launch_seen *l, int blocks) {
    if (l->kernels == 0)
        wb_fail(ctx,
                "%s put no kernel on the stream it was given (launched on another stream, or "
                "not at all); the grader times that stream (%s)",
                what, README_LAUNCH);
    if (l->kernels > 1 || l->others > 0)
        wb_fail(ctx,
                "%s put %d kernels and %d other operations (copies, memsets, events) on its "
                "stream; the contract allows exactly one kernel (%s)",
                what, l->kernels, l->others, README_LAUNCH);
    if (l->grid[0] != (unsigned)blocks || l->grid[1] != 1 || l->grid[2] != 1)
        wb_fail(ctx,
                "%s launched a grid of %u x %u x %u blocks, expected %d x 1 x 1: every variant "
                "runs at the baseline's occupancy, one block per SM when timed (%s)",
                what, l->grid[0], l->grid[1], l->grid[2], blocks, README_LAUNCH);
    if (l->block[0] != B || l->block[1] != 1 || l->block[2] != 1)
        wb_fail(ctx, "%s launched blocks of %u x %u x %u threads, expected %d x 1 x 1 (%s)", what,
                l->block[0], l->block[1], l->block[2], B, README_LAUNCH);
    if (l->smem > PREFETCHING_MAX_SMEM)
        wb_fail(ctx, "%s asked for %u bytes of dynamic shared memory, at most %d allowed (%s)",
                what, l->smem, PREFETCHING_MAX_SMEM, README_LAUNCH);
}

typedef struct call_args {
    variant_fn fn;
    best_fn best;
    const float *in;
    float *out;
    int n, distance, padding, blocks;
} call_args;

static int call_variant(void *p, cudaStream_t s) {
    call_args *a = (call_args *)p;
    return a->fn(a->in, a->out, a->n, a->distance, a->padding, a->blocks, s);
}

static int call_best(void *p, cudaStream_t s) {
    call_args *a = (call_args *)p;
    return a->best(a->in, a->out, a->n, a->blocks, s);
}

/* ---------------------------------------------------- data and checking */

/* Random input in [-1, 1) and the CPU's result for each element. */
typedef struct dataset {
    float *in, *ref;
    int n;
} dataset;

static void make_dataset(wb_ctx *ctx, dataset *d, int n) {
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    d->n = n;
    d->in = (float *)malloc(sizeof(float) * (size_t)n);
    d->ref = (float *)malloc(sizeof(float) * (size_t)n);
    if (!d->in || !d->ref)
        wb_fail(ctx, "out of host memory");
    wb_rng_fill_float(&g, d->in, (size_t)n, -1.0f, 1.0f);
    for (int i = 0; i < n; i++)
        d->ref[i] = prefetching_work(d->in[i]);
}

static void free_dataset(dataset *d) {
    free(d->in);
    free(d->ref);
}

typedef struct run_case {
    int n, distance, padding, blocks;
} run_case;

/* Where element i sits in its thread's sequence, for failure messages. */
static void describe(char *buf, size_t cap, int i, int n, int blocks, int distance) {
    int stride = blocks * B, t = i % stride, step = i / stride;
    int count = (n - 1 - t) / stride + 1;
    snprintf(buf, cap,
             "thread %d's step %d of %d; with distance %d the last %d steps load nothing new", t,
             step, count, distance, count < distance ? count : distance);
}

/* Runs one variant on the first c->n elements of d, with the input in an
 * allocation of exactly n floats and the output poisoned with NaN, and
 * compares every element. */
static void run_and_check(wb_ctx *ctx, const variant *v, variant_fn f, const dataset *d,
                          const run_case *c, cudaStream_t s, int check_input) {
    size_t bytes = sizeof(float) * (size_t)c->n;
    float *d_in = NULL, *d_out = NULL, *h = (float *)malloc(bytes);
    if (!h)
        wb_fail(ctx, "out of host memory");
    wb_cuda(ctx, cudaMalloc((void **)&d_in, bytes), "cudaMalloc");
    wb_cuda(ctx, cudaMalloc((void **)&d_out, bytes), "cudaMalloc");
    wb_cuda(ctx, cudaMemcpy(d_in, d->in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    wb_cuda(ctx, cudaMemset(d_out, 0xFF, bytes), "cudaMemset (poison: NaN)");
    /* The copy and the memset run on the legacy stream, which a non-blocking
     * stream does not wait for: finish them first. */
    wb_cuda(ctx, cudaDeviceSynchronize(), "cudaMemcpy and cudaMemset");
    int e = f(d_in, d_out, c->n, c->distance, c->padding, c->blocks, s);
    if (e != cudaSuccess)
        wb_fail(ctx,
                "%s(n = %d, distance %d, padding %d, %d blocks) returned %s, expected cudaSuccess "
                "(%s)",
                v->sym, c->n, c->distance, c->padding, c->blocks, cudaGetErrorName((cudaError_t)e),
                v->readme);
    char what[160];
    snprintf(what, sizeof what, "the kernel of %s(n = %d, distance %d, padding %d, %d blocks)",
             v->sym, c->n, c->distance, c->padding, c->blocks);
    wb_cuda(ctx, cudaStreamSynchronize(s), what);
    wb_cuda(ctx, cudaMemcpy(h, d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int i = 0; i < c->n; i++) {
        if (!(h[i] == d->ref[i])) {
            char where[160];
            describe(where, sizeof where, i, c->n, c->blocks, c->distance);
            wb_fail(ctx,
                    "%s(n = %d, distance %d, padding %d, %d blocks): element %d is %.9g, "
                    "expected %.9g%s (%s) (%s)",
                    v->sym, c->n, c->distance, c->padding, c->blocks, i, h[i], d->ref[i],
                    isnan(h[i]) ? ", never written" : "", where, v->readme);
        }
    }
    if (check_input) {
        wb_cuda(ctx, cudaMemcpy(h, d_in, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        if (memcmp(h, d->in, bytes) != 0)
            wb_fail(ctx, "%s(n = %d, distance %d): d_in was changed; it is input only (%s)", v->sym,
                    c->n, c->distance, README_CONTRACT);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
}

/* Arguments outside the contract give cudaErrorInvalidValue, n == 0 gives
 * cudaSuccess, and none of them launches anything. */
static void check_refusals(wb_ctx *ctx, const variant *v, variant_fn f, cudaStream_t s) {
    float *d = NULL;
    wb_cuda(ctx, cudaMalloc((void **)&d, 2 * 1024 * sizeof(float)), "cudaMalloc");
    static const int bad[][4] = {{-1, 4, 0, 1},     {1000, 0, 0, 1},  {1000, 17, 0, 1},
                                 {1000, 4, -1, 1},  {1000, 4, 17, 1}, {1000, 4, 0, 0},
                                 {1000, 4, 0, 4097}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int e = f(d, d + 1024, bad[k][0], bad[k][1], bad[k][2], bad[k][3], s);
        if (e != cudaErrorInvalidValue)
            wb_fail(ctx,
                    "%s(n = %d, distance %d, padding %d, %d blocks) returned %s, expected "
                    "cudaErrorInvalidValue (%s)",
                    v->sym, bad[k][0], bad[k][1], bad[k][2], bad[k][3],
                    cudaGetErrorName((cudaError_t)e), README_CONTRACT);
    }
    int e = f(NULL, NULL, 100, 4, 0, 1, s);
    if (e != cudaErrorInvalidValue)
        wb_fail(ctx,
                "%s(NULL, NULL, n = 100, ...) returned %s, expected cudaErrorInvalidValue (%s)",
                v->sym, cudaGetErrorName((cudaError_t)e), README_CONTRACT);
    e = f(NULL, NULL, 0, 4, 0, 1, s);
    if (e != cudaSuccess)
        wb_fail(ctx, "%s(n = 0) returned %s, expected cudaSuccess with nothing to do (%s)", v->sym,
                cudaGetErrorName((cudaError_t)e), README_CONTRACT);
    wb_cuda(ctx, cudaStreamSynchronize(s), "the stream after refused calls");
    cudaFree(d);
}

/* The cases of correct.<variant>: every distance, sizes that are rarely a
 * multiple of distance * stride, 1 block to one per SM, paddings 0 .. 16. */
static int variant_cases(wb_ctx *ctx, run_case *c, int cap) {
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx) ^ 0x5eedULL);
    int sms = sm_count(ctx), k = 0;
    static const int few[] = {2, 3, 7};
    for (int d = 1; d <= PREFETCHING_MAX_DISTANCE && k + 3 <= cap; d++) {
        /* One block: thread t gets `reps` * d elements, one more when t < r. */
        int reps = (int)wb_rng_range(&g, 1, 4), r = (int)wb_rng_range(&g, 1, B - 1);
        c[k++] = (run_case){d * B * reps + r, d, (int)wb_rng_range(&g, 0, 16), 1};
        c[k++] = (run_case){(int)wb_rng_range(&g, 1, CORRECT_NMAX), d, d % 2 ? 0 : blog_padding(d),
                            few[d % 3]};
        c[k++] = (run_case){(int)wb_rng_range(&g, 1, CORRECT_NMAX), d, (int)wb_rng_range(&g, 0, 16),
                            sms};
    }
    static const run_case edges[] = {
        {1, 1, 0, 1},     {1, 16, 16, 1},       {255, 16, 1, 1},      {257, 3, 0, 1},
        {B * 8, 8, 0, 1}, {B * 8 + 1, 8, 1, 1}, {B * 8 - 1, 8, 1, 1}, {CORRECT_NMAX, 6, 3, 2}};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0] && k < cap; e++)
        c[k++] = edges[e];
    return k;
}

/* The launch of one call with distance 5 and padding 3 on 3 blocks. */
static void check_variant_launch(wb_ctx *ctx, const variant *v, variant_fn f, const dataset *d) {
    call_args a = {f, NULL, NULL, NULL, 100000, 5, 3, 3};
    float *d_in = NULL, *d_out = NULL;
    wb_cuda(ctx, cudaMalloc((void **)&d_in, sizeof(float) * 100000), "cudaMalloc");
    wb_cuda(ctx, cudaMalloc((void **)&d_out, sizeof(float) * 100000), "cudaMalloc");
    wb_cuda(ctx, cudaMemcpy(d_in, d->in, sizeof(float) * 100000, cudaMemcpyHostToDevice),
            "cudaMemcpy");
    a.in = d_in;
    a.out = d_out;
    launch_seen l;
    char what[96];
    snprintf(what, sizeof what, "%s(n = 100000, distance 5, padding 3, 3 blocks)", v->sym);
    capture_launch(ctx, call_variant, &a, what, &l);
    check_launch(ctx, what, &l, 3);
    cudaFree(d_in);
    cudaFree(d_out);
}

static void test_variant(wb_ctx *ctx, const variant *v) {
    variant_fn f = bind_variant(ctx, v);
    dataset d;
    make_dataset(ctx, &d, CORRECT_NMAX);
    cudaStream_t s;
    wb_cuda(ctx, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    check_variant_launch(ctx, v, f, &d);
    check_refusals(ctx, v, f, s);
    run_case c[64];
    int n = variant_cases(ctx, c, 64);
    long elements = 0;
    for (int k = 0; k < n; k++) {
        run_and_check(ctx, v, f, &d, &c[k], s, k % 5 == 0);
        elements += c[k].n;
    }
    int cc = device_cc();
    if (v->slots && cc > 0 && cc < 80 && strcmp(v->name, "async") == 0)
        wb_measured(ctx,
                    "%d runs, %ld elements exact; compute capability %d.%d: copies are plain "
                    "here, so this variant is graded for correctness only",
                    n, elements, cc / 10, cc % 10);
    else
        wb_measured(ctx,
                    "%d runs (distances 1-16, paddings 0-16, 1 to %d blocks), %ld elements "
                    "exact, input unchanged, launch as the contract says",
                    n, sm_count(ctx), elements);
    cudaStreamDestroy(s);
    free_dataset(&d);
}

static void test_regs(wb_ctx *ctx) {
    test_variant(ctx, &VARIANTS[0]);
}

static void test_smem(wb_ctx *ctx) {
    test_variant(ctx, &VARIANTS[1]);
}

static void test_async(wb_ctx *ctx) {
    test_variant(ctx, &VARIANTS[2]);
}

/* Small sizes around multiples of distance * stride, for all three
 * variants: the fill and the last `distance` steps of each thread. Its
 * input allocations are exact, so compute-sanitizer (sanitizer.tails) sees
 * any read past element n - 1. */
static void test_tails(wb_ctx *ctx) {
    variant_fn f[3];
    for (int v = 0; v < 3; v++)
        f[v] = bind_variant(ctx, &VARIANTS[v]);
    dataset d;
    make_dataset(ctx, &d, 2 * B * 33 + 3);
    cudaStream_t s;
    wb_cuda(ctx, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    static const int dists[] = {1, 2, 3, 5, 8, 16};
    int runs = 0;
    for (int v = 0; v < 3; v++)
        for (size_t k = 0; k < sizeof dists / sizeof dists[0]; k++)
            for (int blocks = 1; blocks <= 2; blocks++) {
                int D = dists[k], span = B * blocks * D;
                int sizes[5] = {1, span - 1, span + 1, 2 * span + B * blocks + 3, 517};
                for (int i = 0; i < 5; i++) {
                    run_case c = {sizes[i], D, D % 2 ? 0 : 1, blocks};
                    run_and_check(ctx, &VARIANTS[v], f[v], &d, &c, s, 0);
                    runs++;
                }
            }
    wb_measured(ctx, "%d runs of the three variants at the ends of each thread's sequence, exact",
                runs);
    cudaStreamDestroy(s);
    free_dataset(&d);
}

static void test_best(wb_ctx *ctx) {
    best_fn best;
    WB_BIND(ctx, best, prefetching_best);
    int sms = sm_count(ctx);
    dataset d;
    make_dataset(ctx, &d, CORRECT_NMAX);
    /* The launch first, at the timed shape. */
    float *d_in = NULL, *d_out = NULL;
    size_t bytes = sizeof(float) * CORRECT_NMAX;
    wb_cuda(ctx, cudaMalloc((void **)&d_in, bytes), "cudaMalloc");
    wb_cuda(ctx, cudaMalloc((void **)&d_out, bytes), "cudaMalloc");
    wb_cuda(ctx, cudaMemcpy(d_in, d.in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    call_args a = {NULL, best, d_in, d_out, CORRECT_NMAX, 0, 0, sms};
    launch_seen l;
    capture_launch(ctx, call_best, &a, "prefetching_best", &l);
    check_launch(ctx, "prefetching_best", &l, sms);
    cudaFree(d_in);
    cudaFree(d_out);
    if (best(NULL, NULL, 10, 1, 0) != cudaErrorInvalidValue)
        wb_fail(ctx, "prefetching_best(NULL, NULL, 10, ...) must return cudaErrorInvalidValue (%s)",
                README_CONTRACT);
    const int sizes[][2] = {{1, 1}, {777, 1}, {100003, 3}, {CORRECT_NMAX, sms}, {262145, sms}};
    cudaStream_t s;
    wb_cuda(ctx, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t nb = sizeof(float) * (size_t)sizes[k][0];
        float *h = (float *)malloc(nb);
        if (!h)
            wb_fail(ctx, "out of host memory");
        wb_cuda(ctx, cudaMalloc((void **)&d_in, nb), "cudaMalloc");
        wb_cuda(ctx, cudaMalloc((void **)&d_out, nb), "cudaMalloc");
        wb_cuda(ctx, cudaMemcpy(d_in, d.in, nb, cudaMemcpyHostToDevice), "cudaMemcpy");
        wb_cuda(ctx, cudaMemset(d_out, 0xFF, nb), "cudaMemset (poison: NaN)");
        wb_cuda(ctx, cudaDeviceSynchronize(), "cudaMemcpy and cudaMemset");
        int e = best(d_in, d_out, sizes[k][0], sizes[k][1], s);
        if (e != cudaSuccess)
            wb_fail(ctx, "prefetching_best(n = %d, %d blocks) returned %s (%s)", sizes[k][0],
                    sizes[k][1], cudaGetErrorName((cudaError_t)e), README_BEST);
        wb_cuda(ctx, cudaStreamSynchronize(s), "the kernel of prefetching_best");
        wb_cuda(ctx, cudaMemcpy(h, d_out, nb, cudaMemcpyDeviceToHost), "cudaMemcpy");
        for (int i = 0; i < sizes[k][0]; i++)
            if (!(h[i] == d.ref[i]))
                wb_fail(
                    ctx,
                    "prefetching_best(n = %d, %d blocks): element %d is %.9g, expected %.9g%s (%s)",
                    sizes[k][0], sizes[k][1], i, h[i], d.ref[i],
                    isnan(h[i]) ? ", never written" : "", README_BEST);
        cudaFree(d_in);
        cudaFree(d_out);
        free(h);
    }
    wb_measured(ctx, "5 sizes exact; one kernel of %d x %d threads, %u bytes of shared memory", sms,
                B, l.smem);
    cudaStreamDestroy(s);
    free_dataset(&d);
}

/* ------------------------------------------------- the performance task */

int pf_baseline_run(const float *d_in, float *d_out, int n, int blocks, void *stream);
int pf_measure_latency(double *cycles_per_load);
int pf_measure_work(int blocks, double *cycles_per_element);
int pf_measure_clock(double *mhz);

static int run_baseline(void *p, void *stream) {
    call_args *a = (call_args *)p;
    return pf_baseline_run(a->in, a->out, a->n, a->blocks, stream);
}

static int run_best(void *p, void *stream) {
    call_args *a = (call_args *)p;
    return a->best(a->in, a->out, a->n, a->blocks, (cudaStream_t)stream);
}

static int run_variant(void *p, void *stream) {
    call_args *a = (call_args *)p;
    return a->fn(a->in, a->out, a->n, a->distance, a->padding, a->blocks, (cudaStream_t)stream);
}

/* Device buffers of n floats, the input random, and its host copy. */
static void perf_buffers(wb_ctx *ctx, int n, float **h_in, float **d_in, float **d_out) {
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    size_t bytes = sizeof(float) * (size_t)n;
    *h_in = (float *)malloc(bytes);
    if (!*h_in)
        wb_fail(ctx, "out of host memory");
    wb_rng_fill_float(&g, *h_in, (size_t)n, -1.0f, 1.0f);
    wb_cuda(ctx, cudaMalloc((void **)d_in, bytes), "cudaMalloc");
    wb_cuda(ctx, cudaMalloc((void **)d_out, bytes), "cudaMalloc");
    wb_cuda(ctx, cudaMemcpy(*d_in, *h_in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    wb_cuda(ctx, cudaDeviceSynchronize(), "cudaMemcpy");
}

/* Every 97th element and the last 2,048 against the CPU. */
static void spot_check(wb_ctx *ctx, const char *what, const float *h_in, const float *d_out,
                       int n) {
    size_t bytes = sizeof(float) * (size_t)n;
    float *h = (float *)malloc(bytes);
    if (!h)
        wb_fail(ctx, "out of host memory");
    wb_cuda(ctx, cudaMemcpy(h, d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int i = 0; i < n; i += (i >= n - 2048 ? 1 : 97)) {
        float want = prefetching_work(h_in[i]);
        if (!(h[i] == want))
            wb_fail(ctx, "%s at n = %d: element %d is %.9g, expected %.9g%s (%s)", what, n, i, h[i],
                    want, isnan(h[i]) ? ", never written" : "", README_BEST);
    }
    free(h);
}

static void test_perf_best(wb_ctx *ctx) {
    call_args a;
    memset(&a, 0, sizeof a);
    WB_BIND(ctx, a.best, prefetching_best);
    float *h_in, *d_in, *d_out;
    perf_buffers(ctx, PERF_N, &h_in, &d_in, &d_out);
    a.in = d_in;
    a.out = d_out;
    a.n = PERF_N;
    a.blocks = sm_count(ctx);
    launch_seen l;
    capture_launch(ctx, call_best, &a, "prefetching_best", &l);
    check_launch(ctx, "prefetching_best", &l, a.blocks);
    wb_time_opts o = wb_time_defaults();
    wb_ratio r;
    wb_cuda(ctx, wb_time_speedup(run_baseline, &a, run_best, &a, PERF_LIMIT, &o, &r),
            "timing the plain loop and prefetching_best");
    /* Again after the timing: a call that changed its ways (a cached copy,
     * another stream) shows up now. */
    capture_launch(ctx, call_best, &a, "prefetching_best (after the timing)", &l);
    check_launch(ctx, "prefetching_best (after the timing)", &l, a.blocks);
    size_t bytes = sizeof(float) * (size_t)PERF_N;
    wb_cuda(ctx, cudaMemset(d_out, 0xFF, bytes), "cudaMemset (poison: NaN)");
    wb_cuda(ctx, cudaDeviceSynchronize(), "cudaMemset");
    wb_cuda(ctx, run_best(&a, NULL), "prefetching_best");
    wb_cuda(ctx, cudaDeviceSynchronize(), "the kernel of prefetching_best");
    spot_check(ctx, "prefetching_best", h_in, d_out, PERF_N);
    /* No launch beats both the DRAM and the FP32 peak: a faster time means
     * the work was not all done by the launch that was timed. */
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    double dram_ms = gpu->peak_dram_gbps > 0 ? 8.0 * PERF_N / (gpu->peak_dram_gbps * 1e6) : 0;
    double fp32_ms = gpu->peak_fp32_gflops > 0
                         ? 2.0 * PREFETCHING_WORK_FMAS * PERF_N / (gpu->peak_fp32_gflops * 1e6)
                         : 0;
    double floor_ms = dram_ms > fp32_ms ? dram_ms : fp32_ms;
    if (r.cand_ms < 0.9 * floor_ms)
        wb_fail(ctx,
                "%.3f ms is faster than the GPU's peak DRAM bandwidth and FP32 rate allow for "
                "this work (%.3f ms): every element must be computed by the launch on the "
                "stream given",
                r.cand_ms, floor_ms);
    wb_record(ctx, "best_speedup", r.ratio, "x", PERF_LIMIT, "ge");
    wb_record(ctx, "baseline_ms", r.base_ms, "ms", 0, "ref");
    wb_record(ctx, "best_ms", r.cand_ms, "ms", 0, "ref");
    wb_measured(ctx,
                "speedup %.2fx over the plain loop (%.3f ms vs %.3f ms, %d pairs%s), need >= "
                "%.2fx",
                r.ratio, r.cand_ms, r.base_ms, r.trials, r.remeasured ? ", re-measured" : "",
                PERF_LIMIT);
    wb_rerun_if_inconclusive(ctx, &r, PERF_LIMIT);
    if (!(r.ratio >= PERF_LIMIT))
        wb_fail(ctx,
                "not enough loads in flight: at one block per SM the plain loop waits for every "
                "load; prefetch far enough ahead that the work covers the latency, with copies "
                "that do not wait (%s, %s)",
                README_MODEL, README_BEST);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
}

/* -------------------------------------------- the async kernel's machine code */

typedef struct sass_scan {
    int functions;     /* "Function :" lines of any kernel */
    int async_new;     /* prefetching_async_kernel instances in code for sm_80 and newer */
    int async_ldgsts;  /* ... of which issue LDGSTS */
    int async_old;     /* instances in code for older GPUs */
    char archs[96];    /* the architectures that hold the kernel */
    char missing[200]; /* the first sm_80+ instance without LDGSTS */
} sass_scan;

static void scan_end_function(sass_scan *r, int arch, int is_async, int has_ldgsts,
                              const char *name) {
    if (!is_async)
        return;
    char tag[16];
    snprintf(tag, sizeof tag, "sm_%d", arch);
    if (!strstr(r->archs, tag) && strlen(r->archs) + strlen(tag) + 2 < sizeof r->archs)
        snprintf(r->archs + strlen(r->archs), sizeof r->archs - strlen(r->archs), "%s%s",
                 r->archs[0] ? " " : "", tag);
    if (arch < 80) {
        r->async_old++;
        return;
    }
    r->async_new++;
    if (has_ldgsts)
        r->async_ldgsts++;
    else if (!r->missing[0])
        snprintf(r->missing, sizeof r->missing, "%s in the code for sm_%d", name, arch);
}

/* Reads `cuobjdump -sass` output: "code for sm_XX" opens an architecture,
 * "Function : NAME" a kernel, and the instructions follow. */
static void scan_sass(const char *path, sass_scan *r) {
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    char line[1024], name[160] = "";
    int arch = 0, is_async = 0, has = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *p = strstr(line, "code for sm_"), *q = strstr(line, "Function : ");
        if (p || q) {
            scan_end_function(r, arch, is_async, has, name);
            is_async = has = 0;
        }
        if (p) {
            arch = atoi(p + strlen("code for sm_"));
        } else if (q) {
            r->functions++;
            snprintf(name, sizeof name, "%s", q + strlen("Function : "));
            name[strcspn(name, " \r\n")] = '\0';
            is_async = strstr(name, "prefetching_async_kernel") != NULL;
        } else if (is_async && strstr(line, "LDGSTS")) {
            has = 1;
        }
    }
    scan_end_function(r, arch, is_async, has, name);
    if (f)
        fclose(f);
}

static void test_asm_ldgsts(wb_ctx *ctx) {
    void *sym = wb_student_sym(ctx, "prefetching_async");
    Dl_info info;
    if (!dladdr(sym, &info) || !info.dli_fname)
        wb_fail(ctx, "cannot tell which file holds the compiled lab");
    char tool[PATH_MAX], log[PATH_MAX + 32], cmd[3 * PATH_MAX + 64];
    if (!wb_find_tool("cuobjdump", tool, sizeof tool))
        wb_fail(ctx, "cuobjdump not found");
    snprintf(log, sizeof log, "%s/async_kernel.sass", wb_out_dir(ctx));
    snprintf(cmd, sizeof cmd, "'%s' -sass '%s' >'%s' 2>&1", tool, info.dli_fname, log);
    int st = system(cmd);
    sass_scan r;
    scan_sass(log, &r);
    /* The GPU the run was probed on, if any; this test needs none and does
     * not start CUDA itself. */
    const wb_gpu *g = wb_ctx_gpu(ctx);
    int cc = g->sm_count > 0 ? g->cc_major * 10 + g->cc_minor : 0;
    char gpu[64] = "no GPU here";
    if (cc > 0)
        snprintf(gpu, sizeof gpu, "the GPU here is compute capability %d.%d", cc / 10, cc % 10);
    if (r.functions == 0)
        wb_fail(ctx, "cuobjdump -sass found no machine code in %s (exit status %d); log: %s",
                info.dli_fname, WIFEXITED(st) ? WEXITSTATUS(st) : -1, log);
    if (r.async_new + r.async_old == 0)
        wb_fail(ctx,
                "no kernel named prefetching_async_kernel in %s: prefetching_async must launch "
                "the lab's prefetching_async_kernel (%s); log: %s",
                info.dli_fname, README_ASYNC, log);
    /* Below compute capability 8.0 there is no LDGSTS to find: the copies
     * are plain there, and the variant is graded for correctness only. */
    if ((cc > 0 && cc < 80) || r.async_new == 0) {
        wb_measured(ctx,
                    "%s; the library has code for %s: below compute capability 8.0 "
                    "asynchronous copies are plain copies, so the async variant is graded for "
                    "correctness only (correct.async)",
                    gpu, r.archs);
        return;
    }
    wb_record(ctx, "async_kernels_with_ldgsts", r.async_ldgsts, "kernels", r.async_new, "eq");
    if (r.async_ldgsts < r.async_new)
        wb_fail(ctx,
                "%d of the %d instances of prefetching_async_kernel for compute capability 8.0 "
                "and newer issue no LDGSTS (first: %s): their copies go through registers and "
                "wait for each load; use __pipeline_memcpy_async (%s); SASS in %s",
                r.async_new - r.async_ldgsts, r.async_new, r.missing, README_ASYNC, log);
    wb_measured(ctx, "LDGSTS in all %d instances of prefetching_async_kernel (%s; %s)", r.async_new,
                r.archs, gpu);
}

/* ------------------------------------------------ why it is latency-bound */

typedef struct machine {
    double mhz, latency, work; /* SM clock; cycles per DRAM load; cycles per element of work */
} machine;

static void measure_machine(wb_ctx *ctx, int blocks, machine *m) {
    wb_cuda(ctx, pf_measure_clock(&m->mhz), "measuring the SM clock");
    wb_cuda(ctx, pf_measure_latency(&m->latency), "measuring the DRAM latency");
    wb_cuda(ctx, pf_measure_work(blocks, &m->work), "measuring the work per element");
}

static void test_measure_baseline(wb_ctx *ctx) {
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    int blocks = sm_count(ctx);
    machine m;
    measure_machine(ctx, blocks, &m);
    call_args a;
    memset(&a, 0, sizeof a);
    float *h_in, *d_in, *d_out;
    perf_buffers(ctx, PERF_N, &h_in, &d_in, &d_out);
    a.in = d_in;
    a.out = d_out;
    a.n = PERF_N;
    a.blocks = blocks;
    wb_time_opts o = wb_time_defaults();
    double ms = 0, spread = 0;
    wb_cuda(ctx, wb_time_one(run_baseline, &a, &o, &ms, &spread), "timing the plain loop");
    wb_ceiling copy;
    wb_cuda(ctx, wb_measure_copy_gbps(&copy), "measuring the copy bandwidth");
    double per_thread = (double)PERF_N / ((double)blocks * B);
    double cycles = ms * 1e-3 * m.mhz * 1e6 / per_thread; /* per element, per thread */
    double gbps = 8.0 * PERF_N / (ms * 1e6);
    double gflops = 2.0 * PREFETCHING_WORK_FMAS * PERF_N / (ms * 1e6);
    double bw_pct = copy.value > 0 ? 100.0 * gbps / copy.value : 0;
    double fp_pct = gpu->peak_fp32_gflops > 0 ? 100.0 * gflops / gpu->peak_fp32_gflops : 0;
    wb_record(ctx, "sm_clock_mhz", m.mhz, "MHz", 0, "ref");
    wb_record(ctx, "dram_latency_cycles", m.latency, "cycles", 0, "ref");
    wb_record(ctx, "work_cycles_per_element", m.work, "cycles", 0, "ref");
    wb_record(ctx, "baseline_cycles_per_element", cycles, "cycles", m.latency + m.work, "ref");
    wb_record(ctx, "baseline_ms", ms, "ms", 0, "ref");
    wb_record(ctx, "baseline_bandwidth_pct_of_copy", bw_pct, "%", 0, "ref");
    wb_record(ctx, "baseline_fp32_pct_of_peak", fp_pct, "%", 0, "ref");
    wb_record(ctx, "model_ceiling_speedup", ref_model(m.latency, m.work, 64), "x", 0, "ref");
    wb_measured(ctx,
                "plain loop %.0f cycles/element (latency %.0f + work %.0f = %.0f), %.0f GB/s = "
                "%.0f%% of copy, %.1f%% of FP32 peak: latency-bound; model ceiling %.1fx",
                cycles, m.latency, m.work, m.latency + m.work, gbps, bw_pct, fp_pct,
                ref_model(m.latency, m.work, 64));
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
}

/* ------------------------------------------------------------- the sweep */

#define SWEEP_ROWS (1 + 16 * 5)

typedef struct sweep_row {
    const char *variant;           /* regs, smem, async */
    int distance, padding, padded; /* padded: the blog's padding, not 0 */
    double ms, speedup, model;
} sweep_row;

static void write_sweep_csv(const char *path, const sweep_row *r, int n) {
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "variant,distance,padding,ms,speedup,model\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s,%d,%d,%.4f,%.3f,%.3f\n", r[i].variant, r[i].distance, r[i].padding, r[i].ms,
                r[i].speedup, r[i].model);
    fclose(f);
}

/* One panel: speedup against distance for the rows with padded == which. */
static void svg_panel(FILE *f, const sweep_row *r, int n, int which, double x0, double top,
                      double ymax, const char *title) {
    const double w = 500, h = 330;
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"16\">%s</text>\n", x0, top - 12, title);
    fprintf(f,
            "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
            "stroke=\"#9ca3af\"/>\n",
            x0, top, w, h);
    for (double y = 0; y <= ymax + 1e-9; y += ymax > 4 ? 1 : 0.5) {
        double py = top + h - h * y / ymax;
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\"/>"
                "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.1fx</text>\n",
                x0, py, x0 + w, py, y == 1 ? "#dc2626" : "#e5e7eb", x0 - 6, py + 4, y);
    }
    for (int d = 1; d <= 16; d++)
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%d</text>\n",
                x0 + w * (d - 0.5) / 16, top + h + 18, d);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">prefetch distance</text>\n",
            x0 + w / 2, top + h + 38);
    static const char *names[] = {"regs", "smem", "async", "model"};
    static const char *colors[] = {"#2563eb", "#d97706", "#16a34a", "#6b7280"};
    for (int s = 0; s < 4; s++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"%s points=\"",
                colors[s], s == 3 ? " stroke-dasharray=\"6 4\"" : "");
        for (int i = 0; i < n; i++) {
            const sweep_row *q = &r[i];
            int take = s == 3 ? strcmp(q->variant, "regs") == 0
                              : strcmp(q->variant, names[s]) == 0 && (s == 0 || q->padded == which);
            if (!take || q->distance < 1)
                continue;
            double v = s == 3 ? q->model : q->speedup;
            v = v < ymax ? v : ymax;
            fprintf(f, "%.1f,%.1f ", x0 + w * (q->distance - 0.5) / 16, top + h - h * v / ymax);
        }
        fprintf(f, "\"/>\n<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">%s</text>\n", x0 + 10 + 90 * s,
                top + 20, colors[s], names[s]);
    }
}

/* Two panels, like the blog's two figures: without padding, and with it. */
static void write_sweep_svg(const char *path, const sweep_row *r, int n, const char *title) {
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    double ymax = 2;
    for (int i = 0; i < n; i++) {
        ymax = r[i].speedup > ymax ? r[i].speedup : ymax;
        ymax = r[i].model > ymax ? r[i].model : ymax;
    }
    ymax = ceil(ymax * 2 + 0.5) / 2;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"470\" "
            "font-family=\"DejaVu Sans, sans-serif\" font-size=\"13\" fill=\"#1f2937\">\n"
            "<rect width=\"1200\" height=\"470\" fill=\"#ffffff\"/>\n"
            "<text x=\"70\" y=\"26\" font-size=\"17\">%s</text>\n",
            title);
    svg_panel(f, r, n, 0, 70, 80, ymax, "speedup over the plain loop, no padding");
    svg_panel(f, r, n, 1, 660, 80, ymax,
              "with padding: distance + padding = 2^k + 1 (the blog's rule)");
    fprintf(f, "</svg>\n");
    fclose(f);
}

static void time_row(wb_ctx *ctx, call_args *a, const float *h_in, sweep_row *row, double base_ms) {
    wb_time_opts o = {1, 5, 11, 2.0, 0.02};
    double ms = 0, spread = 0;
    char what[96];
    snprintf(what, sizeof what, "prefetching_%s at distance %d, padding %d", row->variant,
             row->distance, row->padding);
    wb_cuda(ctx, wb_time_one(run_variant, a, &o, &ms, &spread), what);
    wb_cuda(ctx, cudaDeviceSynchronize(), what);
    /* A sample of the output of the last run. */
    float got[8];
    for (int k = 0; k < 8; k++) {
        int i = (int)(((long long)k * 4194301) % a->n);
        wb_cuda(ctx, cudaMemcpy(&got[k], a->out + i, sizeof(float), cudaMemcpyDeviceToHost),
                "cudaMemcpy");
        if (!(got[k] == prefetching_work(h_in[i])))
            wb_fail(ctx, "%s at n = %d: element %d is %.9g, expected %.9g (%s)", what, a->n, i,
                    got[k], prefetching_work(h_in[i]), README_SWEEP);
    }
    row->ms = ms;
    row->speedup = ms > 0 ? base_ms / ms : 0;
}

static void test_sweep(wb_ctx *ctx) {
    variant_fn f[3];
    for (int v = 0; v < 3; v++)
        f[v] = bind_variant(ctx, &VARIANTS[v]);
    int blocks = sm_count(ctx);
    machine m;
    measure_machine(ctx, blocks, &m);
    call_args a;
    memset(&a, 0, sizeof a);
    float *h_in, *d_in, *d_out;
    perf_buffers(ctx, PERF_N, &h_in, &d_in, &d_out);
    a.in = d_in;
    a.out = d_out;
    a.n = PERF_N;
    a.blocks = blocks;
    wb_time_opts o = {2, 7, 15, 3.0, 0.02};
    double base_ms = 0, spread = 0;
    wb_cuda(ctx, wb_time_one(run_baseline, &a, &o, &base_ms, &spread), "timing the plain loop");
    sweep_row rows[SWEEP_ROWS];
    int n = 0;
    rows[n++] = (sweep_row){"baseline", 0, 0, 0, base_ms, 1.0, 1.0};
    int best = 1;
    for (int d = 1; d <= PREFETCHING_MAX_DISTANCE; d++) {
        for (int v = 0; v < 3; v++) {
            for (int padded = 0; padded <= (v == 0 ? 0 : 1); padded++) {
                sweep_row *row = &rows[n];
                *row = (sweep_row){VARIANTS[v].name,
                                   d,
                                   padded ? blog_padding(d) : 0,
                                   padded,
                                   0,
                                   0,
                                   ref_model(m.latency, m.work, d)};
                a.fn = f[v];
                a.distance = d;
                a.padding = row->padding;
                if (padded && row->padding == 0) { /* the same run as without padding */
                    row->ms = rows[n - 1].ms;
                    row->speedup = rows[n - 1].speedup;
                } else {
                    time_row(ctx, &a, h_in, row, base_ms);
                }
                best = row->speedup > rows[best].speedup ? n : best;
                n++;
            }
        }
    }
    char csv[PATH_MAX + 32], svg[PATH_MAX + 32], title[256];
    snprintf(csv, sizeof csv, "%s/prefetch_sweep.csv", wb_out_dir(ctx));
    snprintf(svg, sizeof svg, "%s/prefetch_sweep.svg", wb_out_dir(ctx));
    snprintf(title, sizeof title,
             "%s, one block of %d threads per SM, n = 2^25; plain loop %.3f ms; model: latency "
             "%.0f, work %.0f cycles",
             wb_ctx_gpu(ctx)->name, B, base_ms, m.latency, m.work);
    write_sweep_csv(csv, rows, n);
    write_sweep_svg(svg, rows, n, title);
    wb_record(ctx, "sweep_best_speedup", rows[best].speedup, "x", 0, "ref");
    wb_record(ctx, "sweep_best_distance", rows[best].distance, "", 0, "ref");
    wb_measured(ctx,
                "%d runs; fastest: %s, distance %d, padding %d, %.2fx (model %.2fx); table %s, "
                "picture %s",
                n - 1, rows[best].variant, rows[best].distance, rows[best].padding,
                rows[best].speedup, rows[best].model, csv, svg);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
}

/* --------------------------------------------------- host calculators */

static void test_conflict_ways(wb_ctx *ctx) {
    __typeof__(&prefetching_conflict_ways) ways;
    WB_BIND(ctx, ways, prefetching_conflict_ways);
    for (int s = 1; s <= 4096; s++) {
        int got = ways(s), want = ref_conflict_ways(s);
        if (got != want)
            wb_fail(ctx,
                    "rows %d words apart: returned %d, expected %d (thread t reads word k + t * "
                    "%d, bank = word %% 32; %s)",
                    s, got, want, s, README_PAD);
    }
    static const int bad[] = {0, -1, -32, -2147483647};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (ways(bad[k]) != -1)
            wb_fail(ctx, "prefetching_conflict_ways(%d) returned %d, expected -1 (%s)", bad[k],
                    ways(bad[k]), README_CONTRACT);
    wb_measured(ctx, "strides 1..4096 right (8 -> %d-way, 9 -> %d-way); invalid refused", ways(8),
                ways(9));
}

static void test_min_distance(wb_ctx *ctx) {
    __typeof__(&prefetching_min_distance) mind;
    WB_BIND(ctx, mind, prefetching_min_distance);
    long n = 0;
    for (int L = 0; L <= 3000; L += 7)
        for (int c = 1; c <= 700; c += (c < 20 ? 1 : 13)) {
            int got = mind(L, c), want = ref_min_distance(L, c);
            if (got != want)
                wb_fail(ctx, "latency %d, work %d cycles: returned %d, expected %d (%s)", L, c, got,
                        want, README_MODEL);
            n++;
        }
    static const int exact[][3] = {{800, 200, 4}, {801, 200, 5}, {0, 50, 1}, {100, 300, 1}};
    for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++)
        if (mind(exact[k][0], exact[k][1]) != exact[k][2])
            wb_fail(ctx, "latency %d, work %d cycles: returned %d, expected %d (%s)", exact[k][0],
                    exact[k][1], mind(exact[k][0], exact[k][1]), exact[k][2], README_MODEL);
    if (mind(-1, 10) != -1 || mind(100, 0) != -1 || mind(100, -5) != -1)
        wb_fail(ctx, "negative latency or work below 1 must return -1 (%s)", README_CONTRACT);
    wb_measured(ctx, "%ld (latency, work) pairs right; 800 and 200 cycles -> distance %d", n,
                mind(800, 200));
}

static void test_model(wb_ctx *ctx) {
    __typeof__(&prefetching_model_speedup) model;
    WB_BIND(ctx, model, prefetching_model_speedup);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    for (int k = 0; k < 20000; k++) {
        double L = k < 50 ? 0 : 3000 * wb_rng_uniform(&g);
        double c = 0.5 + 1000 * wb_rng_uniform(&g);
        int d = (int)wb_rng_range(&g, 1, 64);
        double got = model(L, c, d), want = ref_model(L, c, d);
        if (!(fabs(got - want) <= 1e-9 * want))
            wb_fail(ctx,
                    "latency %.3f, work %.3f cycles, distance %d: returned %.9g, expected %.9g "
                    "(%s)",
                    L, c, d, got, want, README_MODEL);
    }
    if (model(-1, 10, 2) != -1 || model(10, 0, 2) != -1 || model(10, 10, 0) != -1)
        wb_fail(ctx, "invalid arguments must return -1 (%s)", README_CONTRACT);
    wb_measured(ctx,
                "20000 random cases right; latency 600, work 200: %.2fx at distance 2, %.2fx "
                "at 8",
                model(600, 200, 2), model(600, 200, 8));
}

/* ------------------------------------------------------------- questions */

/* A set of letters a-f: every letter a-f of the answer, sorted, each once
 * ("c, a", "a c" and "ac" are the same answer). */
static void question_letters(wb_ctx *ctx, const char *key, uint64_t expected, const char *what) {
    const char *v = wb_answer(ctx, key);
    char canon[8] = "";
    int k = 0;
    for (char c = 'a'; c <= 'f'; c++)
        for (const char *p = v; *p; p++)
            if ((*p | 0x20) == c) {
                canon[k++] = c;
                break;
            }
    canon[k] = '\0';
    wb_measured(ctx, "%s = %s", key, v);
    if (wb_answer_hash(wb_salt(ctx), key, canon) != expected)
        wb_fail(ctx,
                "%s = %s is not the expected set of letters; asked: %s (README.md, \"Questions\")",
                key, v, what);
}

WB_HASH_QUESTION(test_q_ways_16, "ways_stride_16", 0x686ccbb40606b0aaULL,
                 "passes for a warp's access to rows 16 floats apart")

WB_HASH_QUESTION(test_q_ways_12, "ways_stride_12", 0xe378d6f8d6d7ccfbULL,
                 "passes for rows 12 floats apart")

WB_HASH_QUESTION(test_q_pad_blog, "padding_blog_12", 0xc78c1a4b94191df0ULL,
                 "the blog's padding for distance 12 (distance + padding = 2^k + 1)")

WB_HASH_QUESTION(test_q_pad_odd, "padding_min_12", 0x936dbe38a9d4c58aULL,
                 "the smallest padding that makes distance 12 conflict-free for floats")

WB_HASH_QUESTION(test_q_why_padding, "why_padding", 0xbf58a566fd89f086ULL,
                 "the letter of why padding helps")

WB_HASH_QUESTION(test_q_why_barrier, "why_barrier", 0x64e9f307956b4712ULL,
                 "the letter of why a barrier spoils plain shared-memory rolling prefetch")

static void test_q_when(wb_ctx *ctx) {
    question_letters(ctx, "when_to_prefetch", 0x32b5e3cf1518ced3ULL,
                     "the letters of every condition to confirm before prefetching");
}

WB_HASH_QUESTION(test_q_commit, "commit_every_iteration", 0x0783a162ebc2d77cULL,
                 "the letter of why the async loop commits in every iteration")

static void test_q_before_80(wb_ctx *ctx) {
    wb_question_hash(
        ctx, "async_before_80", 0x7a1425642d6f5e0aULL,
        "the letter of what an asynchronous copy becomes below compute capability 8.0");
}

WB_HASH_QUESTION(test_q_min_distance, "min_distance_1100_200", 0xcc26da91c893a9b1ULL,
                 "the smallest distance for a latency of 1100 and work of 200 cycles")

static void test_q_speedup_d2(wb_ctx *ctx) {
    wb_question_number(ctx, "speedup_900_200_d2", ref_model(900, 200, 2), 0.01,
                       "the model's speedup at latency 900, work 200 cycles, distance 2");
}

static void test_q_speedup_d8(wb_ctx *ctx) {
    wb_question_number(ctx, "speedup_900_200_d8", ref_model(900, 200, 8), 0.01,
                       "the model's speedup at latency 900, work 200 cycles, distance 8");
}

WB_HASH_QUESTION(test_q_smem_bytes, "smem_bytes_12_5", 0xf13c3011f82c25a3ULL,
                 "dynamic shared memory of one block at distance 12, padding 5 (floats)")

WB_HASH_QUESTION(test_q_in_flight, "bytes_in_flight_d8", 0xefeb7566ede7e7e2ULL,
                 "bytes of loads one SM has in flight at distance 8, one 256-thread block")

static void test_q_little(wb_ctx *ctx) {
    wb_question_number(ctx, "little_bytes", 3000e9 * 600e-9, 0.02,
                       "bytes in flight to sustain 3,000 GB/s at 600 ns (Little's law)");
}

/* ----------------------------------------------------------- the suite */

#define HOST(id, pts, fn, hint)                                                                    \
    { id, WB_CORRECTNESS, pts, 0, 1, 60, fn, NULL, NULL, NULL, NULL, hint }
#define GPU(id, pts, secs, fn, req, hint)                                                          \
    { id, WB_CORRECTNESS, pts, 1, 1, secs, fn, req, NULL, NULL, NULL, hint }
#define QUESTION(id, pts, fn)                                                                      \
    { id, WB_QUESTION, pts, 0, 0, 20, fn, NULL, NULL, NULL, NULL, "README.md, \"Questions\"" }

static const wb_test tests[] = {
    HOST("correct.conflict_ways", 4, test_conflict_ways, README_PAD),
    HOST("correct.min_distance", 3, test_min_distance, README_MODEL),
    HOST("correct.model", 3, test_model, README_MODEL),
    {"measure.baseline", WB_PERFORMANCE, 0, 1, 0, 120, test_measure_baseline, NULL, NULL, NULL,
     NULL, README_WHEN},
    GPU("correct.regs", 5, 120, test_regs, NULL, README_REGS),
    GPU("correct.smem", 5, 120, test_smem, NULL, README_SMEM),
    GPU("correct.async", 5, 120, test_async, NULL,
        "wait for the copy of this iteration's slot before reading it, and commit in every "
        "iteration (" README_ASYNC ")"),
    GPU("correct.tails", 3, 120, test_tails, NULL,
        "the first `distance` loads and the last `distance` steps of each thread (" README_REGS
        ")"),
    {"sanitizer.tails", WB_SANITIZER, 2, 1, 1, 300, NULL, "correct.tails", "compute-sanitizer",
     "correct.tails", "memcheck", "README.md, \"Debugging\""},
    {"asm.ldgsts", WB_CORRECTNESS, 9, 0, 1, 120, test_asm_ldgsts, NULL, "cuobjdump", NULL, NULL,
     README_ASYNC},
    GPU("correct.best", 1, 120, test_best, NULL, README_BEST),
    {"perf.best", WB_PERFORMANCE, 30, 1, 1, 180, test_perf_best, "correct.best", NULL, NULL, NULL,
     README_BEST},
    {"measure.sweep", WB_PERFORMANCE, 0, 1, 1, 300, test_sweep,
     "correct.regs correct.smem correct.async", NULL, NULL, NULL, README_SWEEP},
    QUESTION("question.ways_stride_16", 2, test_q_ways_16),
    QUESTION("question.ways_stride_12", 2, test_q_ways_12),
    QUESTION("question.padding_blog_12", 2, test_q_pad_blog),
    QUESTION("question.padding_min_12", 2, test_q_pad_odd),
    QUESTION("question.why_padding", 2, test_q_why_padding),
    QUESTION("question.why_barrier", 2, test_q_why_barrier),
    QUESTION("question.when_to_prefetch", 2, test_q_when),
    QUESTION("question.commit_every_iteration", 2, test_q_commit),
    QUESTION("question.async_before_80", 2, test_q_before_80),
    QUESTION("question.min_distance_1100_200", 2, test_q_min_distance),
    QUESTION("question.speedup_900_200_d2", 2, test_q_speedup_d2),
    QUESTION("question.speedup_900_200_d8", 2, test_q_speedup_d8),
    QUESTION("question.smem_bytes_12_5", 2, test_q_smem_bytes),
    QUESTION("question.bytes_in_flight_d8", 2, test_q_in_flight),
    QUESTION("question.little_bytes", 2, test_q_little),
};

static const wb_lab lab = {"08-prefetching", "prefetching.cu", "08-prefetching/v1", tests,
                           (int)(sizeof tests / sizeof tests[0])};

Suite *prefetching_suite(void) {
    return wb_build_suite(&lab);
}

int main(int argc, char **argv) {
    return wb_grader_main(argc, argv, prefetching_suite);
}
