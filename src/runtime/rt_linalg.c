/* SPDX-License-Identifier: BSD-2-Clause */
/* np.dot, @, np.vdot/inner/outer/kron/trace and np.linalg.* on host arrays
 * (linalg.h): products through OpenBLAS's CBLAS, factorisations through
 * LAPACKE, NumPy's shapes, results and error messages.
 *
 * Layout: a BLAS operand is used in place when it is row- or column-major
 * with unit element stride (a column-major matrix is the transpose of a
 * row-major one: CblasTrans); anything else is first copied into a
 * C-ordered buffer. Every LAPACK routine gets a fresh column-major copy
 * (LAPACK overwrites its input, and NumPy copies too), and its column-major
 * results are copied into new C-ordered arrays. Temporaries are freed
 * before any error is raised (rt.h). */
#include "linalg.h"
#include "rt_host.h"
#include "array.h"
#include "array_int.h"

#include "../abi/abi.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An operand: its header and element size; f32 picks the 's' routines. */
typedef struct {
    kj_array h;
    size_t isz;
    bool f32;
} operand;

/* The run's libraries, opened at the first call that needs them (a
 * RuntimeError when absent): BLAS always, LAPACKE when `lapack`. */
static const kj_linalg_lib *lib(kj_rt *rt, bool lapack, int32_t line, int32_t col)
{
    kj_rt_error err = {.exc = "RuntimeError"};
    if (!rt->linalg) rt->linalg = kj_linalg_open(err.message, sizeof err.message);
    if (!rt->linalg || (lapack && !kj_linalg_open_lapack(rt->linalg, err.message, sizeof err.message)))
        kj_rt_raise_error(rt, &err, line, col);
    return rt->linalg;
}

static double get(const void *p, int64_t i, bool f32)
{
    return f32 ? ((const float *)p)[i] : ((const double *)p)[i];
}

static void set(void *p, int64_t i, double v, bool f32)
{
    if (f32) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
}

static const char *at(const kj_array *h, int64_t i, int64_t j)
{
    return h->data + i * h->strides[0] + (h->ndim > 1 ? j * h->strides[1] : 0);
}

static int64_t rows(const kj_array *h) { return h->shape[0]; }
static int64_t cols(const kj_array *h) { return h->ndim > 1 ? h->shape[1] : 1; }
static int lead(int64_t n) { return n > 1 ? (int)n : 1; }

/* A new C-ordered array (NULL: err filled). */
static kj_array *new_array(const operand *o, int ndim, int64_t d0, int64_t d1, bool zero, kj_rt_error *err)
{
    int64_t shape[2] = {d0, d1};
    kj_dtype dt = o->f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    return zero ? kj_array_zeros(dt, ndim, shape, err) : kj_array_empty(dt, ndim, shape, err);
}

/* The matrix (or vector as a column) as a column-major buffer of its own. */
static void *fortran_copy(const operand *o, int64_t extra_cols, kj_rt_error *err)
{
    int64_t r = rows(&o->h), c = cols(&o->h);
    char *buf = malloc((size_t)(r > 0 ? r : 1) * (size_t)((c > extra_cols ? c : extra_cols) + 1) * o->isz);
    if (!buf) {
        kj_rt_errorf(err, "MemoryError", "unable to allocate a LAPACK work copy");
        return NULL;
    }
    for (int64_t j = 0; j < c; j++)
        for (int64_t i = 0; i < r; i++) memcpy(buf + (size_t)(i + j * r) * o->isz, at(&o->h, i, j), o->isz);
    return buf;
}

/* Rows [0, r) of columns [0, c) of a column-major buffer with leading
 * dimension ld, into C-ordered `out` (1-d when out->ndim is 1). */
static void from_fortran(kj_array *out, const char *buf, int64_t ld, size_t isz)
{
    int64_t r = out->shape[0], c = out->ndim > 1 ? out->shape[1] : 1;
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++)
            memcpy(out->data + (size_t)(i * c + j) * isz, buf + (size_t)(i + j * ld) * isz, isz);
}

/* A C-contiguous copy of o (or o itself when it is one). */
static const char *c_data(const operand *o, void **tmp, kj_rt_error *err)
{
    *tmp = NULL;
    if (kj_array_is_c_contiguous(&o->h)) return o->h.data;
    int64_t r = rows(&o->h), c = cols(&o->h);
    char *buf = malloc((size_t)(r * c > 0 ? r * c : 1) * o->isz);
    if (!buf) {
        kj_rt_errorf(err, "MemoryError", "unable to allocate a BLAS work copy");
        return NULL;
    }
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++) memcpy(buf + (size_t)(i * c + j) * o->isz, at(&o->h, i, j), o->isz);
    *tmp = buf;
    return buf;
}

/* ---- BLAS operands ---- */

typedef struct {
    const char *p;
    int ld;    /* leading dimension (rows: elements between rows of the row-major view) */
    bool trans; /* stored column-major: the row-major transpose */
    void *tmp; /* a copy to free, or NULL */
} blas_mat;

static bool blas_matrix(const operand *o, blas_mat *m, kj_rt_error *err)
{
    int64_t r = rows(&o->h), c = cols(&o->h), s0 = o->h.strides[0], s1 = o->h.strides[1];
    int64_t isz = (int64_t)o->isz;
    *m = (blas_mat){.p = o->h.data};
    if ((c == 1 || s1 == isz) && (r == 1 || (s0 > 0 && s0 % isz == 0 && s0 / isz >= c))) {
        m->ld = r == 1 ? lead(c) : (int)(s0 / isz);
        return true;
    }
    if ((r == 1 || s0 == isz) && (c == 1 || (s1 > 0 && s1 % isz == 0 && s1 / isz >= r))) {
        m->ld = c == 1 ? lead(r) : (int)(s1 / isz);
        m->trans = true;
        return true;
    }
    m->p = c_data(o, &m->tmp, err);
    m->ld = lead(c);
    return m->p != NULL;
}

