/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda.random's host side: create_xoroshiro128p_states and
 * init_xoroshiro128p_states. The states are filled on the host, as Numba
 * does (numba/cuda/random.py, init_xoroshiro128p_states_cpu): state 0 from
 * the seed by SplitMix64, advanced by `subsequence_start` jumps of 2**64
 * steps, each next state the one before it jumped once more. A state is
 * the pair (s0, s1) of uint64 in a row of an (n, 2) uint64 array; on the
 * cuda target lazy coherence uploads the array at its first launch. The
 * same generator on the device side is src/codegen/llvm_cuda_random.c. */
#include "rt_host.h"

#include "gpu.h"

static uint64_t rotl(uint64_t x, unsigned k) { return (x << k) | (x >> (64 - k)); }

/* xoroshiro128+: the next number, and the state advanced. */
static uint64_t next(uint64_t *s)
{
    uint64_t s0 = s[0], s1 = s[1], r = s0 + s1;
    s1 ^= s0;
    s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
    s[1] = rotl(s1, 36);
    return r;
}

/* Advance by 2**64 steps (the generator's jump polynomial). */
static void jump(uint64_t *s)
{
    static const uint64_t J[2] = {0xbeac0467eba5facbULL, 0xd86b048b86aa9922ULL};
    uint64_t a0 = 0, a1 = 0;
    for (int i = 0; i < 2; i++)
        for (unsigned b = 0; b < 64; b++) {
            if (J[i] & (1ULL << b)) {
                a0 ^= s[0];
                a1 ^= s[1];
            }
            next(s);
        }
    s[0] = a0;
    s[1] = a1;
}

/* SplitMix64 of the seed, in both halves (Numba's init_xoroshiro128p_state). */
static void seed_state(uint64_t *s, uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z = z ^ (z >> 31);
    s[0] = s[1] = z;
}

/* Fill n states whose rows are `row` bytes apart and whose halves `half`. */
static void fill(char *data, int64_t n, int64_t row, int64_t half, uint64_t seed, uint64_t subseq)
{
    if (n < 1) return;
    uint64_t s[2];
    seed_state(s, seed);
    for (uint64_t k = 0; k < subseq; k++) jump(s);
    for (int64_t i = 0; i < n; i++) {
        if (i > 0) jump(s);
        memcpy(data + i * row, &s[0], sizeof s[0]);
        memcpy(data + i * row + half, &s[1], sizeof s[1]);
    }
}

void kj_rt_xoro_create(kj_rt *rt, int64_t n, int64_t seed, int64_t subseq, void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *a = NULL;
    if (n < 0)
        kj_rt_errorf(&err, "ValueError", "create_xoroshiro128p_states: n must be non-negative, not %lld",
                     (long long)n);
    else if (subseq < 0)
        kj_rt_errorf(&err, "OverflowError", "can't convert negative subsequence_start %lld to uint64",
                     (long long)subseq);
    else if ((a = kj_array_zeros(KJ_DT_UINT64, 2, (const int64_t[2]){n, 2}, &err)))
        fill(a->data, n, a->strides[0], a->strides[1], (uint64_t)seed, (uint64_t)subseq);
    kj_rt_result(rt, a, &err, out, 2, line, col);
}

void kj_rt_xoro_init(kj_rt *rt, const void *states, int64_t seed, int64_t subseq, int32_t line, int32_t col)
{
    const kj_abi_array2 *d = states;
    kj_rt_error err = {0};
    if (d->shape[1] != 2)
        kj_rt_errorf(&err, "ValueError", "init_xoroshiro128p_states: the states array has %lld columns, not 2 "
                     "(s0, s1)", (long long)d->shape[1]);
    else if (subseq < 0)
        kj_rt_errorf(&err, "OverflowError", "can't convert negative subsequence_start %lld to uint64",
                     (long long)subseq);
    if (err.exc) kj_rt_raise_error(rt, &err, line, col);
    fill(d->data, d->shape[0], d->strides[0], d->strides[1], (uint64_t)seed, (uint64_t)subseq);
}
