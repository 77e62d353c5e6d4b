/* SPDX-License-Identifier: BSD-2-Clause */
/* Prepared launches (kjit_launch_prepare / kjit_launch_prepared): the
 * specialisation, the arguments' memory and, on the GPU, the kernel's entry
 * and the argument slots cuLaunchKernel reads (kj_gpu_plan) are found and
 * built once. A launch then checks that each argument is of the kind,
 * dtype, rank and contiguity the plan was made for (comparisons with what
 * the plan recorded: no type is looked at), writes the arrays' descriptors
 * and the scalars in place, and launches: no lock, no allocation, no
 * hashing, no kj_rt context. On the cpu targets, and while the context's
 * on_event asks for each kernel's time, the rewritten arguments go through
 * kjit_launch's own path (kj_api_launch_run).
 *
 * kjit_launch itself keeps a plan per kernel, made after its first launch
 * for that launch's argument types: a later launch with arguments of those
 * types goes through it (no interning of types, no kj_rt context), any
 * other through the full path. */
#include "api_int.h"

#include "abi/abi.h"
#include "runtime/gpu.h"
#include "runtime/rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef kj_api_plan_arg plan_arg;

struct kjit_launch_plan {
    kjit_fn *f;
    kj_api_spec sp;
    plan_arg *arg;
    void **argv; /* argument k's memory form, in mem */
    char *mem;
    kj_gpu_plan *gpu; /* NULL on the cpu targets */
};


/* The contiguity that code compiled for parameter type t assumes. */
static unsigned layout_flags(const kj_type *t)
{
    if (t->kind != KJ_T_ARRAY) return 0;
    return t->layout == KJ_LAYOUT_C ? KJ_ARR_C_CONTIGUOUS : t->layout == KJ_LAYOUT_F ? KJ_ARR_F_CONTIGUOUS : 0;
}

plan_arg kj_api_plan_arg_of(const kj_type *param, const kjit_value *v)
{
    plan_arg a = {.kind = v->kind, .dtype = v->dtype, .ndim = -1};
    if (v->kind == KJIT_VALUE_RNG || v->kind == KJIT_VALUE_RECORD ||
        (v->kind == KJIT_VALUE_ARRAY && kj_api_arr(v->v.a)->rec)) /* written by kj_api_to_mem, which checks */
        a.param = param;
    if (v->kind == KJIT_VALUE_ARRAY) {
        const kj_array *x = kj_api_arr(v->v.a);
        a.elem = x->dtype;
        a.ndim = x->ndim;
        a.flags = layout_flags(param);
    } else {
        a.store = kj_api_type_dtype(param);
    }
    kj_api_cplx_plan_arg(&a, param, v);
    return a;
}

void kjit_launch_plan_free(kjit_launch_plan *p)
{
    if (!p) return;
    kj_gpu_plan_free(p->gpu);
    free(p->arg);
    free(p->argv);
    free(p->mem);
    free(p);
}

kjit_launch_plan *kjit_launch_prepare(kjit_fn *f, const kjit_value *args, int nargs, kjit_error *err)
{
    kj_api_spec sp;
    if (args && kj_api_has_tuple_arg(args, nargs)) { /* their leaves: kjit_launch (launch_tuple.c) */
        kj_api_usage(err, "'%s': a prepared launch takes numbers, bools and arrays (launch tuples with kjit_launch)",
                     f ? f->name : "?");
        return NULL;
    }
    if (kj_api_launch_spec(f, args, nargs, &sp, err)) return NULL;
    kjit_launch_plan *p = calloc(1, sizeof *p);
    uint32_t n = sp.nargs;
    size_t bytes = kj_api_args_bytes(&sp);
    if (!p || !(p->arg = calloc(n + 1, sizeof *p->arg)) || !(p->argv = calloc(n + 1, sizeof *p->argv)) ||
        !(p->mem = aligned_alloc(16, (bytes + 16) & ~(size_t)15)))
        abort();
    memset(p->mem, 0, bytes);
    p->f = f;
    p->sp = sp;
    for (uint32_t k = 0; k < n; k++) p->arg[k] = kj_api_plan_arg_of(sp.kf->params[k], &args[k]);
    /* the slots point into mem: marshalled once here, rewritten per launch */
    int rc = kj_api_marshal_all(&p->sp, args, p->argv, p->mem, err);
    kj_rt_error e = {0};
    if (!rc && f->m->gpu && !(p->gpu = kj_gpu_plan_new(f->m->gpu, p->sp.code, &p->sp.kernel, p->argv, &e))) {
        kj_api_set_error(err, KJIT_ERR_RUNTIME, f->m->src.path, "%s: %s", e.exc ? e.exc : "RuntimeError",
                         e.message);
        rc = KJIT_ERR_RUNTIME;
    }
    if (rc) {
        kjit_launch_plan_free(p);
        return NULL;
    }
    kj_api_clear_error(err);
    return p;
}

