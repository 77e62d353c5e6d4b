/* SPDX-License-Identifier: BSD-2-Clause */
/* KIR construction: modules, functions, blocks, locals and instructions.
 *
 * Every array grows inside the compilation's arena (kj_arena_grow abandons
 * the old buffer), so a kir_module is freed with its arena in one go. */
#include "kir.h"

#include "builtins.h"

#include <stdlib.h>
#include <string.h>

static const char *const op_names[KIR__COUNT] = {
#define X(name, str, operands) [KIR_##name] = str,
    KIR_OPS(X)
#undef X
};

static const char *const run_target_names[] = {NULL, "cpu", "parallel", "cuda"};

const char *kj_run_target_name(kj_run_target t)
{
    return (unsigned)t < sizeof run_target_names / sizeof *run_target_names ? run_target_names[t] : NULL;
}

kj_run_target kj_run_target_parse(const char *s)
{
    for (unsigned k = 1; s && k < sizeof run_target_names / sizeof *run_target_names; k++)
        if (!strcmp(s, run_target_names[k])) return (kj_run_target)k;
    return KJ_RUN_DEFAULT;
}

const char *kir_op_name(kir_op op)
{
    return (unsigned)op < KIR__COUNT ? op_names[op] : "?";
}

kir_module *kir_module_new(kj_arena *a, const kj_source *src)
{
    kir_module *m = KJ_NEW(a, kir_module);
    m->src = src;
    return m;
}

/* Grow `*v` (n used, *cap allocated, `elem` bytes each) so that one more
 * element fits. */
static void *grow1(kj_arena *a, void *v, uint32_t n, uint32_t *cap, size_t elem)
{
    if (n < *cap) return v;
    uint32_t nc = *cap ? *cap * 2 : 16;
    v = kj_arena_grow(a, v, n, nc, elem);
    *cap = nc;
    return v;
}

/* A new function appended to `m` (when not NULL), holding the reserved NOP
 * at ref 0 and the empty body, block 0. The caller fills params and ret. */
kir_func *kir_func_new(kj_arena *a, kir_module *m, const char *name, const char *mangled,
                       kir_fn_kind kind)
{
    kir_func *f = KJ_NEW(a, kir_func);
    f->name = name;
    f->mangled = mangled ? mangled : name;
    f->kind = kind;
    f->insts = grow1(a, f->insts, 0, &f->cap_insts, sizeof *f->insts);
    f->insts[0].op = KIR_NOP;
    f->ninsts = 1;
    kir_block_new(a, f);
    if (m) {
        m->funcs = grow1(a, m->funcs, m->nfuncs, &m->cap_funcs, sizeof *m->funcs);
        m->funcs[m->nfuncs++] = f;
    }
    return f;
}

kir_blkid kir_block_new(kj_arena *a, kir_func *f)
{
    f->blocks = grow1(a, f->blocks, f->nblocks, &f->cap_blocks, sizeof *f->blocks);
    memset(&f->blocks[f->nblocks], 0, sizeof f->blocks[0]);
    return f->nblocks++;
}

uint32_t kir_local_new(kj_arena *a, kir_func *f, const char *name, const kj_type *type)
{
    f->locals = grow1(a, f->locals, f->nlocals, &f->cap_locals, sizeof *f->locals);
    f->locals[f->nlocals] = (kir_local){.name = name, .type = type};
    return f->nlocals++;
}

kir_ref kir_emit(kj_arena *a, kir_func *f, kir_blkid b, kir_op op, const kj_type *type, kj_span sp)
{
    f->insts = grow1(a, f->insts, f->ninsts, &f->cap_insts, sizeof *f->insts);
    kir_ref r = f->ninsts++;
    kir_inst *in = &f->insts[r];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->type = type;
    in->span = sp;
    kir_block *blk = &f->blocks[b];
    blk->v = grow1(a, blk->v, blk->n, &blk->cap, sizeof *blk->v);
    blk->v[blk->n++] = r;
    return r;
}

kir_func *kir_module_find(const kir_module *m, const char *mangled)
{
    for (uint32_t k = 0; k < m->nfuncs; k++)
        if (!strcmp(m->funcs[k]->mangled, mangled)) return m->funcs[k];
    return NULL;
}

