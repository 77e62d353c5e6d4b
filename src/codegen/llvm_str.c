/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_str — string built-ins (src/ir/lower_str.c's operators, str(x) and
 * the str methods) in host code: each is a call into the runtime
 * (src/runtime/str.c). A string value is a pointer to NUL-terminated
 * UTF-8: a literal's global constant or a string the run owns. */
#include "codegen.h"

#include "../ir/builtins.h"

static LLVMValueRef val(kj_cg *cg, const kir_inst *in, uint32_t k) { return kj_cg_val(cg, in->args[k]); }

static const kj_type *arg_type(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return cg->fn->kf->insts[in->args[k]].type;
}

/* str(x): a number through the runtime's Python formatting; a string is itself. */
static LLVMValueRef str_of(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = arg_type(cg, in, 0);
    LLVMValueRef x = val(cg, in, 0), i = kj_cg_i64(cg, 0), f = LLVMConstReal(cg->t_f64, 0);
    int kind = 0;
    if (t->kind == KJ_T_STR || kj_t_is_exception(t)) return x; /* an exception's value is its str() */
    if (t->kind == KJ_T_FLOAT) {
        kind = t->bits == 16 ? 6 : t->bits == 32 ? 3 : 2;
        f = t->bits < 64 ? LLVMBuildFPExt(cg->b, x, cg->t_f64, "") : x;
    } else {
        kind = t->kind == KJ_T_BOOL ? 1 : (!t->is_signed && t->bits == 64) ? 4 : 0;
        i = LLVMBuildIntCast2(cg->b, x, cg->t_i64, t->kind != KJ_T_BOOL && t->is_signed, "");
    }
    LLVMValueRef a[4] = {cg->fn->rt, i, f, kj_cg_i32(cg, kind)};
    return kj_cg_rtcall(cg, KJ_RTF_STR_OF_NUM, a, 4);
}

/* str.<fmt1>(x, spec): format(x, spec) through the runtime. */
static LLVMValueRef fmt1(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = arg_type(cg, in, 0);
    LLVMValueRef x = val(cg, in, 0), i = kj_cg_i64(cg, 0), f = LLVMConstReal(cg->t_f64, 0), s = val(cg, in, 1);
    int kind = 5;
    if (t->kind == KJ_T_STR || kj_t_is_exception(t)) {
        s = x;
    } else if (t->kind == KJ_T_FLOAT) {
        kind = t->bits == 32 ? 3 : 2; /* float16: as CPython, format() of its exact float value */
        f = t->bits < 64 ? LLVMBuildFPExt(cg->b, x, cg->t_f64, "") : x;
    } else {
        kind = t->kind == KJ_T_BOOL ? 1 : (!t->is_signed && t->bits == 64) ? 4 : 0;
        i = LLVMBuildIntCast2(cg->b, x, cg->t_i64, t->kind != KJ_T_BOOL && t->is_signed, "");
    }
    LLVMValueRef a[6] = {cg->fn->rt, i, f, s, kj_cg_i32(cg, kind), val(cg, in, 1)};
    return kj_cg_rtcall(cg, KJ_RTF_STR_FORMAT, a, 6);
}

/* Optional argument k: given and not None. */
static bool given(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return k < in->nargs && in->args[k] && arg_type(cg, in, k)->kind != KJ_T_NONE;
}

static LLVMValueRef call2(kj_cg *cg, kj_rtfn f, LLVMValueRef s, LLVMValueRef x)
{
    LLVMValueRef a[3] = {cg->fn->rt, s, x};
    return kj_cg_rtcall(cg, f, a, 3);
}

static LLVMValueRef call_which(kj_cg *cg, kj_rtfn f, const kir_inst *in, int which, bool with_arg)
{
    LLVMValueRef a[4] = {cg->fn->rt, val(cg, in, 0), with_arg ? val(cg, in, 1) : NULL, kj_cg_i32(cg, which)};
    if (!with_arg) a[2] = a[3];
    return kj_cg_rtcall(cg, f, a, with_arg ? 4 : 3);
}

