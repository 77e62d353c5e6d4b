/* SPDX-License-Identifier: BSD-2-Clause */
/* np.dot, @, np.vdot/inner/outer/kron/trace and np.linalg.* on complex64
 * and complex128 arrays (linalg.h; rt_linalg.c hands them over): products
 * through OpenBLAS's cgemm/zgemm, cgemv/zgemv and cdotu/zdotu (cdotc/zdotc
 * for np.vdot, which conjugates its first operand), factorisations through
 * LAPACKE's 'c'/'z' routines as Numba and NumPy call them (gesv, getrf,
 * potrf, heevd, geev, gesdd, geqrf + ungqr, gelsd), with NumPy's shapes,
 * result dtypes (eigenvalues of heevd, singular values, norms and
 * log-determinants are real) and errors.
 *
 * Layout: every BLAS operand that is not C-contiguous is first copied into a
 * C-ordered buffer, and every LAPACK routine gets a fresh column-major copy
 * (it overwrites its input), so no routine sees a layout it was not told
 * of. The complex routines are looked up in the libraries rt_linalg.c
 * opened (the handles of kj_linalg_lib), at each call. */
#include "linalg.h"
#include "rt_host.h"
#include "array.h"
#include "array_int.h"

#include <stdio.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CBLAS_CONJTRANS = 113 };

typedef kj_lapack_int li;

/* The entry points, each resolved in its 'c' or 'z' form. */
typedef struct {
    void (*gemm)(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *,
                 void *, int);
    void (*gemv)(int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *, int);
    void (*dotu)(int, const void *, int, const void *, int, void *);
    void (*dotc)(int, const void *, int, const void *, int, void *);
    li (*gesv)(int, li, li, void *, li, li *, void *, li);
    li (*getrf)(int, li, li, void *, li, li *);
    li (*potrf)(int, char, li, void *, li);
    li (*heevd)(int, char, char, li, void *, li, void *);
    li (*geev)(int, char, char, li, void *, li, void *, void *, li, void *, li);
    li (*gesdd)(int, char, li, li, void *, li, void *, void *, li, void *, li);
    li (*geqrf)(int, li, li, void *, li, void *);
    li (*ungqr)(int, li, li, li, void *, li, void *);
    /* gelsd: rcond is a float for 'c', a double for 'z' */
    li (*gelsd_c)(int, li, li, li, void *, li, void *, li, void *, float, li *);
    li (*gelsd_z)(int, li, li, li, void *, li, void *, li, void *, double, li *);
} cfuncs;

/* One operand: its header and whether it is complex64. */
typedef struct {
    kj_array h;
    bool f32;
    size_t isz; /* 8 or 16 */
} cop;

typedef struct {
    kj_rt *rt;
    cfuncs f;
    bool f32;
    int32_t line, col;
} ctx;

static void *sym(void *h, const char *prefix, char k, const char *name, kj_rt_error *err)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%c%s", prefix, k, name);
    void *p = h ? dlsym(h, buf) : NULL;
    if (!p && !err->exc) kj_rt_errorf(err, "RuntimeError", "the linear-algebra library lacks %s", buf);
    return p;
}

/* Open the libraries as rt_linalg.c does, and resolve the complex routines
 * (LAPACKE's only when `lapack`); raises when absent. */
static void open_funcs(ctx *c, bool lapack)
{
    kj_rt_error err = {.exc = "RuntimeError"};
    if (!c->rt->linalg) c->rt->linalg = kj_linalg_open(err.message, sizeof err.message);
    if (!c->rt->linalg || (lapack && !kj_linalg_open_lapack(c->rt->linalg, err.message, sizeof err.message)))
        kj_rt_raise_error(c->rt, &err, c->line, c->col);
    err = (kj_rt_error){0};
    void *b = c->rt->linalg->blas, *l = c->rt->linalg->lapacke;
    char k = c->f32 ? 'c' : 'z';
    *(void **)&c->f.gemm = sym(b, "cblas_", k, "gemm", &err);
    *(void **)&c->f.gemv = sym(b, "cblas_", k, "gemv", &err);
    *(void **)&c->f.dotu = sym(b, "cblas_", k, "dotu_sub", &err);
    *(void **)&c->f.dotc = sym(b, "cblas_", k, "dotc_sub", &err);
    if (lapack) {
        *(void **)&c->f.gesv = sym(l, "LAPACKE_", k, "gesv", &err);
        *(void **)&c->f.getrf = sym(l, "LAPACKE_", k, "getrf", &err);
        *(void **)&c->f.potrf = sym(l, "LAPACKE_", k, "potrf", &err);
        *(void **)&c->f.heevd = sym(l, "LAPACKE_", k, "heevd", &err);
        *(void **)&c->f.geev = sym(l, "LAPACKE_", k, "geev", &err);
        *(void **)&c->f.gesdd = sym(l, "LAPACKE_", k, "gesdd", &err);
        *(void **)&c->f.geqrf = sym(l, "LAPACKE_", k, "geqrf", &err);
        *(void **)&c->f.ungqr = sym(l, "LAPACKE_", k, "ungqr", &err);
        if (c->f32) *(void **)&c->f.gelsd_c = sym(l, "LAPACKE_", k, "gelsd", &err);
        else *(void **)&c->f.gelsd_z = sym(l, "LAPACKE_", k, "gelsd", &err);
    }
    if (err.exc) kj_rt_raise_error(c->rt, &err, c->line, c->col);
}

