/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of NumPy's datetime64 and timedelta64 (numpysupported.rst "Scalar
 * types", "Datetime functions"; Numba's numba/np/npdatetime.py): the types
 * datetime64[unit] / timedelta64[unit] (types.h), their dtype strings, the
 * constructors np.datetime64 / np.timedelta64, the operators Numba gives
 * them with NumPy's unit rules (the finer unit; years and months only with
 * each other), np.isnat, abs, np.isfinite and the min/max ufuncs.
 * lower_datetime.c lowers what this types. */
#include "sema_int.h"
#include "builtins.h"
#include "../util/npdatetime.h"

#include <stdio.h>
#include <string.h>

static bool is_td(const kj_type *t) { return t && t->kind == KJ_T_TIMEDELTA; }
static bool is_dtm(const kj_type *t) { return t && t->kind == KJ_T_DATETIME; }

/* NumPy's dtype string of a datetime type: '<M8[D]'. */
static const char *np_str(kj_types *T, const kj_type *t, char *buf, size_t n)
{
    (void)T;
    snprintf(buf, n, "<%s8%s%s%s", is_dtm(t) ? "M" : "m", t->unit == KJ_DTU_GENERIC ? "" : "[",
             kj_dtu_name(t->unit), t->unit == KJ_DTU_GENERIC ? "" : "]");
    return buf;
}

/* 'datetime64[D]', 'M8[s]', '<m8[h]', 'timedelta64' (generic): the type, or NULL. */
const kj_type *kj_dt_dtype_by_str(kj_types *T, const char *s)
{
    if (*s == '<' || *s == '=') s++;
    bool td;
    size_t k;
    if (!strncmp(s, "datetime64", 10)) td = false, k = 10;
    else if (!strncmp(s, "timedelta64", 11)) td = true, k = 11;
    else if (!strncmp(s, "M8", 2)) td = false, k = 2;
    else if (!strncmp(s, "m8", 2)) td = true, k = 2;
    else return NULL;
    s += k;
    if (!*s) return kj_t_datetime(T, KJ_DTU_GENERIC, td);
    size_t n = strlen(s);
    if (s[0] != '[' || s[n - 1] != ']') return NULL;
    int u = kj_dtu_parse(s + 1, n - 2);
    return u < 0 ? NULL : kj_t_datetime(T, u, td);
}

/* ---- operators ---- */

static bool plain_int(const kj_type *t) { return t && (t->kind == KJ_T_INT || t->kind == KJ_T_BOOL); }
static bool plain_float(const kj_type *t) { return t && t->kind == KJ_T_FLOAT; }

static const kj_type *no_common(kj_ictx *ic, const kj_type *l, const kj_type *r, kj_span sp)
{
    kj_error(ic->d, ic->s->src, sp,
             "Cannot get a common metadata divisor for Numpy datetime metadata [%s] and [%s] because they have "
             "incompatible nonlinear base time units",
             kj_dtu_name(l->unit), kj_dtu_name(r->unit));
    return NULL;
}

static const kj_type *cannot_use(kj_ictx *ic, const char *ufunc, const kj_type *l, const kj_type *r, kj_span sp)
{
    char a[32], b[32];
    kj_types *T = ic->s->types;
    const char *ls = kj_is_dt(l) ? np_str(T, l, a, sizeof a) : kj_type_str(kj_strong(T, l));
    const char *rs = kj_is_dt(r) ? np_str(T, r, b, sizeof b) : kj_type_str(kj_strong(T, r));
    kj_diag *dg = kj_error(ic->d, ic->s->src, sp, "ufunc '%s' cannot use operands with types dtype('%s') and dtype('%s')",
                           ufunc, ls, rs);
    if ((kj_is_dt(l) && (plain_int(r) || plain_float(r))) || (kj_is_dt(r) && (plain_int(l) || plain_float(l))))
        kj_diag_hint(dg, "Numba takes no plain numbers here: write np.timedelta64(n, 'D')");
    return NULL;
}

static const char *ufunc_of(kj_binop op)
{
    switch (op) {
    case KJ_OP_ADD: return "add";
    case KJ_OP_SUB: return "subtract";
    case KJ_OP_MUL: return "multiply";
    case KJ_OP_DIV: return "true_divide";
    case KJ_OP_FLOORDIV: return "floor_divide";
    case KJ_OP_MOD: return "remainder";
    default: return kj_binop_str(op);
    }
}

/* The common unit of two datetime operands as a type of `kind`; NULL after NumPy's error. */
static const kj_type *common(kj_ictx *ic, const kj_type *l, const kj_type *r, bool timedelta, kj_span sp)
{
    int u = kj_dtu_common(l->unit, is_dtm(l), r->unit, is_dtm(r));
    if (u < 0) return no_common(ic, l, r, sp);
    return kj_t_datetime(ic->s->types, u, timedelta);
}

