/* SPDX-License-Identifier: BSD-2-Clause */
/* Elementwise work on host arrays.
 *
 * Array operators (a + b, a < b, -a, a & b) and math functions on arrays
 * (np.sin(a), np.minimum(a, b)) call the runtime (rt_elementwise.c), which
 * follows NumPy's loops bit for bit. Ufunc calls — @vectorize scalar
 * functions and @guvectorize core functions applied over arrays — get
 * their loop generated here, with a direct call of the compiled function
 * that LLVM inlines: the runtime only works out the shapes
 * (kj_rt_ufunc_prepare). A @vectorize call whose array operands are all
 * C-contiguous with the result's shape runs one flat loop over the
 * elements, which LLVM vectorises; anything else (broadcasting, views)
 * runs nested loops over byte strides. On the parallel target, for
 * @vectorize/@guvectorize(target='parallel') and in @jit(parallel=True)
 * functions, the loop over the outermost index (the flat index for the
 * contiguous loop) is split into chunks run on the thread pool
 * (llvm_parallel.c); small loops stay on the calling thread. */
#include "llvm_ufunc.h"

#include "../ir/builtins.h"

#include <string.h>

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

/* ---- operators and math on arrays ---- */

/* out = a OP b in the runtime; operands are arrays or scalars. */
static LLVMValueRef binop(kj_cg *cg, const kir_inst *in, kj_rt_eop op, kir_ref ra, kir_ref rb)
{
    LLVMValueRef a[3], b[3];
    kj_cg_operand(cg, ra, a);
    kj_cg_operand(cg, rb, b);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef args[13] = {cg->fn->rt, kj_cg_i32(cg, op), a[0], a[1], a[2], b[0], b[1], b[2],
                             kj_cg_i32(cg, kj_cg_dtype(in->type->elem)), kj_cg_i32(cg, nd), out,
                             kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_BINOP, args, 13);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, nd), out, "");
}

static LLVMValueRef unop(kj_cg *cg, const kir_inst *in, kj_rt_eop op, kir_ref ra)
{
    LLVMValueRef a[3];
    kj_cg_operand(cg, ra, a);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef args[9] = {cg->fn->rt, kj_cg_i32(cg, op), a[0], a[1], a[2],
                            kj_cg_i32(cg, kj_cg_dtype(in->type->elem)), out, kj_cg_line(cg, in),
                            kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_UNOP, args, 9);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, nd), out, "");
}

LLVMValueRef kj_cg_array_arith(kj_cg *cg, const kir_inst *in)
{
    static const kj_rt_eop ops[KIR__COUNT] = {
        [KIR_ADD] = KJ_EOP_ADD, [KIR_SUB] = KJ_EOP_SUB, [KIR_MUL] = KJ_EOP_MUL, [KIR_DIV] = KJ_EOP_DIV,
        [KIR_FLOORDIV] = KJ_EOP_FLOORDIV, [KIR_MOD] = KJ_EOP_MOD, [KIR_POW] = KJ_EOP_POW,
        [KIR_AND] = KJ_EOP_AND, [KIR_OR] = KJ_EOP_OR, [KIR_XOR] = KJ_EOP_XOR, [KIR_SHL] = KJ_EOP_SHL,
        [KIR_SHR] = KJ_EOP_SHR, [KIR_EQ] = KJ_EOP_EQ, [KIR_NE] = KJ_EOP_NE, [KIR_LT] = KJ_EOP_LT,
        [KIR_LE] = KJ_EOP_LE, [KIR_GT] = KJ_EOP_GT, [KIR_GE] = KJ_EOP_GE, [KIR_NEG] = KJ_EOP_NEG,
        [KIR_NOT] = KJ_EOP_NOT, [KIR_INVERT] = KJ_EOP_INVERT,
    };
    switch ((kir_op)in->op) {
    case KIR_NEG: case KIR_NOT: case KIR_INVERT: return unop(cg, in, ops[in->op], in->a);
    default: return binop(cg, in, ops[in->op], in->a, in->b);
    }
}

