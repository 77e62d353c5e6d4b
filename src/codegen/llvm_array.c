/* SPDX-License-Identifier: BSD-2-Clause */
/* Arrays in generated code: the by-value descriptor of abi.h
 *   { ptr data, [N x i64] shape, [N x i64] strides (bytes), ptr owner }
 * and the KIR instructions that read it: dimensions, element loads and
 * stores, views (Python slice semantics), index wrapping and bounds checks.
 *
 * Element addresses: layout C uses the row-major product of indices and
 * shape, layout F the column-major one, so LLVM sees unit-stride accesses
 * and vectorises loops over them; layout A uses the strides, converted to
 * elements (strides are multiples of the item size) so that the loop
 * vectoriser can version the loop for a unit stride. */
#include "codegen.h"

#include "../abi/abi.h"

enum { F_DATA, F_SHAPE, F_STRIDES, F_OWNER };

static LLVMValueRef field(kj_cg *cg, LLVMValueRef arr, unsigned f, unsigned k)
{
    LLVMValueRef v = LLVMBuildExtractValue(cg->b, arr, f, "");
    return f == F_SHAPE || f == F_STRIDES ? LLVMBuildExtractValue(cg->b, v, k, "") : v;
}

LLVMValueRef kj_cg_array_dim(kj_cg *cg, LLVMValueRef arr, unsigned k) { return field(cg, arr, F_SHAPE, k); }
LLVMValueRef kj_cg_array_stride(kj_cg *cg, LLVMValueRef arr, unsigned k) { return field(cg, arr, F_STRIDES, k); }

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

/* An element in memory: a record's bytes (llvm_record.c), else its type's memory form. */
static LLVMTypeRef elem_memtype(kj_cg *cg, const kj_type *elem)
{
    return kj_record_of(elem) ? kj_cg_record_memtype(cg, elem) : kj_cg_memtype(cg, elem);
}

static uint64_t itemsize(kj_cg *cg, const kj_type *elem)
{
    return LLVMABISizeOfType(cg->td, elem_memtype(cg, elem));
}

static LLVMValueRef mul_add(kj_cg *cg, LLVMValueRef acc, LLVMValueRef m, LLVMValueRef x)
{
    LLVMValueRef p = LLVMBuildNSWMul(cg->b, acc, m, "");
    return LLVMBuildNSWAdd(cg->b, p, x, "");
}

/* The address of element idx[0..n) of `arr` (type `at`). */
static LLVMValueRef elem_ptr(kj_cg *cg, const kj_type *at, LLVMValueRef arr, const LLVMValueRef *idx)
{
    unsigned n = at->ndim;
    LLVMTypeRef ety = elem_memtype(cg, at->elem);
    LLVMValueRef data = field(cg, arr, F_DATA, 0), off;
    if (cg->index32) return kj_cg_index32_ptr(cg, at, data, arr, idx, itemsize(cg, at->elem)); /* llvm_index32.c */
    switch (at->layout) {
    case KJ_LAYOUT_C:
        off = idx[0];
        for (unsigned k = 1; k < n; k++) off = mul_add(cg, off, field(cg, arr, F_SHAPE, k), idx[k]);
        break;
    case KJ_LAYOUT_F:
        off = idx[n - 1];
        for (unsigned k = n - 1; k-- > 0;) off = mul_add(cg, off, field(cg, arr, F_SHAPE, k), idx[k]);
        break;
    default: {
        /* On the host in bytes: a field of a packed structured dtype (a['x'] of [('x', f4),
         * ('ok', ?)]) has strides that are not multiples of its item. On the GPU, where a launch
         * refuses such arrays (gpu.c: the loads would fault), in items, which left the
         * reduction kernels 10 fewer registers than byte offsets did. */
        uint64_t size = cg->sm ? itemsize(cg, at->elem) : 1;
        off = NULL;
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef st = field(cg, arr, F_STRIDES, k);
            if (size > 1) st = LLVMBuildSDiv(cg->b, st, kj_cg_i64(cg, (int64_t)size), "");
            LLVMValueRef t = LLVMBuildNSWMul(cg->b, idx[k], st, "");
            off = off ? LLVMBuildNSWAdd(cg->b, off, t, "") : t;
        }
        if (!cg->sm) return LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, data, &off, 1, "");
        break;
    }
    }
    return LLVMBuildInBoundsGEP2(cg->b, ety, data, &off, 1, "");
}

static LLVMValueRef *index_vals(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef *idx = KJ_NEWN(cg->a, LLVMValueRef, in->nargs + 1);
    for (uint32_t k = 0; k < in->nargs; k++) idx[k] = kj_cg_val(cg, in->args[k]);
    return idx;
}

