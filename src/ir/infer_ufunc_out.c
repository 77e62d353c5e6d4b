/* SPDX-License-Identifier: BSD-2-Clause */
/* The output argument of NumPy's own ufuncs: np.add(a, b, c) (positional,
 * as Numba supports it: numba/np/npyimpl.py numpy_ufunc_kernel) and
 * np.add(a, b, out=c) (NumPy's keyword). The call is typed without its
 * output, as NumPy picks the loop from the inputs alone; the loop's result
 * must then cast into the output under casting='same_kind' (NumPy's
 * UFuncTypeError otherwise), with no more dimensions than the output. The
 * call's value is the output array itself. lower_ufunc_out.c lowers it as
 * the in-place store of the result into the output, so that fusion makes it
 * one loop writing the output, with NumPy's broadcast rule and messages
 * (rt_ufunc.c, tree '+') and inputs that overlap it read from a copy. */
#include "kir.h" /* kir_frozen */
#include "sema_int.h"

#include <string.h>

/* NumPy's single-output ufuncs that kjit computes (Numba's "Standard
 * ufuncs" list, numpysupported.rst), with their number of inputs. */
static const struct {
    const char *name;
    uint8_t nin;
} UFUNCS[] = {
    {"add", 2}, {"subtract", 2}, {"multiply", 2}, {"divide", 2}, {"logaddexp", 2}, {"logaddexp2", 2},
    {"true_divide", 2}, {"floor_divide", 2}, {"negative", 1}, {"positive", 1}, {"power", 2},
    {"float_power", 2}, {"remainder", 2}, {"mod", 2}, {"fmod", 2}, {"abs", 1}, {"absolute", 1}, {"fabs", 1},
    {"rint", 1}, {"sign", 1}, {"conj", 1}, {"conjugate", 1}, {"exp", 1}, {"exp2", 1}, {"log", 1}, {"log2", 1},
    {"log10", 1}, {"expm1", 1}, {"log1p", 1}, {"sqrt", 1}, {"square", 1}, {"cbrt", 1}, {"reciprocal", 1},
    {"gcd", 2}, {"lcm", 2}, {"sin", 1}, {"cos", 1}, {"tan", 1}, {"arcsin", 1}, {"arccos", 1}, {"arctan", 1},
    {"arctan2", 2}, {"hypot", 2}, {"sinh", 1}, {"cosh", 1}, {"tanh", 1}, {"arcsinh", 1}, {"arccosh", 1},
    {"arctanh", 1}, {"deg2rad", 1}, {"rad2deg", 1}, {"degrees", 1}, {"radians", 1}, {"bitwise_and", 2},
    {"bitwise_or", 2}, {"bitwise_xor", 2}, {"bitwise_not", 1}, {"invert", 1}, {"left_shift", 2},
    {"right_shift", 2}, {"greater", 2}, {"greater_equal", 2}, {"less", 2}, {"less_equal", 2},
    {"not_equal", 2}, {"equal", 2}, {"logical_and", 2}, {"logical_or", 2}, {"logical_xor", 2},
    {"logical_not", 1}, {"maximum", 2}, {"minimum", 2}, {"fmax", 2}, {"fmin", 2}, {"isfinite", 1},
    {"isinf", 1}, {"isnan", 1}, {"signbit", 1}, {"copysign", 2}, {"nextafter", 2}, {"ldexp", 2},
    {"floor", 1}, {"ceil", 1}, {"trunc", 1}, {"spacing", 1},
};

/* The ufunc a call's callee names as np.NAME (or a name imported from
 * numpy whose built-in is NumPy's own): its table index, or -1. A ufunc
 * that is also math's or Python's function (np.sin is math.sin's built-in)
 * counts only when spelled np.NAME, so math.sin(x, y) stays an error. */
static int ufunc_of(kj_ictx *ic, const kj_expr *callee, int b)
{
    const char *name = NULL;
    if (callee->kind == KJ_E_ATTR) {
        kj_einfo m;
        if (!kj_static_ref(ic->s, callee->attr.obj, &m, false) || m.kind != EI_MODULE || !m.path ||
            strcmp(m.path, "np"))
            return -1;
        name = callee->attr.name;
    } else if (callee->kind == KJ_E_NAME) {
        const char *path = kj_builtin_get((kj_builtin)b)->path;
        if (strncmp(path, "np.", 3)) return -1;
        name = path + 3;
    }
    if (!name) return -1;
    for (int i = 0; i < (int)(sizeof UFUNCS / sizeof UFUNCS[0]); i++)
        if (!strcmp(UFUNCS[i].name, name)) return kj_builtin_lookup(kj_arena_printf(ic->s->a, "np.%s", name)) == b ? i : -1;
    return -1;
}

