/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the linear-algebra built-ins (KJ_BF_LINALG): np.dot, np.matmul
 * (and @, infer_expr.c), np.vdot/inner/outer/kron/trace, np.linalg.*. As
 * Numba: 1-d and 2-d arrays of float32, float64, complex64 or complex128,
 * all operands of one dtype; results of that dtype, except the real ones of
 * a complex matrix (eigh's eigenvalues, singular values, norms, cond,
 * slogdet's logdet, lstsq's residuals): its part type. */
#include "builtins_mctx.h"
#include "../util/diag.h"

#include <string.h>


static const char *param_name(kj_builtin id, uint32_t i)
{
    static const char *const ab[] = {"a", "b"};
    if (id == KJ_B_LA_NORM || id == KJ_B_LA_COND) return "x";
    return id == KJ_B_LA_MATRIX_POWER && i == 1 ? "n" : i < 2 ? ab[i] : "rcond";
}

/* The products NumPy computes for any numeric dtypes (mixed ones promoted;
 * integer ones exactly, without BLAS: rt_linalg_int.c). */
static bool any_dtype(kj_builtin id)
{
    return id == KJ_B_NP_DOT || id == KJ_B_NP_MATMUL || id == KJ_B_NP_VDOT || id == KJ_B_NP_INNER;
}

/* Argument i: an array of float32/float64 (of ints too for any_dtype) with
 * lo <= ndim <= hi. */
static const kj_type *float_array(mctx *c, uint32_t i, int lo, int hi)
{
    const kj_type *x = i < c->nargs ? c->args[i].type : NULL;
    kj_span sp = i < c->nargs ? c->args[i].span : c->call;
    bool ok_int = any_dtype(c->id) && x && x->kind == KJ_T_ARRAY && x->elem->kind == KJ_T_INT;
    if (!x || x->kind != KJ_T_ARRAY || (x->elem->kind != KJ_T_FLOAT && x->elem->kind != KJ_T_COMPLEX && !ok_int)) {
        kj_error(c->d, c->src, sp, "%s() argument '%s' must be a float or complex array, not %s", c->name,
                 param_name(c->id, i), x ? kj_type_str(x) : "nothing");
        return NULL;
    }
    if (x->ndim < lo || x->ndim > hi) {
        kj_diag *dg = kj_error(c->d, c->src, sp, "%s() argument '%s' must be %s, not %d-d", c->name,
                               param_name(c->id, i),
                               lo == hi ? (lo == 1 ? "a 1-d array" : "a 2-d array")
                               : hi == 3 ? "a 1-d, 2-d or 3-d array" : "a 1-d or 2-d array", x->ndim);
        if (c->id == KJ_B_NP_MATMUL && x->ndim > 3)
            kj_diag_hint(dg, "batches of more than one dimension are not supported yet");
        return NULL;
    }
    return x;
}

/* Both operands: float arrays of one dtype. */
static bool pair(mctx *c, int alo, int ahi, int blo, int bhi, const kj_type **a, const kj_type **b)
{
    *a = float_array(c, 0, alo, ahi);
    *b = *a ? float_array(c, 1, blo, bhi) : NULL;
    if (!*b) return false;
    if (any_dtype(c->id)) return true; /* type_product promotes */
    if ((*a)->elem != (*b)->elem) {
        kj_error(c->d, c->src, c->call, "%s() arguments must all have the same dtype, not %s and %s", c->name,
                 kj_type_str((*a)->elem), kj_type_str((*b)->elem));
        return false;
    }
    return true;
}

static const kj_type *arr(mctx *c, const kj_type *elem, int ndim)
{
    return ndim == 0 ? elem : kj_t_array(c->t, elem, ndim, KJ_LAYOUT_C);
}

/* a complex type's part type; a real type itself */
static const kj_type *real_of(mctx *c, const kj_type *e)
{
    return kj_is_complex(e) ? kj_complex_part(c->t, e) : e;
}

static const kj_type *tuple(mctx *c, const kj_type *x, const kj_type *y, const kj_type *z)
{
    const kj_type *el[3] = {x, y, z};
    return kj_t_tuple(c->t, el, z ? 3 : 2);
}

