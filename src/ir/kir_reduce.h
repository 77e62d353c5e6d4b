/* SPDX-License-Identifier: BSD-2-Clause */
/* ufunc.reduce (KIR_UFUNC_REDUCE) made ordinary KIR: each reduce in a host
 * function becomes a call of a host function written here, one per ufunc,
 * array type and axis, that
 *   - on the host: loops as NumPy does — out[j] = f(...f(f(id, a[j,0]),
 *     a[j,1])..., a[j,n-1]), from the identity when the ufunc has one, else
 *     from the first element (an empty reduction is then a ValueError);
 *   - on the GPU (gpu): launches kernels written here too. Along one axis of
 *     an array of several dimensions a thread makes each result, folding in
 *     NumPy's order (the same bits as the host); a 1-d array (or axis None)
 *     reduces as a tree — per block in shared memory into partial results,
 *     then one block over those — starting from the identity, which it
 *     needs (a float result may differ from the host's in the last bits).
 *     What the GPU cannot do that way (no identity, axis None over several
 *     dimensions) loops on the host.
 * Codegen never sees UFUNC_REDUCE. */
#ifndef KJ_KIR_REDUCE_H
#define KJ_KIR_REDUCE_H

#include "kir.h"

/* A new function of m with parameters p0..p(n-1) of the given types and
 * result ret (None when NULL): the functions the reduction writes. */
kir_func *kir_reduce_new_func(kj_arena *a, kj_types *ty, kir_module *m, const char *name, const char *mangled,
                              kir_fn_kind kind, const kj_type *const *params, uint32_t n, const kj_type *ret,
                              kj_span sp);
void kir_reduce_expand(kj_arena *a, kj_types *types, kir_module *m, uint32_t first, bool gpu);

/* In host code being built by b: the fold of 1-d array x by the binary
 * scalar function f (R(R, R)) on the GPU, in one launch (kir_reduce.c's
 * one-pass kernel, named `base`.onepass): from f's identity, or, for an
 * idempotent f without one (max, min), from x[0], when x is not empty. */
struct kir_builder;
kir_ref kir_reduce_gpu_1d(struct kir_builder *b, kir_module *m, const kir_func *f, kir_ref x, const char *base);

/* np.sum/np.min/np.max and a.sum()/a.min()/a.max() of a 1-d array of
 * numbers, on the cuda target: where the array's data are on the GPU only,
 * reduced there (kir_reduce_np.c); the call of such a builtin in f at r
 * becomes a call of a host function that decides at run time. */
void kir_reduce_np(kj_arena *a, kj_types *ty, kir_module *m, kir_func *f, kir_ref r);

/* np.dot(a, b) and a @ b of two 2-d arrays of one float dtype, on the cuda
 * target: where both are on the GPU only, through cuBLAS there
 * (kir_matmul_gpu.c); the call at r becomes a call of a host function
 * that decides at run time. */
void kir_matmul_gpu(kj_arena *a, kj_types *ty, kir_module *m, kir_func *f, kir_ref r);

#endif
