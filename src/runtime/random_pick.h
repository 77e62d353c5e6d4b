/* SPDX-License-Identifier: BSD-2-Clause */
/* choice, multinomial and dirichlet written once for both streams
 * (random_pick.c, random_dirichlet.c): np.random's legacy ones
 * (kj_rt_choice, ...) and the Generator's (random_gen_pick.c) differ in
 * their bit source, a few messages and, for choice without replacement and
 * dirichlet of small alphas, their algorithm. */
#ifndef KJ_RANDOM_PICK_H
#define KJ_RANDOM_PICK_H

#include "rt_host.h"

#include "random_gen_dist.h"

typedef struct kj_choice_src {
    kj_bitgen bg;
    kj_pcg64 *gen; /* NULL: the legacy stream (mtrand's algorithms and messages) */
    bool shuffle;  /* Generator.choice's shuffle= */
} kj_choice_src;

void kj_choice_run(kj_rt *rt, const kj_choice_src *src, const void *a, int32_t a_ndim, int64_t pop, int32_t dtype,
                   int32_t replace, const void *p, int32_t pdtype, int32_t ndim, const int64_t *shape, void *out,
                   int32_t line, int32_t col);
/* choice without size=: one element as int64 bits (see kj_rt_choice1). */
int64_t kj_choice1_run(kj_rt *rt, const kj_choice_src *src, const void *a, int32_t a_ndim, int64_t pop,
                       int32_t dtype, int32_t replace, const void *p, int32_t pdtype, int32_t line, int32_t col);
/* multinomial(n, pvals, size): shape is size's then len(pvals). */
void kj_multinomial_run(kj_rt *rt, const kj_bitgen *bg, int64_t n, const void *pvals, int32_t pdtype, int32_t ndim,
                        const int64_t *shape, void *out, int32_t line, int32_t col);
/* dirichlet(alpha, size): float64 of shape size + (len(alpha),). */
void kj_dirichlet_run(kj_rt *rt, const kj_bitgen *bg, const void *alpha, int32_t adtype, int32_t ndim,
                      const int64_t *shape, void *out, int32_t line, int32_t col);
/* Generator.choice(pop, count, replace=False) without p: count distinct
 * indices into idx (Floyd's algorithm, or a tail shuffle of range(pop)). */
void kj_gen_choice_unique(kj_pcg64 *g, int64_t pop, int64_t count, bool shuffle, int64_t *idx);

#endif
