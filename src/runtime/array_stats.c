/* SPDX-License-Identifier: BSD-2-Clause */
/* np.bincount, np.diff, np.digitize, np.histogram, the nan* reductions and
 * np.ptp (array_sort.h), each as NumPy 1.24 computes it: the nan forms
 * replace NaN by the operation's identity and reuse the whole-array
 * reductions (NumPy's pairwise sums, bit for bit). */
#include "array_sort.h"
#include "array_int.h"
#include "format.h"
#include "../util/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static kj_array *oom(kj_rt_error *err)
{
    kj_rt_errorf(err, "MemoryError", "Unable to allocate the result");
    return NULL;
}

static const double *f64_data(const kj_array *a) { return (const double *)(const void *)a->data; }

/* ---- bincount, diff, digitize ---- */

kj_array *kj_array_bincount(const kj_array *x, const kj_array *w, int64_t minlength, kj_rt_error *err)
{
    if (minlength < 0) return kj_rt_errorf(err, "ValueError", "'minlength' must not be negative"), NULL;
    kj_array *xi = kj_array_astype(x, KJ_DT_INT64, err);
    if (!xi) return NULL;
    int64_t n = kj_array_size(xi), len = minlength;
    const int64_t *xs = (const int64_t *)(void *)xi->data;
    kj_array *wf = NULL, *r = NULL;
    for (int64_t i = 0; i < n; i++) {
        if (xs[i] < 0) {
            kj_rt_errorf(err, "ValueError", "'list' argument must have no negative elements");
            goto done;
        }
        if (xs[i] >= len) len = xs[i] + 1;
    }
    if (w && kj_array_size(w) != n) {
        kj_rt_errorf(err, "ValueError", "The weights and list don't have the same length.");
        goto done;
    }
    if (w && !(wf = kj_array_astype(w, KJ_DT_FLOAT64, err))) goto done;
    if (!(r = kj_array_zeros(w ? KJ_DT_FLOAT64 : KJ_DT_INT64, 1, &len, err))) goto done;
    for (int64_t i = 0; i < n; i++) {
        if (w) ((double *)(void *)r->data)[xs[i]] += f64_data(wf)[i];
        else ((int64_t *)(void *)r->data)[xs[i]]++;
    }
done:
    kj_array_release(xi);
    kj_array_release(wf);
    return r;
}

/* One difference b - a in dtype dt (not_equal for bool; integers wrap). */
static kj_scalar diff1(kj_scalar a, kj_scalar b, kj_dtype dt)
{
    if (dt == KJ_DT_BOOL) return kj_scalar_cast(kj_scalar_i64(a.v.i != b.v.i), dt);
    if (kj_dtype_is_float(dt)) return kj_scalar_cast(kj_scalar_f64(b.v.f - a.v.f), dt);
    return kj_scalar_cast(kj_scalar_i64((int64_t)(b.v.u - a.v.u)), dt);
}

kj_array *kj_array_diff(const kj_array *a, int64_t n, kj_rt_error *err)
{
    if (n < 0) return kj_rt_errorf(err, "ValueError", "order must be non-negative but got %lld", (long long)n), NULL;
    kj_array *c = kj_array_copy(a, err);
    if (!c) return NULL;
    int nd = c->ndim;
    int64_t m = c->shape[nd - 1], rows = m ? kj_array_size(c) / m : 0, k = n < m ? n : m;
    size_t isz = kj_array_itemsize(c);
    for (int64_t r = 0; r < rows; r++) {
        char *p = c->data + r * m * (int64_t)isz;
        for (int64_t s = 0; s < k; s++)
            for (int64_t i = 0; i + 1 < m - s; i++)
                kj_elem_store(p + i * (int64_t)isz, c->dtype,
                              diff1(kj_elem_load(p + i * (int64_t)isz, c->dtype),
                                    kj_elem_load(p + (i + 1) * (int64_t)isz, c->dtype), c->dtype));
    }
    int64_t shape[KJ_MAX_DIMS];
    memcpy(shape, c->shape, sizeof shape);
    shape[nd - 1] = m - k;
    kj_array *out = kj_array_empty(c->dtype, nd, shape, err);
    for (int64_t r = 0; out && r < rows; r++)
        memcpy(out->data + r * (m - k) * (int64_t)isz, c->data + r * m * (int64_t)isz, (size_t)(m - k) * isz);
    kj_array_release(c);
    return out;
}

