/* SPDX-License-Identifier: BSD-2-Clause */
/* datetime64 / timedelta64 (infer_datetime.c) lowered: a constant from
 * np.datetime64('2020-01-01') folded here; every operator, comparison and
 * built-in on them one DT_OP built-in whose first argument is the code of
 * the operation with its units (abi_datetime.h), the operands as int64
 * (datetimes, timedeltas, integers) or float64 values; llvm_datetime.c
 * calls the runtime's kj_rt_dt_* for it. np.isnat and np.isfinite of an
 * array compare its int64 view with NaT elementwise. */
#include "lower_int.h"
#include "builtins.h"
#include "../abi/abi_datetime.h"
#include "../util/npdatetime.h"

#include <string.h>

static const kj_type *type_of(lctx *lc, const kj_expr *e) { return kj_strong(lc->s->types, lc->sp->ei[e->id].type); }

/* The expression bound to parameter m (argmap: positional, keyword -1-k, absent INT32_MIN/MAX). */
static const kj_expr *arg_of(const kj_expr *call, int32_t m)
{
    if (m == INT32_MIN || m == INT32_MAX) return NULL;
    return m >= 0 ? call->call.args[m] : call->call.kw[-1 - m].value;
}

static int flags_of(const kj_type *a, const kj_type *b)
{
    return (a && a->kind == KJ_T_DATETIME ? KJ_DTC_A_DT : 0) | (b && b->kind == KJ_T_DATETIME ? KJ_DTC_B_DT : 0);
}

static int unit_of(const kj_type *t) { return kj_is_dt(t) ? t->unit : 0; }

/* DT_OP(code, a, b) of result type t. */
static kir_ref dt_op(lctx *lc, int code, const kj_type *t, kj_span sp, kir_ref a, kir_ref b)
{
    kir_ref args[3] = {kj_lw_i64(lc, code, sp), a, b};
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, t, sp, args, b ? 3 : 2);
    kir_at(lc->f, r)->aux = KJ_B_DT_OP;
    return r;
}

/* An operand: a datetime as it is, an integer as int64, a float as float64. */
static kir_ref operand(lctx *lc, const kj_expr *x)
{
    kj_types *T = lc->s->types;
    const kj_type *t = type_of(lc, x);
    if (kj_is_dt(t)) return kj_lw_expr(lc, x);
    return kj_lw_as(lc, x, t->kind == KJ_T_FLOAT ? kj_t_float(T, 64) : kj_t_int(T, 64, true));
}

/* l op r where l or r is a datetime64 / timedelta64 (the operation infer_datetime.c allowed). */
kir_ref kj_lower_dt_binop(lctx *lc, const kj_expr *e, kj_binop op, const kj_expr *l, const kj_expr *r)
{
    const kj_type *res = type_of(lc, e), *lt = type_of(lc, l), *rt = type_of(lc, r);
    kir_ref a = operand(lc, l), b = operand(lc, r);
    bool swap = !kj_is_dt(lt); /* 3 * td: td * 3 */
    if (swap) {
        kir_ref x = a;
        a = b;
        b = x;
        const kj_type *y = lt;
        lt = rt;
        rt = y;
    }
    int ur = unit_of(res), ua = unit_of(lt), ub = unit_of(rt), fl = flags_of(lt, rt);
    int dop;
    switch (op) {
    case KJ_OP_ADD: dop = KJ_DTOP_ADD; break;
    case KJ_OP_SUB: dop = KJ_DTOP_SUB; break;
    case KJ_OP_MUL: dop = rt->kind == KJ_T_FLOAT ? KJ_DTOP_MULF : KJ_DTOP_MUL; break;
    case KJ_OP_DIV:
        dop = kj_is_dt(rt) ? KJ_DTOP_RATIO : rt->kind == KJ_T_FLOAT ? KJ_DTOP_DIVF : KJ_DTOP_DIV_INT;
        break;
    case KJ_OP_FLOORDIV:
        dop = kj_is_dt(rt) ? KJ_DTOP_FLOORDIV : rt->kind == KJ_T_FLOAT ? KJ_DTOP_DIVF : KJ_DTOP_DIV_INT;
        break;
    default: dop = KJ_DTOP_MOD; break;
    }
    return dt_op(lc, kj_dtc_make(dop, ua, ub, ur, fl), res, e->span, a, b);
}