/* The products: dot, matmul, inner (1-d/2-d · 1-d/2-d), vdot, outer, kron. */
static const kj_type *type_product(mctx *c)
{
    const kj_type *a, *b;
    bool vdot = c->id == KJ_B_NP_VDOT, mm = c->id == KJ_B_NP_MATMUL;
    int hi = vdot ? 1 : mm ? 3 : 2;
    if (!pair(c, 1, hi, 1, hi, &a, &b)) return NULL;
    /* NumPy's result dtype; an integer one is computed in int64 (the
     * operands converted, llvm_linalg.c), so only int64 results are exact */
    const kj_type *e = kj_strong(c->t, kj_promote(c->t, a->elem, b->elem));
    if (e->kind == KJ_T_INT && (e->bits != 64 || !e->is_signed || a->ndim == 3 || b->ndim == 3)) {
        kj_diag *dg = kj_error(c->d, c->src, c->call, "%s() of %s and %s arrays is not supported yet", c->name,
                               kj_type_str(a->elem), kj_type_str(b->elem));
        kj_diag_hint(dg, "integer products are supported for 1-d and 2-d operands with an int64 result; "
                         "convert with .astype(np.int64) or .astype(np.float64)");
        return NULL;
    }
    if (e != a->elem) a = kj_t_array(c->t, e, a->ndim, a->layout);
    if (mm && (a->ndim == 3 || b->ndim == 3)) { /* batched: the other operand a matrix or a batch */
        if (a->ndim == 1 || b->ndim == 1) {
            kj_error(c->d, c->src, c->call, "np.matmul() of a 1-d and a 3-d array is not supported");
            return NULL;
        }
        return arr(c, a->elem, 3);
    }
    switch (c->id) {
    case KJ_B_NP_VDOT: return a->elem;
    case KJ_B_NP_OUTER: return arr(c, a->elem, 2);
    case KJ_B_NP_KRON: return arr(c, a->elem, a->ndim == 1 && b->ndim == 1 ? 1 : 2);
    default: return arr(c, a->elem, a->ndim + b->ndim - 2);
    }
}

/* rcond= (argument i): a number, or absent */
static bool rcond(mctx *c, uint32_t i)
{
    const kj_type *x = i < c->nargs ? c->args[i].type : NULL;
    if (!x || x->kind == KJ_T_NONE || x->kind == KJ_T_FLOAT || x->kind == KJ_T_INT) return true;
    kj_error(c->d, c->src, c->args[i].span, "%s() argument 'rcond' must be a number, not %s", c->name,
             kj_type_str(x));
    return false;
}

static const kj_type *type_decomp(mctx *c)
{
    const kj_type *a = float_array(c, 0, 2, 2);
    if (!a) return NULL;
    const kj_type *e = a->elem, *v = arr(c, e, 1), *m = arr(c, e, 2);
    const kj_type *p = real_of(c, e), *pv = arr(c, p, 1); /* the real results */
    switch (c->id) {
    case KJ_B_NP_TRACE: case KJ_B_LA_DET: return e;
    case KJ_B_LA_SLOGDET: return tuple(c, e, p, NULL);
    case KJ_B_LA_EIGH: return tuple(c, pv, m, NULL);
    case KJ_B_LA_EIGVALSH: return pv;
    case KJ_B_LA_EIGVALS: return v;
    case KJ_B_LA_EIG: return tuple(c, v, m, NULL);
    case KJ_B_LA_COND: return p;
    case KJ_B_LA_MATRIX_RANK: return kj_t_int(c->t, 64, true);
    case KJ_B_LA_PINV: return rcond(c, 1) ? m : NULL;
    case KJ_B_LA_QR: return tuple(c, m, m, NULL);
    case KJ_B_LA_SVD:
        if (c->nargs > 1 && c->args[1].type && c->args[1].type->kind != KJ_T_NONE &&
            c->args[1].type->kind != KJ_T_BOOL && c->args[1].type->kind != KJ_T_INT) {
            kj_error(c->d, c->src, c->args[1].span, "np.linalg.svd() argument 'full_matrices' must be a bool, not %s",
                     kj_type_str(c->args[1].type));
            return NULL;
        }
        return tuple(c, m, pv, m);
    case KJ_B_LA_MATRIX_POWER:
        if (c->nargs < 2 || !c->args[1].type || c->args[1].type->kind != KJ_T_INT) {
            kj_error(c->d, c->src, c->nargs > 1 ? c->args[1].span : c->call,
                     "np.linalg.matrix_power() argument 'n' must be an int, not %s",
                     c->nargs > 1 && c->args[1].type ? kj_type_str(c->args[1].type) : "nothing");
            return NULL;
        }
        return m;
    default: return m; /* inv, cholesky */
    }
}

const kj_type *kj_linalg_type(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call_span,
                              const kj_source *src, kj_diags *d)
{
    const kj_builtin_info *bi = kj_builtin_get(id);
    mctx c = {t, id, bi->path, args, nargs, call_span, src, d, NULL};
    switch (id) {
    case KJ_B_NP_DOT: case KJ_B_NP_MATMUL: case KJ_B_NP_VDOT: case KJ_B_NP_INNER: case KJ_B_NP_OUTER:
    case KJ_B_NP_KRON: return type_product(&c);
    case KJ_B_LA_SOLVE: {
        const kj_type *a, *b;
        return pair(&c, 2, 2, 1, 2, &a, &b) ? arr(&c, a->elem, b->ndim) : NULL;
    }
    case KJ_B_LA_LSTSQ: {
        const kj_type *a, *b;
        if (!pair(&c, 2, 2, 1, 2, &a, &b) || !rcond(&c, 2)) return NULL;
        const kj_type *p = real_of(&c, a->elem);
        const kj_type *el[4] = {arr(&c, a->elem, b->ndim), arr(&c, p, 1), kj_t_int(t, 64, true), arr(&c, p, 1)};
        return kj_t_tuple(t, el, 4);
    }
    case KJ_B_LA_NORM: {
        const kj_type *x = float_array(&c, 0, 1, 2);
        return x ? real_of(&c, x->elem) : NULL;
    }
    default: return type_decomp(&c);
    }
}
