/* wb_clocks.c - GPU clocks and throttle reasons through NVML, loaded at run time */
/* SPDX-License-Identifier: MIT */
#include "wb_clocks.h"

#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* NVML through dlopen: nvml.h is not in every toolkit, and a grader linked
 * against libnvidia-ml would not even start without a driver. nvmlReturn_t
 * and the enums are ints, nvmlDevice_t a pointer. */
#define NVML_SUCCESS 0
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0

typedef int (*nvml_void_fn)(void);
typedef const char *(*nvml_error_fn)(int);
typedef int (*nvml_by_bus_fn)(const char *, void **);
typedef int (*nvml_clock_fn)(void *, int, unsigned *);
typedef int (*nvml_reasons_fn)(void *, unsigned long long *);

static struct {
    void *lib;
    nvml_void_fn init, shutdown;
    nvml_error_fn error;
    nvml_by_bus_fn by_bus;
    nvml_clock_fn clock, max_clock, temperature;
    nvml_reasons_fn reasons;
} nv;

/* The first of two names that the library exports (a newer one, then the
 * older one it replaced), or NULL. */
static void *sym2(const char *name, const char *older) {
    void *p = dlsym(nv.lib, name);
    return p || !older ? p : dlsym(nv.lib, older);
}

/* Loads the library and its functions once per process. Returns 0, or -1
 * with why set. */
static int load_nvml(char *why, size_t cap) {
    if (nv.lib)
        return 0;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, cap, "NVML not available (%s)", e ? e : "libnvidia-ml.so.1 not found");
        return -1;
    }
    nv.lib = lib;
    nv.init = (nvml_void_fn)sym2("nvmlInit_v2", "nvmlInit");
    nv.shutdown = (nvml_void_fn)sym2("nvmlShutdown", NULL);
    nv.error = (nvml_error_fn)sym2("nvmlErrorString", NULL);
    nv.by_bus =
        (nvml_by_bus_fn)sym2("nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
    nv.clock = (nvml_clock_fn)sym2("nvmlDeviceGetClockInfo", NULL);
    nv.max_clock = (nvml_clock_fn)sym2("nvmlDeviceGetMaxClockInfo", NULL);
    nv.temperature = (nvml_clock_fn)sym2("nvmlDeviceGetTemperature", NULL);
    nv.reasons = (nvml_reasons_fn)sym2("nvmlDeviceGetCurrentClocksEventReasons",
                                       "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (nv.init && nv.shutdown && nv.by_bus && nv.clock)
        return 0;
    snprintf(why, cap,
             "NVML not available (libnvidia-ml.so.1 lacks nvmlInit, "
             "nvmlDeviceGetHandleByPciBusId or nvmlDeviceGetClockInfo)");
    memset(&nv, 0, sizeof nv); /* the library stays loaded: unloading NVML is not safe */
    return -1;
}

static const char *nvml_error(int r) {
    const char *s = nv.error ? nv.error(r) : NULL;
    return s ? s : "unknown error";
}

int wb_clocks_open(wb_clocks *c, const char *pci_bus_id) {
    c->dev = NULL;
    c->why[0] = '\0';
    if (load_nvml(c->why, sizeof c->why) != 0)
        return -1;
    int r = nv.init();
    if (r != NVML_SUCCESS) {
        snprintf(c->why, sizeof c->why, "NVML not available (nvmlInit: %s)", nvml_error(r));
        return -1;
    }
    void *dev = NULL;
    r = nv.by_bus(pci_bus_id, &dev);
    if (r != NVML_SUCCESS || !dev) {
        snprintf(c->why, sizeof c->why, "NVML does not know the GPU at %s (%s)", pci_bus_id,
                 nvml_error(r));
        nv.shutdown();
        return -1;
    }
    c->dev = dev;
    return 0;
}

int wb_clocks_open_current(wb_clocks *c) {
    char bus[64];
    int dev = 0;
    c->dev = NULL;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev);
    if (e != cudaSuccess) {
        snprintf(c->why, sizeof c->why, "no PCI bus id for the CUDA device (%s)",
                 cudaGetErrorName(e));
        return -1;
    }
    return wb_clocks_open(c, bus);
}

void wb_clocks_close(wb_clocks *c) {
    if (!c->dev)
        return;
    c->dev = NULL;
    if (nv.shutdown)
        nv.shutdown();
}

int wb_clocks_sample(const wb_clocks *c, wb_clock_sample *s) {
    memset(s, 0, sizeof *s);
    s->temp_c = -1;
    if (!c->dev || !nv.clock)
        return -1;
    if (nv.clock(c->dev, NVML_CLOCK_SM, &s->sm_mhz) != NVML_SUCCESS ||
        nv.clock(c->dev, NVML_CLOCK_MEM, &s->mem_mhz) != NVML_SUCCESS)
        return -1;
    s->valid = 1;
    if (nv.max_clock && nv.max_clock(c->dev, NVML_CLOCK_SM, &s->sm_max_mhz) != NVML_SUCCESS)
        s->sm_max_mhz = 0;
    s->has_reasons = nv.reasons && nv.reasons(c->dev, &s->reasons) == NVML_SUCCESS;
    if (!s->has_reasons)
        s->reasons = 0;
    unsigned t = 0;
    if (nv.temperature && nv.temperature(c->dev, NVML_TEMPERATURE_GPU, &t) == NVML_SUCCESS)
        s->temp_c = (int)t;
    return 0;
}

