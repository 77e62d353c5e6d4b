/* SPDX-License-Identifier: BSD-2-Clause */
/* Host lowering of KJ_BUILTINS_NPOTHER (builtins_npother.h): each call is
 * one kj_rt_npother with its operation (abi_npother.h), operands and
 * parameters, except the predicates of a type (np.iscomplexobj/isrealobj/
 * isscalar: constants) and np.asfarray (the array itself, or a converted
 * copy). The result comes back as a scalar in memory, an array descriptor,
 * or (the triangle indices) two descriptors made into a tuple. */
#include "codegen.h"

#include "../abi/abi_npother.h"
#include "../ir/builtins.h"

#include <float.h>
#include <stdint.h>

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

static const kj_type *type_at(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

/* Argument k, or 0 when absent (not given, or None). */
static kir_ref arg(const kj_cg *cg, const kir_inst *in, uint32_t k)
{
    if (k >= in->nargs || !in->args[k]) return 0;
    return cg->fn->kf->insts[in->args[k]].type->kind == KJ_T_NONE ? 0 : in->args[k];
}

static LLVMValueRef as_(kj_cg *cg, const kir_inst *in, uint32_t k, const kj_type *to, LLVMValueRef dflt)
{
    kir_ref r = arg(cg, in, k);
    return r ? kj_cg_cast(cg, kj_cg_val(cg, r), type_at(cg, r), to) : dflt;
}

typedef struct {
    int op;
    kir_ref b;
    LLVMValueRef i0, i1, f0;
} call_args;

static int window_kind(int id)
{
    switch (id) {
    case KJ_B_NP_BARTLETT: return KJ_WIN_BARTLETT;
    case KJ_B_NP_BLACKMAN: return KJ_WIN_BLACKMAN;
    case KJ_B_NP_HAMMING: return KJ_WIN_HAMMING;
    case KJ_B_NP_HANNING: return KJ_WIN_HANNING;
    default: return KJ_WIN_KAISER;
    }
}

static void fill_args(kj_cg *cg, const kir_inst *in, call_args *c)
{
    LLVMValueRef zero = kj_cg_i64(cg, 0);
    int id = in->aux;
    c->b = 0;
    c->i0 = c->i1 = zero;
    c->f0 = LLVMConstReal(cg->t_f64, 0);
    switch (id) {
    case KJ_B_NP_TRIL_INDICES: case KJ_B_NP_TRIU_INDICES: case KJ_B_NP_TRIL_INDICES_FROM:
    case KJ_B_NP_TRIU_INDICES_FROM:
        c->op = id == KJ_B_NP_TRIL_INDICES || id == KJ_B_NP_TRIL_INDICES_FROM ? KJ_NPO_TRIL_INDICES
                                                                              : KJ_NPO_TRIU_INDICES;
        c->i0 = as_(cg, in, 1, &T_I64, zero);
        if (id == KJ_B_NP_TRIL_INDICES || id == KJ_B_NP_TRIU_INDICES) c->b = arg(cg, in, 2); /* m */
        break;
    case KJ_B_NP_CROSS: c->op = KJ_NPO_CROSS, c->b = in->args[1]; break;
    case KJ_B_NP_CONVOLVE: c->op = KJ_NPO_CONVOLVE, c->b = in->args[1]; break;
    case KJ_B_NP_CORRELATE: c->op = KJ_NPO_CORRELATE, c->b = in->args[1]; break;
    case KJ_B_NP_COV: case KJ_B_NP_CORRCOEF: {
        c->op = id == KJ_B_NP_COV ? KJ_NPO_COV : KJ_NPO_CORRCOEF;
        c->b = arg(cg, in, 1);
        c->i0 = as_(cg, in, 2, &T_I64, kj_cg_i64(cg, 1));
        if (id == KJ_B_NP_CORRCOEF) break;
        LLVMValueRef bias = as_(cg, in, 3, &T_I64, zero);
        c->i1 = arg(cg, in, 4) ? LLVMBuildOr(cg->b, bias, kj_cg_i64(cg, 2), "") : bias;
        c->f0 = as_(cg, in, 4, &T_F64, c->f0);
        break;
    }
    case KJ_B_NP_SINC: c->op = KJ_NPO_SINC; break;
    case KJ_B_NP_ISPOSINF: c->op = KJ_NPO_PRED, c->i0 = kj_cg_i64(cg, KJ_PRED_POSINF); break;
    case KJ_B_NP_ISNEGINF: c->op = KJ_NPO_PRED, c->i0 = kj_cg_i64(cg, KJ_PRED_NEGINF); break;
    case KJ_B_NP_ISCOMPLEX: c->op = KJ_NPO_PRED, c->i0 = kj_cg_i64(cg, KJ_PRED_ISCOMPLEX); break;
    case KJ_B_NP_ISREAL: c->op = KJ_NPO_PRED, c->i0 = kj_cg_i64(cg, KJ_PRED_ISREAL); break;
    case KJ_B_NP_ASARRAY_CHKFINITE: c->op = KJ_NPO_CHKFINITE; break;
    default: /* the windows */
        c->op = KJ_NPO_WINDOW;
        c->i0 = kj_cg_i64(cg, window_kind(id));
        if (id == KJ_B_NP_KAISER) c->f0 = as_(cg, in, 1, &T_F64, c->f0);
        break;
    }
}

static LLVMValueRef rt_call(kj_cg *cg, const kir_inst *in)
{
    call_args c;
    fill_args(cg, in, &c);
    LLVMValueRef a[3], b[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, -1), kj_cg_i32(cg, 0)};
    kj_cg_operand(cg, in->args[0], a);
    if (c.b) kj_cg_operand(cg, c.b, b);
    const kj_type *t = in->type;
    bool tuple = t->kind == KJ_T_TUPLE, none = c.op == KJ_NPO_CHKFINITE;
    const kj_type *rt = tuple ? t->elems[0] : t;
    int nd = !none && rt->kind == KJ_T_ARRAY ? (int)rt->ndim : 0;
    LLVMValueRef out = none ? LLVMConstNull(cg->t_ptr)
                       : nd ? kj_cg_out_desc(cg, nd)
                            : kj_cg_alloca(cg, kj_cg_memtype(cg, rt), "res");
    LLVMValueRef out2 = tuple ? kj_cg_out_desc(cg, 1) : LLVMConstNull(cg->t_ptr);
    int rdt = none ? 0 : kj_cg_dtype(nd ? rt->elem : rt);
    LLVMValueRef args[20] = {cg->fn->rt, kj_cg_i32(cg, c.op), a[0], a[1], a[2], b[0], b[1], b[2],
                             LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, -1), kj_cg_i32(cg, 0), c.i0, c.i1, c.f0,
                             kj_cg_i32(cg, rdt), out, kj_cg_i32(cg, nd), out2, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_NPOTHER, args, 20);
    if (none) return kj_cg_val(cg, in->args[0]); /* asarray_chkfinite: the array itself */
    if (!nd) return kj_cg_from_mem(cg, rt, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, rt), out, ""));
    LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, nd), out, "arr");
    if (!tuple) return v;
    LLVMValueRef tv = LLVMGetUndef(kj_cg_type(cg, t));
    tv = LLVMBuildInsertValue(cg->b, tv, v, 0, "");
    return LLVMBuildInsertValue(cg->b, tv, LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 1), out2, "cols"), 1, "");
}

