/* SPDX-License-Identifier: BSD-2-Clause */
/* Writing KIR by hand (kir_build.h). */
#include "kir_build.h"

#include "builtins.h"

kir_ref kb_emit(kir_builder *b, kir_op op, const kj_type *t) { return kir_emit(b->a, b->f, b->cur, op, t, b->sp); }

const kj_type *kb_i64(kir_builder *b) { return kj_t_int(b->ty, 64, true); }

kir_ref kb_const(kir_builder *b, const kj_type *t, int64_t i, double f)
{
    kir_ref r = kb_emit(b, t->kind == KJ_T_FLOAT ? KIR_CONST_FLOAT : KIR_CONST_INT, t);
    if (t->kind == KJ_T_FLOAT) kir_at(b->f, r)->f = f;
    else kir_at(b->f, r)->i = t->kind == KJ_T_BOOL ? i != 0 : i;
    return r;
}

kir_ref kb_int(kir_builder *b, int64_t v) { return kb_const(b, kb_i64(b), v, 0); }

kir_ref kb_binop(kir_builder *b, kir_op op, const kj_type *t, kir_ref x, kir_ref y)
{
    kir_ref r = kb_emit(b, op, t);
    kir_at(b->f, r)->a = x;
    kir_at(b->f, r)->b = y;
    return r;
}

kir_ref kb_param(kir_builder *b, uint32_t k)
{
    kir_ref r = kb_emit(b, KIR_PARAM, b->f->params[k]);
    kir_at(b->f, r)->i = k;
    return r;
}

kir_ref kb_dim(kir_builder *b, kir_ref arr, uint32_t d)
{
    kir_ref r = kb_emit(b, KIR_ARRAY_DIM, kb_i64(b));
    kir_at(b->f, r)->a = arr;
    kir_at(b->f, r)->i = d;
    return r;
}

kir_ref kb_args(kir_builder *b, kir_op op, const kj_type *t, const kir_ref *args, uint32_t n)
{
    kir_ref r = kb_emit(b, op, t);
    kir_at(b->f, r)->args = kir_refs(b->a, args, n);
    kir_at(b->f, r)->nargs = n;
    return r;
}

kir_ref kb_builtin(kir_builder *b, int builtin, const kj_type *t, const kir_ref *args, uint32_t n)
{
    kir_ref r = kb_args(b, KIR_BUILTIN, t, args, n);
    kir_at(b->f, r)->aux = (uint16_t)builtin;
    return r;
}

kir_ref kb_call(kir_builder *b, const kir_func *fn, const kir_ref *args, uint32_t n)
{
    kir_ref r = kb_args(b, KIR_CALL, fn->ret, args, n);
    kir_at(b->f, r)->fn = (kir_func *)(uintptr_t)fn;
    return r;
}

kir_ref kb_load(kir_builder *b, kir_ref arr, const kir_ref *idx, uint32_t n)
{
    kir_ref r = kb_args(b, KIR_ARRAY_LOAD, b->f->insts[arr].type->elem, idx, n);
    kir_at(b->f, r)->a = arr;
    return r;
}

void kb_store(kir_builder *b, kir_ref arr, kir_ref v, const kir_ref *idx, uint32_t n)
{
    kir_ref r = kb_args(b, KIR_ARRAY_STORE, kj_t_none(b->ty), idx, n);
    kir_at(b->f, r)->a = arr;
    kir_at(b->f, r)->b = v;
}

kir_ref kb_cast(kir_builder *b, kir_ref v, const kj_type *to)
{
    if (b->f->insts[v].type == to) return v;
    kir_ref r = kb_emit(b, KIR_CAST, to);
    kir_at(b->f, r)->a = v;
    return r;
}

kir_ref kb_select(kir_builder *b, kir_ref cond, kir_ref x, kir_ref y)
{
    kir_ref r = kb_emit(b, KIR_SELECT, b->f->insts[x].type);
    kir_at(b->f, r)->a = cond;
    kir_at(b->f, r)->b = x;
    kir_at(b->f, r)->c = y;
    return r;
}

uint32_t kb_local(kir_builder *b, const kj_type *t) { return kir_local_new(b->a, b->f, NULL, t); }

kir_ref kb_get(kir_builder *b, uint32_t l)
{
    kir_ref r = kb_emit(b, KIR_LOCAL_GET, b->f->locals[l].type);
    kir_at(b->f, r)->i = l;
    return r;
}

void kb_set(kir_builder *b, uint32_t l, kir_ref v)
{
    kir_ref r = kb_emit(b, KIR_LOCAL_SET, kj_t_none(b->ty));
    kir_at(b->f, r)->i = l;
    kir_at(b->f, r)->a = v;
}

