/* SPDX-License-Identifier: BSD-2-Clause */
/* The linear-algebra built-ins (KJ_BF_LINALG) in host code: one call of
 * kj_rt_linalg (rt_linalg.c) with the operands as spilled descriptors and
 * one out slot per result (a descriptor, or a scalar in memory form), from
 * which the result (a tuple for eigh/svd/qr/slogdet) is loaded. */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../runtime/linalg.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

static int op_of(unsigned id)
{
    switch (id) {
    case KJ_B_NP_DOT: return KJ_LA_DOT;
    case KJ_B_NP_MATMUL: return KJ_LA_MATMUL;
    case KJ_B_NP_VDOT: return KJ_LA_VDOT;
    case KJ_B_NP_INNER: return KJ_LA_INNER;
    case KJ_B_NP_OUTER: return KJ_LA_OUTER;
    case KJ_B_NP_KRON: return KJ_LA_KRON;
    case KJ_B_NP_TRACE: return KJ_LA_TRACE;
    case KJ_B_LA_SOLVE: return KJ_LA_SOLVE;
    case KJ_B_LA_INV: return KJ_LA_INV;
    case KJ_B_LA_DET: return KJ_LA_DET;
    case KJ_B_LA_SLOGDET: return KJ_LA_SLOGDET;
    case KJ_B_LA_EIGH: return KJ_LA_EIGH;
    case KJ_B_LA_EIGVALSH: return KJ_LA_EIGVALSH;
    case KJ_B_LA_SVD: return KJ_LA_SVD;
    case KJ_B_LA_NORM: return KJ_LA_NORM;
    case KJ_B_LA_CHOLESKY: return KJ_LA_CHOLESKY;
    case KJ_B_LA_QR: return KJ_LA_QR;
    case KJ_B_LA_MATRIX_POWER: return KJ_LA_MATRIX_POWER;
    case KJ_B_LA_EIG: return KJ_LA_EIG;
    case KJ_B_LA_EIGVALS: return KJ_LA_EIGVALS;
    case KJ_B_LA_PINV: return KJ_LA_PINV;
    case KJ_B_LA_COND: return KJ_LA_COND;
    case KJ_B_LA_MATRIX_RANK: return KJ_LA_MATRIX_RANK;
    case KJ_B_LA_LSTSQ: return KJ_LA_LSTSQ;
    default: return -1;
    }
}

/* An out slot for a result of type t. */
static LLVMValueRef slot(kj_cg *cg, const kj_type *t)
{
    return t->kind == KJ_T_ARRAY ? kj_cg_out_desc(cg, t->ndim) : kj_cg_alloca(cg, kj_cg_memtype(cg, t), "la");
}

static LLVMValueRef load(kj_cg *cg, const kj_type *t, LLVMValueRef p)
{
    if (t->kind == KJ_T_ARRAY) return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, t->ndim), p, "la");
    return kj_cg_from_mem(cg, t, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, t), p, "la"));
}

/* The integer argument: matrix_power's n, svd's full_matrices (default true). */
static LLVMValueRef int_arg(kj_cg *cg, const kir_inst *in)
{
    if (in->nargs < 2 || !in->args[1]) return kj_cg_i64(cg, in->aux == KJ_B_LA_SVD ? 1 : 0);
    const kj_type *t = cg->fn->kf->insts[in->args[1]].type;
    if (t->kind == KJ_T_NONE) return kj_cg_i64(cg, 1);
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[1]), t, &T_I64);
}

/* rcond= (argument k), as a double: NumPy's/Numba's default when absent */
static LLVMValueRef float_arg(kj_cg *cg, const kir_inst *in, uint32_t k, double dflt)
{
    static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};
    const kj_type *t = k < in->nargs && in->args[k] ? cg->fn->kf->insts[in->args[k]].type : NULL;
    if (!t || t->kind == KJ_T_NONE) return LLVMConstReal(LLVMDoubleTypeInContext(cg->ctx), dflt);
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), t, &T_F64);
}

/* Operand r of a product converted to the dtype it is computed in (the
 * result's: NumPy's promotion; int64 for an integer product). */
