/* SPDX-License-Identifier: BSD-2-Clause */
/* The np.random built-ins beyond seed/rand/random/randint that generated
 * code calls (rtfns.def): the legacy distributions (random_dist.c), with
 * mtrand.pyx's checks raised as run-time errors; shuffle, permutation and
 * choice over the same stream. */
#include "rt_host.h"

#include "array.h"
#include "random_dist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static kj_rdist dist_of(kj_rt *rt, int32_t d, int32_t line, int32_t col)
{
    if (d < 0 || d >= KJ_RD__COUNT) {
        kj_rt_error err = {0};
        kj_rt_errorf(&err, "SystemError", "unknown np.random distribution %d", (int)d);
        kj_rt_raise_error(rt, &err, line, col);
    }
    return (kj_rdist)d;
}

/* Check the parameters (raising NumPy's error) and draw n values. */
static void draw(kj_rt *rt, int32_t d, double a, double b, double c, void *out, int64_t n, int32_t line,
                 int32_t col)
{
    kj_rdist k = dist_of(rt, d, line, col);
    const double p[3] = {a, b, c};
    kj_rt_error err = {0};
    if (!kj_rdist_check(k, p, &err)) kj_rt_raise_error(rt, &err, line, col);
    kj_rdist_fill(kj_rt_rng(rt), k, p, out, n);
}

double kj_rt_rdist(kj_rt *rt, int32_t d, double a, double b, double c, int32_t line, int32_t col)
{
    double v = 0;
    draw(rt, d, a, b, c, &v, 1, line, col);
    return v;
}

int64_t kj_rt_rdist_i(kj_rt *rt, int32_t d, double a, double b, double c, int32_t line, int32_t col)
{
    int64_t v = 0;
    draw(rt, d, a, b, c, &v, 1, line, col);
    return v;
}

void kj_rt_rdist_array(kj_rt *rt, int32_t d, double a, double b, double c, int32_t ndim,
                       const int64_t *shape, void *out, int32_t line, int32_t col)
{
    kj_rdist k = dist_of(rt, d, line, col);
    kj_rt_error err = {0};
    kj_dtype dt = kj_rdist_is_int(k) ? KJ_DT_INT64 : KJ_DT_FLOAT64;
    /* the memory of a dropped result of this size first (kj_rt_spare_array):
     * a loop of draws then reuses two blocks, as NumPy's frees do, rather
     * than fault in fresh ones while the spare slots fill (docs/performance.md,
     * "Random draws") */
    kj_array *r = kj_rt_spare_array(rt, dt, ndim, shape);
    if (!r) r = kj_array_empty(dt, ndim, shape, &err);
    if (r) {
        kj_rt_own(rt, r); /* released with the run if the check raises */
        draw(rt, d, a, b, c, r->data, kj_array_size(r), line, col);
        kj_array_retain(r);
    }
    kj_rt_result(rt, r, &err, out, ndim, line, col);
}
