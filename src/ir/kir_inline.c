/* SPDX-License-Identifier: BSD-2-Clause */
/* Inlining device functions with barriers into kernels (kir_inline.h).
 *
 * The kernel is copied instruction by instruction, in block order, into a
 * fresh body; a call of a device function that needs inlining copies the
 * callee's body in its place, each callee parameter standing for the
 * caller's argument and each callee local becoming a new local of the
 * kernel. The callee's returns:
 *
 *   only a last `return v`       →  set $ret, v                (no wrapper)
 *   returns elsewhere            →  loop { body'; break }, where
 *                                   return v  →  set $ret, v; break
 *   a return inside a loop of    →  set $ret, v; set $done, True; break,
 *   the callee                      and after each of its loops that holds
 *                                   one: if $done: break
 *
 * and the call's value becomes `get $ret`. Refs of the copy are in block
 * order, so the region generator and the verifier see an ordinary body. */
#include "kir_inline.h"

#include "builtins.h"

#include <string.h>

enum { MAX_DEPTH = 16 };

/* A barrier or warp operation, or a shared array: what the cpu's kernels
 * must see in their own body. */
static bool is_sync_builtin(const kir_inst *in)
{
    return in->op == KIR_BUILTIN &&
           (kj_builtin_has(in->aux, KJ_BF_BARRIER | KJ_BF_WARP) || in->aux == KJ_B_SHARED_ARRAY);
}

static bool is_device_call(const kir_inst *in)
{
    return in->op == KIR_CALL && in->fn && in->fn->kind == KIR_FN_DEVICE;
}

/* kir_needs_inline with the functions being looked at (a cycle counts as
 * no: the recursion is reported where it is inlined). */
static bool needs(const kir_func *f, const kir_func **stack, unsigned depth)
{
    if (depth >= MAX_DEPTH) return false;
    for (unsigned k = 0; k < depth; k++)
        if (stack[k] == f) return false;
    stack[depth] = f;
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (is_sync_builtin(in)) return true;
        if (is_device_call(in) && needs(in->fn, stack, depth + 1)) return true;
    }
    return false;
}

bool kir_needs_inline(const kir_func *f)
{
    const kir_func *stack[MAX_DEPTH];
    return f->kind == KIR_FN_DEVICE && needs(f, stack, 0);
}

/* One function being copied: the kernel itself, or an inlined callee. */
typedef struct frame {
    const kir_func *f;
    const struct frame *up;
    kir_ref *map;        /* f's refs → the new body's */
    uint32_t *lmap;      /* f's locals → the new body's */
    const kir_ref *args; /* a callee: the new body's refs of its arguments */
    uint32_t ret;        /* the local receiving the value; UINT32_MAX: none */
    uint32_t done;       /* the local set by a return inside a loop; UINT32_MAX: none */
    bool wrapped;        /* returns break out of the wrapper loop */
    unsigned loops;      /* loops of f around the statement being copied */
} frame;

/* A shared array of a callee copied into the kernel. */
typedef struct shared_copy {
    const kir_func *f;
    kir_ref r;
} shared_copy;

typedef struct inliner {
    kj_arena *a;
    kj_types *types;
    const kj_source *src;
    kj_diags *d;
    const kir_func *kernel;
    kir_func *g; /* the new body */
    shared_copy *shared;
    uint32_t nshared, cap_shared;
    bool ok;
} inliner;

static void copy_block(inliner *in, frame *fr, kir_blkid from, kir_blkid to);

static kir_ref emit(inliner *in, kir_blkid b, kir_op op, const kj_type *t, kj_span sp)
{
    return kir_emit(in->a, in->g, b, op, t, sp);
}

static void emit_set(inliner *in, kir_blkid b, uint32_t local, kir_ref v, kj_span sp)
{
    kir_ref s = emit(in, b, KIR_LOCAL_SET, kj_t_none(in->types), sp);
    kir_at(in->g, s)->i = local;
    kir_at(in->g, s)->a = v;
}

static kir_ref emit_get(inliner *in, kir_blkid b, uint32_t local, kj_span sp)
{
    kir_ref r = emit(in, b, KIR_LOCAL_GET, in->g->locals[local].type, sp);
    kir_at(in->g, r)->i = local;
    return r;
}

static kir_ref emit_bool(inliner *in, kir_blkid b, bool v, kj_span sp)
{
    kir_ref r = emit(in, b, KIR_CONST_INT, kj_t_bool(in->types), sp);
    kir_at(in->g, r)->i = v;
    return r;
}

static bool stmt_has_return(const kir_func *f, kir_ref r);

static bool block_has_return(const kir_func *f, kir_blkid b)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++)
        if (stmt_has_return(f, blk->v[k])) return true;
    return false;
}

static bool stmt_has_return(const kir_func *f, kir_ref r)
{
    const kir_inst *in = &f->insts[r];
    if (in->op == KIR_RETURN) return true;
    if (in->op == KIR_IF) return block_has_return(f, in->blk[0]) || (in->blk[1] && block_has_return(f, in->blk[1]));
    if (in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR) return block_has_return(f, in->blk[0]);
    return false;
}

