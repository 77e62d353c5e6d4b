/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's legacy random stream (np.random.seed / rand / random / randint):
 * the MT19937 generator with NumPy's seeding, double and bounded-integer
 * algorithms, bit for bit. The state lives in a caller-owned struct (the
 * runtime context holds one); there is no global generator. */
#ifndef KJ_RANDOM_H
#define KJ_RANDOM_H

#include "array.h"

#include <stdbool.h>
#include <stdint.h>

#define KJ_MT19937_N 624

typedef struct kj_mt19937 {
    uint32_t key[KJ_MT19937_N];
    int pos;
    /* legacy_gauss's second polar-method value, kept for the next draw;
     * seeding drops it (RandomState._reset_gauss). */
    int has_gauss;
    double gauss;
} kj_mt19937;

/* np.random.seed(s) for an integer s: 0 <= s <= 2**32-1 (init_genrand);
 * anything else is NumPy's error "Seed must be between 0 and 2**32 - 1". */
bool kj_mt19937_seed(kj_mt19937 *st, int64_t seed, kj_rt_error *err);
/* np.random.seed([k0, k1, ...]): init_by_array; each key in [0, 2**32-1]. */
bool kj_mt19937_seed_array(kj_mt19937 *st, const int64_t *keys, int n, kj_rt_error *err);
/* Seed from the operating system's entropy (np.random.seed() / import time);
 * not reproducible, by design. */
void kj_mt19937_seed_entropy(kj_mt19937 *st);

/* Regenerate the 624 words (the "twist"); pos goes back to 0. */
void kj_mt19937_twist(kj_mt19937 *st);

/* The next word, tempered: inline, as the distributions draw millions. */
static inline uint32_t kj_mt19937_next32(kj_mt19937 *st)
{
    if (st->pos >= KJ_MT19937_N) kj_mt19937_twist(st);
    uint32_t y = st->key[st->pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint64_t kj_mt19937_next64(kj_mt19937 *st); /* (first << 32) | second */

/* random_sample: a 53-bit double in [0, 1): 27 high bits of one word and
 * 26 of the next. */
static inline double kj_mt19937_double(kj_mt19937 *st)
{
    int32_t a = (int32_t)(kj_mt19937_next32(st) >> 5), b = (int32_t)(kj_mt19937_next32(st) >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

/* np.random.rand(d0, ...) / np.random.random(size): fill n doubles. */
void kj_random_fill(kj_mt19937 *st, double *out, int64_t n);
/* np.random.randint(low, high, size) (dtype int64): n values in
 * [low, high); high <= low is NumPy's error "low >= high". Ranges that fit
 * 32 bits draw 32-bit words; masked rejection sampling as RandomState does. */
bool kj_random_randint(kj_mt19937 *st, int64_t low, int64_t high, int64_t *out, int64_t n,
                       kj_rt_error *err);

/* Array-returning forms used by host code: rand(shape) → float64 array,
 * randint(low, high, shape) → int64 array. */
kj_array *kj_random_rand_array(kj_mt19937 *st, int ndim, const int64_t *shape, kj_rt_error *err);
kj_array *kj_random_randint_array(kj_mt19937 *st, int64_t low, int64_t high, int ndim,
                                  const int64_t *shape, kj_rt_error *err);

#endif
