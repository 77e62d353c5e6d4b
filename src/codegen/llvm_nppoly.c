/* SPDX-License-Identifier: BSD-2-Clause */
/* Host lowering of numpy.polynomial's functions (builtins_nppoly.h): one
 * kj_rt_nppoly call each with its operation (abi_nppoly.h); the result
 * comes back as an array descriptor, polydiv's as two made into a tuple,
 * polyval's at a scalar x as a float64 in memory. */
#include "codegen.h"

#include "../abi/abi_nppoly.h"
#include "../ir/builtins.h"

#include <math.h>
#include <string.h>

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

static const kj_type *type_at(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static int op_of(int id)
{
    switch (id) {
    case KJ_B_NP_POLYADD: return KJ_NPP_ADD;
    case KJ_B_NP_POLYSUB: return KJ_NPP_SUB;
    case KJ_B_NP_POLYMUL: return KJ_NPP_MUL;
    case KJ_B_NP_POLYDIV: return KJ_NPP_DIV;
    case KJ_B_NP_POLYINT: return KJ_NPP_INT;
    case KJ_B_NP_POLYVAL: return KJ_NPP_VAL;
    case KJ_B_NP_NANCUMSUM: return KJ_NPP_NANCUMSUM;
    case KJ_B_NP_NANCUMPROD: return KJ_NPP_NANCUMPROD;
    case KJ_B_NP_NAN_TO_NUM: return KJ_NPP_NAN_TO_NUM;
    case KJ_B_NP_TRIM_ZEROS: return KJ_NPP_TRIM_ZEROS;
    case KJ_B_NP_UNWRAP: return KJ_NPP_UNWRAP;
    case KJ_B_NP_ROOTS: return KJ_NPP_ROOTS;
    default: return KJ_NPP_TRIMSEQ;
    }
}

/* Argument k when given (not absent, not None), else 0. */
static kir_ref given(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return k < in->nargs && in->args[k] && type_at(cg, in->args[k])->kind != KJ_T_NONE ? in->args[k] : 0;
}

static LLVMValueRef f64_or(kj_cg *cg, const kir_inst *in, uint32_t k, double dflt)
{
    kir_ref r = given(cg, in, k);
    return r ? kj_cg_cast(cg, kj_cg_val(cg, r), type_at(cg, r), &T_F64) : LLVMConstReal(cg->t_f64, dflt);
}

/* trim_zeros' trim (a constant string: the typing checked it): bit 1 'f', bit 2 'b', either case. */
static int64_t trim_flags(kj_cg *cg, const kir_inst *in)
{
    kir_ref r = given(cg, in, 1);
    const char *t = r && cg->fn->kf->insts[r].op == KIR_CONST_STR ? cg->fn->kf->insts[r].s : "fb";
    return (strpbrk(t, "fF") ? 1 : 0) | (strpbrk(t, "bB") ? 2 : 0);
}

/* i0, f0, f1 of the other operations (abi_nppoly.h). */
static void params(kj_cg *cg, const kir_inst *in, int op, LLVMValueRef *i0, LLVMValueRef *f0, LLVMValueRef *f1)
{
    if (op == KJ_NPP_NAN_TO_NUM) {
        kir_ref r = given(cg, in, 1);
        *i0 = r ? kj_cg_cast(cg, kj_cg_val(cg, r), type_at(cg, r), &T_I64) : kj_cg_i64(cg, 1);
        *f0 = f64_or(cg, in, 2, 0.0);
    }
    if (op == KJ_NPP_TRIM_ZEROS) *i0 = kj_cg_i64(cg, trim_flags(cg, in));
    if (op == KJ_NPP_UNWRAP) {
        *f0 = f64_or(cg, in, 1, NAN);
        *f1 = f64_or(cg, in, 3, 2 * M_PI);
    }
}

LLVMValueRef kj_cg_nppoly(kj_cg *cg, const kir_inst *in)
{
    if (in->aux == KJ_B_NP_POLYNOMIAL || in->aux == KJ_B_NP_PU_AS_SERIES) return kj_cg_polynomial(cg, in);
    int op = op_of(in->aux);
    /* polyval(x, c): the coefficients are operand a, the points operand b */
    kir_ref ra = op == KJ_NPP_VAL ? in->args[1] : in->args[0];
    bool two = op == KJ_NPP_ADD || op == KJ_NPP_SUB || op == KJ_NPP_MUL || op == KJ_NPP_DIV;
    kir_ref rb = op == KJ_NPP_VAL ? in->args[0] : two ? in->args[1] : 0;
    LLVMValueRef a[3], b[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, -1), kj_cg_i32(cg, 0)};
    kj_cg_operand(cg, ra, a);
    if (rb) kj_cg_operand(cg, rb, b);
    LLVMValueRef m = kj_cg_i64(cg, 1);
    if (op == KJ_NPP_INT && in->nargs > 1 && in->args[1] && type_at(cg, in->args[1])->kind != KJ_T_NONE)
        m = kj_cg_cast(cg, kj_cg_val(cg, in->args[1]), type_at(cg, in->args[1]), &T_I64);
    LLVMValueRef f0 = LLVMConstReal(cg->t_f64, 0), f1 = f0;
    params(cg, in, op, &m, &f0, &f1);
    const kj_type *t = in->type;
    bool tuple = t->kind == KJ_T_TUPLE;
    const kj_type *rt = tuple ? t->elems[0] : t;
    int nd = rt->kind == KJ_T_ARRAY ? (int)rt->ndim : 0;
    LLVMValueRef out = nd ? kj_cg_out_desc(cg, nd) : kj_cg_alloca(cg, cg->t_f64, "polyval");
    LLVMValueRef out2 = tuple ? kj_cg_out_desc(cg, 1) : LLVMConstNull(cg->t_ptr);
    int rdt = kj_cg_dtype(nd ? rt->elem : rt);
    LLVMValueRef args[17] = {cg->fn->rt, kj_cg_i32(cg, op), a[0], a[1], a[2], b[0], b[1], b[2], m, f0, f1,
                             kj_cg_i32(cg, rdt), out, kj_cg_i32(cg, nd), out2, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_NPPOLY, args, 17);
    if (!nd) return LLVMBuildLoad2(cg->b, cg->t_f64, out, "");
    LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, nd), out, "arr");
    if (!tuple) return v;
    LLVMValueRef tv = LLVMGetUndef(kj_cg_type(cg, t));
    tv = LLVMBuildInsertValue(cg->b, tv, v, 0, "");
    return LLVMBuildInsertValue(cg->b, tv, LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 1), out2, "rem"), 1, "");
}