void kb_if(kir_builder *b, kir_ref cond, kir_blkid *then, kir_blkid *els)
{
    kir_ref r = kb_emit(b, KIR_IF, kj_t_none(b->ty));
    *then = kir_block_new(b->a, b->f);
    *els = kir_block_new(b->a, b->f);
    kir_at(b->f, r)->a = cond;
    kir_at(b->f, r)->blk[0] = *then;
    kir_at(b->f, r)->blk[1] = *els;
}

kir_blkid kb_for(kir_builder *b, uint32_t local, kir_ref start, kir_ref stop)
{
    kir_ref r = kb_emit(b, KIR_FOR, kj_t_none(b->ty));
    kir_blkid body = kir_block_new(b->a, b->f);
    kir_inst *in = kir_at(b->f, r);
    in->i = local;
    in->a = start;
    in->b = stop;
    in->blk[0] = body;
    return body;
}

kir_blkid kb_loop(kir_builder *b)
{
    kir_ref r = kb_emit(b, KIR_LOOP, kj_t_none(b->ty));
    kir_blkid body = kir_block_new(b->a, b->f);
    kir_at(b->f, r)->blk[0] = body;
    return body;
}

void kb_return(kir_builder *b, kir_ref v)
{
    kir_ref r = kb_emit(b, KIR_RETURN, kj_t_none(b->ty));
    kir_at(b->f, r)->a = v;
}

void kb_check(kir_builder *b, kir_ref cond, const char *msg)
{
    kir_ref r = kb_emit(b, KIR_ASSERT, kj_t_none(b->ty));
    kir_at(b->f, r)->a = cond;
    kir_at(b->f, r)->s = msg;
    kir_at(b->f, r)->aux = KIR_ASSERT_VALUE;
}

void kb_unravel(kir_builder *b, kir_ref shape_of, uint32_t nd, kir_ref i, kir_ref *idx)
{
    const kj_type *u64 = kj_t_int(b->ty, 64, false);
    kir_ref rem = kb_cast(b, i, u64);
    for (uint32_t d = nd; d-- > 1;) {
        kir_ref n = kb_cast(b, kb_dim(b, shape_of, d), u64);
        kir_ref q = kb_binop(b, KIR_FLOORDIV, u64, rem, n);
        kir_ref r = kb_binop(b, KIR_MOD, u64, rem, n);
        kir_at(b->f, q)->aux = kir_at(b->f, r)->aux = KIR_AUX_NONZERO;
        idx[d] = kb_cast(b, r, kb_i64(b));
        rem = q;
    }
    idx[0] = kb_cast(b, rem, kb_i64(b));
}

void kb_grid_stride(kir_builder *b, kir_ref total, kb_body_fn body, void *ctx)
{
    kir_ref one = kb_int(b, 1);
    kir_ref start = kb_builtin(b, KJ_B_CUDA_GRID, kb_i64(b), &one, 1);
    kir_ref step = kb_builtin(b, KJ_B_CUDA_GRIDSIZE, kb_i64(b), &one, 1);
    uint32_t il = kb_local(b, kb_i64(b));
    kb_set(b, il, start);
    kir_blkid loop = kb_loop(b), saved = b->cur, then, els;
    b->cur = loop;
    kir_ref i = kb_get(b, il);
    kb_if(b, kb_binop(b, KIR_GE, kj_t_bool(b->ty), i, total), &then, &els);
    b->cur = then;
    kb_emit(b, KIR_BREAK, kj_t_none(b->ty));
    b->cur = loop;
    body(b, ctx, i);
    kb_set(b, il, kb_binop(b, KIR_ADD, kb_i64(b), i, step));
    b->cur = saved;
}

static void nest(kir_builder *b, const kir_ref *dims, uint32_t nd, kir_ref *idx, uint32_t d, kb_nest_fn body, void *ctx)
{
    /* d < KB_MAX_DIMS also tells the optimiser, which unrolls the recursion,
     * that idx[d] stays in bounds */
    if (d == nd || d >= KB_MAX_DIMS) {
        body(b, ctx, idx);
        return;
    }
    uint32_t l = kb_local(b, kb_i64(b));
    kir_blkid saved = b->cur;
    b->cur = kb_for(b, l, kb_int(b, 0), dims[d]);
    idx[d] = kb_get(b, l);
    nest(b, dims, nd, idx, d + 1, body, ctx);
    b->cur = saved;
}

void kb_nest(kir_builder *b, const kir_ref *dims, uint32_t nd, kir_ref *idx, kb_nest_fn body, void *ctx)
{
    nest(b, dims, nd, idx, 0, body, ctx);
}
