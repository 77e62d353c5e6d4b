/* SPDX-License-Identifier: BSD-2-Clause */
/* Writing KIR by hand, for the passes that make functions of their own
 * (kir_gpu_ufunc.c: ufunc kernels; kir_reduce.c: ufunc.reduce). A builder
 * appends to one block of one function; nested blocks are entered by
 * setting `cur` and left by restoring it. */
#ifndef KJ_KIR_BUILD_H
#define KJ_KIR_BUILD_H

#include "kir.h"

typedef struct kir_builder {
    kj_arena *a;
    kj_types *ty;
    kir_func *f;
    kir_blkid cur;
    kj_span sp;
} kir_builder;

kir_ref kb_emit(kir_builder *b, kir_op op, const kj_type *t);
const kj_type *kb_i64(kir_builder *b);
kir_ref kb_int(kir_builder *b, int64_t v);                    /* an int64 constant */
kir_ref kb_const(kir_builder *b, const kj_type *t, int64_t i, double f); /* of scalar type t */
kir_ref kb_binop(kir_builder *b, kir_op op, const kj_type *t, kir_ref x, kir_ref y);
kir_ref kb_param(kir_builder *b, uint32_t k);
kir_ref kb_dim(kir_builder *b, kir_ref arr, uint32_t d);        /* ARRAY_DIM, int64 */
kir_ref kb_args(kir_builder *b, kir_op op, const kj_type *t, const kir_ref *args, uint32_t n);
kir_ref kb_builtin(kir_builder *b, int builtin, const kj_type *t, const kir_ref *args, uint32_t n);
kir_ref kb_call(kir_builder *b, const kir_func *fn, const kir_ref *args, uint32_t n);
kir_ref kb_load(kir_builder *b, kir_ref arr, const kir_ref *idx, uint32_t n);
void kb_store(kir_builder *b, kir_ref arr, kir_ref v, const kir_ref *idx, uint32_t n);
kir_ref kb_cast(kir_builder *b, kir_ref v, const kj_type *to); /* v itself when of type `to` */
kir_ref kb_select(kir_builder *b, kir_ref cond, kir_ref x, kir_ref y); /* cond ? x : y */
uint32_t kb_local(kir_builder *b, const kj_type *t);
kir_ref kb_get(kir_builder *b, uint32_t local);
void kb_set(kir_builder *b, uint32_t local, kir_ref v);
/* if cond {then} else {els}: the new blocks in *then and *els */
void kb_if(kir_builder *b, kir_ref cond, kir_blkid *then, kir_blkid *els);
/* for local in range(start, stop): the body block (enter it to fill it) */
kir_blkid kb_for(kir_builder *b, uint32_t local, kir_ref start, kir_ref stop);
/* loop { body } until BREAK: the body block */
kir_blkid kb_loop(kir_builder *b);
void kb_return(kir_builder *b, kir_ref v);
/* ASSERT cond, raising ValueError(msg) when it is false */
void kb_check(kir_builder *b, kir_ref cond, const char *msg);

/* idx[0..nd) of the flat row-major number i over the first nd dimensions
 * of array `shape_of` (none of them 0: the divisions are not checked). */
void kb_unravel(kir_builder *b, kir_ref shape_of, uint32_t nd, kir_ref i, kir_ref *idx);
/* In a kernel: for i = grid(1); i < total; i += gridsize(1): body(b, ctx, i) */
typedef void (*kb_body_fn)(kir_builder *b, void *ctx, kir_ref i);
void kb_grid_stride(kir_builder *b, kir_ref total, kb_body_fn body, void *ctx);
/* for idx[0] in range(dims[0]): for idx[1] ...: body(b, ctx, idx) at the
 * innermost, over the first nd dimensions (at most KB_MAX_DIMS, an array's
 * most: types.h) */
enum { KB_MAX_DIMS = 4 };
typedef void (*kb_nest_fn)(kir_builder *b, void *ctx, const kir_ref *idx);
void kb_nest(kir_builder *b, const kir_ref *dims, uint32_t nd, kir_ref *idx, kb_nest_fn body, void *ctx);

#endif