/* NumPy's _monotonicity: 1 increasing, -1 decreasing, 0 neither (repeats
 * at the start are skipped; all equal counts as increasing). */
static int monotonicity(const double *b, int64_t n)
{
    int64_t i = 1;
    while (i < n && b[i] == b[0]) i++;
    if (i >= n) return 1;
    bool inc = b[0] < b[i];
    for (; i < n; i++)
        if (inc ? b[i] < b[i - 1] : b[i - 1] < b[i]) return 0;
    return inc ? 1 : -1;
}

kj_array *kj_array_digitize(const kj_array *x, const kj_array *bins, bool right, kj_rt_error *err)
{
    kj_array *bf = kj_array_astype(bins, KJ_DT_FLOAT64, err);
    if (!bf) return NULL;
    int64_t nb = kj_array_size(bf);
    int mono = monotonicity(f64_data(bf), nb);
    kj_array *r = NULL;
    if (mono == 0) {
        kj_rt_errorf(err, "ValueError", "bins must be monotonically increasing or decreasing");
    } else if (mono > 0) {
        r = kj_array_searchsorted(bins, x, !right, err);
    } else { /* len(bins) - searchsorted(bins[::-1], x, side='left' if right else 'right') */
        kj_array *rev = kj_array_copy(bins, err);
        size_t isz = rev ? kj_array_itemsize(rev) : 0;
        for (int64_t i = 0; rev && i < nb / 2; i++) {
            char t[8];
            memcpy(t, rev->data + i * (int64_t)isz, isz);
            memcpy(rev->data + i * (int64_t)isz, rev->data + (nb - 1 - i) * (int64_t)isz, isz);
            memcpy(rev->data + (nb - 1 - i) * (int64_t)isz, t, isz);
        }
        r = rev ? kj_array_searchsorted(rev, x, !right, err) : NULL;
        int64_t nr = r ? kj_array_size(r) : 0;
        for (int64_t i = 0; i < nr; i++) ((int64_t *)(void *)r->data)[i] = nb - ((int64_t *)(void *)r->data)[i];
        kj_array_release(rev);
    }
    kj_array_release(bf);
    return r;
}

/* ---- histogram ---- */

static bool range_error(kj_rt_error *err, const char *what, double lo, double hi)
{
    kj_buf b = {0};
    kj_buf_printf(&b, "%s range of [", what);
    kj_fmt_f64(&b, lo);
    kj_buf_puts(&b, ", ");
    kj_fmt_f64(&b, hi);
    kj_buf_puts(&b, "] is not finite");
    kj_rt_errorf(err, "ValueError", "%s", b.s);
    kj_buf_free(&b);
    return false;
}

/* NumPy's _get_outer_edges. */
static bool outer_edges(const double *v, int64_t n, bool has_range, double *lo, double *hi, kj_rt_error *err)
{
    if (has_range) {
        if (*lo > *hi) return kj_rt_errorf(err, "ValueError", "max must be larger than min in range parameter.");
        if (!isfinite(*lo) || !isfinite(*hi)) return range_error(err, "supplied", *lo, *hi);
    } else if (n == 0) {
        *lo = 0, *hi = 1;
    } else {
        double mn = v[0], mx = v[0];
        for (int64_t i = 0; i < n; i++) {
            if (v[i] != v[i]) mn = mx = v[i]; /* NaN propagates as in a.min() */
            if (mn != mn) break;
            mn = v[i] < mn ? v[i] : mn;
            mx = v[i] > mx ? v[i] : mx;
        }
        if (!isfinite(mn) || !isfinite(mx)) return range_error(err, "autodetected", mn, mx);
        *lo = mn, *hi = mx;
    }
    if (*lo == *hi) *lo -= 0.5, *hi += 0.5;
    return true;
}

