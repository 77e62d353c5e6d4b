/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_str_split — the str methods builtins_str.c types (split, join,
 * partition, case maps and classes, ...) in host code: each a call into
 * src/runtime/str_split.c. A list result is the runtime's kj_list of string
 * pointers; partition's list of three becomes the 3-tuple of str. */
#include "codegen.h"

#include "../ir/builtins.h"

static LLVMValueRef val(kj_cg *cg, const kir_inst *in, uint32_t k) { return kj_cg_val(cg, in->args[k]); }

/* Optional argument k: given and not None. */
static bool has(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return k < in->nargs && in->args[k] && cg->fn->kf->insts[in->args[k]].type->kind != KJ_T_NONE;
}

static LLVMValueRef split(kj_cg *cg, const kir_inst *in, bool right)
{
    LLVMValueRef sep = has(cg, in, 1) ? val(cg, in, 1) : LLVMConstNull(cg->t_ptr);
    LLVMValueRef maxsplit = has(cg, in, 2) ? val(cg, in, 2) : kj_cg_i64(cg, -1);
    LLVMValueRef a[7] = {cg->fn->rt, val(cg, in, 0), sep, maxsplit, kj_cg_i32(cg, right), kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_STR_SPLIT, a, 7);
}

/* The runtime's [head, sep, tail] (kj_list: data pointer at byte 16) as a tuple. */
static LLVMValueRef partition(kj_cg *cg, const kir_inst *in, bool right)
{
    LLVMValueRef a[6] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1), kj_cg_i32(cg, right), kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    LLVMValueRef l = kj_cg_rtcall(cg, KJ_RTF_STR_PARTITION, a, 6), o = kj_cg_i64(cg, 16);
    LLVMValueRef data = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_i8, l, &o, 1, ""), "");
    LLVMValueRef t = LLVMGetUndef(kj_cg_type(cg, in->type));
    for (unsigned k = 0; k < 3; k++) {
        LLVMValueRef i = kj_cg_i64(cg, k);
        LLVMValueRef p = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_ptr, data, &i, 1, ""), "");
        t = LLVMBuildInsertValue(cg->b, t, p, k, "");
    }
    return t;
}

static LLVMValueRef which_call(kj_cg *cg, kj_rtfn f, const kir_inst *in, int which)
{
    LLVMValueRef a[3] = {cg->fn->rt, val(cg, in, 0), kj_cg_i32(cg, which)};
    return kj_cg_rtcall(cg, f, a, 3);
}

static LLVMValueRef is_pred(kj_cg *cg, const kir_inst *in)
{
    static const int WHICH[] = {[KJ_B_STR_ISLOWER - KJ_B_STR_ISLOWER] = 0, [KJ_B_STR_ISUPPER - KJ_B_STR_ISLOWER] = 1,
                                [KJ_B_STR_ISTITLE - KJ_B_STR_ISLOWER] = 2, [KJ_B_STR_ISALNUM - KJ_B_STR_ISLOWER] = 3,
                                [KJ_B_STR_ISDECIMAL - KJ_B_STR_ISLOWER] = 4, [KJ_B_STR_ISNUMERIC - KJ_B_STR_ISLOWER] = 4,
                                [KJ_B_STR_ISIDENTIFIER - KJ_B_STR_ISLOWER] = 5,
                                [KJ_B_STR_ISPRINTABLE - KJ_B_STR_ISLOWER] = 6};
    LLVMValueRef r = which_call(cg, KJ_RTF_STR_IS, in, WHICH[in->aux - KJ_B_STR_ISLOWER]);
    return LLVMBuildICmp(cg->b, LLVMIntNE, r, kj_cg_i64(cg, 0), "");
}

LLVMValueRef kj_cg_str_split(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_STR_SPLIT: case KJ_B_STR_RSPLIT: return split(cg, in, in->aux == KJ_B_STR_RSPLIT);
    case KJ_B_STR_SPLITLINES: {
        LLVMValueRef k = has(cg, in, 1) ? LLVMBuildZExt(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, val(cg, in, 1),
                                                                           LLVMConstNull(LLVMTypeOf(val(cg, in, 1))), ""),
                                                        cg->t_i32, "")
                                        : kj_cg_i32(cg, 0);
        LLVMValueRef a[3] = {cg->fn->rt, val(cg, in, 0), k};
        return kj_cg_rtcall(cg, KJ_RTF_STR_SPLITLINES, a, 3);
    }
    case KJ_B_STR_JOIN: {
        LLVMValueRef a[3] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_JOIN, a, 3);
    }
    case KJ_B_STR_PARTITION: case KJ_B_STR_RPARTITION: return partition(cg, in, in->aux == KJ_B_STR_RPARTITION);
    case KJ_B_STR_INDEX: case KJ_B_STR_RINDEX: {
        LLVMValueRef a[6] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1), kj_cg_i32(cg, in->aux == KJ_B_STR_RINDEX),
                             kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_INDEX, a, 6);
    }
    case KJ_B_STR_EXPANDTABS: {
        LLVMValueRef a[3] = {cg->fn->rt, val(cg, in, 0), has(cg, in, 1) ? val(cg, in, 1) : kj_cg_i64(cg, 8)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_EXPANDTABS, a, 3);
    }
    case KJ_B_STR_TITLE: case KJ_B_STR_SWAPCASE: case KJ_B_STR_CAPITALIZE: case KJ_B_STR_CASEFOLD:
        return which_call(cg, KJ_RTF_STR_CASE, in, in->aux - KJ_B_STR_TITLE);
    default: return is_pred(cg, in);
    }
}
