/* SPDX-License-Identifier: BSD-2-Clause */
/* Queries the C API asks of a finished analysis: what a module-level name
 * is (which decides how kjit_call may call it) and the values of parameter
 * defaults (main's, for `kjit run name=value`). They read sema's resolved
 * symbols and constant evaluator, so the answers are exactly the ones the
 * type checker used. */
#include "sema_int.h"

#include <string.h>

static kj_sema_fn_kind public_kind(kj_fkind k)
{
    switch (k) {
    case FK_MAIN: return KJ_SEMA_FN_MAIN;
    case FK_HELPER: return KJ_SEMA_FN_HELPER;
    case FK_JIT: return KJ_SEMA_FN_JIT;
    case FK_KERNEL: return KJ_SEMA_FN_KERNEL;
    case FK_DEVICE: return KJ_SEMA_FN_DEVICE;
    case FK_VECTORIZE: return KJ_SEMA_FN_VECTORIZE;
    case FK_GUVECTORIZE: return KJ_SEMA_FN_GUVECTORIZE;
    case FK_REDUCE: return KJ_SEMA_FN_JIT;
    }
    return KJ_SEMA_FN_HELPER;
}

bool kj_sema_function(kj_sema *s, const char *name, kj_sema_fn_kind *kind, const kj_funcdef **def)
{
    kj_sym *sym = s && name ? kj_sym_find(s, name) : NULL;
    if (!sym || sym->kind != SYM_FUNC || sym->fn->bad) return false;
    *kind = public_kind(sym->fn->kind);
    *def = sym->fn->def;
    return true;
}

bool kj_sema_param_default(kj_sema *s, const kj_funcdef *def, uint32_t i, kj_sema_const *out)
{
    memset(out, 0, sizeof *out);
    if (!s || !def || i >= def->nparams || !def->params[i].def) return false;
    kj_cval cv;
    if (!kj_const_eval(s, def->params[i].def, &cv)) return false;
    switch (cv.type->kind) {
    case KJ_T_INT:
    case KJ_T_BOOL: out->i = cv.i; break;
    case KJ_T_FLOAT: out->f = cv.f; break;
    case KJ_T_STR: out->s = cv.s; break;
    default: return false; /* tuples and the like are no parameter values here */
    }
    out->type = cv.type;
    return true;
}

bool kj_sema_uses_mpi(kj_sema *s)
{
    for (uint32_t k = 0; s && k < s->syms.n; k++) {
        const kj_sym *sym = &s->syms.v[k];
        if (sym->kind == SYM_MODULE && (!strcmp(sym->path, "MPI") || !strcmp(sym->path, "mpi4py"))) return true;
    }
    return false;
}

bool kj_sema_has_kernels(kj_sema *s)
{
    for (uint32_t k = 0; s && k < s->syms.n; k++) {
        const kj_sym *sym = &s->syms.v[k];
        if (sym->kind != SYM_FUNC || sym->fn->bad) continue;
        if (sym->fn->kind == FK_KERNEL) return true;
        bool ufunc = sym->fn->kind == FK_VECTORIZE || sym->fn->kind == FK_GUVECTORIZE;
        if (ufunc && sym->fn->target == KJ_RUN_CUDA) return true;
    }
    return false;
}