/* ---- elements (the schoolbook products of NumPy's complex loops) ---- */

typedef struct {
    double re, im;
} cx;

static cx cget(const void *p, int64_t i, bool f32)
{
    if (f32) {
        const float *q = (const float *)p + 2 * i;
        return (cx){q[0], q[1]};
    }
    const double *q = (const double *)p + 2 * i;
    return (cx){q[0], q[1]};
}

static void cset(void *p, int64_t i, cx v, bool f32)
{
    if (f32) {
        float *q = (float *)p + 2 * i;
        q[0] = (float)v.re, q[1] = (float)v.im;
    } else {
        double *q = (double *)p + 2 * i;
        q[0] = v.re, q[1] = v.im;
    }
}

/* a * b in the part type */
static cx cmul(cx a, cx b, bool f32)
{
    if (f32) {
        float ar = (float)a.re, ai = (float)a.im, br = (float)b.re, bi = (float)b.im;
        float x = ar * br - ai * bi, y = ar * bi + ai * br;
        return (cx){x, y};
    }
    double x = a.re * b.re - a.im * b.im, y = a.re * b.im + a.im * b.re;
    return (cx){x, y};
}

static const void *one(bool f32)
{
    static const float f[2] = {1, 0};
    static const double d[2] = {1, 0};
    return f32 ? (const void *)f : (const void *)d;
}

static const void *zero(bool f32)
{
    static const float f[2] = {0, 0};
    static const double d[2] = {0, 0};
    return f32 ? (const void *)f : (const void *)d;
}

static const char *at(const kj_array *h, int64_t i, int64_t j)
{
    return h->data + i * h->strides[0] + (h->ndim > 1 ? j * h->strides[1] : 0);
}

static int64_t rows(const kj_array *h) { return h->shape[0]; }
static int64_t cols(const kj_array *h) { return h->ndim > 1 ? h->shape[1] : 1; }
static int lead(int64_t n) { return n > 1 ? (int)n : 1; }

static kj_dtype cdt(bool f32) { return f32 ? KJ_DT_COMPLEX64 : KJ_DT_COMPLEX128; }
static kj_dtype rdt(bool f32) { return f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64; }

static kj_array *new_arr(kj_dtype dt, int nd, int64_t d0, int64_t d1, bool zero, kj_rt_error *err)
{
    int64_t shape[2] = {d0, d1};
    return zero ? kj_array_zeros(dt, nd, shape, err) : kj_array_empty(dt, nd, shape, err);
}

static void *alloc(size_t n, size_t isz, kj_rt_error *err)
{
    void *p = calloc(n ? n : 1, isz);
    if (!p) kj_rt_errorf(err, "MemoryError", "unable to allocate a LAPACK work copy");
    return p;
}

/* The matrix (a vector as one column) as a column-major buffer of its own,
 * ld rows (>= its rows) by at least `mincols` columns. */
static void *fortran_copy(const cop *o, int64_t ld, int64_t mincols, kj_rt_error *err)
{
    int64_t r = rows(&o->h), c = cols(&o->h);
    char *buf = alloc((size_t)(ld > 0 ? ld : 1) * (size_t)(c > mincols ? c : mincols > 0 ? mincols : 1), o->isz,
                      err);
    for (int64_t j = 0; buf && j < c; j++)
        for (int64_t i = 0; i < r; i++) memcpy(buf + (size_t)(i + j * ld) * o->isz, at(&o->h, i, j), o->isz);
    return buf;
}

/* Rows [0, r) of columns [0, c) of a column-major buffer into C-ordered out */
static void from_fortran(kj_array *out, const char *buf, int64_t ld, size_t isz)
{
    int64_t r = out->shape[0], c = out->ndim > 1 ? out->shape[1] : 1;
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++)
            memcpy(out->data + (size_t)(i * c + j) * isz, buf + (size_t)(i + j * ld) * isz, isz);
}

/* A C-contiguous copy of o's matrix (o's own data when it is one). */
static const char *c_data(const cop *o, void **tmp, kj_rt_error *err)
{
    *tmp = NULL;
    if (kj_array_is_c_contiguous(&o->h)) return o->h.data;
    int64_t r = rows(&o->h), c = cols(&o->h);
    char *buf = alloc((size_t)(r * c), o->isz, err);
    for (int64_t i = 0; buf && i < r; i++)
        for (int64_t j = 0; j < c; j++) memcpy(buf + (size_t)(i * c + j) * o->isz, at(&o->h, i, j), o->isz);
    *tmp = buf;
    return buf;
}

static cop of_array(const kj_array *x)
{
    return (cop){.h = *x, .f32 = x->dtype == KJ_DT_COMPLEX64, .isz = kj_array_itemsize(x)};
}


/* "(2,3)" / "(3,)" as NumPy prints a shape */
static const char *shape_str(const kj_array *h, char *buf, size_t cap)
{
    if (h->ndim == 1) snprintf(buf, cap, "(%lld,)", (long long)h->shape[0]);
    else snprintf(buf, cap, "(%lld,%lld)", (long long)h->shape[0], (long long)h->shape[1]);
    return buf;
}

/* ---- products ---- */

