/* SPDX-License-Identifier: BSD-2-Clause */
/* Host lowering of KJ_BUILTINS_NPSHAPE (builtins_npshape.h). The wrappers
 * (a.flags, a.flat, np.ndindex, np.ndenumerate, np.nditer) are built here as
 * the structs of their tuple types; a.item()/a.itemset() read and write the
 * one element in place; np.hsplit/vsplit/dsplit are kj_rt_split on their
 * axis; the rest is one kj_rt_npshape call (array_npshape.h's operation,
 * operands, integers in an int64 array, floats), or kj_rt_broadcast_arrays. */
#include "codegen.h"

#include "../abi/abi.h"
#include "../ir/builtins.h"
#include "../runtime/array_npshape.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

static const kj_type *type_at(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static bool has(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return k < in->nargs && in->args[k] && type_at(cg, in->args[k])->kind != KJ_T_NONE;
}

static LLVMValueRef as_(kj_cg *cg, const kir_inst *in, uint32_t k, const kj_type *to, LLVMValueRef dflt)
{
    if (!has(cg, in, k)) return dflt;
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), type_at(cg, in->args[k]), to);
}

/* A struct of in's (tuple) type from n values. */
static LLVMValueRef make_struct(kj_cg *cg, const kj_type *t, const LLVMValueRef *v, unsigned n)
{
    LLVMValueRef s = LLVMGetUndef(kj_cg_type(cg, t));
    for (unsigned k = 0; k < n; k++) s = LLVMBuildInsertValue(cg->b, s, v[k], k, "");
    return s;
}

static LLVMValueRef b_flags(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = type_at(cg, in->args[0]);
    LLVMValueRef a = kj_cg_val(cg, in->args[0]);
    LLVMValueRef c = kj_cg_array_contiguous(cg, at, a, false), f = kj_cg_array_contiguous(cg, at, a, true);
    LLVMValueRef v[3] = {c, f, c};
    return make_struct(cg, in->type, v, 3);
}

/* The int64s of a tuple value or of the int arguments from `from` on into p;
 * their count. */
static unsigned ints_of(kj_cg *cg, const kir_inst *in, uint32_t from, LLVMValueRef *p)
{
    const kj_type *t = type_at(cg, in->args[from]);
    if (t->kind == KJ_T_TUPLE) {
        LLVMValueRef v = kj_cg_val(cg, in->args[from]);
        for (unsigned k = 0; k < t->n; k++) p[k] = LLVMBuildExtractValue(cg->b, v, k, "");
        return t->n;
    }
    unsigned n = 0;
    for (uint32_t k = from; k < in->nargs; k++) p[n++] = as_(cg, in, k, &T_I64, kj_cg_i64(cg, 0));
    return n;
}

static LLVMValueRef b_wrapper(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef v;
    if (in->aux == KJ_B_NP_NDINDEX) {
        LLVMValueRef p[KJ_NPSHAPE_MAXDIM];
        unsigned n = ints_of(cg, in, 0, p);
        v = make_struct(cg, in->type->elems[0], p, n);
    } else {
        v = kj_cg_val(cg, in->args[0]);
    }
    return make_struct(cg, in->type, &v, 1);
}

/* a.item() / a.itemset(x): the one element, NumPy's ValueError otherwise. */
static LLVMValueRef b_item(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = type_at(cg, in->args[0]);
    LLVMValueRef a = kj_cg_val(cg, in->args[0]), n = kj_cg_i64(cg, 1);
    for (unsigned k = 0; k < at->ndim; k++) n = LLVMBuildMul(cg->b, n, kj_cg_array_dim(cg, a, k), "");
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, n, kj_cg_i64(cg, 1), ""), KJ_RT_VALUE,
                   in->aux == KJ_B_ARR_ITEM ? "can only convert an array of size 1 to a Python scalar"
                                            : "can only place a scalar for an array of size 1",
                   in->span);
    LLVMValueRef data = LLVMBuildExtractValue(cg->b, a, 0, "data");
    LLVMTypeRef mt = kj_cg_memtype(cg, at->elem);
    if (in->aux == KJ_B_ARR_ITEM) return kj_cg_from_mem(cg, at->elem, LLVMBuildLoad2(cg->b, mt, data, "item"));
    LLVMValueRef x = kj_cg_cast(cg, kj_cg_val(cg, in->args[1]), type_at(cg, in->args[1]), at->elem);
    LLVMBuildStore(cg->b, kj_cg_to_mem(cg, at->elem, x), data);
    return kj_cg_zero(cg, in->type);
}

/* np.hsplit/vsplit/dsplit: np.split along axis 1 (0 of a 1-d array), 0, 2. */
static LLVMValueRef b_xsplit(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[3], ix[3];
    kj_cg_operand(cg, in->args[0], a);
    kj_cg_operand(cg, in->args[1], ix);
    int nd = type_at(cg, in->args[0])->ndim;
    int axis = in->aux == KJ_B_NP_VSPLIT ? 0 : in->aux == KJ_B_NP_DSPLIT ? 2 : nd > 1 ? 1 : 0;
    LLVMValueRef args[11] = {cg->fn->rt, a[0], a[1], a[2], ix[0], ix[1], ix[2], kj_cg_i64(cg, axis),
                             kj_cg_i32(cg, 0), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_SPLIT, args, 11);
}

