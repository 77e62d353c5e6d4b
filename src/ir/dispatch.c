/* SPDX-License-Identifier: BSD-2-Clause */
/* Choosing among a function's explicit signatures, as Numba's dispatcher
 * does (numba/core/typeconv: rules.py, typeconv.cpp's selectOverload).
 *
 * Each argument's conversion to a candidate's parameter is exact, a
 * promotion, a safe or an unsafe conversion (or impossible). A candidate's
 * rating counts them; the best rating wins, compared by unsafe, then safe,
 * then promote counts. Two best candidates with the same rating are an
 * ambiguity, an error as in Numba. A function with explicit signatures is not
 * compiled again for other types, so unsafe conversions are allowed (Numba's
 * allow_unsafe = !can_compile). @vectorize and @guvectorize are NumPy ufuncs
 * and pick their loops by NumPy's rules instead (infer_call.c). */

#include "sema_int.h"

#include <stdlib.h>
#include <string.h>

/* Numba's conversion between two scalar types: the rules of
 * numba/core/typeconv/rules.py closed under composition (the worse kind of
 * the two steps), checked against Numba 0.56's default_type_manager. */
static kj_conv scalar_conv(const kj_type *from, const kj_type *to)
{
    if (from == to) return KJ_CONV_EXACT;
    if (from->kind == KJ_T_BOOL) return KJ_CONV_SAFE;
    if (to->kind == KJ_T_BOOL) return KJ_CONV_UNSAFE;
    if (from->kind == KJ_T_FLOAT)
        return to->kind == KJ_T_FLOAT && to->bits > from->bits ? KJ_CONV_PROMOTE : KJ_CONV_UNSAFE;
    if (to->kind == KJ_T_FLOAT) { /* float64 holds every int; float32 int8, int16 and uint8 */
        bool fits = to->bits == 64 || from->bits <= (from->is_signed ? 16 : 8);
        return fits ? KJ_CONV_SAFE : KJ_CONV_UNSAFE;
    }
    if (from->is_signed == to->is_signed)
        return to->bits > from->bits ? KJ_CONV_PROMOTE : KJ_CONV_UNSAFE;
    /* uint8 → int16 is safe; int → uint never is */
    return !from->is_signed && to->bits > from->bits ? KJ_CONV_SAFE : KJ_CONV_UNSAFE;
}

kj_conv kj_numba_conv(const kj_type *from, const kj_type *to)
{
    if (!from || !to) return KJ_CONV_NONE;
    if (from == to) return KJ_CONV_EXACT;
    if (kj_is_scalar(from) && kj_is_scalar(to)) return scalar_conv(from, to);
    if (from->kind != to->kind) return KJ_CONV_NONE;
    if (from->kind == KJ_T_ARRAY) /* Array.can_convert_to: a layout to 'A' only */
        return from->elem == to->elem && from->ndim == to->ndim &&
                       (to->layout == KJ_LAYOUT_A || from->layout == to->layout)
                   ? KJ_CONV_SAFE
                   : KJ_CONV_NONE;
    if (from->kind == KJ_T_TUPLE && from->n == to->n) { /* the worst of the elements */
        kj_conv worst = KJ_CONV_EXACT;
        for (uint32_t i = 0; i < from->n; i++) {
            kj_conv c = kj_numba_conv(from->elems[i], to->elems[i]);
            if (c > worst) worst = c;
        }
        return worst;
    }
    return KJ_CONV_NONE;
}

typedef struct rating {
    uint32_t unsafe, safe, promote;
} rating;

static int rating_cmp(rating a, rating b)
{
    if (a.unsafe != b.unsafe) return a.unsafe < b.unsafe ? -1 : 1;
    if (a.safe != b.safe) return a.safe < b.safe ? -1 : 1;
    if (a.promote != b.promote) return a.promote < b.promote ? -1 : 1;
    return 0;
}

