/* SPDX-License-Identifier: BSD-2-Clause */
/* numpy.polynomial.polynomial's functions on 1-d coefficient arrays, as
 * NumPy computes them (numpy/polynomial/polynomial.py, polyutils.py): the
 * inputs become float64 series (as_series), trimmed of trailing zeros
 * (trimseq, keeping one), and the same float operations in the same order
 * give NumPy's bits. Each returns a new float64 array, NULL after an error
 * in *err. */
#include "array_nppoly.h"

#include "array_npother.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a's elements as doubles (malloc'ed, at least one slot), its length in *n. */
static double *series(const kj_array *a, int64_t *n, kj_rt_error *err)
{
    *n = a->shape[0];
    double *v = malloc((size_t)(*n + 1) * sizeof *v);
    if (!v) return kj_rt_errorf(err, "MemoryError", "polynomial: out of memory"), NULL;
    for (int64_t i = 0; i < *n; i++) v[i] = kj_scalar_as_f64(kj_elem_load(a->data + i * a->strides[0], a->dtype));
    return v;
}

/* trimseq's length: without the trailing zeros, at least 1 (0 when empty). */
static int64_t trimmed(const double *v, int64_t n)
{
    while (n > 1 && v[n - 1] == 0) n--;
    return n;
}

static kj_array *vec_of(const double *v, int64_t n, kj_rt_error *err)
{
    kj_array *r = kj_array_empty(KJ_DT_FLOAT64, 1, &n, err);
    if (r && n) memcpy(r->data, v, (size_t)n * sizeof *v);
    return r;
}

/* as_series of two: both non-empty ("Coefficient array is empty"), trimmed. */
static bool pair(const kj_array *a, const kj_array *b, double **x, int64_t *nx, double **y, int64_t *ny,
                 kj_rt_error *err)
{
    *x = series(a, nx, err);
    *y = *x ? series(b, ny, err) : NULL;
    if (!*y || !*nx || !*ny) {
        if (*y) kj_rt_errorf(err, "ValueError", "Coefficient array is empty");
        free(*x), free(*y);
        return false;
    }
    *nx = trimmed(*x, *nx), *ny = trimmed(*y, *ny);
    return true;
}

/* polyadd / polysub: the shorter series padded with zeros, then trimseq. */
kj_array *kj_nppoly_addsub(const kj_array *a, const kj_array *b, bool sub, kj_rt_error *err)
{
    double *x, *y;
    int64_t nx, ny;
    if (!pair(a, b, &x, &nx, &y, &ny, err)) return NULL;
    int64_t n = nx > ny ? nx : ny;
    double *r = malloc((size_t)n * sizeof *r);
    kj_array *out = NULL;
    if (r) {
        for (int64_t i = 0; i < n; i++) {
            double u = i < nx ? x[i] : 0.0, v = i < ny ? y[i] : 0.0;
            r[i] = sub ? u - v : u + v;
        }
        out = vec_of(r, trimmed(r, n), err);
    } else {
        kj_rt_errorf(err, "MemoryError", "polynomial: out of memory");
    }
    free(x), free(y), free(r);
    return out;
}

/* polymul: np.convolve of the series, then trimseq. */
kj_array *kj_nppoly_mul(const kj_array *a, const kj_array *b, kj_rt_error *err)
{
    double *x, *y;
    int64_t nx, ny;
    if (!pair(a, b, &x, &nx, &y, &ny, err)) return NULL;
    kj_array *ax = vec_of(x, nx, err), *ay = ax ? vec_of(y, ny, err) : NULL;
    kj_array *c = ay ? kj_npo_convolve(ax, ay, false, KJ_DT_FLOAT64, err) : NULL;
    kj_array *out = c ? vec_of((const double *)(void *)c->data, trimmed((const double *)(void *)c->data, c->shape[0]), err)
                      : NULL;
    kj_array_release(ax), kj_array_release(ay), kj_array_release(c);
    free(x), free(y);
    return out;
}

/* polydiv: NumPy's long division (c1[i:j] -= c2 * c1[j] with c2 scaled by
 * its last coefficient), quotient c1[j+1:]/scl, remainder trimseq(c1[:j+1]). */
