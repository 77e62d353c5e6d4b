/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's window functions, triangle indices, cross products, convolution,
 * covariance, np.sinc and the inf/complex predicates, computed as Numba
 * 0.56 computes them (numba/np/arraymath.py: the same formulas, the same
 * order of operations), so that results match Numba's bit for bit where
 * Numba does not call BLAS. Numba's np.convolve/correlate/cov reach BLAS
 * (np.dot) for float arrays; here the products are summed in index order,
 * which is the same for exact data and within rounding otherwise. */
#include "array_npother.h"

#include "../abi/abi_npother.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The element at C-order position `flat` of a. */
static const char *elem_at(const kj_array *a, int64_t flat)
{
    const char *p = a->data;
    for (int d = a->ndim - 1; d >= 0; d--) {
        int64_t n = a->shape[d] ? a->shape[d] : 1;
        p += (flat % n) * a->strides[d];
        flat /= n;
    }
    return p;
}

static double f64_at(const kj_array *a, int64_t flat)
{
    return kj_scalar_as_f64(kj_elem_load(elem_at(a, flat), a->dtype));
}

/* The imaginary part of a complex element (0 for a real dtype). */
static double imag_at(const kj_array *a, int64_t flat)
{
    const char *p = elem_at(a, flat);
    if (a->dtype == KJ_DT_COMPLEX128) return ((const double *)(const void *)p)[1];
    if (a->dtype == KJ_DT_COMPLEX64) return ((const float *)(const void *)p)[1];
    return 0.0;
}

/* ---- arithmetic in a result dtype (float32 in float, ints wrapping) ---- */

static kj_scalar in_dt(kj_scalar s, kj_dtype to) { return kj_scalar_cast(s, to); }

static kj_scalar s_fold(kj_scalar x, kj_scalar y, kj_dtype to, int op) /* op: 0 +, 1 -, 2 * */
{
    kj_scalar r = {.dtype = to};
    if (to == KJ_DT_FLOAT32) {
        float a = (float)x.v.f, b = (float)y.v.f;
        r.v.f = op == 0 ? a + b : op == 1 ? a - b : a * b;
    } else if (kj_dtype_is_float(to)) {
        r.v.f = op == 0 ? x.v.f + y.v.f : op == 1 ? x.v.f - y.v.f : x.v.f * y.v.f;
    } else {
        uint64_t a = x.v.u, b = y.v.u;
        kj_scalar w = {.dtype = KJ_DT_UINT64};
        w.v.u = op == 0 ? a + b : op == 1 ? a - b : a * b;
        r = kj_scalar_cast(w, to); /* wraps to the width of `to`, as NumPy's integer arithmetic */
    }
    return r;
}

static kj_scalar load_as(const kj_array *a, int64_t flat, kj_dtype to)
{
    return in_dt(kj_elem_load(elem_at(a, flat), a->dtype), to);
}

/* ---- window functions (Numba's np_*_impl for NumPy >= 1.20) ---- */

static double chbevl(double x, const double *vals, int n)
{
    double b0 = vals[0], b1 = 0.0, b2 = 0.0;
    for (int i = 1; i < n; i++) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + vals[i];
    }
    return 0.5 * (b0 - b2);
}

/* The modified Bessel function I0 (Cephes' Chebyshev series, as NumPy's and Numba's _i0). */
static double bessel_i0(double x)
{
    static const double A[] = {
        -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
        1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
        -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
        9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
        -1.30002500998624804212E-8,  6.04699502254191894932E-8,  -2.67079385394061173391E-7,
        1.11738753912010371815E-6,   -4.41673835845875056359E-6, 1.64484480707288970893E-5,
        -5.75419501008210370398E-5,  1.88502885095841655729E-4,  -5.76375574538582365885E-4,
        1.63947561694133579842E-3,   -4.32430999505057594430E-3, 1.05464603945949983183E-2,
        -2.37374148058994688156E-2,  4.93052842396707084878E-2,  -9.49010970480476444210E-2,
        1.71620901522208775349E-1,   -3.04682672343198398683E-1, 6.76795274409476084995E-1};
    static const double B[] = {
        -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
        3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
        1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
        -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
        7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
        -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
        3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
        2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
        8.04490411014108831608E-1};
    if (x < 0) x = -x;
    if (x <= 8.0) return exp(x) * chbevl(0.5 * x - 2.0, A, (int)(sizeof A / sizeof *A));
    return exp(x) * chbevl(32.0 / x - 2.0, B, (int)(sizeof B / sizeof *B)) / sqrt(x);
}

