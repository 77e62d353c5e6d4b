/* SPDX-License-Identifier: BSD-2-Clause */
/* lower — each reachable specialisation to a kir_func.
 *
 * Lowering re-walks the AST with the types inference settled on (sp->ei,
 * sp->vars) and makes every implicit conversion explicit: after this stage
 * no KIR value has a weak literal type, and every operator's operands have
 * the operator's type. */
#include "lower_int.h"
#include "sema_int.h"
#include "lower_pyiter.h"
#include "lower_pygen.h"

#include <string.h>

static kir_ref lower_expr(lctx *lc, const kj_expr *e);

static const kj_type *strong(lctx *lc, const kj_type *t) { return kj_strong(lc->s->types, t); }
static kj_einfo *EI(lctx *lc, const kj_expr *e) { return &lc->sp->ei[e->id]; }

static kir_ref emit(lctx *lc, kir_op op, const kj_type *t, kj_span sp)
{
    return kir_emit(lc->s->a, lc->f, lc->cur, op, t ? t : kj_t_none(lc->s->types), sp);
}

static kir_ref emit2(lctx *lc, kir_op op, const kj_type *t, kj_span sp, kir_ref a, kir_ref b)
{
    kir_ref r = emit(lc, op, t, sp);
    kir_at(lc->f, r)->a = a;
    kir_at(lc->f, r)->b = b;
    return r;
}

static kir_ref emit_args(lctx *lc, kir_op op, const kj_type *t, kj_span sp, const kir_ref *args,
                         uint32_t n)
{
    kir_ref r = emit(lc, op, t, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->args = kir_refs(lc->s->a, args, n);
    in->nargs = n;
    return r;
}

static const kj_type *type_of(lctx *lc, kir_ref r) { return lc->f->insts[r].type; }

/* ---- constants and conversions ---- */

static kir_ref const_int(lctx *lc, const kj_type *t, int64_t v, kj_span sp)
{
    kir_ref r = emit(lc, KIR_CONST_INT, t, sp);
    kir_at(lc->f, r)->i = v;
    return r;
}

static kir_ref const_float(lctx *lc, const kj_type *t, double v, kj_span sp)
{
    kir_ref r = emit(lc, KIR_CONST_FLOAT, t, sp);
    kir_at(lc->f, r)->f = v;
    return r;
}

/* A small whole number (0, 1, -1) of scalar type t, float or integer. */
static kir_ref cast(lctx *lc, kir_ref v, const kj_type *t, kj_span sp);

static kir_ref const_num(lctx *lc, const kj_type *t, int v, kj_span sp)
{
    if (t->kind == KJ_T_COMPLEX) return cast(lc, const_float(lc, kj_complex_part(lc->s->types, t), v, sp), t, sp);
    return t->kind == KJ_T_FLOAT ? const_float(lc, t, v, sp) : const_int(lc, t, v, sp);
}

static kir_ref i64(lctx *lc, int64_t v, kj_span sp)
{
    return const_int(lc, kj_t_int(lc->s->types, 64, true), v, sp);
}

/* A constant as a value of type `t` (a strong scalar, str, none or tuple). */
static kir_ref const_as(lctx *lc, const kj_cval *cv, const kj_type *t, kj_span sp)
{
    t = strong(lc, t);
    switch (t->kind) {
    case KJ_T_COMPLEX: /* a real constant where a complex is wanted: its real part */
        return cast(lc, const_as(lc, cv, kj_complex_part(lc->s->types, t), sp), t, sp);
    case KJ_T_FLOAT:
        return const_float(lc, t, cv->type->kind == KJ_T_FLOAT ? cv->f : (double)cv->i, sp);
    case KJ_T_INT:
        return const_int(lc, t, cv->type->kind == KJ_T_FLOAT ? (int64_t)cv->f : cv->i, sp);
    case KJ_T_BOOL:
        return const_int(lc, t, cv->type->kind == KJ_T_FLOAT ? cv->f != 0 : cv->i != 0, sp);
    case KJ_T_STR: {
        kir_ref r = emit(lc, KIR_CONST_STR, t, sp);
        kir_at(lc->f, r)->s = cv->s;
        return r;
    }
    case KJ_T_TUPLE: {
        kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, t->n + 1);
        for (uint32_t i = 0; i < t->n; i++) el[i] = const_as(lc, &cv->elems[i], t->elems[i], sp);
        return emit_args(lc, KIR_TUPLE, t, sp, el, t->n);
    }
    case KJ_T_LIST: { /* a fresh list each time (a lazy ufunc's .types) */
        kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, cv->n + 1);
        for (uint32_t i = 0; i < cv->n; i++) el[i] = const_as(lc, &cv->elems[i], t->elem, sp);
        return kj_lower_list_of(lc, t, el, cv->n, sp);
    }
    case KJ_T_DATETIME: case KJ_T_TIMEDELTA: return kj_lower_dt_const(lc, cv, t, sp); /* lower_datetime.c */
    default: return emit(lc, KIR_CONST_NONE, t, sp);
    }
}

/* Can constant `cv` be folded into type `t` here? A float going to an
 * integer must be finite and in range; otherwise the conversion happens at
 * run time, with the target's semantics. */
static bool const_fits(const kj_cval *cv, const kj_type *t)
{
    if (cv->type->kind == KJ_T_TUPLE) {
        if (t->kind != KJ_T_TUPLE || t->n != cv->n) return false;
        for (uint32_t i = 0; i < cv->n; i++)
            if (!const_fits(&cv->elems[i], t->elems[i])) return false;
        return true;
    }
    if (cv->type->kind == KJ_T_FLOAT && t->kind == KJ_T_INT)
        return cv->f > -9.2e18 && cv->f < 9.2e18;
    return true;
}

/* Convert value `v` to type `t`: scalar casts, tuples element-wise, arrays
 * of another layout (a no-op view change in codegen). */
static kir_ref cast(lctx *lc, kir_ref v, const kj_type *t, kj_span sp)
{
    const kj_type *from = type_of(lc, v);
    t = strong(lc, t);
    if (from == t) return v;
    if (from->kind == KJ_T_OPTIONAL || t->kind == KJ_T_OPTIONAL) return kj_lower_opt_cast(lc, v, t, sp); /* lower_optional.c */
    if ((from->kind == KJ_T_LIST || from->kind == KJ_T_DICT || from->kind == KJ_T_SET) && !from->elem &&
        t->kind == from->kind) { /* `[]`, `{}`, set(), typed by their appends and stores */
        kir_at(lc->f, v)->type = t;
        return v;
    }
    if (t->kind == KJ_T_TUPLE && from->kind == KJ_T_TUPLE && from->n == t->n) {
        kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, t->n + 1);
        for (uint32_t i = 0; i < t->n; i++) {
            kir_ref g = emit(lc, KIR_TUPLE_GET, from->elems[i], sp);
            kir_at(lc->f, g)->a = v;
            kir_at(lc->f, g)->i = i;
            el[i] = cast(lc, g, t->elems[i], sp);
        }
        return emit_args(lc, KIR_TUPLE, t, sp, el, t->n);
    }
    kir_ref r = emit(lc, KIR_CAST, t, sp);
    kir_at(lc->f, r)->a = v;
    return r;
}

/* Lower `e` as a value of type `t`, folding constants straight into `t`
 * (so `x * 2.0` with float32 x never materialises a float64). */
static kir_ref lower_as(lctx *lc, const kj_expr *e, const kj_type *t)
{
    kj_einfo *ei = EI(lc, e);
    t = strong(lc, t);
    if (ei->opt_type && t->kind == KJ_T_OPTIONAL) return cast(lc, kj_lower_opt_raw(lc, e), t, e->span);
    if (kj_is_dt(t) && ei->type->kind == KJ_T_STR) return kj_lower_dt_from_str(lc, e, t); /* lower_datetime.c */
    if (ei->is_const && ei->cval.type && (kj_is_scalar(t) || t->kind == KJ_T_TUPLE) &&
        (kj_is_scalar(ei->cval.type) || ei->cval.type->kind == KJ_T_TUPLE) &&
        const_fits(&ei->cval, t))
        return const_as(lc, &ei->cval, t, e->span);
    return cast(lc, lower_expr(lc, e), t, e->span);
}

/* A bool from any scalar (Python truthiness). */
static kir_ref truthy(lctx *lc, kir_ref v, kj_span sp)
{
    const kj_type *t = type_of(lc, v);
    if (t->kind == KJ_T_BOOL) return v;
    if (t->kind == KJ_T_COMPLEX) return cast(lc, v, kj_t_bool(lc->s->types), sp);
    kir_ref zero = t->kind == KJ_T_FLOAT ? const_float(lc, t, 0, sp) : const_int(lc, t, 0, sp);
    return emit2(lc, KIR_NE, kj_t_bool(lc->s->types), sp, v, zero);
}

static kir_ref lower_cond(lctx *lc, const kj_expr *e)
{
    if (EI(lc, e)->opt_type) return kj_lower_opt_truth(lc, e); /* host code: lower_optional.c */
    return truthy(lc, lower_expr(lc, e), e->span);
}

/* ---- locals and control flow helpers ---- */

static uint32_t temp_local(lctx *lc, const kj_type *t)
{
    return kir_local_new(lc->s->a, lc->f, NULL, strong(lc, t));
}

static kir_ref get_local(lctx *lc, uint32_t l, kj_span sp)
{
    kir_ref r = emit(lc, KIR_LOCAL_GET, lc->f->locals[l].type, sp);
    kir_at(lc->f, r)->i = l;
    return r;
}

static void set_local(lctx *lc, uint32_t l, kir_ref v, kj_span sp)
{
    v = cast(lc, v, lc->f->locals[l].type, sp);
    kir_ref r = emit(lc, KIR_LOCAL_SET, NULL, sp);
    kir_at(lc->f, r)->i = l;
    kir_at(lc->f, r)->a = v;
}

/* Emit IF cond { then } else { els } and return the two blocks; the caller
 * fills them by setting lc->cur. */
static kir_ref emit_if(lctx *lc, kir_ref cond, kj_span sp, kir_blkid *then, kir_blkid *els)
{
    kir_ref r = emit(lc, KIR_IF, NULL, sp);
    *then = kir_block_new(lc->s->a, lc->f);
    *els = kir_block_new(lc->s->a, lc->f);
    kir_inst *in = kir_at(lc->f, r);
    in->a = cond;
    in->blk[0] = *then;
    in->blk[1] = *els;
    return r;
}

