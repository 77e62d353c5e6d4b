/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_excobj — exception objects in host code (builtins_exc.h; the
 * object is abi/exc_obj.h's, made by runtime/excobj.c when the exception is
 * caught). Generated code holds a pointer to the object's str(), so e, e.args
 * and type(e) are all that pointer, and every question is a load from the
 * header before it: repr(e), e.args, len(e.args), type(e).__name__,
 * `type(e) is C` (its kind), isinstance(e, C) (a bit of its class mask).
 * `raise e` raises its class and str() again with the same arguments. */
#include "codegen.h"

#include "../abi/exc_obj.h"
#include "../ir/builtins.h"

#include <string.h>

static LLVMValueRef field(kj_cg *cg, LLVMValueRef e, long long at, LLVMTypeRef ty, const char *name)
{
    LLVMValueRef off = kj_cg_i64(cg, at);
    LLVMValueRef p = LLVMBuildGEP2(cg->b, cg->t_i8, e, &off, 1, "");
    return LLVMBuildLoad2(cg->b, ty, p, name);
}

LLVMValueRef kj_cg_exc_str(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool repr)
{
    if (!strcmp(t->name, "exception args")) return field(cg, v, KJ_EXCOBJ_AT(args), cg->t_ptr, "exc.args");
    if (!strcmp(t->name, "exception type")) return field(cg, v, KJ_EXCOBJ_AT(type_str), cg->t_ptr, "exc.type");
    return repr ? field(cg, v, KJ_EXCOBJ_AT(repr), cg->t_ptr, "exc.repr") : v;
}

/* format(x, spec) of str(x), repr(x) for f"{e!r}" (lower_str.c's "!r") */
static LLVMValueRef fmt1(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef v)
{
    const kir_inst *spec = &cg->fn->kf->insts[in->args[1]];
    bool repr = spec->op == KIR_CONST_STR && spec->s && !strcmp(spec->s, "!r");
    LLVMValueRef a[6] = {cg->fn->rt, kj_cg_i64(cg, 0), LLVMConstReal(cg->t_f64, 0), kj_cg_exc_str(cg, t, v, repr),
                         kj_cg_i32(cg, 5), repr ? kj_cg_cstr(cg, "") : kj_cg_val(cg, in->args[1])};
    return kj_cg_rtcall(cg, KJ_RTF_STR_FORMAT, a, 6);
}

static LLVMValueRef raise(kj_cg *cg, const kir_inst *in, LLVMValueRef e)
{
    LLVMValueRef kind = field(cg, e, KJ_EXCOBJ_AT(kind), cg->t_i32, "exc.kind");
    LLVMValueRef form = field(cg, e, KJ_EXCOBJ_AT(form), cg->t_i32, "exc.form");
    kind = LLVMBuildOr(cg->b, kind, LLVMBuildShl(cg->b, form, kj_cg_i32(cg, KJ_EXC_FORM_SHIFT), ""), "");
    LLVMValueRef a[5] = {cg->fn->rt, kind, e, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_RAISE, a, 5);
    kj_cg_noreturn(cg);
    return LLVMGetUndef(LLVMStructTypeInContext(cg->ctx, NULL, 0, 0));
}

LLVMValueRef kj_cg_exc_builtin(kj_cg *cg, const kir_inst *in)
{
    if (!in->nargs || !in->args[0]) return NULL;
    const kj_type *t = cg->fn->kf->insts[in->args[0]].type;
    if (!kj_t_is_excobj(t)) return NULL;
    LLVMValueRef e = kj_cg_val(cg, in->args[0]);
    switch (in->aux) {
    case KJ_B_EXC_ARGS: case KJ_B_EXC_TYPE: return e;
    case KJ_B_EXC_NAME: return field(cg, e, KJ_EXCOBJ_AT(name), cg->t_ptr, "exc.name");
    case KJ_B_EXC_IS: {
        LLVMValueRef k = field(cg, e, KJ_EXCOBJ_AT(kind), cg->t_i32, "exc.kind");
        return LLVMBuildICmp(cg->b, LLVMIntEQ, k, kj_cg_i32(cg, cg->fn->kf->insts[in->args[1]].i), "exc.is");
    }
    case KJ_B_EXC_ISA: {
        LLVMValueRef m = field(cg, e, KJ_EXCOBJ_AT(isa), cg->t_i64, "exc.isa");
        m = LLVMBuildLShr(cg->b, m, kj_cg_i64(cg, cg->fn->kf->insts[in->args[1]].i), "");
        return LLVMBuildTrunc(cg->b, m, cg->t_i1, "exc.isa");
    }
    case KJ_B_EXC_NARGS: case KJ_B_LEN:
        return LLVMBuildSExt(cg->b, field(cg, e, KJ_EXCOBJ_AT(nargs), cg->t_i32, "exc.nargs"), cg->t_i64, "");
    case KJ_B_EXC_RAISE: return raise(cg, in, e);
    case KJ_B_STR: return kj_cg_exc_str(cg, t, e, false);
    case KJ_B_REPR: return kj_cg_exc_str(cg, t, e, true);
    case KJ_B_STR_FMT1: return fmt1(cg, in, t, e);
    default: return NULL;
    }
}
