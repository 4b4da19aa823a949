/* wb_rng.c - xoshiro256** seeded through splitmix64 */
/* SPDX-License-Identifier: MIT */
#include "wb_rng.h"
#include "wb_env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

void wb_rng_seed(wb_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t wb_rng_u64(wb_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double wb_rng_uniform(wb_rng *r) {
    return (double)(wb_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}

int64_t wb_rng_range(wb_rng *r, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1;
    if (span == 0) /* the whole 64-bit range */
        return (int64_t)wb_rng_u64(r);
    /* Rejection sampling keeps the distribution exactly uniform. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t v;
    do {
        v = wb_rng_u64(r);
    } while (v >= limit);
    return lo + (int64_t)(v % span);
}

void wb_rng_fill_float(wb_rng *r, float *h_out, size_t n, float lo, float hi) {
    for (size_t i = 0; i < n; i++)
        h_out[i] = lo + (hi - lo) * (float)wb_rng_uniform(r);
}

uint64_t wb_rng_seed_from_env(void) {
    unsigned long long v;
    char err[256];
    if (wb_env_ull("SEED", 0, UINT64_MAX, &v, NULL, err, sizeof err) == 1)
        return v;
    /* Unset (or invalid: the programs that read SEED refuse that first,
     * through wb_env_check_grader): a seed from the clock. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid();
    return splitmix64(&x) % 1000000000ULL; /* short enough to retype */
}

void wb_rng_entropy(void *buf, size_t n) {
    unsigned char *b = (unsigned char *)buf;
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(b + got, n - got, 0);
        if (r > 0)
            got += (size_t)r;
        else if (r < 0 && errno != EINTR)
            break;
    }
    if (got == n)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 12);
    for (; got < n; got += 8) {
        uint64_t v = splitmix64(&x);
        memcpy(b + got, &v, n - got < 8 ? n - got : 8);
    }
}
