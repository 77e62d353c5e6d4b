/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's 1-D launch helper, kernel.forall(ntasks, tpb=0, stream=0,
 * sharedmem=0)(args) (numba/cuda/dispatcher.py, class ForAll): typed here as
 * a launch configuration (EI_LAUNCH with forall set), lowered by lower.c to
 * kernel[(ntasks + tpb - 1) // tpb, tpb, stream, sharedmem](args). */
#include "sema_int.h"

#include <string.h>

static const char *const FORALL_PARAM[KJ_FORALL__N] = {"ntasks", "tpb", "stream", "sharedmem"};

bool kj_forall_args(const kj_expr *call, const kj_expr *out[KJ_FORALL__N])
{
    for (int i = 0; i < KJ_FORALL__N; i++) out[i] = NULL;
    if (call->call.nargs > KJ_FORALL__N) return false;
    for (uint32_t i = 0; i < call->call.nargs; i++) out[i] = call->call.args[i];
    for (uint32_t k = 0; k < call->call.nkw; k++) {
        int i = 0;
        while (i < KJ_FORALL__N && strcmp(FORALL_PARAM[i], call->call.kw[k].name)) i++;
        if (i == KJ_FORALL__N || out[i]) return false;
        out[i] = call->call.kw[k].value;
    }
    return out[KJ_FORALL_NTASKS] != NULL;
}

/* Why kj_forall_args refused the call, located. */
static void forall_bind_error(kj_ictx *ic, const kj_expr *e)
{
    const kj_source *src = ic->s->src;
    if (e->call.nargs > KJ_FORALL__N) {
        kj_error(ic->d, src, e->span, "forall() takes at most 4 arguments (ntasks, tpb, stream, "
                 "sharedmem) but %u were given", e->call.nargs);
        return;
    }
    bool seen[KJ_FORALL__N] = {false};
    for (uint32_t i = 0; i < e->call.nargs; i++) seen[i] = true;
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        const kj_keyword *kw = &e->call.kw[k];
        int i = 0;
        while (i < KJ_FORALL__N && strcmp(FORALL_PARAM[i], kw->name)) i++;
        if (i == KJ_FORALL__N) {
            kj_error(ic->d, src, kw->span, "forall() got an unexpected keyword argument '%s'", kw->name);
            return;
        }
        if (seen[i]) {
            kj_error(ic->d, src, kw->span, "forall() got multiple values for argument '%s'", kw->name);
            return;
        }
        seen[i] = true;
    }
    kj_error(ic->d, src, e->span, "forall() missing 1 required positional argument: 'ntasks'");
}

static bool forall_int(kj_ictx *ic, const kj_expr *x, const char *what)
{
    const kj_type *t = kj_value_type(ic, x);
    if (!t) return false;
    if (t->kind == KJ_T_INT) return true;
    kj_error(ic->d, ic->s->src, x->span, "forall's %s must be an int, not %s", what, kj_type_str(t));
    return false;
}

kj_einfo *kj_type_forall_config(kj_ictx *ic, const kj_expr *e, kj_fn *fn)
{
    kj_einfo *ei = ei_reset(ic, e);
    const kj_expr *a[KJ_FORALL__N];
    if (!kj_forall_args(e, a)) {
        forall_bind_error(ic, e);
        return ei_value(ei, NULL);
    }
    bool ok = forall_int(ic, a[KJ_FORALL_NTASKS], "task count (ntasks)");
    if (a[KJ_FORALL_TPB]) ok = forall_int(ic, a[KJ_FORALL_TPB], "threads per block (tpb)") && ok;
    if (a[KJ_FORALL_SHAREDMEM])
        ok = forall_int(ic, a[KJ_FORALL_SHAREDMEM], "dynamic shared memory size (sharedmem)") && ok;
    if (a[KJ_FORALL_STREAM]) {
        const kj_type *t = kj_value_type(ic, a[KJ_FORALL_STREAM]);
        if (t && !(t->kind == KJ_T_OPAQUE && !strcmp(t->name, "stream")) && t->kind != KJ_T_INT &&
            t->kind != KJ_T_NONE) {
            kj_error(ic->d, ic->s->src, a[KJ_FORALL_STREAM]->span,
                     "the launch stream must be a cuda.stream(), not %s", kj_type_str(t));
            ok = false;
        }
        ok = ok && t;
    }
    if (!ok) return ei_value(ei, NULL);
    ei->kind = EI_LAUNCH;
    ei->fn = fn;
    ei->forall = true;
    return ei;
}