/* out (C-contiguous m x n) = a·b of 2-d operands, none of m, n, k zero */
static bool gemm_into(const ctx *c, const cop *a, const cop *b, void *out, kj_rt_error *err)
{
    int m = (int)rows(&a->h), n = (int)cols(&b->h), k = (int)cols(&a->h);
    void *ta = NULL, *tb = NULL;
    const char *pa = c_data(a, &ta, err), *pb = pa ? c_data(b, &tb, err) : NULL;
    if (pb)
        c->f.gemm(KJ_CBLAS_ROW, KJ_CBLAS_NOTRANS, KJ_CBLAS_NOTRANS, m, n, k, one(c->f32), pa, lead(k), pb, lead(n),
                  zero(c->f32), out, lead(n));
    free(ta);
    free(tb);
    return pb != NULL;
}

/* a·b of 1-d/2-d operands (shapes checked): the scalar at `scalar` for two
 * vectors (conjugating a for np.vdot), else a new array. */
static kj_array *product(const ctx *c, const cop *a, const cop *b, bool conj, void *scalar, kj_rt_error *err)
{
    void *ta = NULL, *tb = NULL;
    if (a->h.ndim == 1 && b->h.ndim == 1) {
        const char *x = c_data(a, &ta, err), *y = x ? c_data(b, &tb, err) : NULL;
        if (y) (conj ? c->f.dotc : c->f.dotu)((int)a->h.shape[0], x, 1, y, 1, scalar);
        free(ta);
        free(tb);
        return NULL;
    }
    int64_t m = a->h.ndim == 2 ? rows(&a->h) : 1, k = a->h.shape[a->h.ndim - 1];
    int64_t n = b->h.ndim == 2 ? b->h.shape[1] : 1;
    kj_array *res = new_arr(cdt(c->f32), a->h.ndim + b->h.ndim - 2, a->h.ndim == 2 ? m : n, n, true, err);
    if (!res || k == 0 || m == 0 || n == 0) return res;
    if (a->h.ndim == 2 && b->h.ndim == 2) {
        if (gemm_into(c, a, b, res->data, err)) return res;
        kj_array_release(res);
        return NULL;
    }
    const cop *mat = a->h.ndim == 2 ? a : b, *vec = a->h.ndim == 2 ? b : a;
    const char *pm = c_data(mat, &ta, err), *pv = pm ? c_data(vec, &tb, err) : NULL;
    if (pv) /* A·x, or x·B = B^T·x */
        c->f.gemv(KJ_CBLAS_ROW, a->h.ndim == 2 ? KJ_CBLAS_NOTRANS : KJ_CBLAS_TRANS, (int)rows(&mat->h),
                  (int)cols(&mat->h), one(c->f32), pm, lead(cols(&mat->h)), pv, 1, zero(c->f32), res->data, 1);
    free(ta);
    free(tb);
    if (!pv) kj_array_release(res);
    return pv ? res : NULL;
}

static bool aligned(const cop *a, const cop *b, kj_linalg_op op, kj_rt_error *err)
{
    char sa[48], sb[48];
    if (op == KJ_LA_VDOT)
        return a->h.shape[0] == b->h.shape[0] ||
               kj_rt_errorf(err, "ValueError", "vectors have different lengths");
    if (op == KJ_LA_MATMUL) {
        int64_t ka = a->h.shape[a->h.ndim - 1], kb = b->h.shape[b->h.ndim == 1 ? 0 : b->h.ndim - 2];
        return ka == kb || kj_rt_errorf(err, "ValueError",
                                        "matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                                        "gufunc signature (n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
                                        (long long)kb, (long long)ka);
    }
    int ia = a->h.ndim - 1, ib = op == KJ_LA_INNER ? b->h.ndim - 1 : (b->h.ndim == 1 ? 0 : b->h.ndim - 2);
    return a->h.shape[ia] == b->h.shape[ib] ||
           kj_rt_errorf(err, "ValueError", "shapes %s and %s not aligned: %lld (dim %d) != %lld (dim %d)",
                        shape_str(&a->h, sa, sizeof sa), shape_str(&b->h, sb, sizeof sb),
                        (long long)a->h.shape[ia], ia, (long long)b->h.shape[ib], ib);
}

/* Matrix i of a 3-d operand's batch (a 2-d operand: itself). */
static cop batch_item(const cop *o, int64_t i)
{
    if (o->h.ndim == 2) return *o;
    cop t = *o;
    t.h.ndim = 2;
    t.h.data = o->h.data + (o->h.shape[0] == 1 ? 0 : i) * o->h.strides[0];
    t.h.shape[0] = o->h.shape[1], t.h.shape[1] = o->h.shape[2];
    t.h.strides[0] = o->h.strides[1], t.h.strides[1] = o->h.strides[2];
    kj_array_update_flags(&t.h);
    return t;
}

/* a @ b with a 3-d operand: one gemm per matrix, the batch broadcast */
static kj_array *batched(const ctx *c, const cop *a, const cop *b, kj_rt_error *err)
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
    if (!aligned(a, b, KJ_LA_MATMUL, err)) return NULL;
    int64_t nb = ba > bb ? ba : bb, shape[3] = {nb, m, n};
    kj_array *res = kj_array_zeros(cdt(c->f32), 3, shape, err);
    for (int64_t i = 0; res && k > 0 && m > 0 && n > 0 && i < nb; i++) {
        cop ai = batch_item(a, i), bi = batch_item(b, i);
        if (!gemm_into(c, &ai, &bi, res->data + (size_t)(i * m * n) * a->isz, err)) {
            kj_array_release(res);
            return NULL;
        }
    }
    return res;
}