/* A vector: its data and element increment (a copy when the stride is not
 * a positive multiple of the element size). */
static const char *blas_vector(const operand *o, int *inc, void **tmp, kj_rt_error *err)
{
    int64_t s = o->h.strides[0], isz = (int64_t)o->isz;
    *tmp = NULL;
    *inc = 1;
    if (o->h.shape[0] <= 1 || (s > 0 && s % isz == 0)) {
        if (o->h.shape[0] > 1) *inc = (int)(s / isz);
        return o->h.data;
    }
    return c_data(o, tmp, err);
}

/* "(2,3)" / "(3,)" as NumPy prints a shape */
static const char *shape_str(const kj_array *h, char *buf, size_t cap)
{
    if (h->ndim == 1) snprintf(buf, cap, "(%lld,)", (long long)h->shape[0]);
    else snprintf(buf, cap, "(%lld,%lld)", (long long)h->shape[0], (long long)h->shape[1]);
    return buf;
}

/* c (C-contiguous m x n) = a·b of 2-d operands, none of m, n, k zero */
static bool gemm_into(const kj_linalg_lib *l, const operand *a, const operand *b, void *c, kj_rt_error *err)
{
    int m = (int)rows(&a->h), n = (int)cols(&b->h), k = (int)cols(&a->h);
    blas_mat A = {0}, B = {0};
    bool ok = blas_matrix(a, &A, err) && blas_matrix(b, &B, err);
    if (ok) {
        int ta = A.trans ? KJ_CBLAS_TRANS : KJ_CBLAS_NOTRANS, tb = B.trans ? KJ_CBLAS_TRANS : KJ_CBLAS_NOTRANS;
        const void *pa = A.p, *pb = B.p;
        if (a->f32) l->cblas_sgemm(KJ_CBLAS_ROW, ta, tb, m, n, k, 1.0f, pa, A.ld, pb, B.ld, 0.0f, c, lead(n));
        else l->cblas_dgemm(KJ_CBLAS_ROW, ta, tb, m, n, k, 1.0, pa, A.ld, pb, B.ld, 0.0, c, lead(n));
    }
    free(A.tmp);
    free(B.tmp);
    return ok;
}

/* c = a·b of 1-d/2-d operands (shapes checked), into `out`: a scalar at
 * out when both are 1-d, else a new array described there. */
static kj_array *product(const kj_linalg_lib *l, const operand *a, const operand *b, void *scalar,
                         kj_rt_error *err)
{
    bool f32 = a->f32;
    void *ta = NULL, *tb = NULL;
    kj_array *res = NULL;
    if (a->h.ndim == 1 && b->h.ndim == 1) { /* the dot product */
        int ia, ib;
        const char *x = blas_vector(a, &ia, &ta, err), *y = x ? blas_vector(b, &ib, &tb, err) : NULL;
        if (y) {
            int n = (int)a->h.shape[0];
            if (f32) *(float *)scalar = l->cblas_sdot(n, (const float *)x, ia, (const float *)y, ib);
            else *(double *)scalar = l->cblas_ddot(n, (const double *)x, ia, (const double *)y, ib);
        }
        free(ta);
        free(tb);
        return NULL;
    }
    int64_t m = a->h.ndim == 2 ? rows(&a->h) : 1, k = a->h.shape[a->h.ndim - 1];
    int64_t n = b->h.ndim == 2 ? b->h.shape[1] : 1;
    int nd = a->h.ndim + b->h.ndim - 2;
    res = new_array(a, nd, a->h.ndim == 2 ? m : n, n, k == 0, err);
    if (!res || k == 0 || m == 0 || n == 0) return res;
    if (b->h.ndim == 1 || a->h.ndim == 1) { /* matrix·vector: gemv */
        const operand *mat = a->h.ndim == 2 ? a : b, *vec = a->h.ndim == 2 ? b : a;
        blas_mat M;
        int inc;
        const char *x = NULL;
        if (blas_matrix(mat, &M, err) && (x = blas_vector(vec, &inc, &tb, err))) {
            /* op(M)·x with op = transpose when the vector is on the left */
            bool t = M.trans != (a->h.ndim == 1);
            int mr = (int)(M.trans ? cols(&mat->h) : rows(&mat->h));
            int mc = (int)(M.trans ? rows(&mat->h) : cols(&mat->h));
            int tr = t ? KJ_CBLAS_TRANS : KJ_CBLAS_NOTRANS;
            void *y = res->data;
            if (f32)
                l->cblas_sgemv(KJ_CBLAS_ROW, tr, mr, mc, 1.0f, (const void *)M.p, M.ld, (const void *)x, inc, 0, y, 1);
            else
                l->cblas_dgemv(KJ_CBLAS_ROW, tr, mr, mc, 1.0, (const void *)M.p, M.ld, (const void *)x, inc, 0.0, y, 1);
        }
        free(M.tmp);
        free(tb);
        if (!x) kj_array_release(res);
        return x ? res : NULL;
    }
    if (!gemm_into(l, a, b, res->data, err)) {
        kj_array_release(res);
        return NULL;
    }
    return res;
}