static double window_at(int kind, int64_t m, int64_t i, double beta, double i0_beta)
{
    double d = (double)(m - 1), n = (double)(1 - m + 2 * i); /* np.arange(1 - M, M, 2)[i] */
    switch (kind) {
    case KJ_WIN_BARTLETT: return n <= 0 ? 1 + n / d : 1 - n / d;
    case KJ_WIN_BLACKMAN: return 0.42 + 0.5 * cos(M_PI * n / d) + 0.08 * cos(2.0 * M_PI * n / d);
    case KJ_WIN_HAMMING: return 0.54 + 0.46 * cos(M_PI * n / d);
    case KJ_WIN_HANNING: return 0.5 + 0.5 * cos(M_PI * n / d);
    default: {
        double alpha = (double)(m - 1) / 2.0, r = ((double)i - alpha) / alpha;
        return bessel_i0(beta * sqrt(1 - r * r)) / i0_beta;
    }
    }
}

kj_array *kj_array_window(int64_t m, int kind, double beta, kj_rt_error *err)
{
    int64_t len = m < 1 ? 0 : m;
    kj_array *r = kj_array_empty(KJ_DT_FLOAT64, 1, &len, err);
    if (!r) return NULL;
    double *o = (double *)(void *)r->data, i0b = kind == KJ_WIN_KAISER ? bessel_i0(beta) : 0.0;
    for (int64_t i = 0; i < len; i++) o[i] = m == 1 ? 1.0 : window_at(kind, m, i, beta, i0b);
    return r;
}

/* ---- triangle indices: np.nonzero(np.tri(n, m, k)) (upper: of 1 - tri(n, m, k - 1)) ---- */

static bool in_tri(int64_t i, int64_t j, int64_t k, bool upper) { return upper ? j >= i + k : j <= i + k; }

kj_array *kj_npo_tri_indices(int64_t n, int64_t k, int64_t m, bool upper, kj_array **cols, kj_rt_error *err)
{
    int64_t cnt = 0; /* a negative n or m: np.tri's empty triangle */
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) cnt += in_tri(i, j, k, upper);
    kj_array *r = kj_array_empty(KJ_DT_INT64, 1, &cnt, err);
    kj_array *c = r ? kj_array_empty(KJ_DT_INT64, 1, &cnt, err) : NULL;
    if (!c) {
        kj_array_release(r);
        return NULL;
    }
    int64_t *ro = (int64_t *)(void *)r->data, *co = (int64_t *)(void *)c->data, p = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++)
            if (in_tri(i, j, k, upper)) ro[p] = i, co[p++] = j;
    *cols = c;
    return r;
}

/* ---- np.cross ---- */

/* Component c (0..2) of the vector at leading position `lead` of x (a
 * 2-vector's third is 0 * its first, as Numba's np.multiply(0, x0)). */
static kj_scalar comp(const kj_array *x, int64_t lead, int c, kj_dtype to)
{
    int64_t w = x->shape[x->ndim - 1];
    if (c < w) return load_as(x, lead * w + c, to);
    kj_scalar z = in_dt(kj_scalar_i64(0), to);
    return s_fold(z, load_as(x, lead * w, to), to, 2);
}

/* The C-order leading position of x for output leading position `flat`
 * of shape `os` (nd dims), broadcasting x's leading dims. */
static int64_t bcast_pos(const kj_array *x, const int64_t *os, int nd, int64_t flat)
{
    int xl = x->ndim - 1, off = nd - xl;
    int64_t pos = 0, mul = 1;
    for (int d = nd - 1; d >= 0; d--) {
        int64_t idx = flat % os[d];
        flat /= os[d];
        int xd = d - off;
        if (xd >= 0) {
            pos += (x->shape[xd] == 1 ? 0 : idx) * mul;
            mul *= x->shape[xd];
        }
    }
    return pos;
}

