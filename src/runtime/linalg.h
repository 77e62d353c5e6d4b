/* SPDX-License-Identifier: BSD-2-Clause */
/* Linear algebra on host arrays through a real BLAS and LAPACK, as Numba
 * does it (numpy.dot, @, numpy.linalg.*): OpenBLAS's CBLAS for products,
 * LAPACKE (column-major) for factorisations. Both are opened at run time
 * (linalg.c), so kjit builds and runs where they are absent; a program
 * that needs them then fails with an error naming the library and the
 * Debian package.
 *
 * The operation codes generated code passes kj_rt_linalg (rtfns.def). */
#ifndef KJ_LINALG_H
#define KJ_LINALG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum kj_linalg_op {
    KJ_LA_DOT,          /* np.dot(a, b): 1-d/2-d operands */
    KJ_LA_MATMUL,       /* a @ b, np.matmul(a, b) */
    KJ_LA_VDOT,         /* np.vdot(a, b) */
    KJ_LA_INNER,        /* np.inner(a, b) */
    KJ_LA_OUTER,        /* np.outer(a, b) */
    KJ_LA_KRON,         /* np.kron(a, b) */
    KJ_LA_TRACE,        /* np.trace(a) */
    KJ_LA_SOLVE,        /* np.linalg.solve(a, b) */
    KJ_LA_INV,          /* np.linalg.inv(a) */
    KJ_LA_DET,          /* np.linalg.det(a) */
    KJ_LA_SLOGDET,      /* np.linalg.slogdet(a): (sign, logdet) */
    KJ_LA_EIGH,         /* np.linalg.eigh(a): (w, v) */
    KJ_LA_EIGVALSH,     /* np.linalg.eigvalsh(a) */
    KJ_LA_SVD,          /* np.linalg.svd(a, full_matrices=n): (u, s, vh) */
    KJ_LA_NORM,         /* np.linalg.norm(a): Frobenius / 2-norm of a vector */
    KJ_LA_CHOLESKY,     /* np.linalg.cholesky(a) */
    KJ_LA_QR,           /* np.linalg.qr(a): (q, r), mode 'reduced' */
    KJ_LA_MATRIX_POWER, /* np.linalg.matrix_power(a, n) */
    KJ_LA_EIG,          /* np.linalg.eig(a): (w, v), real results only (as Numba) */
    KJ_LA_EIGVALS,      /* np.linalg.eigvals(a) */
    KJ_LA_PINV,         /* np.linalg.pinv(a, rcond=x) */
    KJ_LA_COND,         /* np.linalg.cond(a): the 2-norm condition number */
    KJ_LA_MATRIX_RANK,  /* np.linalg.matrix_rank(a): an int64 */
    KJ_LA_LSTSQ,        /* np.linalg.lstsq(a, b, rcond=x): (x, residuals, rank, s) */
    KJ_LA__COUNT
} kj_linalg_op;

/* LAPACK's integer on Debian's LP64 builds; CBLAS's and LAPACKE's layout
 * and transpose codes. */
typedef int32_t kj_lapack_int;
enum { KJ_CBLAS_ROW = 101, KJ_CBLAS_COL = 102, KJ_CBLAS_NOTRANS = 111, KJ_CBLAS_TRANS = 112 };

/* The entry points used, X(name, return, parameters), each in its float
 * ('s') and double ('d') form: the library's prototypes, declared here
 * rather than taken from cblas.h/lapacke.h so that building kjit needs
 * neither -dev package. T is the element type. */
#define KJ_LA_BLAS_FUNCS(X, P, T)                                                                           \
    X(P##gemm, void, (int, int, int, int, int, int, T, const T *, int, const T *, int, T, T *, int))         \
    X(P##gemv, void, (int, int, int, int, T, const T *, int, const T *, int, T, T *, int))                   \
    X(P##dot, T, (int, const T *, int, const T *, int))
#define KJ_LA_LAPACK_FUNCS(X, P, T)                                                                         \
    X(P##gesv, kj_lapack_int,                                                                               \
      (int, kj_lapack_int, kj_lapack_int, T *, kj_lapack_int, kj_lapack_int *, T *, kj_lapack_int))         \
    X(P##getrf, kj_lapack_int, (int, kj_lapack_int, kj_lapack_int, T *, kj_lapack_int, kj_lapack_int *))    \
    X(P##potrf, kj_lapack_int, (int, char, kj_lapack_int, T *, kj_lapack_int))                              \
    X(P##syevd, kj_lapack_int, (int, char, char, kj_lapack_int, T *, kj_lapack_int, T *))                   \
    X(P##gesdd, kj_lapack_int,                                                                              \
      (int, char, kj_lapack_int, kj_lapack_int, T *, kj_lapack_int, T *, T *, kj_lapack_int, T *,            \
       kj_lapack_int))                                                                                      \
    X(P##geqrf, kj_lapack_int, (int, kj_lapack_int, kj_lapack_int, T *, kj_lapack_int, T *))                \
    X(P##orgqr, kj_lapack_int, (int, kj_lapack_int, kj_lapack_int, kj_lapack_int, T *, kj_lapack_int, T *))    \
    X(P##geev, kj_lapack_int,                                                                               \
      (int, char, char, kj_lapack_int, T *, kj_lapack_int, T *, T *, T *, kj_lapack_int, T *, kj_lapack_int)) \
    X(P##gelsd, kj_lapack_int,                                                                              \
      (int, kj_lapack_int, kj_lapack_int, kj_lapack_int, T *, kj_lapack_int, T *, kj_lapack_int, T *, T,     \
       kj_lapack_int *))

/* The loaded libraries: one per run context (kj_rt.linalg), opened at the
 * first linear-algebra call and closed with the run's arrays. */
typedef struct kj_linalg_lib {
    void *blas, *lapacke; /* dlopen handles */
#define KJ_LA_FIELD(name, ret, params) ret(*name) params;
    KJ_LA_BLAS_FUNCS(KJ_LA_FIELD, cblas_s, float)
    KJ_LA_BLAS_FUNCS(KJ_LA_FIELD, cblas_d, double)
    KJ_LA_LAPACK_FUNCS(KJ_LA_FIELD, LAPACKE_s, float)
    KJ_LA_LAPACK_FUNCS(KJ_LA_FIELD, LAPACKE_d, double)
#undef KJ_LA_FIELD
} kj_linalg_lib;

/* Open OpenBLAS (the products need nothing else). NULL on failure with
 * the reason in err (which library, which Debian package provides it). */
kj_linalg_lib *kj_linalg_open(char *err, size_t cap);
/* Open LAPACKE too, once (the LAPACKE_* fields are unset until then);
 * false with the reason in err. */
bool kj_linalg_open_lapack(kj_linalg_lib *l, char *err, size_t cap);
void kj_linalg_close(kj_linalg_lib *lib);

/* rt_linalg_int.c: a·b of int64 operands (1-d or 2-d, aligned; np.inner's b
 * already transposed): the new array, or NULL with *scalar set for two 1-d
 * operands (and NULL with err filled when out of memory). */
struct kj_array;
struct kj_rt_error;
struct kj_array *kj_rt_int_product(const struct kj_array *a, const struct kj_array *b, void *scalar,
                                   struct kj_rt_error *err);

/* rt_linalg_cpx.c: kj_rt_linalg's operations on complex64/complex128
 * operands (hb NULL for one operand); outs as kj_rt_linalg's. */
struct kj_rt;
void kj_rt_linalg_cpx(struct kj_rt *rt, int32_t op, const struct kj_array *ha, const struct kj_array *hb,
                      int64_t n, double x, void **outs, int32_t line, int32_t col);

#endif