/* The local of a NAME expression (its version: versions.c), -1 for none. */
static int32_t var_local(lctx *lc, const kj_expr *e)
{
    kj_var *v = kj_var_of(lc->sp, e);
    return v ? lc->local[v - lc->sp->vars.v] : -1;
}

static const kir_op BINOP_KIR[] = {
    [KJ_OP_ADD] = KIR_ADD, [KJ_OP_SUB] = KIR_SUB, [KJ_OP_MUL] = KIR_MUL, [KJ_OP_DIV] = KIR_DIV,
    [KJ_OP_FLOORDIV] = KIR_FLOORDIV, [KJ_OP_MOD] = KIR_MOD, [KJ_OP_POW] = KIR_POW,
    [KJ_OP_LSHIFT] = KIR_SHL, [KJ_OP_RSHIFT] = KIR_SHR, [KJ_OP_BITAND] = KIR_AND,
    [KJ_OP_BITOR] = KIR_OR, [KJ_OP_BITXOR] = KIR_XOR, [KJ_OP_MATMUL] = KIR_NOP};

/* target op= value: `cur` is the target's current value; the operation runs
 * in `res` (a scalar type: inference rejects in-place array operators). */
static kir_ref aug_apply(lctx *lc, kj_binop op, kir_ref cur, const kj_expr *value,
                         const kj_type *res, kj_span sp)
{
    res = strong(lc, res);
    kir_ref l = cast(lc, cur, res, sp);
    kir_ref r = lower_as(lc, value, res); /* after the target, as Python evaluates */
    return emit2(lc, BINOP_KIR[op], res, sp, l, r);
}

/* An operand of an operator of result type `res`: an array as it is, a
 * scalar converted to the operation's element type. */
static kir_ref operand(lctx *lc, const kj_expr *x, const kj_type *res)
{
    const kj_type *ot = res->kind == KJ_T_ARRAY ? res->elem : res;
    return EI(lc, x)->type->kind == KJ_T_ARRAY ? lower_expr(lc, x) : lower_as(lc, x, ot);
}

/* l op r typed as expression e (a BINOP, or np.add(l, r)) */
static kir_ref binop_of(lctx *lc, const kj_expr *e, kj_binop op, const kj_expr *l, const kj_expr *r)
{
    const kj_type *res = strong(lc, EI(lc, e)->type);
    if (op == KJ_OP_MATMUL) { /* a @ b: np.matmul(a, b) */
        kir_ref ab[2] = {lower_expr(lc, l), 0};
        ab[1] = lower_expr(lc, r); /* after l, as Python evaluates */
        kir_ref m = emit_args(lc, KIR_BUILTIN, res, e->span, ab, 2);
        kir_at(lc->f, m)->aux = KJ_B_NP_MATMUL;
        return m;
    }
    if (kj_dt_involved(EI(lc, l)->type, EI(lc, r)->type)) return kj_lower_dt_binop(lc, e, op, l, r); /* lower_datetime.c */
    kir_ref a = operand(lc, l, res);
    return emit2(lc, BINOP_KIR[op], res, e->span, a, operand(lc, r, res));
}

static kir_ref lower_binop(lctx *lc, const kj_expr *e)
{
    if (EI(lc, e)->type->kind == KJ_T_LIST) return kj_lower_list_binop(lc, e); /* lower_list.c */
    if (EI(lc, e)->type->kind == KJ_T_STR) return kj_lower_str_binop(lc, e);   /* lower_str.c */
    if (EI(lc, e)->type->kind == KJ_T_TUPLE) return kj_lower_tuple_concat(lc, e, e->bin.l, e->bin.r);
    return binop_of(lc, e, e->bin.op, e->bin.l, e->bin.r);
}

static const kir_op CMP_KIR[] = {[KJ_CMP_EQ] = KIR_EQ, [KJ_CMP_NE] = KIR_NE,
                                 [KJ_CMP_LT] = KIR_LT, [KJ_CMP_LE] = KIR_LE,
                                 [KJ_CMP_GT] = KIR_GT, [KJ_CMP_GE] = KIR_GE};

static kir_ref compare_pair(lctx *lc, const kj_expr *e, kj_cmpop op, const kj_expr *le,
                            kir_ref l, const kj_expr *re, kir_ref *r_out)
{
    kj_types *T = lc->s->types;
    const kj_type *lt = EI(lc, le)->type, *rt = EI(lc, re)->type;
    if (lt->kind == KJ_T_STR && rt->kind == KJ_T_STR) { /* lower_str.c */
        if (!l) l = lower_expr(lc, le);
        *r_out = lower_expr(lc, re);
        return kj_lower_str_compare(lc, e, op, l, *r_out);
    }
    if (op == KJ_CMP_IN || op == KJ_CMP_NOTIN) { /* x in lst: lower_list.c */
        *r_out = lower_expr(lc, re);
        if (rt->kind == KJ_T_ARRAY) /* lower_npshape.c */
            return kj_lower_array_in(lc, e, op == KJ_CMP_NOTIN, l ? l : lower_expr(lc, le), *r_out);
        if (rt->kind == KJ_T_RANGE) /* lower_range.c */
            return kj_lower_range_in(lc, e->span, op == KJ_CMP_NOTIN, l ? l : lower_expr(lc, le), *r_out);
        if (rt->kind == KJ_T_DICT || rt->kind == KJ_T_SET) /* lower_dict.c */
            return kj_lower_dict_in(lc, e, op == KJ_CMP_NOTIN, l ? l : lower_expr(lc, le), *r_out);
        return kj_lower_list_in(lc, e, op == KJ_CMP_NOTIN, l ? l : lower_expr(lc, le), *r_out);
    }
    if (lt->kind == KJ_T_TUPLE && rt->kind == KJ_T_TUPLE) { /* lower_tuple_ops.c */
        if (!l) l = lower_expr(lc, le);
        *r_out = lower_expr(lc, re);
        return kj_lower_tuple_compare(lc, e, op, l, *r_out);
    }
    if (lt->kind == KJ_T_LIST && rt->kind == KJ_T_LIST) { /* lower_list.c */
        if (!l) l = lower_expr(lc, le);
        *r_out = lower_expr(lc, re);
        return kj_lower_list_compare(lc, op, l, *r_out, e->span);
    }
    if (kj_dt_involved(lt, rt)) return kj_lower_dt_compare(lc, e, op, l, le, re, r_out); /* lower_datetime.c */
    if (op == KJ_CMP_IS || op == KJ_CMP_ISNOT) {
        bool same = lt->kind == KJ_T_NONE && rt->kind == KJ_T_NONE;
        *r_out = 0;
        return const_int(lc, kj_t_bool(T), op == KJ_CMP_IS ? same : !same, e->span);
    }
    bool arrays = lt->kind == KJ_T_ARRAY || rt->kind == KJ_T_ARRAY;
    const kj_type *ot = strong(lc, kj_promote(T, lt->kind == KJ_T_ARRAY ? lt->elem : lt,
                                              rt->kind == KJ_T_ARRAY ? rt->elem : rt));
    if (!l) l = lt->kind == KJ_T_ARRAY ? lower_expr(lc, le) : lower_as(lc, le, ot);
    else if (lt->kind != KJ_T_ARRAY) l = cast(lc, l, ot, e->span);
    kir_ref r = rt->kind == KJ_T_ARRAY ? lower_expr(lc, re) : lower_as(lc, re, ot);
    *r_out = r;
    const kj_type *res = arrays ? strong(lc, EI(lc, e)->type) : kj_t_bool(T);
    return emit2(lc, CMP_KIR[op], res, e->span, l, r);
}

/* a < b <= c: b is evaluated once; c only when a < b holds. */
static kir_ref lower_compare(lctx *lc, const kj_expr *e)
{
    kir_ref r = kj_lower_exc_expr(lc, e); /* type(e) is C: lower_exc.c */
    if (r) return r;
    kir_ref first = compare_pair(lc, e, e->cmp.ops[0], e->cmp.operands[0], 0, e->cmp.operands[1], &r);
    if (e->cmp.n == 2) return first;
    uint32_t tmp = temp_local(lc, kj_t_bool(lc->s->types));
    set_local(lc, tmp, first, e->span);
    kir_blkid saved = lc->cur;
    for (uint32_t i = 2; i < e->cmp.n; i++) {
        kir_blkid then, els;
        emit_if(lc, get_local(lc, tmp, e->span), e->span, &then, &els);
        lc->cur = then;
        kir_ref next;
        kir_ref c = compare_pair(lc, e, e->cmp.ops[i - 1], e->cmp.operands[i - 1], r,
                                 e->cmp.operands[i], &next);
        set_local(lc, tmp, c, e->span);
        r = next;
    }
    lc->cur = saved;
    return get_local(lc, tmp, e->span);
}

static kir_ref lower_unary(lctx *lc, const kj_expr *e)
{
    const kj_type *t = strong(lc, EI(lc, e)->type);
    if (kj_is_dt(t)) return kj_lower_dt_unary(lc, e); /* lower_datetime.c */
    switch (e->un.op) {
    case KJ_UOP_NOT: {
        kir_ref c = lower_cond(lc, e->un.x);
        kir_ref r = emit(lc, KIR_NOT, t, e->span);
        kir_at(lc->f, r)->a = c;
        return r;
    }
    case KJ_UOP_POS: return lower_as(lc, e->un.x, t);
    case KJ_UOP_NEG: case KJ_UOP_INVERT: {
        if (EI(lc, e)->is_const) return const_as(lc, &EI(lc, e)->cval, t, e->span);
        kir_ref x = t->kind == KJ_T_ARRAY ? lower_expr(lc, e->un.x) : lower_as(lc, e->un.x, t);
        kir_op op = e->un.op == KJ_UOP_NEG ? KIR_NEG : t->kind == KJ_T_BOOL ? KIR_NOT : KIR_INVERT;
        kir_ref r = emit(lc, op, t, e->span);
        kir_at(lc->f, r)->a = x;
        return r;
    }
    case KJ_UOP__COUNT: break;
    }
    return 0;
}

