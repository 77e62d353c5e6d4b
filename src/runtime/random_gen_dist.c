/* SPDX-License-Identifier: BSD-2-Clause */
/* The distributions of NumPy's Generator over PCG64 (random_gen_dist.h),
 * operation for operation as NumPy 1.24's
 * numpy/random/src/distributions/distributions.c (the version whose output
 * the tests take as the oracle; later NumPy changed wald, zipf, beta's
 * underflow branch, geometric's overflow and binomial's BTPE terms): the
 * ziggurat normal and exponential (ziggurat_tables.h); the samplers over
 * them are random_samplers.h's, shared with the legacy stream. */
#include "random_gen_dist.h"

#include "ziggurat_tables.h"

#include <math.h>
#include <stdlib.h>

static double next_double(kj_pcg64 *g) { return kj_pcg64_double(g); }

double kj_gen_std_exp(kj_pcg64 *g)
{
    for (;;) {
        uint64_t ri = kj_pcg64_next64(g) >> 3;
        uint8_t idx = ri & 0xFF;
        ri >>= 8;
        double x = (double)ri * kj_zig_we[idx];
        if (ri < kj_zig_ke[idx]) return x; /* 98.9% of draws */
        if (idx == 0) return kj_ziggurat_exp_r - log1p(-next_double(g));
        if ((kj_zig_fe[idx - 1] - kj_zig_fe[idx]) * next_double(g) + kj_zig_fe[idx] < exp(-x)) return x;
    }
}

/* the tail beyond the ziggurat's base strip */
static double normal_tail(kj_pcg64 *g, uint64_t rabs)
{
    for (;;) {
        double xx = -kj_ziggurat_nor_inv_r * log1p(-next_double(g)), yy = -log1p(-next_double(g));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 0x1) ? -(kj_ziggurat_nor_r + xx) : kj_ziggurat_nor_r + xx;
    }
}

double kj_gen_std_normal(kj_pcg64 *g)
{
    for (;;) {
        uint64_t r = kj_pcg64_next64(g);
        int idx = r & 0xff;
        r >>= 8;
        int sign = r & 0x1;
        uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
        double x = (double)rabs * kj_zig_wi[idx];
        if (sign & 0x1) x = -x;
        if (rabs < kj_zig_ki[idx]) return x; /* 99.3% of draws */
        if (idx == 0) return normal_tail(g, rabs);
        if (((kj_zig_fi[idx - 1] - kj_zig_fi[idx]) * next_double(g) + kj_zig_fi[idx]) < exp(-0.5 * x * x))
            return x;
    }
}

double kj_gen_draw_f(kj_pcg64 *g, kj_rdist d, const double p[3])
{
    const kj_bitgen bg = kj_bitgen_pcg(g);
    switch (d) {
    case KJ_RD_STD_NORMAL: return kj_gen_std_normal(g);
    case KJ_RD_NORMAL: return p[0] + p[1] * kj_gen_std_normal(g);
    case KJ_RD_STD_EXP: return kj_gen_std_exp(g);
    case KJ_RD_EXP: return p[0] * kj_gen_std_exp(g);
    case KJ_RD_STD_GAMMA: return kj_smp_std_gamma(&bg, p[0]);
    case KJ_RD_GAMMA: return p[1] * kj_smp_std_gamma(&bg, p[0]);
    case KJ_RD_BETA: return kj_smp_beta(&bg, p[0], p[1]);
    case KJ_RD_CHISQUARE: return kj_smp_chisquare(&bg, p[0]);
    case KJ_RD_LOGNORMAL: return exp(p[0] + p[1] * kj_gen_std_normal(g));
    case KJ_RD_LAPLACE: return kj_smp_laplace(&bg, p[0], p[1]);
    case KJ_RD_LOGISTIC: return kj_smp_logistic(&bg, p[0], p[1]);
    case KJ_RD_GUMBEL: return kj_smp_gumbel(&bg, p[0], p[1]);
    case KJ_RD_PARETO: return expm1(kj_gen_std_exp(g) / p[0]);
    case KJ_RD_WEIBULL: return p[0] == 0.0 ? 0.0 : pow(kj_gen_std_exp(g), 1. / p[0]);
    case KJ_RD_TRIANGULAR: return kj_smp_triangular(&bg, p[0], p[1], p[2]);
    case KJ_RD_STD_T: return kj_smp_std_t(&bg, p[0]);
    case KJ_RD_STD_CAUCHY: return kj_smp_cauchy(&bg);
    case KJ_RD_RAYLEIGH: return p[0] * sqrt(2.0 * kj_gen_std_exp(g));
    case KJ_RD_POWER: return pow(-expm1(-kj_gen_std_exp(g)), 1. / p[0]);
    case KJ_RD_WALD: return kj_smp_wald(&bg, p[0], p[1]);
    case KJ_RD_VONMISES: return kj_smp_vonmises(&bg, p[0], p[1]);
    case KJ_RD_F: return kj_smp_f(&bg, p[0], p[1]);
    case KJ_RD_NONCENTRAL_CHISQUARE: return kj_smp_noncentral_chisquare(&bg, p[0], p[1]);
    case KJ_RD_NONCENTRAL_F: {
        double t = kj_smp_noncentral_chisquare(&bg, p[0], p[2]) * p[1];
        return t / (kj_smp_chisquare(&bg, p[1]) * p[0]);
    }
    default: return 0.0;
    }
}
