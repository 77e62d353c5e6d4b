/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the built-in table: the typing context of one call and the
 * argument helpers every typing rule uses (builtins.c, builtins_cuda.c).
 * Not for other layers. */
#ifndef KJ_BUILTINS_INT_H
#define KJ_BUILTINS_INT_H

#include "builtins.h"

#include <string.h>

enum { MAX_PARAMS = 8 };

typedef struct {
    const char *name;
    uint32_t len;
    bool optional, variadic;
} param;

/* ---- typing: context and helpers ------------------------------------------- */

typedef struct bctx {
    kj_types *t;
    kj_builtin id;
    const char *name; /* the path, for messages */
    const kj_barg *args;
    uint32_t nargs;
    uint32_t recv; /* 1 for methods: args[0] is the receiver */
    param ps[MAX_PARAMS];
    uint32_t np;
    int var;       /* index of the *args parameter, or -1 */
    uint32_t nvar; /* entries the *args parameter took */
    kj_span call;
    const kj_source *src;
    kj_diags *d;
    const kj_type **conv;
    const kj_type *target; /* CONVERT: the result type; NP_LOAD: the array type, if known */
} bctx;

static inline const kj_type *ty(const bctx *c, uint32_t i)
{
    return i < c->nargs ? c->args[i].type : NULL;
}

/* An optional argument that was given (None counts as not given). */
static inline bool given(const bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    return x && x->kind != KJ_T_NONE;
}

static inline kj_span span_of(const bctx *c, uint32_t i)
{
    return i < c->nargs ? c->args[i].span : c->call;
}

static inline void convto(bctx *c, uint32_t i, const kj_type *to)
{
    if (c->conv && i < c->nargs && c->args[i].type && c->args[i].type != to) c->conv[i] = to;
}

static inline const kj_type *i64(bctx *c) { return kj_t_int(c->t, 64, true); }
static inline const kj_type *i32(bctx *c) { return kj_t_int(c->t, 32, true); }
static inline const kj_type *u32(bctx *c) { return kj_t_int(c->t, 32, false); }
static inline const kj_type *f64(bctx *c) { return kj_t_float(c->t, 64); }
static inline const kj_type *none(bctx *c) { return kj_t_none(c->t); }
static inline const kj_type *arr(bctx *c, const kj_type *elem, int ndim)
{
    return kj_t_array(c->t, elem, ndim, KJ_LAYOUT_C); /* results are fresh, C-contiguous */
}
static inline bool is_array(const kj_type *x) { return x && x->kind == KJ_T_ARRAY; }

/* The parameter name of bound entry i, or NULL (receiver, *args entry). */
static inline const param *param_of(const bctx *c, uint32_t i)
{
    if (i < c->recv) return NULL;
    uint32_t j = i - c->recv;
    if (c->var < 0 || (int)j < c->var) return j < c->np ? &c->ps[j] : NULL;
    if (j < (uint32_t)c->var + c->nvar) return NULL;
    j = j - c->nvar + 1;
    return j < c->np ? &c->ps[j] : NULL;
}

/* "np.zeros() argument 'shape' must be WHAT, not T" (no name when the
 * built-in has a single parameter). Returns NULL for `return argerr(...)`. */
static inline const kj_type *argerr(bctx *c, uint32_t i, const char *what)
{
    const param *p = param_of(c, i);
    const char *got = kj_type_str(ty(c, i));
    if (i < c->recv)
        kj_error(c->d, c->src, span_of(c, i), "'%s' object has no attribute '%s'", got,
                 strrchr(c->name, '.') + 1);
    else if (p && c->np > 1)
        kj_error(c->d, c->src, span_of(c, i), "%s() argument '%.*s' must be %s, not %s", c->name,
                 (int)p->len, p->name, what, got);
    else
        kj_error(c->d, c->src, span_of(c, i), "%s() argument must be %s, not %s", c->name, what,
                 got);
    return NULL;
}

static inline bool bad_arg(bctx *c, uint32_t i, const char *what)
{
    argerr(c, i, what);
    return false;
}

/* The float type a math function computes in for a scalar argument: int and
 * bool arguments (and Python floats) compute in float64, float32 stays. */
static inline const kj_type *float_of(bctx *c, const kj_type *x)
{
    return x->kind == KJ_T_FLOAT && !x->weak ? x : f64(c);
}

static inline const kj_type *elem_or_self(const kj_type *x) { return is_array(x) ? x->elem : x; }

/* The receiver of an array method. */
static inline bool recv_array(bctx *c)
{
    if (is_array(ty(c, 0))) return true;
    argerr(c, 0, "an array");
    return false;
}

/* An int (not bool) scalar argument, converted to int64. */
static inline bool int_arg(bctx *c, uint32_t i)
{
    if (!kj_is_int(ty(c, i))) return bad_arg(c, i, "an integer");
    convto(c, i, i64(c));
    return true;
}

/* A numeric or bool scalar argument, converted to `to` when not NULL. */
static inline bool num_arg(bctx *c, uint32_t i, const kj_type *to)
{
    if (!kj_is_scalar(ty(c, i))) return bad_arg(c, i, "a number");
    if (to) convto(c, i, to);
    return true;
}