/* a and b / a or b: Python's short circuit yields an operand. */
static kir_ref lower_boolop(lctx *lc, const kj_expr *e)
{
    const kj_type *t = strong(lc, EI(lc, e)->type);
    uint32_t tmp = temp_local(lc, t);
    kir_ref l = lower_expr(lc, e->boolop.l);
    set_local(lc, tmp, l, e->span);
    kir_blkid then, els, saved = lc->cur;
    emit_if(lc, truthy(lc, l, e->span), e->span, &then, &els);
    lc->cur = e->boolop.op == KJ_BOOL_AND ? then : els;
    set_local(lc, tmp, lower_as(lc, e->boolop.r, t), e->span);
    lc->cur = saved;
    return get_local(lc, tmp, e->span);
}

static kir_ref lower_ifexp(lctx *lc, const kj_expr *e)
{
    const kj_type *t = strong(lc, EI(lc, e)->type);
    uint32_t tmp = temp_local(lc, t);
    kir_blkid then, els, saved = lc->cur;
    emit_if(lc, lower_cond(lc, e->ifexp.cond), e->span, &then, &els);
    lc->cur = then;
    set_local(lc, tmp, lower_as(lc, e->ifexp.then, t), e->span);
    lc->cur = els;
    set_local(lc, tmp, lower_as(lc, e->ifexp.els, t), e->span);
    lc->cur = saved;
    return get_local(lc, tmp, e->span);
}

static kir_ref lower_tuple(lctx *lc, const kj_expr *e)
{
    const kj_type *t = strong(lc, EI(lc, e)->type);
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, e->seq.n + 1);
    for (uint32_t i = 0; i < e->seq.n; i++) el[i] = lower_as(lc, e->seq.v[i], t->elems[i]);
    return emit_args(lc, KIR_TUPLE, t, e->span, el, e->seq.n);
}

/* ---- calls ---- */

static const kj_expr *call_arg(const kj_expr *call, int32_t m)
{
    if (m == INT32_MIN || m == INT32_MAX) return NULL;
    return m >= 0 ? call->call.args[m] : call->call.kw[-1 - m].value;
}

/* A list display as a built-in's argument: a tuple of type t (nested
 * displays too; np.array converts the leaves to its dtype). */
static kir_ref lower_list_as(lctx *lc, const kj_expr *a, const kj_type *t)
{
    kj_einfo *ai = EI(lc, a);
    t = strong(lc, t);
    if (ai->is_const && ai->cval.type && const_fits(&ai->cval, t)) return const_as(lc, &ai->cval, t, a->span);
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, a->seq.n + 1);
    for (uint32_t i = 0; i < a->seq.n; i++) {
        const kj_expr *v = a->seq.v[i];
        el[i] = v->kind == KJ_E_LIST ? lower_list_as(lc, v, t->elems[i]) : lower_as(lc, v, t->elems[i]);
    }
    return emit_args(lc, KIR_TUPLE, t, a->span, el, a->seq.n);
}

static kir_ref lower_builtin_arg(lctx *lc, const kj_expr *a, const kj_type *conv)
{
    kj_einfo *ai = EI(lc, a);
    if (ai->kind == EI_DTYPE)
        return emit(lc, KIR_CONST_NONE, kj_t_dtype(lc->s->types, ai->dtype), a->span);
    if (a->kind == KJ_E_LIST && ai->type->kind == KJ_T_LIST) return kj_lower_list_literal(lc, a);
    if (a->kind == KJ_E_LIST) return lower_list_as(lc, a, conv ? conv : ai->type);
    return conv ? lower_as(lc, a, conv) : lower_as(lc, a, ai->type);
}

/* x as bools: itself when it is bool, else x != 0 (an array: elementwise;
 * NaN is true). */
static kir_ref truth(lctx *lc, const kj_expr *x, kj_span sp)
{
    const kj_type *t = EI(lc, x)->type;
    if (t->kind != KJ_T_ARRAY) return lower_cond(lc, x);
    kir_ref a = lower_expr(lc, x);
    if (t->elem->kind == KJ_T_BOOL) return a;
    kj_types *T = lc->s->types;
    const kj_type *el = strong(lc, t->elem);
    return emit2(lc, KIR_NE, kj_t_array(T, kj_t_bool(T), t->ndim, KJ_LAYOUT_C), sp, a, const_num(lc, el, 0, sp));
}

/* np.add(x1, x2) and the other operator ufuncs: the operator itself (so a
 * host array expression of them fuses as one of operators does). */
static kir_ref lower_operator(lctx *lc, const kj_expr *e, const kj_einfo *ei, const kj_opufunc *o)
{
    const kj_expr *x = call_arg(e, ei->argmap[0]), *y = ei->nbound > 1 ? call_arg(e, ei->argmap[1]) : NULL;
    const kj_type *t = strong(lc, ei->type);
    kir_ref r, v;
    switch (o->kind) {
    case KJ_OPU_BINARY: return binop_of(lc, e, (kj_binop)o->op, x, y);
    case KJ_OPU_SQUARE: /* x once, then x * x */
        v = operand(lc, x, t);
        return emit2(lc, KIR_MUL, t, e->span, v, v);
    case KJ_OPU_COMPARE: return compare_pair(lc, e, (kj_cmpop)o->op, x, 0, y, &r);
    case KJ_OPU_LOGICAL:
        v = truth(lc, x, e->span);
        if (o->op == KJ_UOP_NOT) {
            r = emit(lc, t->kind == KJ_T_BOOL ? KIR_NOT : KIR_INVERT, t, e->span);
            kir_at(lc->f, r)->a = v;
            return r;
        }
        return emit2(lc, BINOP_KIR[o->op], t, e->span, v, truth(lc, y, e->span));
    case KJ_OPU_UNARY:
        v = operand(lc, x, t);
        if (o->op == KJ_UOP_POS) { /* a new array, as NumPy's: x * 1 */
            if (t->kind != KJ_T_ARRAY) return v;
            return emit2(lc, KIR_MUL, t, e->span, v, const_num(lc, t->elem, 1, e->span));
        }
        r = emit(lc, o->op == KJ_UOP_NEG ? KIR_NEG : t->kind == KJ_T_BOOL ? KIR_NOT : KIR_INVERT, t, e->span);
        kir_at(lc->f, r)->a = v;
        return r;
    }
    return 0;
}

/* np.any(a, axis), np.all, np.count_nonzero, a.any(), a.all(): the count
 * of a != 0 (all: a == 0) by np.sum, then any: count != 0, all: count ==
 * 0 (NaN counts as true, as in NumPy). args: the array, the axis or 0. */
static kir_ref lower_truth(lctx *lc, const kj_expr *e, int b, const kj_type *t, kir_ref arr, kir_ref axis)
{
    kj_types *T = lc->s->types;
    const kj_type *at = type_of(lc, arr);
    bool all = b == KJ_B_NP_ALL || b == KJ_B_ARR_ALL;
    kir_ref cmp = emit2(lc, all ? KIR_EQ : KIR_NE, kj_t_array(T, kj_t_bool(T), at->ndim, KJ_LAYOUT_C), e->span, arr,
                        const_num(lc, at->elem, 0, e->span));
    const kj_type *i64t = kj_t_int(T, 64, true);
    const kj_type *st = t->kind == KJ_T_ARRAY ? kj_t_array(T, i64t, t->ndim, KJ_LAYOUT_C) : i64t;
    kir_ref n = emit_args(lc, KIR_BUILTIN, st, e->span, (kir_ref[]){cmp, axis}, 2);
    kir_at(lc->f, n)->aux = KJ_B_NP_SUM;
    if (b == KJ_B_NP_COUNT_NONZERO) return n;
    return emit2(lc, all ? KIR_EQ : KIR_NE, t, e->span, n, const_int(lc, i64t, 0, e->span));
}

/* max/min/sum of a float array, any/all: CPython's scan (lower_pyiter.c) */
static bool pyiter_loop(lctx *lc, int b, const kj_einfo *ei, const kir_ref *args)
{
    if (b == KJ_B_ANY || b == KJ_B_ALL) return true;
    if (b != KJ_B_MAX && b != KJ_B_MIN && b != KJ_B_SUM) return false;
    const kj_type *x = type_of(lc, args[0]);
    if (x->kind == KJ_T_LIST) return b == KJ_B_SUM || ei->nbound == 1; /* a list: always the scan */
    if (x->kind == KJ_T_TUPLE && x->n && x->elems[0]->kind == KJ_T_STR) return ei->nbound == 1; /* of strings */
    return (b == KJ_B_SUM || ei->nbound == 1) && x->kind == KJ_T_ARRAY && x->elem->kind == KJ_T_FLOAT;
}

/* sum(iterable, start) as Python computes it (builtins.c's type_sum): a
 * tuple's elements added to start one by one in the result type; a 1-d int
 * array's np.sum added to start. */
static kir_ref lower_sum(lctx *lc, const kj_expr *e, const kj_type *t, kir_ref it, kir_ref start)
{
    const kj_type *itt = type_of(lc, it);
    kir_ref acc = start ? cast(lc, start, t, e->span) : const_num(lc, t, 0, e->span);
    if (itt->kind == KJ_T_ARRAY) {
        kir_ref n = emit_args(lc, KIR_BUILTIN, t, e->span, (kir_ref[]){it, 0}, 2);
        kir_at(lc->f, n)->aux = KJ_B_NP_SUM;
        return emit2(lc, KIR_ADD, t, e->span, acc, n);
    }
    for (uint32_t i = 0; i < itt->n; i++) {
        kir_ref g = emit(lc, KIR_TUPLE_GET, itt->elems[i], e->span);
        kir_at(lc->f, g)->a = it;
        kir_at(lc->f, g)->i = i;
        acc = emit2(lc, KIR_ADD, t, e->span, acc, cast(lc, g, t, e->span));
    }
    return acc;
}

static kir_ref where3(lctx *lc, const kj_type *t, kj_span sp, kir_ref cond, kir_ref a, kir_ref b)
{
    kir_ref r = emit_args(lc, KIR_BUILTIN, t, sp, (kir_ref[]){cond, a, b}, 3);
    kir_at(lc->f, r)->aux = KJ_B_NP_WHERE;
    return r;
}

/* np.sign(x) as NumPy's loop computes it: x > 0 ? 1 : x < 0 ? -1 : x == 0 ?
 * 0 : x (NaN stays NaN, -0.0 gives 0.0), as np.where (one fused loop over
 * arrays). */
