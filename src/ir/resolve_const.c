/* SPDX-License-Identifier: BSD-2-Clause */
/* resolve_const — constant expressions of the module level and of
 * signatures: numbers, strings, tuples, operators and comparisons of them,
 * the math and NumPy constants, folded at compile time (kj_const_eval). */
#include "sema_int.h"

#include <math.h>

static bool cval_num(const kj_cval *v, double *f, int64_t *i, bool *is_int)
{
    if (!v->type) return false;
    if (v->type->kind == KJ_T_INT || v->type->kind == KJ_T_BOOL) {
        *i = v->i;
        *f = (double)v->i;
        *is_int = true;
        return true;
    }
    if (v->type->kind == KJ_T_FLOAT) {
        *f = v->f;
        *is_int = false;
        return true;
    }
    return false;
}

static int64_t ipow(int64_t b, int64_t e)
{
    uint64_t r = 1, x = (uint64_t)b;
    for (; e > 0; e >>= 1, x *= x)
        if (e & 1) r *= x;
    return (int64_t)r;
}

static int64_t floordiv_i(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static bool const_binop(kj_sema *s, kj_binop op, const kj_cval *l, const kj_cval *r, kj_cval *out)
{
    double lf, rf;
    int64_t li = 0, ri = 0;
    bool lint, rint;
    if (!cval_num(l, &lf, &li, &lint) || !cval_num(r, &rf, &ri, &rint)) return false;
    bool ints = lint && rint;
    out->type = ints ? kj_t_weak_int(s->types) : kj_t_weak_float(s->types);
    switch (op) {
    case KJ_OP_ADD: if (ints) out->i = (int64_t)((uint64_t)li + (uint64_t)ri); else out->f = lf + rf; return true;
    case KJ_OP_SUB: if (ints) out->i = (int64_t)((uint64_t)li - (uint64_t)ri); else out->f = lf - rf; return true;
    case KJ_OP_MUL: if (ints) out->i = (int64_t)((uint64_t)li * (uint64_t)ri); else out->f = lf * rf; return true;
    case KJ_OP_DIV:
        if (rf == 0) return false;
        out->type = kj_t_weak_float(s->types);
        out->f = lf / rf;
        return true;
    case KJ_OP_FLOORDIV:
        if (rf == 0 || (ints && ri == -1 && li == INT64_MIN)) return false;
        if (ints) out->i = floordiv_i(li, ri); else out->f = floor(lf / rf);
        return true;
    case KJ_OP_MOD:
        if (rf == 0 || (ints && ri == -1)) {
            if (ints && ri == -1) { out->i = 0; return true; }
            return false;
        }
        if (ints) out->i = (int64_t)((uint64_t)li - (uint64_t)floordiv_i(li, ri) * (uint64_t)ri);
        else { out->f = fmod(lf, rf); if (out->f != 0 && ((out->f < 0) != (rf < 0))) out->f += rf; }
        return true;
    case KJ_OP_POW:
        if (ints && ri >= 0) out->i = ipow(li, ri);
        else { out->type = kj_t_weak_float(s->types); out->f = pow(lf, rf); }
        return true;
    case KJ_OP_LSHIFT: case KJ_OP_RSHIFT: case KJ_OP_BITAND: case KJ_OP_BITOR: case KJ_OP_BITXOR:
        if (!ints) return false;
        if ((op == KJ_OP_LSHIFT || op == KJ_OP_RSHIFT) && (ri < 0 || ri > 63)) return false;
        out->i = op == KJ_OP_LSHIFT ? (int64_t)((uint64_t)li << ri)
               : op == KJ_OP_RSHIFT ? li >> ri
               : op == KJ_OP_BITAND ? (li & ri) : op == KJ_OP_BITOR ? (li | ri) : (li ^ ri);
        return true;
    default: return false;
    }
}

static bool const_compare(kj_sema *s, const kj_expr *e, kj_cval *out)
{
    bool result = true;
    kj_cval prev;
    if (!kj_const_eval(s, e->cmp.operands[0], &prev)) return false;
    for (uint32_t i = 1; i < e->cmp.n; i++) {
        kj_cval cur;
        double a, b;
        int64_t ai, bi;
        bool x, y;
        if (!kj_const_eval(s, e->cmp.operands[i], &cur)) return false;
        if (!cval_num(&prev, &a, &ai, &x) || !cval_num(&cur, &b, &bi, &y)) return false;
        bool r;
        switch (e->cmp.ops[i - 1]) {
        case KJ_CMP_EQ: r = a == b; break;
        case KJ_CMP_NE: r = a != b; break;
        case KJ_CMP_LT: r = a < b; break;
        case KJ_CMP_LE: r = a <= b; break;
        case KJ_CMP_GT: r = a > b; break;
        case KJ_CMP_GE: r = a >= b; break;
        default: return false;
        }
        result = result && r;
        prev = cur;
    }
    out->type = kj_t_bool(s->types);
    out->i = result;
    return true;
}

static bool truthy(const kj_cval *v)
{
    return v->type->kind == KJ_T_FLOAT ? v->f != 0 : v->i != 0;
}

bool kj_const_eval(kj_sema *s, const kj_expr *e, kj_cval *out)
{
    memset(out, 0, sizeof *out);
    switch (e->kind) {
    case KJ_E_INT:
        if (e->int_.big || e->int_.value > INT64_MAX) return false;
        out->type = kj_t_weak_int(s->types);
        out->i = (int64_t)e->int_.value;
        return true;
    case KJ_E_FLOAT: out->type = kj_t_weak_float(s->types); out->f = e->float_; return true;
    case KJ_E_BOOL: out->type = kj_t_bool(s->types); out->i = e->bool_; return true;
    case KJ_E_STR: /* a bytes literal is an array made at run time, not a constant */
        if (e->str.bytes) return false;
        out->type = kj_t_str(s->types); out->s = e->str.s; return true;
    case KJ_E_NONE: out->type = kj_t_none(s->types); return true; /* def f(a, b=None) */
    case KJ_E_NAME:
    case KJ_E_ATTR: {
        kj_einfo ref;
        if (!kj_static_ref(s, e, &ref, false)) return kj_script_shape_attr(s, e, out); /* N = a.size */
        if (ref.kind == EI_VALUE && ref.is_const) { *out = ref.cval; return true; }
        if (ref.kind != EI_BUILTIN) return false;
        double v;
        switch (ref.builtin) {
        case KJ_B_PI: v = M_PI; break;
        case KJ_B_E: v = M_E; break;
        case KJ_B_INF: v = INFINITY; break;
        case KJ_B_NAN: v = NAN; break;
        case KJ_B_MPI_ANY_SOURCE: case KJ_B_MPI_ANY_TAG: case KJ_B_MPI_PROC_NULL:
            /* Open MPI's values, which mpi4py exposes */
            out->type = kj_t_weak_int(s->types);
            out->i = ref.builtin == KJ_B_MPI_PROC_NULL ? -2 : -1;
            return true;
        default: return false;
        }
        out->type = kj_t_weak_float(s->types);
        out->f = v;
        return true;
    }
    case KJ_E_UNARY: {
        kj_cval x;
        if (!kj_const_eval(s, e->un.x, &x)) return false;
        if (e->un.op == KJ_UOP_NOT) {
            if (!kj_is_scalar(x.type)) return false;
            out->type = kj_t_bool(s->types);
            out->i = !truthy(&x);
            return true;
        }
        if (x.type->kind == KJ_T_FLOAT && e->un.op != KJ_UOP_INVERT) {
            *out = x;
            if (e->un.op == KJ_UOP_NEG) out->f = -x.f;
            return true;
        }
        if (x.type->kind != KJ_T_INT && x.type->kind != KJ_T_BOOL) return false;
        out->type = kj_t_weak_int(s->types);
        out->i = e->un.op == KJ_UOP_NEG ? (int64_t)(0 - (uint64_t)x.i)
               : e->un.op == KJ_UOP_INVERT ? ~x.i : x.i;
        return true;
    }
    case KJ_E_BINOP: {
        kj_cval l, r;
        return kj_const_eval(s, e->bin.l, &l) && kj_const_eval(s, e->bin.r, &r) &&
               const_binop(s, e->bin.op, &l, &r, out);
    }
    case KJ_E_COMPARE: return const_compare(s, e, out);
    case KJ_E_BOOLOP: {
        kj_cval l, r;
        if (!kj_const_eval(s, e->boolop.l, &l) || !kj_is_scalar(l.type)) return false;
        bool take_l = e->boolop.op == KJ_BOOL_AND ? !truthy(&l) : truthy(&l);
        if (take_l) { *out = l; return true; }
        return kj_const_eval(s, e->boolop.r, &r) && (*out = r, true);
    }
    case KJ_E_IFEXP: {
        kj_cval c;
        if (!kj_const_eval(s, e->ifexp.cond, &c) || !kj_is_scalar(c.type)) return false;
        return kj_const_eval(s, truthy(&c) ? e->ifexp.then : e->ifexp.els, out);
    }
    case KJ_E_CALL: { /* len(T) of a constant tuple: N = len(SHAPE) */
        kj_einfo ref;
        kj_cval t;
        if (e->call.nargs != 1 || e->call.nkw || !kj_static_ref(s, e->call.fn, &ref, false) ||
            ref.kind != EI_BUILTIN || ref.builtin != KJ_B_LEN)
            return false;
        if (!kj_const_eval(s, e->call.args[0], &t)) return kj_script_len(s, e->call.args[0], out); /* len(a) */
        if (t.type->kind != KJ_T_TUPLE) return false;
        out->type = kj_t_weak_int(s->types);
        out->i = t.n;
        return true;
    }
    case KJ_E_SUBSCRIPT: { /* SHAPE[1] of a constant tuple, as Python indexes it */
        kj_cval t, k;
        if (!kj_const_eval(s, e->sub.obj, &t) || t.type->kind != KJ_T_TUPLE ||
            !kj_const_eval(s, e->sub.index, &k) || k.type->kind != KJ_T_INT)
            return false;
        int64_t i = k.i < 0 ? k.i + (int64_t)t.n : k.i;
        if (i < 0 || i >= (int64_t)t.n) return false; /* the IndexError is infer's to report */
        *out = t.elems[i];
        return true;
    }
    case KJ_E_TUPLE:
    case KJ_E_LIST: {
        uint32_t n = e->seq.n;
        kj_cval *el = KJ_NEWN(s->a, kj_cval, n ? n : 1);
        const kj_type **tys = KJ_NEWN(s->a, const kj_type *, n ? n : 1);
        for (uint32_t i = 0; i < n; i++) {
            if (!kj_const_eval(s, e->seq.v[i], &el[i])) return false;
            tys[i] = el[i].type;
        }
        out->type = kj_t_tuple(s->types, tys, n);
        out->elems = el;
        out->n = n;
        return true;
    }
    default: return false;
    }
}