/* l op r where l or r is a datetime64 / timedelta64 scalar (Numba's npdatetime.py). */
static const kj_type *scalar_binop(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp)
{
    kj_types *T = ic->s->types;
    switch (op) {
    case KJ_OP_ADD:
        if (is_td(l) && is_td(r)) return common(ic, l, r, true, sp);
        if ((is_dtm(l) && is_td(r)) || (is_td(l) && is_dtm(r))) {
            const kj_type *dt = is_dtm(l) ? l : r, *td = is_dtm(l) ? r : l;
            if (kj_dtu_nonlinear(td->unit) && !kj_dtu_nonlinear(dt->unit) && dt->unit != KJ_DTU_GENERIC) break;
            return common(ic, l, r, false, sp);
        }
        break;
    case KJ_OP_SUB:
        if (is_td(l) && is_td(r)) return common(ic, l, r, true, sp);
        if (is_dtm(l) && is_dtm(r)) return common(ic, l, r, true, sp);
        if (is_dtm(l) && is_td(r)) {
            if (kj_dtu_nonlinear(r->unit) && !kj_dtu_nonlinear(l->unit) && l->unit != KJ_DTU_GENERIC) break;
            return common(ic, l, r, false, sp);
        }
        break;
    case KJ_OP_MUL:
        if (is_td(l) && (plain_int(r) || plain_float(r))) return l;
        if (is_td(r) && (plain_int(l) || plain_float(l))) return r;
        break;
    case KJ_OP_DIV: case KJ_OP_FLOORDIV:
        if (is_td(l) && is_td(r)) {
            if (!common(ic, l, r, true, sp)) return NULL;
            return op == KJ_OP_DIV ? kj_t_float(T, 64) : kj_t_int(T, 64, true);
        }
        if (is_td(l) && (plain_int(r) || plain_float(r))) return l;
        break;
    case KJ_OP_MOD:
        if (is_td(l) && is_td(r)) return common(ic, l, r, true, sp);
        break;
    default: break;
    }
    return cannot_use(ic, ufunc_of(op), l, r, sp);
}

const kj_type *kj_dt_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp,
                                const kj_type **optype)
{
    if (optype) *optype = NULL;
    if (l->kind == KJ_T_ARRAY || r->kind == KJ_T_ARRAY) {
        kj_error(ic->d, ic->s->src, sp,
                 "operators on arrays of datetime64/timedelta64 are not supported yet; index the arrays and "
                 "compute element by element");
        return NULL;
    }
    return scalar_binop(ic, op, l, r, sp);
}

/* l OP r comparisons: two datetimes or two timedeltas of units that have a common one. */
const kj_type *kj_dt_compare_type(kj_ictx *ic, kj_cmpop op, const kj_type *l, const kj_type *r, kj_span sp)
{
    kj_types *T = ic->s->types;
    if (l->kind == KJ_T_ARRAY || r->kind == KJ_T_ARRAY) {
        kj_error(ic->d, ic->s->src, sp,
                 "comparisons of arrays of datetime64/timedelta64 are not supported yet; compare element by element");
        return NULL;
    }
    if (op == KJ_CMP_IN || op == KJ_CMP_NOTIN || op == KJ_CMP_IS || op == KJ_CMP_ISNOT || l->kind != r->kind ||
        !kj_is_dt(l)) {
        static const char *const NAMES[] = {[KJ_CMP_EQ] = "equal", [KJ_CMP_NE] = "not_equal", [KJ_CMP_LT] = "less",
                                            [KJ_CMP_LE] = "less_equal", [KJ_CMP_GT] = "greater",
                                            [KJ_CMP_GE] = "greater_equal"};
        const char *name = op <= KJ_CMP_GE && NAMES[op] ? NAMES[op] : kj_cmpop_str(op);
        return cannot_use(ic, name, l, r, sp);
    }
    if (!common(ic, l, r, true, sp)) return NULL;
    return kj_t_bool(T);
}

/* -x, +x of a timedelta. */
const kj_type *kj_dt_unary_type(kj_ictx *ic, kj_unop op, const kj_type *x, kj_span sp)
{
    if ((op == KJ_UOP_NEG || op == KJ_UOP_POS) && is_td(x)) return x;
    kj_error(ic->d, ic->s->src, sp, "bad operand type for unary %s: '%s'", kj_unop_str(op), kj_type_str(x));
    return NULL;
}

/* ---- built-ins ---- */