/* shape := int | tuple of 1..4 ints. Returns ndim, 0 after an error; the
 * argument converts to int64 / a tuple of int64. */
static inline int shape_arg(bctx *c, uint32_t i)
{
    const kj_type *s = ty(c, i);
    if (kj_is_int(s)) {
        convto(c, i, i64(c));
        return 1;
    }
    bool ok = s && s->kind == KJ_T_TUPLE;
    for (uint32_t k = 0; ok && k < s->n; k++) ok = kj_is_int(s->elems[k]);
    if (!ok) {
        argerr(c, i, "an int or a tuple of ints");
        return 0;
    }
    if (s->n < 1 || s->n > 4) {
        kj_error(c->d, c->src, span_of(c, i), "%s() shape must have 1 to 4 dimensions, not %u",
                 c->name, s->n);
        return 0;
    }
    const kj_type *el[4] = {i64(c), i64(c), i64(c), i64(c)};
    convto(c, i, kj_t_tuple(c->t, el, s->n));
    return (int)s->n;
}

/* dtype= argument: the scalar it names, `dflt` when not given, NULL after an
 * error. */
static inline const kj_type *dtype_arg(bctx *c, uint32_t i, const kj_type *dflt)
{
    if (!given(c, i)) return dflt;
    const kj_type *x = ty(c, i);
    if (x->kind != KJ_T_DTYPE) return argerr(c, i, "a dtype such as np.float32");
    return x->elem;
}

/* stream= argument: a cuda.stream() or 0. */
static inline bool stream_arg(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (!given(c, i) || kj_is_int(x) || (x->kind == KJ_T_OPAQUE && !strcmp(x->name, "stream")))
        return true;
    return bad_arg(c, i, "a stream");
}

static inline bool opaque_arg(bctx *c, uint32_t i, const char *name)
{
    const kj_type *x = ty(c, i);
    if (x && x->kind == KJ_T_OPAQUE && !strcmp(x->name, name)) return true;
    char what[32];
    snprintf(what, sizeof what, "a cuda %s", name);
    return bad_arg(c, i, what);
}

/* The typing rules of builtins_cuda.c: numba.cuda's host side, mpi4py,
 * and numba.cuda inside kernels. */
const kj_type *kj_btype_device_array(bctx *c);
const kj_type *kj_btype_device_array_strides(bctx *c, const kj_type *a); /* builtins_cuda_strides.c */
struct kj_rdist_spec;
const kj_type *kj_btype_gen_dist(bctx *c, const struct kj_rdist_spec *sp); /* builtins_generator.c */
/* np.random.choice / multinomial / dirichlet with `a` (n, alpha) at argument
 * o, and their Generator methods (builtins.c, builtins_generator.c). */
bool vector_arg(bctx *c, uint32_t i);
const kj_type *kj_btype_choice(bctx *c, uint32_t o);
const kj_type *kj_btype_multinomial(bctx *c, uint32_t o);
const kj_type *kj_btype_dirichlet(bctx *c, uint32_t o);
const kj_type *kj_btype_gen_pick(bctx *c);
const kj_type *kj_btype_gen_permuted(bctx *c); /* builtins_gen_permuted.c */
const kj_type *kj_btype_cuda_host(bctx *c);
const kj_type *kj_btype_waitall(bctx *c);
const kj_type *kj_btype_mpi(bctx *c);
const kj_type *kj_btype_grid(bctx *c);
const kj_type *kj_btype_local_array(bctx *c);
const kj_type *kj_btype_atomic(bctx *c);
const kj_type *kj_btype_shfl(bctx *c);
const kj_type *kj_btype_bits(bctx *c);
const kj_type *kj_btype_fma(bctx *c);
const kj_type *kj_btype_cuda_misc(bctx *c);
const kj_type *kj_btype_const_array_like(bctx *c);
const kj_type *kj_btype_xoro(bctx *c);
const kj_type *kj_btype_sync(bctx *c);
/* A built-in with no rule: a bug in the table, reported as internal. */
const kj_type *kj_bno_rule(bctx *c);
/* np.empty/zeros/ones(shape, dtype) (builtins.c) */
const kj_type *kj_btype_alloc(bctx *c);
const kj_type *kj_btype_pyrandom(bctx *c); /* builtins_pyrandom.c */
const kj_type *kj_btype_threads(bctx *c);  /* builtins_threads.c */
const kj_type *kj_btype_heapq(bctx *c);    /* builtins_heapq.c */
const kj_type *kj_btype_pymath(bctx *c);   /* builtins_pymath.c */
const kj_type *kj_btype_npmath(bctx *c);   /* builtins_npmath.c */
const kj_type *kj_btype_nppoly(bctx *c);   /* builtins_nppoly.c */
const kj_type *kj_btype_polynomial(bctx *c); /* builtins_polynomial.c */
const kj_type *kj_btype_pybuiltin(bctx *c); /* builtins_pybuiltin.c */

#endif