static LLVMValueRef b_broadcast_arrays(kj_cg *cg, const kir_inst *in)
{
    unsigned n = in->nargs;
    LLVMTypeRef pt = LLVMArrayType2(cg->t_ptr, n), it = LLVMArrayType2(cg->t_i32, n);
    LLVMValueRef ps = LLVMGetUndef(pt), ns = LLVMGetUndef(it);
    int dt = 0;
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef o[3];
        kj_cg_operand(cg, in->args[k], o);
        ps = LLVMBuildInsertValue(cg->b, ps, o[0], k, "");
        ns = LLVMBuildInsertValue(cg->b, ns, o[1], k, "");
        dt = kj_cg_dtype(type_at(cg, in->args[k])->elem);
    }
    LLVMValueRef args[8] = {cg->fn->rt, kj_cg_spill(cg, ps), kj_cg_spill(cg, ns), kj_cg_i32(cg, dt),
                            kj_cg_i32(cg, (int)n), kj_cg_i32(cg, in->type->elem->ndim), kj_cg_line(cg, in),
                            kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_BROADCAST_ARRAYS, args, 8);
}

typedef struct {
    int op;
    LLVMValueRef p[KJ_NPS_NPARAMS], f[2];
    int operands; /* how many of the arguments are array operands (a, b, c) */
} call;

/* A shape argument's extents into p[at..], their count into p[at + 4]. */
static void shape_into(kj_cg *cg, const kir_inst *in, uint32_t k, LLVMValueRef *p, unsigned at)
{
    LLVMValueRef v[KJ_NPSHAPE_MAXDIM];
    const kj_type *t = type_at(cg, in->args[k]);
    unsigned n = t->kind == KJ_T_TUPLE ? ints_of(cg, in, k, v) : 1;
    if (t->kind != KJ_T_TUPLE) v[0] = as_(cg, in, k, &T_I64, kj_cg_i64(cg, 0));
    for (unsigned d = 0; d < n && d < 4; d++) p[at + d] = v[d];
    p[at + 4] = kj_cg_i64(cg, n);
}

static void params(kj_cg *cg, const kir_inst *in, call *c)
{
    LLVMValueRef zero = kj_cg_i64(cg, 0);
    c->operands = 1;
    switch (in->aux) {
    case KJ_B_ARR_REAL: case KJ_B_ARR_IMAG:
        c->op = KJ_NPS_PART, c->p[0] = kj_cg_i64(cg, in->aux == KJ_B_ARR_IMAG);
        break;
    case KJ_B_ARR_CONJ: case KJ_B_ARR_CONJUGATE: c->op = KJ_NPS_CONJ; break;
    case KJ_B_NP_ASFORTRANARRAY: c->op = KJ_NPS_ASFORTRAN; break;
    case KJ_B_NP_DIAGFLAT: c->op = KJ_NPS_DIAGFLAT, c->p[0] = as_(cg, in, 1, &T_I64, zero); break;
    case KJ_B_NP_GEOMSPACE: case KJ_B_NP_LOGSPACE:
        c->op = in->aux == KJ_B_NP_GEOMSPACE ? KJ_NPS_GEOMSPACE : KJ_NPS_LOGSPACE, c->operands = 0;
        c->f[0] = as_(cg, in, 0, &T_F64, NULL), c->f[1] = as_(cg, in, 1, &T_F64, NULL);
        c->p[0] = as_(cg, in, 2, &T_I64, kj_cg_i64(cg, 50));
        break;
    case KJ_B_NP_INDICES: c->op = KJ_NPS_INDICES, c->operands = 0, shape_into(cg, in, 0, c->p, 0); break;
    case KJ_B_NP_RESIZE: c->op = KJ_NPS_RESIZE, shape_into(cg, in, 1, c->p, 0); break;
    case KJ_B_NP_INSERT: c->op = KJ_NPS_INSERT, c->operands = 3; break;
    case KJ_B_NP_TAKE_ALONG_AXIS: c->op = KJ_NPS_TAKE_ALONG, c->operands = 2, c->p[0] = as_(cg, in, 2, &T_I64, zero); break;
    case KJ_B_NP_AS_STRIDED: { /* shape p[0..4), strides p[4..8), their count p[8] */
        c->op = KJ_NPS_AS_STRIDED;
        shape_into(cg, in, 1, c->p, 0);
        LLVMValueRef n = c->p[4];
        shape_into(cg, in, 2, c->p, 4);
        c->p[8] = n;
        break;
    }
    case KJ_B_ARR_CONTAINS: c->op = KJ_NPS_CONTAINS, c->f[0] = as_(cg, in, 1, &T_F64, NULL); break;
    default: /* sliding_window_view: window p[0..4), count p[4], axes p[5..9), given p[9] */
        c->op = KJ_NPS_SLIDING;
        shape_into(cg, in, 1, c->p, 0);
        if (has(cg, in, 2)) {
            LLVMValueRef n = c->p[4];
            shape_into(cg, in, 2, c->p, 5);
            c->p[4] = n, c->p[9] = kj_cg_i64(cg, 1);
        }
        break;
    }
}

