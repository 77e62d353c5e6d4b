/* SPDX-License-Identifier: BSD-2-Clause */
/* The table of np.random's legacy distributions (builtins_random.h). */
#include "builtins_random.h"

#include "../runtime/random_dist.h"

#include <stddef.h>

const kj_rdist_spec *kj_rdist_spec_of(kj_builtin id)
{
    static const kj_rdist_spec std_normal = {KJ_RD_STD_NORMAL, 0, {0}, false, false},
                               normal = {KJ_RD_NORMAL, 2, {0.0, 1.0}, false, false},
                               uniform = {KJ_RD_UNIFORM, 2, {0.0, 1.0}, false, false},
                               std_exp = {KJ_RD_STD_EXP, 0, {0}, false, false},
                               expo = {KJ_RD_EXP, 1, {1.0}, false, false},
                               std_gamma = {KJ_RD_STD_GAMMA, 1, {0}, false, false},
                               gamma = {KJ_RD_GAMMA, 2, {0.0, 1.0}, false, false},
                               beta = {KJ_RD_BETA, 2, {0}, false, false},
                               chisq = {KJ_RD_CHISQUARE, 1, {0}, false, false},
                               lognormal = {KJ_RD_LOGNORMAL, 2, {0.0, 1.0}, false, false},
                               laplace = {KJ_RD_LAPLACE, 2, {0.0, 1.0}, false, false},
                               logistic = {KJ_RD_LOGISTIC, 2, {0.0, 1.0}, false, false},
                               gumbel = {KJ_RD_GUMBEL, 2, {0.0, 1.0}, false, false},
                               pareto = {KJ_RD_PARETO, 1, {0}, false, false},
                               weibull = {KJ_RD_WEIBULL, 1, {0}, false, false},
                               triangular = {KJ_RD_TRIANGULAR, 3, {0}, false, false},
                               std_t = {KJ_RD_STD_T, 1, {0}, false, false},
                               binomial = {KJ_RD_BINOMIAL, 2, {0}, true, true},
                               poisson = {KJ_RD_POISSON, 1, {1.0}, true, false},
                               geometric = {KJ_RD_GEOMETRIC, 1, {0}, true, false};
    switch (id) {
    case KJ_B_NP_RANDOM_STANDARD_NORMAL: return &std_normal;
    case KJ_B_NP_RANDOM_NORMAL: return &normal;
    case KJ_B_NP_RANDOM_UNIFORM: return &uniform;
    case KJ_B_NP_RANDOM_STANDARD_EXPONENTIAL: return &std_exp;
    case KJ_B_NP_RANDOM_EXPONENTIAL: return &expo;
    case KJ_B_NP_RANDOM_STANDARD_GAMMA: return &std_gamma;
    case KJ_B_NP_RANDOM_GAMMA: return &gamma;
    case KJ_B_NP_RANDOM_BETA: return &beta;
    case KJ_B_NP_RANDOM_CHISQUARE: return &chisq;
    case KJ_B_NP_RANDOM_LOGNORMAL: return &lognormal;
    case KJ_B_NP_RANDOM_LAPLACE: return &laplace;
    case KJ_B_NP_RANDOM_LOGISTIC: return &logistic;
    case KJ_B_NP_RANDOM_GUMBEL: return &gumbel;
    case KJ_B_NP_RANDOM_PARETO: return &pareto;
    case KJ_B_NP_RANDOM_WEIBULL: return &weibull;
    case KJ_B_NP_RANDOM_TRIANGULAR: return &triangular;
    case KJ_B_NP_RANDOM_STANDARD_T: return &std_t;
    case KJ_B_NP_RANDOM_BINOMIAL: return &binomial;
    case KJ_B_NP_RANDOM_POISSON: return &poisson;
    case KJ_B_NP_RANDOM_GEOMETRIC: return &geometric;
    default: return NULL;
    }
}