/* ------------------------------------------------------------ pure: words and the rule */

static const struct {
    unsigned long long bit;
    const char *words;
} reason_names[] = {
    {WB_CLK_GPU_IDLE, "GPU idle"},
    {WB_CLK_APP_CLOCKS, "application clocks setting"},
    {WB_CLK_SW_POWER_CAP, "power cap"},
    {WB_CLK_HW_SLOWDOWN, "HW slowdown"},
    {WB_CLK_SYNC_BOOST, "sync boost"},
    {WB_CLK_SW_THERMAL, "thermal slowdown"},
    {WB_CLK_HW_THERMAL, "HW thermal slowdown"},
    {WB_CLK_HW_POWER_BRAKE, "HW power brake"},
    {WB_CLK_DISPLAY_CLOCKS, "display clock setting"},
    {WB_CLK_BOARD_LIMIT, "board limit"},
    {WB_CLK_RELIABILITY, "reliability limit"},
};

/* Appends word to a comma-separated list in buf, never past cap. */
static void add_word(char *buf, size_t cap, const char *word) {
    size_t used = strlen(buf);
    if (used + 1 < cap)
        snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", word);
}

void wb_clocks_reason_words(unsigned long long bits, char *buf, size_t cap) {
    if (cap == 0)
        return;
    buf[0] = '\0';
    unsigned long long known = 0;
    for (size_t i = 0; i < sizeof reason_names / sizeof reason_names[0]; i++) {
        known |= reason_names[i].bit;
        if (bits & reason_names[i].bit)
            add_word(buf, cap, reason_names[i].words);
    }
    for (int b = 0; b < 64; b++) {
        char other[32];
        snprintf(other, sizeof other, "reason 0x%llx", 1ULL << b);
        if ((bits >> b & 1) && !(known >> b & 1))
            add_word(buf, cap, other);
    }
    if (!buf[0])
        snprintf(buf, cap, "none");
}

/* 1 when clock fell from was to now by more than WB_CLK_DROP. */
static int fell(unsigned was, unsigned now) {
    return was > 0 && (double)now < (1.0 - WB_CLK_DROP) * was;
}

int wb_clocks_disturbed(const wb_clock_sample *before, const wb_clock_sample *after, char *why,
                        size_t cap) {
    if (cap)
        why[0] = '\0';
    if (!before->valid || !after->valid)
        return 0;
    unsigned long long events =
        ((before->has_reasons ? before->reasons : 0) | (after->has_reasons ? after->reasons : 0)) &
        WB_CLK_DISTURBING;
    int sm_fell = fell(before->sm_mhz, after->sm_mhz);
    int mem_fell = fell(before->mem_mhz, after->mem_mhz);
    if (!events && !sm_fell && !mem_fell)
        return 0;
    char words[160];
    wb_clocks_reason_words(events, words, sizeof words);
    if (!events)
        snprintf(words, sizeof words, "NVML gave no reason");
    if (after->temp_c >= 0 && (events & (WB_CLK_SW_THERMAL | WB_CLK_HW_THERMAL))) {
        size_t used = strlen(words);
        snprintf(words + used, sizeof words - used, ", %d C", after->temp_c);
    }
    if (sm_fell || mem_fell)
        snprintf(why, cap, "the %s clock fell from %u to %u MHz during the timing (%s)",
                 sm_fell ? "SM" : "memory", sm_fell ? before->sm_mhz : before->mem_mhz,
                 sm_fell ? after->sm_mhz : after->mem_mhz, words);
    else
        snprintf(why, cap,
                 "the GPU throttled during the timing (%s; SM clock %u MHz before, %u after)",
                 words, before->sm_mhz, after->sm_mhz);
    return 1;
}

void wb_clocks_describe(const wb_clock_sample *s, char *buf, size_t cap) {
    if (!s->valid) {
        snprintf(buf, cap, "clocks not read");
        return;
    }
    char max[32] = "", temp[16] = "", words[160];
    if (s->sm_max_mhz)
        snprintf(max, sizeof max, " (max %u)", s->sm_max_mhz);
    if (s->temp_c >= 0)
        snprintf(temp, sizeof temp, ", %d C", s->temp_c);
    wb_clocks_reason_words(s->reasons, words, sizeof words);
    snprintf(buf, cap, "SM clock %u MHz now%s, memory clock %u MHz%s; reasons: %s", s->sm_mhz, max,
             s->mem_mhz, temp, s->has_reasons ? words : "not reported");
}