kir_ref kj_lower_dt_compare(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, const kj_expr *le,
                            const kj_expr *re, kir_ref *r_out)
{
    static const int OPS[] = {[KJ_CMP_EQ] = KJ_DTOP_EQ, [KJ_CMP_NE] = KJ_DTOP_NE, [KJ_CMP_LT] = KJ_DTOP_LT,
                              [KJ_CMP_LE] = KJ_DTOP_LE, [KJ_CMP_GT] = KJ_DTOP_GT, [KJ_CMP_GE] = KJ_DTOP_GE};
    const kj_type *lt = type_of(lc, le), *rt = type_of(lc, re);
    if (!l) l = kj_lw_expr(lc, le);
    *r_out = kj_lw_expr(lc, re);
    int code = kj_dtc_make(OPS[op], lt->unit, rt->unit, 0, flags_of(lt, rt));
    return dt_op(lc, code, kj_t_bool(lc->s->types), e->span, l, *r_out);
}

/* -td, +td */
kir_ref kj_lower_dt_unary(lctx *lc, const kj_expr *e)
{
    kir_ref x = kj_lw_expr(lc, e->un.x);
    if (e->un.op == KJ_UOP_POS) return x;
    const kj_type *t = type_of(lc, e);
    return dt_op(lc, kj_dtc_make(KJ_DTOP_NEG, t->unit, 0, t->unit, 0), t, e->span, x, 0);
}

/* np.datetime64('2020-01-01'), np.timedelta64(3, 'D'), np.datetime64(d, 's'): a constant, a count,
 * a conversion. */
static kir_ref construct(lctx *lc, const kj_expr *e, kj_einfo *ei, const kj_type *t)
{
    const kj_barg *v = &ei->bound[0];
    kj_types *T = lc->s->types;
    if (!v->type) return kj_lw_cast(lc, kj_lw_i64(lc, KJ_NAT, e->span), t, e->span);
    const kj_expr *x = arg_of(e, ei->argmap[0]);
    if (v->type->kind == KJ_T_STR) {
        int64_t val;
        int su;
        char err[256];
        if (!kj_npdt_parse(v->sval, &val, &su, err, sizeof err)) val = KJ_NAT; /* infer_datetime.c reported it */
        val = kj_npdt_convert(val, su, t->unit, true);
        return kj_lw_cast(lc, kj_lw_i64(lc, val, e->span), t, e->span);
    }
    if (kj_is_dt(v->type)) {
        kir_ref a = kj_lw_expr(lc, x);
        if (v->type == t) return a;
        int code = kj_dtc_make(KJ_DTOP_CONVERT, v->type->unit, 0, t->unit, flags_of(v->type, NULL));
        return dt_op(lc, code, t, e->span, a, 0);
    }
    return kj_lw_cast(lc, kj_lw_as(lc, x, kj_t_int(T, 64, true)), t, e->span);
}

/* np.isnat(a), np.isfinite(a) of an array: its int64 view compared with NaT. */
static kir_ref array_isnat(lctx *lc, const kj_expr *e, const kj_expr *x, const kj_type *t, bool finite)
{
    kj_types *T = lc->s->types;
    const kj_type *at = type_of(lc, x);
    const kj_type *i64 = kj_t_int(T, 64, true);
    kir_ref args[2] = {kj_lw_expr(lc, x), kj_lw_emit(lc, KIR_CONST_NONE, kj_t_dtype(T, i64), e->span)};
    kir_ref view = kj_lw_emit_args(lc, KIR_BUILTIN, kj_t_array(T, i64, at->ndim, at->layout), e->span, args, 2);
    kir_at(lc->f, view)->aux = KJ_B_ARR_VIEW;
    return kj_lw_emit2(lc, finite ? KIR_NE : KIR_EQ, t, e->span, view, kj_lw_i64(lc, KJ_NAT, e->span));
}

