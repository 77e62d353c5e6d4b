/* SPDX-License-Identifier: BSD-2-Clause */
/* The typing context of one call for the built-in families typed outside
 * builtins.c (builtins_np_manip*.c, builtins_linalg.c, builtins_complex.c,
 * builtins_npother.c ...), and the argument helpers they all use. Lighter
 * than builtins_int.h's bctx: these rules read their arguments by position
 * (the binding to parameter names happened before). Not for other layers. */
#ifndef KJ_BUILTINS_MCTX_H
#define KJ_BUILTINS_MCTX_H

#include "builtins.h"

typedef struct mctx {
    kj_types *t;
    kj_builtin id;
    const char *name; /* the path, for messages */
    const kj_barg *args;
    uint32_t nargs;
    kj_span call;
    const kj_source *src;
    kj_diags *d;
    const kj_type **conv; /* conversions of the arguments, or NULL */
} mctx;

/* Argument i's type, or NULL when absent. */
static inline const kj_type *ty(const mctx *c, uint32_t i) { return i < c->nargs ? c->args[i].type : NULL; }

/* An optional argument that was given (None counts as not given). */
static inline bool given(const mctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    return x && x->kind != KJ_T_NONE;
}

/* Where argument i is, or the call when it is absent. */
static inline kj_span span_of(const mctx *c, uint32_t i) { return i < c->nargs ? c->args[i].span : c->call; }

/* Convert argument i to `to` (when the caller records conversions). */
static inline void conv_arg(const mctx *c, uint32_t i, const kj_type *to)
{
    if (c->conv && i < c->nargs && c->args[i].type && c->args[i].type != to) c->conv[i] = to;
}

/* builtins_arrseq.c: np.array of a sequence of arrays or a list of tuples (*taken false: neither) */
const kj_type *kj_type_array_seq(const mctx *c, const kj_type *x, const kj_type *elem, bool *taken);

#endif
