/* SPDX-License-Identifier: BSD-2-Clause */
/* KJIT_VALUE_FUNCTION (since 0.5): a @jit function passed as a value
 * (`apply(f, x)` called with f from the host). Numba types a dispatcher
 * argument as that very function and specialises on it; kjit types it as
 * the function (KJ_T_FUNC, as `g = add` in compiled code), a compile-time
 * constant with no run-time bits (its memory form is empty: values.c). The
 * function must be of the callee's own module: the specialisation calls it
 * directly. */
#include "api_int.h"

#include "ir/sema_int.h"

/* The sema function of v's kjit_fn, or NULL. Module lock held. */
static kj_fn *sema_fn(const kjit_value *v)
{
    const kjit_fn *g = v->v.fn;
    kj_sym *sym = g && g->m->sema ? kj_sym_find(g->m->sema, g->name) : NULL;
    return sym && sym->kind == SYM_FUNC ? sym->fn : NULL;
}

int kj_api_function_check(const kjit_fn *callee, const kjit_value *v, int k, kjit_error *err)
{
    const kjit_fn *g = v->v.fn;
    if (!g) return kj_api_usage(err, "argument %d: function is NULL", k + 1);
    if (callee->kind == KJIT_FN_KERNEL) /* as numba-cuda: a kernel takes no function arguments */
        return kj_api_usage(err, "argument %d: kernel '%s' cannot take a function as an argument", k + 1,
                            callee->name);
    if (g->m != callee->m)
        return kj_api_usage(err, "argument %d: '%s' is a function of another module than '%s' (a function "
                            "value must be of the callee's module)", k + 1, g->name, callee->name);
    if (g->kind == KJIT_FN_KERNEL || g->kind == KJIT_FN_MAIN)
        return kj_api_usage(err, "argument %d: '%s' cannot be passed as a value (a kernel or main)", k + 1,
                            g->name);
    return KJIT_OK;
}

const kj_type *kj_api_function_type(kj_types *t, const kjit_value *v)
{
    kj_fn *fn = sema_fn(v);
    return fn ? kj_t_func(t, fn, -1, fn->def->name) : kj_t_none(t);
}
