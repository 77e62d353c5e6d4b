/* SPDX-License-Identifier: BSD-2-Clause */
/* The attributes of a @vectorize / @guvectorize function as NumPy's ufunc
 * (and Numba's DUFunc/GUFunc) has them: nin, nout, nargs, ntypes, types,
 * identity. All are compile-time constants here. */
#include "sema_int.h"

#include <string.h>

/* NumPy's type character of a scalar (np.dtype(t).char, on an LP64 machine:
 * int64 is 'l'); 0 for none. */
char kj_type_char(const kj_type *t)
{
    if (t && t->kind == KJ_T_ARRAY) t = t->elem;
    if (!t) return 0;
    switch (t->kind) {
    case KJ_T_BOOL: return '?';
    case KJ_T_FLOAT: return t->bits == 32 ? 'f' : 'd';
    case KJ_T_COMPLEX: return t->bits == 64 ? 'F' : 'D';
    case KJ_T_INT: {
        static const char s[] = "bhil", u[] = "BHIL";
        int k = t->bits == 8 ? 0 : t->bits == 16 ? 1 : t->bits == 32 ? 2 : 3;
        return t->is_signed ? s[k] : u[k];
    }
    default: return 0;
    }
}

/* 'dd->d' for float64(float64, float64); a gufunc's outputs are its
 * trailing parameters ('d->d' for void(float64[:], float64[:]), '(n)->()'). */
static const char *types_entry(kj_sema *s, const kj_fn *fn, const kj_sig *sig)
{
    uint32_t nin = fn->kind == FK_GUVECTORIZE ? fn->layout.nin : sig->nparams;
    char buf[64];
    size_t k = 0;
    for (uint32_t i = 0; i < sig->nparams && k + 4 < sizeof buf; i++) {
        if (i == nin) buf[k++] = '-', buf[k++] = '>';
        char c = kj_type_char(sig->params[i]);
        buf[k++] = c ? c : 'O';
    }
    if (fn->kind != FK_GUVECTORIZE && k + 4 < sizeof buf) {
        char c = kj_type_char(sig->ret);
        buf[k++] = '-', buf[k++] = '>', buf[k++] = c ? c : 'O';
    }
    buf[k] = 0;
    return kj_arena_printf(s->a, "%s", buf);
}

static void const_int(kj_sema *s, kj_cval *cv, int64_t v)
{
    memset(cv, 0, sizeof *cv);
    cv->type = kj_t_weak_int(s->types);
    cv->i = v;
}

/* .types as a tuple of strings (kjit has no lists: indexing, len() and
 * iteration read it as Numba's list; print shows parentheses). */
static const kj_type *types_tuple(kj_sema *s, const kj_fn *fn, kj_cval *cv, const char **dyn,
                                 uint32_t ndyn)
{
    uint32_t n = dyn ? ndyn : fn->nsigs;
    const kj_type **el = KJ_NEWN(s->a, const kj_type *, n + 1);
    memset(cv, 0, sizeof *cv);
    cv->elems = KJ_NEWN(s->a, kj_cval, n + 1);
    cv->n = n;
    for (uint32_t i = 0; i < n; i++) {
        el[i] = kj_t_str(s->types);
        memset(&cv->elems[i], 0, sizeof cv->elems[i]);
        cv->elems[i].type = el[i];
        cv->elems[i].s = dyn ? dyn[i] : types_entry(s, fn, &fn->sigs[i]);
    }
    /* Numba's .types is a list; a lazy ufunc's (dyn) is one here, a ufunc
     * with signatures keeps the constant tuple (indexing folds) */
    cv->type = dyn ? kj_t_list(s->types, kj_t_str(s->types)) : kj_t_tuple(s->types, el, n);
    return cv->type;
}

static const char *const UFUNC_ATTRS[] = {"nin", "nout", "nargs", "ntypes", "types", "identity"};

bool kj_is_ufunc_attr(const char *name)
{
    for (size_t i = 0; i < sizeof UFUNC_ATTRS / sizeof *UFUNC_ATTRS; i++)
        if (!strcmp(name, UFUNC_ATTRS[i])) return true;
    return false;
}

kj_einfo *kj_ufunc_attr(kj_ictx *ic, const kj_expr *e, kj_fn *fn, kj_einfo *ei)
{
    kj_sema *s = ic->s;
    const char *name = e->attr.name;
    if (fn->target == KJ_RUN_CUDA) {
        kj_diag *dg = kj_error(ic->d, s->src, e->attr.name_span, "a target='cuda' ufunc has no "
                               "attribute '%s'", name);
        kj_diag_hint(dg, "Numba's CUDA ufuncs are not NumPy ufuncs; only .reduce is theirs");
        return ei_value(ei, NULL);
    }
    bool gu = fn->kind == FK_GUVECTORIZE;
    int64_t nin = gu ? fn->layout.nin : fn->def->nparams, nout = gu ? fn->layout.nout : 1;
    kj_cval cv;
    const kj_type *t = kj_t_weak_int(s->types);
    if (!strcmp(name, "nin")) const_int(s, &cv, nin);
    else if (!strcmp(name, "nout")) const_int(s, &cv, nout);
    else if (!strcmp(name, "nargs")) const_int(s, &cv, nin + nout);
    else if (!strcmp(name, "identity")) {
        memset(&cv, 0, sizeof cv);
        const kir_identity *id = &fn->identity;
        t = !id->has ? kj_t_none(s->types) : id->integral ? t : kj_t_weak_float(s->types);
        cv.type = t;
        cv.i = id->i;
        cv.f = id->f;
    } else if (!fn->nsigs) { /* ntypes, types: the loops the calls before compiled */
        const char **dyn = NULL;
        int64_t nd = kj_ulog_read(ic, fn, e->span, &dyn);
        if (nd < 0) return ei_value(ei, NULL);
        if (!strcmp(name, "ntypes")) const_int(s, &cv, nd);
        else t = types_tuple(s, fn, &cv, dyn, (uint32_t)nd);
    } else if (!strcmp(name, "ntypes")) const_int(s, &cv, fn->nsigs);
    else t = types_tuple(s, fn, &cv, NULL, 0);
    ei_value(ei, t);
    ei->is_const = true;
    ei->cval = cv;
    ei->nonneg = t->kind == KJ_T_INT && cv.i >= 0;
    return ei;
}