static kir_ref lower_sign(lctx *lc, const kj_expr *e, const kj_type *t, const kj_expr *xe)
{
    kj_types *T = lc->s->types;
    const kj_type *el = t->kind == KJ_T_ARRAY ? t->elem : t;
    const kj_type *bt = t->kind == KJ_T_ARRAY ? kj_t_array(T, kj_t_bool(T), t->ndim, KJ_LAYOUT_C) : kj_t_bool(T);
    bool fl = el->kind == KJ_T_FLOAT;
    kj_span sp = e->span;
    kir_ref x = operand(lc, xe, t);
    kir_ref zero = const_num(lc, el, 0, sp), one = const_num(lc, el, 1, sp), mone = const_num(lc, el, -1, sp);
    kir_ref rest = fl ? where3(lc, t, sp, emit2(lc, KIR_EQ, bt, sp, x, zero), zero, x) : zero;
    kir_ref neg = where3(lc, t, sp, emit2(lc, KIR_LT, bt, sp, x, zero), mone, rest);
    return where3(lc, t, sp, emit2(lc, KIR_GT, bt, sp, x, zero), one, neg);
}

/* np.copy(a): a.copy(); a.flatten(): a.copy() reshaped to one dimension;
 * a.ravel(), np.ravel(a): the runtime's ravel (a view of a C-contiguous
 * array, else a copy: NumPy's ravel, which copies where reshape(-1) might
 * still make a strided view). */
static kir_ref lower_copy_ravel(lctx *lc, const kj_expr *e, int b, const kj_type *t, kir_ref a)
{
    if (b == KJ_B_NP_RAVEL || b == KJ_B_ARR_RAVEL) {
        kir_ref r = emit_args(lc, KIR_BUILTIN, t, e->span, (kir_ref[]){a}, 1);
        kir_at(lc->f, r)->aux = KJ_B_ARR_RAVEL;
        return r;
    }
    if (b == KJ_B_NP_COPY || b == KJ_B_ARR_FLATTEN) {
        const kj_type *at = type_of(lc, a);
        a = emit_args(lc, KIR_BUILTIN, kj_t_array(lc->s->types, at->elem, at->ndim, KJ_LAYOUT_C), e->span,
                      (kir_ref[]){a}, 1);
        kir_at(lc->f, a)->aux = KJ_B_ARR_COPY;
        if (b == KJ_B_NP_COPY) return a;
    }
    kir_ref n = emit_args(lc, KIR_BUILTIN, kj_t_int(lc->s->types, 64, true), e->span, (kir_ref[]){a}, 1);
    kir_at(lc->f, n)->aux = KJ_B_ARR_SIZE;
    kir_ref r = emit_args(lc, KIR_BUILTIN, t, e->span, (kir_ref[]){a, n}, 2);
    kir_at(lc->f, r)->aux = KJ_B_ARR_RESHAPE;
    return r;
}

static bool is_atomic(int b)
{
    switch (b) {
    case KJ_B_ATOMIC_ADD: case KJ_B_ATOMIC_SUB: case KJ_B_ATOMIC_MAX: case KJ_B_ATOMIC_MIN:
    case KJ_B_ATOMIC_EXCH: case KJ_B_ATOMIC_AND: case KJ_B_ATOMIC_OR: case KJ_B_ATOMIC_XOR:
    case KJ_B_ATOMIC_CAS: case KJ_B_ATOMIC_CAS2: return true;
    default: return false;
    }
}

/* The index of cuda.atomic.OP(arr, ix, ...): an int, or a tuple of ints
 * with one per dimension (conv: int64 or a tuple of int64), each wrapped
 * and checked as a subscript's index is (Numba wraps negative indices). */
static kir_ref lower_atomic_index(lctx *lc, kir_ref arr, const kj_expr *ix, const kj_type *conv)
{
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true);
    if (conv->kind != KJ_T_TUPLE) return kj_lower_index(lc, arr, ix, 0);
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, conv->n + 1);
    bool literal = ix->kind == KJ_E_TUPLE || ix->kind == KJ_E_LIST;
    kir_ref tup = literal ? 0 : lower_as(lc, ix, conv);
    for (uint32_t k = 0; k < conv->n; k++) {
        if (literal) {
            el[k] = kj_lower_index(lc, arr, ix->seq.v[k], k);
            continue;
        }
        kir_ref g = emit(lc, KIR_TUPLE_GET, i64t, ix->span);
        kir_at(lc->f, g)->a = tup;
        kir_at(lc->f, g)->i = k;
        el[k] = kj_lower_checked_index(lc, arr, g, false, false, ix->span, k);
    }
    return emit_args(lc, KIR_TUPLE, conv, ix->span, el, conv->n);
}

static kir_ref lower_builtin(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    kj_opufunc o;
    if (kj_builtin_operator((kj_builtin)ei->builtin, &o))
        return kj_builtin_pyop((unsigned)ei->builtin) ? kj_lower_pyoperator(lc, e, ei, &o) /* lower_operator.c */
                                                      : lower_operator(lc, e, ei, &o);
    const kj_type *t = strong(lc, ei->type);
    int b = ei->builtin;
    kir_ref dt = kj_lower_dt_builtin(lc, e, ei, t); /* datetime64 arguments: lower_datetime.c */
    if (dt) return dt;
    if (b == KJ_B_NP_SIGN) return lower_sign(lc, e, t, call_arg(e, ei->argmap[0]));
    if (b == KJ_B_CONVERT || b == KJ_B_INT || b == KJ_B_FLOAT) {
        const kj_expr *a = call_arg(e, ei->argmap[0]);
        if (kj_is_scalar(t)) return lower_as(lc, a, t);
    }
    if (b == KJ_B_BOOL && kj_is_scalar(EI(lc, call_arg(e, ei->argmap[0]))->type))
        return lower_cond(lc, call_arg(e, ei->argmap[0]));
    if (b == KJ_B_LEN && EI(lc, call_arg(e, ei->argmap[0]))->type->kind == KJ_T_ARRAY) {
        kir_ref arr = lower_expr(lc, call_arg(e, ei->argmap[0]));
        kir_ref r = emit(lc, KIR_ARRAY_DIM, t, e->span);
        kir_at(lc->f, r)->a = arr;
        return r;
    }
    if (ei->is_const) return const_as(lc, &ei->cval, t, e->span);
    kir_ref *args = KJ_NEWN(lc->s->a, kir_ref, (uint32_t)ei->nbound + 1);
    for (int i = 0; i < ei->nbound; i++) {
        int32_t m = ei->argmap[i];
        if (m == INT32_MAX) {
            args[i] = lower_expr(lc, e->call.fn->attr.obj);
            continue;
        }
        const kj_expr *a = call_arg(e, m);
        /* an index already of the op's type has no conv: wrapped and checked all the same */
        const kj_type *ixt = ei->conv && ei->conv[1] ? ei->conv[1] : a && i == 1 ? EI(lc, a)->type : NULL;
        if (a && i == 1 && is_atomic(b) && b != KJ_B_ATOMIC_CAS2 && ixt &&
            (ixt->kind == KJ_T_INT || ixt->kind == KJ_T_TUPLE))
            args[i] = lower_atomic_index(lc, args[0], a, ixt);
        else
            args[i] = a && b == KJ_B_PRINT && EI(lc, a)->opt_type ? kj_lower_opt_raw(lc, a) /* None or its value */
                      : a ? lower_builtin_arg(lc, a, ei->conv ? ei->conv[i] : NULL) : 0;
    }
    if (b == KJ_B_OBJMODE_OUT) return cast(lc, args[0], t, e->span); /* parser_objmode.c */
    kir_ref gen = kj_lower_gen_builtin(lc, b, args, (uint32_t)ei->nbound, e->span); /* lower_pygen.c */
    if (gen) return gen;
    if (b == KJ_B_ATOMIC_CAS2 && lc->boundscheck) /* it acts on arr[0] */
        kj_lower_checked_index(lc, args[0], i64(lc, 0, e->span), true, false, e->span, 0);
    if (b == KJ_B_NP_ANY || b == KJ_B_NP_ALL || b == KJ_B_NP_COUNT_NONZERO || b == KJ_B_ARR_ANY ||
        b == KJ_B_ARR_ALL)
        return lower_truth(lc, e, b, t, args[0], ei->nbound > 1 ? args[1] : 0);
    if (kj_builtin_setops((unsigned)b) || (b == KJ_B_SET && ei->nbound && args[0]))
        return kj_lower_set_builtin(lc, b, t, args, e->span); /* lower_set.c */
    if (b == KJ_B_TUPLE_INDEX) return kj_lower_tuple_find(lc, e, args[0], args[1]); /* lower_tuple_ops.c */
    if (b == KJ_B_LIST_COUNT || b == KJ_B_LIST_INDEX || b == KJ_B_LIST_REMOVE)
        return kj_lower_list_search(lc, b, args, e->span); /* lower_list.c */
    kir_ref keyed = b == KJ_B_SORTED || b == KJ_B_LIST_SORT ? kj_lower_sort_key(lc, e, ei, b, t, args) : 0;
    if (keyed) return keyed; /* key=: lower_sortkey.c */
    if (b == KJ_B_SORTED || b == KJ_B_LIST_OF) /* lower_list.c */
        return kj_lower_sorted(lc, b, t, args, (uint32_t)ei->nbound, e->span);
    if ((b == KJ_B_MAX || b == KJ_B_MIN) && t->kind == KJ_T_STR && ei->nbound > 1) /* lower_pyiter.c */
        return kj_lower_minmax_str(lc->s->a, lc->s->types, lc->f, lc->cur, e->span, b, args, (uint32_t)ei->nbound);
    if (pyiter_loop(lc, b, ei, args))
        return kj_lower_pyiter(lc->s->a, lc->s->types, lc->f, lc->cur, e->span, b, t, args[0],
                               ei->nbound > 1 ? args[1] : 0);
    if ((b == KJ_B_MAX || b == KJ_B_MIN) && ei->nbound == 1 && type_of(lc, args[0])->kind == KJ_T_ARRAY) {
        /* max(a) of ints or bools (builtins.c's type_minmax_array): NumPy's reduction, no axis */
        kir_ref r = emit_args(lc, KIR_BUILTIN, t, e->span, (kir_ref[]){args[0], 0}, 2);
        kir_at(lc->f, r)->aux = b == KJ_B_MAX ? KJ_B_NP_MAX : KJ_B_NP_MIN;
        return r;
    }
    if (b == KJ_B_SUM) return lower_sum(lc, e, t, args[0], ei->nbound > 1 ? args[1] : 0);
    if (kj_builtin_pybuiltin((unsigned)b)) return kj_lower_pybuiltin(lc, b, t, args, (uint32_t)ei->nbound, e->span);
    if (b == KJ_B_CUDA_TO_DEVICE && (type_of(lc, args[0])->kind == KJ_T_TUPLE || type_of(lc, args[0])->kind == KJ_T_LIST)) {
        args[0] = emit_args(lc, KIR_BUILTIN, t, e->span, (kir_ref[]){args[0], 0}, 2);
        kir_at(lc->f, args[0])->aux = KJ_B_NP_ARRAY;
    }
    if ((b == KJ_B_NP_ARRAY || b == KJ_B_NP_ASARRAY) && kj_record_of(t->elem)) /* lower_record.c */
        return kj_lower_record_array(lc, t, args[0], e->span);
    if (b == KJ_B_KERNEL_MAX_COOP) return kj_lower_kernel_query(lc, e, t, args, (uint32_t)ei->nbound);
    if (b == KJ_B_ARR_SPLIT) return kj_lower_devarr_split(lc, t, args[0], args[1], e->span); /* lower_devarr.c */
    if (b == KJ_B_NP_COPY || b == KJ_B_NP_RAVEL || b == KJ_B_ARR_RAVEL || b == KJ_B_ARR_FLATTEN)
        return lower_copy_ravel(lc, e, b, t, args[0]);
    if (b == KJ_B_RANGE || (b == KJ_B_LEN && type_of(lc, args[0])->kind == KJ_T_RANGE))
        return kj_lower_range_builtin(lc, b, t, args, (uint32_t)ei->nbound, e->span); /* lower_iter.c */
    if (b == KJ_B_PRINT) kj_lower_range_print_args(lc, args, (uint32_t)ei->nbound, e->span); /* lower_range.c */
    if (kj_builtin_npshape(b) && kj_npshape_function_of(b) >= 0) b = kj_npshape_function_of(b); /* a.clip: np.clip */
    kir_ref r = emit_args(lc, KIR_BUILTIN, t, e->span, args, (uint32_t)ei->nbound);
    kir_at(lc->f, r)->aux = (uint16_t)b;
    return r;
}