/* math.*(array), np.minimum/maximum, abs: the runtime operation of each. */
LLVMValueRef kj_cg_array_math(kj_cg *cg, const kir_inst *in)
{
    static const kj_rt_eop unary[KJ_B__COUNT] = {
        [KJ_B_SIN] = KJ_EOP_SIN, [KJ_B_COS] = KJ_EOP_COS, [KJ_B_TAN] = KJ_EOP_TAN,
        [KJ_B_ASIN] = KJ_EOP_ASIN, [KJ_B_ACOS] = KJ_EOP_ACOS, [KJ_B_ATAN] = KJ_EOP_ATAN,
        [KJ_B_SINH] = KJ_EOP_SINH, [KJ_B_COSH] = KJ_EOP_COSH, [KJ_B_TANH] = KJ_EOP_TANH,
        [KJ_B_ASINH] = KJ_EOP_ASINH, [KJ_B_ACOSH] = KJ_EOP_ACOSH, [KJ_B_ATANH] = KJ_EOP_ATANH,
        [KJ_B_EXP] = KJ_EOP_EXP, [KJ_B_EXPM1] = KJ_EOP_EXPM1, [KJ_B_EXP2] = KJ_EOP_EXP2,
        [KJ_B_LOG] = KJ_EOP_LOG, [KJ_B_LOG1P] = KJ_EOP_LOG1P, [KJ_B_LOG2] = KJ_EOP_LOG2,
        [KJ_B_LOG10] = KJ_EOP_LOG10, [KJ_B_SQRT] = KJ_EOP_SQRT, [KJ_B_FABS] = KJ_EOP_FABS,
        [KJ_B_ERF] = KJ_EOP_ERF, [KJ_B_ERFC] = KJ_EOP_ERFC, [KJ_B_GAMMA] = KJ_EOP_GAMMA,
        [KJ_B_LGAMMA] = KJ_EOP_LGAMMA, [KJ_B_FLOOR] = KJ_EOP_FLOOR, [KJ_B_CEIL] = KJ_EOP_CEIL,
        [KJ_B_TRUNC] = KJ_EOP_TRUNC, [KJ_B_ISNAN] = KJ_EOP_ISNAN, [KJ_B_ISINF] = KJ_EOP_ISINF,
        [KJ_B_ISFINITE] = KJ_EOP_ISFINITE, [KJ_B_ABS] = KJ_EOP_ABS,
    };
    static const kj_rt_eop binary[KJ_B__COUNT] = {
        [KJ_B_ATAN2] = KJ_EOP_ATAN2, [KJ_B_POW] = KJ_EOP_FPOW, [KJ_B_COPYSIGN] = KJ_EOP_COPYSIGN,
        [KJ_B_FMOD] = KJ_EOP_FMOD, [KJ_B_NP_FMOD] = KJ_EOP_FMOD, [KJ_B_HYPOT] = KJ_EOP_HYPOT, [KJ_B_NP_MINIMUM] = KJ_EOP_MINIMUM,
        [KJ_B_NP_MAXIMUM] = KJ_EOP_MAXIMUM,
    };
    if (in->aux < KJ_B__COUNT && binary[in->aux] && in->nargs >= 2)
        return binop(cg, in, binary[in->aux], in->args[0], in->args[1]);
    if (in->aux < KJ_B__COUNT && unary[in->aux] && in->nargs >= 1)
        return unop(cg, in, unary[in->aux], in->args[0]);
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
    kj_cg_fail(cg, in->span, "built-in '%s' on arrays is not supported by the host code generator yet",
               bi ? bi->path : "?");
    return LLVMGetUndef(kj_cg_type(cg, in->type));
}

/* ---- loops ---- */

/* Element k of an i64 array temporary. */
static LLVMValueRef load_i64(kj_cg *cg, LLVMValueRef arr, unsigned n, unsigned k)
{
    LLVMTypeRef at = LLVMArrayType2(cg->t_i64, n);
    LLVMValueRef idx[2] = {kj_cg_i64(cg, 0), kj_cg_i64(cg, k)};
    return LLVMBuildLoad2(cg->b, cg->t_i64, LLVMBuildInBoundsGEP2(cg->b, at, arr, idx, 2, ""), "");
}

static void store_at(kj_cg *cg, LLVMTypeRef elt, LLVMValueRef arr, unsigned n, unsigned k, LLVMValueRef v)
{
    LLVMTypeRef at = LLVMArrayType2(elt, n);
    LLVMValueRef idx[2] = {kj_cg_i64(cg, 0), kj_cg_i64(cg, k)};
    LLVMBuildStore(cg->b, v, LLVMBuildInBoundsGEP2(cg->b, at, arr, idx, 2, ""));
}