/* NumPy's uniform-bins path: the index from the scaled offset, then
 * corrected against the edges themselves. */
static void count_uniform(const double *v, int64_t n, const double *e, int64_t nb, int64_t *h)
{
    double lo = e[0], hi = e[nb], norm = (double)nb / (hi - lo);
    for (int64_t i = 0; i < n; i++) {
        double x = v[i];
        if (!(x >= lo && x <= hi)) continue;
        int64_t k = (int64_t)((x - lo) * norm);
        if (k == nb) k--;
        if (x < e[k]) k--;
        else if (x >= e[k + 1] && k != nb - 1) k++;
        h[k]++;
    }
}

/* Explicit edges: searchsorted of the edges in the sorted data (the last
 * edge inclusive), then the differences. */
static bool count_edges(const kj_array *a, const kj_array *edges, int64_t *h, kj_rt_error *err)
{
    kj_array *sa = kj_array_copy(a, err); /* C order: flattened below, then sorted */
    if (!sa) return false;
    sa->ndim = 1;
    sa->shape[0] = kj_array_size(a);
    sa->strides[0] = (int64_t)kj_array_itemsize(sa);
    kj_array_update_flags(sa);
    if (!kj_array_sort_inplace(sa, err)) {
        kj_array_release(sa);
        return false;
    }
    kj_array *lo = kj_array_searchsorted(sa, edges, false, err);
    kj_array *hi = lo ? kj_array_searchsorted(sa, edges, true, err) : NULL;
    int64_t ne = kj_array_size(edges);
    for (int64_t i = 0; hi && i + 1 < ne; i++) {
        const int64_t *l = (const int64_t *)(void *)lo->data, *r = (const int64_t *)(void *)hi->data;
        h[i] = (i + 2 == ne ? r[i + 1] : l[i + 1]) - l[i];
    }
    bool ok = hi != NULL;
    kj_array_release(sa);
    kj_array_release(lo);
    kj_array_release(hi);
    return ok;
}

static bool check_edges(const kj_array *edges, kj_rt_error *err)
{
    kj_array *e = kj_array_astype(edges, KJ_DT_FLOAT64, err);
    if (!e) return false;
    int64_t n = kj_array_size(e);
    bool ok = true;
    for (int64_t i = 0; i + 1 < n && ok; i++) ok = !(f64_data(e)[i] > f64_data(e)[i + 1]);
    kj_array_release(e);
    return ok || kj_rt_errorf(err, "ValueError", "`bins` must increase monotonically, when an array");
}

bool kj_array_histogram(const kj_array *a, int64_t nbins, const kj_array *edges, bool has_range, double lo,
                        double hi, kj_array **hist, kj_array **out_edges, kj_rt_error *err)
{
    *hist = *out_edges = NULL;
    if (edges) {
        int64_t nb = kj_array_size(edges) - 1;
        if (nb < 0) nb = 0;
        if (!check_edges(edges, err) || !(*hist = kj_array_zeros(KJ_DT_INT64, 1, &nb, err))) return false;
        if (!count_edges(a, edges, (int64_t *)(void *)(*hist)->data, err) ||
            !(*out_edges = kj_array_copy(edges, err))) {
            kj_array_release(*hist);
            return *hist = NULL, false;
        }
        return true;
    }
    if (nbins < 1) return kj_rt_errorf(err, "ValueError", "`bins` must be positive, when an integer");
    kj_array *v = kj_array_astype(a, KJ_DT_FLOAT64, err);
    if (!v) return false;
    int64_t n = kj_array_size(v);
    bool ok = outer_edges(f64_data(v), n, has_range, &lo, &hi, err);
    if (ok) *out_edges = kj_array_linspace(lo, hi, nbins + 1, true, KJ_DT_FLOAT64, err);
    if (*out_edges) *hist = kj_array_zeros(KJ_DT_INT64, 1, &nbins, err);
    if (*hist) count_uniform(f64_data(v), n, f64_data(*out_edges), nbins, (int64_t *)(void *)(*hist)->data);
    kj_array_release(v);
    if (*hist) return true;
    kj_array_release(*out_edges);
    *out_edges = NULL;
    return false;
}

