/* SPDX-License-Identifier: BSD-2-Clause */
/* Generators across kjit_call (KJIT_VALUE_GENERATOR, include/kjit.h).
 *
 * Calling a generator function makes its coroutine frame (runtime/pygen.c)
 * and runs none of its body; each kjit_generator_next resumes it. The frame,
 * and whatever the body makes and keeps across yields (arrays, strings,
 * the generators it makes), live in the run context, which releases them
 * when its outermost entry call returns. So a generator that kjit_call
 * returns owns a run of its own: the call runs in it, held one level deep so
 * that no entry call is the outermost, and it is disposed of when the
 * generator is released. The arguments' arrays get a reference each and the
 * arguments' strings a copy in that run: the frame holds them.
 *
 * Resuming needs compiled code (the handle is an LLVM coroutine's; its
 * resume function has LLVM's own calling convention): a small KIR function
 * per generator type, made at the specialisation that returns it,
 *     next(g: generator(T)) -> T:  GEN_NEXT g, else StopIteration; GEN_VALUE g
 * which is what `next(g)` lowers to (lower_pygen.c). Its StopIteration is
 * the end of the iteration. */
#include "api_int.h"

#include "runtime/fault.h"
#include "runtime/rt.h"
#include "runtime/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kjit_generator {
    kj_rt *rt;            /* the generator's own run */
    const kj_type *type;  /* generator(T) */
    kj_entry_fn next;     /* the next() entry above */
    void *hdl;            /* the coroutine's handle: the generator value's memory form */
    bool done;            /* exhausted or raised: Python's generators then stay done */
};

/* ---- the next() function ---- */

static kj_entry_fn next_entry(kjit_module *m, const kj_type *gt, kjit_error *err)
{
    kj_arena *a = &m->arena;
    uint32_t before = m->kir->nfuncs;
    const char *mangled = kj_arena_printf(a, "kjit.next[%s]", kj_type_str(gt));
    kir_func *f = kir_module_find(m->kir, mangled);
    kj_diags d = {0};
    if (!f) {
        f = kir_func_new(a, m->kir, "next", mangled, KIR_FN_HOST);
        f->params = KJ_NEWN(a, const kj_type *, 1);
        f->params[0] = gt;
        f->param_names = KJ_NEWN(a, const char *, 1);
        f->param_names[0] = "g";
        f->nparams = 1;
        f->ret = gt->elem;
        f->py_errors = true;
        kj_span sp = {0};
        kir_ref p = kir_emit(a, f, 0, KIR_PARAM, gt, sp);
        kir_at(f, p)->i = 0;
        kir_ref ok = kir_emit(a, f, 0, KIR_GEN_NEXT, kj_t_bool(m->types), sp);
        kir_at(f, ok)->a = p;
        kir_ref as = kir_emit(a, f, 0, KIR_ASSERT, kj_t_none(m->types), sp);
        kir_at(f, as)->a = ok;
        kir_at(f, as)->aux = (uint16_t)(KIR_ASSERT_RAISE + KJ_RT_STOP_ITERATION); /* kj_exc_class's kind */
        kir_ref v = kir_emit(a, f, 0, KIR_GEN_VALUE, gt->elem, sp);
        kir_at(f, v)->a = p;
        kir_ref r = kir_emit(a, f, 0, KIR_RETURN, kj_t_none(m->types), sp);
        kir_at(f, r)->a = v;
        kj_pipeline_opts po = {.first = before, .spec = f};
        if (!kj_pipeline(m, KJ_STAGE_FUSE, &po, &d, NULL)) f = NULL;
    }
    kj_entry_fn e = f ? kj_api_entry(m, f, &d) : NULL;
    if (!e) {
        if (kj_has_errors(&d)) kj_api_error_from_diags(err, KJIT_ERR_COMPILE, &d, m->src.path);
        else kj_api_set_error(err, KJIT_ERR_COMPILE, NULL, "cannot compile next() of %s", kj_type_str(gt));
    }
    kj_diags_free(&d);
    return e;
}

bool kj_api_gen_spec(kjit_module *m, const char *name, kj_api_spec *s, kjit_error *err)
{
    if (s->kf->ret->kind != KJ_T_GENERATOR) return true;
    if (s->has_dict) { /* values_dict.c's trampoline would not run: the frame would read a kjit_dict */
        kj_api_usage(err, "'%s' returns a generator: it cannot take a dict through kjit_call yet", name);
        return false;
    }
    return (s->gen_next = next_entry(m, s->kf->ret, err)) != NULL;
}

/* ---- making one ---- */

/* What the frame may hold of an argument of type t at mem: arrays get a
 * reference in the run, strings a copy there (the caller's are borrowed). */
