/* SPDX-License-Identifier: BSD-2-Clause */
/* The Generator's choice, multinomial, dirichlet and permuted (NumPy 1.24's
 * _generator.pyx): choice and multinomial and dirichlet run random_pick.h's
 * shared code over the Generator's bit source; choice without replacement
 * and without p= is the Generator's own, Floyd's algorithm over a
 * linear-probing hash set, or for large samples of a large population a tail
 * shuffle of range(pop), each with Lemire's bounded draws. */
#include "random_pick.h"

#include "array.h"

#include <stdlib.h>
#include <string.h>

/* _shuffle_int: Fisher-Yates of data[first..n) from the end. */
static void shuffle_int(kj_pcg64 *g, int64_t n, int64_t first, int64_t *data)
{
    for (int64_t i = n - 1; i >= first; i--) {
        int64_t j = (int64_t)kj_gen_bounded(g, (uint64_t)i), t = data[j];
        data[j] = data[i];
        data[i] = t;
    }
}

static uint64_t gen_mask(uint64_t max)
{
    uint64_t mask = max;
    for (int s = 1; s < 64; s *= 2) mask |= mask >> s;
    return mask;
}

/* Floyd's algorithm: for j in [pop - count, pop) take a bounded draw of
 * [0, j], or j itself when the draw was taken before. */
static void floyd(kj_pcg64 *g, int64_t pop, int64_t count, int64_t *idx)
{
    uint64_t mask = gen_mask((uint64_t)(1.2 * (double)count)), set_size = mask + 1, none = UINT64_MAX;
    uint64_t *set = malloc((size_t)set_size * sizeof *set);
    if (!set) abort();
    for (uint64_t i = 0; i < set_size; i++) set[i] = none;
    for (int64_t j = pop - count; j < pop; j++) {
        uint64_t val = kj_gen_bounded(g, (uint64_t)j), loc = val & mask;
        while (set[loc] != none && set[loc] != val) loc = (loc + 1) & mask;
        if (set[loc] == none) { /* val not in the set */
            set[loc] = val;
            idx[j - pop + count] = (int64_t)val;
        } else { /* insert j instead */
            loc = (uint64_t)j & mask;
            while (set[loc] != none) loc = (loc + 1) & mask;
            set[loc] = (uint64_t)j;
            idx[j - pop + count] = j;
        }
    }
    free(set);
}

void kj_gen_choice_unique(kj_pcg64 *g, int64_t pop, int64_t count, bool shuffle, int64_t *idx)
{
    int64_t cutoff = shuffle ? 50 : 20; /* NumPy's heuristic */
    if (pop > 10000 && count > pop / cutoff) {
        int64_t *all = malloc((size_t)pop * sizeof *all);
        if (!all) abort();
        for (int64_t i = 0; i < pop; i++) all[i] = i;
        shuffle_int(g, pop, pop - count > 1 ? pop - count : 1, all);
        memcpy(idx, all + (pop - count), (size_t)count * sizeof *idx);
        free(all);
        return;
    }
    floyd(g, pop, count, idx);
    if (shuffle) shuffle_int(g, count, 1, idx);
}

void kj_rt_gen_choice(kj_rt *rt, void *gen, const void *a, int32_t a_ndim, int64_t pop, int32_t dtype,
                      int32_t replace, const void *p, int32_t pdtype, int32_t shuffle, int32_t ndim,
                      const int64_t *shape, void *out, int32_t line, int32_t col)
{
    const kj_choice_src src = {kj_bitgen_pcg(gen), gen, shuffle != 0};
    kj_choice_run(rt, &src, a, a_ndim, pop, dtype, replace, p, pdtype, ndim, shape, out, line, col);
}

int64_t kj_rt_gen_choice1(kj_rt *rt, void *gen, const void *a, int32_t a_ndim, int64_t pop, int32_t dtype,
                          int32_t replace, const void *p, int32_t pdtype, int32_t shuffle, int32_t line, int32_t col)
{
    const kj_choice_src src = {kj_bitgen_pcg(gen), gen, shuffle != 0};
    return kj_choice1_run(rt, &src, a, a_ndim, pop, dtype, replace, p, pdtype, line, col);
}

void kj_rt_gen_multinomial(kj_rt *rt, void *gen, int64_t n, const void *pvals, int32_t pdtype, int32_t ndim,
                           const int64_t *shape, void *out, int32_t line, int32_t col)
{
    const kj_bitgen bg = kj_bitgen_pcg(gen);
    kj_multinomial_run(rt, &bg, n, pvals, pdtype, ndim, shape, out, line, col);
}

void kj_rt_gen_dirichlet(kj_rt *rt, void *gen, const void *alpha, int32_t adtype, int32_t ndim,
                         const int64_t *shape, void *out, int32_t line, int32_t col)
{
    const kj_bitgen bg = kj_bitgen_pcg(gen);
    kj_dirichlet_run(rt, &bg, alpha, adtype, ndim, shape, out, line, col);
}
