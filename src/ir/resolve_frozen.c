/* SPDX-License-Identifier: BSD-2-Clause */
/* resolve_frozen — a script's module-level NumPy array read by a compiled
 * function or kernel, frozen when the program compiles.
 *
 * Numba freezes the value of a global when it compiles a function that
 * reads it, and makes a global array read-only (pysemantics.rst, "Global and
 * closure variables"):
 *
 *     PRICES = np.array([1.5, 2.0, 3.25])
 *     @njit
 *     def total(): return PRICES.sum()
 *
 * When the name is bound once (kj_script_binding) to an array whose
 * elements are known at compile time — np.array of a (nested) display of
 * numbers, np.arange / np.linspace / np.zeros / np.ones / np.full with
 * constant arguments, dtype= included — the reader gets a CONST_ARRAY: its
 * elements become a constant global of the generated module (llvm_frozen.c).
 * <module> itself keeps its own mutable array, as today. A store into a
 * frozen array is Numba's compile error. */
#include "../ir/kir.h"
#include "sema_int.h"

#include <math.h>
#include <string.h>

enum { MAX_DIMS = 4, MAX_ELEMS = 1 << 22 };

typedef struct {
    kj_sema *s;
    const kj_type *elem; /* NULL until a dtype is known */
    bool any_float, any_int;
    uint32_t nd;
    int64_t shape[MAX_DIMS];
    double *v; /* every element as a double, then converted */
    uint64_t n, cap;
} frz;

static const kj_expr *arg(const kj_expr *call, uint32_t pos, const char *kw)
{
    for (uint32_t i = 0; i < call->call.nkw; i++)
        if (!strcmp(call->call.kw[i].name, kw)) return call->call.kw[i].value;
    return pos < call->call.nargs ? call->call.args[pos] : NULL;
}

static bool push(frz *z, double x)
{
    if (z->n == z->cap) {
        uint64_t cap = z->cap ? z->cap * 2 : 16;
        double *v = KJ_NEWN(z->s->a, double, cap);
        if (z->n) memcpy(v, z->v, z->n * sizeof *v);
        z->v = v, z->cap = cap;
    }
    z->v[z->n++] = x;
    return true;
}

/* a number: its value, and whether it is a float */
static bool num(frz *z, const kj_expr *e, double *x, bool *is_float)
{
    kj_cval v;
    if (!e || !kj_const_eval(z->s, e, &v)) return false;
    bool f = v.type->kind == KJ_T_FLOAT;
    if (!f && v.type->kind != KJ_T_INT && v.type->kind != KJ_T_BOOL) return false;
    *x = f ? v.f : (double)v.i;
    if (is_float) *is_float = f;
    f ? (z->any_float = true) : (z->any_int = true);
    return true;
}

/* a nested list display, depth d: every row as long as the first (NumPy
 * refuses ragged displays) */
static bool display(frz *z, const kj_expr *e, uint32_t d)
{
    if (e->kind != KJ_E_LIST && e->kind != KJ_E_TUPLE) {
        double x;
        return d == z->nd && num(z, e, &x, NULL) && push(z, x);
    }
    if (d == MAX_DIMS) return false;
    if (d == z->nd) z->shape[z->nd++] = e->seq.n;
    else if (z->shape[d] != e->seq.n) return false;
    for (uint32_t i = 0; i < e->seq.n; i++)
        if (!display(z, e->seq.v[i], d + 1)) return false;
    return true;
}

static bool dtype_arg(frz *z, const kj_expr *e)
{
    if (!e) return true;
    kj_einfo ei;
    kj_cval v;
    if (kj_static_ref(z->s, e, &ei, false) && ei.kind == EI_DTYPE) z->elem = ei.dtype;
    else if (kj_const_eval(z->s, e, &v) && v.type->kind == KJ_T_STR) z->elem = kj_scalar_by_name(z->s->types, v.s);
    return z->elem != NULL;
}

static bool shape_arg(frz *z, const kj_expr *e)
{
    kj_cval v;
    if (!e || !kj_const_eval(z->s, e, &v)) return false;
    if (v.type->kind == KJ_T_INT) {
        z->nd = 1, z->shape[0] = v.i;
        return v.i >= 0;
    }
    if (v.type->kind != KJ_T_TUPLE || v.n > MAX_DIMS || !v.n) return false;
    z->nd = v.n;
    for (uint32_t i = 0; i < v.n; i++) {
        if (v.elems[i].type->kind != KJ_T_INT || v.elems[i].i < 0) return false;
        z->shape[i] = v.elems[i].i;
    }
    return true;
}