static LLVMValueRef callee_of(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef f = in->fn ? LLVMGetNamedFunction(cg->mod, kj_cg_fn_name(cg, in->fn)) : NULL;
    if (!f) kj_cg_fail(cg, in->span, "ufunc '%s' is not compiled for the host", in->fn ? in->fn->name : "?");
    return f;
}

/* The address of operand o's element at loop index idx. */
static LLVMValueRef elem_addr(kj_cg *cg, const uf_call *c, const uf_op *o, const LLVMValueRef *idx)
{
    if (c->flat) {
        LLVMValueRef i = idx[0];
        return LLVMBuildInBoundsGEP2(cg->b, kj_cg_memtype(cg, o->elem), o->data, &i, 1, "");
    }
    LLVMValueRef off = kj_cg_i64(cg, 0);
    int last = c->loop_ndim - 1;
    for (int d = 0; d < last; d++)
        off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, idx[d], o->strides[d], ""), "");
    LLVMValueRef p = LLVMBuildGEP2(cg->b, cg->t_i8, o->data, &off, 1, "");
    if (last < 0) return p;
    /* The innermost index in elements (strides are multiples of the item
     * size): LLVM's vectoriser then versions the loop for a unit stride. */
    LLVMTypeRef et = kj_cg_memtype(cg, o->elem);
    LLVMValueRef isz = kj_cg_i64(cg, (int64_t)LLVMABISizeOfType(cg->td, et));
    LLVMValueRef i = LLVMBuildMul(cg->b, idx[last], LLVMBuildExactSDiv(cg->b, o->strides[last], isz, ""), "");
    return LLVMBuildGEP2(cg->b, et, p, &i, 1, "");
}

static LLVMValueRef load_elem(kj_cg *cg, const uf_op *o, LLVMValueRef p)
{
    LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, o->elem), p, "");
    return kj_cg_from_mem(cg, o->elem, v);
}

/* ---- @vectorize ---- */

/* out[i] = f(a[i], b[i], ...) */
static void vectorize_body(kj_cg *cg, void *ctx, const LLVMValueRef *idx)
{
    uf_call *c = ctx;
    LLVMValueRef args[MAX_UF_OPS + 1];
    args[0] = cg->fn->rt;
    for (int k = 0; k < c->nin; k++) {
        const uf_op *o = &c->op[k];
        LLVMValueRef v = o->array ? load_elem(cg, o, elem_addr(cg, c, o, idx)) : o->value;
        args[k + 1] = kj_cg_cast(cg, v, o->elem, o->param);
    }
    LLVMValueRef r = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(c->callee), c->callee, args,
                                    (unsigned)c->nin + 1, "");
    const uf_op *out = &c->op[c->nin];
    r = kj_cg_to_mem(cg, out->elem, kj_cg_cast(cg, r, c->f->ret, out->elem));
    LLVMBuildStore(cg->b, r, elem_addr(cg, c, out, idx));
}

/* ---- the parallel form ---- */

/* Bytes of work below which a ufunc loop stays on the calling thread, per
 * chunk: a chunk reads and writes at least this much. */
enum { UF_MIN_CHUNK_BYTES = 32768, MAX_UF_CAPTURES = MAX_UF_OPS * (KJ_ABI_MAX_DIMS + 3) + KJ_ABI_MAX_DIMS };

/* Where the loop body's values live in c, for kj_cg_pack/unpack. */
static unsigned uf_captures(uf_call *c, LLVMValueRef **out)
{
    unsigned n = 0;
    for (int k = 0; k < c->nops; k++) {
        uf_op *o = &c->op[k];
        if (o->array) {
            out[n++] = &o->data;
            for (int d = 0; d < c->loop_ndim; d++) out[n++] = &o->strides[d];
        }
        if (o->value) out[n++] = &o->value;
        if (o->temp) out[n++] = &o->temp; /* a scalar input of a gufunc: read only */
        if (o->view) out[n++] = &o->view;
    }
    for (int d = 0; d < c->loop_ndim; d++) out[n++] = &c->shape[d];
    return n;
}

typedef struct uf_chunk_ctx {
    uf_call *c;
    kj_cg_loop_body body;
    LLVMValueRef begin;
} uf_chunk_ctx;

/* The body at the outermost index shifted by the chunk's start. */
static void offset_body(kj_cg *cg, void *ctx, const LLVMValueRef *idx)
{
    uf_chunk_ctx *x = ctx;
    LLVMValueRef j[KJ_ABI_MAX_DIMS];
    for (int d = 0; d < KJ_ABI_MAX_DIMS; d++) j[d] = idx[d];
    j[0] = LLVMBuildNSWAdd(cg->b, idx[0], x->begin, "");
    x->body(cg, x->c, j);
}

