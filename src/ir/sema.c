/* SPDX-License-Identifier: BSD-2-Clause */
/* Semantic analysis: the three stages in order, and run-time
 * specialisation for calls whose argument types are known only then. */
#include "sema_int.h"

#include <string.h>

kj_sema *kj_sema_new(const kj_module *m, const kj_sema_options *opt, kj_types *types, kj_arena *a)
{
    kj_sema *s = KJ_NEW(a, kj_sema);
    s->mod = m;
    s->src = m->src;
    s->types = types;
    s->a = a;
    s->opt = opt;
    s->mod_ei = KJ_NEWN(a, kj_einfo, m->nexprs + 1);
    return s;
}

kir_module *kj_sema_run(kj_sema *s, kj_diags *d)
{
    s->d = d;
    if (!kj_resolve(s)) return NULL;
    if (!kj_infer_all(s)) return NULL;
    if (!kj_ulog_check(s)) return NULL;
    kir_module *km = kir_module_new(s->a, s->src);
    s->kir = km; /* lowering adds functions of its own (NumPy's ufuncs' methods: lower_ufunc_meth.c) */
    if (!kj_lower_all(s, km)) return NULL;
    if (!kj_check_readonly(s, d)) return NULL; /* module arrays written by compiled code: kir_readonly.c */
    return km;
}

static kj_span no_span(void) { return (kj_span){0, 0, 0, 0}; }

kir_func *kj_sema_specialize(kj_sema *s, const char *name, const kj_type *const *args,
                             uint32_t nargs, kj_diags *d)
{
    s->d = d;
    kj_sym *sym = kj_sym_find(s, name);
    if (!s->kir || !sym || sym->kind != SYM_FUNC) {
        kj_error(d, s->src, no_span(), "no function named '%s'", name);
        return NULL;
    }
    kj_fn *fn = sym->fn;
    if (fn->bad) {
        kj_error(d, s->src, fn->def->name_span, "'%s' has an invalid decorator", name);
        return NULL;
    }
    if (nargs != fn->def->nparams) {
        kj_error(d, s->src, fn->def->name_span, "%s() takes %u argument%s but %u were given", name,
                 fn->def->nparams, fn->def->nparams == 1 ? "" : "s", nargs);
        return NULL;
    }
    if (fn->nsigs && fn->kind != FK_VECTORIZE && fn->kind != FK_GUVECTORIZE) {
        /* explicit signatures: the one Numba's dispatcher picks */
        kj_dispatch r = kj_dispatch_sig(s->types, fn, args, nargs);
        if (!r.sig || r.tie) {
            kj_dispatch_error(d, s->src, fn->def->name_span, s->types, fn, args, nargs, r);
            return NULL;
        }
        args = r.sig->params;
    } else if (fn->nsigs) {
        /* ufuncs: the first signature every argument casts to safely (NumPy's loop selection: a float64
         * takes a float64 loop listed after a float32 one), else the first they convert to */
        const kj_sig *sig = NULL;
        for (uint32_t k = 0; k < fn->nsigs && !sig; k++) {
            bool ok = true;
            for (uint32_t i = 0; i < nargs && ok; i++) ok = kj_can_cast_safe(args[i], fn->sigs[k].params[i]);
            if (ok) sig = &fn->sigs[k];
        }
        for (uint32_t k = 0; k < fn->nsigs && !sig; k++) {
            bool ok = true;
            for (uint32_t i = 0; i < nargs && ok; i++) ok = kj_can_convert(args[i], fn->sigs[k].params[i]);
            if (ok) sig = &fn->sigs[k];
        }
        if (!sig) {
            kj_error(d, s->src, fn->def->name_span, "no signature of '%s' matches the arguments", name);
            return NULL;
        }
        args = sig->params;
    }
    bool device = fn->kind == FK_KERNEL || fn->kind == FK_DEVICE || fn->kind == FK_VECTORIZE ||
                  fn->kind == FK_GUVECTORIZE;
    kj_spec *sp = kj_spec_get(s, fn, args, nargs, device, fn->def->name_span);
    if (sp->kir) return sp->kir;
    if (sp->state == SPEC_FAILED) {
        kj_error(d, s->src, fn->def->name_span,
                 "'%s' cannot be compiled for these argument types (reported before)", name);
        return NULL;
    }
    uint32_t before = d->nerrors;
    kj_infer_spec(s, sp);
    sp->reachable = true;
    kj_report_reachable(s);
    if (d->nerrors > before) {
        /* Whatever this attempt reached and did not lower stays unusable. */
        for (uint32_t i = 0; i < s->specs.n; i++)
            if (s->specs.v[i]->reported && !s->specs.v[i]->kir) s->specs.v[i]->state = SPEC_FAILED;
        return NULL;
    }
    kj_lower_all(s, s->kir);
    if (!kj_check_readonly(s, d)) return NULL;
    return sp->kir;
}