/* Does f return only by a `return` that is the last statement of its
 * body (or not at all)? Then its body needs no wrapper loop. */
static bool returns_at_end(const kir_func *f)
{
    const kir_block *top = &f->blocks[0];
    for (uint32_t k = 0; k < top->n; k++) {
        kir_ref r = top->v[k];
        if (k + 1 == top->n && f->insts[r].op == KIR_RETURN) return true;
        if (stmt_has_return(f, r)) return false;
    }
    return true;
}

/* Does f return from inside one of its loops? */
static bool returns_in_loop(const kir_func *f)
{
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if ((in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR) && block_has_return(f, in->blk[0]))
            return true;
    }
    return false;
}

/* `return v` of an inlined callee. */
static void copy_return(inliner *in, frame *fr, const kir_inst *s, kir_blkid b)
{
    if (s->a && fr->ret != UINT32_MAX) emit_set(in, b, fr->ret, fr->map[s->a], s->span);
    if (!fr->wrapped) return;
    if (fr->loops) emit_set(in, b, fr->done, emit_bool(in, b, true, s->span), s->span);
    emit(in, b, KIR_BREAK, kj_t_none(in->types), s->span);
}

/* if $done: break — after a loop of the callee that returns inside. */
static void leave_if_done(inliner *in, frame *fr, kir_blkid b, kj_span sp)
{
    kir_ref c = emit_get(in, b, fr->done, sp);
    kir_ref i = emit(in, b, KIR_IF, kj_t_none(in->types), sp);
    kir_blkid then = kir_block_new(in->a, in->g);
    kir_at(in->g, i)->a = c;
    kir_at(in->g, i)->blk[0] = then;
    emit(in, then, KIR_BREAK, kj_t_none(in->types), sp);
}

static bool on_stack(const frame *fr, const kir_func *f)
{
    for (; fr; fr = fr->up)
        if (fr->f == f) return true;
    return false;
}

static unsigned depth_of(const frame *fr)
{
    unsigned n = 0;
    for (; fr; fr = fr->up) n++;
    return n;
}

/* The call s (ref r of fr) of a device function that needs inlining. */
static void inline_call(inliner *in, frame *fr, kir_ref r, const kir_inst *s, kir_blkid b)
{
    const kir_func *f = s->fn;
    if (on_stack(fr, f) || depth_of(fr) >= MAX_DEPTH) {
        kj_error(in->d, in->src, s->span,
                 "recursion through device function '%s', which uses barriers, warp operations or shared "
                 "arrays, is not supported on the cpu target (such device functions are inlined into kernel '%s')",
                 f->name, in->kernel->name);
        in->ok = false;
        fr->map[r] = emit(in, b, KIR_CONST_NONE, s->type, s->span);
        return;
    }
    frame cf = {.f = f, .up = fr, .ret = UINT32_MAX, .done = UINT32_MAX};
    cf.map = KJ_NEWN(in->a, kir_ref, f->ninsts + 1);
    cf.lmap = KJ_NEWN(in->a, uint32_t, f->nlocals + 1);
    for (uint32_t k = 0; k < f->nlocals; k++) cf.lmap[k] = kir_local_new(in->a, in->g, f->locals[k].name, f->locals[k].type);
    kir_ref *args = KJ_NEWN(in->a, kir_ref, s->nargs + 1);
    for (uint32_t k = 0; k < s->nargs; k++) args[k] = fr->map[s->args[k]];
    cf.args = args;
    bool value = f->ret && f->ret->kind != KJ_T_NONE;
    if (value) cf.ret = kir_local_new(in->a, in->g, NULL, f->ret);
    cf.wrapped = !returns_at_end(f);
    if (!cf.wrapped) {
        copy_block(in, &cf, 0, b);
    } else {
        if (returns_in_loop(f)) {
            cf.done = kir_local_new(in->a, in->g, NULL, kj_t_bool(in->types));
            emit_set(in, b, cf.done, emit_bool(in, b, false, s->span), s->span);
        }
        kir_ref l = emit(in, b, KIR_LOOP, kj_t_none(in->types), s->span);
        kir_blkid body = kir_block_new(in->a, in->g);
        kir_at(in->g, l)->blk[0] = body;
        copy_block(in, &cf, 0, body);
        emit(in, body, KIR_BREAK, kj_t_none(in->types), s->span);
    }
    if (value) fr->map[r] = emit_get(in, b, cf.ret, s->span);
    else fr->map[r] = emit(in, b, KIR_CONST_NONE, s->type, s->span);
}

/* A callee's shared array is one array of the GPU's block however often
 * it is called; inlined twice it would be two. */
static void note_shared(inliner *in, const frame *fr, const kir_inst *s, kir_ref r)
{
    if (!fr->up) return;
    for (uint32_t k = 0; k < in->nshared; k++) {
        if (in->shared[k].f != fr->f || in->shared[k].r != r) continue;
        kj_error(in->d, in->src, s->span,
                 "device function '%s' makes a cuda.shared.array and is called more than once in kernel '%s': "
                 "not supported on the cpu target yet (on a GPU every call shares one array)",
                 fr->f->name, in->kernel->name);
        in->ok = false;
        return;
    }
    if (in->nshared == in->cap_shared) {
        uint32_t nc = in->cap_shared ? in->cap_shared * 2 : 4;
        in->shared = kj_arena_grow(in->a, in->shared, in->nshared, nc, sizeof *in->shared);
        in->cap_shared = nc;
    }
    in->shared[in->nshared++] = (shared_copy){fr->f, r};
}

