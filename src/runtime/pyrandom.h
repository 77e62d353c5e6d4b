/* SPDX-License-Identifier: BSD-2-Clause */
/* Python's `random` module as Numba compiles it (numba/cpython/randomimpl.py):
 * its own MT19937 stream (kj_rt.pyrng), apart from np.random's, seeded from
 * OS entropy until random.seed(n), which seeds it as Numba does: n as a
 * uint32 through init_genrand (NumPy's integer seeding, not CPython's
 * init_by_array), so that a seeded @jit function prints what Numba prints.
 * random()/uniform() draw NumPy's 53-bit double; gauss() and normalvariate()
 * are both the polar method with its cached second value (Numba's, not
 * CPython's); randrange()/getrandbits() take the high bits of each word as
 * CPython does; the other distributions are CPython's algorithms over that
 * random(). The distribution codes are the contract with generated code. */
#ifndef KJ_PYRANDOM_H
#define KJ_PYRANDOM_H

#include "random.h"

#include <stdint.h>

typedef enum {
    KJ_PR_RANDOM,          /* random() */
    KJ_PR_UNIFORM,         /* uniform(a, b) */
    KJ_PR_GAUSS,           /* gauss(mu, sigma) and normalvariate(mu, sigma) */
    KJ_PR_TRIANGULAR,      /* triangular(low, high): mode in the middle */
    KJ_PR_TRIANGULAR_MODE, /* triangular(low, high, mode) */
    KJ_PR_GAMMA,           /* gammavariate(alpha, beta) */
    KJ_PR_BETA,            /* betavariate(alpha, beta) */
    KJ_PR_EXPO,            /* expovariate(lambd) */
    KJ_PR_LOGNORM,         /* lognormvariate(mu, sigma) */
    KJ_PR_PARETO,          /* paretovariate(alpha) */
    KJ_PR_WEIBULL,         /* weibullvariate(alpha, beta) */
    KJ_PR_VONMISES,        /* vonmisesvariate(mu, kappa) */
    KJ_PR__COUNT
} kj_pyrand;

/* random.seed(n): n taken modulo 2**32, as Numba's uint32 argument. */
void kj_pyrandom_seed(kj_mt19937 *st, int64_t seed);
/* One draw of distribution d with parameters p; false (and err set, a
 * ValueError) for gammavariate's/betavariate's parameters <= 0. */
bool kj_pyrandom_draw(kj_mt19937 *st, kj_pyrand d, const double p[3], double *out, kj_rt_error *err);
/* getrandbits(k), 1 <= k <= 64 (else OverflowError, Numba's limit). */
bool kj_pyrandom_getrandbits(kj_mt19937 *st, int64_t k, uint64_t *out, kj_rt_error *err);
/* randrange(start, stop, step) (randint(a, b) is randrange(a, b + 1, 1)):
 * ValueError for an empty range or a zero step. */
bool kj_pyrandom_randrange(kj_mt19937 *st, int64_t start, int64_t stop, int64_t step, int64_t *out,
                           kj_rt_error *err);
/* shuffle(x) of an array in place: Fisher-Yates from the end with
 * j = randrange(i + 1), rows swapped along the first axis. */
void kj_pyrandom_shuffle(kj_mt19937 *st, const kj_array *h);

#endif