/* ---- forall needs a 1-D kernel ----
 *
 * forall launches a 1-D grid. Numba launches any kernel so (cuda.grid(2)
 * then reads y = 0); the issue asks kjit to refuse a kernel that indexes a
 * grid of more dimensions, since such a launch covers only its first row.
 * The kernel's own body is searched for cuda.grid(k) / cuda.gridsize(k)
 * with k >= 2 (device functions it calls are not). */

typedef struct {
    const kj_spec *sp;
    const kj_expr *found;
} nd_walk;

static void nd_expr(nd_walk *w, const kj_expr *e);

static void nd_exprs(nd_walk *w, kj_expr *const *v, uint32_t n)
{
    for (uint32_t i = 0; i < n && !w->found; i++) nd_expr(w, v[i]);
}

static bool is_nd_grid_call(const kj_spec *sp, const kj_expr *e)
{
    const kj_einfo *f = &sp->ei[e->call.fn->id];
    if (f->kind != EI_BUILTIN || (f->builtin != KJ_B_CUDA_GRID && f->builtin != KJ_B_CUDA_GRIDSIZE))
        return false;
    if (e->call.nargs < 1) return false;
    const kj_einfo *n = &sp->ei[e->call.args[0]->id];
    return n->is_const && n->cval.i >= 2;
}

static void nd_expr(nd_walk *w, const kj_expr *e)
{
    if (!e || w->found) return;
    switch (e->kind) {
    case KJ_E_CALL:
        if (is_nd_grid_call(w->sp, e)) {
            w->found = e;
            return;
        }
        nd_expr(w, e->call.fn);
        nd_exprs(w, e->call.args, e->call.nargs);
        for (uint32_t k = 0; k < e->call.nkw; k++) nd_expr(w, e->call.kw[k].value);
        break;
    case KJ_E_ATTR: nd_expr(w, e->attr.obj); break;
    case KJ_E_SUBSCRIPT: nd_expr(w, e->sub.obj); nd_expr(w, e->sub.index); break;
    case KJ_E_SLICE: nd_expr(w, e->slice.lo); nd_expr(w, e->slice.hi); nd_expr(w, e->slice.step); break;
    case KJ_E_TUPLE: case KJ_E_LIST: case KJ_E_DICT: case KJ_E_SET: nd_exprs(w, e->seq.v, e->seq.n); break;
    case KJ_E_BINOP: nd_expr(w, e->bin.l); nd_expr(w, e->bin.r); break;
    case KJ_E_UNARY: nd_expr(w, e->un.x); break;
    case KJ_E_BOOLOP: nd_expr(w, e->boolop.l); nd_expr(w, e->boolop.r); break;
    case KJ_E_COMPARE: nd_exprs(w, e->cmp.operands, e->cmp.n); break;
    case KJ_E_IFEXP: nd_expr(w, e->ifexp.cond); nd_expr(w, e->ifexp.then); nd_expr(w, e->ifexp.els); break;
    default: break;
    }
}

static void nd_block(nd_walk *w, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n && !w->found; i++) {
        const kj_stmt *st = b->v[i];
        switch (st->kind) {
        case KJ_S_EXPR: nd_expr(w, st->expr); break;
        case KJ_S_ASSIGN:
            nd_exprs(w, st->assign.targets, st->assign.ntargets);
            nd_expr(w, st->assign.value);
            break;
        case KJ_S_AUGASSIGN: nd_expr(w, st->aug.target); nd_expr(w, st->aug.value); break;
        case KJ_S_IF: nd_expr(w, st->if_.cond); nd_block(w, &st->if_.then); nd_block(w, &st->if_.els); break;
        case KJ_S_WHILE: nd_expr(w, st->while_.cond); nd_block(w, &st->while_.body); break;
        case KJ_S_WITH: nd_expr(w, st->with.ctx); nd_block(w, &st->with.body); break;
        case KJ_S_FOR: nd_expr(w, st->for_.iter); nd_block(w, &st->for_.body); break;
        case KJ_S_RETURN: case KJ_S_YIELD: nd_expr(w, st->ret.value); break;
        case KJ_S_ASSERT: nd_expr(w, st->assert_.cond); break;
        case KJ_S_TRY: nd_block(w, &st->try_.body); nd_block(w, &st->try_.clauses); break;
        case KJ_S_EXCEPT: nd_block(w, &st->except.body); break;
        default: break;
        }
    }
}