static LLVMValueRef load(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = type_of(cg, in->a);
    LLVMValueRef p = elem_ptr(cg, at, kj_cg_val(cg, in->a), index_vals(cg, in));
    if (kj_record_of(at->elem)) return p; /* a record is a reference to its bytes (llvm_record.c) */
    LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, at->elem), p, "");
    return kj_cg_from_mem(cg, at->elem, v);
}

/* ---- whole-array assignment: a[...] = scalar / array ---- */

/* for idx[d] in range(n[d]), d = depth..nd-1 (C order): body(idx). */
void kj_cg_loop_nest(kj_cg *cg, int nd, const LLVMValueRef *n, LLVMValueRef *idx, int depth,
                     kj_cg_loop_body body, void *ctx)
{
    /* Arrays have at most 4 dimensions; the explicit bound also lets the
     * compiler see that idx[] and n[] are never indexed past it. */
    if (depth >= nd || depth >= 4) {
        body(cg, ctx, idx);
        return;
    }
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
    LLVMBasicBlockRef head = kj_cg_bb(cg, "uf.loop"), blk = kj_cg_bb(cg, "uf.body"), exit = kj_cg_bb(cg, "uf.end");
    LLVMBuildBr(cg->b, head);
    LLVMPositionBuilderAtEnd(cg->b, head);
    LLVMValueRef i = LLVMBuildPhi(cg->b, cg->t_i64, "i");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, i, n[depth], ""), blk, exit);
    LLVMPositionBuilderAtEnd(cg->b, blk);
    idx[depth] = i;
    kj_cg_loop_nest(cg, nd, n, idx, depth + 1, body, ctx);
    LLVMValueRef i1 = LLVMBuildNSWAdd(cg->b, i, kj_cg_i64(cg, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
    LLVMBuildBr(cg->b, head);
    LLVMValueRef inc[2] = {kj_cg_i64(cg, 0), i1};
    LLVMBasicBlockRef from[2] = {pre, latch};
    LLVMAddIncoming(i, inc, from, 2);
    LLVMMoveBasicBlockAfter(exit, latch);
    LLVMPositionBuilderAtEnd(cg->b, exit);
}

/* The body of a whole-array fill: store the value at idx. */
typedef struct {
    const kj_type *at;
    LLVMValueRef arr, v;
} fill_ctx;

static void fill_one(kj_cg *cg, void *vctx, const LLVMValueRef *idx)
{
    fill_ctx *c = vctx;
    LLVMBuildStore(cg->b, c->v, elem_ptr(cg, c->at, c->arr, (LLVMValueRef *)idx));
}

void kj_cg_array_fill(kj_cg *cg, const kj_type *at, LLVMValueRef arr, LLVMValueRef v)
{
    LLVMValueRef idx[KJ_ABI_MAX_DIMS] = {0}, n[KJ_ABI_MAX_DIMS] = {0};
    for (unsigned k = 0; k < at->ndim; k++) n[k] = field(cg, arr, F_SHAPE, k);
    fill_ctx c = {at, arr, kj_cg_to_mem(cg, at->elem, v)};
    kj_cg_loop_nest(cg, at->ndim, n, idx, 0, fill_one, &c);
}

/* Pass a descriptor by pointer (to the runtime). */
static LLVMValueRef spill(kj_cg *cg, LLVMValueRef v)
{
    LLVMValueRef p = kj_cg_alloca(cg, LLVMTypeOf(v), "desc");
    LLVMBuildStore(cg->b, v, p);
    return p;
}

static void store_whole(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = type_of(cg, in->a), *bt = type_of(cg, in->b);
    LLVMValueRef arr = kj_cg_val(cg, in->a), v = kj_cg_val(cg, in->b);
    if (bt->kind != KJ_T_ARRAY) {
        kj_cg_array_fill(cg, at, arr, v);
        return;
    }
    if (bt->elem != at->elem) /* NumPy's unsafe cast: a converted copy, then its store */
        v = kj_cg_array_copy_as(cg, in->b, at->elem, bt->ndim, in);
    LLVMValueRef args[8] = {cg->fn->rt, spill(cg, arr), kj_cg_i32(cg, at->ndim), spill(cg, v),
                            kj_cg_i32(cg, bt->ndim), kj_cg_i64(cg, (int64_t)itemsize(cg, at->elem)),
                            kj_cg_i32(cg, in->span.line), kj_cg_i32(cg, in->span.col)};
    kj_cg_rtcall(cg, KJ_RTF_ASSIGN, args, 8);
}

static void store(kj_cg *cg, const kir_inst *in)
{
    if (in->nargs == 0) {
        store_whole(cg, in);
        return;
    }
    const kj_type *at = type_of(cg, in->a);
    LLVMValueRef p = elem_ptr(cg, at, kj_cg_val(cg, in->a), index_vals(cg, in));
    LLVMBuildStore(cg->b, kj_cg_to_mem(cg, at->elem, kj_cg_val(cg, in->b)), p);
}

/* ---- views ---- */

typedef struct slice_dim {
    LLVMValueRef start, len, step;
} slice_dim;

static LLVMValueRef smin(kj_cg *cg, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, a, b, ""), a, b, "");
}