/* ---- the shape checks of the products ---- */

static bool dot_aligned(const operand *a, const operand *b, bool inner, kj_rt_error *err)
{
    int ia = a->h.ndim - 1, ib = inner ? b->h.ndim - 1 : (b->h.ndim == 1 ? 0 : b->h.ndim - 2);
    if (a->h.shape[ia] == b->h.shape[ib]) return true;
    char sa[48], sb[48];
    return kj_rt_errorf(err, "ValueError", "shapes %s and %s not aligned: %lld (dim %d) != %lld (dim %d)",
                        shape_str(&a->h, sa, sizeof sa), shape_str(&b->h, sb, sizeof sb),
                        (long long)a->h.shape[ia], ia, (long long)b->h.shape[ib], ib);
}

static bool matmul_aligned(const operand *a, const operand *b, kj_rt_error *err)
{
    int64_t ka = a->h.shape[a->h.ndim - 1], kb = b->h.shape[0];
    if (ka == kb) return true;
    return kj_rt_errorf(err, "ValueError",
                        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                        "(n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
                        (long long)kb, (long long)ka);
}

/* Matrix i of a 3-d operand's batch (a 2-d operand: itself). */
static operand batch_item(const operand *o, int64_t i)
{
    if (o->h.ndim == 2) return *o;
    operand t = *o;
    t.h.ndim = 2;
    t.h.data = o->h.data + (o->h.shape[0] == 1 ? 0 : i) * o->h.strides[0];
    t.h.shape[0] = o->h.shape[1], t.h.shape[1] = o->h.shape[2];
    t.h.strides[0] = o->h.strides[1], t.h.strides[1] = o->h.strides[2];
    kj_array_update_flags(&t.h);
    return t;
}

/* a @ b with a 3-d operand (the other 2-d or 3-d): one gemm per matrix,
 * the batch dimension broadcast as NumPy's (equal, or 1) */
