/* SPDX-License-Identifier: BSD-2-Clause */
/* The distributions of NumPy's Generator over PCG64 (pcg64.h), bit for bit
 * with NumPy 1.24's distributions.c: the float ones (random_gen_dist.c) and
 * the integer ones (random_gen_disc.c), named by the kj_rdist codes of the
 * legacy ones (random_dist.h), with the same parameters. */
#ifndef KJ_RANDOM_GEN_DIST_H
#define KJ_RANDOM_GEN_DIST_H

#include "pcg64.h"
#include "random_dist.h"
#include "random_samplers.h"

double kj_gen_std_normal(kj_pcg64 *g); /* the ziggurat */
double kj_gen_std_exp(kj_pcg64 *g);    /* the ziggurat */
/* One draw of float distribution d / integer distribution d. */
double kj_gen_draw_f(kj_pcg64 *g, kj_rdist d, const double p[3]);
int64_t kj_gen_draw_i(kj_pcg64 *g, kj_rdist d, const double p[3]);
/* _generator.pyx's checks of the parameters, with its messages. */
bool kj_gen_check(kj_rdist d, const double p[3], kj_rt_error *err);

/* Generator.hypergeometric (random_gen_hyp.c), parameters checked. */
int64_t kj_gen_hypergeometric(kj_pcg64 *g, int64_t good, int64_t bad, int64_t sample);
/* Generator.shuffle's Fisher-Yates along axis 0 (random_gen.c). */
void kj_gen_shuffle_rows(kj_pcg64 *g, const kj_array *h);
/* Lemire's bounded draw of [0, rng] (random_bounded_uint64 unmasked; random_gen.c). */
uint64_t kj_gen_bounded(kj_pcg64 *g, uint64_t rng);

#endif