/* Arguments of a user-function call in parameter order, defaults filled. */
static kir_ref *user_args(lctx *lc, const kj_expr *e, kj_einfo *ei, kj_spec *callee, uint32_t extra)
{
    uint32_t n = callee->nargs;
    kir_ref *args = KJ_NEWN(lc->s->a, kir_ref, n + extra + 1);
    for (uint32_t i = 0; i < n; i++) {
        const kj_expr *a = call_arg(e, ei->argmap[i]);
        if (callee->fn->def->vararg && i + 1 == n) { /* *args: a tuple of the rest (lower_varargs.c) */
            args[extra + i] = kj_lower_varargs(lc, e, i, callee->args[i]);
        } else if (a) {
            args[extra + i] = lower_as(lc, a, callee->args[i]);
        } else {
            kj_cval cv;
            kj_const_eval(lc->s, callee->fn->def->params[i].def, &cv);
            args[extra + i] = const_as(lc, &cv, callee->args[i], e->span);
        }
    }
    return args;
}

static kir_ref lower_ufunc(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    uint32_t n = e->call.nargs, nk = e->call.nkw;
    kir_ref *args = KJ_NEWN(lc->s->a, kir_ref, n + nk + 1);
    for (uint32_t i = 0; i < n; i++) {
        const kj_expr *a = e->call.args[i];
        if (i >= ei->callee->nargs) { /* f(a, b, out): a @vectorize's positional output */
            args[i] = lower_expr(lc, a);
            continue;
        }
        const kj_type *at = EI(lc, a)->type;
        const kj_type *pt = ei->callee->args[i];
        args[i] = at->kind == KJ_T_ARRAY || pt->kind == KJ_T_ARRAY ? lower_expr(lc, a)
                                                                   : lower_as(lc, a, pt);
    }
    for (uint32_t k = 0; k < nk; k++) args[n + k] = lower_expr(lc, e->call.kw[k].value);
    kir_ref r = emit_args(lc, KIR_UFUNC_CALL, strong(lc, ei->type), e->span, args, n + nk);
    kir_at(lc->f, r)->fn = ei->callee->kir;
    /* out= given: the call's value is the out array itself. */
    kir_at(lc->f, r)->aux = (uint16_t)(nk + (n > ei->callee->nargs ? n - ei->callee->nargs : 0));
    return r;
}

static kir_ref lower_reduce(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    kir_ref a = lower_expr(lc, e->call.args[0]);
    kir_ref r = emit(lc, KIR_UFUNC_REDUCE, strong(lc, ei->type), e->span);
    kir_at(lc->f, r)->a = a;
    kir_at(lc->f, r)->aux = (uint16_t)(ei->axis + 1);
    kir_at(lc->f, r)->fn = ei->callee->kir;
    return r;
}

static kir_ref lower_call(lctx *lc, const kj_expr *e)
{
    kj_einfo *ei = EI(lc, e);
    if (e->call.fn->kind == KJ_E_ATTR && !strcmp(e->call.fn->attr.name, "<del>")) return kj_lower_list_del(lc, e);
    kir_ref exc = kj_lower_exc_expr(lc, e); /* type(e), isinstance(e, C): lower_exc.c */
    if (exc) return exc;
    if (kj_is_isinstance_call(e) || kj_is_static_builtin_call(e)) /* decided statically (type(x): lower_expr) */
        return const_as(lc, &ei->cval, ei->type, e->span);
    if (kj_is_tuple_call(e))
        return e->call.nargs ? lower_expr(lc, e->call.args[0]) : const_as(lc, &ei->cval, ei->type, e->span);
    kj_einfo *ci = EI(lc, e->call.fn);
    if (ci->kind == EI_LAUNCH) return kj_lower_launch(lc, e, ei);
    if (ci->kind == EI_NTCLASS) return kj_lower_nt_call(lc, e); /* lower_namedtuple.c */
    if (ci->kind == EI_UREDUCE) return lower_reduce(lc, e, ei);
    if (ci->kind == EI_UMETH) return kj_lower_ufunc_meth(lc, e, ei, ci->builtin);
    if (ei->callee && ei->callee->fn->kind == FK_REDUCE) return kj_lower_cuda_reduce(lc, e, ei);
    if (ei->callee && (ei->callee->fn->kind == FK_VECTORIZE ||
                       ei->callee->fn->kind == FK_GUVECTORIZE))
        return lower_ufunc(lc, e, ei);
    if (ei->callee) {
        kir_ref *args = user_args(lc, e, ei, ei->callee, 0);
        kir_ref r = emit_args(lc, KIR_CALL, strong(lc, ei->type), e->span, args, ei->callee->nargs);
        kir_at(lc->f, r)->fn = ei->callee->kir;
        return r;
    }
    if (ei->ufout) return kj_lower_ufunc_out(lc, e, ei, lower_builtin); /* np.add(a, b, out): lower_ufunc_out.c */
    if (ei->builtin == KJ_B_STR_FORMAT) return kj_lower_str_format(lc, e); /* lower_str.c */
    if (ei->builtin >= KJ_B_TYPED_LIST && ei->builtin <= KJ_B_TYPED_DICT_EMPTY)
        return kj_lower_typed_call(lc, e, strong(lc, ei->type), ei->builtin); /* lower_typed.c */
    if (ei->builtin == KJ_B_NP_ISCLOSE) return kj_lower_isclose(lc, e, ei); /* lower_isclose.c */
    if (kj_builtin_cuda_compile((unsigned)ei->builtin)) return kj_lower_cuda_compile(lc, e, ei); /* cuda_compile.c */
    return lower_builtin(lc, e, ei);
}

/* ---- expressions ---- */

static kir_ref lower_expr_value(lctx *lc, const kj_expr *e);

static kir_ref lower_expr(lctx *lc, const kj_expr *e)
{
    if (EI(lc, e)->opt_type) return kj_lower_opt_use(lc, e); /* an Optional used as its value: lower_optional.c */
    return lower_expr_value(lc, e);
}

