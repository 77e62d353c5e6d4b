/* SPDX-License-Identifier: BSD-2-Clause */
/* Prepared calls (kjit_call_prepare / kjit_call_prepared), as prepared
 * launches are for kernels (launch_plan.c): the specialisation and the
 * memory of the arguments and of the result are found and allocated once;
 * a call then checks each argument against what the plan recorded (kind,
 * dtype, rank, contiguity: no type is interned), writes it in place and
 * runs the entry. No lock, no allocation for scalar and array arguments and
 * scalar results. The Python package's dispatcher (python/kjit/_fast.c)
 * keeps one per argument-type key. */
#include "api_int.h"

#include <stdlib.h>
#include <string.h>

struct kjit_call_plan {
    kjit_fn *f;
    kj_api_spec sp;
    kj_api_plan_arg *arg;
    void **argv; /* argument k's memory form, in mem */
    char *mem;
    void *ret;   /* the result's memory form */
    size_t ret_bytes;
};

void kjit_call_plan_free(kjit_call_plan *p)
{
    if (!p) return;
    free(p->arg);
    free(p->argv);
    free(p->mem);
    free(p->ret);
    free(p);
}

/* Kinds a plan takes: scalars and arrays (strings, tuples, dtypes and functions: kjit_call). */
static int plannable(const kjit_fn *f, const kjit_value *args, int nargs, kjit_error *err)
{
    for (int k = 0; k < nargs; k++) {
        kjit_value_kind kd = args[k].kind;
        if (kd == KJIT_VALUE_STR || kd == KJIT_VALUE_TUPLE || kd == KJIT_VALUE_LIST || kd == KJIT_VALUE_SET ||
            kd == KJIT_VALUE_DTYPE || kd == KJIT_VALUE_FUNCTION || kd == KJIT_VALUE_DICT || kd == KJIT_VALUE_GENERATOR)
            return kj_api_usage(err, "argument %d of '%s': a prepared call takes numbers, bools and arrays "
                                "(call with kjit_call)", k + 1, f->name);
    }
    return KJIT_OK;
}

kjit_call_plan *kjit_call_prepare(kjit_fn *f, const kjit_value *args, int nargs, kjit_error *err)
{
    kj_api_spec sp;
    if (f && f->kind == KJIT_FN_KERNEL) {
        kj_api_usage(err, "'%s' is a CUDA kernel: prepare a launch (kjit_launch_prepare)", f->name);
        return NULL;
    }
    if ((f && args && plannable(f, args, nargs, err)) || kj_api_call_spec(f, args, nargs, &sp, err)) return NULL;
    if (sp.gen_next) { /* its arguments are held by the generator's run: the plan's reused wrappers cannot be */
        kj_api_usage(err, "'%s' returns a generator: call it with kjit_call", f->name);
        return NULL;
    }
    kjit_call_plan *p = calloc(1, sizeof *p);
    uint32_t n = sp.nargs;
    size_t bytes = kj_api_args_bytes(&sp);
    if (!p) abort();
    p->ret_bytes = kj_api_mem_size(sp.kf->ret) + 1;
    if (!(p->arg = calloc(n + 1, sizeof *p->arg)) || !(p->argv = calloc(n + 1, sizeof *p->argv)) ||
        !(p->mem = aligned_alloc(16, (bytes + 16) & ~(size_t)15)) ||
        !(p->ret = aligned_alloc(16, (p->ret_bytes + 15) & ~(size_t)15)))
        abort();
    memset(p->mem, 0, bytes);
    p->f = f;
    p->sp = sp;
    for (uint32_t k = 0; k < n; k++) p->arg[k] = kj_api_plan_arg_of(sp.kf->params[k], &args[k]);
    int rc = kj_api_marshal_all(&p->sp, args, p->argv, p->mem, err);
    if (rc) {
        kjit_call_plan_free(p);
        return NULL;
    }
    kj_api_clear_error(err);
    return p;
}

int kjit_call_prepared(kjit_call_plan *p, const kjit_value *args, kjit_value *result, kjit_error *err)
{
    if (result) *result = (kjit_value){0};
    if (!p) return kj_api_usage(err, "kjit_call_prepared: plan is NULL");
    if (p->sp.nargs > 0 && !args) return kj_api_usage(err, "kjit_call_prepared: args is NULL");
    for (uint32_t k = 0; k < p->sp.nargs; k++) {
        const kj_api_plan_arg *a = &p->arg[k];
        if (!kj_api_plan_rewrite(a, &args[k], p->argv[k]))
            return kj_api_usage(err,
                                "argument %u of '%s': not of the type the call was prepared for (prepare "
                                "another plan, or use kjit_call)",
                                k + 1, p->f->name);
    }
    memset(p->ret, 0, p->ret_bytes);
    return kj_api_call_entry(p->f->m, &p->sp, NULL, p->argv, p->ret, result, err);
}