static bool fill(frz *z, double x)
{
    uint64_t n = 1;
    for (uint32_t i = 0; i < z->nd; i++) n *= (uint64_t)z->shape[i];
    if (n > MAX_ELEMS) return false;
    for (uint64_t i = 0; i < n; i++) push(z, x);
    return true;
}

/* np.arange(stop) / (start, stop[, step]): start + k*step, as NumPy fills it */
static bool arange(frz *z, const kj_expr *e)
{
    double lo = 0, hi, st = 1;
    const kj_expr *a0 = arg(e, 0, "start"), *a1 = arg(e, 1, "stop"), *a2 = arg(e, 2, "step");
    if (!a1) {
        if (!num(z, a0, &hi, NULL)) return false;
    } else if (!num(z, a0, &lo, NULL) || !num(z, a1, &hi, NULL) || (a2 && !num(z, a2, &st, NULL)) || st == 0) {
        return false;
    }
    double n = ceil((hi - lo) / st);
    if (n > MAX_ELEMS) return false;
    z->nd = 1, z->shape[0] = n > 0 ? (int64_t)n : 0;
    for (int64_t k = 0; k < z->shape[0]; k++) push(z, lo + (double)k * st);
    return true;
}

/* np.linspace(start, stop, num=50, endpoint=True): NumPy's formula,
 * start + k*step with the last element exactly stop */
static bool linspace(frz *z, const kj_expr *e)
{
    double lo, hi, fn = 50, ep = 1;
    const kj_expr *n = arg(e, 2, "num"), *end = arg(e, 3, "endpoint");
    bool f;
    if (!num(z, arg(e, 0, "start"), &lo, NULL) || !num(z, arg(e, 1, "stop"), &hi, NULL) ||
        (n && (!num(z, n, &fn, &f) || f || fn < 0 || fn > MAX_ELEMS)) || (end && !num(z, end, &ep, NULL)))
        return false;
    z->any_float = true;
    int64_t cnt = (int64_t)fn;
    double div = ep != 0 ? (double)(cnt - 1) : (double)cnt, step = (hi - lo) / div;
    z->nd = 1, z->shape[0] = cnt;
    for (int64_t k = 0; k < cnt; k++) push(z, div > 0 ? lo + (double)k * step : lo + (double)k * (hi - lo));
    if (ep != 0 && cnt > 1) z->v[cnt - 1] = hi;
    return true;
}

static bool construct(frz *z, const kj_expr *e)
{
    kj_einfo ref;
    if (e->kind != KJ_E_CALL || !kj_static_ref(z->s, e->call.fn, &ref, false) || ref.kind != EI_BUILTIN)
        return false;
    double x;
    switch (ref.builtin) {
    case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY: {
        const kj_expr *a = arg(e, 0, "object");
        return a && (a->kind == KJ_E_LIST || a->kind == KJ_E_TUPLE) && display(z, a, 0) &&
               dtype_arg(z, arg(e, 1, "dtype"));
    }
    case KJ_B_NP_ZEROS: case KJ_B_NP_ONES:
        z->any_float = true;
        return shape_arg(z, arg(e, 0, "shape")) && dtype_arg(z, arg(e, 1, "dtype")) &&
               fill(z, ref.builtin == KJ_B_NP_ONES);
    case KJ_B_NP_FULL:
        return shape_arg(z, arg(e, 0, "shape")) && num(z, arg(e, 1, "fill_value"), &x, NULL) &&
               dtype_arg(z, arg(e, 2, "dtype")) && fill(z, x);
    case KJ_B_NP_ARANGE: return arange(z, e) && dtype_arg(z, arg(e, 3, "dtype"));
    case KJ_B_NP_LINSPACE: return linspace(z, e) && dtype_arg(z, arg(e, 4, "dtype"));
    default: return false;
    }
}

/* The elements in the array's dtype: NumPy's default (float64 when any
 * element is a float, else int64) unless dtype= named one. */