/* ---- nan reductions, ptp ---- */

/* A C-ordered copy of float array a with NaN replaced by `fill`; *cnt the
 * elements that were not NaN. */
static kj_array *replace_nan(const kj_array *a, double fill, int64_t *cnt, kj_rt_error *err)
{
    kj_array *c = kj_array_copy(a, err);
    if (!c) return NULL;
    int64_t n = kj_array_size(c), k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (c->dtype == KJ_DT_FLOAT32) {
            float *p = (float *)(void *)c->data + i;
            if (*p != *p) *p = (float)fill;
            else k++;
        } else {
            double *p = (double *)(void *)c->data + i;
            if (*p != *p) *p = fill;
            else k++;
        }
    }
    *cnt = k;
    return c;
}

static kj_array *scalar_of(kj_scalar s) { return kj_array_from_scalar(s); }

/* NumPy's _divide_by_count on scalars: the float64 quotient, cast back to
 * the sum's type. */
static kj_scalar per_count(kj_scalar tot, int64_t cnt)
{
    return kj_scalar_cast(kj_scalar_f64(tot.v.f / (double)cnt), tot.dtype);
}

/* nanvar: mean of the non-NaN elements, squared deviations (0 where NaN),
 * their pairwise sum over cnt - ddof, as _nanvar. */
static kj_scalar nan_var(kj_array *c, const kj_array *a, int64_t cnt, int64_t ddof)
{
    kj_scalar avg = per_count(kj_array_sum(c), cnt);
    int64_t n = kj_array_size(c);
    bool f32 = c->dtype == KJ_DT_FLOAT32;
    kj_array *ac = kj_array_copy(a, NULL); /* where the NaNs were */
    for (int64_t i = 0; i < n && ac; i++) {
        if (f32) {
            float *p = (float *)(void *)c->data + i, o = ((const float *)(void *)ac->data)[i];
            float d = o != o ? 0.0f : *p - (float)avg.v.f;
            *p = d * d;
        } else {
            double *p = (double *)(void *)c->data + i, o = f64_data(ac)[i];
            double d = o != o ? 0.0 : *p - avg.v.f;
            *p = d * d;
        }
    }
    kj_array_release(ac);
    int64_t dof = cnt - ddof;
    kj_scalar v = kj_array_sum(c);
    return dof <= 0 ? kj_scalar_cast(kj_scalar_f64(NAN), v.dtype) : per_count(v, dof);
}

static kj_array *nan_argext(kj_array *c, int64_t cnt, bool is_max, kj_rt_error *err)
{
    if (cnt == 0) return kj_rt_errorf(err, "ValueError", "All-NaN slice encountered"), NULL;
    int64_t i;
    return kj_array_argext(c, is_max, &i, err) ? scalar_of(kj_scalar_i64(i)) : NULL;
}

static kj_array *ptp(const kj_array *a, kj_rt_error *err)
{
    kj_scalar mx, mn;
    if (!kj_array_max(a, &mx, err) || !kj_array_min(a, &mn, err)) return NULL;
    if (kj_dtype_is_float(a->dtype)) return scalar_of(kj_scalar_cast(kj_scalar_f64(mx.v.f - mn.v.f), a->dtype));
    if (a->dtype == KJ_DT_BOOL) /* NumPy: boolean subtract is not supported */
        return kj_rt_errorf(err, "TypeError", "numpy boolean subtract, the `-` operator, is not supported, use "
                                              "the bitwise_xor, the `^` operator, or the logical_xor function "
                                              "instead."), NULL;
    return scalar_of(kj_scalar_cast(kj_scalar_i64((int64_t)(mx.v.u - mn.v.u)), a->dtype));
}