static kir_ref lower_expr_value(lctx *lc, const kj_expr *e)
{
    kj_einfo *ei = EI(lc, e);
    const kj_type *t = strong(lc, ei->type);
    if (ei->kind == EI_DTYPE) /* np.float32 as a value (an argument): a compile-time dtype */
        return emit(lc, KIR_CONST_NONE, kj_t_dtype(lc->s->types, ei->dtype), e->span);
    if (ei->kind == EI_FUNC || ei->kind == EI_BUILTIN) { /* a function as a value: compile-time too */
        const kj_type *ft = ei->kind == EI_FUNC ? kj_t_func(lc->s->types, ei->fn, -1, ei->fn->def->name)
                                                : kj_t_func(lc->s->types, NULL, ei->builtin,
                                                            kj_builtin_get(ei->builtin)->path);
        return emit(lc, KIR_CONST_NONE, ft, e->span);
    }
    switch (e->kind) {
    case KJ_E_NAME: {
        int32_t l = var_local(lc, e);
        if (ei->frozen) { /* a module-level array frozen at compile time (resolve_frozen.c), or a slot */
            kir_ref r = emit(lc, ei->frozen->slot ? KIR_MODULE_GET : KIR_CONST_ARRAY, ei->type, e->span);
            kir_at(lc->f, r)->frozen = ei->frozen;
            return r;
        }
        kir_ref shared = l >= 0 && !ei->is_const ? kj_lower_modslot_shared(lc, e, (uint32_t)l) : 0;
        if (shared) return shared; /* rebound by host code through global: resolve_modslot.c */
        if (l >= 0 && !ei->is_const) return get_local(lc, (uint32_t)l, e->span);
        if (ei->is_const) return const_as(lc, &ei->cval, t, e->span);
        if (l < 0 && kj_builtin_cuda_host(ei->builtin)) { /* an imported xoroshiro128p_dtype */
            kir_ref r = emit_args(lc, KIR_BUILTIN, t, e->span, NULL, 0);
            kir_at(lc->f, r)->aux = (uint16_t)ei->builtin;
            return r;
        }
        break;
    }
    case KJ_E_ATTR:
        if (ei->is_const) return const_as(lc, &ei->cval, t, e->span);
        if (kj_nt_class(EI(lc, e->attr.obj)->type)) return kj_lower_nt_attr(lc, e); /* lower_namedtuple.c */
        if (EI(lc, e->attr.obj)->type && EI(lc, e->attr.obj)->type->kind == KJ_T_RANGE)
            return kj_lower_range_attr(lc, e); /* lower_range.c */
        if (kj_record_of(EI(lc, e->attr.obj)->type)) return kj_lower_record_attr(lc, e); /* lower_record.c */
        if (ei->builtin == KJ_B_ARR_SHAPE && e->kind == KJ_E_ATTR) {
            kir_ref arr = lower_expr(lc, e->attr.obj);
            kir_ref el[8];
            for (uint32_t i = 0; i < t->n && i < 8; i++) {
                el[i] = emit(lc, KIR_ARRAY_DIM, t->elems[i], e->span);
                kir_at(lc->f, el[i])->a = arr;
                kir_at(lc->f, el[i])->i = i;
            }
            return emit_args(lc, KIR_TUPLE, t, e->span, el, t->n);
        }
        {
            const kj_builtin_info *bi = kj_builtin_get(ei->builtin);
            kir_ref recv = (bi->flags & KJ_BF_METHOD) ? lower_expr(lc, e->attr.obj) : 0;
            kir_ref r = emit_args(lc, KIR_BUILTIN, t, e->span, &recv, recv ? 1 : 0);
            kir_at(lc->f, r)->aux = (uint16_t)ei->builtin;
            return r;
        }
    case KJ_E_INT: case KJ_E_FLOAT: case KJ_E_BOOL: case KJ_E_STR: case KJ_E_NONE:
        if (e->kind == KJ_E_STR && e->str.bytes) return kj_lower_bytes_literal(lc, e, t); /* lower_bytes.c */
        return const_as(lc, &ei->cval, t, e->span);
    case KJ_E_IMAG: { /* 2.5j: complex(0.0, 2.5) */
        const kj_type *f64 = kj_t_float(lc->s->types, 64);
        kir_ref parts[2] = {const_float(lc, f64, 0.0, e->span), const_float(lc, f64, e->float_, e->span)};
        kir_ref r = emit_args(lc, KIR_BUILTIN, t, e->span, parts, 2);
        kir_at(lc->f, r)->aux = KJ_B_COMPLEX;
        return r;
    }
    case KJ_E_CALL: return lower_call(lc, e);
    case KJ_E_SUBSCRIPT: return kj_lower_subscript(lc, e);
    case KJ_E_TUPLE: return lower_tuple(lc, e);
    case KJ_E_LIST: return lower_builtin_arg(lc, e, NULL);
    case KJ_E_DICT: case KJ_E_SET: return kj_lower_dict_literal(lc, e); /* lower_dict.c */
    case KJ_E_BINOP:
        if (ei->is_const && kj_is_scalar(t)) return const_as(lc, &ei->cval, t, e->span);
        return lower_binop(lc, e);
    case KJ_E_UNARY: return lower_unary(lc, e);
    case KJ_E_BOOLOP: return lower_boolop(lc, e);
    case KJ_E_COMPARE:
        if (ei->is_const) return const_as(lc, &ei->cval, t, e->span);
        if (kj_opt_compare_side(lc->sp, e) >= 0) return kj_lower_opt_compare(lc, e); /* lower_optional.c */
        return lower_compare(lc, e);
    case KJ_E_IFEXP: return lower_ifexp(lc, e);
    default: break;
    }
    return emit(lc, KIR_CONST_NONE, kj_t_none(lc->s->types), e->span);
}

/* ---- statements ---- */

static void lower_block(lctx *lc, const kj_block *b);
static void lower_with(lctx *lc, const kj_stmt *st);

static void store_target(lctx *lc, const kj_expr *t, kir_ref v, kj_span sp)
{
    switch (t->kind) {
    case KJ_E_NAME: {
        int32_t l = var_local(lc, t);
        if (l >= 0) set_local(lc, (uint32_t)l, v, sp);
        else kj_lower_modslot_store(lc, t, v, sp); /* global NAME in host code: resolve_modslot.c */
        return;
    }
    case KJ_E_TUPLE: case KJ_E_LIST: {
        const kj_type *tt = type_of(lc, v);
        for (uint32_t i = 0; i < t->seq.n; i++) {
            kir_ref g = emit(lc, KIR_TUPLE_GET, tt->elems[i], sp);
            kir_at(lc->f, g)->a = v;
            kir_at(lc->f, g)->i = i;
            store_target(lc, t->seq.v[i], g, sp);
        }
        return;
    }
    case KJ_E_ATTR: kj_lower_record_store(lc, t, v, sp); return; /* r.x = v: lower_record.c */
    case KJ_E_SUBSCRIPT: {
        if (kj_lower_record_store(lc, t, v, sp)) return; /* r['x'] = v: lower_record.c */
        if (EI(lc, t->sub.obj)->type->kind == KJ_T_DICT) { /* d[k] = v: lower_dict.c */
            kj_lower_dict_item(lc, t, v, sp);
            return;
        }
        if (kj_npshape_wrapper(EI(lc, t->sub.obj)->type) == KJ_NPW_FLAT) { /* a.flat[i] = v: lower_npshape.c */
            kj_lower_flat_item(lc, t, v, sp);
            return;
        }
        if (EI(lc, t->sub.obj)->type->kind == KJ_T_LIST) { /* lst[i] = v: lower_list.c */
            kj_lower_list_item(lc, t, v, sp);
            return;
        }
        kir_ref arr = lower_expr(lc, t->sub.obj);
        if (kj_lower_is_index_array(lc, t)) { /* a[mask] = v, a[idx] = v, a[:, idx] = v */
            kir_ref args[2 + KJ_MAX_INDEX_DIMS];
            uint32_t n = kj_lower_index_arrays(lc, t, arr, args);
            if (type_of(lc, v)->kind != KJ_T_ARRAY) v = cast(lc, v, type_of(lc, arr)->elem, sp);
            args[n] = v;
            kir_at(lc->f, emit_args(lc, KIR_BUILTIN, NULL, sp, args, n + 1))->aux = KJ_B_INDEX_SET;
            return;
        }
        kir_ref idx[8];
        uint32_t n = 0;
        bool view;
        kir_ref dst = kj_lower_subscript_parts(lc, t, arr, idx, &n, &view);
        const kj_type *at = type_of(lc, arr);
        kir_ref r;
        if (view) { /* slice assignment: fill or copy into the view */
            const kj_type *vt = type_of(lc, v);
            if (vt->kind != KJ_T_ARRAY) v = cast(lc, v, at->elem, sp);
            r = emit(lc, KIR_ARRAY_STORE, NULL, sp);
            kir_at(lc->f, r)->a = dst;
        } else {
            v = cast(lc, v, at->elem, sp);
            r = emit_args(lc, KIR_ARRAY_STORE, NULL, sp, idx, n);
            kir_at(lc->f, r)->a = arr;
        }
        kir_at(lc->f, r)->b = v;
        return;
    }
    default: return;
    }
}

static void lower_assign(lctx *lc, const kj_stmt *st)
{
    const kj_expr *val = st->assign.value;
    kir_ref v;
    /* With one target whose type is known here, lower the value straight to
     * it, so a literal is folded instead of converted (x = 0 into a float32
     * variable, a[i] = 0 into a float32 array). */
    const kj_type *want = NULL;
    const kj_expr *t0 = st->assign.targets[0];
    if (st->assign.ntargets == 1 && t0->kind == KJ_E_NAME && var_local(lc, t0) >= 0)
        want = lc->f->locals[var_local(lc, t0)].type;
    else if (st->assign.ntargets == 1 && t0->kind == KJ_E_SUBSCRIPT && EI(lc, t0)->type &&
             kj_is_scalar(EI(lc, t0)->type) && kj_is_scalar(EI(lc, val)->type))
        want = strong(lc, EI(lc, t0)->type);
    v = want ? lower_as(lc, val, want) : lower_expr(lc, val);
    for (uint32_t i = 0; i < st->assign.ntargets; i++) store_target(lc, st->assign.targets[i], v, st->span);
}

/* a op= b on an array: store a[...] = a op b, marked in place (kir.h);
 * fusion makes it one loop writing a (op(a, b, out=a)). The target and its
 * subscript are evaluated once, before b, as Python does. */
static void lower_aug_array(lctx *lc, const kj_stmt *st)
{
    const kj_expr *t = st->aug.target;
    kir_ref arr = lower_expr(lc, t);
    const kj_type *at = type_of(lc, arr), *vt = EI(lc, st->aug.value)->type;
    const kj_type *res = EI(lc, st->aug.value)->optype;
    res = strong(lc, res ? res : at->elem);
    kir_ref v = vt->kind == KJ_T_ARRAY ? lower_expr(lc, st->aug.value) : lower_as(lc, st->aug.value, res);
    /* NumPy's op(a, b, out=a): the operation in its own type (bool + bool is
     * bool there), cast back into a as the store does (inference allowed
     * only 'same_kind' casts) */
    const kj_type *re = EI(lc, st->aug.value)->restype ? strong(lc, EI(lc, st->aug.value)->restype) : at->elem;
    const kj_type *rt = kj_t_array(lc->s->types, re, at->ndim, KJ_LAYOUT_C);
    kir_ref r = emit2(lc, BINOP_KIR[st->aug.op], rt, st->span, arr, v);
    kir_ref s = emit(lc, KIR_ARRAY_STORE, NULL, st->span);
    kir_at(lc->f, s)->a = arr;
    kir_at(lc->f, s)->b = r;
    kir_at(lc->f, s)->aux = KIR_AUX_INPLACE;
}

/* a[idx] op= v as NumPy does it: a[idx] = a[idx] op v, the operation on
 * a gathered copy (so a repeated index is updated once, by its last
 * occurrence) in type `opt`, the result cast back into a when stored. */