/* Bytes per element of the arrays a loop walks (at least 1). */
static int64_t uf_elem_bytes(kj_cg *cg, const uf_call *c)
{
    int64_t b = 0;
    for (int k = 0; k < c->nops; k++)
        if (c->op[k].array) b += (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, c->op[k].elem));
    return b > 0 ? b : 1;
}

/* The loop (flat over the element count, or nested over c->shape) as
 * chunks of its outermost index on the pool: at least min_bytes of work
 * per chunk, counting the elements of the inner dimensions. */
static void uf_parallel(kj_cg *cg, uf_call *c, kj_cg_loop_body body, LLVMValueRef n, int64_t min_elems)
{
    LLVMValueRef *caps[MAX_UF_CAPTURES], *ccaps[MAX_UF_CAPTURES];
    unsigned nc = uf_captures(c, caps);
    LLVMTypeRef ety;
    LLVMValueRef env = kj_cg_pack(cg, caps, nc, &ety);
    /* the minimum chunk in outer indices: min_elems / (elements per index) */
    LLVMValueRef inner = kj_cg_i64(cg, 1);
    for (int d = 1; !c->flat && d < c->loop_ndim; d++) inner = LLVMBuildMul(cg->b, inner, c->shape[d], "");
    LLVMValueRef pos = LLVMBuildICmp(cg->b, LLVMIntSGT, inner, kj_cg_i64(cg, 0), "");
    LLVMValueRef min = LLVMBuildSDiv(cg->b, kj_cg_i64(cg, min_elems),
                                     LLVMBuildSelect(cg->b, pos, inner, kj_cg_i64(cg, 1), ""), "");

    uf_call cc = *c;
    uf_captures(&cc, ccaps);
    kj_cg_chunk ch;
    kj_cg_chunk_begin(cg, &ch, "uf.chunk");
    kj_cg_unpack(cg, ety, ch.env, ccaps, nc);
    LLVMValueRef cnt[KJ_ABI_MAX_DIMS] = {0}, idx[KJ_ABI_MAX_DIMS] = {0};
    cnt[0] = LLVMBuildSub(cg->b, ch.end, ch.begin, "");
    for (int d = 1; d < cc.loop_ndim; d++) cnt[d] = cc.shape[d];
    uf_chunk_ctx x = {&cc, body, ch.begin};
    kj_cg_loop_nest(cg, cc.flat ? 1 : cc.loop_ndim, cnt, idx, 0, offset_body, &x);
    kj_cg_chunk_end(cg, &ch);
    kj_cg_parallel_for(cg, ch.llfn, env, n, min, 0, NULL);
}

/* Does this ufunc call run in parallel? */
static bool uf_parallel_call(kj_cg *cg, const uf_call *c)
{
    if (c->loop_ndim < 1 || cg->fn->kx) return false;
    return kj_cg_parallel_here(cg) || cg->run->parallel_loops(c->f);
}

/* ---- the shapes: kj_rt_ufunc_prepare ---- */

/* Call the runtime for the loop shape, the strides and the outputs to
 * create (bit k of `alloc`: descp[k] is storage to fill); then read what
 * the loop needs. `core` is the gufunc core specification (NULL for
 * @vectorize). */