/* Integer and bool arrays have no NaN: the plain reductions. */
static kj_array *int_reduce(const kj_array *a, kj_nan_op op, int64_t ddof, kj_rt_error *err)
{
    kj_scalar s;
    int64_t i;
    switch (op) {
    case KJ_NAN_SUM: return scalar_of(kj_array_sum(a));
    case KJ_NAN_PROD: return scalar_of(kj_array_prod(a));
    case KJ_NAN_MEAN: return scalar_of(kj_array_mean(a));
    case KJ_NAN_VAR: return scalar_of(kj_array_var(a, ddof));
    case KJ_NAN_STD: return scalar_of(kj_array_std(a, ddof));
    case KJ_NAN_MIN: return kj_array_min(a, &s, err) ? scalar_of(s) : NULL;
    case KJ_NAN_MAX: return kj_array_max(a, &s, err) ? scalar_of(s) : NULL;
    default: return kj_array_argext(a, op == KJ_NAN_ARGMAX, &i, err) ? scalar_of(kj_scalar_i64(i)) : NULL;
    }
}

static double identity_of(kj_nan_op op)
{
    switch (op) {
    case KJ_NAN_PROD: return 1.0;
    case KJ_NAN_MIN: case KJ_NAN_ARGMIN: return INFINITY;
    case KJ_NAN_MAX: case KJ_NAN_ARGMAX: return -INFINITY;
    default: return 0.0;
    }
}

kj_array *kj_array_nanreduce(const kj_array *a, kj_nan_op op, int64_t ddof, kj_rt_error *err)
{
    if (op == KJ_PTP) return ptp(a, err);
    if (kj_dtype_info[a->dtype].kind == 'c') return kj_array_cpx_nanreduce(a, (int)op, err); /* sum/prod/mean */
    if (!kj_dtype_is_float(a->dtype)) return int_reduce(a, op, ddof, err);
    if ((op == KJ_NAN_MIN || op == KJ_NAN_MAX) && kj_array_size(a) == 0)
        return kj_rt_errorf(err, "ValueError", "zero-size array to reduction operation %s which has no identity",
                            op == KJ_NAN_MIN ? "fmin" : "fmax"), NULL;
    int64_t cnt;
    kj_array *c = replace_nan(a, identity_of(op), &cnt, err);
    if (!c) return oom(err);
    kj_array *r = NULL;
    kj_scalar s;
    switch (op) {
    case KJ_NAN_SUM: r = scalar_of(kj_array_sum(c)); break;
    case KJ_NAN_PROD: r = scalar_of(kj_array_prod(c)); break;
    case KJ_NAN_MEAN: r = scalar_of(cnt ? per_count(kj_array_sum(c), cnt)
                                        : kj_scalar_cast(kj_scalar_f64(NAN), a->dtype)); break;
    case KJ_NAN_VAR: case KJ_NAN_STD:
        s = nan_var(c, a, cnt, ddof);
        if (op == KJ_NAN_STD) s = kj_scalar_cast(kj_scalar_f64(a->dtype == KJ_DT_FLOAT32 ? (double)sqrtf((float)s.v.f)
                                                                                        : sqrt(s.v.f)), a->dtype);
        r = scalar_of(s);
        break;
    case KJ_NAN_MIN: case KJ_NAN_MAX:
        if (cnt == 0) r = scalar_of(kj_scalar_cast(kj_scalar_f64(NAN), a->dtype));
        else if (op == KJ_NAN_MIN ? kj_array_min(c, &s, err) : kj_array_max(c, &s, err)) r = scalar_of(s);
        break;
    default: r = nan_argext(c, cnt, op == KJ_NAN_ARGMAX, err); break;
    }
    kj_array_release(c);
    return r;
}

/* ---- ediff1d, trapz, interp, average ---- */

kj_array *kj_array_ediff1d(const kj_array *a, kj_rt_error *err)
{
    kj_array *c = kj_array_copy(a, err);
    if (!c) return NULL;
    c->ndim = 1;
    c->shape[0] = kj_array_size(a);
    c->strides[0] = (int64_t)kj_array_itemsize(c);
    kj_array_update_flags(c);
    kj_array *r = kj_array_diff(c, 1, err);
    kj_array_release(c);
    return r;
}

