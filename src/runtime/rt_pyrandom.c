/* SPDX-License-Identifier: BSD-2-Clause */
/* The `random` module's entry points for generated code (rtfns.def) over
 * the context's own stream rt->pyrng (pyrandom.h): seeded from OS entropy
 * at first use, as Numba seeds each thread's state; a worker of a parallel
 * loop has its own. */
#include "rt_host.h"

#include "array.h"
#include "pyrandom.h"

static kj_mt19937 *pyrng(kj_rt *rt)
{
    if (!rt->pyrng_seeded) {
        kj_mt19937_seed_entropy(&rt->pyrng);
        rt->pyrng_seeded = true;
    }
    return &rt->pyrng;
}

void kj_rt_pyseed(kj_rt *rt, int64_t seed)
{
    kj_pyrandom_seed(&rt->pyrng, seed);
    rt->pyrng_seeded = true;
}

double kj_rt_pyrand(kj_rt *rt, int32_t d, double a, double b, double c, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    const double p[3] = {a, b, c};
    double v = 0;
    if (d < 0 || d >= KJ_PR__COUNT) d = KJ_PR__COUNT; /* kj_pyrandom_draw's SystemError */
    if (!kj_pyrandom_draw(pyrng(rt), (kj_pyrand)d, p, &v, &err)) kj_rt_raise_error(rt, &err, line, col);
    return v;
}

int64_t kj_rt_pyrandrange(kj_rt *rt, int64_t start, int64_t stop, int64_t step, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    int64_t v = 0;
    if (!kj_pyrandom_randrange(pyrng(rt), start, stop, step, &v, &err)) kj_rt_raise_error(rt, &err, line, col);
    return v;
}

int64_t kj_rt_pygetrandbits(kj_rt *rt, int64_t k, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    uint64_t v = 0;
    if (!kj_pyrandom_getrandbits(pyrng(rt), k, &v, &err)) kj_rt_raise_error(rt, &err, line, col);
    return (int64_t)v; /* uint64 bits */
}

void kj_rt_pyshuffle(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    if (kj_array_size(&h) > 0) kj_pyrandom_shuffle(pyrng(rt), &h);
}