/* A datetime value, an array of them, or a tuple holding either (np.concatenate((a, b))). */
static bool has_dt(const kj_type *t)
{
    if (!t) return false;
    if (kj_is_dt(t) || (t->kind == KJ_T_ARRAY && kj_is_dt(t->elem))) return true;
    for (uint32_t k = 0; t->kind == KJ_T_TUPLE && k < t->n; k++)
        if (has_dt(t->elems[k])) return true;
    return false;
}

static bool any_dt(const kj_barg *args, uint32_t nargs)
{
    for (uint32_t i = 0; i < nargs; i++)
        if (has_dt(args[i].type)) return true;
    return false;
}

/* The unit argument: a constant string NumPy knows; -2 when absent, -1 after an error. */
static int unit_arg(const kj_barg *u, const kj_source *src, kj_diags *d)
{
    if (!u->type) return -2;
    if (!u->is_const || !u->sval) {
        kj_error(d, src, u->span, "the unit of a datetime64/timedelta64 must be a constant string such as 'D'");
        return -1;
    }
    int unit = kj_dtu_parse(u->sval, strlen(u->sval));
    if (unit < 0) kj_error(d, src, u->span, "Invalid datetime unit \"%s\" in metadata", u->sval);
    return unit;
}

/* np.datetime64(value, unit) / np.timedelta64(value, unit): a constant string (an ISO date, 'NaT'), or
 * an integer count of the unit; a datetime of another unit converted. */
static const kj_type *constructor(kj_types *t, bool td, const kj_barg *args, uint32_t nargs, kj_span call,
                                  const kj_source *src, kj_diags *d)
{
    const char *name = td ? "np.timedelta64" : "np.datetime64";
    int unit = nargs > 1 ? unit_arg(&args[1], src, d) : -2;
    if (unit == -1) return NULL;
    const kj_barg *v = nargs ? &args[0] : NULL;
    if (!v || !v->type) return kj_t_datetime(t, unit >= 0 ? unit : KJ_DTU_GENERIC, td); /* np.datetime64(): NaT */
    if (v->type->kind == KJ_T_STR) {
        if (!v->is_const || !v->sval) {
            kj_error(d, src, v->span, "%s() of a string needs a constant string", name);
            return NULL;
        }
        int64_t val;
        int su;
        char err[256];
        if (td && strcmp(v->sval, "NaT") != 0) {
            kj_error(d, src, v->span, "Could not convert object to NumPy timedelta");
            return NULL;
        }
        if (!kj_npdt_parse(v->sval, &val, &su, err, sizeof err)) {
            kj_error(d, src, v->span, "%s", err);
            return NULL;
        }
        return kj_t_datetime(t, unit >= 0 ? unit : su, td);
    }
    if (plain_int(v->type)) {
        if (unit < 0 && !td) {
            kj_error(d, src, call, "Converting an integer to a NumPy datetime requires a specified unit");
            return NULL;
        }
        return kj_t_datetime(t, unit >= 0 ? unit : KJ_DTU_GENERIC, td);
    }
    if (kj_is_dt(v->type) && (v->type->kind == KJ_T_TIMEDELTA) == td) {
        if (unit >= 0 && td && kj_dtu_common(v->type->unit, false, unit, false) < 0) {
            kj_error(d, src, call, "Cannot cast NumPy timedelta64 scalar from metadata [%s] to [%s] according to the rule 'same_kind'",
                     kj_dtu_name(v->type->unit), kj_dtu_name(unit));
            return NULL;
        }
        return unit >= 0 ? kj_t_datetime(t, unit, td) : v->type;
    }
    kj_error(d, src, v->span, "Could not convert object to NumPy %s", td ? "timedelta" : "datetime");
    return NULL;
}