static kir_frozen *finish(frz *z, const char *name)
{
    kj_types *ty = z->s->types;
    if (!z->elem) z->elem = z->any_float || !z->any_int ? kj_t_float(ty, 64) : kj_t_int(ty, 64, true);
    if (z->elem->kind != KJ_T_FLOAT && z->elem->kind != KJ_T_INT && z->elem->kind != KJ_T_BOOL) return NULL;
    kir_frozen *fz = KJ_NEW(z->s->a, kir_frozen);
    fz->name = name;
    memcpy(fz->shape, z->shape, sizeof fz->shape);
    fz->ndim = z->nd;
    fz->n = z->n;
    if (z->elem->kind == KJ_T_FLOAT) {
        fz->f = z->v;
        return fz;
    }
    int64_t *iv = KJ_NEWN(z->s->a, int64_t, z->n ? z->n : 1);
    for (uint64_t k = 0; k < z->n; k++)
        iv[k] = z->elem->kind == KJ_T_BOOL ? z->v[k] != 0 : (int64_t)z->v[k]; /* C truncation, as NumPy casts */
    fz->i = iv;
    return fz;
}

static kir_frozen *freeze(kj_sema *s, const char *name, const kj_expr *v, const kj_type **elem)
{
    frz z = {.s = s};
    bool was = s->module_scope;
    s->module_scope = true; /* the binding is a module-level statement: its names are the module's */
    bool ok = construct(&z, v) && z.nd;
    s->module_scope = was;
    kir_frozen *fz = ok ? finish(&z, name) : NULL;
    *elem = z.elem;
    return fz;
}

/* A name the source does not bind, given by the host (kjit_compile_globals) */
static const kir_frozen *host_global(kj_sema *s, const char *name, const kj_type **elem)
{
    for (uint32_t k = 0; k < s->opt->nglobals; k++) {
        const kj_sema_global *g = &s->opt->globals[k];
        if (strcmp(g->fz.name, name)) continue;
        *elem = kj_scalar_by_name(s->types, g->dtype);
        return *elem ? &g->fz : NULL;
    }
    return NULL;
}

bool kj_frozen_is_host_global(const kj_sema *s, const char *name)
{
    for (uint32_t k = 0; k < s->opt->nglobals; k++)
        if (!strcmp(s->opt->globals[k].fz.name, name)) return true;
    return false;
}

bool kj_frozen_module_value(kj_sema *s, const char *name, const kj_expr *v)
{
    const kj_type *elem;
    return freeze(s, name, v, &elem) != NULL;
}

bool kj_frozen_ref(kj_sema *s, const kj_fn *reader, const kj_expr *e, kj_einfo *ei)
{
    /* a script's own statements keep their mutable array; in a file with
     * main every function reads the frozen one */
    if ((s->script && reader == s->script) || e->kind != KJ_E_NAME) return false;
    /* a script's host function is Python: it reads <module>'s own array
     * through its module slot (resolve_modslot.c), and may write it */
    if (s->script && reader->kind == FK_HELPER) return false;
    /* a name a function rebinds through global is no constant: a module slot */
    if (kj_host_rebinder(s, e->name)) return false;
    const kj_expr *v = kj_script_binding(s, e->name);
    const kj_type *elem = NULL;
    const kir_frozen *fz = v ? freeze(s, e->name, v, &elem) : host_global(s, e->name, &elem);
    if (!fz) return false;
    memset(ei, 0, sizeof *ei);
    ei->kind = EI_VALUE;
    ei->type = kj_t_array(s->types, elem, (int)fz->ndim, KJ_LAYOUT_C);
    ei->frozen = fz;
    return true;
}

/* a[i] = v or a[i] op= v on a frozen array: Numba's typing error */
bool kj_frozen_write_error(kj_sema *s, kj_diags *d, const kj_fn *writer, const kj_einfo *arr,
                           const kj_expr *target)
{
    if (!arr || !arr->frozen) return false;
    if (arr->frozen->slot && writer->kind == FK_HELPER) return false; /* Python: writes the module's array */
    const kj_type *t = arr->type;
    kj_diag *dg = kj_error(d, s->src, target->span,
                           "Cannot modify readonly array: '%s' is a module-level array, %s "
                           "code as Numba freezes globals (no setitem(readonly array(%s, %ud, %s), ...))",
                           arr->frozen->name, arr->frozen->slot ? "read-only in compiled" : "frozen into compiled",
                           kj_type_str(t->elem), (unsigned)t->ndim,
                           t->layout == KJ_LAYOUT_C ? "C" : t->layout == KJ_LAYOUT_F ? "F" : "A");
    kj_diag_hint(dg, "pass the array as an argument to modify it, or copy it first: a = %s.copy()",
                 arr->frozen->name);
    return true;
}
