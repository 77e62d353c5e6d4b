/* SPDX-License-Identifier: BSD-2-Clause */
/* a @ b of two matrices whose data are on the GPU only, through cuBLAS
 * (issue 25 point 5; the KIR side is kir_matmul_gpu.c).
 *
 * Why cuBLAS: it is the CUDA toolkit's BLAS, the one CuPy's `@` runs, so
 * the two compute the same products at the same speed. It is opened at
 * run time, as the driver is (cuda_drv.c), and only by a program that
 * multiplies device arrays: kjit builds and runs without it.
 *
 * Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ, and a row-major matrix is
 * its transpose column-major: so B goes first, and each operand is passed
 * as it is stored (a C-ordered view as not transposed, an F-ordered one as
 * transposed), never copied. The product runs on the legacy default
 * stream, which every kjit launch and copy is ordered with (streams are
 * created blocking: gpu_stream.c), and nothing waits for it: the result's
 * host copy is stale until host code reads it. */
#include "gpu_int.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };

typedef int (*gemm_s_fn)(void *, int, int, int, int, int, const float *, const float *, int, const float *, int,
                         const float *, float *, int);
typedef int (*gemm_d_fn)(void *, int, int, int, int, int, const double *, const double *, int, const double *, int,
                         const double *, double *, int);

struct kj_gpu_blas {
    void *lib;
    void *handle;
    int (*destroy)(void *);
    int (*set_stream)(void *, CUstream);
    gemm_s_fn sgemm;
    gemm_d_fn dgemm;
};

/* The CUDA toolkit's sonames, newest first; KJIT_CUBLAS names another. */
static void *open_cublas(void)
{
    static const char *const NAMES[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so",
                                        "/usr/local/cuda/lib64/libcublas.so"};
    const char *env = getenv("KJIT_CUBLAS");
    if (env && *env) return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++) {
        void *h = dlopen(NAMES[i], RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
    }
    return NULL;
}

/* g's cuBLAS handle, made at the first product; NULL (e says why) when the
 * library cannot be opened or a handle made, and from then on: such
 * products run on the host (kj_gpu_gemm_ok). */
static struct kj_gpu_blas *blas_of(kj_gpu *g, kj_rt_error *e)
{
    if (g->blas) return g->blas;
    if (g->no_blas) return NULL;
    struct kj_gpu_blas *b = calloc(1, sizeof *b);
    void *lib = b ? open_cublas() : NULL;
    int (*create)(void **) = NULL;
    if (lib) {
        *(void **)&create = dlsym(lib, "cublasCreate_v2");
        *(void **)&b->destroy = dlsym(lib, "cublasDestroy_v2");
        *(void **)&b->set_stream = dlsym(lib, "cublasSetStream_v2");
        *(void **)&b->sgemm = dlsym(lib, "cublasSgemm_v2");
        *(void **)&b->dgemm = dlsym(lib, "cublasDgemm_v2");
    }
    if (!lib || !create || !b->destroy || !b->set_stream || !b->sgemm || !b->dgemm) {
        kj_rt_errorf(e, "RuntimeError",
                     "a matrix product of device arrays needs cuBLAS (libcublas.so.12 or .13 of the CUDA toolkit), "
                     "which cannot be opened%s%s: install the toolkit's cuBLAS or set KJIT_CUBLAS to its path",
                     lib ? "" : ": ", lib ? "" : dlerror());
        if (lib) dlclose(lib);
        free(b);
        g->no_blas = true;
        snprintf(g->blas_why, sizeof g->blas_why, "%s", e->message);
        return NULL;
    }
    b->lib = lib;
    int st = create(&b->handle);
    if (st != 0 || b->set_stream(b->handle, NULL) != 0) {
        kj_rt_errorf(e, "RuntimeError", "cublasCreate failed (cuBLAS status %d)", st);
        if (st == 0) b->destroy(b->handle);
        dlclose(lib);
        free(b);
        g->no_blas = true;
        snprintf(g->blas_why, sizeof g->blas_why, "%s", e->message);
        return NULL;
    }
    g->blas = b;
    return b;
}

