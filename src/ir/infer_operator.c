/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the in-place forms of Python's operator module on mutable
 * values (builtins_operator.h): operator.iadd(a, b) on an array is a += b,
 * NumPy's add(a, b, out=a), returning a; on a list it is a.extend(b),
 * returning a. On anything else the in-place form is the plain operator,
 * typed by infer_call.c's operator_call. */
#include "sema_int.h"

static int kind_rank(const kj_type *t)
{
    switch (t->kind) {
    case KJ_T_BOOL: return 0;
    case KJ_T_INT: return t->is_signed ? 2 : 1;
    default: return 3;
    }
}

/* a op= b of an array a: the operation's type on ei (optype, restype) as
 * infer.c's infer_aug_array keeps it for the statement; the result is a. */
static const kj_type *inplace_array(kj_ictx *ic, kj_einfo *ei, kj_binop op, const kj_type *x, const kj_type *y,
                                    kj_span sp)
{
    if (op == KJ_OP_MATMUL) return NULL;
    const kj_type *opt = NULL;
    const kj_type *r = kj_binop_type(ic, op, x, y, sp, &opt);
    if (!r) return NULL;
    const kj_type *re = r->kind == KJ_T_ARRAY ? r->elem : r;
    if (kind_rank(re) > kind_rank(x->elem)) {
        kj_diag *dg = kj_ufunc_cast_error(ic, sp, kj_ufunc_name(op), re, x->elem);
        kj_diag_hint(dg, "write the operand in the array's type, or use the operator that makes a new array");
        return NULL;
    }
    if (r->kind == KJ_T_ARRAY && r->ndim > x->ndim) {
        kj_error(ic->d, ic->s->src, sp, "non-broadcastable output operand: the result has %d dimensions, the array %d",
                 r->ndim, x->ndim);
        return NULL;
    }
    ei->optype = opt;
    ei->restype = re;
    return x;
}

/* lst += other: other a list whose elements convert to lst's */
static const kj_type *inplace_list(kj_ictx *ic, int b, const kj_type *x, const kj_type *y, kj_span sp)
{
    if (b != KJ_B_PYOP_IADD) {
        kj_error(ic->d, ic->s->src, sp, "%s() of a list is not supported: only operator.iadd extends a list in place",
                 kj_builtin_get((kj_builtin)b)->path);
        return NULL;
    }
    if (y->kind != KJ_T_LIST || !x->elem || !y->elem || !kj_can_convert(y->elem, x->elem)) {
        kj_error(ic->d, ic->s->src, sp, "can only extend %s with a list of the same element type, not %s",
                 kj_type_str(x), kj_type_str(y));
        return NULL;
    }
    return x;
}

bool kj_infer_pyop_inplace(kj_ictx *ic, kj_einfo *ei, int b, kj_binop op, const kj_type *x, const kj_type *y,
                           kj_span sp, const kj_type **out)
{
    if (!kj_builtin_pyop_inplace((unsigned)b) || !x || !y) return false;
    if (x->kind == KJ_T_ARRAY) *out = inplace_array(ic, ei, op, x, y, sp);
    else if (x->kind == KJ_T_LIST) *out = inplace_list(ic, b, x, y, sp);
    else return false;
    return true;
}