static cop transposed(const cop *b)
{
    cop t = *b;
    if (b->h.ndim == 2) {
        t.h.shape[0] = b->h.shape[1], t.h.shape[1] = b->h.shape[0];
        t.h.strides[0] = b->h.strides[1], t.h.strides[1] = b->h.strides[0];
        kj_array_update_flags(&t.h);
    }
    return t;
}

/* np.outer(a, b) and np.kron(a, b) (1-d or 2-d: a 1-d operand is one row) */
static kj_array *outer_kron(const cop *a, const cop *b, bool kron, kj_rt_error *err)
{
    int64_t ra = a->h.ndim == 2 ? rows(&a->h) : 1, ca = a->h.shape[a->h.ndim - 1];
    int64_t rb = b->h.ndim == 2 ? rows(&b->h) : 1, cb = b->h.shape[b->h.ndim - 1];
    kj_dtype dt = cdt(a->f32);
    kj_array *res = !kron                                     ? new_arr(dt, 2, ra * ca, rb * cb, false, err)
                    : a->h.ndim == 1 && b->h.ndim == 1 ? new_arr(dt, 1, ca * cb, 0, false, err)
                                                              : new_arr(dt, 2, ra * rb, ca * cb, false, err);
    if (!res) return NULL;
    int64_t width = kron ? ca * cb : rb * cb;
    for (int64_t i = 0; i < ra; i++)
        for (int64_t j = 0; j < ca; j++) {
            cx x = cget(a->h.ndim == 2 ? at(&a->h, i, j) : a->h.data + j * a->h.strides[0], 0, a->f32);
            for (int64_t p = 0; p < rb; p++)
                for (int64_t q = 0; q < cb; q++) {
                    cx y = cget(b->h.ndim == 2 ? at(&b->h, p, q) : b->h.data + q * b->h.strides[0], 0, b->f32);
                    int64_t idx = kron ? (i * rb + p) * width + j * cb + q : (i * ca + j) * width + p * cb + q;
                    cset(res->data, idx, cmul(x, y, a->f32), a->f32);
                }
        }
    return res;
}

/* np.trace(a): the diagonal's complex sum, pairwise as a.diagonal().sum() */
static void trace(const kj_array *h, bool f32, void *out)
{
    int64_t n = h->shape[0] < h->shape[1] ? h->shape[0] : h->shape[1], step = h->strides[0] + h->strides[1];
    double sr = 0, si = 0;
    float fr = 0, fi = 0;
    for (int64_t k = 0; k < n; k += 8192) {
        double r, i;
        kj_cpx_pairwise(h->data + k * step, n - k < 8192 ? n - k : 8192, step, f32, &r, &i);
        if (f32) fr += (float)r, fi += (float)i;
        else sr += r, si += i;
    }
    cset(out, 0, f32 ? (cx){fr, fi} : (cx){sr, si}, f32);
}

/* np.linalg.norm(x) (ord None): sqrt(re·re + im·im) of the flattened
 * array, each dot product BLAS's, as NumPy */
static bool norm(const ctx *c, const cop *a, void *out, kj_rt_error *err)
{
    void *tmp = NULL;
    const char *p = c_data(a, &tmp, err);
    if (!p) return false;
    int n = (int)(rows(&a->h) * cols(&a->h));
    const kj_linalg_lib *l = c->rt->linalg;
    if (c->f32) {
        const float *x = (const float *)(const void *)p;
        float s = l->cblas_sdot(n, x, 2, x, 2) + l->cblas_sdot(n, x + 1, 2, x + 1, 2);
        *(float *)out = sqrtf(s);
    } else {
        const double *x = (const double *)(const void *)p;
        double s = l->cblas_ddot(n, x, 2, x, 2) + l->cblas_ddot(n, x + 1, 2, x + 1, 2);
        *(double *)out = sqrt(s);
    }
    free(tmp);
    return true;
}

/* ---- LAPACK ---- */

static bool square(const cop *a, kj_rt_error *err)
{
    return rows(&a->h) == cols(&a->h) ||
           kj_rt_errorf(err, "LinAlgError", "Last 2 dimensions of the array must be square");
}

/* np.linalg.solve(a, b) (inv: b NULL, the identity): gesv */
static kj_array *solve(const ctx *c, const cop *a, const cop *b, kj_rt_error *err)
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
    kj_array *res = new_arr(cdt(c->f32), b ? b->h.ndim : 2, n, nrhs, false, err);
    void *A = res ? fortran_copy(a, n, 0, err) : NULL;
    void *B = !A ? NULL : b ? fortran_copy(b, n, 0, err) : alloc((size_t)(n * n), a->isz, err);
    li *piv = B ? alloc((size_t)n, sizeof *piv, err) : NULL;
    bool ok = piv != NULL;
    for (int64_t i = 0; ok && !b && i < n; i++) cset(B, i + i * n, (cx){1, 0}, c->f32);
    if (ok && n > 0 && nrhs > 0 && c->f.gesv(KJ_CBLAS_COL, (li)n, (li)nrhs, A, lead(n), piv, B, lead(n)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "Singular matrix");
    if (ok) from_fortran(res, B, n, a->isz);
    free(A);
    free(B);
    free(piv);
    if (!ok) kj_array_release(res);
    return ok ? res : NULL;
}