static void lower_index_aug(lctx *lc, const kj_stmt *st, kir_ref arr, const kj_type *opt)
{
    const kj_expr *t = st->aug.target, *value = st->aug.value;
    kir_ref args[2 + KJ_MAX_INDEX_DIMS];
    uint32_t n = kj_lower_index_arrays(lc, t, arr, args);
    const kj_type *cur_t = strong(lc, EI(lc, t)->type), *vt = EI(lc, value)->type;
    kir_ref cur = emit_args(lc, KIR_BUILTIN, cur_t, t->span, args, n);
    kir_at(lc->f, cur)->aux = KJ_B_INDEX_GET;
    kir_ref v = vt->kind == KJ_T_ARRAY ? lower_expr(lc, value) : lower_as(lc, value, opt);
    int nd = vt->kind == KJ_T_ARRAY && vt->ndim > cur_t->ndim ? vt->ndim : cur_t->ndim;
    const kj_type *res = kj_t_array(lc->s->types, opt, nd, KJ_LAYOUT_C);
    args[n] = emit2(lc, BINOP_KIR[st->aug.op], res, st->span, cur, v);
    kir_at(lc->f, emit_args(lc, KIR_BUILTIN, NULL, st->span, args, n + 1))->aux = KJ_B_INDEX_SET;
}

static void lower_augassign(lctx *lc, const kj_stmt *st)
{
    const kj_expr *t = st->aug.target;
    kj_binop op = st->aug.op;
    if (kj_lower_str_augassign(lc, st)) return; /* lower_pybuiltin.c */
    if (kj_lower_list_iadd(lc, st)) return;     /* lower_list.c */
    if (EI(lc, t)->type && EI(lc, t)->type->kind == KJ_T_ARRAY && !kj_lower_is_index_array(lc, t)) {
        lower_aug_array(lc, st);
        return;
    }
    const kj_type *opt = EI(lc, st->aug.value)->optype;
    const kj_type *res = strong(lc, kj_arith_type(lc->s->types, op, opt));
    if (t->kind == KJ_E_NAME) {
        int32_t l = var_local(lc, t);
        if (l < 0 && EI(lc, t)->frozen && EI(lc, t)->frozen->slot) /* global NAME in host code */
            kj_lower_modslot_store(lc, t, aug_apply(lc, op, lower_expr(lc, t), st->aug.value, res, st->span),
                                   st->span);
        if (l < 0) return;
        kir_ref r = aug_apply(lc, op, get_local(lc, (uint32_t)l, t->span), st->aug.value, res, st->span);
        set_local(lc, (uint32_t)l, r, st->span);
        return;
    }
    if (kj_record_of(EI(lc, t->kind == KJ_E_ATTR ? t->attr.obj : t->sub.obj)->type)) { /* r.x op= v: lower_record.c */
        kj_lower_record_store(lc, t, aug_apply(lc, op, lower_expr(lc, t), st->aug.value, res, st->span), st->span);
        return;
    }
    const kj_type *ct = strong(lc, EI(lc, t->sub.obj)->type);
    if (ct->kind == KJ_T_DICT || ct->kind == KJ_T_LIST) { /* d[k] op= v, lst[i] op= v: lower_dict.c */
        kir_ref obj, key, cur = kj_lower_item_load(lc, t, &obj, &key);
        kj_lower_item_store(lc, t, obj, key, aug_apply(lc, op, cur, st->aug.value, res, st->span), st->span);
        return;
    }
    /* a[i] op= v: the array and indices are evaluated once. */
    kir_ref arr = lower_expr(lc, t->sub.obj);
    if (kj_lower_is_index_array(lc, t)) {
        lower_index_aug(lc, st, arr, opt);
        return;
    }
    kir_ref idx[8];
    uint32_t n = 0;
    bool view;
    kj_lower_subscript_parts(lc, t, arr, idx, &n, &view);
    const kj_type *el = type_of(lc, arr)->elem;
    kir_ref cur = emit_args(lc, KIR_ARRAY_LOAD, el, st->span, idx, n);
    kir_at(lc->f, cur)->a = arr;
    kir_ref r = aug_apply(lc, op, cur, st->aug.value, res, st->span);
    kir_ref val = cast(lc, r, el, st->span);
    kir_ref s = emit_args(lc, KIR_ARRAY_STORE, NULL, st->span, idx, n);
    kir_at(lc->f, s)->a = arr;
    kir_at(lc->f, s)->b = val;
}

static void lower_if(lctx *lc, const kj_stmt *st)
{
    kj_einfo *ci = EI(lc, st->if_.cond);
    kir_blkid then, els, saved = lc->cur;
    if (ci->is_const && ci->cval.type && kj_is_scalar(ci->cval.type)) {
        /* Constant condition: lower only the taken branch. */
        bool taken = ci->cval.type->kind == KJ_T_FLOAT ? ci->cval.f != 0 : ci->cval.i != 0;
        lower_block(lc, taken ? &st->if_.then : &st->if_.els);
        return;
    }
    emit_if(lc, lower_cond(lc, st->if_.cond), st->span, &then, &els);
    lc->cur = then;
    lower_block(lc, &st->if_.then);
    lc->cur = els;
    lower_block(lc, &st->if_.els);
    lc->cur = saved;
}

/* while c: body  →  loop { if c {} else { break }; body } */
static void lower_while(lctx *lc, const kj_stmt *st)
{
    kir_ref loop = emit(lc, KIR_LOOP, NULL, st->span);
    kir_blkid body = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_at(lc->f, loop)->blk[0] = body;
    lc->cur = body;
    kj_einfo *ci = EI(lc, st->while_.cond);
    bool forever = ci->is_const && ci->cval.type && kj_is_scalar(ci->cval.type) &&
                   (ci->cval.type->kind == KJ_T_FLOAT ? ci->cval.f != 0 : ci->cval.i != 0);
    if (!forever) {
        kir_blkid then, els;
        emit_if(lc, lower_cond(lc, st->while_.cond), st->span, &then, &els);
        lc->cur = els;
        emit(lc, KIR_BREAK, NULL, st->span);
        lc->cur = body;
    }
    lower_block(lc, &st->while_.body);
    lc->cur = saved;
}

/* for i in range(a, b, c): body */
/* for x in (a, b, c): the tuple evaluated once, an int64 index over it,
 * and x = element i chosen by comparisons (KIR reads tuples at constant
 * indices only), so that break and continue work as in any loop. */
static void lower_for_tuple(lctx *lc, const kj_stmt *st, const kj_type *tt)
{
    kj_span sp = st->span;
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true), *et = tt->elems[0];
    kir_ref tv = lower_as(lc, st->for_.iter, tt);
    uint32_t ind = temp_local(lc, i64t);
    kir_ref start = i64(lc, 0, sp), stop = i64(lc, (int64_t)tt->n, sp), step = i64(lc, 1, sp);
    kir_ref f = emit(lc, KIR_FOR, NULL, sp);
    kir_blkid body = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_inst *in = kir_at(lc->f, f);
    in->i = ind, in->a = start, in->b = stop, in->c = step, in->blk[0] = body;
    lc->cur = body;
    kir_ref i = get_local(lc, ind, sp), v = 0;
    int32_t var = var_local(lc, st->for_.target);
    if (var >= 0) et = lc->f->locals[var].type; /* the elements' unified type */
    for (uint32_t k = tt->n; k-- > 0;) {
        kir_ref g = emit(lc, KIR_TUPLE_GET, tt->elems[k], sp);
        kir_at(lc->f, g)->a = tv;
        kir_at(lc->f, g)->i = k;
        g = cast(lc, g, et, sp);
        if (!v) {
            v = g;
            continue;
        }
        kir_ref eq = emit2(lc, KIR_EQ, kj_t_bool(lc->s->types), sp, i, i64(lc, (int64_t)k, sp));
        kir_ref sel = emit2(lc, KIR_SELECT, et, sp, eq, g);
        kir_at(lc->f, sel)->c = v;
        v = sel;
    }
    if (var >= 0) set_local(lc, (uint32_t)var, v, sp);
    lower_block(lc, &st->for_.body);
    lc->cur = saved;
}

static void lower_for(lctx *lc, const kj_stmt *st)
{
    const kj_expr *it = st->for_.iter;
    if (kj_lower_for_iter(lc, st)) return; /* arrays, enumerate, zip, range values: lower_iter.c */
    if (kj_lower_for_gen(lc, st)) return;  /* generators: lower_pygen.c */
    kj_einfo *ei = EI(lc, it);
    if (ei->type->kind == KJ_T_TUPLE) {
        lower_for_tuple(lc, st, strong(lc, ei->type));
        return;
    }
    const kj_type *rt = strong(lc, ei->type->elem);
    kir_ref start, stop, step;
    const kj_expr *a0 = call_arg(it, ei->argmap[0]);
    const kj_expr *a1 = ei->nbound > 1 ? call_arg(it, ei->argmap[1]) : NULL;
    const kj_expr *a2 = ei->nbound > 2 ? call_arg(it, ei->argmap[2]) : NULL;
    if (!a1) {
        start = const_int(lc, rt, 0, it->span);
        stop = lower_as(lc, a0, rt);
    } else {
        start = lower_as(lc, a0, rt);
        stop = lower_as(lc, a1, rt);
    }
    step = a2 ? lower_as(lc, a2, rt) : const_int(lc, rt, 1, it->span);
    int32_t var = var_local(lc, st->for_.target);
    /* The loop counts in the range's type; a variable unified to a wider
     * type gets the counter converted at the top of each iteration. */
    bool direct = var >= 0 && lc->f->locals[var].type == rt;
    uint32_t ind = direct ? (uint32_t)var : temp_local(lc, rt);
    kir_op op = ei->builtin == KJ_B_PRANGE ? KIR_PFOR : KIR_FOR;
    kir_ref f = emit(lc, op, NULL, st->span);
    kir_blkid body = kir_block_new(lc->s->a, lc->f), saved = lc->cur;
    kir_inst *in = kir_at(lc->f, f);
    in->i = ind;
    in->a = start;
    in->b = stop;
    in->c = step;
    in->blk[0] = body;
    lc->cur = body;
    if (!direct && var >= 0) set_local(lc, (uint32_t)var, get_local(lc, ind, st->span), st->span);
    lower_block(lc, &st->for_.body);
    lc->cur = saved;
}