static void product_operand(kj_cg *cg, const kir_inst *in, kir_ref r, LLVMValueRef out[3])
{
    const kj_type *t = cg->fn->kf->insts[r].type;
    const kj_type *e = in->type->kind == KJ_T_ARRAY ? in->type->elem : in->type;
    if (t->kind != KJ_T_ARRAY || t->elem == e || (t->elem->kind == e->kind && t->elem->bits == e->bits &&
                                                  t->elem->is_signed == e->is_signed))
        return kj_cg_operand(cg, r, out);
    LLVMValueRef v = kj_cg_array_copy_as(cg, r, e, t->ndim, in);
    out[0] = kj_cg_spill(cg, v);
    out[1] = kj_cg_i32(cg, t->ndim);
    out[2] = kj_cg_i32(cg, kj_cg_dtype(e));
}

LLVMValueRef kj_cg_linalg(kj_cg *cg, const kir_inst *in)
{
    int op = op_of(in->aux);
    bool two = op == KJ_LA_DOT || op == KJ_LA_MATMUL || op == KJ_LA_VDOT || op == KJ_LA_INNER ||
               op == KJ_LA_OUTER || op == KJ_LA_KRON || op == KJ_LA_SOLVE || op == KJ_LA_LSTSQ;
    LLVMValueRef a[3], b[3] = {LLVMConstNull(LLVMPointerTypeInContext(cg->ctx, 0)), kj_cg_i32(cg, 0),
                               kj_cg_i32(cg, 0)};
    bool prod = op == KJ_LA_DOT || op == KJ_LA_MATMUL || op == KJ_LA_VDOT || op == KJ_LA_INNER;
    if (prod) {
        product_operand(cg, in, in->args[0], a);
        product_operand(cg, in, in->args[1], b);
    } else {
        kj_cg_operand(cg, in->args[0], a);
        if (two) kj_cg_operand(cg, in->args[1], b);
    }
    const kj_type *rt = in->type;
    unsigned n = rt->kind == KJ_T_TUPLE ? rt->n : 1;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(cg->ctx, 0);
    LLVMValueRef outs = kj_cg_alloca(cg, LLVMArrayType(ptr, n), "la_outs"), slots[4];
    for (unsigned k = 0; k < n; k++) {
        slots[k] = slot(cg, n > 1 ? rt->elems[k] : rt);
        LLVMValueRef idx[2] = {kj_cg_i32(cg, 0), kj_cg_i32(cg, (int32_t)k)};
        LLVMBuildStore(cg->b, slots[k], LLVMBuildGEP2(cg->b, LLVMArrayType(ptr, n), outs, idx, 2, ""));
    }
    LLVMValueRef x = op == KJ_LA_PINV    ? float_arg(cg, in, 1, 1e-15)
                     : op == KJ_LA_LSTSQ ? float_arg(cg, in, 2, -1.0)
                                         : LLVMConstReal(LLVMDoubleTypeInContext(cg->ctx), 0.0);
    bool has_n = op == KJ_LA_SVD || op == KJ_LA_MATRIX_POWER;
    LLVMValueRef args[13] = {cg->fn->rt, kj_cg_i32(cg, op), a[0], a[1], a[2], b[0], b[1], b[2],
                             has_n ? int_arg(cg, in) : kj_cg_i64(cg, 0), x, outs, kj_cg_line(cg, in),
                             kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_LINALG, args, 13);
    if (n == 1) return load(cg, rt, slots[0]);
    LLVMValueRef t = LLVMGetUndef(kj_cg_type(cg, rt));
    for (unsigned k = 0; k < n; k++) t = LLVMBuildInsertValue(cg->b, t, load(cg, rt->elems[k], slots[k]), k, "");
    return t;
}

/* kjit.gpu_matmul(a, b) (kir_matmul_gpu.c): the runtime multiplies on the
 * GPU through cuBLAS, or on the host where cuBLAS cannot take them. */
LLVMValueRef kj_cg_gpu_matmul(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[3], b[3];
    kj_cg_operand(cg, in->args[0], a);
    kj_cg_operand(cg, in->args[1], b);
    LLVMValueRef out = slot(cg, in->type);
    LLVMValueRef args[7] = {cg->fn->rt, a[0], b[0], a[2], out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_GPU_MATMUL, args, 7);
    return load(cg, in->type, out);
}