/* NumPy's complex slogdet through LU (getrf): the sign a product of the
 * diagonal's phases (and -1 per row swap), log|det| the sum of the logs
 * of their moduli, in the part type. */
static bool slogdet(const ctx *c, const cop *a, cx *sign, double *logdet, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return false;
    void *A = fortran_copy(a, n, 0, err);
    li *piv = A ? alloc((size_t)n, sizeof *piv, err) : NULL;
    if (!piv) {
        free(A);
        return false;
    }
    li info = n > 0 ? c->f.getrf(KJ_CBLAS_COL, (li)n, (li)n, A, lead(n), piv) : 0;
    bool f32 = c->f32;
    cx s = {1, 0};
    double ld = 0;
    float ldf = 0;
    if (info > 0) {
        s = (cx){0, 0}, ld = -INFINITY, ldf = -INFINITY;
    } else {
        int swaps = 0;
        for (int64_t i = 0; i < n; i++) swaps += piv[i] != i + 1;
        if (swaps % 2) s = (cx){-1, 0};
        for (int64_t i = 0; i < n; i++) {
            cx d = cget(A, i + i * n, f32);
            if (f32) {
                float m = hypotf((float)d.re, (float)d.im);
                s = cmul(s, (cx){(float)d.re / m, (float)d.im / m}, true);
                ldf += logf(m);
            } else {
                double m = hypot(d.re, d.im);
                s = cmul(s, (cx){d.re / m, d.im / m}, false);
                ld += log(m);
            }
        }
    }
    *sign = s;
    *logdet = f32 ? ldf : ld;
    free(A);
    free(piv);
    return true;
}