static void lower_stmt(lctx *lc, const kj_stmt *st)
{
    switch (st->kind) {
    case KJ_S_EXPR:
        /* A bare name of a module or function is a no-op, as in Python. */
        if (st->expr->kind != KJ_E_STR && EI(lc, st->expr)->kind == EI_VALUE) lower_expr(lc, st->expr);
        break;
    case KJ_S_ASSIGN:
        if (!kj_is_static_assign(lc->sp->fn, st)) lower_assign(lc, st); /* k = cuda.jit(f): nothing to run */
        kj_lower_modslot_set(lc, st); /* a script's name functions read: resolve_modslot.c */
        break;
    case KJ_S_AUGASSIGN: lower_augassign(lc, st); break;
    case KJ_S_IF: lower_if(lc, st); break;
    case KJ_S_WHILE: lower_while(lc, st); break;
    case KJ_S_WITH: lower_with(lc, st); break;
    case KJ_S_FOR: lower_for(lc, st); break;
    case KJ_S_YIELD: kj_lower_yield(lc, st); break; /* lower_pygen.c */
    case KJ_S_BREAK: emit(lc, KIR_BREAK, NULL, st->span); break;
    case KJ_S_CONTINUE: emit(lc, KIR_CONTINUE, NULL, st->span); break;
    case KJ_S_RETURN: {
        kir_ref v = 0;
        const kj_type *ret = lc->f->ret;
        if (lc->f->generator) ret = kj_t_none(lc->s->types); /* the end of the iteration */
        if (st->ret.value && ret->kind != KJ_T_NONE) v = lower_as(lc, st->ret.value, ret);
        else if (st->ret.value) lower_expr(lc, st->ret.value);
        else if (ret->kind == KJ_T_OPTIONAL) v = emit(lc, KIR_CONST_NONE, ret, st->span); /* `return`: None */
        kj_lower_leave_tries(lc, st->span);
        kir_ref r = emit(lc, KIR_RETURN, NULL, st->span);
        kir_at(lc->f, r)->a = v;
        break;
    }
    case KJ_S_ASSERT: {
        kir_ref c = lower_cond(lc, st->assert_.cond);
        kir_ref r = emit(lc, KIR_ASSERT, NULL, st->span);
        kir_at(lc->f, r)->a = c;
        kir_at(lc->f, r)->s = st->assert_.msg ? st->assert_.msg->str.s : NULL;
        break;
    }
    case KJ_S_RAISE: if (!kj_lower_raise_obj(lc, st)) kj_lower_raise(lc, st); break;
    case KJ_S_TRY: kj_lower_try(lc, st); break;
    default: break;
    }
}

static void lower_block(lctx *lc, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        lower_stmt(lc, b->v[i]);
        if (b->v[i]->kind == KJ_S_IF && kj_if_returns_pruned(b->v[i], EI(lc, b->v[i]->if_.cond))) break;
    }
}

/* with s.auto_synchronize(): body, then s.synchronize() (where the body
 * falls through: a return inside skips it, as kjit's end of main waits for
 * the GPU anyway); cuda.pinned/mapped(arrays) and cuda.defer_cleanup()
 * evaluate their arguments and run the body (infer_launch.c); the others
 * in lower_with.c. `as` binds the stream, the mapped arrays, the device. */
static void lower_with(lctx *lc, const kj_stmt *st)
{
    const kj_expr *ctx = st->with.ctx;
    kj_with_kind k = kj_with_of(ctx);
    kir_ref stream = 0, bound = kj_lower_with_enter(lc, st);
    if (k == KJ_WITH_AUTO_SYNC) bound = stream = lower_expr(lc, ctx->call.fn->attr.obj);
    if (st->with.target && bound) store_target(lc, st->with.target, bound, st->span);
    lower_block(lc, &st->with.body);
    kj_lower_with_exit(lc, st, bound);
    if (!stream) return;
    kir_ref r = emit_args(lc, KIR_BUILTIN, NULL, st->span, &stream, 1);
    kir_at(lc->f, r)->aux = KJ_B_STREAM_SYNCHRONIZE;
}

/* ---- functions ---- */

static kir_fn_kind kir_kind(const kj_spec *sp)
{
    switch (sp->fn->kind) {
    case FK_MAIN: return KIR_FN_MAIN;
    case FK_KERNEL: return KIR_FN_KERNEL;
    case FK_DEVICE: return KIR_FN_DEVICE;
    case FK_VECTORIZE: return KIR_FN_UFUNC;
    case FK_GUVECTORIZE: return KIR_FN_GUFUNC;
    case FK_JIT: return sp->device ? KIR_FN_DEVICE : KIR_FN_HOST;
    default: return KIR_FN_HOST;
    }
}

static void declare(kj_sema *s, kir_module *m, kj_spec *sp)
{
    kir_func *f = kir_func_new(s->a, m, sp->fn->def->name, sp->mangled, kir_kind(sp));
    f->span = sp->fn->def->span;
    f->nparams = sp->nargs;
    f->params = KJ_NEWN(s->a, const kj_type *, sp->nargs + 1);
    f->param_names = KJ_NEWN(s->a, const char *, sp->nargs + 1);
    for (uint32_t i = 0; i < sp->nargs; i++) {
        f->params[i] = kj_strong(s->types, sp->args[i]);
        f->param_names[i] = sp->fn->def->params[i].name;
    }
    f->ret = sp->ret ? kj_strong(s->types, sp->ret) : kj_t_none(s->types);
    f->fastmath = sp->fn->fastmath;
    f->generator = sp->generator;
    /* Kernels, ufuncs and their callees (device specialisations) keep NumPy's
     * error model, as in Numba. */
    f->py_errors = (f->kind == KIR_FN_MAIN || f->kind == KIR_FN_HOST) && !sp->fn->numpy_errors;
    f->pycode = sp->fn->kind == FK_MAIN || sp->fn->kind == FK_HELPER;
    f->boundscheck = s->opt && s->opt->boundscheck >= 0 ? s->opt->boundscheck : sp->fn->boundscheck;
    f->lineinfo = sp->fn->lineinfo;
    f->gu_layout = sp->fn->layout_str;
    f->identity = sp->fn->identity;
    f->target = sp->fn->target;
    sp->kir = f;
    if (sp->fn == s->main) m->main = f;
}

static void define(kj_sema *s, kj_spec *sp)
{
    kir_func *f = sp->kir;
    lctx lc = {.s = s, .sp = sp, .f = f, .cur = 0, .boundscheck = f->boundscheck};
    lc.local = KJ_NEWN(s->a, int32_t, sp->vars.n + 1);
    for (uint32_t i = 0; i < sp->vars.n; i++) {
        const kj_var *v = &sp->vars.v[i];
        lc.local[i] = v->type ? (int32_t)kir_local_new(s->a, f, v->name, kj_strong(s->types, v->type))
                              : -1;
    }
    for (uint32_t i = 0; i < sp->nargs; i++) {
        kir_ref p = emit(&lc, KIR_PARAM, f->params[i], sp->fn->def->params[i].span);
        kir_at(f, p)->i = i;
        set_local(&lc, (uint32_t)lc.local[i], p, sp->fn->def->params[i].span);
    }
    lower_block(&lc, &sp->fn->def->body);
}

kir_ref kj_lower_if(lctx *lc, kir_ref cond, kj_span sp, kir_blkid *then, kir_blkid *els)
{
    return emit_if(lc, cond, sp, then, els);
}

/* Lower every reported specialisation not lowered yet: all of them the
 * first time, the new ones after a run-time specialisation. Declarations
 * come first so that calls can refer to any function. */
bool kj_lower_all(kj_sema *s, kir_module *m)
{
    KJ_VEC(kj_spec *) todo = {0};
    for (uint32_t i = 0; i < s->specs.n; i++) {
        kj_spec *sp = s->specs.v[i];
        if (sp->reported && !sp->kir && sp->state != SPEC_FAILED) {
            declare(s, m, sp);
            KJ_PUSH(s->a, todo, sp);
        }
    }
    for (uint32_t i = 0; i < todo.n; i++) define(s, todo.v[i]);
    return true;
}

/* ---- for the lowering files beside this one (lower_int.h) ---- */

kir_ref kj_lw_emit(lctx *lc, kir_op op, const kj_type *t, kj_span sp) { return emit(lc, op, t, sp); }
kir_ref kj_lw_expr(lctx *lc, const kj_expr *e) { return lower_expr(lc, e); }
kir_ref kj_lw_as(lctx *lc, const kj_expr *e, const kj_type *t) { return lower_as(lc, e, t); }
kir_ref kj_lw_cast(lctx *lc, kir_ref v, const kj_type *t, kj_span sp) { return cast(lc, v, t, sp); }
kir_ref kj_lw_i64(lctx *lc, int64_t v, kj_span sp) { return i64(lc, v, sp); }
kir_ref kj_lw_num(lctx *lc, const kj_type *t, int v, kj_span sp) { return const_num(lc, t, v, sp); }
kir_ref kj_lw_emit2(lctx *lc, kir_op op, const kj_type *t, kj_span sp, kir_ref a, kir_ref b)
{
    return emit2(lc, op, t, sp, a, b);
}
kir_ref kj_lw_emit_args(lctx *lc, kir_op op, const kj_type *t, kj_span sp, const kir_ref *args, uint32_t n)
{
    return emit_args(lc, op, t, sp, args, n);
}
kir_ref *kj_lw_user_args(lctx *lc, const kj_expr *e, kj_einfo *ei, kj_spec *callee, uint32_t extra)
{
    return user_args(lc, e, ei, callee, extra);
}
uint32_t kj_lw_temp(lctx *lc, const kj_type *t) { return temp_local(lc, t); }
kir_ref kj_lw_get(lctx *lc, uint32_t l, kj_span sp) { return get_local(lc, l, sp); }
void kj_lw_set(lctx *lc, uint32_t l, kir_ref v, kj_span sp) { set_local(lc, l, v, sp); }
void kj_lw_store(lctx *lc, const kj_expr *t, kir_ref v, kj_span sp) { store_target(lc, t, v, sp); }
void kj_lw_block(lctx *lc, const kj_block *b) { lower_block(lc, b); }
kir_ref kj_lw_const_as(lctx *lc, const kj_cval *cv, const kj_type *t, kj_span sp) { return const_as(lc, cv, t, sp); }