/* np.select: the result filled with the default, then, from the last case
 * to the first, out = where(cond_k, choice_k, out) in place (Numba's loop). */
static LLVMValueRef b_select(kj_cg *cg, const kir_inst *in)
{
    const kj_type *ct = type_at(cg, in->args[0]), *xt = type_at(cg, in->args[1]), *t = in->type;
    LLVMValueRef conds = kj_cg_val(cg, in->args[0]), choices = kj_cg_val(cg, in->args[1]);
    LLVMValueRef dflt[3];
    if (arg(cg, in, 2)) {
        kj_cg_operand(cg, in->args[2], dflt);
    } else {
        static const kj_type T_I64V = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
        dflt[0] = kj_cg_spill(cg, kj_cg_i64(cg, 0));
        dflt[1] = kj_cg_i32(cg, 0);
        dflt[2] = kj_cg_i32(cg, kj_cg_dtype(&T_I64V));
    }
    LLVMValueRef null = LLVMConstNull(cg->t_ptr), zero = kj_cg_i64(cg, 0), f0 = LLVMConstReal(cg->t_f64, 0);
    LLVMValueRef out = kj_cg_out_desc(cg, t->ndim);
    LLVMValueRef first = kj_cg_spill(cg, LLVMBuildExtractValue(cg->b, choices, 0, ""));
    LLVMValueRef init[20] = {cg->fn->rt, kj_cg_i32(cg, KJ_NPO_SELECT_INIT), first, kj_cg_i32(cg, t->ndim),
                             kj_cg_i32(cg, kj_cg_dtype(xt->elems[0]->elem)), dflt[0], dflt[1], dflt[2], null,
                             kj_cg_i32(cg, -1), kj_cg_i32(cg, 0), zero, zero, f0, kj_cg_i32(cg, kj_cg_dtype(t->elem)),
                             out, kj_cg_i32(cg, t->ndim), null, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_NPOTHER, init, 20);
    for (unsigned k = ct->n; k-- > 0;) {
        LLVMValueRef cd = kj_cg_spill(cg, LLVMBuildExtractValue(cg->b, conds, k, ""));
        LLVMValueRef ch = kj_cg_spill(cg, LLVMBuildExtractValue(cg->b, choices, k, ""));
        LLVMValueRef step[20] = {cg->fn->rt, kj_cg_i32(cg, KJ_NPO_SELECT_STEP), cd, kj_cg_i32(cg, ct->elems[k]->ndim),
                                 kj_cg_i32(cg, kj_cg_dtype(ct->elems[k]->elem)), ch, kj_cg_i32(cg, xt->elems[k]->ndim),
                                 kj_cg_i32(cg, kj_cg_dtype(xt->elems[k]->elem)), out, kj_cg_i32(cg, t->ndim),
                                 kj_cg_i32(cg, kj_cg_dtype(t->elem)), zero, zero, f0, kj_cg_i32(cg, 0), null,
                                 kj_cg_i32(cg, 0), null, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_NPOTHER, step, 20);
    }
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, t->ndim), out, "arr");
}