LLVMValueRef kj_cg_uf_prepare(kj_cg *cg, uf_call *c, LLVMValueRef *descp, int32_t alloc, LLVMValueRef core,
                            const char *layout)
{
    unsigned n = (unsigned)c->nops, nd = (unsigned)c->loop_ndim;
    LLVMValueRef ops = kj_cg_alloca(cg, LLVMArrayType2(cg->t_ptr, n), "uf.ops");
    LLVMValueRef ndims = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i32, n), "uf.ndims");
    LLVMValueRef dtypes = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i32, n), "uf.dtypes");
    for (unsigned k = 0; k < n; k++) {
        const uf_op *o = &c->op[k];
        store_at(cg, cg->t_ptr, ops, n, k, o->array ? descp[k] : LLVMConstNull(cg->t_ptr));
        store_at(cg, cg->t_i32, ndims, n, k, kj_cg_i32(cg, o->array ? o->ndim : 0));
        store_at(cg, cg->t_i32, dtypes, n, k, kj_cg_i32(cg, kj_cg_dtype(o->elem)));
    }
    LLVMValueRef shape = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i64, nd ? nd : 1), "uf.shape");
    LLVMValueRef strides = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i64, n * nd > 0 ? n * nd : 1), "uf.strides");
    const kir_inst *in = c->in;
    LLVMValueRef a[15] = {cg->fn->rt, kj_cg_cstr(cg, c->f->name),
                          layout ? kj_cg_cstr(cg, layout) : LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, c->nin),
                          kj_cg_i32(cg, c->nops), ops, ndims, dtypes, core ? core : LLVMConstNull(cg->t_ptr),
                          kj_cg_i32(cg, alloc), kj_cg_i32(cg, c->loop_ndim), shape, strides, kj_cg_line(cg, in),
                          kj_cg_col(cg, in)};
    LLVMValueRef flag = kj_cg_rtcall(cg, KJ_RTF_UFUNC_PREPARE, a, 15);
    for (unsigned d = 0; d < nd; d++) c->shape[d] = load_i64(cg, shape, nd ? nd : 1, d);
    for (unsigned k = 0; k < n; k++) {
        uf_op *o = &c->op[k];
        if (!o->array) continue;
        /* an input an output overlaps now describes a copy (rt_ufunc.c) */
        bool copied = k < (unsigned)c->nin;
        if ((alloc >> k & 1) || copied) o->desc = LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, o->ndim), descp[k], "uf.out");
        o->data = LLVMBuildExtractValue(cg->b, o->desc, 0, "");
        for (unsigned d = 0; d < nd; d++) o->strides[d] = load_i64(cg, strides, n * nd, k * nd + d);
    }
    return flag;
}

/* Operand k from KIR value r. */
void kj_cg_uf_operand(kj_cg *cg, uf_op *o, kir_ref r)
{
    const kj_type *t = type_of(cg, r);
    o->array = t->kind == KJ_T_ARRAY;
    o->elem = o->array ? t->elem : t;
    o->ndim = o->array ? t->ndim : 0;
    o->desc = o->array ? kj_cg_val(cg, r) : NULL;
    o->value = o->array ? NULL : kj_cg_val(cg, r);
}

static bool too_many(kj_cg *cg, const kir_inst *in, int n)
{
    if (n <= MAX_UF_OPS) return false;
    kj_cg_fail(cg, in->span, "ufunc calls with more than %d operands are not supported", MAX_UF_OPS);
    return true;
}

/* f(scalars...) without arrays: a plain call. */
static LLVMValueRef scalar_call(kj_cg *cg, uf_call *c)
{
    LLVMValueRef args[MAX_UF_OPS + 1];
    args[0] = cg->fn->rt;
    for (int k = 0; k < c->nin; k++) args[k + 1] = kj_cg_cast(cg, c->op[k].value, c->op[k].elem, c->op[k].param);
    LLVMValueRef r = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(c->callee), c->callee, args,
                                    (unsigned)c->nin + 1, "");
    return kj_cg_cast(cg, r, c->f->ret, c->in->type);
}

/* Does any input of c's call hold an array? (inputs set) */
static bool any_array(const uf_call *c)
{
    for (int k = 0; k < c->nin; k++)
        if (c->op[k].array) return true;
    return false;
}

bool kj_cg_uf_vectorize_operands(kj_cg *cg, uf_call *c, LLVMValueRef *descp, int32_t *alloc)
{
    const kir_inst *in = c->in;
    int nout = in->aux;
    c->nin = (int)in->nargs - nout;
    c->nops = c->nin + 1;
    if (too_many(cg, in, c->nops) || (int)c->f->nparams != c->nin) {
        if (!cg->failed) kj_cg_fail(cg, in->span, "ufunc '%s' called with %d inputs", c->f->name, c->nin);
        return false;
    }
    for (int k = 0; k < c->nin; k++) {
        kj_cg_uf_operand(cg, &c->op[k], in->args[k]);
        c->op[k].param = c->f->params[k];
        descp[k] = c->op[k].array ? kj_cg_spill(cg, c->op[k].desc) : NULL;
    }
    uf_op *out = &c->op[c->nin];
    *alloc = 0;
    if (nout) {
        kj_cg_uf_operand(cg, out, in->args[c->nin]);
        descp[c->nin] = kj_cg_spill(cg, out->desc);
    } else if (any_array(c)) {
        *out = (uf_op){.array = true, .elem = in->type->elem, .ndim = in->type->ndim};
        descp[c->nin] = kj_cg_out_desc(cg, out->ndim);
        *alloc = 1 << c->nin;
    }
    /* an input with more dimensions than out= is the runtime's error */
    c->loop_ndim = out->ndim;
    for (int k = 0; k < c->nin; k++)
        if (c->op[k].ndim > c->loop_ndim) c->loop_ndim = c->op[k].ndim;
    return true;
}