static kir_ref map_ref(const frame *fr, kir_ref r) { return r ? fr->map[r] : 0; }

static void copy_inst(inliner *in, frame *fr, kir_ref r, kir_blkid b)
{
    const kir_inst *s = &fr->f->insts[r];
    if (s->op == KIR_PARAM && fr->args) {
        fr->map[r] = fr->args[s->i];
        return;
    }
    if (s->op == KIR_RETURN && fr->up) {
        copy_return(in, fr, s, b);
        return;
    }
    if (is_device_call(s) && kir_needs_inline(s->fn)) {
        inline_call(in, fr, r, s, b);
        return;
    }
    if (s->op == KIR_BUILTIN && s->aux == KJ_B_SHARED_ARRAY) note_shared(in, fr, s, r);
    kir_ref n = emit(in, b, (kir_op)s->op, s->type, s->span);
    fr->map[r] = n;
    kir_inst c = *s; /* aux, the immediates; operands, blocks and list mapped */
    c.a = map_ref(fr, s->a);
    c.b = map_ref(fr, s->b);
    c.c = map_ref(fr, s->c);
    if (s->op == KIR_LOCAL_GET || s->op == KIR_LOCAL_SET || s->op == KIR_FOR || s->op == KIR_PFOR)
        c.i = fr->lmap[s->i];
    c.args = NULL;
    if (s->nargs) {
        c.args = KJ_NEWN(in->a, kir_ref, s->nargs);
        for (uint32_t k = 0; k < s->nargs; k++) c.args[k] = map_ref(fr, s->args[k]);
    }
    c.blk[0] = c.blk[1] = 0;
    *kir_at(in->g, n) = c;
    bool loop = s->op == KIR_LOOP || s->op == KIR_FOR || s->op == KIR_PFOR;
    if (s->op == KIR_IF || loop) {
        kir_blkid t = kir_block_new(in->a, in->g);
        kir_at(in->g, n)->blk[0] = t;
        fr->loops += loop;
        copy_block(in, fr, s->blk[0], t);
        fr->loops -= loop;
        if (s->op == KIR_IF && s->blk[1]) {
            kir_blkid e = kir_block_new(in->a, in->g);
            kir_at(in->g, n)->blk[1] = e;
            copy_block(in, fr, s->blk[1], e);
        }
    }
    if (loop && fr->up && fr->wrapped && block_has_return(fr->f, s->blk[0])) leave_if_done(in, fr, b, s->span);
}

static void copy_block(inliner *in, frame *fr, kir_blkid from, kir_blkid to)
{
    const kir_block *blk = &fr->f->blocks[from];
    for (uint32_t k = 0; k < blk->n; k++) copy_inst(in, fr, blk->v[k], to);
}

static bool kernel_needs(const kir_func *f)
{
    for (uint32_t r = 1; r < f->ninsts; r++)
        if (is_device_call(&f->insts[r]) && kir_needs_inline(f->insts[r].fn)) return true;
    return false;
}

/* Kernel f with its calls inlined: the new body replaces the old one in
 * place (launches point to f). */
static bool inline_kernel(inliner *in, kir_func *f)
{
    kir_func g = {0};
    g.insts = KJ_NEWN(in->a, kir_inst, 1);
    g.cap_insts = 1;
    g.ninsts = 1;
    kir_block_new(in->a, &g);
    in->g = &g;
    in->kernel = f;
    in->nshared = 0;
    frame fr = {.f = f, .ret = UINT32_MAX, .done = UINT32_MAX};
    fr.map = KJ_NEWN(in->a, kir_ref, f->ninsts + 1);
    fr.lmap = KJ_NEWN(in->a, uint32_t, f->nlocals + 1);
    for (uint32_t k = 0; k < f->nlocals; k++) fr.lmap[k] = kir_local_new(in->a, &g, f->locals[k].name, f->locals[k].type);
    copy_block(in, &fr, 0, 0);
    f->insts = g.insts;
    f->ninsts = g.ninsts;
    f->cap_insts = g.cap_insts;
    f->blocks = g.blocks;
    f->nblocks = g.nblocks;
    f->cap_blocks = g.cap_blocks;
    f->locals = g.locals;
    f->nlocals = g.nlocals;
    f->cap_locals = g.cap_locals;
    return in->ok;
}

bool kir_inline_barriers(kj_arena *a, kj_types *types, kir_module *m, uint32_t from, kj_diags *d)
{
    inliner in = {.a = a, .types = types, .src = m->src, .d = d, .ok = true};
    for (uint32_t k = from; k < m->nfuncs; k++) {
        kir_func *f = m->funcs[k];
        if (f->kind == KIR_FN_KERNEL && kernel_needs(f)) inline_kernel(&in, f);
    }
    return in.ok;
}