bool kj_forall_check_1d(kj_ictx *ic, const kj_expr *launch, const kj_spec *kernel)
{
    if (!kernel->ei) return true;
    nd_walk w = {kernel, NULL};
    nd_block(&w, &kernel->fn->def->body);
    if (!w.found) return true;
    kj_diag *dg = kj_error(ic->d, ic->s->src, launch->span,
                           "forall launches a 1-D grid, but kernel '%s' indexes a grid of more "
                           "dimensions (line %u)", kernel->fn->def->name, w.found->span.line);
    kj_diag_hint(dg, "launch it with %s[blocks, threads](...), blocks and threads as tuples",
                 kernel->fn->def->name);
    return false;
}

/* ---- cuda.reduce ----
 *
 * r = cuda.reduce(f) (or @cuda.reduce, cuda.Reduce): r(arr, size=None,
 * res=None, init=0, stream=0) folds f over arr[:size] from init, in arr's
 * dtype (numba/cuda/kernels/reduction.py). f is specialised for the host as
 * f(T, T); lower.c writes the loop. */

static const char *const CRED_PARAM[KJ_CRED__N] = {"arr", "size", "res", "init", "stream"};

/* Binds the call's arguments by name; NULL where absent. Returns the index
 * of the first that does not bind (KJ_CRED__N: all did; -1: too many). */
static int cred_bind(const kj_expr *call, const kj_expr *out[KJ_CRED__N])
{
    for (int i = 0; i < KJ_CRED__N; i++) out[i] = NULL;
    if (call->call.nargs > KJ_CRED__N) return -1;
    for (uint32_t i = 0; i < call->call.nargs; i++) out[i] = call->call.args[i];
    for (uint32_t k = 0; k < call->call.nkw; k++) {
        int i = 0;
        while (i < KJ_CRED__N && strcmp(CRED_PARAM[i], call->call.kw[k].name)) i++;
        if (i == KJ_CRED__N || out[i]) return (int)k;
        out[i] = call->call.kw[k].value;
    }
    return KJ_CRED__N;
}

bool kj_cuda_reduce_args(const kj_expr *call, const kj_expr *out[KJ_CRED__N])
{
    return cred_bind(call, out) == KJ_CRED__N && out[KJ_CRED_ARR];
}

static bool cred_bind_ok(kj_ictx *ic, const kj_expr *e, const char *name, const kj_expr *a[KJ_CRED__N])
{
    int r = cred_bind(e, a);
    if (r == -1) {
        kj_error(ic->d, ic->s->src, e->span, "%s() takes at most 5 arguments (arr, size, res, init, stream) "
                 "but %u were given", name, e->call.nargs);
        return false;
    }
    if (r < KJ_CRED__N) {
        const kj_keyword *kw = &e->call.kw[r];
        kj_error(ic->d, ic->s->src, kw->span, "%s() got an unexpected or repeated keyword argument '%s'", name,
                 kw->name);
        return false;
    }
    if (!a[KJ_CRED_ARR]) {
        kj_error(ic->d, ic->s->src, e->span, "%s() missing 1 required positional argument: 'arr'", name);
        return false;
    }
    return true;
}

/* The optional arguments: size an int, res an array, init a number, stream
 * a cuda.stream() or 0; None for any of them is as absent. */
static bool cred_optional(kj_ictx *ic, const kj_expr *const a[KJ_CRED__N])
{
    bool ok = true;
    for (int i = KJ_CRED_SIZE; i < KJ_CRED__N; i++) {
        if (!a[i]) continue;
        const kj_type *t = kj_value_type(ic, a[i]);
        if (!t) {
            ok = false;
            continue;
        }
        bool good = t->kind == KJ_T_NONE ||
                    (i == KJ_CRED_SIZE && t->kind == KJ_T_INT) ||
                    (i == KJ_CRED_RES && t->kind == KJ_T_ARRAY && t->ndim == 1) ||
                    (i == KJ_CRED_INIT && kj_is_scalar(t)) ||
                    (i == KJ_CRED_STREAM && (t->kind == KJ_T_INT ||
                                             (t->kind == KJ_T_OPAQUE && !strcmp(t->name, "stream"))));
        if (!good) {
            static const char *const want[KJ_CRED__N] = {"", "an int or None", "a 1-d array or None",
                                                         "a number", "a cuda.stream() or 0"};
            kj_error(ic->d, ic->s->src, a[i]->span, "the reduction's %s must be %s, not %s", CRED_PARAM[i],
                     want[i], kj_type_str(t));
            ok = false;
        }
    }
    return ok;
}