/* @vectorize f(a, b, out=o): the flat loop when the runtime says every
 * array is C-contiguous with the result's shape, else the strided nest. */
static LLVMValueRef vectorize_call(kj_cg *cg, uf_call *c)
{
    const kir_inst *in = c->in;
    LLVMValueRef descp[MAX_UF_OPS];
    int32_t alloc = 0;
    if (!kj_cg_uf_vectorize_operands(cg, c, descp, &alloc)) return LLVMGetUndef(kj_cg_type(cg, in->type));
    if (!any_array(c) && !in->aux) return scalar_call(cg, c);
    uf_op *out = &c->op[c->nin];
    LLVMValueRef flag = kj_cg_uf_prepare(cg, c, descp, alloc, NULL, c->f->fuse_tree); /* NULL but for fused ones */
    LLVMValueRef result = out->desc;

    LLVMBasicBlockRef flat = kj_cg_bb(cg, "uf.flat"), strided = kj_cg_bb(cg, "uf.strided"),
                      done = kj_cg_bb(cg, "uf.done");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, flag, kj_cg_i32(cg, 0), ""), flat, strided);
    LLVMValueRef idx[KJ_ABI_MAX_DIMS] = {0};
    LLVMPositionBuilderAtEnd(cg->b, flat);
    LLVMValueRef total = kj_cg_i64(cg, 1);
    for (int d = 0; d < c->loop_ndim; d++) total = LLVMBuildNSWMul(cg->b, total, c->shape[d], "");
    c->flat = true;
    bool par = uf_parallel_call(cg, c);
    int64_t min_elems = UF_MIN_CHUNK_BYTES / uf_elem_bytes(cg, c);
    if (par) uf_parallel(cg, c, vectorize_body, total, min_elems);
    else kj_cg_loop_nest(cg, 1, &total, idx, 0, vectorize_body, c);
    LLVMBuildBr(cg->b, done);
    LLVMPositionBuilderAtEnd(cg->b, strided);
    c->flat = false;
    if (par) uf_parallel(cg, c, vectorize_body, c->shape[0], min_elems);
    else kj_cg_loop_nest(cg, c->loop_ndim, c->shape, idx, 0, vectorize_body, c);
    LLVMBuildBr(cg->b, done);
    LLVMMoveBasicBlockAfter(done, LLVMGetInsertBlock(cg->b));
    LLVMPositionBuilderAtEnd(cg->b, done);
    return result;
}

/* ---- @guvectorize ---- */

static const kj_type *elem_of(const kj_type *t) { return t->kind == KJ_T_ARRAY ? t->elem : t; }

/* The core view of operand o passed for an array parameter: its last
 * ncore dimensions ((1,) for a () operand), data set per iteration. */
static LLVMValueRef view_template(kj_cg *cg, uf_op *o)
{
    int pn = o->param->ndim;
    LLVMValueRef v = LLVMGetUndef(kj_cg_array_type(cg, pn));
    LLVMValueRef isz = kj_cg_i64(cg, (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, o->elem)));
    for (int j = 0; j < pn; j++) {
        LLVMValueRef n = kj_cg_i64(cg, 1), st = isz;
        if (o->array && o->ncore) {
            unsigned src = (unsigned)(o->ndim - o->ncore + j);
            n = LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, o->desc, 1, ""), src, "");
            st = LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, o->desc, 2, ""), src, "");
        }
        LLVMValueRef shp = LLVMBuildExtractValue(cg->b, v, 1, ""), sts = LLVMBuildExtractValue(cg->b, v, 2, "");
        v = LLVMBuildInsertValue(cg->b, v, LLVMBuildInsertValue(cg->b, shp, n, (unsigned)j, ""), 1, "");
        v = LLVMBuildInsertValue(cg->b, v, LLVMBuildInsertValue(cg->b, sts, st, (unsigned)j, ""), 2, "");
    }
    LLVMValueRef owner = o->array ? LLVMBuildExtractValue(cg->b, o->desc, 3, "") : LLVMConstNull(cg->t_ptr);
    return LLVMBuildInsertValue(cg->b, v, owner, 3, "core");
}