/* The built-ins of datetime arguments infer_datetime.c typed; 0 for any other call. */
kir_ref kj_lower_dt_builtin(lctx *lc, const kj_expr *e, kj_einfo *ei, const kj_type *t)
{
    int b = ei->builtin;
    if (e->kind != KJ_E_CALL) return 0; /* an attribute read through a built-in (lower_namedtuple.c) */
    if (b == KJ_B_DT_DATETIME64 || b == KJ_B_DT_TIMEDELTA64) return construct(lc, e, ei, t);
    const kj_expr *x = ei->nbound >= 1 ? arg_of(e, ei->argmap[0]) : NULL;
    if (!x) return 0;
    const kj_type *xt = lc->sp->ei[x->id].type;
    if (!xt) return 0;
    bool arr = xt->kind == KJ_T_ARRAY && kj_is_dt(xt->elem);
    if (!kj_is_dt(xt) && !arr) return 0;
    if (arr && (b == KJ_B_DT_ISNAT || b == KJ_B_ISFINITE)) return array_isnat(lc, e, x, t, b == KJ_B_ISFINITE);
    if (arr) return 0;
    int u = xt->unit;
    switch (b) {
    case KJ_B_ABS: return dt_op(lc, kj_dtc_make(KJ_DTOP_ABS, u, 0, u, 0), t, e->span, kj_lw_expr(lc, x), 0);
    case KJ_B_NP_SIGN: return dt_op(lc, kj_dtc_make(KJ_DTOP_SIGN, u, 0, u, 0), t, e->span, kj_lw_expr(lc, x), 0);
    case KJ_B_DT_ISNAT: case KJ_B_ISNAN:
        return dt_op(lc, kj_dtc_make(KJ_DTOP_ISNAT, u, 0, u, 0), t, e->span, kj_lw_expr(lc, x), 0);
    case KJ_B_ISFINITE: {
        kir_ref n = dt_op(lc, kj_dtc_make(KJ_DTOP_ISNAT, u, 0, u, 0), t, e->span, kj_lw_expr(lc, x), 0);
        kir_ref r = kj_lw_emit(lc, KIR_NOT, t, e->span);
        kir_at(lc->f, r)->a = n;
        return r;
    }
    case KJ_B_NP_MAXIMUM: case KJ_B_NP_MINIMUM: case KJ_B_NP_FMAX: case KJ_B_NP_FMIN: {
        const kj_expr *y = arg_of(e, ei->argmap[1]);
        const kj_type *yt = type_of(lc, y);
        int op = b == KJ_B_NP_MAXIMUM ? KJ_DTOP_MAXIMUM : b == KJ_B_NP_MINIMUM ? KJ_DTOP_MINIMUM
               : b == KJ_B_NP_FMAX ? KJ_DTOP_FMAX : KJ_DTOP_FMIN;
        kir_ref a = kj_lw_expr(lc, x), c = kj_lw_expr(lc, y);
        return dt_op(lc, kj_dtc_make(op, u, yt->unit, t->unit, flags_of(xt, yt)), t, e->span, a, c);
    }
    default: return 0;
    }
}

/* A constant as a datetime64 of type t: a date string (an element of np.array([...], dtype='M8[D]')),
 * an integer count of t's unit. */
kir_ref kj_lower_dt_const(lctx *lc, const kj_cval *cv, const kj_type *t, kj_span sp)
{
    int64_t val = KJ_NAT;
    int su = KJ_DTU_GENERIC;
    char err[256];
    if (cv->type->kind != KJ_T_STR) {
        val = cv->i;
        su = t->unit;
    } else if (t->kind == KJ_T_TIMEDELTA && strcmp(cv->s, "NaT") != 0) {
        kj_error(lc->s->d, lc->s->src, sp, "Could not convert object to NumPy timedelta");
    } else if (!kj_npdt_parse(cv->s, &val, &su, err, sizeof err)) {
        kj_error(lc->s->d, lc->s->src, sp, "%s", err);
    }
    val = kj_npdt_convert(val, su, t->unit, true);
    return kj_lw_cast(lc, kj_lw_i64(lc, val, sp), t, sp);
}

/* A string as a datetime64 of type t: it must be a constant. */
kir_ref kj_lower_dt_from_str(lctx *lc, const kj_expr *e, const kj_type *t)
{
    kj_einfo *ei = &lc->sp->ei[e->id];
    if (!ei->is_const || !ei->cval.s) {
        kj_error(lc->s->d, lc->s->src, e->span, "a date in an array display must be a constant string");
        return kj_lw_cast(lc, kj_lw_i64(lc, KJ_NAT, e->span), t, e->span);
    }
    return kj_lower_dt_const(lc, &ei->cval, t, e->span);
}