kir_ref *kir_refs(kj_arena *a, const kir_ref *v, uint32_t n)
{
    if (n == 0) return NULL;
    kir_ref *p = KJ_NEWN(a, kir_ref, n);
    memcpy(p, v, n * sizeof *v);
    return p;
}

/* Uses of a value derived from the parameter that only read it. */
static bool reads_only(const kir_inst *in, const bool *mark, int depth)
{
    switch ((kir_op)in->op) {
    case KIR_ARRAY_DIM: return true;
    case KIR_BUILTIN: return kj_builtin_has(in->aux, KJ_BF_SHAPE);
    case KIR_ARRAY_LOAD: /* as the array, not as an index */
        for (uint32_t k = 0; k < in->nargs; k++)
            if (mark[in->args[k]]) return false;
        return true;
    case KIR_CALL: /* a callee that only reads its parameter */
        if (!in->fn || depth > 8 || in->a || in->b || in->c) return false;
        for (uint32_t k = 0; k < in->nargs; k++)
            if (mark[in->args[k]] && !kir_param_read_only_at(in->fn, k, depth + 1)) return false;
        return true;
    default: return false;
    }
}

/* a[i] of an array of records, or a record field of a record (r.inner), is
 * a reference to the array's bytes (llvm_record.c), which `a[i].x = v`
 * writes: follow its uses as a view's. Missing it made a kernel that only
 * wrote records count as reading its array, so the array's host copy was
 * kept as current after the launch and the kernel's writes never came back. */
static bool record_ref(const kir_inst *in, const bool *mark)
{
    if (!in->type || !kj_record_of(in->type)) return false;
    if (in->op == KIR_ARRAY_LOAD) {
        for (uint32_t k = 0; k < in->nargs; k++)
            if (mark[in->args[k]]) return false; /* a marked value as an index */
        return in->a && mark[in->a];
    }
    return in->op == KIR_BUILTIN && in->aux == KJ_B_REC_GET && in->nargs && mark[in->args[0]];
}

/* One pass over f marking the values (mark) and locals (lmark) that may
 * hold parameter k or a view of it; false when one of them is used other
 * than for reading. *grew: a local was newly marked (a loop may read it
 * before the instruction that sets it: pass again). */
static bool mark_pass(const kir_func *f, uint32_t k, bool *mark, bool *lmark, int depth, bool *grew)
{
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        switch ((kir_op)in->op) {
        case KIR_PARAM: mark[r] = (uint32_t)in->i == k; continue;
        case KIR_LOCAL_GET: mark[r] = lmark[in->i]; continue;
        case KIR_LOCAL_SET:
            if (mark[in->a] && !lmark[in->i]) lmark[in->i] = *grew = true;
            continue;
        default: break;
        }
        bool uses = (in->a && mark[in->a]) || (in->b && mark[in->b]) || (in->c && mark[in->c]);
        for (uint32_t j = 0; j < in->nargs && !uses; j++) uses = in->args[j] && mark[in->args[j]];
        if (!uses) continue;
        if (in->op == KIR_ARRAY_VIEW && mark[in->a]) mark[r] = true; /* a view: follow its uses */
        else if (record_ref(in, mark)) mark[r] = true;
        else if (!reads_only(in, mark, depth)) return false;
    }
    return true;
}

bool kir_param_read_only_at(const kir_func *f, uint32_t k, int depth)
{
    if (k >= f->nparams || f->params[k]->kind != KJ_T_ARRAY) return false;
    bool *mark = calloc((size_t)f->ninsts + f->nlocals + 1, sizeof *mark);
    if (!mark) return false;
    bool ok = true, grew = true;
    for (uint32_t pass = 0; ok && grew && pass <= f->nlocals; pass++) {
        grew = false;
        ok = mark_pass(f, k, mark, mark + f->ninsts, depth, &grew);
    }
    free(mark);
    return ok && !grew;
}

bool kir_param_read_only(const kir_func *f, uint32_t k) { return kir_param_read_only_at(f, k, 0); }
