/* SPDX-License-Identifier: BSD-2-Clause */
/* datetime64 / timedelta64 (lower_datetime.c): a DT_OP built-in is one call
 * of the runtime's kj_rt_dt_binop, kj_rt_dt_mulf (a float64 operand) or
 * kj_rt_dt_ratio (a float64 result), datetime.c; print of the scalars and of
 * arrays of them through kj_rt_print_dt(_array). */
#include "codegen.h"
#include "../abi/abi_datetime.h"

LLVMValueRef kj_cg_datetime(kj_cg *cg, const kir_inst *in)
{
    const kir_func *kf = cg->fn->kf;
    LLVMValueRef code = LLVMBuildTrunc(cg->b, kj_cg_val(cg, in->args[0]), cg->t_i32, "");
    LLVMValueRef a = kj_cg_val(cg, in->args[1]);
    const kj_type *bt = in->nargs > 2 ? kf->insts[in->args[2]].type : NULL;
    LLVMValueRef b = bt ? kj_cg_val(cg, in->args[2]) : LLVMConstInt(cg->t_i64, 0, 0);
    LLVMValueRef args[3] = {code, a, b};
    if (in->type->kind == KJ_T_FLOAT) return kj_cg_rtcall(cg, KJ_RTF_DT_RATIO, args, 3);
    if (bt && bt->kind == KJ_T_FLOAT) return kj_cg_rtcall(cg, KJ_RTF_DT_MULF, args, 3);
    LLVMValueRef r = kj_cg_rtcall(cg, KJ_RTF_DT_BINOP, args, 3);
    if (in->type->kind == KJ_T_BOOL) return LLVMBuildICmp(cg->b, LLVMIntNE, r, LLVMConstInt(cg->t_i64, 0, 0), "");
    return r;
}

/* v of one datetime type in another unit (a store into an array of another unit, an argument). */
LLVMValueRef kj_cg_dt_convert(kj_cg *cg, LLVMValueRef v, const kj_type *from, const kj_type *to)
{
    if (from->unit == to->unit) return v;
    int code = kj_dtc_make(KJ_DTOP_CONVERT, from->unit, 0, to->unit, from->kind == KJ_T_DATETIME ? KJ_DTC_A_DT : 0);
    LLVMValueRef args[3] = {kj_cg_i32(cg, code), v, LLVMConstInt(cg->t_i64, 0, 0)};
    return kj_cg_rtcall(cg, KJ_RTF_DT_BINOP, args, 3);
}

/* print(x) of a datetime64 / timedelta64 scalar (repr inside a tuple), or of an array of them. */
void kj_cg_print_dt(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool repr)
{
    const kj_type *el = t->kind == KJ_T_ARRAY ? t->elem : t;
    int code = el->unit | (el->kind == KJ_T_DATETIME ? KJ_DTP_DATETIME : 0);
    if (t->kind == KJ_T_ARRAY) {
        LLVMValueRef a[5] = {cg->fn->rt, kj_cg_spill(cg, v), kj_cg_i32(cg, t->ndim), kj_cg_i32(cg, code),
                             kj_cg_i32(cg, repr)};
        kj_cg_rtcall(cg, KJ_RTF_PRINT_DT_ARRAY, a, 5);
        return;
    }
    LLVMValueRef a[4] = {cg->fn->rt, v, kj_cg_i32(cg, code), kj_cg_i32(cg, repr)};
    kj_cg_rtcall(cg, KJ_RTF_PRINT_DT, a, 4);
}