/* abs, np.isfinite, np.isnan, np.sign, np.maximum/minimum/fmax/fmin of datetime arguments. */
static const kj_type *dt_args_type(kj_types *t, int id, const kj_barg *args, uint32_t nargs, kj_span call,
                                   const kj_source *src, kj_diags *d, bool *handled)
{
    const kj_type *x = args[0].type;
    bool arr = false;
    for (uint32_t i = 0; i < nargs; i++) arr = arr || (args[i].type && args[i].type->kind == KJ_T_ARRAY);
    if (arr && nargs == 1 && (id == KJ_B_DT_ISNAT || id == KJ_B_ISFINITE)) { /* elementwise: lower_datetime.c */
        *handled = true;
        return kj_t_array(t, kj_t_bool(t), x->ndim, KJ_LAYOUT_C);
    }
    bool ours = id == KJ_B_ABS || id == KJ_B_NP_SIGN || id == KJ_B_ISFINITE || id == KJ_B_ISNAN || id == KJ_B_DT_ISNAT ||
                id == KJ_B_NP_MAXIMUM || id == KJ_B_NP_MINIMUM || id == KJ_B_NP_FMAX || id == KJ_B_NP_FMIN;
    if (arr && ours) {
        *handled = true;
        kj_error(d, src, call, "%s() of arrays of datetime64/timedelta64 is not supported yet",
                 kj_builtin_get((kj_builtin)id)->path);
        return NULL;
    }
    switch (id) {
    case KJ_B_ABS: case KJ_B_NP_SIGN:
        *handled = true;
        if (is_td(x) && nargs == 1) return x;
        break;
    case KJ_B_ISFINITE: case KJ_B_ISNAN: case KJ_B_DT_ISNAT:
        *handled = true;
        if (nargs == 1 && kj_is_dt(x)) return kj_t_bool(t);
        break;
    case KJ_B_NP_MAXIMUM: case KJ_B_NP_MINIMUM: case KJ_B_NP_FMAX: case KJ_B_NP_FMIN: {
        *handled = true;
        const kj_type *y = nargs > 1 ? args[1].type : NULL;
        if (kj_is_dt(x) && y && x->kind == y->kind) {
            int u = kj_dtu_common(x->unit, is_dtm(x), y->unit, is_dtm(y));
            if (u >= 0) return kj_t_datetime(t, u, is_td(x));
        }
        break;
    }
    default: return NULL; /* print, len, ... type the values as they type any other */
    }
    kj_error(d, src, call, "%s() does not support %s%s%s", kj_builtin_get((kj_builtin)id)->path,
             x ? kj_type_str(x) : "no argument", nargs > 1 && args[1].type ? " and " : "",
             nargs > 1 && args[1].type ? kj_type_str(args[1].type) : "");
    return NULL;
}

/* The built-ins that only move, view or describe datetime values (their shape, their bytes, print) and
 * those whose int64 answer is NumPy's (np.min and np.argmin: NaT is the smallest int64, and NumPy's min
 * and argmin propagate NaT). */
static bool structural(int id)
{
    switch (id) {
    case KJ_B_PRINT: case KJ_B_LEN: case KJ_B_ARR_SHAPE: case KJ_B_ARR_SIZE: case KJ_B_ARR_NDIM: case KJ_B_ARR_COPY:
    case KJ_B_NP_COPY: case KJ_B_ARR_VIEW: case KJ_B_NP_EMPTY_LIKE: case KJ_B_NP_ZEROS_LIKE: case KJ_B_ARR_T:
    case KJ_B_ARR_TRANSPOSE: case KJ_B_NP_TRANSPOSE: case KJ_B_ARR_RESHAPE: case KJ_B_ARR_FLATTEN:
    case KJ_B_ARR_RAVEL: case KJ_B_NP_RAVEL: case KJ_B_ARR_STRIDES: case KJ_B_ARR_ITEMSIZE: case KJ_B_ARR_NBYTES:
    case KJ_B_ARR_IS_C_CONTIGUOUS: case KJ_B_ARR_IS_F_CONTIGUOUS: case KJ_B_NP_MIN:
    case KJ_B_ARR_MIN: case KJ_B_NP_ARGMIN: case KJ_B_ARR_ARGMIN: case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY:
        return true;
    default: return false;
    }
}

const kj_type *kj_dt_builtin_type(kj_types *t, int id, const kj_barg *args, uint32_t nargs, kj_span call,
                                  const kj_source *src, kj_diags *d, const kj_type **conv, bool *handled)
{
    (void)conv;
    *handled = false;
    if (id == KJ_B_DT_DATETIME64 || id == KJ_B_DT_TIMEDELTA64) {
        *handled = true;
        return constructor(t, id == KJ_B_DT_TIMEDELTA64, args, nargs, call, src, d);
    }
    if (id == KJ_B_DT_OP) { /* lowering's own: never named in a program */
        *handled = true;
        kj_error(d, src, call, "datetime.<op> is not a function of the language");
        return NULL;
    }
    if (id == KJ_B_DT_ISNAT && !any_dt(args, nargs)) {
        *handled = true;
        kj_diag *dg = kj_error(d, src, nargs ? args[0].span : call, "ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64.");
        kj_diag_hint(dg, "np.isnat takes datetime64 or timedelta64 values; for floats use np.isnan");
        return NULL;
    }
    if (!any_dt(args, nargs)) return NULL;
    const kj_type *r = dt_args_type(t, id, args, nargs, call, src, d, handled);
    if (*handled || structural(id)) return r;
    /* anything else would compute on the int64s as numbers (NaT as the smallest, a plain int result) */
    *handled = true;
    kj_error(d, src, call, "%s() of datetime64/timedelta64 values is not supported yet",
             kj_builtin_get((kj_builtin)id)->path);
    return NULL;
}