/* core(views of this iteration...) */
static void gufunc_body(kj_cg *cg, void *ctx, const LLVMValueRef *idx)
{
    uf_call *c = ctx;
    LLVMValueRef args[MAX_UF_OPS + 1];
    args[0] = cg->fn->rt;
    for (int k = 0; k < c->nops; k++) {
        const uf_op *o = &c->op[k];
        LLVMValueRef p = o->array ? elem_addr(cg, c, o, idx) : o->temp;
        if (o->param->kind == KJ_T_ARRAY) args[k + 1] = LLVMBuildInsertValue(cg->b, o->view, p, 0, "");
        else args[k + 1] = kj_cg_cast(cg, o->array ? load_elem(cg, o, p) : o->value, o->elem, o->param);
    }
    LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(c->callee), c->callee, args, (unsigned)c->nops + 1, "");
}

/* The number of the dimension symbol `name`, added when new. */
static int32_t symbol(const char **syms, int *n, const char *name)
{
    for (int s = 0; s < *n; s++)
        if (!strcmp(syms[s], name)) return s;
    syms[*n] = name;
    return (*n)++;
}

/* The core specification for the runtime (rt_host.h): per operand its
 * number of core dimensions, then their symbols. */
static LLVMValueRef core_spec(kj_cg *cg, uf_call *c, const kj_gu_layout *lay)
{
    const char *syms[64];
    int nsyms = 0;
    LLVMValueRef v[MAX_UF_OPS * (KJ_ABI_MAX_DIMS + 1)];
    unsigned n = 0;
    for (int k = 0; k < c->nops; k++) {
        v[n++] = kj_cg_i32(cg, lay->args[k].ndims);
        for (uint32_t j = 0; j < lay->args[k].ndims && j < KJ_ABI_MAX_DIMS && nsyms < 16; j++)
            v[n++] = kj_cg_i32(cg, symbol(syms, &nsyms, lay->args[k].dims[j]));
    }
    return kj_cg_spill(cg, LLVMConstArray2(cg->t_i32, v, n));
}

/* An input array whose element type is not the parameter's: a converted
 * copy (NumPy casts inputs the same way). */
static void convert_input(kj_cg *cg, uf_call *c, uf_op *o)
{
    const kj_type *want = o->param->elem;
    LLVMValueRef a[8] = {cg->fn->rt, kj_cg_spill(cg, o->desc), kj_cg_i32(cg, o->ndim),
                         kj_cg_i32(cg, kj_cg_dtype(o->elem)), kj_cg_i32(cg, kj_cg_dtype(want)),
                         kj_cg_out_desc(cg, o->ndim), kj_cg_line(cg, c->in), kj_cg_col(cg, c->in)};
    kj_cg_rtcall(cg, KJ_RTF_COPY, a, 8);
    o->desc = LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, o->ndim), a[5], "");
    o->elem = want;
}

/* Set up the operands of a gufunc call; false after a failure. */
static bool gufunc_operands(kj_cg *cg, uf_call *c, const kj_gu_layout *lay, LLVMValueRef *descp, int32_t *alloc)
{
    const kir_inst *in = c->in;
    int given = (int)in->nargs;
    *alloc = 0;
    c->loop_ndim = 0;
    for (int k = 0; k < c->nops; k++) {
        uf_op *o = &c->op[k];
        o->param = c->f->params[k];
        o->ncore = (int)lay->args[k].ndims;
        if (k < given) {
            kj_cg_uf_operand(cg, o, in->args[k]);
            if (o->array && o->param->kind == KJ_T_ARRAY && o->elem != o->param->elem) {
                if (k >= c->nin) {
                    kj_cg_fail(cg, in->span, "an output of '%s' with element type %s is not supported "
                               "(the signature has %s)", c->f->name, kj_type_str(o->elem),
                               kj_type_str(o->param->elem));
                    return false;
                }
                convert_input(cg, c, o);
            }
            if (o->array && o->ndim - o->ncore > c->loop_ndim) c->loop_ndim = o->ndim - o->ncore;
        }
    }
    for (int k = 0; k < c->nops; k++) {
        uf_op *o = &c->op[k];
        if (k >= given) { /* an output to create; a scalar one lives in a temporary */
            o->elem = elem_of(o->param);
            o->ndim = c->loop_ndim + o->ncore;
            o->array = o->ndim > 0;
            if (o->array) *alloc |= 1 << k;
        }
        descp[k] = !o->array ? NULL : k < given ? kj_cg_spill(cg, o->desc) : kj_cg_out_desc(cg, o->ndim);
        if (o->param->kind == KJ_T_ARRAY && (o->array ? (o->ncore ? o->ncore : 1) : 1) != o->param->ndim) {
            kj_cg_fail(cg, in->span, "operand %d of '%s' does not match its layout '%s'", k + 1, c->f->name,
                       c->f->gu_layout);
            return false;
        }
    }
    return true;
}