/* The rating of `sig` for `args`, false when an argument cannot convert. */
static bool rate(kj_types *t, const kj_sig *sig, const kj_type *const *args, uint32_t n, rating *out)
{
    *out = (rating){0, 0, 0};
    if (sig->nparams != n) return false;
    for (uint32_t i = 0; i < n; i++) {
        /* a literal is typed as Python's value would be: int64, float64 */
        switch (kj_numba_conv(kj_strong(t, args[i]), sig->params[i])) {
        case KJ_CONV_EXACT: break;
        case KJ_CONV_PROMOTE: out->promote++; break;
        case KJ_CONV_SAFE: out->safe++; break;
        case KJ_CONV_UNSAFE: out->unsafe++; break;
        case KJ_CONV_NONE: return false;
        }
    }
    return true;
}

/* A signature listed twice is one overload (Numba keys them by argument
 * types): not an ambiguity. Types are interned. */
static bool same_params(const kj_sig *a, const kj_sig *b)
{
    if (a->nparams != b->nparams) return false;
    for (uint32_t i = 0; i < a->nparams; i++)
        if (a->params[i] != b->params[i]) return false;
    return true;
}

kj_dispatch kj_dispatch_sig(kj_types *t, const kj_fn *fn, const kj_type *const *args, uint32_t n)
{
    kj_dispatch r = {NULL, NULL};
    rating best = {0, 0, 0};
    for (uint32_t s = 0; s < fn->nsigs; s++) {
        rating cur;
        if (!rate(t, &fn->sigs[s], args, n, &cur)) continue;
        int c = r.sig ? rating_cmp(cur, best) : -1;
        if (c < 0) {
            r = (kj_dispatch){&fn->sigs[s], NULL};
            best = cur;
        } else if (c == 0 && !r.tie && !same_params(r.sig, &fn->sigs[s])) {
            r.tie = &fn->sigs[s];
        }
    }
    return r;
}

static void types_str(kj_buf *b, const kj_type *const *ts, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) kj_buf_printf(b, "%s%s", i ? ", " : "", kj_type_str(ts[i]));
}

static void sig_str(kj_buf *b, const kj_sig *sig)
{
    kj_buf_printf(b, "(");
    types_str(b, sig->params, sig->nparams);
    kj_buf_printf(b, ") -> %s", sig->ret ? kj_type_str(sig->ret) : "?");
}

void kj_dispatch_error(kj_diags *d, const kj_source *src, kj_span sp, kj_types *t, const kj_fn *fn,
                       const kj_type *const *args, uint32_t n, kj_dispatch r)
{
    kj_buf a = {0}, c = {0};
    const kj_type **strong = n ? malloc(n * sizeof *strong) : NULL;
    if (n && !strong) abort();
    for (uint32_t i = 0; i < n; i++) strong[i] = kj_strong(t, args[i]);
    types_str(&a, strong, n);
    free(strong);
    kj_diag *dg;
    if (r.tie) {
        sig_str(&c, r.sig);
        kj_buf_printf(&c, " and ");
        sig_str(&c, r.tie);
        dg = kj_error(d, src, sp, "Ambiguous overloading for '%s' (%s): %s convert equally well",
                      fn->def->name, a.s ? a.s : "", c.s);
        kj_diag_hint(dg, "add a signature that matches exactly, or convert the arguments");
    } else {
        for (uint32_t s = 0; s < fn->nsigs; s++) {
            if (s) kj_buf_printf(&c, "; ");
            sig_str(&c, &fn->sigs[s]);
        }
        dg = kj_error(d, src, sp, "No matching definition for argument type(s) %s of '%s'",
                      a.s ? a.s : "()", fn->def->name);
        kj_diag_hint(dg, "its signature%s: %s", fn->nsigs == 1 ? " is" : "s are", c.s ? c.s : "");
    }
    kj_buf_free(&a);
    kj_buf_free(&c);
}
