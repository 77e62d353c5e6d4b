/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering of Python's operator module (builtins_operator.h): a call
 * operator.add(a, b), direct or through a function value, is lowered as the
 * expression a + b would be, so that every type the operator takes (numbers,
 * arrays, strings, lists, tuples) works the same way; the in-place forms on
 * an array or a list mutate it, as CPython's do. */
#include "lower_int.h"

#include <string.h>

static const kj_expr *arg(const kj_expr *e, const kj_einfo *ei, int i)
{
    int32_t m = ei->argmap[i];
    return m >= 0 ? e->call.args[m] : e->call.kw[-1 - m].value;
}

static const kir_op INPLACE_KIR[] = {
    [KJ_OP_ADD] = KIR_ADD, [KJ_OP_SUB] = KIR_SUB, [KJ_OP_MUL] = KIR_MUL, [KJ_OP_DIV] = KIR_DIV,
    [KJ_OP_FLOORDIV] = KIR_FLOORDIV, [KJ_OP_MOD] = KIR_MOD, [KJ_OP_POW] = KIR_POW,
    [KJ_OP_LSHIFT] = KIR_SHL, [KJ_OP_RSHIFT] = KIR_SHR, [KJ_OP_BITAND] = KIR_AND,
    [KJ_OP_BITOR] = KIR_OR, [KJ_OP_BITXOR] = KIR_XOR, [KJ_OP_MATMUL] = KIR_NOP};

/* operator.iadd(a, b) of an array a: a[...] = a + b in place (as lower.c's
 * lower_aug_array does a += b), the value a itself */
static kir_ref inplace_array(lctx *lc, const kj_expr *e, const kj_einfo *ei, kj_binop op)
{
    kj_types *T = lc->s->types;
    const kj_expr *x = arg(e, ei, 0), *y = arg(e, ei, 1);
    kir_ref arr = kj_lw_expr(lc, x);
    const kj_type *at = lc->sp->ei[x->id].type, *vt = lc->sp->ei[y->id].type;
    const kj_type *res = kj_strong(T, ei->optype ? ei->optype : at->elem);
    kir_ref v = vt->kind == KJ_T_ARRAY ? kj_lw_expr(lc, y) : kj_lw_as(lc, y, res);
    const kj_type *rt = kj_t_array(T, kj_strong(T, ei->restype ? ei->restype : at->elem), at->ndim, KJ_LAYOUT_C);
    kir_ref r = kj_lw_emit2(lc, INPLACE_KIR[op], rt, e->span, arr, v);
    kir_ref s = kj_lw_emit(lc, KIR_ARRAY_STORE, NULL, e->span);
    kir_at(lc->f, s)->a = arr;
    kir_at(lc->f, s)->b = r;
    kir_at(lc->f, s)->aux = KIR_AUX_INPLACE;
    return arr;
}

/* operator.iadd(lst, other): lst.extend(other), the value lst itself */
static kir_ref inplace_list(lctx *lc, const kj_expr *e, const kj_einfo *ei)
{
    const kj_type *t = kj_strong(lc->s->types, ei->type);
    kir_ref args[2] = {kj_lw_expr(lc, arg(e, ei, 0)), 0};
    args[1] = kj_lw_cast(lc, kj_lw_expr(lc, arg(e, ei, 1)), t, e->span);
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, NULL, e->span, args, 2);
    kir_at(lc->f, r)->aux = KJ_B_LIST_EXTEND;
    return args[0];
}

kir_ref kj_lower_pyoperator(lctx *lc, const kj_expr *e, const kj_einfo *ei, const kj_opufunc *o)
{
    const kj_type *xt = lc->sp->ei[arg(e, ei, 0)->id].type;
    if (kj_builtin_pyop_inplace((unsigned)ei->builtin) && xt->kind == KJ_T_ARRAY)
        return inplace_array(lc, e, ei, (kj_binop)o->op);
    if (kj_builtin_pyop_inplace((unsigned)ei->builtin) && xt->kind == KJ_T_LIST) return inplace_list(lc, e, ei);
    /* The operator's own expression, standing in for the call: the same id,
     * so it reads the call's type (inference typed it as the operator). */
    kj_expr *op = KJ_NEW(lc->s->a, kj_expr);
    memset(op, 0, sizeof *op);
    op->span = e->span;
    op->id = e->id;
    switch (o->kind) {
    case KJ_OPU_BINARY:
        op->kind = KJ_E_BINOP;
        op->bin.op = (kj_binop)o->op;
        op->bin.l = (kj_expr *)arg(e, ei, 0);
        op->bin.r = (kj_expr *)arg(e, ei, 1);
        break;
    case KJ_OPU_COMPARE:
        op->kind = KJ_E_COMPARE;
        op->cmp.n = 2;
        op->cmp.operands = KJ_NEWN(lc->s->a, kj_expr *, 2);
        op->cmp.operands[0] = (kj_expr *)arg(e, ei, 0);
        op->cmp.operands[1] = (kj_expr *)arg(e, ei, 1);
        op->cmp.ops = KJ_NEWN(lc->s->a, kj_cmpop, 1);
        op->cmp.ops[0] = (kj_cmpop)o->op;
        break;
    default:
        op->kind = KJ_E_UNARY;
        op->un.op = (kj_unop)o->op;
        op->un.x = (kj_expr *)arg(e, ei, 0);
        break;
    }
    return kj_lw_expr(lc, op);
}