/* Argument v as plan_arg a: checked, then written into its memory form. */
bool kj_api_plan_rewrite(const plan_arg *a, const kjit_value *v, void *out)
{
    if (v->kind != a->kind) return false;
    if (a->param) {
        const kj_array *r = v->kind == KJIT_VALUE_ARRAY ? kj_api_arr(v->v.a) : NULL;
        if (r && a->param->layout != KJ_LAYOUT_A && kj_api_rec_array_layout(r) != a->param->layout) return false;
        return kj_api_to_mem(a->param, v, out);
    }
    bool ok;
    if (kj_api_plan_special(a, v) && kj_api_cplx_plan_rewrite(a, v, out, &ok)) return ok;
    if (v->kind != KJIT_VALUE_ARRAY) {
        if (v->dtype != a->dtype) return false;
        kj_api_store_scalar(out, a->store, v);
        return true;
    }
    const kj_array *x = kj_api_arr(v->v.a);
    if (!x || x->dtype != a->elem || x->ndim != a->ndim || (x->flags & a->flags) != a->flags ||
        (x->dtype == KJ_DT_INT64 && x->api_time)) /* a datetime array, for a plan of int64 ones */
        return false;
    kj_abi_array_pack(out, a->ndim, x->data, x->shape, x->strides, kj_api_arr(v->v.a));
    return true;
}

/* The launch on the GPU through the plan's slots. */
static int launch_gpu(kjit_launch_plan *p, kjit_dim3 grid, kjit_dim3 block, kjit_error *err)
{
    int64_t cfg[8] = {grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, 0};
    kj_rt_error e;
    e.exc = NULL;
    e.message[0] = 0;
    int32_t line = 0, col = 0;
    if (kj_rt_launch_check(cfg, p->sp.kernel.name, &e) && kj_gpu_plan_launch(p->gpu, cfg, &e, &line, &col)) {
        kj_api_clear_error(err);
        return KJIT_OK;
    }
    kj_api_set_error(err, KJIT_ERR_RUNTIME, p->f->m->src.path, "%s: %s", e.exc ? e.exc : "RuntimeError", e.message);
    if (err) {
        err->line = line;
        err->col = col;
    }
    return KJIT_ERR_RUNTIME;
}

/* Write args into p's memory forms; false (k: the first that does not
 * fit) when one is not of the plan's type. */
static bool rewrite_all(kjit_launch_plan *p, const kjit_value *args, uint32_t *k)
{
    for (*k = 0; *k < p->sp.nargs; ++*k)
        if (!kj_api_plan_rewrite(&p->arg[*k], &args[*k], p->argv[*k])) return false;
    return true;
}

/* Launch p's rewritten arguments. */
static int launch_plan(kjit_launch_plan *p, kjit_dim3 grid, kjit_dim3 block, kjit_error *err)
{
    kjit_module *m = p->f->m;
    if (p->gpu && !kj_ev_on(&m->events.sink)) return launch_gpu(p, grid, block, err);
    return kj_api_launch_run(m, &p->sp, grid, block, p->argv, err);
}

int kjit_launch_prepared(kjit_launch_plan *p, kjit_dim3 grid, kjit_dim3 block, const kjit_value *args,
                         kjit_error *err)
{
    if (!p) return kj_api_usage(err, "kjit_launch_prepared: plan is NULL");
    if (p->sp.nargs > 0 && !args) return kj_api_usage(err, "kjit_launch_prepared: args is NULL");
    uint32_t k;
    if (!rewrite_all(p, args, &k))
        return kj_api_usage(err,
                     "argument %u of '%s': not of the type the launch was prepared for (prepare "
                     "another plan, or use kjit_launch)",
                     k + 1, p->f->name);
    return launch_plan(p, grid, block, err);
}

/* ---- kjit_launch's own plans ---- */

bool kj_api_launch_planned(kjit_fn *f, kjit_dim3 grid, kjit_dim3 block, const kjit_value *args, int nargs,
                           int *rc, kjit_error *err)
{
    if (!f || (nargs > 0 && !args)) return false;
    kjit_launch_plan *p = atomic_exchange_explicit(&f->plan, NULL, memory_order_acquire);
    if (!p) return false; /* none yet, or another thread's launch has it */
    uint32_t k;
    bool fits = (uint32_t)nargs == p->sp.nargs && rewrite_all(p, args, &k);
    if (fits) *rc = launch_plan(p, grid, block, err);
    kjit_launch_plan *other = atomic_exchange_explicit(&f->plan, p, memory_order_release);
    kjit_launch_plan_free(other); /* none: only one plan is ever made */
    return fits;
}

void kj_api_launch_plan_make(kjit_fn *f, const kjit_value *args, int nargs)
{
    if (atomic_exchange(&f->plan_made, true)) return;
    kjit_launch_plan *p = kjit_launch_prepare(f, args, nargs, NULL);
    if (p) atomic_store_explicit(&f->plan, p, memory_order_release);
}

void kj_api_launch_plans_free(kjit_module *m)
{
    for (uint32_t k = 0; k < m->fns.n; k++) kjit_launch_plan_free(atomic_exchange(&m->fns.v[k]->plan, NULL));
}