kj_array *kj_nppoly_div(const kj_array *a, const kj_array *b, kj_array **rem, kj_rt_error *err)
{
    double *x, *y;
    int64_t nx, ny;
    if (!pair(a, b, &x, &nx, &y, &ny, err)) return NULL;
    kj_array *q = NULL;
    double zero = x[0] * 0;
    if (y[ny - 1] == 0) {
        kj_rt_errorf(err, "ZeroDivisionError", "%s", ""); /* NumPy raises it without a message */
    } else if (nx < ny) {
        q = vec_of(&zero, 1, err);
        *rem = q ? vec_of(x, nx, err) : NULL;
    } else if (ny == 1) {
        for (int64_t i = 0; i < nx; i++) x[i] = x[i] / y[0];
        q = vec_of(x, nx, err);
        *rem = q ? vec_of(&zero, 1, err) : NULL;
    } else {
        double scl = y[ny - 1];
        for (int64_t k = 0; k < ny - 1; k++) y[k] = y[k] / scl;
        int64_t i = nx - ny, j = nx - 1;
        for (; i >= 0; i--, j--)
            for (int64_t k = i; k < j; k++) x[k] -= y[k - i] * x[j];
        for (int64_t k = j + 1; k < nx; k++) x[k] = x[k] / scl;
        q = vec_of(x + j + 1, nx - j - 1, err);
        *rem = q ? vec_of(x, trimmed(x, j + 1), err) : NULL;
    }
    if (q && !*rem) kj_array_release(q), q = NULL;
    free(x), free(y);
    return q;
}

/* polyval(x, c) at one point: c0 = c[-1] + x*0, then c0 = c[-i] + c0*x. */
static double horner(const double *c, int64_t n, double x)
{
    double y = c[n - 1] + x * 0;
    for (int64_t i = 2; i <= n; i++) y = c[n - i] + y * x;
    return y;
}

/* polyint(c, m): m times NumPy's step with k = 0, lbnd = 0, scl = 1: a
 * single zero stays (c[0] += 0), else tmp = [c[0]*0, c[0], c[1]/2, ...],
 * then tmp[0] += 0 - polyval(0, tmp). Not trimmed. */
kj_array *kj_nppoly_int(const kj_array *a, int64_t m, kj_rt_error *err)
{
    if (m < 0) return kj_rt_errorf(err, "ValueError", "The order of integration must be non-negative"), NULL;
    int64_t n;
    double *c = series(a, &n, err);
    if (!c) return NULL;
    double *t = realloc(c, (size_t)(n + m + 1) * sizeof *c);
    if (!t) {
        free(c);
        return kj_rt_errorf(err, "MemoryError", "polynomial: out of memory"), NULL;
    }
    c = t;
    for (int64_t s = 0; s < m && n; s++) {
        if (n == 1 && c[0] == 0) {
            c[0] += 0.0;
            continue;
        }
        for (int64_t j = n; j >= 2; j--) c[j] = c[j - 1] / (double)j;
        c[1] = c[0];
        c[0] = c[0] * 0;
        n++;
        c[0] += 0.0 - horner(c, n, 0.0);
    }
    kj_array *out = vec_of(c, n, err);
    free(c);
    return out;
}

/* polyval(x, c) for each element of x (any shape), float64. */
kj_array *kj_nppoly_val(const kj_array *x, const kj_array *c, kj_rt_error *err)
{
    int64_t n;
    double *v = series(c, &n, err);
    if (!v) return NULL;
    kj_array *out = kj_array_empty(KJ_DT_FLOAT64, x->ndim, x->shape, err);
    if (out) {
        int64_t size = kj_array_size(x), idx[KJ_MAX_DIMS] = {0};
        double *o = (double *)(void *)out->data;
        for (int64_t k = 0; k < size; k++) {
            const char *p = x->data;
            for (int d = 0; d < x->ndim; d++) p += idx[d] * x->strides[d];
            double xv = kj_scalar_as_f64(kj_elem_load(p, x->dtype));
            /* an empty c: NumPy's c[-1] raises IndexError */
            o[k] = n ? horner(v, n, xv) : 0.0;
            for (int d = x->ndim - 1; d >= 0 && ++idx[d] == x->shape[d]; d--) idx[d] = 0;
        }
        if (!n) {
            kj_array_release(out), out = NULL;
            kj_rt_errorf(err, "IndexError", "index -1 is out of bounds for axis 0 with size 0");
        }
    }
    free(v);
    return out;
}

int64_t kj_nppoly_trimseq_len(const kj_array *a)
{
    int64_t n = a->shape[0];
    while (n > 1 && kj_scalar_as_f64(kj_elem_load(a->data + (n - 1) * a->strides[0], a->dtype)) == 0) n--;
    return n;
}

/* ---- other NumPy functions of one array ---- */

/* np.nancumsum / np.nancumprod (Numba's: a only): a flattened in C order,
 * NaNs counting as 0 (1), accumulated left to right in `to` (a's float type;
 * int64/uint64 for integers and bools, as np.cumsum). */
