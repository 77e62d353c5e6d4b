/* SPDX-License-Identifier: BSD-2-Clause */
/* isinstance(x, T) (issue 23), as Numba compiles it: decided at compile time
 * from x's static type, a constant bool (numba/core/typing/builtins.py,
 * "isinstance" is resolved against the argument's Numba type). T is a class
 * the program names: int, float, bool, complex, tuple, list, str, np.ndarray,
 * NumPy's abstract scalar classes (np.integer, np.floating, np.number, ...),
 * a NumPy scalar type (np.float32), or a tuple of these. As in Numba, int,
 * float and complex are int64, float64 and complex128 (an np.int32 is no
 * int); a kjit int64 is an int and an np.integer at once: the static type
 * does not say whether a host scalar is a Python int or a NumPy one. */
#include "sema_int.h"

#include <string.h>

/* Whether static type t is an instance of the class named by cls; -1 when
 * cls names no class isinstance knows (an error reported). */
static int class_match(kj_ictx *ic, const kj_expr *cls, const kj_type *t);

static int named_match(const char *n, const kj_type *t)
{
    static const struct { const char *name; int kind; int sign; } rows[] = {
        {"int", KJ_T_INT, -1},          {"float", KJ_T_FLOAT, -1},        {"bool", KJ_T_BOOL, -1},
        {"complex", KJ_T_COMPLEX, -1},  {"tuple", KJ_T_TUPLE, -1},        {"list", KJ_T_LIST, -1},
        {"str", KJ_T_STR, -1},          {"ndarray", KJ_T_ARRAY, -1},      {"integer", KJ_T_INT, -1},
        {"signedinteger", KJ_T_INT, 1}, {"unsignedinteger", KJ_T_INT, 0}, {"floating", KJ_T_FLOAT, -1},
        {"inexact", -2, -1},            {"complexfloating", KJ_T_COMPLEX, -1}, {"bool_", KJ_T_BOOL, -1},
        {"number", -3, -1},             {"generic", -4, -1},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        if (strcmp(rows[k].name, n)) continue;
        switch (rows[k].kind) {
        case -2: return t->kind == KJ_T_FLOAT || t->kind == KJ_T_COMPLEX;
        case -3: return t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT || t->kind == KJ_T_COMPLEX;
        case -4: return kj_is_scalar(t);
        default: break;
        }
        if (!strcmp(n, "int") && t->kind == KJ_T_BOOL) return 1; /* Python's bool is an int */
        if ((int)t->kind != rows[k].kind) return 0;
        /* Numba's int, float and complex are its int64, float64 and complex128 */
        if (!strcmp(n, "int")) return t->is_signed && t->bits == 64;
        if (!strcmp(n, "float")) return t->bits == 64;
        if (!strcmp(n, "complex")) return t->bits == 128;
        return rows[k].sign < 0 || (int)t->is_signed == rows[k].sign;
    }
    return -1;
}

static bool is_numpy(const kj_expr *e)
{
    return e->kind == KJ_E_NAME && (!strcmp(e->name, "np") || !strcmp(e->name, "numpy"));
}

static int class_match(kj_ictx *ic, const kj_expr *cls, const kj_type *t)
{
    if (cls->kind == KJ_E_TUPLE) {
        int any = 0;
        for (uint32_t k = 0; k < cls->seq.n; k++) {
            int m = class_match(ic, cls->seq.v[k], t);
            if (m < 0) return -1;
            any |= m;
        }
        return any;
    }
    int m = -1;
    if (cls->kind == KJ_E_NAME && strcmp(cls->name, "ndarray") && strcmp(cls->name, "bool_"))
        m = named_match(cls->name, t);
    else if (cls->kind == KJ_E_ATTR && is_numpy(cls->attr.obj)) {
        const char *n = cls->attr.name;
        bool py = !strcmp(n, "int") || !strcmp(n, "float") || !strcmp(n, "bool") || !strcmp(n, "complex");
        if (!py) m = named_match(n, t);
        if (m < 0 && !py) {
            kj_einfo *ci = kj_type_expr(ic, cls); /* np.float32 and the other scalar types */
            if (ci->kind == EI_DTYPE) return kj_is_scalar(t) && kj_strong(ic->s->types, t) == ci->dtype;
            return -1; /* kj_type_expr reported it */
        }
    }
    if (m < 0)
        kj_error(ic->d, ic->s->src, cls->span, "isinstance() class must be a type such as int, float, "
                 "np.ndarray, np.integer or np.float64, or a tuple of them");
    return m;
}

bool kj_is_isinstance_call(const kj_expr *e)
{
    return e->kind == KJ_E_CALL && e->call.fn->kind == KJ_E_NAME && !strcmp(e->call.fn->name, "isinstance");
}

kj_einfo *kj_type_isinstance(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (kj_exc_isinstance(ic, e, ei)) return ei; /* isinstance(e, ValueError): infer_exc.c */
    if (e->call.nargs != 2 || e->call.nkw) {
        kj_error(ic->d, ic->s->src, e->span, "isinstance() takes 2 positional arguments (an object and a class)");
        return ei_value(ei, NULL);
    }
    const kj_type *t = kj_value_type(ic, e->call.args[0]);
    if (!t) return ei_value(ei, NULL);
    int m = class_match(ic, e->call.args[1], t);
    if (m < 0) return ei_value(ei, NULL);
    const kj_type *b = kj_t_bool(ic->s->types);
    ei_value(ei, b);
    ei->is_const = true;
    ei->cval.type = b;
    ei->cval.i = m;
    return ei;
}

/* tuple() and tuple(t) of a tuple (Numba's tuple constructor over a tuple):
 * the empty tuple, or t itself. An array's length is not in its type, so
 * tuple(array) has no static type: refused with the alternative. */
bool kj_is_tuple_call(const kj_expr *e)
{
    return e->kind == KJ_E_CALL && e->call.fn->kind == KJ_E_NAME && !strcmp(e->call.fn->name, "tuple");
}

kj_einfo *kj_type_tuple_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (e->call.nargs > 1 || e->call.nkw) {
        kj_error(ic->d, ic->s->src, e->span, "tuple() takes at most 1 positional argument");
        return ei_value(ei, NULL);
    }
    if (e->call.nargs == 0) {
        const kj_type *t = kj_t_tuple(ic->s->types, NULL, 0);
        ei_value(ei, t);
        ei->is_const = true;
        ei->cval.type = t;
        return ei;
    }
    const kj_type *t = kj_value_type(ic, e->call.args[0]);
    if (!t) return ei_value(ei, NULL);
    if (t->kind != KJ_T_TUPLE) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->call.args[0]->span,
                               "tuple() of %s: its length is not known at compile time", kj_type_str(t));
        kj_diag_hint(dg, "write the tuple out, (a[0], a[1], ...), or pass a tuple");
        return ei_value(ei, NULL);
    }
    kj_einfo *ai = &ic->sp->ei[e->call.args[0]->id];
    ei_value(ei, t);
    if (ai->is_const) {
        ei->is_const = true;
        ei->cval = ai->cval;
    }
    return ei;
}