bool kj_cg_uf_gufunc_operands(kj_cg *cg, uf_call *c, kj_gu_layout *lay, LLVMValueRef *descp, int32_t *alloc,
                              LLVMValueRef *core)
{
    const kir_inst *in = c->in;
    const char *ls = c->f->gu_layout;
    if (!ls || !kj_parse_layout(cg->a, ls, (uint32_t)strlen(ls), cg->km->src, in->span, cg->d, lay)) {
        cg->failed = true;
        return false;
    }
    c->nin = (int)lay->nin;
    c->nops = (int)(lay->nin + lay->nout);
    if (too_many(cg, in, c->nops) || (int)c->f->nparams != c->nops ||
        (in->nargs != lay->nin && in->nargs != lay->nin + lay->nout)) {
        if (!cg->failed) kj_cg_fail(cg, in->span, "gufunc '%s' called with %u operands", c->f->name, in->nargs);
        return false;
    }
    if (!gufunc_operands(cg, c, lay, descp, alloc)) return false;
    *core = core_spec(cg, c, lay);
    return true;
}

/* @guvectorize g(a, b[, out]): the nested loop over the loop dimensions,
 * calling the core function with views of the core dimensions. */
static LLVMValueRef gufunc_call(kj_cg *cg, uf_call *c)
{
    const kir_inst *in = c->in;
    kj_gu_layout lay;
    LLVMValueRef descp[MAX_UF_OPS], core;
    int32_t alloc = 0;
    if (!kj_cg_uf_gufunc_operands(cg, c, &lay, descp, &alloc, &core)) return LLVMGetUndef(kj_cg_type(cg, in->type));
    kj_cg_uf_prepare(cg, c, descp, alloc, core, c->f->gu_layout);
    for (int k = 0; k < c->nops; k++) {
        uf_op *o = &c->op[k];
        if (!o->array) {
            o->temp = kj_cg_alloca(cg, kj_cg_memtype(cg, o->elem), "uf.scalar");
            if (k < c->nin) LLVMBuildStore(cg->b, kj_cg_to_mem(cg, o->elem, o->value), o->temp);
        }
        if (o->param->kind == KJ_T_ARRAY) o->view = view_template(cg, o);
    }
    LLVMValueRef idx[KJ_ABI_MAX_DIMS] = {0};
    c->flat = false;
    /* a gufunc call does a core's work per element: smaller chunks */
    if (uf_parallel_call(cg, c)) uf_parallel(cg, c, gufunc_body, c->shape[0], UF_MIN_CHUNK_BYTES / 64);
    else kj_cg_loop_nest(cg, c->loop_ndim, c->shape, idx, 0, gufunc_body, c);
    if (in->nargs > lay.nin || lay.nout != 1) return kj_cg_zero(cg, in->type);
    const uf_op *out = &c->op[c->nin];
    if (out->array && (in->type->kind != KJ_T_ARRAY || in->type->ndim != out->ndim)) {
        kj_cg_fail(cg, in->span, "the result of '%s' has %d dimensions, not those of %s", c->f->name, out->ndim,
                   kj_type_str(in->type));
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    if (out->array) return out->desc;
    LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, out->elem), out->temp, "");
    return kj_cg_cast(cg, kj_cg_from_mem(cg, out->elem, v), out->elem, in->type);
}

LLVMValueRef kj_cg_ufunc_call(kj_cg *cg, kir_ref r)
{
    const kir_inst *in = &cg->fn->kf->insts[r];
    if (in->fn && in->fn->applies) {
        uf_call g = {.in = in, .f = in->fn->applies};
        return kj_cg_ufunc_gpu(cg, &g);
    }
    uf_call c = {.in = in, .f = in->fn, .callee = callee_of(cg, in)};
    if (!c.callee) return in->type ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
    return c.f->kind == KIR_FN_GUFUNC ? gufunc_call(cg, &c) : vectorize_call(cg, &c);
}
