/* SPDX-License-Identifier: BSD-2-Clause */
/* Python's `random` module as Numba compiles it (pyrandom.h). Each
 * algorithm is the one numba/cpython/randomimpl.py compiles (most "taken
 * from CPython" Lib/random.py), in the same order of draws. */
#include "pyrandom.h"

#include "random_dist.h"

#include <math.h>

void kj_pyrandom_seed(kj_mt19937 *st, int64_t seed)
{
    kj_rt_error err = {0};
    /* in range by construction: kj_mt19937_seed cannot fail here */
    (void)kj_mt19937_seed(st, (int64_t)(uint32_t)seed, &err);
}

/* The next k bits (1 <= k <= 64) as CPython's getrandbits: the high bits
 * of a word; above 32, the low word first, then the high one. */
static uint64_t next_bits(kj_mt19937 *st, int k)
{
    if (k <= 32) return kj_mt19937_next32(st) >> (32 - k);
    uint64_t low = kj_mt19937_next32(st);
    uint64_t high = kj_mt19937_next32(st) >> (64 - k);
    return low | high << 32;
}

bool kj_pyrandom_getrandbits(kj_mt19937 *st, int64_t k, uint64_t *out, kj_rt_error *err)
{
    if (k <= 0 || k > 64) return kj_rt_errorf(err, "OverflowError", "getrandbits() limited to 64 bits");
    *out = next_bits(st, (int)k);
    return true;
}

bool kj_pyrandom_randrange(kj_mt19937 *st, int64_t start, int64_t stop, int64_t step, int64_t *out,
                           kj_rt_error *err)
{
    if (step == 0) return kj_rt_errorf(err, "ValueError", "zero step for randrange()");
    /* Numba's count: C's truncating division, as its sdiv */
    int64_t n = (int64_t)((uint64_t)stop - (uint64_t)start);
    if (step < 0) n = (n + step + 1) / step;
    else if (step > 1) n = (n + step - 1) / step;
    if (n <= 0) return kj_rt_errorf(err, "ValueError", "empty range for randrange()");
    int k = 64 - __builtin_clzll((uint64_t)n); /* n.bit_length(): _randbelow_with_getrandbits */
    int64_t r;
    do r = (int64_t)next_bits(st, k);
    while (r >= n);
    *out = (int64_t)((uint64_t)start + (uint64_t)r * (uint64_t)step);
    return true;
}

void kj_pyrandom_shuffle(kj_mt19937 *st, const kj_array *h)
{
    if (h->ndim < 1) return;
    kj_rt_error err = {0};
    for (int64_t i = h->shape[0] - 1; i > 0; i--) {
        int64_t j = 0;
        (void)kj_pyrandom_randrange(st, 0, i + 1, 1, &j, &err); /* never empty */
        if (i != j) kj_random_swap_rows(h, i, j);
    }
}

/* Python's float `x % y` (the sign of y). */
static double pymod(double x, double y)
{
    double m = fmod(x, y);
    if (m != 0.0) {
        if ((y < 0) != (m < 0)) m += y;
    } else {
        m = copysign(0.0, y);
    }
    return m;
}

static double triangular(double u, double low, double high, double c)
{
    if (u > c) {
        u = 1.0 - u;
        c = 1.0 - c;
        double t = low;
        low = high;
        high = t;
    }
    return low + (high - low) * sqrt(u * c);
}

/* gammavariate: Cheng's algorithm above 1, an exponential at 1, Kennedy &
 * Gentle's GS below (CPython after its commit 63d1522: -log(1 - random())). */
static double gamma_draw(kj_mt19937 *st, double alpha, double beta)
{
    if (alpha > 1.0) {
        const double sg_magic = 1.0 + log(4.5);
        double ainv = sqrt(2.0 * alpha - 1.0), bbb = alpha - log(4.0), ccc = alpha + ainv;
        for (;;) {
            double u1 = kj_mt19937_double(st);
            if (!(1e-7 < u1 && u1 < .9999999)) continue;
            double u2 = 1.0 - kj_mt19937_double(st);
            double v = log(u1 / (1.0 - u1)) / ainv, x = alpha * exp(v);
            double z = u1 * u1 * u2, r = bbb + ccc * v - x;
            if (r + sg_magic - 4.5 * z >= 0.0 || r >= log(z)) return x * beta;
        }
    }
    if (alpha == 1.0) return -log(1.0 - kj_mt19937_double(st)) * beta;
    double x;
    for (;;) {
        double u = kj_mt19937_double(st), b = (M_E + alpha) / M_E, p = b * u;
        x = p <= 1.0 ? pow(p, 1.0 / alpha) : -log((b - p) / alpha);
        double u1 = kj_mt19937_double(st);
        if (p > 1.0 ? u1 <= pow(x, alpha - 1.0) : u1 <= exp(-x)) break;
    }
    return x * beta;
}

