/* KIR construction: modules, functions, blocks, locals and instructions.
 *
 * Every array grows inside the compilation's arena (kj_arena_grow abandons
 * the old buffer), so a kir_module is freed with its arena in one go. */
#include "kir.h"

#include <string.h>

static const char *const op_names[KIR__COUNT] = {
#define X(name, str, operands) [KIR_##name] = str,
    KIR_OPS(X)
#undef X
};

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

kir_ref *kir_refs(kj_arena *a, const kir_ref *v, uint32_t n)
{
    if (n == 0) return NULL;
    kir_ref *p = KJ_NEWN(a, kir_ref, n);
    memcpy(p, v, n * sizeof *v);
    return p;
}