/* NumPy: add.reduce(d * (y[1:] + y[:-1]) / 2.0), d = dx or diff(x): the
 * terms in an array, then the pairwise sum. The sum y[i+1] + y[i] is in y's
 * type (integers wrap), then float. */
kj_array *kj_array_trapz(const kj_array *y, const kj_array *x, double dx, kj_rt_error *err)
{
    int64_t n = kj_array_size(y), m = n > 1 ? n - 1 : 0;
    if (x && kj_array_size(x) != n)
        return kj_rt_errorf(err, "ValueError", "operands could not be broadcast together with shapes (%lld,) (%lld,) ",
                            (long long)m, (long long)(kj_array_size(x) > 0 ? kj_array_size(x) - 1 : 0)), NULL;
    bool f32 = y->dtype == KJ_DT_FLOAT32 && !x;
    kj_array *yc = kj_array_copy(y, err), *xc = x ? kj_array_astype(x, KJ_DT_FLOAT64, err) : NULL;
    kj_array *t = yc && (!x || xc) ? kj_array_empty(f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64, 1, &m, err) : NULL;
    kj_array *r = NULL;
    if (t) {
        size_t isz = kj_array_itemsize(yc);
        for (int64_t i = 0; i < m; i++) {
            kj_scalar a = kj_elem_load(yc->data + i * (int64_t)isz, yc->dtype);
            kj_scalar b = kj_elem_load(yc->data + (i + 1) * (int64_t)isz, yc->dtype);
            double s = yc->dtype == KJ_DT_FLOAT32 ? (double)((float)b.v.f + (float)a.v.f)
                       : kj_dtype_is_float(yc->dtype) ? b.v.f + a.v.f
                       : yc->dtype == KJ_DT_BOOL ? (double)(a.v.i || b.v.i)
                       : kj_dtype_is_signed(yc->dtype) ? (double)kj_scalar_cast(kj_scalar_i64((int64_t)(a.v.u + b.v.u)), yc->dtype).v.i
                                                       : (double)kj_scalar_cast(kj_scalar_i64((int64_t)(a.v.u + b.v.u)), yc->dtype).v.u;
            double d = xc ? f64_data(xc)[i + 1] - f64_data(xc)[i] : dx;
            if (f32) ((float *)(void *)t->data)[i] = (float)dx * (float)s / 2.0f;
            else ((double *)(void *)t->data)[i] = d * s / 2.0;
        }
        r = kj_array_from_scalar(kj_array_sum(t));
    }
    kj_array_release(yc);
    kj_array_release(xc);
    kj_array_release(t);
    return r;
}

/* binary_search_with_guess's answer without the guess: -1 below xp[0], n
 * above xp[n-1], else the j with xp[j] <= x < xp[j+1] (n-1 at the end). */