/* np.iscomplexobj/isrealobj/isscalar: known from the argument's type. */
static LLVMValueRef type_pred(kj_cg *cg, const kir_inst *in)
{
    const kj_type *x = type_at(cg, in->args[0]);
    const kj_type *e = x->kind == KJ_T_ARRAY ? x->elem : x;
    bool v;
    if (in->aux == KJ_B_NP_ISSCALAR) v = kj_is_scalar(x) || x->kind == KJ_T_STR;
    else v = kj_is_complex(e) == (in->aux == KJ_B_NP_ISCOMPLEXOBJ);
    return LLVMConstInt(cg->t_i1, v, 0);
}

/* np.finfo / np.iinfo: the namedtuple of constants (NumPy's values). */
static LLVMValueRef machine_info(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = in->type;
    LLVMValueRef v = LLVMGetUndef(kj_cg_type(cg, t));
    if (in->aux == KJ_B_NP_IINFO) {
        const kj_type *e = t->elems[1];
        LLVMTypeRef et = kj_cg_type(cg, e);
        uint64_t max = e->is_signed ? (UINT64_C(1) << (e->bits - 1)) - 1 : e->bits == 64 ? UINT64_MAX : (UINT64_C(1) << e->bits) - 1;
        uint64_t min = e->is_signed ? ~max : 0;
        v = LLVMBuildInsertValue(cg->b, v, kj_cg_i64(cg, e->bits), 0, "");
        v = LLVMBuildInsertValue(cg->b, v, LLVMConstInt(et, min, e->is_signed), 1, "");
        return LLVMBuildInsertValue(cg->b, v, LLVMConstInt(et, max, 0), 2, "");
    }
    bool f32 = t->elems[1]->bits == 32;
    LLVMTypeRef ft = kj_cg_type(cg, t->elems[1]);
    /* eps, epsneg, max, min, tiny, smallest_normal, resolution */
    const double fv[2][7] = {{FLT_EPSILON, FLT_EPSILON / 2, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_MIN, 1e-6},
                             {DBL_EPSILON, DBL_EPSILON / 2, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_MIN, 1e-15}};
    /* precision, nmant, nexp, maxexp, minexp, machep, negep, iexp */
    const int64_t iv[2][8] = {{6, 23, 8, 128, -126, -23, -24, 8}, {15, 52, 11, 1024, -1022, -52, -53, 11}};
    int w = f32 ? 0 : 1;
    v = LLVMBuildInsertValue(cg->b, v, kj_cg_i64(cg, f32 ? 32 : 64), 0, "");
    for (unsigned k = 0; k < 7; k++) {
        double x = f32 ? (double)(float)fv[w][k] : fv[w][k];
        v = LLVMBuildInsertValue(cg->b, v, LLVMConstReal(ft, x), k + 1, "");
    }
    for (unsigned k = 0; k < 8; k++) v = LLVMBuildInsertValue(cg->b, v, kj_cg_i64(cg, iv[w][k]), k + 8, "");
    return v;
}

LLVMValueRef kj_cg_npother(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_NP_ISCOMPLEXOBJ: case KJ_B_NP_ISREALOBJ: case KJ_B_NP_ISSCALAR: return type_pred(cg, in);
    case KJ_B_NP_FINFO: case KJ_B_NP_IINFO: return machine_info(cg, in);
    case KJ_B_NP_SELECT: return b_select(cg, in);
    case KJ_B_NP_SHAPE: { /* np.shape(a): a.shape's tuple */
        LLVMValueRef s = LLVMGetUndef(kj_cg_type(cg, in->type)), a = kj_cg_val(cg, in->args[0]);
        for (unsigned k = 0; k < in->type->n; k++) s = LLVMBuildInsertValue(cg->b, s, kj_cg_array_dim(cg, a, k), k, "");
        return s;
    }
    case KJ_B_NP_ASFARRAY: {
        const kj_type *x = type_at(cg, in->args[0]);
        if (x->elem == in->type->elem) return kj_cg_val(cg, in->args[0]);
        return kj_cg_array_copy_as(cg, in->args[0], in->type->elem, in->type->ndim, in);
    }
    default: return rt_call(cg, in);
    }
}