static kj_array *batched(const kj_linalg_lib *l, const operand *a, const operand *b, kj_rt_error *err)
{
    int64_t ba = a->h.ndim == 3 ? a->h.shape[0] : 1, bb = b->h.ndim == 3 ? b->h.shape[0] : 1;
    int64_t m = a->h.shape[a->h.ndim - 2], k = a->h.shape[a->h.ndim - 1], kb = b->h.shape[b->h.ndim - 2];
    int64_t n = b->h.shape[b->h.ndim - 1];
    if (ba != bb && ba != 1 && bb != 1) {
        kj_rt_errorf(err, "ValueError",
                     "operands could not be broadcast together with remapped shapes [original->remapped]: "
                     "(%lld,%lld,%lld)->(%lld,newaxis,newaxis) (%lld,%lld,%lld)->(%lld,newaxis,newaxis)  and "
                     "requested shape (%lld,%lld)",
                     (long long)ba, (long long)m, (long long)k, (long long)ba, (long long)bb, (long long)kb,
                     (long long)n, (long long)bb, (long long)m, (long long)n);
        return NULL;
    }
    if (k != kb) {
        kj_rt_errorf(err, "ValueError",
                     "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                     "(n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
                     (long long)kb, (long long)k);
        return NULL;
    }
    int64_t nb = ba > bb ? ba : bb, shape[3] = {nb, m, n};
    kj_array *res = kj_array_zeros(a->f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64, 3, shape, err);
    for (int64_t i = 0; res && k > 0 && m > 0 && n > 0 && i < nb; i++) {
        operand ai = batch_item(a, i), bi = batch_item(b, i);
        if (!gemm_into(l, &ai, &bi, res->data + (size_t)(i * m * n) * a->isz, err)) {
            kj_array_release(res);
            return NULL;
        }
    }
    return res;
}

/* b viewed transposed (np.inner multiplies by rows of b) */
static operand transposed(const operand *b)
{
    operand t = *b;
    if (b->h.ndim == 2) {
        t.h.shape[0] = b->h.shape[1], t.h.shape[1] = b->h.shape[0];
        t.h.strides[0] = b->h.strides[1], t.h.strides[1] = b->h.strides[0];
        kj_array_update_flags(&t.h);
    }
    return t;
}


static operand of_array(const kj_array *x)
{
    return (operand){.h = *x, .isz = kj_array_itemsize(x), .f32 = x->dtype == KJ_DT_FLOAT32};
}

/* ---- LAPACK ---- */

#define LAPACK(l, f32, name, ...) ((f32) ? (l)->LAPACKE_s##name(__VA_ARGS__) : (l)->LAPACKE_d##name(__VA_ARGS__))

static bool square(const operand *a, kj_rt_error *err)
{
    if (rows(&a->h) == cols(&a->h)) return true;
    return kj_rt_errorf(err, "LinAlgError", "Last 2 dimensions of the array must be square");
}

/* np.linalg.solve(a, b) (inv: b is NULL, the identity): LAPACK's gesv, as NumPy */
static kj_array *solve(const kj_linalg_lib *l, const operand *a, const operand *b, kj_rt_error *err)
{
    int64_t n = rows(&a->h), nrhs = b ? cols(&b->h) : n;
    if (!square(a, err)) return NULL;
    if (b && rows(&b->h) != n) {
        kj_rt_errorf(err, "ValueError",
                     b->h.ndim == 1 ? "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                      "signature (m,m),(m)->(m) (size %lld is different from %lld)"
                                    : "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                      "signature (m,m),(m,n)->(m,n) (size %lld is different from %lld)",
                     (long long)rows(&b->h), (long long)n);
        return NULL;
    }
    kj_array *res = new_array(a, b ? b->h.ndim : 2, n, nrhs, false, err);
    void *A = res ? fortran_copy(a, 0, err) : NULL;
    void *B = NULL;
    if (A) B = b ? fortran_copy(b, 0, err) : calloc((size_t)(n * n > 0 ? n * n : 1), a->isz);
    kj_lapack_int *piv = B ? malloc(sizeof *piv * (size_t)(n > 0 ? n : 1)) : NULL;
    bool ok = piv != NULL;
    if ((A && !B && !b) || (B && !piv)) kj_rt_errorf(err, "MemoryError", "unable to allocate LAPACK workspace");
    if (!b && B)
        for (int64_t i = 0; i < n; i++) set(B, i + i * n, 1.0, a->f32);
    if (ok && n > 0 && nrhs > 0) {
        kj_lapack_int info = LAPACK(l, a->f32, gesv, KJ_CBLAS_COL, (int)n, (int)nrhs, A, lead(n), piv, B, lead(n));
        if (info > 0) ok = kj_rt_errorf(err, "LinAlgError", "Singular matrix");
    }
    if (ok) from_fortran(res, B, n, a->isz);
    free(A);
    free(B);
    free(piv);
    if (!ok) kj_array_release(res);
    return ok ? res : NULL;
}

/* sign and log|det| through LU (getrf), as NumPy's slogdet; det is
 * sign * exp(logdet) there too. In the element type's precision. */
static bool slogdet(const kj_linalg_lib *l, const operand *a, double *sign, double *logdet, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return false;
    void *A = fortran_copy(a, 0, err);
    kj_lapack_int *piv = A ? malloc(sizeof *piv * (size_t)(n > 0 ? n : 1)) : NULL;
    if (!piv) {
        free(A);
        return A ? kj_rt_errorf(err, "MemoryError", "unable to allocate LAPACK workspace") : false;
    }
    kj_lapack_int info = n > 0 ? LAPACK(l, a->f32, getrf, KJ_CBLAS_COL, (int)n, (int)n, A, lead(n), piv) : 0;
    float sf = 1.0f, lf = 0.0f;
    double sd = 1.0, ld = 0.0;
    if (info > 0) {
        sf = 0.0f, sd = 0.0, lf = -INFINITY, ld = -INFINITY;
    } else {
        for (int64_t i = 0; i < n; i++) {
            double d = get(A, i + i * n, a->f32);
            bool flip = (piv[i] != i + 1) != (d < 0);
            if (flip) sf = -sf, sd = -sd;
            if (a->f32) lf += logf(fabsf((float)d));
            else ld += log(fabs(d));
        }
    }
    *sign = a->f32 ? sf : sd;
    *logdet = a->f32 ? lf : ld;
    free(A);
    free(piv);
    return true;
}

/* np.linalg.cholesky: potrf on the lower triangle, the upper part zeroed */
static kj_array *cholesky(const kj_linalg_lib *l, const operand *a, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return NULL;
    kj_array *res = new_array(a, 2, n, n, false, err);
    void *A = res ? fortran_copy(a, 0, err) : NULL;
    bool ok = A != NULL;
    if (ok && n > 0 && LAPACK(l, a->f32, potrf, KJ_CBLAS_COL, 'L', (int)n, A, lead(n)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "Matrix is not positive definite");
    if (ok) {
        for (int64_t j = 1; j < n; j++)
            for (int64_t i = 0; i < j; i++) set(A, i + j * n, 0.0, a->f32);
        from_fortran(res, A, n, a->isz);
    }
    free(A);
    if (!ok) kj_array_release(res);
    return ok ? res : NULL;
}

/* np.linalg.eigh / eigvalsh (vectors NULL): syevd on the lower triangle
 * (UPLO='L'), eigenvalues ascending */
static kj_array *eigh(const kj_linalg_lib *l, const operand *a, kj_array **vectors, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return NULL;
    kj_array *w = new_array(a, 1, n, 0, false, err);
    kj_array *v = w && vectors ? new_array(a, 2, n, n, false, err) : NULL;
    void *A = w && (v || !vectors) ? fortran_copy(a, 0, err) : NULL;
    bool ok = A != NULL;
    if (ok && n > 0 &&
        LAPACK(l, a->f32, syevd, KJ_CBLAS_COL, vectors ? 'V' : 'N', 'L', (int)n, A, lead(n), (void *)w->data) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "Eigenvalues did not converge");
    if (ok && v) from_fortran(v, A, n, a->isz);
    free(A);
    if (!ok) {
        kj_array_release(w);
        kj_array_release(v);
        return NULL;
    }
    if (vectors) *vectors = v;
    return w;
}

/* np.linalg.svd(a, full_matrices): gesdd, as NumPy; out = {u, s, vh} */
static bool svd(const kj_linalg_lib *l, const operand *a, bool full, kj_array *out[3], kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    int64_t uc = full ? m : k, vr = full ? n : k;
    out[0] = new_array(a, 2, m, uc, false, err);
    out[1] = out[0] ? new_array(a, 1, k, 0, false, err) : NULL;
    out[2] = out[1] ? new_array(a, 2, vr, n, false, err) : NULL;
    void *A = out[2] ? fortran_copy(a, 0, err) : NULL;
    void *U = A ? malloc((size_t)(m * uc > 0 ? m * uc : 1) * a->isz) : NULL;
    void *V = U ? malloc((size_t)(vr * n > 0 ? vr * n : 1) * a->isz) : NULL;
    bool ok = V != NULL;
    if (!ok && A) kj_rt_errorf(err, "MemoryError", "unable to allocate LAPACK workspace");
    if (ok && k > 0 &&
        LAPACK(l, a->f32, gesdd, KJ_CBLAS_COL, full ? 'A' : 'S', (int)m, (int)n, A, lead(m), (void *)out[1]->data, U,
               lead(m), V, lead(vr)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "SVD did not converge");
    if (ok && k == 0) { /* no singular values: NumPy's identity factors */
        memset(U, 0, (size_t)(m * uc) * a->isz);
        memset(V, 0, (size_t)(vr * n) * a->isz);
        for (int64_t i = 0; full && i < m; i++) set(U, i + i * m, 1.0, a->f32);
        for (int64_t i = 0; full && i < n; i++) set(V, i + i * vr, 1.0, a->f32);
    }
    if (ok) {
        from_fortran(out[0], U, m, a->isz);
        from_fortran(out[2], V, vr, a->isz);
    }
    free(A);
    free(U);
    free(V);
    if (!ok)
        for (int i = 0; i < 3; i++) kj_array_release(out[i]), out[i] = NULL;
    return ok;
}

/* np.linalg.qr(a) (mode 'reduced'): geqrf, then orgqr for q; out = {q, r} */
static bool qr(const kj_linalg_lib *l, const operand *a, kj_array *out[2], kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    out[0] = new_array(a, 2, m, k, false, err);
    out[1] = out[0] ? new_array(a, 2, k, n, true, err) : NULL;
    void *A = out[1] ? fortran_copy(a, 0, err) : NULL;
    void *tau = A ? malloc((size_t)(k > 0 ? k : 1) * a->isz) : NULL;
    bool ok = tau != NULL;
    if (!ok && A) kj_rt_errorf(err, "MemoryError", "unable to allocate LAPACK workspace");
    if (ok && k > 0) {
        LAPACK(l, a->f32, geqrf, KJ_CBLAS_COL, (int)m, (int)n, A, lead(m), tau);
        for (int64_t i = 0; i < k; i++) /* r: the upper triangle of the first k rows */
            for (int64_t j = i; j < n; j++) set(out[1]->data, i * n + j, get(A, i + j * m, a->f32), a->f32);
        LAPACK(l, a->f32, orgqr, KJ_CBLAS_COL, (int)m, (int)k, (int)k, A, lead(m), tau);
        from_fortran(out[0], A, m, a->isz);
    }
    free(A);
    free(tau);
    if (!ok)
        for (int i = 0; i < 2; i++) kj_array_release(out[i]), out[i] = NULL;
    return ok;
}

/* np.linalg.eig / eigvals (vectors NULL): geev. Numba returns real
 * results for real input and refuses complex eigenvalues (a ValueError). */
static kj_array *eig(const kj_linalg_lib *l, const operand *a, kj_array **vectors, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return NULL;
    kj_array *w = new_array(a, 1, n, 0, false, err);
    kj_array *v = w && vectors ? new_array(a, 2, n, n, false, err) : NULL;
    void *A = w && (v || !vectors) ? fortran_copy(a, 0, err) : NULL;
    void *wi = A ? malloc((size_t)(n > 0 ? n : 1) * a->isz) : NULL;
    void *vr = wi && vectors ? malloc((size_t)(n * n > 0 ? n * n : 1) * a->isz) : NULL;
    bool ok = wi && (vr || !vectors);
    if (!ok && A) kj_rt_errorf(err, "MemoryError", "unable to allocate LAPACK workspace");
    if (ok && n > 0 &&
        LAPACK(l, a->f32, geev, KJ_CBLAS_COL, 'N', vectors ? 'V' : 'N', (int)n, A, lead(n), (void *)w->data, wi,
               NULL, 1, vr ? vr : wi, lead(n)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "Eigenvalues did not converge");
    for (int64_t i = 0; ok && i < n; i++)
        if (get(wi, i, a->f32) != 0.0)
            ok = kj_rt_errorf(err, "ValueError", "%s() argument must not cause a domain change.",
                              vectors ? "eig" : "eigvals");
    if (ok && v) from_fortran(v, vr, n, a->isz);
    free(A);
    free(wi);
    free(vr);
    if (!ok) {
        kj_array_release(w);
        kj_array_release(v);
        return NULL;
    }
    if (vectors) *vectors = v;
    return w;
}

/* The singular values alone (gesdd 'N'), into a new 1-d array. */
static kj_array *singular_values(const kj_linalg_lib *l, const operand *a, kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    kj_array *s = new_array(a, 1, k, 0, false, err);
    void *A = s ? fortran_copy(a, 0, err) : NULL;
    bool ok = A != NULL;
    if (ok && k > 0 &&
        LAPACK(l, a->f32, gesdd, KJ_CBLAS_COL, 'N', (int)m, (int)n, A, lead(m), (void *)s->data, NULL, 1, NULL, 1) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "SVD did not converge");
    free(A);
    if (!ok) kj_array_release(s);
    return ok ? s : NULL;
}

/* np.linalg.cond(x) (p None): the largest singular value over the smallest */
static bool cond(const kj_linalg_lib *l, const operand *a, void *out, kj_rt_error *err)
{
    kj_array *s = singular_values(l, a, err);
    if (!s) return false;
    int64_t k = s->shape[0];
    double c = k ? get(s->data, 0, a->f32) / get(s->data, k - 1, a->f32) : NAN;
    if (a->f32) *(float *)out = k ? (float)get(s->data, 0, true) / (float)get(s->data, k - 1, true) : NAN;
    else *(double *)out = c;
    kj_array_release(s);
    return true;
}

/* np.linalg.matrix_rank(A) (tol None): singular values above
 * S.max() * max(M, N) * eps */
static bool matrix_rank(const kj_linalg_lib *l, const operand *a, int64_t *out, kj_rt_error *err)
{
    kj_array *s = singular_values(l, a, err);
    if (!s) return false;
    int64_t k = s->shape[0], m = rows(&a->h), n = cols(&a->h), rank = 0;
    double smax = 0.0;
    for (int64_t i = 0; i < k; i++) smax = fmax(smax, get(s->data, i, a->f32));
    double tol = smax * (double)(m > n ? m : n) * (a->f32 ? (double)FLT_EPSILON : DBL_EPSILON);
    if (a->f32) tol = (float)tol;
    for (int64_t i = 0; i < k; i++) rank += get(s->data, i, a->f32) > tol;
    *out = rank;
    kj_array_release(s);
    return true;
}

/* np.linalg.pinv(a, rcond): NumPy's vh.T @ (1/s cut at rcond*max(s)) u.T
 * from the reduced SVD */
static kj_array *pinv(const kj_linalg_lib *l, const operand *a, double rcond, kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    kj_array *f[3];
    if (!svd(l, a, false, f, err)) return NULL;
    double smax = 0.0;
    for (int64_t i = 0; i < k; i++) smax = fmax(smax, get(f[1]->data, i, a->f32));
    double cut = rcond * smax;
    for (int64_t i = 0; i < k; i++) { /* u[:, i] *= 1/s[i] (0 below the cut) */
        double si = get(f[1]->data, i, a->f32);
        double inv = si > cut ? (a->f32 ? (double)(1.0f / (float)si) : 1.0 / si) : 0.0;
        for (int64_t r = 0; r < m; r++) {
            double x = get(f[0]->data, r * k + i, a->f32);
            set(f[0]->data, r * k + i, a->f32 ? (double)((float)x * (float)inv) : x * inv, a->f32);
        }
    }
    operand v = of_array(f[2]), u = of_array(f[0]);
    operand vt = transposed(&v), ut = transposed(&u);
    kj_array *res = m && n ? product(l, &vt, &ut, NULL, err) : new_array(a, 2, n, m, true, err);
    for (int i = 0; i < 3; i++) kj_array_release(f[i]);
    return res;
}

/* np.linalg.lstsq(a, b, rcond): gelsd, as NumPy; out = {x, residuals,
 * (rank in *rank), s}. Residuals: the squared norms of b's rows past n when
 * a has full column rank and more rows than columns, else none. */
static bool lstsq(const kj_linalg_lib *l, const operand *a, const operand *b, double rcond, kj_array *out[3],
                  int64_t *rank, kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n, nrhs = cols(&b->h), ldb = m > n ? m : n;
    out[0] = out[1] = out[2] = NULL;
    if (rows(&b->h) != m) return kj_rt_errorf(err, "LinAlgError", "Incompatible dimensions");
    void *A = fortran_copy(a, 0, err);
    char *B = A ? calloc((size_t)(ldb > 0 ? ldb : 1) * (size_t)(nrhs > 0 ? nrhs : 1), a->isz) : NULL;
    out[2] = B ? new_array(a, 1, k, 0, false, err) : NULL;
    if (A && !B) kj_rt_errorf(err, "MemoryError", "unable to allocate LAPACK workspace");
    bool ok = out[2] != NULL;
    for (int64_t j = 0; ok && j < nrhs; j++)
        for (int64_t i = 0; i < m; i++) memcpy(B + (size_t)(i + j * ldb) * a->isz, at(&b->h, i, j), a->isz);
    kj_lapack_int r = 0;
    if (ok && k > 0 && nrhs > 0 &&
        (a->f32 ? l->LAPACKE_sgelsd(KJ_CBLAS_COL, (int)m, (int)n, (int)nrhs, A, lead(m), (float *)(void *)B, lead(ldb),
                                    (float *)(void *)out[2]->data, (float)rcond, &r)
                : l->LAPACKE_dgelsd(KJ_CBLAS_COL, (int)m, (int)n, (int)nrhs, A, lead(m), (double *)(void *)B,
                                    lead(ldb), (double *)(void *)out[2]->data, rcond, &r)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "SVD did not converge in Linear Least Squares");
    bool resid = ok && r == n && m > n;
    if (ok) out[0] = new_array(a, b->h.ndim, n, nrhs, false, err);
    if (out[0]) out[1] = new_array(a, 1, resid ? nrhs : 0, 0, false, err);
    ok = out[1] != NULL;
    if (ok) {
        from_fortran(out[0], B, ldb, a->isz);
        for (int64_t j = 0; resid && j < nrhs; j++) {
            double acc = 0.0;
            for (int64_t i = n; i < m; i++) {
                double x = get(B, i + j * ldb, a->f32);
                acc = a->f32 ? (double)((float)acc + (float)x * (float)x) : acc + x * x;
            }
            set(out[1]->data, j, acc, a->f32);
        }
    }
    *rank = r;
    free(A);
    free(B);
    if (!ok)
        for (int i = 0; i < 3; i++) kj_array_release(out[i]), out[i] = NULL;
    return ok;
}

/* ---- the rest: NumPy's own loops (no heavy work) ---- */

/* np.linalg.matrix_power(a, n): NumPy's square-and-multiply (n < 0: of inv(a)) */
static kj_array *matrix_power(kj_rt *rt, const kj_linalg_lib *l, const operand *a, int64_t n, kj_rt_error *err)
{
    if (!square(a, err)) return NULL;
    int64_t m = rows(&a->h);
    if (n == 0) {
        kj_array *id = new_array(a, 2, m, m, true, err);
        for (int64_t i = 0; id && i < m; i++) set(id->data, i * m + i, 1.0, a->f32);
        return id;
    }
    kj_array *base = n < 0 ? solve(l, a, NULL, err) : NULL;
    if (n < 0 && !base) return NULL;
    if (base) kj_rt_own(rt, base); /* every intermediate is the run's: released with it, error or not */
    operand z = base ? of_array(base) : *a;
    kj_array *result = NULL;
    for (int64_t k = n < 0 ? -n : n, first = 1; k > 0; k /= 2, first = 0) {
        if (!first) {
            kj_array *sq = product(l, &z, &z, NULL, err);
            if (!sq) return NULL;
            kj_rt_own(rt, sq);
            z = of_array(sq);
        }
        if (k % 2) {
            operand acc = result ? of_array(result) : z;
            kj_array *r = result ? product(l, &acc, &z, NULL, err)
                                 : kj_array_astype(&z.h, z.f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64, err);
            if (!r) return NULL;
            kj_rt_own(rt, r);
            result = r;
        }
    }
    return kj_array_retain(result); /* the caller registers its own reference */
}

/* np.trace(a): the diagonal's sum, pairwise as NumPy's a.diagonal().sum() */
static void trace(const kj_array *h, void *out)
{
    int64_t n = h->shape[0] < h->shape[1] ? h->shape[0] : h->shape[1], step = h->strides[0] + h->strides[1];
    if (h->dtype == KJ_DT_FLOAT64) *(double *)out = kj_pairwise_f64(h->data, n, step);
    else if (h->dtype == KJ_DT_FLOAT32) *(float *)out = kj_pairwise_f32(h->data, n, step);
}

/* np.outer(a, b) and np.kron(a, b) (1-d or 2-d: a 1-d operand is one row) */
static kj_array *outer_kron(const operand *a, const operand *b, bool kron, kj_rt_error *err)
{
    int64_t ra = a->h.ndim == 2 ? rows(&a->h) : 1, ca = a->h.shape[a->h.ndim - 1];
    int64_t rb = b->h.ndim == 2 ? rows(&b->h) : 1, cb = b->h.shape[b->h.ndim - 1];
    kj_array *res;
    if (!kron) res = new_array(a, 2, ra * ca, rb * cb, false, err);
    else if (a->h.ndim == 1 && b->h.ndim == 1) res = new_array(a, 1, ca * cb, 0, false, err);
    else res = new_array(a, 2, ra * rb, ca * cb, false, err);
    if (!res) return NULL;
    int64_t width = kron ? ca * cb : rb * cb;
    for (int64_t i = 0; i < ra; i++)
        for (int64_t j = 0; j < ca; j++) {
            double x = get(a->h.ndim == 2 ? at(&a->h, i, j) : a->h.data + j * a->h.strides[0], 0, a->f32);
            for (int64_t p = 0; p < rb; p++)
                for (int64_t q = 0; q < cb; q++) {
                    double y = get(b->h.ndim == 2 ? at(&b->h, p, q) : b->h.data + q * b->h.strides[0], 0, b->f32);
                    int64_t idx = kron ? (i * rb + p) * width + j * cb + q : (i * ca + j) * width + p * cb + q;
                    set(res->data, idx, a->f32 ? (double)((float)x * (float)y) : x * y, a->f32);
                }
        }
    return res;
}

/* np.linalg.norm(a) (ord None): sqrt(dot(x, x)) of the flattened array, as NumPy */
static bool norm(const kj_linalg_lib *l, const operand *a, void *out, kj_rt_error *err)
{
    void *tmp = NULL;
    const char *p = c_data(a, &tmp, err);
    if (!p) return false;
    int n = (int)(rows(&a->h) * cols(&a->h));
    const void *x = p;
    if (a->f32) *(float *)out = sqrtf(l->cblas_sdot(n, x, 1, x, 1));
    else *(double *)out = sqrt(l->cblas_ddot(n, x, 1, x, 1));
    free(tmp);
    return true;
}

/* ---- the entry ---- */

static void store_scalar(void *out, double v, bool f32)
{
    if (f32) *(float *)out = (float)v;
    else *(double *)out = v;
}

/* Register results[0..n) and describe each into outs (NULL: raise err). */
static void results(kj_rt *rt, kj_array **res, int n, void **outs, const kj_rt_error *err, int32_t line, int32_t col)
{
    for (int k = 0; k < n; k++)
        if (!res[k]) kj_rt_raise_error(rt, err, line, col);
    for (int k = 0; k < n; k++) {
        kj_rt_own(rt, res[k]);
        kj_rt_describe(outs[k], res[k], res[k]->ndim);
    }
}

static void products(kj_rt *rt, const kj_linalg_lib *l, int32_t op, const operand *a, const operand *b, void **outs,
                     int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    bool ok = true;
    if (a->h.ndim == 3 || b->h.ndim == 3) {
        kj_array *r = batched(l, a, b, &err);
        return results(rt, &r, 1, outs, &err, line, col);
    }
    if (op == KJ_LA_MATMUL) ok = matmul_aligned(a, b, &err);
    else if (op == KJ_LA_VDOT && a->h.shape[0] != b->h.shape[0])
        ok = kj_rt_errorf(&err, "ValueError", "vectors have different lengths");
    else if (op != KJ_LA_VDOT) ok = dot_aligned(a, b, op == KJ_LA_INNER, &err);
    if (!ok) kj_rt_raise_error(rt, &err, line, col);
    operand bt = op == KJ_LA_INNER ? transposed(b) : *b;
    kj_array *r = a->h.dtype == KJ_DT_INT64 ? kj_rt_int_product(&a->h, &bt.h, outs[0], &err)
                                            : product(l, a, &bt, outs[0], &err);
    if (a->h.ndim == 1 && b->h.ndim == 1) {
        if (err.exc) kj_rt_raise_error(rt, &err, line, col);
        return;
    }
    results(rt, &r, 1, outs, &err, line, col);
}

void kj_rt_linalg(kj_rt *rt, int32_t op, const void *pa, int32_t andim, int32_t adtype, const void *pb, int32_t bndim,
                  int32_t bdtype, int64_t n, double x, void **outs, int32_t line, int32_t col)
{
    operand a = {.isz = kj_dtype_size((kj_dtype)adtype), .f32 = adtype == KJ_DT_FLOAT32}, b = a;
    kj_rt_header(&a.h, pa, andim, adtype);
    if (pb) {
        kj_rt_header(&b.h, pb, bndim, bdtype);
        b.isz = kj_dtype_size((kj_dtype)bdtype);
    }
    if (kj_dtype_info[adtype].kind == 'c') /* rt_linalg_cpx.c */
        return kj_rt_linalg_cpx(rt, op, &a.h, pb ? &b.h : NULL, n, x, outs, line, col);
    kj_rt_error err = {0};
    kj_array *r[3] = {0};
    if (op == KJ_LA_TRACE) return trace(&a.h, outs[0]);
    if (op == KJ_LA_OUTER || op == KJ_LA_KRON) {
        r[0] = outer_kron(&a, &b, op == KJ_LA_KRON, &err);
        return results(rt, r, 1, outs, &err, line, col);
    }
    bool products_only = op == KJ_LA_DOT || op == KJ_LA_MATMUL || op == KJ_LA_VDOT || op == KJ_LA_INNER ||
                         op == KJ_LA_NORM;
    /* integer products (rt_linalg_int.c) need no BLAS */
    const kj_linalg_lib *l = products_only && adtype == KJ_DT_INT64 ? NULL : lib(rt, !products_only, line, col);
    switch (op) {
    case KJ_LA_DOT: case KJ_LA_MATMUL: case KJ_LA_VDOT: case KJ_LA_INNER:
        return products(rt, l, op, &a, &b, outs, line, col);
    case KJ_LA_SOLVE: r[0] = solve(l, &a, &b, &err); break;
    case KJ_LA_INV: r[0] = solve(l, &a, NULL, &err); break;
    case KJ_LA_CHOLESKY: r[0] = cholesky(l, &a, &err); break;
    case KJ_LA_MATRIX_POWER: r[0] = matrix_power(rt, l, &a, n, &err); break;
    case KJ_LA_EIGVALSH: r[0] = eigh(l, &a, NULL, &err); break;
    case KJ_LA_EIGH:
        r[0] = eigh(l, &a, &r[1], &err);
        return results(rt, r, 2, outs, &err, line, col);
    case KJ_LA_SVD: svd(l, &a, n != 0, r, &err); return results(rt, r, 3, outs, &err, line, col);
    case KJ_LA_QR: qr(l, &a, r, &err); return results(rt, r, 2, outs, &err, line, col);
    case KJ_LA_DET: case KJ_LA_SLOGDET: {
        double sign = 0, logdet = 0;
        if (!slogdet(l, &a, &sign, &logdet, &err)) kj_rt_raise_error(rt, &err, line, col);
        if (op == KJ_LA_SLOGDET) {
            store_scalar(outs[0], sign, a.f32);
            store_scalar(outs[1], logdet, a.f32);
        } else {
            store_scalar(outs[0], a.f32 ? (double)((float)sign * expf((float)logdet)) : sign * exp(logdet), a.f32);
        }
        return;
    }
    case KJ_LA_NORM:
        if (!norm(l, &a, outs[0], &err)) kj_rt_raise_error(rt, &err, line, col);
        return;
    case KJ_LA_COND:
        if (!cond(l, &a, outs[0], &err)) kj_rt_raise_error(rt, &err, line, col);
        return;
    case KJ_LA_MATRIX_RANK:
        if (!matrix_rank(l, &a, outs[0], &err)) kj_rt_raise_error(rt, &err, line, col);
        return;
    case KJ_LA_EIGVALS: r[0] = eig(l, &a, NULL, &err); break;
    case KJ_LA_EIG:
        r[0] = eig(l, &a, &r[1], &err);
        return results(rt, r, 2, outs, &err, line, col);
    case KJ_LA_PINV: r[0] = pinv(l, &a, x, &err); break;
    case KJ_LA_LSTSQ: {
        kj_array *f[3];
        int64_t rank = 0;
        if (!lstsq(l, &a, &b, x, f, &rank, &err)) kj_rt_raise_error(rt, &err, line, col);
        void *arr_outs[3] = {outs[0], outs[1], outs[3]};
        results(rt, f, 3, arr_outs, &err, line, col);
        *(int64_t *)outs[2] = rank;
        return;
    }
    default: kj_rt_errorf(&err, "RuntimeError", "unknown linear-algebra operation %d", (int)op);
    }
    results(rt, r, 1, outs, &err, line, col);
}
