/* SPDX-License-Identifier: BSD-2-Clause */
/* np.random.shuffle, permutation, choice and multinomial over the legacy
 * stream, as mtrand.pyx does them (the same draws in the same order, the
 * same checks and messages); choice and multinomial also serve the
 * Generator's (random_pick.h, random_gen_pick.c) over its bit source. */
#include "rt_host.h"

#include "array.h"
#include "random_dist.h"
#include "random_pick.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void fail(kj_rt *rt, const char *exc, const char *msg, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_rt_errorf(&err, exc, "%s", msg);
    kj_rt_raise_error(rt, &err, line, col);
}

void kj_random_swap_rows(const kj_array *h, int64_t i, int64_t j)
{
    size_t sz = kj_dtype_size(h->dtype);
    int64_t inner = 1, idx[KJ_MAX_DIMS] = {0};
    for (int d = 1; d < h->ndim; d++) inner *= h->shape[d];
    for (int64_t e = 0; e < inner; e++) {
        int64_t off = 0;
        for (int d = 1; d < h->ndim; d++) off += idx[d] * h->strides[d];
        char *x = h->data + i * h->strides[0] + off, *y = h->data + j * h->strides[0] + off, t[16];
        memcpy(t, x, sz);
        memcpy(x, y, sz);
        memcpy(y, t, sz);
        for (int d = h->ndim - 1; d >= 1 && ++idx[d] == h->shape[d]; d--) idx[d] = 0;
    }
}

/* shuffle: Fisher-Yates from the end, j = random_interval(i). */
static void shuffle_rows(kj_mt19937 *st, const kj_array *h)
{
    if (h->ndim < 1) return;
    const kj_bitgen bg = kj_bitgen_mt(st);
    for (int64_t i = h->shape[0] - 1; i >= 1; i--) {
        int64_t j = (int64_t)kj_smp_interval(&bg, (uint64_t)i);
        if (i != j) kj_random_swap_rows(h, i, j);
    }
}

void kj_rt_shuffle(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t line, int32_t col)
{
    (void)line, (void)col;
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    if (kj_array_size(&h) > 0) shuffle_rows(kj_rt_rng(rt), &h);
}

void kj_rt_permutation_n(kj_rt *rt, int64_t n, void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    int64_t len = n > 0 ? n : 0; /* np.arange(n) of a negative n is empty */
    kj_array *r = kj_array_empty(KJ_DT_INT64, 1, &len, &err);
    if (r) {
        int64_t *v = (int64_t *)(void *)r->data;
        for (int64_t i = 0; i < len; i++) v[i] = i;
        shuffle_rows(kj_rt_rng(rt), r);
    }
    kj_rt_result(rt, r, &err, out, 1, line, col);
}

void kj_rt_permutation(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, void *out, int32_t line,
                       int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    kj_array *r = kj_array_copy(&h, &err);
    if (r && kj_array_size(r) > 0) shuffle_rows(kj_rt_rng(rt), r);
    kj_rt_result(rt, r, &err, out, ndim, line, col);
}

/* mtrand's kahan_sum: compensated, from darr[0]. */
static double kahan_sum(const double *x, int64_t n)
{
    if (n <= 0) return 0.0;
    double sum = x[0], c = 0.0;
    for (int64_t i = 1; i < n; i++) {
        double y = x[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

/* A 1-D operand (p=, pvals) as a fresh contiguous float64 array, owned by
 * the run. */
static double *as_f64(kj_rt *rt, const void *p, int32_t dtype, int64_t *len, int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, p, 1, dtype);
    kj_rt_error err = {0};
    kj_array *c = kj_array_astype(&h, KJ_DT_FLOAT64, &err);
    if (!c) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, c);
    *len = c->shape[0];
    return (double *)(void *)c->data;
}

/* The index of u in the cumulative distribution (searchsorted, side='right'). */
static int64_t search_right(const double *cdf, int64_t n, double u)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] <= u) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* cdf = cumsum(p); cdf /= cdf[-1] */
static void make_cdf(const double *p, double *cdf, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) cdf[i] = s += p[i];
    double last = cdf[n - 1];
    for (int64_t i = 0; i < n; i++) cdf[i] /= last;
}