static bool gamma_checked(kj_mt19937 *st, double alpha, double beta, double *out, kj_rt_error *err)
{
    if (alpha <= 0.0 || beta <= 0.0)
        return kj_rt_errorf(err, "ValueError", "gammavariate: alpha and beta must be > 0.0");
    *out = gamma_draw(st, alpha, beta);
    return true;
}

/* vonmisesvariate: Fisher's algorithm, as CPython since 3.3. */
static double vonmises(kj_mt19937 *st, double mu, double kappa)
{
    if (kappa <= 1e-6) return 2.0 * M_PI * kj_mt19937_double(st);
    double s = 0.5 / kappa, r = s + sqrt(1.0 + s * s), z;
    for (;;) {
        double u1 = kj_mt19937_double(st);
        z = cos(M_PI * u1);
        double d = z / (r + z), u2 = kj_mt19937_double(st);
        if (u2 < 1.0 - d * d || u2 <= (1.0 - d) * exp(d)) break;
    }
    double q = 1.0 / r, f = (q + z) / (1.0 + q * z), u3 = kj_mt19937_double(st);
    return u3 > 0.5 ? pymod(mu + acos(f), 2.0 * M_PI) : pymod(mu - acos(f), 2.0 * M_PI);
}

bool kj_pyrandom_draw(kj_mt19937 *st, kj_pyrand d, const double p[3], double *out, kj_rt_error *err)
{
    switch (d) {
    case KJ_PR_RANDOM: *out = kj_mt19937_double(st); return true;
    case KJ_PR_UNIFORM: *out = p[0] + (p[1] - p[0]) * kj_mt19937_double(st); return true;
    case KJ_PR_GAUSS: *out = p[0] + p[1] * kj_rdist_gauss(st); return true;
    case KJ_PR_LOGNORM: *out = exp(p[0] + p[1] * kj_rdist_gauss(st)); return true;
    case KJ_PR_TRIANGULAR: *out = triangular(kj_mt19937_double(st), p[0], p[1], 0.5); return true;
    case KJ_PR_TRIANGULAR_MODE: {
        double u = kj_mt19937_double(st); /* drawn first, as Numba does, even when high == low */
        *out = p[1] == p[0] ? p[0] : triangular(u, p[0], p[1], (p[2] - p[0]) / (p[1] - p[0]));
        return true;
    }
    case KJ_PR_GAMMA: return gamma_checked(st, p[0], p[1], out, err);
    case KJ_PR_BETA: {
        double y = 0, y2 = 0;
        if (!gamma_checked(st, p[0], 1.0, &y, err)) return false;
        if (y == 0.0) {
            *out = 0.0;
            return true;
        }
        if (!gamma_checked(st, p[1], 1.0, &y2, err)) return false;
        *out = y / (y + y2);
        return true;
    }
    case KJ_PR_EXPO:
        if (p[0] == 0.0) break;
        *out = -log(1.0 - kj_mt19937_double(st)) / p[0];
        return true;
    case KJ_PR_PARETO:
        if (p[0] == 0.0) break;
        *out = 1.0 / pow(1.0 - kj_mt19937_double(st), 1.0 / p[0]);
        return true;
    case KJ_PR_WEIBULL: *out = p[0] * pow(-log(1.0 - kj_mt19937_double(st)), 1.0 / p[1]); return true;
    case KJ_PR_VONMISES: *out = vonmises(st, p[0], p[1]); return true;
    case KJ_PR__COUNT: return kj_rt_errorf(err, "SystemError", "unknown random distribution %d", (int)d);
    }
    /* expovariate(0.0) / paretovariate(0.0): Python's division */
    return kj_rt_errorf(err, "ZeroDivisionError", "float division by zero");
}