kj_array *kj_npo_cross(const kj_array *a, const kj_array *b, kj_dtype to, kj_rt_error *err)
{
    int64_t wa = a->shape[a->ndim - 1], wb = b->shape[b->ndim - 1];
    if ((wa != 2 && wa != 3) || (wb != 2 && wb != 3))
        return kj_rt_errorf(err, "ValueError", "incompatible dimensions for cross product\n(dimension must be 2 or 3)"),
               NULL;
    if (wa == 2 && wb == 2)
        return kj_rt_errorf(err, "ValueError", "Dimensions for both inputs is 2.\nPlease replace your numpy.cross(a, b) "
                            "call with a call to `cross2d(a, b)` from `numba.np.extensions`."), NULL;
    int64_t os[KJ_MAX_DIMS];
    int nd;
    if (!kj_broadcast_shapes(a->ndim - 1, a->shape, b->ndim - 1, b->shape, &nd, os, err)) return NULL;
    os[nd] = 3;
    kj_array *r = kj_array_empty(to, nd + 1, os, err);
    if (!r) return NULL;
    int64_t lead = 1;
    for (int d = 0; d < nd; d++) lead *= os[d];
    size_t isz = kj_dtype_size(to);
    for (int64_t p = 0; p < lead; p++) {
        int64_t pa = bcast_pos(a, os, nd, p), pb = bcast_pos(b, os, nd, p);
        kj_scalar x[3], y[3];
        for (int c = 0; c < 3; c++) x[c] = comp(a, pa, c, to), y[c] = comp(b, pb, c, to);
        for (int c = 0; c < 3; c++) { /* cp_c = x_{c+1} y_{c+2} - x_{c+2} y_{c+1} */
            int u = (c + 1) % 3, v = (c + 2) % 3;
            kj_scalar s = s_fold(s_fold(x[u], y[v], to, 2), s_fold(x[v], y[u], to, 2), to, 1);
            kj_elem_store(r->data + (p * 3 + c) * (int64_t)isz, to, s);
        }
    }
    return r;
}

/* ---- np.convolve / np.correlate (Numba's _np_correlate_core) ---- */

typedef struct {
    const kj_array *a;
    bool rev;
} vec;

static kj_scalar vec_at(vec v, int64_t i, kj_dtype to)
{
    int64_t n = v.a->shape[0];
    return load_as(v.a, v.rev ? n - 1 - i : i, to);
}

/* sum_j x[i0 + j] * y[j0 + j], j < len, in order. */
static kj_scalar inner(vec x, int64_t i0, vec y, int64_t j0, int64_t len, kj_dtype to)
{
    kj_scalar acc = in_dt(kj_scalar_i64(0), to);
    for (int64_t j = 0; j < len; j++) acc = s_fold(acc, s_fold(vec_at(x, i0 + j, to), vec_at(y, j0 + j, to), to, 2), to, 0);
    return acc;
}

static kj_array *correlate_core(vec p1, vec p2, bool full, int dir, kj_dtype to, kj_rt_error *err)
{
    int64_t n1 = p1.a->shape[0], n2 = p2.a->shape[0], nl = full ? n2 - 1 : 0;
    int64_t len = full ? n1 + n2 - 1 : n1 - n2 + 1;
    kj_array *r = kj_array_empty(to, 1, &len, err);
    if (!r) return NULL;
    size_t isz = kj_dtype_size(to);
    int64_t idx = dir > 0 ? 0 : len - 1;
    for (int64_t i = 0; i < nl; i++, idx += dir) /* ap1[:idx+1] . ap2[-(idx+1):] */
        kj_elem_store(r->data + idx * (int64_t)isz, to, inner(p1, 0, p2, n2 - (idx + 1), idx + 1, to));
    for (int64_t i = 0; i < n1 - n2 + 1; i++, idx += dir)
        kj_elem_store(r->data + idx * (int64_t)isz, to, inner(p1, i, p2, 0, n2, to));
    for (int64_t i = nl; i > 0; i--, idx += dir) /* ap1[-i:] . ap2[:i] */
        kj_elem_store(r->data + idx * (int64_t)isz, to, inner(p1, n1 - i, p2, 0, i, to));
    return r;
}

kj_array *kj_npo_convolve(const kj_array *a, const kj_array *v, bool correlate, kj_dtype to, kj_rt_error *err)
{
    int64_t la = a->shape[0], lv = v->shape[0];
    if (la == 0) return kj_rt_errorf(err, "ValueError", "a cannot be empty"), NULL;
    if (lv == 0) return kj_rt_errorf(err, "ValueError", "v cannot be empty"), NULL;
    vec va = {a, false}, vv = {v, false};
    if (correlate) return la < lv ? correlate_core(vv, va, false, -1, to, err) : correlate_core(va, vv, false, 1, to, err);
    vec ra = {a, true}, rv = {v, true};
    return la < lv ? correlate_core(vv, ra, true, 1, to, err) : correlate_core(va, rv, true, 1, to, err);
}