typedef struct {
    int64_t pop;
    bool replace;
    double *p; /* NULL: uniform */
    int64_t count;
    const kj_choice_src *src;
} choice_req;

/* mtrand's messages, and _generator.pyx's where they differ. */
enum { M_POP, M_EMPTY, M_PLEN, M_LARGER, M_NEG };
static const char *msg(const choice_req *q, int m)
{
    static const char *legacy[] = {"a must be greater than 0 unless no samples are taken",
                                   "'a' cannot be empty unless no samples are taken", "'a' and 'p' must have same size",
                                   "Cannot take a larger sample than population when 'replace=False'",
                                   "Negative dimensions are not allowed"};
    static const char *gen[] = {"a must be a positive integer unless no samples are taken",
                                "a cannot be empty unless no samples are taken", "a and p must have same size",
                                "Cannot take a larger sample than population when replace is False",
                                "negative dimensions are not allowed"};
    return (q->src->gen ? gen : legacy)[m];
}

static void check_p(kj_rt *rt, const choice_req *q, int64_t plen, int32_t line, int32_t col)
{
    if (plen != q->pop) fail(rt, "ValueError", msg(q, M_PLEN), line, col);
    double s = kahan_sum(q->p, plen);
    if (isnan(s)) fail(rt, "ValueError", "probabilities contain NaN", line, col);
    for (int64_t i = 0; i < plen; i++)
        if (q->p[i] < 0) fail(rt, "ValueError", "probabilities are not non-negative", line, col);
    if (fabs(s - 1.) > 1.4901161193847656e-08) /* sqrt(finfo(float64).eps) */
        fail(rt, "ValueError", "probabilities do not sum to 1", line, col);
}

/* replace=False with p: draw batches of uniforms, keeping each new index at
 * its first occurrence and zeroing the found ones' probabilities. */
static void choice_unique_p(kj_rt *rt, const choice_req *q, int64_t *idx, int32_t line, int32_t col)
{
    int64_t nz = 0;
    for (int64_t i = 0; i < q->pop; i++) nz += q->p[i] > 0;
    if (nz < q->count) fail(rt, "ValueError", "Fewer non-zero entries in p than size", line, col);
    double *cdf = malloc((size_t)q->pop * sizeof *cdf), *u = malloc((size_t)q->count * sizeof *u);
    char *seen = calloc((size_t)q->pop, 1);
    if (!cdf || !u || !seen) abort();
    for (int64_t n = 0; n < q->count;) {
        int64_t m = q->count - n;
        for (int64_t i = 0; i < m; i++) u[i] = kj_bg_double(&q->src->bg);
        for (int64_t i = 0; i < n; i++) q->p[idx[i]] = 0;
        make_cdf(q->p, cdf, q->pop);
        memset(seen, 0, (size_t)q->pop);
        int64_t found = n;
        for (int64_t i = 0; i < m; i++) {
            int64_t k = search_right(cdf, q->pop, u[i]);
            if (!seen[k]) seen[k] = 1, idx[found++] = k;
        }
        n = found;
    }
    free(cdf), free(u), free(seen);
}