static void hold_arg(kj_rt *rt, const kj_type *t, char *mem)
{
    if (t->kind == KJ_T_ARRAY) {
        kj_abi_array d;
        memcpy(&d, mem, kj_abi_array_bytes(t->ndim));
        kj_array *owner = kj_abi_array_owner(&d, t->ndim);
        if (owner) kj_rt_own(rt, kj_array_retain(owner));
    } else if (t->kind == KJ_T_STR) {
        const char *s;
        memcpy(&s, mem, sizeof s);
        char *copy = kj_rt_str_own_n(rt, s ? s : "", s ? strlen(s) : 0);
        memcpy(mem, &copy, sizeof copy);
    } else if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++) hold_arg(rt, t->elems[k], mem + kj_api_item_offset(t, k));
    }
}

static kj_rt *new_run(kjit_module *m)
{
    kj_rt *rt = malloc(sizeof *rt);
    if (!rt) abort(); /* out of memory: the one failure that is not a value */
    kj_rt_init(rt, m->src.path);
    if (m->out) rt->out = m->out;
    rt->gpu = m->gpu;
    rt->mpi = m->mpi;
    rt->pool = m->pool;
    rt->sink = &m->events.sink;
    rt->code = m->gpu_code;
    rt->depth = 1; /* held: no entry call is the outermost, so none releases the run (kjit_value_release does) */
    return rt;
}

static void free_run(kj_rt *rt)
{
    rt->depth = 0;
    kj_rt_dispose(rt);
    if (rt->out) fflush(rt->out);
    free(rt);
}

static int failed(const kj_rt *rt, kjit_error *err)
{
    const char *name = kj_rt_kind_name(rt->kind);
    if (rt->message[0]) kj_api_set_error(err, KJIT_ERR_RUNTIME, rt->file, "%s: %s", name, rt->message);
    else kj_api_set_error(err, KJIT_ERR_RUNTIME, rt->file, "%s", name);
    if (err) {
        err->line = rt->line;
        err->col = rt->col;
    }
    return KJIT_ERR_RUNTIME;
}

int kj_api_call_gen(kjit_module *m, const kj_api_spec *sp, void **argv, void *ret, kjit_value *result,
                    kjit_error *err)
{
    kj_rt *rt = new_run(m);
    rt->fn_name = sp->kf->name;
    for (uint32_t k = 0; k < sp->kf->nparams; k++) hold_arg(rt, sp->kf->params[k], argv[k]);
    kj_rt *outer = kj_fault_enter(rt); /* what kj_rt_call_entry does for a run's outermost call */
    kj_rt_kind kind = kj_rt_call_entry(rt, sp->entry, argv, ret);
    kj_fault_leave(outer);
    if (rt->out) fflush(rt->out);
    if (kind != KJ_RT_OK) {
        int rc = failed(rt, err);
        free_run(rt);
        return rc;
    }
    kjit_generator *g = calloc(1, sizeof *g);
    if (!g) abort();
    *g = (kjit_generator){rt, sp->kf->ret, sp->gen_next, NULL, false};
    memcpy(&g->hdl, ret, sizeof g->hdl);
    kjit_value r = {KJIT_VALUE_GENERATOR, KJIT_BOOL, {0}};
    r.v.g = g;
    if (result) *result = r;
    else kjit_generator_free(g);
    kj_api_clear_error(err);
    return KJIT_OK;
}

/* ---- using one ---- */

int kjit_generator_next(kjit_value *gen, kjit_value *out, bool *done, kjit_error *err)
{
    if (out) *out = (kjit_value){0};
    if (done) *done = true;
    if (!gen || gen->kind != KJIT_VALUE_GENERATOR || !gen->v.g)
        return kj_api_usage(err, "kjit_generator_next: not a generator value");
    kjit_generator *g = gen->v.g;
    if (g->done) {
        kj_api_clear_error(err);
        return KJIT_OK;
    }
    const kj_type *yt = g->type->elem;
    _Alignas(16) char small[256];
    size_t bytes = kj_api_mem_size(yt) + 1;
    char *ret = bytes <= sizeof small ? small : calloc(1, bytes);
    if (!ret) abort();
    memset(ret, 0, bytes < sizeof small ? bytes : sizeof small);
    void *argv[1] = {&g->hdl};
    kj_rt *outer = kj_fault_enter(g->rt);
    kj_rt_kind kind = kj_rt_call_entry(g->rt, g->next, argv, ret);
    kj_fault_leave(outer);
    if (g->rt->out) fflush(g->rt->out);
    int rc = KJIT_OK;
    if (kind == KJ_RT_OK) {
        kj_api_result_own(yt, ret); /* strings: copies the value owns (the run keeps its own) */
        kjit_value v = kj_api_from_mem(yt, ret);
        if (out) *out = v;
        else kjit_value_release(&v);
        if (done) *done = false;
        kj_api_clear_error(err);
    } else {
        g->done = true; /* the end, or an exception out of the body: done either way, as in Python */
        if (kind == KJ_RT_STOP_ITERATION) kj_api_clear_error(err);
        else rc = failed(g->rt, err);
    }
    if (ret != small) free(ret);
    return rc;
}

void kjit_generator_free(kjit_generator *g)
{
    if (!g) return;
    free_run(g->rt);
    free(g);
}