/* ---- np.cov / np.corrcoef (Numba's np_cov, np_corrcoef) ---- */

/* X: the variables as rows (m, then y), float64; *rows, *cols its shape. */
static double *cov_input(const kj_array *m, const kj_array *y, bool rowvar, int64_t *rows, int64_t *cols,
                         kj_rt_error *err)
{
    if (m->ndim == 2 && m->shape[0] == 1)
        return kj_rt_errorf(err, "RuntimeError", "2D array containing a single row is unsupported due to ambiguity in "
                            "type inference. To use numpy.cov in this case simply pass the row as a 1D array, i.e. m[0]."),
               NULL;
    const kj_array *src[2] = {m, y};
    int64_t r[2] = {0, 0}, c[2] = {0, 0};
    bool tr[2] = {false, false};
    for (int s = 0; s < 2 && src[s]; s++) {
        r[s] = src[s]->ndim == 1 ? 1 : src[s]->shape[0];
        c[s] = src[s]->ndim == 1 ? src[s]->shape[0] : src[s]->shape[1];
        tr[s] = !rowvar && (!y || r[s] != 1); /* atleast_2d(m).T; with y, a (1, n) one stays */
        if (tr[s]) {
            int64_t t = r[s];
            r[s] = c[s], c[s] = t;
        }
    }
    if (y && c[0] != c[1]) return kj_rt_errorf(err, "ValueError", "m and y have incompatible dimensions"), NULL;
    *rows = r[0] + r[1];
    *cols = c[0];
    double *x = malloc((size_t)(*rows * *cols + 1) * sizeof *x);
    if (!x) return kj_rt_errorf(err, "MemoryError", "np.cov: out of memory"), NULL;
    int64_t o = 0;
    for (int s = 0; s < 2 && src[s]; s++) {
        int64_t w = src[s]->ndim == 1 ? src[s]->shape[0] : src[s]->shape[1];
        for (int64_t i = 0; i < r[s]; i++)
            for (int64_t j = 0; j < c[s]; j++) x[o++] = f64_at(src[s], tr[s] ? j * w + i : i * w + j);
    }
    return x;
}

/* Numba's np_cov_impl_inner on X (rows x cols), into c (rows x rows). */
static void cov_inner(double *x, int64_t rows, int64_t cols, double fact, double *c)
{
    for (int64_t i = 0; i < rows; i++) { /* X -= row_wise_average(X): np.sum(row) / n */
        double s = 0.0;
        for (int64_t j = 0; j < cols; j++) s += x[i * cols + j];
        double avg = s / (double)cols;
        for (int64_t j = 0; j < cols; j++) x[i * cols + j] -= avg;
    }
    double f = 1.0 / fact; /* c *= np.true_divide(1, fact) */
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < rows; j++) {
            double s = 0.0;
            for (int64_t k = 0; k < cols; k++) s += x[i * cols + k] * x[j * cols + k];
            c[i * rows + j] = s * f;
        }
}

/* np.corrcoef from the covariance c (n x n), in Numba's order of divisions. */
static void corr_of(double *c, int64_t n, double *sd)
{
    for (int64_t i = 0; i < n; i++) sd[i] = sqrt(c[i * n + i]);
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) c[i * n + j] /= sd[j]; /* c[i, :] /= stddev */
        for (int64_t j = 0; j < n; j++) c[j * n + i] /= sd[j]; /* c[:, i] /= stddev */
    }
    for (int64_t k = 0; k < n * n; k++) /* np.where(np.fabs(x) > 1, np.sign(x), x) */
        if (fabs(c[k]) > 1) c[k] = c[k] > 0 ? 1.0 : -1.0;
}

