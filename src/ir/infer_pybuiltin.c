/* SPDX-License-Identifier: BSD-2-Clause */
/* hasattr(x, 'name') and type(x), decided when the program is compiled, as
 * Numba types them (pysupported.rst, "Built-in functions"): hasattr is a
 * constant bool, whether x's type has the attribute (for arrays, strings,
 * lists, dicts, sets and complex numbers kjit's table of their attributes and
 * methods; a number's real, imag and conjugate; a named tuple's fields);
 * type(x) of a number is its Numba type, a compile-time value as np.int64
 * is (`type(x)(0)` converts, `print(type(x))` prints `int64`), and of a
 * named tuple its class (`type(p)(1, 2)` makes one). Neither evaluates x. */
#include "sema_int.h"

#include <stdio.h>
#include <string.h>

static bool named(const kj_expr *e, const char *n, uint32_t nargs)
{
    return e->kind == KJ_E_CALL && e->call.fn->kind == KJ_E_NAME && !strcmp(e->call.fn->name, n) &&
           e->call.nargs == nargs && !e->call.nkw;
}

bool kj_is_static_builtin_call(const kj_expr *e) { return named(e, "hasattr", 2) || named(e, "type", 1); }

static bool table_has(const char *kind, const char *attr)
{
    char path[96];
    snprintf(path, sizeof path, "%s.%s", kind, attr);
    return kj_builtin_lookup(path) >= 0;
}

static bool has_attr(const kj_type *t, const char *a)
{
    const kj_ntclass *nt = kj_nt_class(t);
    if (nt) {
        for (uint32_t i = 0; i < nt->n; i++)
            if (!strcmp(nt->fields[i], a)) return true;
        return !strcmp(a, "index") || !strcmp(a, "count");
    }
    switch (t->kind) {
    case KJ_T_ARRAY: return table_has("array", a);
    case KJ_T_STR: return table_has("str", a);
    case KJ_T_LIST: return table_has("list", a);
    case KJ_T_DICT: return table_has("dict", a);
    case KJ_T_SET: return table_has("set", a);
    case KJ_T_TUPLE: return !strcmp(a, "index") || !strcmp(a, "count");
    case KJ_T_INT: case KJ_T_FLOAT: case KJ_T_BOOL: case KJ_T_COMPLEX:
        return !strcmp(a, "real") || !strcmp(a, "imag") || !strcmp(a, "conjugate");
    default: return false;
    }
}

static kj_einfo *type_hasattr(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    const kj_expr *n = e->call.args[1];
    if (n->kind != KJ_E_STR || n->str.fstr) {
        kj_error(ic->d, ic->s->src, n->span, "hasattr() takes the attribute's name as a string literal");
        return ei_value(ei, NULL);
    }
    const kj_type *t = kj_value_type(ic, e->call.args[0]);
    if (!t) return ei_value(ei, NULL);
    const kj_type *b = kj_t_bool(ic->s->types);
    ei_value(ei, b);
    ei->is_const = true;
    ei->cval.type = b;
    ei->cval.i = has_attr(t, n->str.s);
    return ei;
}

static kj_einfo *type_type(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (kj_exc_type_call(ic, e, ei)) return ei; /* type(e): infer_exc.c */
    const kj_type *t = kj_value_type(ic, e->call.args[0]);
    if (!t) return ei_value(ei, NULL);
    const kj_ntclass *nt = kj_nt_class(t);
    if (nt) {
        ei->kind = EI_NTCLASS;
        ei->ntc = nt;
        return ei;
    }
    if (t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT || t->kind == KJ_T_BOOL || t->kind == KJ_T_COMPLEX) {
        ei->kind = EI_DTYPE;
        ei->dtype = kj_strong(ic->s->types, t);
        return ei;
    }
    kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "type() of %s is not supported", kj_type_str(t));
    kj_diag_hint(dg, "Numba's type() takes numbers and named tuples");
    return ei_value(ei, NULL);
}

kj_einfo *kj_type_static_builtin(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    return named(e, "hasattr", 2) ? type_hasattr(ic, e, ei) : type_type(ic, e, ei);
}

/* The Numba type a class operand names: np.float32 (a dtype), int, float,
 * bool and complex (int64, float64, bool, complex128, as isinstance takes
 * them); NULL for anything else. */
static const kj_type *class_type(kj_ictx *ic, const kj_einfo *ci)
{
    kj_types *T = ic->s->types;
    if (ci->kind == EI_DTYPE) return ci->dtype;
    if (ci->kind != EI_BUILTIN) return NULL;
    switch (ci->builtin) {
    case KJ_B_INT: return kj_t_int(T, 64, true);
    case KJ_B_FLOAT: return kj_t_float(T, 64);
    case KJ_B_BOOL: return kj_t_bool(T);
    case KJ_B_COMPLEX: return kj_t_complex(T, 128);
    default: return NULL;
    }
}

/* type(x) is C, type(x) == C (and `is not`, `!=`): decided statically, as
 * CPython answers for the value x's static type holds (Numba 0.56 compares
 * its own type objects and says False: either is what Numba's docs allow). */
bool kj_type_is_compare(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (e->cmp.n != 2 || !named(e->cmp.operands[0], "type", 1)) return false;
    kj_cmpop op = e->cmp.ops[0];
    if (op != KJ_CMP_IS && op != KJ_CMP_ISNOT && op != KJ_CMP_EQ && op != KJ_CMP_NE) return false;
    kj_einfo *l = kj_type_expr(ic, e->cmp.operands[0]);
    kj_einfo *r = kj_type_expr(ic, e->cmp.operands[1]);
    bool same;
    if (l->kind == EI_NTCLASS && r->kind == EI_NTCLASS) same = l->ntc == r->ntc;
    else if (l->kind == EI_DTYPE && class_type(ic, r)) same = l->dtype == class_type(ic, r);
    else if (l->kind == EI_NTCLASS && class_type(ic, r)) same = false;
    else return false;
    const kj_type *b = kj_t_bool(ic->s->types);
    ei_value(ei, b);
    ei->is_const = true;
    ei->cval.type = b;
    ei->cval.i = (op == KJ_CMP_IS || op == KJ_CMP_EQ) ? same : !same;
    return true;
}