kj_einfo *kj_type_cuda_reduce_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn)
{
    const char *name = fn->def->name;
    const kj_expr *a[KJ_CRED__N];
    if (!cred_bind_ok(ic, e, name, a)) return ei_value(ei, NULL);
    const kj_type *at = kj_value_type(ic, a[KJ_CRED_ARR]);
    bool ok = cred_optional(ic, a);
    if (!at) return ei_value(ei, NULL);
    if (at->kind != KJ_T_ARRAY || at->ndim != 1) {
        kj_error(ic->d, ic->s->src, a[KJ_CRED_ARR]->span, "%s() reduces a 1-d array, not %s (Numba's "
                 "TypeError: only support 1D array)", name, kj_type_str(at));
        return ei_value(ei, NULL);
    }
    if (!ok) return ei_value(ei, NULL);
    const kj_type *args[2] = {at->elem, at->elem};
    kj_spec *callee = kj_specialise(ic, fn, args, false, e->span);
    if (!callee || !callee->ret) return ei_value(ei, NULL);
    if (!kj_is_scalar(callee->ret)) {
        kj_error(ic->d, ic->s->src, e->span, "the reduction '%s' must return a number, not %s", name,
                 kj_type_str(callee->ret));
        return ei_value(ei, NULL);
    }
    ei->callee = callee;
    const kj_expr *res = a[KJ_CRED_RES];
    bool has_res = res && ic->sp->ei[res->id].type && ic->sp->ei[res->id].type->kind == KJ_T_ARRAY;
    return ei_value(ei, has_res ? kj_t_none(ic->s->types) : at->elem);
}

/* ---- with: Numba's CUDA context managers ----
 *
 * `with s.auto_synchronize():` synchronizes s when the block ends;
 * `with cuda.pinned(a, ...):` page-locks the arrays for the block,
 * `with cuda.mapped(a, ...) as m:` maps them (m: the array, or the tuple of
 * them) and `with cuda.defer_cleanup():` defers freeing device memory:
 * kjit's arrays need none of it (docs/cuda.md), so the block just runs.
 * `with cuda.profiling():` starts and stops the profiler around it, `with
 * cuda.gpus[i]:` checks that device i is kjit's. Host code only. */

kj_with_kind kj_with_of(const kj_expr *ctx)
{
    if (ctx->kind == KJ_E_SUBSCRIPT && ctx->sub.obj->kind == KJ_E_ATTR && !strcmp(ctx->sub.obj->attr.name, "gpus"))
        return KJ_WITH_DEVICE;
    if (ctx->kind == KJ_E_CALL && ctx->call.nargs + ctx->call.nkw == 1 &&
        !strcmp(ctx->call.fn->kind == KJ_E_NAME ? ctx->call.fn->name
                : ctx->call.fn->kind == KJ_E_ATTR ? ctx->call.fn->attr.name : "", "parallel_chunksize"))
        return KJ_WITH_CHUNKSIZE;
    if (ctx->kind != KJ_E_CALL || ctx->call.fn->kind != KJ_E_ATTR || ctx->call.nkw) return KJ_WITH_BAD;
    const char *n = ctx->call.fn->attr.name;
    if (!strcmp(n, "auto_synchronize") && !ctx->call.nargs) return KJ_WITH_AUTO_SYNC;
    if (!strcmp(n, "pinned")) return KJ_WITH_PINNED; /* kjit pins and maps itself */
    if (!strcmp(n, "mapped") && ctx->call.nargs) return KJ_WITH_MAPPED;
    if (!strcmp(n, "defer_cleanup") && !ctx->call.nargs) return KJ_WITH_DEFER_CLEANUP;
    if (!strcmp(n, "profiling") && !ctx->call.nargs) return KJ_WITH_PROFILING;
    return KJ_WITH_BAD;
}

static bool cuda_module(kj_ictx *ic, const kj_expr *obj)
{
    kj_einfo *m = kj_type_expr(ic, obj);
    return m->kind == EI_MODULE && !strcmp(m->path, "cuda");
}

/* cuda.gpus[i]: i an int; the device, as `as` binds it. */
static const kj_type *with_device(kj_ictx *ic, const kj_expr *ctx)
{
    const kj_type *g = kj_value_type(ic, ctx->sub.obj), *i = kj_value_type(ic, ctx->sub.index);
    if (!g || g->kind != KJ_T_OPAQUE || strcmp(g->name, "gpus")) return NULL;
    if (i && !kj_is_int(i)) {
        kj_error(ic->d, ic->s->src, ctx->sub.index->span, "cuda.gpus[] takes a device number, not %s",
                 kj_type_str(i));
        return kj_t_none(ic->s->types); /* reported */
    }
    return kj_t_opaque(ic->s->types, "device");
}

/* cuda.gpus[i] as a value (numba-cuda's _DeviceContextManager of device i): the device, as in `with`. */
const kj_type *kj_type_gpus_item(kj_ictx *ic, const kj_expr *e) { return with_device(ic, e); }