/* np.linalg.cholesky: potrf on the lower triangle, the upper part zeroed */
static kj_array *cholesky(const ctx *c, const cop *a, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return NULL;
    kj_array *res = new_arr(cdt(c->f32), 2, n, n, false, err);
    void *A = res ? fortran_copy(a, n, 0, err) : NULL;
    bool ok = A != NULL;
    if (ok && n > 0 && c->f.potrf(KJ_CBLAS_COL, 'L', (li)n, A, lead(n)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "Matrix is not positive definite");
    if (ok) {
        for (int64_t j = 1; j < n; j++)
            for (int64_t i = 0; i < j; i++) cset(A, i + j * n, (cx){0, 0}, c->f32);
        from_fortran(res, A, n, a->isz);
    }
    free(A);
    if (!ok) kj_array_release(res);
    return ok ? res : NULL;
}

/* np.linalg.eigh / eigvalsh (vectors NULL): heevd on the lower triangle,
 * real eigenvalues ascending */
static kj_array *eigh(const ctx *c, const cop *a, kj_array **vectors, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return NULL;
    kj_array *w = new_arr(rdt(c->f32), 1, n, 0, false, err);
    kj_array *v = w && vectors ? new_arr(cdt(c->f32), 2, n, n, false, err) : NULL;
    void *A = w && (v || !vectors) ? fortran_copy(a, n, 0, err) : NULL;
    bool ok = A != NULL;
    if (ok && n > 0 && c->f.heevd(KJ_CBLAS_COL, vectors ? 'V' : 'N', 'L', (li)n, A, lead(n), w->data) > 0)
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

/* np.linalg.eig / eigvals (vectors NULL): geev, complex eigenvalues and
 * right eigenvectors (columns) */
static kj_array *eig(const ctx *c, const cop *a, kj_array **vectors, kj_rt_error *err)
{
    int64_t n = rows(&a->h);
    if (!square(a, err)) return NULL;
    kj_array *w = new_arr(cdt(c->f32), 1, n, 0, false, err);
    kj_array *v = w && vectors ? new_arr(cdt(c->f32), 2, n, n, false, err) : NULL;
    void *A = w && (v || !vectors) ? fortran_copy(a, n, 0, err) : NULL;
    void *vr = A && vectors ? alloc((size_t)(n * n), a->isz, err) : NULL;
    bool ok = A && (vr || !vectors);
    if (ok && n > 0 &&
        c->f.geev(KJ_CBLAS_COL, 'N', vectors ? 'V' : 'N', (li)n, A, lead(n), w->data, NULL, 1, vr, lead(n)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "Eigenvalues did not converge");
    if (ok && v) from_fortran(v, vr, n, a->isz);
    free(A);
    free(vr);
    if (!ok) {
        kj_array_release(w);
        kj_array_release(v);
        return NULL;
    }
    if (vectors) *vectors = v;
    return w;
}

/* np.linalg.svd(a, full_matrices): gesdd; out = {u, s (real), vh} */
static bool svd(const ctx *c, const cop *a, bool full, kj_array *out[3], kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    int64_t uc = full ? m : k, vr = full ? n : k;
    out[0] = new_arr(cdt(c->f32), 2, m, uc, false, err);
    out[1] = out[0] ? new_arr(rdt(c->f32), 1, k, 0, false, err) : NULL;
    out[2] = out[1] ? new_arr(cdt(c->f32), 2, vr, n, false, err) : NULL;
    void *A = out[2] ? fortran_copy(a, m, 0, err) : NULL;
    void *U = A ? alloc((size_t)(m * uc), a->isz, err) : NULL;
    void *V = U ? alloc((size_t)(vr * n), a->isz, err) : NULL;
    bool ok = V != NULL;
    if (ok && k > 0 &&
        c->f.gesdd(KJ_CBLAS_COL, full ? 'A' : 'S', (li)m, (li)n, A, lead(m), out[1]->data, U, lead(m), V,
                   lead(vr)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "SVD did not converge");
    if (ok && k == 0) { /* no singular values: NumPy's identity factors */
        for (int64_t i = 0; full && i < m; i++) cset(U, i + i * m, (cx){1, 0}, c->f32);
        for (int64_t i = 0; full && i < n; i++) cset(V, i + i * vr, (cx){1, 0}, c->f32);
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

/* np.linalg.qr(a) (mode 'reduced'): geqrf, then ungqr for q; out = {q, r} */
static bool qr(const ctx *c, const cop *a, kj_array *out[2], kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    out[0] = new_arr(cdt(c->f32), 2, m, k, false, err);
    out[1] = out[0] ? new_arr(cdt(c->f32), 2, k, n, true, err) : NULL;
    void *A = out[1] ? fortran_copy(a, m, 0, err) : NULL;
    void *tau = A ? alloc((size_t)k, a->isz, err) : NULL;
    bool ok = tau != NULL;
    if (ok && k > 0) {
        c->f.geqrf(KJ_CBLAS_COL, (li)m, (li)n, A, lead(m), tau);
        for (int64_t i = 0; i < k; i++) /* r: the upper triangle of the first k rows */
            for (int64_t j = i; j < n; j++) cset(out[1]->data, i * n + j, cget(A, i + j * m, c->f32), c->f32);
        c->f.ungqr(KJ_CBLAS_COL, (li)m, (li)k, (li)k, A, lead(m), tau);
        from_fortran(out[0], A, m, a->isz);
    }
    free(A);
    free(tau);
    if (!ok)
        for (int i = 0; i < 2; i++) kj_array_release(out[i]), out[i] = NULL;
    return ok;
}

/* The singular values alone (gesdd 'N'), a new real 1-d array */
static kj_array *singular_values(const ctx *c, const cop *a, kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    kj_array *s = new_arr(rdt(c->f32), 1, k, 0, false, err);
    void *A = s ? fortran_copy(a, m, 0, err) : NULL;
    bool ok = A != NULL;
    if (ok && k > 0 && c->f.gesdd(KJ_CBLAS_COL, 'N', (li)m, (li)n, A, lead(m), s->data, NULL, 1, NULL, 1) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "SVD did not converge");
    free(A);
    if (!ok) kj_array_release(s);
    return ok ? s : NULL;
}

static double rget(const kj_array *s, int64_t i)
{
    return s->dtype == KJ_DT_FLOAT32 ? ((const float *)(const void *)s->data)[i]
                                     : ((const double *)(const void *)s->data)[i];
}

/* np.linalg.cond(x): the largest singular value over the smallest */
static bool cond(const ctx *c, const cop *a, void *out, kj_rt_error *err)
{
    kj_array *s = singular_values(c, a, err);
    if (!s) return false;
    int64_t k = s->shape[0];
    if (c->f32) *(float *)out = k ? (float)rget(s, 0) / (float)rget(s, k - 1) : NAN;
    else *(double *)out = k ? rget(s, 0) / rget(s, k - 1) : NAN;
    kj_array_release(s);
    return true;
}

/* np.linalg.matrix_rank(A): singular values above S.max() * max(M, N) * eps */
static bool matrix_rank(const ctx *c, const cop *a, int64_t *out, kj_rt_error *err)
{
    kj_array *s = singular_values(c, a, err);
    if (!s) return false;
    int64_t k = s->shape[0], m = rows(&a->h), n = cols(&a->h), rank = 0;
    double smax = 0.0;
    for (int64_t i = 0; i < k; i++) smax = fmax(smax, rget(s, i));
    double tol = smax * (double)(m > n ? m : n) * (c->f32 ? (double)FLT_EPSILON : DBL_EPSILON);
    if (c->f32) tol = (float)tol;
    for (int64_t i = 0; i < k; i++) rank += rget(s, i) > tol;
    *out = rank;
    kj_array_release(s);
    return true;
}

/* np.linalg.pinv(a, rcond), as NumPy: the reduced SVD of conj(a), then
 * vt.T @ (1/s cut at rcond * max(s))[:, None] * u.T */
static kj_array *pinv(const ctx *c, const cop *a, double rcond, kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n;
    kj_array *ac = kj_array_copy(&a->h, err);
    if (!ac) return NULL;
    for (int64_t i = 0; i < m * n; i++) {
        cx x = cget(ac->data, i, c->f32);
        cset(ac->data, i, (cx){x.re, -x.im}, c->f32);
    }
    cop conj = of_array(ac);
    kj_array *f[3];
    bool ok = svd(c, &conj, false, f, err);
    kj_array_release(ac);
    if (!ok) return NULL;
    double smax = 0.0;
    for (int64_t i = 0; i < k; i++) smax = fmax(smax, rget(f[1], i));
    kj_array *w = new_arr(cdt(c->f32), 2, k, m, false, err); /* s⁺[:, None] * u.T */
    for (int64_t i = 0; w && i < k; i++) {
        double si = rget(f[1], i);
        double inv = si > rcond * smax ? (c->f32 ? (double)(1.0f / (float)si) : 1.0 / si) : 0.0;
        for (int64_t r = 0; r < m; r++) cset(w->data, i * m + r, cmul((cx){inv, 0}, cget(f[0]->data, r * k + i, c->f32), c->f32), c->f32);
    }
    kj_array *res = NULL;
    if (w) {
        cop v = of_array(f[2]), wo = of_array(w);
        cop vt = transposed(&v);
        res = m && n ? product(c, &vt, &wo, false, NULL, err) : new_arr(cdt(c->f32), 2, n, m, true, err);
    }
    kj_array_release(w);
    for (int i = 0; i < 3; i++) kj_array_release(f[i]);
    return res;
}

/* np.linalg.lstsq(a, b, rcond): gelsd; out = {x, residuals (real), s
 * (real)}, the rank in *rank. Residuals: the squared moduli of b's rows
 * past n summed per column when a has full column rank and more rows than
 * columns, else none. */
static bool lstsq(const ctx *c, const cop *a, const cop *b, double rcond, kj_array *out[3], int64_t *rank,
                  kj_rt_error *err)
{
    int64_t m = rows(&a->h), n = cols(&a->h), k = m < n ? m : n, nrhs = cols(&b->h), ldb = m > n ? m : n;
    out[0] = out[1] = out[2] = NULL;
    if (rows(&b->h) != m) return kj_rt_errorf(err, "LinAlgError", "Incompatible dimensions");
    void *A = fortran_copy(a, m, 0, err);
    char *B = A ? fortran_copy(b, ldb, 0, err) : NULL;
    out[2] = B ? new_arr(rdt(c->f32), 1, k, 0, false, err) : NULL;
    bool ok = out[2] != NULL;
    li r = 0;
    if (ok && k > 0 && nrhs > 0 &&
        (c->f32 ? c->f.gelsd_c(KJ_CBLAS_COL, (li)m, (li)n, (li)nrhs, A, lead(m), B, lead(ldb), out[2]->data,
                               (float)rcond, &r)
                : c->f.gelsd_z(KJ_CBLAS_COL, (li)m, (li)n, (li)nrhs, A, lead(m), B, lead(ldb), out[2]->data, rcond,
                               &r)) > 0)
        ok = kj_rt_errorf(err, "LinAlgError", "SVD did not converge in Linear Least Squares");
    bool resid = ok && r == n && m > n;
    if (ok) out[0] = new_arr(cdt(c->f32), b->h.ndim, n, nrhs, false, err);
    if (out[0]) out[1] = new_arr(rdt(c->f32), 1, resid ? nrhs : 0, 0, false, err);
    ok = out[1] != NULL;
    if (ok) {
        from_fortran(out[0], B, ldb, a->isz);
        for (int64_t j = 0; resid && j < nrhs; j++) {
            double acc = 0.0;
            float acc32 = 0.0f;
            for (int64_t i = n; i < m; i++) {
                cx x = cget(B, i + j * ldb, c->f32);
                if (c->f32) acc32 += (float)x.re * (float)x.re + (float)x.im * (float)x.im;
                else acc += x.re * x.re + x.im * x.im;
            }
            if (c->f32) ((float *)(void *)out[1]->data)[j] = acc32;
            else ((double *)(void *)out[1]->data)[j] = acc;
        }
    }
    *rank = r;
    free(A);
    free(B);
    if (!ok)
        for (int i = 0; i < 3; i++) kj_array_release(out[i]), out[i] = NULL;
    return ok;
}

/* np.linalg.matrix_power(a, n): NumPy's square-and-multiply (n < 0: of inv(a)) */
static kj_array *matrix_power(const ctx *c, const cop *a, int64_t n, kj_rt_error *err)
{
    if (!square(a, err)) return NULL;
    int64_t m = rows(&a->h);
    if (n == 0) {
        kj_array *id = new_arr(cdt(c->f32), 2, m, m, true, err);
        for (int64_t i = 0; id && i < m; i++) cset(id->data, i * m + i, (cx){1, 0}, c->f32);
        return id;
    }
    kj_array *z = n < 0 ? solve(c, a, NULL, err) : kj_array_copy(&a->h, err);
    kj_array *result = NULL;
    for (int64_t k = n < 0 ? -n : n, first = 1; z && k > 0; k /= 2, first = 0) {
        cop zo = of_array(z);
        if (!first) {
            kj_array *sq = product(c, &zo, &zo, false, NULL, err);
            kj_array_release(z);
            z = sq;
            if (!z) break;
            zo = of_array(z);
        }
        if (k % 2) {
            cop ro = result ? of_array(result) : zo;
            kj_array *r = result ? product(c, &ro, &zo, false, NULL, err) : kj_array_copy(z, err);
            kj_array_release(result);
            result = r;
            if (!r) break;
        }
    }
    bool ok = z && result;
    kj_array_release(z);
    if (!ok) kj_array_release(result);
    return ok ? result : NULL;
}

/* ---- the entry ---- */

/* Register res[0..n) and describe each into outs (a NULL: raise err). */
static void results(const ctx *c, kj_array **res, int n, void **outs, const kj_rt_error *err)
{
    for (int k = 0; k < n; k++)
        if (!res[k]) {
            for (int j = 0; j < n; j++) kj_array_release(res[j]);
            kj_rt_raise_error(c->rt, err, c->line, c->col);
        }
    for (int k = 0; k < n; k++) {
        kj_rt_own(c->rt, res[k]);
        kj_rt_describe(outs[k], res[k], res[k]->ndim);
    }
}

static void products(const ctx *c, kj_linalg_op op, const cop *a, const cop *b, void **outs)
{
    kj_rt_error err = {0};
    kj_array *r = NULL;
    if (a->h.ndim == 3 || b->h.ndim == 3) {
        r = batched(c, a, b, &err);
        return results(c, &r, 1, outs, &err);
    }
    if (!aligned(a, b, op, &err)) kj_rt_raise_error(c->rt, &err, c->line, c->col);
    cop bt = op == KJ_LA_INNER ? transposed(b) : *b;
    r = product(c, a, &bt, op == KJ_LA_VDOT, outs[0], &err);
    if (a->h.ndim == 1 && b->h.ndim == 1) {
        if (err.exc) kj_rt_raise_error(c->rt, &err, c->line, c->col);
        return;
    }
    results(c, &r, 1, outs, &err);
}

static void scalars(const ctx *c, kj_linalg_op op, const cop *a, void **outs)
{
    kj_rt_error err = {0};
    bool ok = true;
    switch (op) {
    case KJ_LA_DET: case KJ_LA_SLOGDET: {
        cx sign;
        double logdet;
        ok = slogdet(c, a, &sign, &logdet, &err);
        if (ok && op == KJ_LA_SLOGDET) {
            cset(outs[0], 0, sign, c->f32);
            if (c->f32) *(float *)outs[1] = (float)logdet;
            else *(double *)outs[1] = logdet;
        } else if (ok) { /* sign * exp(logdet), as NumPy's det */
            double e = c->f32 ? (double)expf((float)logdet) : exp(logdet);
            cset(outs[0], 0, cmul(sign, (cx){e, 0}, c->f32), c->f32);
        }
        break;
    }
    case KJ_LA_NORM: ok = norm(c, a, outs[0], &err); break;
    case KJ_LA_COND: ok = cond(c, a, outs[0], &err); break;
    case KJ_LA_MATRIX_RANK: ok = matrix_rank(c, a, outs[0], &err); break;
    default: break;
    }
    if (!ok) kj_rt_raise_error(c->rt, &err, c->line, c->col);
}

void kj_rt_linalg_cpx(kj_rt *rt, int32_t op, const kj_array *ha, const kj_array *hb, int64_t n, double x,
                      void **outs, int32_t line, int32_t col)
{
    cop a = of_array(ha), b = hb ? of_array(hb) : a;
    ctx c = {.rt = rt, .f32 = a.f32, .line = line, .col = col};
    kj_rt_error err = {0};
    kj_array *r[3] = {0};
    switch ((kj_linalg_op)op) {
    case KJ_LA_TRACE: return trace(ha, a.f32, outs[0]);
    case KJ_LA_OUTER: case KJ_LA_KRON:
        r[0] = outer_kron(&a, &b, op == KJ_LA_KRON, &err);
        return results(&c, r, 1, outs, &err);
    case KJ_LA_DOT: case KJ_LA_MATMUL: case KJ_LA_VDOT: case KJ_LA_INNER:
        open_funcs(&c, false);
        return products(&c, (kj_linalg_op)op, &a, &b, outs);
    case KJ_LA_NORM: open_funcs(&c, false); return scalars(&c, KJ_LA_NORM, &a, outs);
    default: break;
    }
    open_funcs(&c, true);
    switch ((kj_linalg_op)op) {
    case KJ_LA_SOLVE: r[0] = solve(&c, &a, &b, &err); break;
    case KJ_LA_INV: r[0] = solve(&c, &a, NULL, &err); break;
    case KJ_LA_CHOLESKY: r[0] = cholesky(&c, &a, &err); break;
    case KJ_LA_MATRIX_POWER: r[0] = matrix_power(&c, &a, n, &err); break;
    case KJ_LA_EIGVALSH: r[0] = eigh(&c, &a, NULL, &err); break;
    case KJ_LA_EIGVALS: r[0] = eig(&c, &a, NULL, &err); break;
    case KJ_LA_PINV: r[0] = pinv(&c, &a, x, &err); break;
    case KJ_LA_EIGH: r[0] = eigh(&c, &a, &r[1], &err); return results(&c, r, 2, outs, &err);
    case KJ_LA_EIG: r[0] = eig(&c, &a, &r[1], &err); return results(&c, r, 2, outs, &err);
    case KJ_LA_SVD: svd(&c, &a, n != 0, r, &err); return results(&c, r, 3, outs, &err);
    case KJ_LA_QR: qr(&c, &a, r, &err); return results(&c, r, 2, outs, &err);
    case KJ_LA_LSTSQ: {
        int64_t rank = 0;
        if (!lstsq(&c, &a, &b, x, r, &rank, &err)) kj_rt_raise_error(rt, &err, line, col);
        void *arr_outs[3] = {outs[0], outs[1], outs[3]};
        results(&c, r, 3, arr_outs, &err);
        *(int64_t *)outs[2] = rank;
        return;
    }
    case KJ_LA_DET: case KJ_LA_SLOGDET: case KJ_LA_COND: case KJ_LA_MATRIX_RANK:
        return scalars(&c, (kj_linalg_op)op, &a, outs);
    default: kj_rt_errorf(&err, "RuntimeError", "unknown linear-algebra operation %d", (int)op);
    }
    results(&c, r, 1, outs, &err);
}