static LLVMValueRef smax(kj_cg *cg, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, a, b, ""), a, b, "");
}

/* A bound given by the user, adjusted as PySlice_AdjustIndices does:
 * negative counts from the end, then clamp into [lower, upper]. */
static LLVMValueRef adjust(kj_cg *cg, LLVMValueRef x, LLVMValueRef len, LLVMValueRef lower,
                           LLVMValueRef upper)
{
    LLVMBuilderRef B = cg->b;
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, x, kj_cg_i64(cg, 0), "");
    LLVMValueRef w = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, x, len, ""), x, "");
    return smin(cg, smax(cg, w, lower), upper);
}

/* Python's slice.indices(len) and the resulting length. */
static slice_dim slice_indices(kj_cg *cg, const kir_inst *s, LLVMValueRef len)
{
    LLVMBuilderRef B = cg->b;
    LLVMValueRef zero = kj_cg_i64(cg, 0), one = kj_cg_i64(cg, 1);
    LLVMValueRef step = s->c ? kj_cg_val(cg, s->c) : one;
    if (s->c && (!LLVMIsAConstantInt(step) || LLVMConstIntGetSExtValue(step) == 0))
        kj_cg_raise_if(cg, LLVMBuildICmp(B, LLVMIntEQ, step, zero, ""), KJ_RT_VALUE,
                       "slice step cannot be zero", s->span);
    LLVMValueRef back = LLVMBuildICmp(B, LLVMIntSLT, step, zero, "");
    LLVMValueRef lower = LLVMBuildSelect(B, back, kj_cg_i64(cg, -1), zero, "");
    LLVMValueRef upper = LLVMBuildSelect(B, back, LLVMBuildSub(B, len, one, ""), len, "");
    LLVMValueRef start = s->a ? adjust(cg, kj_cg_val(cg, s->a), len, lower, upper)
                              : LLVMBuildSelect(B, back, upper, lower, "");
    LLVMValueRef stop = s->b ? adjust(cg, kj_cg_val(cg, s->b), len, lower, upper)
                             : LLVMBuildSelect(B, back, lower, upper, "");
    LLVMValueRef astep = LLVMBuildSelect(B, back, LLVMBuildNeg(B, step, ""), step, "");
    LLVMValueRef dist =
        LLVMBuildSelect(B, back, LLVMBuildSub(B, start, stop, ""), LLVMBuildSub(B, stop, start, ""), "");
    LLVMValueRef n = LLVMBuildAdd(B, LLVMBuildUDiv(B, LLVMBuildSub(B, dist, one, ""), astep, ""), one, "");
    n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, dist, zero, ""), n, zero, "len");
    return (slice_dim){start, n, step};
}

/* VIEW a[args]: a SLICE keeps its dimension, an index drops it; the
 * dimensions not mentioned are kept whole. */
static LLVMValueRef view(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = type_of(cg, in->a);
    LLVMValueRef arr = kj_cg_val(cg, in->a);
    LLVMBuilderRef B = cg->b;
    unsigned od = 0;
    LLVMValueRef out = LLVMGetUndef(kj_cg_type(cg, in->type)), off = kj_cg_i64(cg, 0);
    for (unsigned k = 0; k < at->ndim; k++) {
        LLVMValueRef len = field(cg, arr, F_SHAPE, k), st = field(cg, arr, F_STRIDES, k);
        const kir_inst *x = k < in->nargs ? &cg->fn->kf->insts[in->args[k]] : NULL;
        if (x && x->op != KIR_SLICE) { /* an index, already wrapped */
            off = LLVMBuildAdd(B, off, LLVMBuildMul(B, kj_cg_val(cg, in->args[k]), st, ""), "");
            continue;
        }
        if (x) {
            slice_dim sd = slice_indices(cg, x, len);
            off = LLVMBuildAdd(B, off, LLVMBuildMul(B, sd.start, st, ""), "");
            len = sd.len;
            st = LLVMBuildMul(B, st, sd.step, "");
        }
        LLVMValueRef shp = LLVMBuildExtractValue(B, out, F_SHAPE, ""),
                     sts = LLVMBuildExtractValue(B, out, F_STRIDES, "");
        out = LLVMBuildInsertValue(B, out, LLVMBuildInsertValue(B, shp, len, od, ""), F_SHAPE, "");
        out = LLVMBuildInsertValue(B, out, LLVMBuildInsertValue(B, sts, st, od, ""), F_STRIDES, "");
        od++;
    }
    /* Not inbounds: an empty slice may start just before the data. */
    LLVMValueRef data = LLVMBuildGEP2(B, cg->t_i8, field(cg, arr, F_DATA, 0), &off, 1, "");
    out = LLVMBuildInsertValue(B, out, data, F_DATA, "");
    return LLVMBuildInsertValue(B, out, field(cg, arr, F_OWNER, 0), F_OWNER, "view");
}