static int64_t interp_index(double x, const double *xp, int64_t n)
{
    if (x < xp[0]) return -1;
    if (x > xp[n - 1]) return n;
    int64_t lo = 0, hi = n; /* first index with xp > x, minus one */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (xp[mid] <= x) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

/* One value of NumPy's arr_interp loop. */
static double interp1(double x, const double *xp, const double *fp, int64_t n)
{
    if (n == 1) return fp[0]; /* left, right and the one value are all fp[0] */
    if (x != x) return x;
    int64_t j = interp_index(x, xp, n);
    if (j == -1) return fp[0];
    if (j == n) return fp[n - 1];
    if (j == n - 1 || xp[j] == x) return fp[j];
    double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    double r = slope * (x - xp[j]) + fp[j];
    if (r != r) {
        r = slope * (x - xp[j + 1]) + fp[j + 1];
        if (r != r && fp[j] == fp[j + 1]) r = fp[j];
    }
    return r;
}

kj_array *kj_array_interp(const kj_array *x, const kj_array *xp, const kj_array *fp, kj_rt_error *err)
{
    int64_t n = kj_array_size(xp);
    if (kj_array_size(fp) != n) return kj_rt_errorf(err, "ValueError", "fp and xp are not of the same length."), NULL;
    if (n == 0) return kj_rt_errorf(err, "ValueError", "array of sample points is empty"), NULL;
    kj_array *xc = kj_array_astype(x, KJ_DT_FLOAT64, err), *xpc = xc ? kj_array_astype(xp, KJ_DT_FLOAT64, err) : NULL;
    kj_array *fpc = xpc ? kj_array_astype(fp, KJ_DT_FLOAT64, err) : NULL;
    kj_array *r = fpc ? kj_array_empty(KJ_DT_FLOAT64, x->ndim, x->shape, err) : NULL;
    int64_t m = r ? kj_array_size(r) : 0;
    for (int64_t i = 0; i < m; i++)
        ((double *)(void *)r->data)[i] = interp1(f64_data(xc)[i], f64_data(xpc), f64_data(fpc), n);
    kj_array_release(xc);
    kj_array_release(xpc);
    kj_array_release(fpc);
    return r;
}

/* NumPy: mean(a) without weights; else (a * w).sum() / w.sum() in float64,
 * both pairwise, ZeroDivisionError when the weights sum to zero. */
kj_array *kj_array_average(const kj_array *a, const kj_array *w, kj_rt_error *err)
{
    if (!w) return kj_array_from_scalar(kj_array_mean(a));
    if (w->ndim != a->ndim || memcmp(w->shape, a->shape, (size_t)a->ndim * sizeof *a->shape))
        return kj_rt_errorf(err, "TypeError", "Axis must be specified when shapes of a and weights differ."), NULL;
    kj_array *ac = kj_array_astype(a, KJ_DT_FLOAT64, err), *wc = ac ? kj_array_astype(w, KJ_DT_FLOAT64, err) : NULL;
    kj_array *r = NULL;
    if (wc) {
        double scl = kj_array_sum(wc).v.f;
        int64_t n = kj_array_size(ac);
        for (int64_t i = 0; i < n; i++) ((double *)(void *)ac->data)[i] *= f64_data(wc)[i];
        if (scl == 0.0) kj_rt_errorf(err, "ZeroDivisionError", "Weights sum to zero, can't be normalized");
        else r = kj_array_from_scalar(kj_scalar_f64(kj_array_sum(ac).v.f / scl));
    }
    kj_array_release(ac);
    kj_array_release(wc);
    return r;
}

/* NumPy's PyArray_Round: multiply by 10**decimals (divide for negative
 * decimals), rint, divide back, in the float's own type; integers are
 * copied for decimals >= 0, else rounded through float64 and cast back. */
kj_array *kj_array_round(const kj_array *a, int64_t decimals, kj_rt_error *err)
{
    kj_array *r = kj_array_copy(a, err);
    /* a complex array rounds its parts, each as a float array (NumPy's PyArray_Round) */
    bool cx = r && (r->dtype == KJ_DT_COMPLEX64 || r->dtype == KJ_DT_COMPLEX128);
    if (!r || (!kj_dtype_is_float(r->dtype) && !cx && decimals >= 0)) return r;
    kj_dtype dt = !cx ? r->dtype : r->dtype == KJ_DT_COMPLEX64 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    double f = pow(10.0, (double)(decimals >= 0 ? decimals : -decimals));
    int64_t n = kj_array_size(r) * (cx ? 2 : 1);
    size_t isz = kj_array_itemsize(r) / (cx ? 2 : 1);
    for (int64_t i = 0; i < n; i++) {
        char *p = r->data + i * (int64_t)isz;
        if (dt == KJ_DT_FLOAT32) {
            float x = *(float *)(void *)p, ff = (float)f;
            *(float *)(void *)p = decimals >= 0 ? rintf(x * ff) / ff : rintf(x / ff) * ff;
        } else {
            double x = kj_scalar_as_f64(kj_elem_load(p, dt));
            x = decimals >= 0 ? rint(x * f) / f : rint(x / f) * f;
            kj_elem_store(p, dt, kj_scalar_cast(kj_scalar_f64(x), dt));
        }
    }
    return r;
}
