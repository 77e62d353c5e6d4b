/* SPDX-License-Identifier: BSD-2-Clause */
/* lower's context and the few of its steps the statement families lowered
 * in their own files use (lower_try.c). */
#ifndef KJ_LOWER_INT_H
#define KJ_LOWER_INT_H

#include "sema_int.h"

typedef struct lctx {
    kj_sema *s;
    kj_spec *sp;
    kir_func *f;
    kir_blkid cur;   /* the block being appended to */
    int32_t *local;  /* var index → KIR local, -1 for untyped variables */
    bool boundscheck;
    KJ_VEC(kir_ref) tries; /* the TRYs whose bodies enclose the statement (lower_try.c) */
} lctx;

kir_ref kj_lower_emit(lctx *lc, kir_op op, const kj_type *t, kj_span sp);
/* IF cond { then } else { els }: the caller fills the blocks (lc->cur) */
kir_ref kj_lower_if(lctx *lc, kir_ref cond, kj_span sp, kir_blkid *then, kir_blkid *els);
void kj_lower_block(lctx *lc, const kj_block *b);

/* lower_try.c */
void kj_lower_raise(lctx *lc, const kj_stmt *st);
void kj_lower_try(lctx *lc, const kj_stmt *st);
/* Before a return: leave the bodies of the enclosing try statements. */
void kj_lower_leave_tries(lctx *lc, kj_span sp);

#endif