/* The arrays of cuda.pinned(...) / cuda.mapped(...); what mapped gives. */
static const kj_type *with_arrays(kj_ictx *ic, const kj_expr *ctx, kj_with_kind k)
{
    const kj_type *el[8];
    uint32_t n = ctx->call.nargs;
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        const kj_type *t = kj_value_type(ic, ctx->call.args[i]);
        if (t && t->kind != KJ_T_ARRAY) {
            kj_error(ic->d, ic->s->src, ctx->call.args[i]->span, "cuda.%s() takes arrays, not %s",
                     k == KJ_WITH_MAPPED ? "mapped" : "pinned", kj_type_str(t));
            ok = false;
        }
        if (i < 8) el[i] = t;
        ok = ok && t;
    }
    if (!ok) return NULL;
    if (k != KJ_WITH_MAPPED) return kj_t_none(ic->s->types);
    if (n == 1) return el[0];
    if (n > 8) {
        kj_error(ic->d, ic->s->src, ctx->span, "cuda.mapped() of more than 8 arrays is not supported");
        return NULL;
    }
    return kj_t_tuple(ic->s->types, el, n);
}

/* numba.parallel_chunksize(n): n an int; nothing to bind (NULL: not
 * Numba's, or reported). */
static const kj_type *with_chunksize(kj_ictx *ic, const kj_expr *ctx, bool *reported)
{
    kj_einfo *f = kj_type_expr(ic, ctx->call.fn);
    if (f->kind != EI_BUILTIN || f->builtin != KJ_B_PAR_CHUNKSIZE) return NULL;
    const kj_expr *n = ctx->call.nargs ? ctx->call.args[0] : ctx->call.kw[0].value;
    const kj_type *t = kj_value_type(ic, n);
    *reported = true;
    if (ctx->call.nkw && strcmp(ctx->call.kw[0].name, "chunksize")) {
        kj_error(ic->d, ic->s->src, ctx->call.kw[0].span, "parallel_chunksize() got an unexpected keyword "
                 "argument '%s'", ctx->call.kw[0].name);
        return NULL;
    }
    if (t && !kj_is_int(t)) {
        kj_error(ic->d, ic->s->src, n->span, "parallel_chunksize() argument must be an integer, not %s",
                 kj_type_str(t));
        return NULL;
    }
    return t ? kj_t_none(ic->s->types) : NULL;
}

/* What `as` binds, NULL when CTX is not one of Numba's context managers
 * (*reported: an error about it was given). */
static const kj_type *with_ctx_type(kj_ictx *ic, const kj_expr *ctx, bool *reported)
{
    kj_with_kind k = kj_with_of(ctx);
    *reported = false;
    if (k == KJ_WITH_BAD) return NULL;
    if (k == KJ_WITH_DEVICE) return cuda_module(ic, ctx->sub.obj->attr.obj) ? with_device(ic, ctx) : NULL;
    if (k == KJ_WITH_CHUNKSIZE) return with_chunksize(ic, ctx, reported);
    const kj_expr *obj = ctx->call.fn->attr.obj;
    if (k == KJ_WITH_AUTO_SYNC) {
        const kj_type *t = kj_value_type(ic, obj);
        return t && t->kind == KJ_T_OPAQUE && !strcmp(t->name, "stream") ? t : NULL;
    }
    if (!cuda_module(ic, obj)) return NULL;
    const kj_type *r = with_arrays(ic, ctx, k);
    *reported = !r;
    return r;
}

const kj_type *kj_type_with(kj_ictx *ic, const kj_stmt *st)
{
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, st->span, "'with' is only supported in host code");
        return NULL;
    }
    if (kj_objmode_with(ic, st)) return NULL; /* with objmode(...): infer_objmode.c */
    bool reported;
    const kj_type *r = with_ctx_type(ic, st->with.ctx, &reported);
    if (r && st->with.target && kj_with_of(st->with.ctx) == KJ_WITH_CHUNKSIZE) {
        kj_error(ic->d, ic->s->src, st->with.target->span, "parallel_chunksize() binds nothing: drop 'as'");
        return NULL;
    }
    if (!r && !reported) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, st->with.ctx->span,
                               "'with' supports Numba's CUDA context managers only");
        kj_diag_hint(dg, "with s.auto_synchronize():, with cuda.pinned(a, ...):, with cuda.mapped(a, ...) as m:, "
                         "with cuda.defer_cleanup():, with cuda.profiling():, with cuda.gpus[0]:, "
                         "with parallel_chunksize(n):");
    }
    return r;
}