/* np.broadcast_shapes: p[0] the count, then each shape's length and extents. */
static LLVMValueRef b_bshapes(kj_cg *cg, const kir_inst *in, call *c)
{
    c->op = KJ_NPS_BSHAPES, c->operands = 0;
    c->p[0] = kj_cg_i64(cg, in->nargs);
    for (uint32_t k = 0; k < in->nargs && k < 6; k++) {
        LLVMValueRef q[5];
        for (unsigned d = 0; d < 5; d++) q[d] = kj_cg_i64(cg, 0);
        shape_into(cg, in, k, q, 0);
        c->p[1 + 5 * k] = q[4];
        for (unsigned d = 0; d < 4; d++) c->p[2 + 5 * k + d] = q[d];
    }
    return NULL;
}

static LLVMValueRef rt_call(kj_cg *cg, const kir_inst *in, call *c, LLVMValueRef out, int out_nd)
{
    LLVMValueRef o[3][3];
    for (int k = 0; k < 3; k++) {
        o[k][0] = LLVMConstNull(cg->t_ptr), o[k][1] = kj_cg_i32(cg, 0), o[k][2] = kj_cg_i32(cg, 0);
        if (k < c->operands) kj_cg_operand(cg, in->args[k], o[k]);
    }
    LLVMValueRef pa = LLVMGetUndef(LLVMArrayType2(cg->t_i64, KJ_NPS_NPARAMS));
    for (unsigned k = 0; k < KJ_NPS_NPARAMS; k++) pa = LLVMBuildInsertValue(cg->b, pa, c->p[k], k, "");
    LLVMValueRef args[18] = {cg->fn->rt, kj_cg_i32(cg, c->op), o[0][0], o[0][1], o[0][2], o[1][0], o[1][1], o[1][2],
                             o[2][0], o[2][1], o[2][2], kj_cg_spill(cg, pa), c->f[0], c->f[1], out,
                             kj_cg_i32(cg, out_nd), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_NPSHAPE, args, 18);
}

static LLVMValueRef b_runtime(kj_cg *cg, const kir_inst *in)
{
    call c = {0};
    for (unsigned k = 0; k < KJ_NPS_NPARAMS; k++) c.p[k] = kj_cg_i64(cg, 0);
    c.f[0] = c.f[1] = LLVMConstReal(cg->t_f64, 0);
    if (in->aux == KJ_B_NP_BROADCAST_SHAPES) {
        b_bshapes(cg, in, &c);
        unsigned n = in->type->n;
        LLVMTypeRef bt = LLVMArrayType2(cg->t_i64, n);
        LLVMValueRef buf = kj_cg_alloca(cg, bt, "shape");
        rt_call(cg, in, &c, buf, (int)n);
        LLVMValueRef arr = LLVMBuildLoad2(cg->b, bt, buf, ""), v[KJ_NPSHAPE_MAXDIM];
        for (unsigned k = 0; k < n; k++) v[k] = LLVMBuildExtractValue(cg->b, arr, k, "");
        return make_struct(cg, in->type, v, n);
    }
    params(cg, in, &c);
    if (c.op == KJ_NPS_CONTAINS)
        return LLVMBuildICmp(cg->b, LLVMIntNE, rt_call(cg, in, &c, LLVMConstNull(cg->t_ptr), 0), kj_cg_i64(cg, 0), "");
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    rt_call(cg, in, &c, out, nd);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, nd), out, "arr");
}

LLVMValueRef kj_cg_npshape(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_ARR_FLAGS: return b_flags(cg, in);
    case KJ_B_ARR_FLAT: case KJ_B_NP_NDINDEX: case KJ_B_NP_NDENUMERATE: case KJ_B_NP_NDITER:
        return b_wrapper(cg, in);
    case KJ_B_CPX_ITEM: return kj_cg_cast(cg, kj_cg_val(cg, in->args[0]), type_at(cg, in->args[0]), in->type);
    case KJ_B_ARR_REAL:
        if (!kj_is_complex(type_at(cg, in->args[0])->elem)) return kj_cg_val(cg, in->args[0]); /* itself */
        return b_runtime(cg, in);
    case KJ_B_ARR_ITEM: case KJ_B_ARR_ITEMSET: return b_item(cg, in);
    case KJ_B_NP_HSPLIT: case KJ_B_NP_VSPLIT: case KJ_B_NP_DSPLIT: return b_xsplit(cg, in);
    case KJ_B_NP_BROADCAST_ARRAYS: return b_broadcast_arrays(cg, in);
    default: return b_runtime(cg, in);
    }
}
