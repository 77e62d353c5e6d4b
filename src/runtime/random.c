/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's legacy MT19937 stream (numpy/random/src/mt19937/ and
 * distributions.c), reimplemented from the published algorithms: Matsumoto
 * & Nishimura's MT19937 with init_genrand/init_by_array, NumPy's 53-bit
 * doubles and its masked rejection sampling for bounded integers. */
#include "random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

enum { MT_M = 397 };
#define MATRIX_A 0x9908b0dfu
#define UPPER_MASK 0x80000000u
#define LOWER_MASK 0x7fffffffu

/* init_genrand: key[i] = 1812433253 * (key[i-1] ^ (key[i-1] >> 30)) + i. */
static void init_genrand(kj_mt19937 *st, uint32_t s)
{
    st->key[0] = s;
    for (int i = 1; i < KJ_MT19937_N; i++) {
        uint32_t prev = st->key[i - 1];
        st->key[i] = 1812433253u * (prev ^ (prev >> 30)) + (uint32_t)i;
    }
    st->pos = KJ_MT19937_N;
    st->has_gauss = 0;
    st->gauss = 0.0;
}

bool kj_mt19937_seed(kj_mt19937 *st, int64_t seed, kj_rt_error *err)
{
    if (seed < 0 || seed > (int64_t)UINT32_MAX)
        return kj_rt_errorf(err, "ValueError", "Seed must be between 0 and 2**32 - 1");
    init_genrand(st, (uint32_t)seed);
    return true;
}

/* init_by_array (MT19937 reference, as NumPy's mt19937_init_by_array). */
static void init_by_array(kj_mt19937 *st, const uint32_t *key, int len)
{
    uint32_t *mt = st->key;
    init_genrand(st, 19650218u);
    int i = 1, j = 0;
    for (int k = KJ_MT19937_N > len ? KJ_MT19937_N : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= KJ_MT19937_N) mt[0] = mt[KJ_MT19937_N - 1], i = 1;
        if (j >= len) j = 0;
    }
    for (int k = KJ_MT19937_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= KJ_MT19937_N) mt[0] = mt[KJ_MT19937_N - 1], i = 1;
    }
    mt[0] = 0x80000000u; /* non-zero initial state */
    st->pos = KJ_MT19937_N;
}

bool kj_mt19937_seed_array(kj_mt19937 *st, const int64_t *keys, int n, kj_rt_error *err)
{
    if (n <= 0) return kj_rt_errorf(err, "ValueError", "Seed must be non-empty");
    uint32_t k32[KJ_MT19937_N];
    uint32_t *k = n <= KJ_MT19937_N ? k32 : malloc((size_t)n * sizeof *k);
    if (!k) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    for (int i = 0; i < n; i++) {
        if (keys[i] < 0 || keys[i] > (int64_t)UINT32_MAX) {
            if (k != k32) free(k);
            return kj_rt_errorf(err, "ValueError", "Seed must be between 0 and 2**32 - 1");
        }
        k[i] = (uint32_t)keys[i];
    }
    init_by_array(st, k, n);
    if (k != k32) free(k);
    return true;
}

void kj_mt19937_seed_entropy(kj_mt19937 *st)
{
    uint32_t key[KJ_MT19937_N];
    size_t got = 0;
    while (got < sizeof key) {
        ssize_t r = getrandom((char *)key + got, sizeof key - got, 0);
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (got < sizeof key) { /* no entropy source: time and address, still a valid state */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        for (int i = 0; i < KJ_MT19937_N; i++)
            key[i] = (uint32_t)ts.tv_nsec ^ (uint32_t)ts.tv_sec * 2654435761u ^ (uint32_t)i ^
                     (uint32_t)(uintptr_t)st;
    }
    init_by_array(st, key, KJ_MT19937_N);
}

void kj_mt19937_twist(kj_mt19937 *st)
{
    uint32_t *mt = st->key, y;
    int i;
    for (i = 0; i < KJ_MT19937_N - MT_M; i++) {
        y = (mt[i] & UPPER_MASK) | (mt[i + 1] & LOWER_MASK);
        mt[i] = mt[i + MT_M] ^ (y >> 1) ^ (-(y & 1) & MATRIX_A);
    }
    for (; i < KJ_MT19937_N - 1; i++) {
        y = (mt[i] & UPPER_MASK) | (mt[i + 1] & LOWER_MASK);
        mt[i] = mt[i + (MT_M - KJ_MT19937_N)] ^ (y >> 1) ^ (-(y & 1) & MATRIX_A);
    }
    y = (mt[KJ_MT19937_N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
    mt[KJ_MT19937_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (-(y & 1) & MATRIX_A);
    st->pos = 0;
}

uint64_t kj_mt19937_next64(kj_mt19937 *st)
{
    uint64_t hi = kj_mt19937_next32(st);
    return hi << 32 | kj_mt19937_next32(st);
}

void kj_random_fill(kj_mt19937 *st, double *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++) out[i] = kj_mt19937_double(st);
}

/* The smallest all-ones mask covering `max` (NumPy's gen_mask). */
static uint64_t gen_mask(uint64_t max)
{
    uint64_t mask = max;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    return mask;
}

/* random_bounded_uint64_fill with use_masked = true (the legacy path):
 * values off + [0, rng]. rng in 32 bits: 32-bit draws (rng = 2**32-1 takes
 * the word as is); otherwise 64-bit draws; both reject draws & mask > rng. */
static void bounded_fill(kj_mt19937 *st, uint64_t off, uint64_t rng, int64_t *out, int64_t n)
{
    uint64_t mask = gen_mask(rng);
    for (int64_t i = 0; i < n; i++) {
        uint64_t v;
        if (rng == 0) {
            v = 0;
        } else if (rng <= UINT32_MAX) {
            if (rng == UINT32_MAX) v = kj_mt19937_next32(st);
            else while ((v = (kj_mt19937_next32(st) & mask)) > rng) {}
        } else if (rng == UINT64_MAX) {
            v = kj_mt19937_next64(st);
        } else {
            while ((v = (kj_mt19937_next64(st) & mask)) > rng) {}
        }
        out[i] = (int64_t)(off + v);
    }
}

bool kj_random_randint(kj_mt19937 *st, int64_t low, int64_t high, int64_t *out, int64_t n,
                       kj_rt_error *err)
{
    if (high <= low) return kj_rt_errorf(err, "ValueError", "low >= high");
    /* the inclusive range high - 1 - low, computed without overflow */
    uint64_t rng = (uint64_t)high - 1u - (uint64_t)low;
    bounded_fill(st, (uint64_t)low, rng, out, n);
    return true;
}

kj_array *kj_random_rand_array(kj_mt19937 *st, int ndim, const int64_t *shape, kj_rt_error *err)
{
    kj_array *a = kj_array_empty(KJ_DT_FLOAT64, ndim, shape, err);
    if (a) kj_random_fill(st, (double *)(void *)a->data, kj_array_size(a));
    return a;
}

kj_array *kj_random_randint_array(kj_mt19937 *st, int64_t low, int64_t high, int ndim,
                                  const int64_t *shape, kj_rt_error *err)
{
    if (high <= low) {
        kj_rt_errorf(err, "ValueError", "low >= high");
        return NULL;
    }
    kj_array *a = kj_array_empty(KJ_DT_INT64, ndim, shape, err);
    if (a) kj_random_randint(st, low, high, (int64_t *)(void *)a->data, kj_array_size(a), err);
    return a;
}