void kj_gpu_blas_free(kj_gpu *g)
{
    struct kj_gpu_blas *b = g->blas;
    if (!b) return;
    b->destroy(b->handle);
    dlclose(b->lib);
    free(b);
    g->blas = NULL;
}

/* How cuBLAS sees a row-major view x of r×c elements: op N with leading
 * dimension its row stride (C-ordered), or op T with its column stride
 * (F-ordered); false for other strides. */
static bool operand(const kj_array *x, int *op, int *ld)
{
    int64_t isz = kj_array_itemsize(x), r = x->shape[0], c = x->shape[1];
    int64_t s0 = x->strides[0] / isz, s1 = x->strides[1] / isz;
    if (x->strides[1] == isz && s0 >= c && s0 <= INT32_MAX) *op = CUBLAS_OP_N, *ld = (int)(s0 > 0 ? s0 : 1);
    else if (x->strides[0] == isz && s1 >= r && s1 <= INT32_MAX) *op = CUBLAS_OP_T, *ld = (int)(s1 > 0 ? s1 : 1);
    else return false;
    return true;
}

bool kj_gpu_gemm_ok(kj_gpu *g, const kj_array *a, const kj_array *b)
{
    kj_rt_error e = {0};
    int op, ld;
    return a->ndim == 2 && b->ndim == 2 && a->dtype == b->dtype &&
           (a->dtype == KJ_DT_FLOAT32 || a->dtype == KJ_DT_FLOAT64) && a->shape[1] == b->shape[0] &&
           a->shape[0] > 0 && a->shape[1] > 0 && b->shape[1] > 0 && a->shape[0] <= INT32_MAX &&
           a->shape[1] <= INT32_MAX && b->shape[1] <= INT32_MAX && operand(a, &op, &ld) && operand(b, &op, &ld) &&
           kj_gpu_current(g, &e) && blas_of(g, &e);
}

kj_array *kj_gpu_gemm(kj_gpu *g, kj_array *a, kj_array *b, kj_rt_error *e)
{
    struct kj_gpu_blas *bl = kj_gpu_current(g, e) ? blas_of(g, e) : NULL;
    if (!bl) return NULL;
    int m = (int)a->shape[0], k = (int)a->shape[1], n = (int)b->shape[1], opa, lda, opb, ldb;
    operand(a, &opa, &lda);
    operand(b, &opb, &ldb);
    int64_t shape[2] = {m, n};
    kj_array *c = kj_array_empty(a->dtype, 2, shape, e);
    if (!c) return NULL;
    kj_mirror *ma = kj_gpu_mirror_current(g, a, e), *mb = ma ? kj_gpu_mirror_current(g, b, e) : NULL;
    if (!mb || !kj_gpu_to_device(g, c, KJ_GPU_UNSET, e)) {
        kj_array_release(c);
        return NULL;
    }
    CUdeviceptr pa = ma->d + (CUdeviceptr)(a->data - ma->lo), pb = mb->d + (CUdeviceptr)(b->data - mb->lo);
    CUdeviceptr pc = c->mirror->d;
    int st;
    if (a->dtype == KJ_DT_FLOAT32) {
        const float one = 1, zero = 0;
        st = bl->sgemm(bl->handle, opb, opa, n, m, k, &one, (const float *)(uintptr_t)pb, ldb,
                       (const float *)(uintptr_t)pa, lda, &zero, (float *)(uintptr_t)pc, n);
    } else {
        const double one = 1, zero = 0;
        st = bl->dgemm(bl->handle, opb, opa, n, m, k, &one, (const double *)(uintptr_t)pb, ldb,
                       (const double *)(uintptr_t)pa, lda, &zero, (double *)(uintptr_t)pc, n);
    }
    if (st != 0) {
        kj_rt_errorf(e, "RuntimeError", "cublas%cgemm failed (cuBLAS status %d)", a->dtype == KJ_DT_FLOAT32 ? 'S' : 'D',
                     st);
        kj_array_release(c);
        return NULL;
    }
    return c;
}
