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
                               geometric = {KJ_RD_GEOMETRIC, 1, {0}, true, false},
                               cauchy = {KJ_RD_STD_CAUCHY, 0, {0}, false, false},
                               rayleigh = {KJ_RD_RAYLEIGH, 1, {1.0}, false, false},
                               power = {KJ_RD_POWER, 1, {0}, false, false},
                               wald = {KJ_RD_WALD, 2, {0}, false, false},
                               vonmises = {KJ_RD_VONMISES, 2, {0}, false, false},
                               f = {KJ_RD_F, 2, {0}, false, false},
                               ncchisq = {KJ_RD_NONCENTRAL_CHISQUARE, 2, {0}, false, false},
                               zipf = {KJ_RD_ZIPF, 1, {0}, true, false},
                               logseries = {KJ_RD_LOGSERIES, 1, {0}, true, false},
                               negbin = {KJ_RD_NEG_BINOMIAL, 2, {0}, true, false},
                               hypergeom = {KJ_RD_HYPERGEOMETRIC, 3, {0}, true, false};
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
    case KJ_B_NP_RANDOM_STANDARD_CAUCHY: return &cauchy;
    case KJ_B_NP_RANDOM_RAYLEIGH: return &rayleigh;
    case KJ_B_NP_RANDOM_POWER: return &power;
    case KJ_B_NP_RANDOM_WALD: return &wald;
    case KJ_B_NP_RANDOM_VONMISES: return &vonmises;
    case KJ_B_NP_RANDOM_F: return &f;
    case KJ_B_NP_RANDOM_NONCENTRAL_CHISQUARE: return &ncchisq;
    case KJ_B_NP_RANDOM_ZIPF: return &zipf;
    case KJ_B_NP_RANDOM_LOGSERIES: return &logseries;
    case KJ_B_NP_RANDOM_NEGATIVE_BINOMIAL: return &negbin;
    case KJ_B_NP_RANDOM_HYPERGEOMETRIC: return &hypergeom;
    default: return NULL;
    }
}

/* The Generator's distribution methods: the same kj_rdist codes, drawn by
 * random_gen_dist.c's algorithms; parameters after the receiver. */
const kj_rdist_spec *kj_gdist_spec_of(kj_builtin id)
{
    static const kj_rdist_spec specs[] = {
        [KJ_B_GEN_NORMAL - KJ_B_GEN_NORMAL] = {KJ_RD_NORMAL, 2, {0.0, 1.0}, false, false},
        [KJ_B_GEN_STANDARD_NORMAL - KJ_B_GEN_NORMAL] = {KJ_RD_STD_NORMAL, 0, {0}, false, false},
        [KJ_B_GEN_EXPONENTIAL - KJ_B_GEN_NORMAL] = {KJ_RD_EXP, 1, {1.0}, false, false},
        [KJ_B_GEN_STANDARD_EXPONENTIAL - KJ_B_GEN_NORMAL] = {KJ_RD_STD_EXP, 0, {0}, false, false},
        [KJ_B_GEN_GAMMA - KJ_B_GEN_NORMAL] = {KJ_RD_GAMMA, 2, {0.0, 1.0}, false, false},
        [KJ_B_GEN_STANDARD_GAMMA - KJ_B_GEN_NORMAL] = {KJ_RD_STD_GAMMA, 1, {0}, false, false},
        [KJ_B_GEN_BETA - KJ_B_GEN_NORMAL] = {KJ_RD_BETA, 2, {0}, false, false},
        [KJ_B_GEN_CHISQUARE - KJ_B_GEN_NORMAL] = {KJ_RD_CHISQUARE, 1, {0}, false, false},
        [KJ_B_GEN_LOGNORMAL - KJ_B_GEN_NORMAL] = {KJ_RD_LOGNORMAL, 2, {0.0, 1.0}, false, false},
        [KJ_B_GEN_LAPLACE - KJ_B_GEN_NORMAL] = {KJ_RD_LAPLACE, 2, {0.0, 1.0}, false, false},
        [KJ_B_GEN_LOGISTIC - KJ_B_GEN_NORMAL] = {KJ_RD_LOGISTIC, 2, {0.0, 1.0}, false, false},
        [KJ_B_GEN_GUMBEL - KJ_B_GEN_NORMAL] = {KJ_RD_GUMBEL, 2, {0.0, 1.0}, false, false},
        [KJ_B_GEN_PARETO - KJ_B_GEN_NORMAL] = {KJ_RD_PARETO, 1, {0}, false, false},
        [KJ_B_GEN_WEIBULL - KJ_B_GEN_NORMAL] = {KJ_RD_WEIBULL, 1, {0}, false, false},
        [KJ_B_GEN_POWER - KJ_B_GEN_NORMAL] = {KJ_RD_POWER, 1, {0}, false, false},
        [KJ_B_GEN_RAYLEIGH - KJ_B_GEN_NORMAL] = {KJ_RD_RAYLEIGH, 1, {1.0}, false, false},
        [KJ_B_GEN_STANDARD_CAUCHY - KJ_B_GEN_NORMAL] = {KJ_RD_STD_CAUCHY, 0, {0}, false, false},
        [KJ_B_GEN_STANDARD_T - KJ_B_GEN_NORMAL] = {KJ_RD_STD_T, 1, {0}, false, false},
        [KJ_B_GEN_TRIANGULAR - KJ_B_GEN_NORMAL] = {KJ_RD_TRIANGULAR, 3, {0}, false, false},
        [KJ_B_GEN_WALD - KJ_B_GEN_NORMAL] = {KJ_RD_WALD, 2, {0}, false, false},
        [KJ_B_GEN_F - KJ_B_GEN_NORMAL] = {KJ_RD_F, 2, {0}, false, false},
        [KJ_B_GEN_NONCENTRAL_CHISQUARE - KJ_B_GEN_NORMAL] = {KJ_RD_NONCENTRAL_CHISQUARE, 2, {0}, false, false},
        [KJ_B_GEN_NONCENTRAL_F - KJ_B_GEN_NORMAL] = {KJ_RD_NONCENTRAL_F, 3, {0}, false, false},
        [KJ_B_GEN_POISSON - KJ_B_GEN_NORMAL] = {KJ_RD_POISSON, 1, {1.0}, true, false},
        [KJ_B_GEN_BINOMIAL - KJ_B_GEN_NORMAL] = {KJ_RD_BINOMIAL, 2, {0}, true, true},
        [KJ_B_GEN_GEOMETRIC - KJ_B_GEN_NORMAL] = {KJ_RD_GEOMETRIC, 1, {0}, true, false},
        [KJ_B_GEN_ZIPF - KJ_B_GEN_NORMAL] = {KJ_RD_ZIPF, 1, {0}, true, false},
        [KJ_B_GEN_LOGSERIES - KJ_B_GEN_NORMAL] = {KJ_RD_LOGSERIES, 1, {0}, true, false},
        [KJ_B_GEN_NEGATIVE_BINOMIAL - KJ_B_GEN_NORMAL] = {KJ_RD_NEG_BINOMIAL, 2, {0}, true, false},
        [KJ_B_GEN_VONMISES - KJ_B_GEN_NORMAL] = {KJ_RD_VONMISES, 2, {0}, false, false},
        [KJ_B_GEN_HYPERGEOMETRIC - KJ_B_GEN_NORMAL] = {KJ_RD_HYPERGEOMETRIC, 3, {0}, true, false},
    };
    if (id < KJ_B_GEN_NORMAL || id > KJ_B_GEN_HYPERGEOMETRIC) return NULL;
    return &specs[id - KJ_B_GEN_NORMAL];
}