bool kj_ufunc_out_split(kj_ictx *ic, const kj_expr *e, int b, kj_barg *pos, uint32_t *np, const char **kwn,
                        kj_barg *kw, uint32_t *nk, kj_ufout **uo)
{
    *uo = NULL;
    int kwi = -1;
    for (uint32_t k = 0; k < *nk; k++)
        if (!strcmp(kwn[k], "out")) kwi = (int)k;
    int u = kwi >= 0 || *np > 1 ? ufunc_of(ic, e->call.fn, b) : -1;
    if (u < 0 || (kwi < 0 && *np != UFUNCS[u].nin + 1u)) return true;
    if (kwi >= 0 && *np > UFUNCS[u].nin) {
        kj_error(ic->d, ic->s->src, e->call.kw[kwi].span,
                 "cannot specify 'out' as both a positional and keyword argument");
        return false;
    }
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->span, "the output argument of np.%s is supported in host code and @jit "
                 "functions, not in device code", UFUNCS[u].name);
        return false;
    }
    kj_ufout *o = KJ_NEW(ic->s->a, kj_ufout);
    o->name = UFUNCS[u].name;
    o->kwidx = kwi;
    if (kwi < 0) {
        o->out = e->call.args[--*np];
        o->type = pos[*np].type;
    } else {
        o->out = e->call.kw[kwi].value;
        o->type = kw[kwi].type;
        for (uint32_t k = (uint32_t)kwi; k + 1 < *nk; k++) kwn[k] = kwn[k + 1], kw[k] = kw[k + 1];
        --*nk;
    }
    *uo = o;
    return true;
}

void kj_ufunc_out_fixmap(const kj_ufout *uo, int32_t *map, int nb)
{
    if (!uo || uo->kwidx < 0) return;
    for (int i = 0; i < nb; i++) /* keyword k of the shortened list is keyword k + 1 of the call */
        if (map[i] < 0 && map[i] != INT32_MIN && -1 - map[i] >= uo->kwidx) map[i]--;
}

/* NumPy's order of kinds for casting='same_kind' (np.can_cast): a cast may
 * go to an equal or later kind, never back; bool, unsigned, signed, float,
 * complex (unsigned into signed is allowed, signed into unsigned is not). */
static int kind_rank(const kj_type *t)
{
    switch (t->kind) {
    case KJ_T_BOOL: return 0;
    case KJ_T_INT: return t->is_signed ? 2 : 1;
    case KJ_T_FLOAT: return 3;
    default: return 4;
    }
}

/* An output that is a module-level array (or a view of one), frozen into
 * compiled code as Numba freezes globals: Numba's read-only refusal. Host
 * code may write a module array it computes (Python writes the module's). */
static bool read_only_out(kj_ictx *ic, const kj_ufout *uo)
{
    const kj_expr *x = uo->out;
    while (x->kind == KJ_E_SUBSCRIPT) x = x->sub.obj;
    const kj_einfo *ai = &ic->sp->ei[x->id];
    if (!ai->frozen || (ai->frozen->slot && ic->sp->fn->kind == FK_HELPER)) return false;
    kj_diag *dg = kj_error(ic->d, ic->s->src, uo->out->span,
                           "ufunc '%s' called with an explicit output that is read-only", uo->name);
    kj_diag_hint(dg, "'%s' is a module-level array, frozen into compiled code as Numba freezes globals: pass it "
                 "as an argument to write it, or write into a copy", ai->frozen->name);
    return true;
}

kj_einfo *kj_ufunc_out_finish(kj_ictx *ic, const kj_expr *e, const kj_ufout *uo, kj_einfo *ei)
{
    if (!uo || !ei->type) return ei;
    const kj_type *ot = uo->type, *r = ei->type;
    kj_span osp = uo->out->span;
    if (!ot || ot->kind != KJ_T_ARRAY) {
        if (ot)
            kj_error(ic->d, ic->s->src, osp, "ufunc '%s' called with an explicit output that is not an array",
                     uo->name);
        ei->type = NULL;
        return ei;
    }
    const kj_type *re = kj_strong(ic->s->types, r->kind == KJ_T_ARRAY ? r->elem : r);
    if (!kj_is_scalar(re) || !kj_is_scalar(ot->elem)) {
        kj_error(ic->d, ic->s->src, e->span, "ufunc '%s' cannot write %s into an array of %s", uo->name,
                 kj_type_str(r), kj_type_str(ot->elem));
        ei->type = NULL;
        return ei;
    }
    if (kind_rank(re) > kind_rank(ot->elem)) {
        kj_diag *dg = kj_ufunc_cast_error(ic, osp, uo->name, re, ot->elem);
        kj_diag_hint(dg, "pass an output array of dtype %s, or assign the result: o[...] = np.%s(...)",
                     kj_type_str(re), uo->name);
        ei->type = NULL;
        return ei;
    }
    if (r->kind == KJ_T_ARRAY && r->ndim > ot->ndim) {
        kj_error(ic->d, ic->s->src, osp, "non-broadcastable output operand: the result of np.%s has %d "
                 "dimensions, the output %d", uo->name, r->ndim, ot->ndim);
        ei->type = NULL;
        return ei;
    }
    if (read_only_out(ic, uo)) {
        ei->type = NULL;
        return ei;
    }
    kj_ufout *o = KJ_NEW(ic->s->a, kj_ufout);
    *o = *uo;
    o->res = r;
    o->res_const = ei->is_const;
    ei->ufout = o;
    ei->type = ot;
    ei->is_const = false; /* the value is the output array, whatever the inputs */
    return ei;
}