/* The same data, owner and items with the shape and the strides reversed:
 * a view, as slicing makes. */
LLVMValueRef kj_cg_array_transpose(kj_cg *cg, const kj_type *at, LLVMValueRef arr)
{
    LLVMValueRef out = arr;
    for (unsigned f = F_SHAPE; f <= F_STRIDES; f++) {
        LLVMValueRef from = LLVMBuildExtractValue(cg->b, arr, f, ""), to = from;
        for (unsigned k = 0; k < at->ndim; k++)
            to = LLVMBuildInsertValue(cg->b, to, LLVMBuildExtractValue(cg->b, from, at->ndim - 1 - k, ""), k, "");
        out = LLVMBuildInsertValue(cg->b, out, to, f, "");
    }
    return out;
}

/* ---- indices ---- */

static LLVMValueRef wrap(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a = kj_cg_val(cg, in->a), n = kj_cg_val(cg, in->b);
    if (!kj_cg_is_signed(in->type)) return a;
    LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, a, LLVMConstNull(LLVMTypeOf(a)), "");
    return LLVMBuildSelect(cg->b, neg, LLVMBuildAdd(cg->b, a, n, ""), a, "wrapped");
}

static LLVMValueRef to_i64(kj_cg *cg, const kj_type *t, LLVMValueRef v)
{
    if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64) return v;
    return kj_cg_is_signed(t) ? LLVMBuildSExt(cg->b, v, cg->t_i64, "")
                              : LLVMBuildZExt(cg->b, v, cg->t_i64, "");
}

/* 0 <= a < b, else IndexError naming the index as written (before
 * wrapping, as NumPy reports it; unsigned when it was: aux), the axis and
 * the extent. */
static void bounds_check(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = type_of(cg, in->a);
    LLVMValueRef a = kj_cg_val(cg, in->a), n = kj_cg_val(cg, in->b);
    LLVMBasicBlockRef fail = kj_cg_bb(cg, "oob"), ok = kj_cg_bb(cg, "inbounds");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntUGE, a, n, ""), fail, ok);
    LLVMPositionBuilderAtEnd(cg->b, fail);
    const kir_inst *ai = &cg->fn->kf->insts[in->a];
    LLVMValueRef shown = ai->op == KIR_WRAP_INDEX ? kj_cg_val(cg, ai->a) : a;
    LLVMValueRef args[6] = {cg->fn->rt, to_i64(cg, t, shown), kj_cg_i64(cg, in->i), to_i64(cg, t, n),
                            kj_cg_i32(cg, in->span.line), kj_cg_i32(cg, in->span.col)};
    kj_cg_rtcall(cg, in->aux ? KJ_RTF_RAISE_INDEX_U : KJ_RTF_RAISE_INDEX, args, 6);
    LLVMBuildUnreachable(cg->b);
    LLVMPositionBuilderAtEnd(cg->b, ok);
}

LLVMValueRef kj_cg_array_inst(kj_cg *cg, kir_ref r)
{
    const kir_inst *in = &cg->fn->kf->insts[r];
    switch ((kir_op)in->op) {
    case KIR_ARRAY_DIM: return field(cg, kj_cg_val(cg, in->a), F_SHAPE, (unsigned)in->i);
    case KIR_ARRAY_LOAD: return load(cg, in);
    case KIR_ARRAY_STORE: store(cg, in); return NULL;
    case KIR_ARRAY_VIEW: return view(cg, in);
    case KIR_SLICE: return LLVMGetUndef(kj_cg_type(cg, in->type)); /* read by VIEW */
    case KIR_WRAP_INDEX: return wrap(cg, in);
    case KIR_BOUNDS_CHECK: bounds_check(cg, in); return NULL;
    default: return NULL;
    }
}