kj_array *kj_array_nancum(const kj_array *a, bool prod, kj_dtype to, kj_rt_error *err)
{
    int64_t n = kj_array_size(a), idx[KJ_MAX_DIMS] = {0};
    kj_array *r = kj_array_empty(to, 1, &n, err);
    if (!r) return NULL;
    kj_scalar acc = kj_scalar_cast(kj_scalar_i64(prod ? 1 : 0), to);
    int64_t isz = kj_dtype_size(to);
    for (int64_t k = 0; k < n; k++) {
        const char *p = a->data;
        for (int d = 0; d < a->ndim; d++) p += idx[d] * a->strides[d];
        kj_scalar x = kj_scalar_cast(kj_elem_load(p, a->dtype), to);
        if (to == KJ_DT_FLOAT32) {
            float u = (float)acc.v.f, v = (float)x.v.f;
            if (v != v) v = prod ? 1.0F : 0.0F;
            acc.v.f = prod ? (double)(u * v) : (double)(u + v); /* float32 arithmetic, as NumPy's loop */
        } else if (to == KJ_DT_FLOAT64) {
            double v = x.v.f != x.v.f ? (prod ? 1.0 : 0.0) : x.v.f;
            acc.v.f = prod ? acc.v.f * v : acc.v.f + v;
        } else { /* wrapping, as NumPy's integer loops */
            uint64_t u = (uint64_t)acc.v.i, v = (uint64_t)x.v.i;
            acc.v.i = (int64_t)(prod ? u * v : u + v);
        }
        kj_elem_store(r->data + k * isz, to, acc);
        for (int d = a->ndim - 1; d >= 0 && ++idx[d] == a->shape[d]; d--) idx[d] = 0;
    }
    return r;
}

/* np.nan_to_num in place: NaN becomes `nan`, inf the largest finite value
 * of a's float type, -inf the smallest; integers and bools stay. */
void kj_array_nan_to_num(kj_array *a, double nan)
{
    if (a->dtype != KJ_DT_FLOAT64 && a->dtype != KJ_DT_FLOAT32) return;
    bool f32 = a->dtype == KJ_DT_FLOAT32;
    double big = f32 ? (double)FLT_MAX : DBL_MAX;
    int64_t n = kj_array_size(a), idx[KJ_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        char *p = a->data;
        for (int d = 0; d < a->ndim; d++) p += idx[d] * a->strides[d];
        double v = kj_scalar_as_f64(kj_elem_load(p, a->dtype));
        if (v != v || isinf(v)) kj_elem_store(p, a->dtype, kj_scalar_f64(v != v ? nan : v > 0 ? big : -big));
        for (int d = a->ndim - 1; d >= 0 && ++idx[d] == a->shape[d]; d--) idx[d] = 0;
    }
}

/* np.trim_zeros' bounds: [*lo, *hi) without the leading (front) and
 * trailing (back) zeros. */
void kj_array_trim_zeros(const kj_array *a, bool front, bool back, int64_t *lo, int64_t *hi)
{
    int64_t n = a->shape[0], i = 0, j = n;
#define AT(k) kj_scalar_as_f64(kj_elem_load(a->data + (k) * a->strides[0], a->dtype))
    if (front)
        while (i < n && AT(i) == 0) i++;
    if (back)
        while (j > i && AT(j - 1) == 0) j--;
#undef AT
    *lo = i, *hi = j;
}

/* np.mod of doubles (npy_divmod's remainder): the sign of the divisor. */
static double py_mod(double a, double b)
{
    double m = fmod(a, b);
    if (!b) return m;
    if (m) {
        if ((b < 0) != (m < 0)) m += b;
    } else {
        m = copysign(0.0, b);
    }
    return m;
}

/* np.unwrap of a 1-d array in float64 (NumPy's algorithm): dd = diff(p),
 * ddmod = mod(dd + period/2, period) - period/2 (period/2 where that is
 * -period/2 and dd > 0), the correction ddmod - dd (0 where |dd| < discont,
 * discont NaN: period/2), summed left to right and added from the second
 * element on. */
kj_array *kj_array_unwrap(const kj_array *a, double discont, double period, kj_rt_error *err)
{
    int64_t n = a->shape[0];
    kj_array *r = kj_array_empty(KJ_DT_FLOAT64, 1, &n, err);
    if (!r) return NULL;
    double *o = (double *)(void *)r->data, hi = period / 2, lo = -hi, acc = 0.0, prev = 0.0;
    if (discont != discont) discont = hi;
    for (int64_t i = 0; i < n; i++) {
        double p = kj_scalar_as_f64(kj_elem_load(a->data + i * a->strides[0], a->dtype));
        if (i == 0) {
            o[0] = prev = p;
            continue;
        }
        double dd = p - prev, ddmod = py_mod(dd - lo, period) + lo;
        if (ddmod == lo && dd > 0) ddmod = hi;
        double corr = fabs(dd) < discont ? 0.0 : ddmod - dd;
        acc = i == 1 ? corr : acc + corr;
        o[i] = p + acc;
        prev = p;
    }
    return r;
}