static void choice_indices(kj_rt *rt, const choice_req *q, int64_t *idx, int32_t line, int32_t col)
{
    const kj_bitgen *bg = &q->src->bg;
    if (q->replace && q->p) {
        double *cdf = malloc((size_t)q->pop * sizeof *cdf);
        if (!cdf) abort();
        make_cdf(q->p, cdf, q->pop);
        for (int64_t i = 0; i < q->count; i++) idx[i] = search_right(cdf, q->pop, kj_bg_double(bg));
        free(cdf);
    } else if (q->replace && q->src->gen) { /* integers(0, pop) */
        for (int64_t i = 0; i < q->count; i++) idx[i] = (int64_t)kj_gen_bounded(q->src->gen, (uint64_t)q->pop - 1);
    } else if (q->replace) {
        kj_mt19937 *st = kj_rt_rng(rt);
        kj_rt_error err = {0};
        if (q->count > 0 && !kj_random_randint(st, 0, q->pop, idx, q->count, &err))
            kj_rt_raise_error(rt, &err, line, col);
    } else if (q->count > q->pop) {
        fail(rt, "ValueError", msg(q, M_LARGER), line, col);
    } else if (q->src->gen && q->count < 0) {
        fail(rt, "ValueError", msg(q, M_NEG), line, col);
    } else if (q->p) {
        choice_unique_p(rt, q, idx, line, col);
    } else if (q->src->gen) {
        kj_gen_choice_unique(q->src->gen, q->pop, q->count, q->src->shuffle, idx);
    } else { /* permutation(pop)[:size] */
        int64_t *perm = malloc((size_t)(q->pop > 0 ? q->pop : 1) * sizeof *perm);
        if (!perm) abort();
        for (int64_t i = 0; i < q->pop; i++) perm[i] = i;
        for (int64_t i = q->pop - 1; i >= 1; i--) {
            int64_t j = (int64_t)kj_smp_interval(bg, (uint64_t)i), t = perm[i];
            perm[i] = perm[j], perm[j] = t;
        }
        memcpy(idx, perm, (size_t)q->count * sizeof *idx);
        free(perm);
    }
}

/* The population and p= checks of choice, in mtrand's order. */
static void choice_setup(kj_rt *rt, choice_req *q, const kj_array *a, int64_t pop, const void *p,
                         int32_t pdtype, int32_t line, int32_t col)
{
    if (!a && pop <= 0 && q->count != 0)
        fail(rt, "ValueError", msg(q, M_POP), line, col);
    if (a) {
        pop = a->shape[0];
        if (pop == 0 && q->count != 0) fail(rt, "ValueError", msg(q, M_EMPTY), line, col);
    }
    q->pop = pop;
    q->p = NULL;
    if (p) {
        int64_t plen = 0;
        q->p = as_f64(rt, p, pdtype, &plen, line, col);
        check_p(rt, q, plen, line, col);
    }
}

/* choice(a, size, replace, p) from src's stream: a_ndim 0 means the
 * population is range(pop); else a is a 1-D array of dtype. p is NULL or a
 * 1-D array of pdtype. */
void kj_choice_run(kj_rt *rt, const kj_choice_src *src, const void *a, int32_t a_ndim, int64_t pop, int32_t dtype,
                   int32_t replace, const void *p, int32_t pdtype, int32_t ndim, const int64_t *shape, void *out,
                   int32_t line, int32_t col)
{
    kj_array h;
    if (a_ndim) kj_rt_header(&h, a, 1, dtype);
    choice_req q = {.replace = replace != 0, .count = 1, .src = src};
    for (int d = 0; d < ndim; d++) q.count *= shape[d];
    if (q.count < 0 && !replace && !src->gen) fail(rt, "ValueError", msg(&q, M_NEG), line, col);
    choice_setup(rt, &q, a_ndim ? &h : NULL, pop, p, pdtype, line, col);
    kj_rt_error err = {0};
    kj_array *idx = kj_array_empty(KJ_DT_INT64, ndim, shape, &err);
    if (!idx) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, idx);
    int64_t *iv = (int64_t *)(void *)idx->data;
    choice_indices(rt, &q, iv, line, col);
    if (!a_ndim) {
        kj_rt_result(rt, kj_array_retain(idx), &err, out, ndim, line, col);
        return;
    }
    kj_array *r = kj_array_empty(h.dtype, ndim, shape, &err);
    if (r) {
        size_t sz = kj_dtype_size(h.dtype);
        for (int64_t i = 0; i < q.count; i++) memcpy(r->data + (size_t)i * sz, h.data + iv[i] * h.strides[0], sz);
    }
    kj_rt_result(rt, r, &err, out, ndim, line, col);
}

/* choice without size=: one element, as int64 bits (an integer or bool
 * sign-extended; a float64's or float32's own bits). */