kj_array *kj_npo_cov(const kj_array *m, const kj_array *y, bool rowvar, bool bias, bool has_ddof, double ddof,
                     bool corr, kj_rt_error *err)
{
    if (has_ddof && !isfinite(ddof))
        return kj_rt_errorf(err, "ValueError", "Cannot convert non-finite ddof to integer"), NULL;
    if (has_ddof && ddof != trunc(ddof)) return kj_rt_errorf(err, "ValueError", "ddof must be integral value"), NULL;
    int64_t rows, cols;
    double *x = cov_input(m, y, rowvar, &rows, &cols, err);
    if (!x) return NULL;
    bool single = m->ndim == 1 && !y;
    int64_t shape[2] = {rows, rows};
    kj_array *r = single ? kj_array_from_scalar(kj_scalar_f64(0)) : kj_array_empty(KJ_DT_FLOAT64, 2, shape, err);
    double *sd = malloc((size_t)(rows + 1) * sizeof *sd), *c = malloc((size_t)(rows * rows + 1) * sizeof *c);
    if (!r || !sd || !c) {
        free(x), free(sd), free(c), kj_array_release(r);
        return kj_rt_errorf(err, "MemoryError", "np.cov: out of memory"), NULL;
    }
    if (rows == 0 || cols == 0) {
        for (int64_t k = 0; k < rows * rows; k++) c[k] = NAN;
        if (single) c[0] = NAN;
    } else {
        double dd = has_ddof ? ddof : bias ? 0 : 1, fact = (double)cols - dd;
        cov_inner(x, rows, cols, fact < 0.0 ? 0.0 : fact, c);
    }
    if (corr && single) c[0] = c[0] / c[0];
    else if (corr) corr_of(c, rows, sd);
    memcpy(r->data, c, (size_t)(single ? 1 : rows * rows) * sizeof *c);
    free(x), free(sd), free(c);
    return r;
}

/* ---- elementwise ---- */

kj_array *kj_npo_sinc(const kj_array *a, kj_rt_error *err)
{
    kj_array *r = kj_array_empty(a->dtype, a->ndim, a->shape, err);
    if (!r) return NULL;
    int64_t n = kj_array_size(a);
    size_t isz = kj_dtype_size(a->dtype);
    for (int64_t i = 0; i < n; i++) {
        double v = f64_at(a, i), s;
        if (a->dtype == KJ_DT_FLOAT32) { /* NumPy computes a float32 array in float32 */
            float w = v == 0.0 ? 1e-20f : (float)v;
            w = (float)M_PI * w;
            s = (double)(sinf(w) / w);
        } else {
            if (v == 0.0) v = 1e-20;
            v *= M_PI;
            s = sin(v) / v;
        }
        kj_elem_store(r->data + i * (int64_t)isz, a->dtype, kj_scalar_f64(s));
    }
    return r;
}

kj_array *kj_array_pred(const kj_array *a, int which, kj_rt_error *err)
{
    kj_array *r = kj_array_empty(KJ_DT_BOOL, a->ndim, a->shape, err);
    if (!r) return NULL;
    int64_t n = kj_array_size(a);
    bool flt = kj_dtype_is_float(a->dtype);
    for (int64_t i = 0; i < n; i++) {
        bool v;
        if (which == KJ_PRED_ISCOMPLEX || which == KJ_PRED_ISREAL) {
            v = (imag_at(a, i) != 0) == (which == KJ_PRED_ISCOMPLEX);
        } else {
            double x = flt ? f64_at(a, i) : 0.0;
            v = isinf(x) && (signbit(x) != 0) == (which == KJ_PRED_NEGINF);
        }
        ((unsigned char *)r->data)[i] = v;
    }
    return r;
}

bool kj_npo_chkfinite(const kj_array *a, kj_rt_error *err)
{
    if (!kj_dtype_is_float(a->dtype) && a->dtype != KJ_DT_COMPLEX64 && a->dtype != KJ_DT_COMPLEX128) return true;
    int64_t n = kj_array_size(a);
    for (int64_t i = 0; i < n; i++)
        if (!isfinite(f64_at(a, i)) || !isfinite(imag_at(a, i)))
            return kj_rt_errorf(err, "ValueError", "array must not contain infs or NaNs");
    return true;
}

/* ---- np.select ---- */

static bool same_shape(const kj_array *a, const kj_array *b)
{
    if (a->ndim != b->ndim) return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d]) return false;
    return true;
}

bool kj_npo_select_step(const kj_array *cond, const kj_array *choice, kj_array *out, kj_rt_error *err)
{
    if (!same_shape(cond, out) || !same_shape(choice, out))
        return kj_rt_errorf(err, "ValueError", "shape mismatch: objects cannot be broadcast to a single shape");
    int64_t n = kj_array_size(out);
    for (int64_t i = 0; i < n; i++)
        if (kj_elem_load(elem_at(cond, i), cond->dtype).v.i)
            kj_elem_store((char *)elem_at(out, i), out->dtype,
                          in_dt(kj_elem_load(elem_at(choice, i), choice->dtype), out->dtype));
    return true;
}