static LLVMValueRef truth(kj_cg *cg, LLVMValueRef v, bool is_ptr)
{
    if (is_ptr) { /* str_map's predicates give "1" or "" */
        LLVMValueRef c = LLVMBuildLoad2(cg->b, cg->t_i8, v, "");
        return LLVMBuildICmp(cg->b, LLVMIntNE, c, LLVMConstInt(cg->t_i8, 0, 0), "");
    }
    return LLVMBuildICmp(cg->b, LLVMIntNE, v, kj_cg_i64(cg, 0), "");
}

static LLVMValueRef slice(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef has = LLVMBuildTrunc(cg->b, val(cg, in, 4), cg->t_i32, "");
    LLVMValueRef a[8] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1), val(cg, in, 2), val(cg, in, 3), has,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_STR_SLICE, a, 8);
}

LLVMValueRef kj_cg_str_builtin(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_STR: return str_of(cg, in);
    case KJ_B_STR_FMT1: return fmt1(cg, in);
    case KJ_B_LEN: {
        LLVMValueRef a[2] = {cg->fn->rt, val(cg, in, 0)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_LEN, a, 2);
    }
    case KJ_B_STR_CAT: return call2(cg, KJ_RTF_STR_CAT, val(cg, in, 0), val(cg, in, 1));
    case KJ_B_STR_REPEAT: return call2(cg, KJ_RTF_STR_REPEAT, val(cg, in, 0), val(cg, in, 1));
    case KJ_B_STR_CMP: return call2(cg, KJ_RTF_STR_CMP, val(cg, in, 0), val(cg, in, 1));
    case KJ_B_STR_REPLACE: {
        LLVMValueRef a[4] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1), val(cg, in, 2)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_REPLACE, a, 4);
    }
    case KJ_B_STR_GET: {
        LLVMValueRef a[5] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_STR_GET, a, 5);
    }
    case KJ_B_STR_SLICE: return slice(cg, in);
    case KJ_B_STR_FIND: return call_which(cg, KJ_RTF_STR_FIND, in, 0, true);
    case KJ_B_STR_RFIND: return call_which(cg, KJ_RTF_STR_FIND, in, 1, true);
    case KJ_B_STR_COUNT: return call_which(cg, KJ_RTF_STR_FIND, in, 2, true);
    case KJ_B_STR_IN: return truth(cg, call_which(cg, KJ_RTF_STR_FIND, in, 3, true), false);
    case KJ_B_STR_STARTSWITH: return truth(cg, call_which(cg, KJ_RTF_STR_FIND, in, 4, true), false);
    case KJ_B_STR_ENDSWITH: return truth(cg, call_which(cg, KJ_RTF_STR_FIND, in, 5, true), false);
    case KJ_B_STR_UPPER: case KJ_B_STR_LOWER: case KJ_B_STR_STRIP: case KJ_B_STR_LSTRIP: case KJ_B_STR_RSTRIP:
        if (given(cg, in, 1)) { /* strip(chars): str_split.c */
            LLVMValueRef a[4] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1), kj_cg_i32(cg, in->aux - KJ_B_STR_STRIP)};
            return kj_cg_rtcall(cg, KJ_RTF_STR_STRIP_CHARS, a, 4);
        }
        return call_which(cg, KJ_RTF_STR_MAP, in, in->aux - KJ_B_STR_UPPER, false);
    case KJ_B_STR_ISDIGIT: case KJ_B_STR_ISALPHA: case KJ_B_STR_ISSPACE:
        return truth(cg, call_which(cg, KJ_RTF_STR_MAP, in, 5 + in->aux - KJ_B_STR_ISDIGIT, false), true);
    case KJ_B_STR_ZFILL: case KJ_B_STR_CENTER: case KJ_B_STR_LJUST: case KJ_B_STR_RJUST:
        if (given(cg, in, 2)) { /* a fill character: str_split.c */
            LLVMValueRef a[7] = {cg->fn->rt, val(cg, in, 0), val(cg, in, 1), kj_cg_i32(cg, in->aux - KJ_B_STR_ZFILL),
                                 val(cg, in, 2), kj_cg_line(cg, in), kj_cg_col(cg, in)};
            return kj_cg_rtcall(cg, KJ_RTF_STR_PAD_FILL, a, 7);
        }
        return call_which(cg, KJ_RTF_STR_PAD, in, in->aux - KJ_B_STR_ZFILL, true);
    default: return NULL;
    }
}
