/* SPDX-License-Identifier: BSD-2-Clause */
/* np.random.default_rng(seed) and its Generator's random, uniform and
 * integers: PCG64 (pcg64.c) with the algorithms of NumPy's Generator
 * (_generator.pyx, distributions.c): 53-bit doubles from one 64-bit draw,
 * and Lemire's bounded integers (not the legacy masked rejection). The
 * generator's state lives in run-owned memory, freed with the run. */
#include "rt_host.h"

#include "array.h"
#include "random_gen_dist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void fail(kj_rt *rt, const char *exc, const char *msg, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_rt_errorf(&err, exc, "%s", msg);
    kj_rt_raise_error(rt, &err, line, col);
}

void *kj_rt_default_rng(kj_rt *rt, int64_t seed, int32_t line, int32_t col)
{
    if (seed < 0) fail(rt, "ValueError", "expected non-negative integer", line, col);
    kj_rt_error err = {0};
    int64_t n = (int64_t)sizeof(kj_pcg64);
    kj_array *mem = kj_array_empty(KJ_DT_UINT8, 1, &n, &err); /* 64-byte aligned data */
    if (!mem) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, mem);
    kj_pcg64 *g = (kj_pcg64 *)(void *)mem->data;
    kj_pcg64_seed(g, (uint64_t)seed);
    return g;
}

/* An array of the result: n values of dt, registered with the run. */
static kj_array *result(kj_rt *rt, kj_dtype dt, int32_t ndim, const int64_t *shape, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *a = kj_array_empty(dt, ndim, shape, &err);
    if (!a) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, a);
    return a;
}

/* Generator.random / uniform: low + range * U (random() is 0 + 1 * U's U). */
static void uniform_fill(kj_pcg64 *g, double low, double range, bool plain, double *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++) out[i] = plain ? kj_pcg64_double(g) : low + range * kj_pcg64_double(g);
}

void kj_rt_gen_uniform(kj_rt *rt, void *gen, double low, double high, int32_t plain, int32_t ndim,
                       const int64_t *shape, void *out, int32_t line, int32_t col)
{
    double range = high - low;
    if (!plain && !isfinite(range)) fail(rt, "OverflowError", "Range exceeds valid bounds", line, col);
    if (!ndim) { /* one value, into *out */
        uniform_fill(gen, low, range, plain != 0, out, 1);
        return;
    }
    kj_array *a = result(rt, KJ_DT_FLOAT64, ndim, shape, line, col);
    uniform_fill(gen, low, range, plain != 0, (double *)(void *)a->data, kj_array_size(a));
    kj_rt_error err = {0};
    kj_rt_result(rt, kj_array_retain(a), &err, out, ndim, line, col);
}

/* Lemire's nearly divisionless bounded draws (random_bounded_uint64_fill
 * with use_masked false): 32-bit draws when the range fits 32 bits. */
static uint64_t lemire32(kj_pcg64 *g, uint32_t rng)
{
    uint32_t excl = rng + 1;
    uint64_t m = (uint64_t)kj_pcg64_next32(g) * excl;
    uint32_t left = (uint32_t)m;
    if (left < excl) {
        uint32_t threshold = (UINT32_MAX - rng) % excl;
        while (left < threshold) {
            m = (uint64_t)kj_pcg64_next32(g) * excl;
            left = (uint32_t)m;
        }
    }
    return m >> 32;
}

static uint64_t lemire64(kj_pcg64 *g, uint64_t rng)
{
    uint64_t excl = rng + 1;
    unsigned __int128 m = (unsigned __int128)kj_pcg64_next64(g) * excl;
    uint64_t left = (uint64_t)m;
    if (left < excl) {
        uint64_t threshold = (UINT64_MAX - rng) % excl;
        while (left < threshold) {
            m = (unsigned __int128)kj_pcg64_next64(g) * excl;
            left = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* random_bounded_uint64(off 0, rng, unmasked): 32-bit draws when the
 * range fits 32 bits. */
uint64_t kj_gen_bounded(kj_pcg64 *g, uint64_t rng)
{
    return rng == 0                ? 0
           : rng == UINT32_MAX     ? kj_pcg64_next32(g)
           : rng < UINT32_MAX      ? lemire32(g, (uint32_t)rng)
           : rng == UINT64_MAX     ? kj_pcg64_next64(g)
                                   : lemire64(g, rng);
}

static void bounded_fill(kj_pcg64 *g, uint64_t off, uint64_t rng, int64_t *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++) out[i] = (int64_t)(off + kj_gen_bounded(g, rng));
}

/* Generator.integers(low, high) (int64, endpoint False): [low, high). */
void kj_rt_gen_integers(kj_rt *rt, void *gen, int64_t low, int64_t high, int32_t ndim, const int64_t *shape,
                        void *out, int32_t line, int32_t col)
{
    if (high <= low) fail(rt, "ValueError", "low >= high", line, col);
    uint64_t rng = (uint64_t)high - 1u - (uint64_t)low;
    if (!ndim) {
        bounded_fill(gen, (uint64_t)low, rng, out, 1);
        return;
    }
    kj_array *a = result(rt, KJ_DT_INT64, ndim, shape, line, col);
    bounded_fill(gen, (uint64_t)low, rng, (int64_t *)(void *)a->data, kj_array_size(a));
    kj_rt_error err = {0};
    kj_rt_result(rt, kj_array_retain(a), &err, out, ndim, line, col);
}

/* Generator.shuffle: Fisher-Yates from the end along axis 0, as legacy. */
void kj_gen_shuffle_rows(kj_pcg64 *g, const kj_array *h)
{
    if (h->ndim < 1 || kj_array_size(h) == 0) return;
    const kj_bitgen bg = kj_bitgen_pcg(g);
    for (int64_t i = h->shape[0] - 1; i >= 1; i--) {
        int64_t j = (int64_t)kj_smp_interval(&bg, (uint64_t)i);
        if (i != j) kj_random_swap_rows(h, i, j);
    }
}

void kj_rt_gen_shuffle(kj_rt *rt, void *gen, const void *a, int32_t ndim, int32_t dtype, int32_t line,
                       int32_t col)
{
    (void)rt, (void)line, (void)col;
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_gen_shuffle_rows(gen, &h);
}

/* Generator.permutation(n) (a != NULL: permutation(a), a shuffled copy). */
void kj_rt_gen_permutation(kj_rt *rt, void *gen, int64_t n, const void *a, int32_t ndim, int32_t dtype,
                           void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *r;
    if (a) {
        kj_array h;
        kj_rt_header(&h, a, ndim, dtype);
        r = kj_array_copy(&h, &err);
    } else {
        int64_t len = n > 0 ? n : 0;
        r = kj_array_empty(KJ_DT_INT64, 1, &len, &err);
        for (int64_t i = 0; r && i < len; i++) ((int64_t *)(void *)r->data)[i] = i;
        ndim = 1;
    }
    if (r) kj_gen_shuffle_rows(gen, r);
    kj_rt_result(rt, r, &err, out, ndim, line, col);
}