int64_t kj_choice1_run(kj_rt *rt, const kj_choice_src *src, const void *a, int32_t a_ndim, int64_t pop,
                       int32_t dtype, int32_t replace, const void *p, int32_t pdtype, int32_t line, int32_t col)
{
    kj_array h;
    if (a_ndim) kj_rt_header(&h, a, 1, dtype);
    choice_req q = {.replace = replace != 0, .count = 1, .src = src};
    if (!a_ndim && pop <= 0) fail(rt, "ValueError", msg(&q, M_POP), line, col);
    choice_setup(rt, &q, a_ndim ? &h : NULL, pop, p, pdtype, line, col);
    int64_t i = 0;
    choice_indices(rt, &q, &i, line, col);
    if (!a_ndim) return i;
    const char *e = h.data + i * h.strides[0];
    if (h.dtype == KJ_DT_FLOAT64) {
        int64_t bits;
        memcpy(&bits, e, sizeof bits);
        return bits;
    }
    if (h.dtype == KJ_DT_FLOAT32) {
        int32_t bits;
        memcpy(&bits, e, sizeof bits);
        return bits;
    }
    return kj_array_get_i64(&h, &i);
}

void kj_rt_choice(kj_rt *rt, const void *a, int32_t a_ndim, int64_t pop, int32_t dtype, int32_t replace,
                  const void *p, int32_t pdtype, int32_t ndim, const int64_t *shape, void *out, int32_t line,
                  int32_t col)
{
    const kj_choice_src src = {kj_bitgen_mt(kj_rt_rng(rt)), NULL, false};
    kj_choice_run(rt, &src, a, a_ndim, pop, dtype, replace, p, pdtype, ndim, shape, out, line, col);
}

int64_t kj_rt_choice1(kj_rt *rt, const void *a, int32_t a_ndim, int64_t pop, int32_t dtype, int32_t replace,
                      const void *p, int32_t pdtype, int32_t line, int32_t col)
{
    const kj_choice_src src = {kj_bitgen_mt(kj_rt_rng(rt)), NULL, false};
    return kj_choice1_run(rt, &src, a, a_ndim, pop, dtype, replace, p, pdtype, line, col);
}

/* multinomial(n, pvals, size): shape is size's then len(pvals). */
void kj_multinomial_run(kj_rt *rt, const kj_bitgen *bg, int64_t n, const void *pvals, int32_t pdtype, int32_t ndim,
                        const int64_t *shape, void *out, int32_t line, int32_t col)
{
    int64_t d = 0;
    double *p = as_f64(rt, pvals, pdtype, &d, line, col);
    for (int64_t i = 0; i < d; i++)
        if (!(p[i] >= 0) || !(p[i] <= 1))
            fail(rt, "ValueError", "pvals < 0, pvals > 1 or pvals contains NaNs", line, col);
    if (d && kahan_sum(p, d - 1) > (1.0 + 1e-12)) fail(rt, "ValueError", "sum(pvals[:-1]) > 1.0", line, col);
    int64_t full[KJ_MAX_DIMS];
    for (int k = 0; k < ndim - 1; k++) full[k] = shape[k]; /* shape is NULL without size= */
    full[ndim - 1] = d;
    kj_rt_error err = {0};
    kj_array *r = kj_array_zeros(KJ_DT_INT64, ndim, full, &err);
    if (!r) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, r);
    if (n < 0) fail(rt, "ValueError", "n < 0", line, col);
    int64_t *m = (int64_t *)(void *)r->data, niter = d ? kj_array_size(r) / d : 0;
    for (int64_t it = 0; it < niter; it++, m += d) kj_smp_multinomial(bg, n, m, p, d);
    kj_rt_result(rt, kj_array_retain(r), &err, out, ndim, line, col);
}

void kj_rt_multinomial(kj_rt *rt, int64_t n, const void *pvals, int32_t pdtype, int32_t ndim, const int64_t *shape,
                       void *out, int32_t line, int32_t col)
{
    const kj_bitgen bg = kj_bitgen_mt(kj_rt_rng(rt));
    kj_multinomial_run(rt, &bg, n, pvals, pdtype, ndim, shape, out, line, col);
}
