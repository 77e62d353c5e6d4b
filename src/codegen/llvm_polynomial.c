/* SPDX-License-Identifier: BSD-2-Clause */
/* Host lowering of numpy.polynomial's Polynomial(...) and polyutils.as_series
 * (builtins_polynomial.c). Polynomial: the namedtuple (coef, domain,
 * window), each a fresh array (kj_rt_copy to float64, as NumPy's as_series
 * copies; the default domain and window a new int64 [-1, 1]); Numba's
 * ValueErrors when domain or window has not 2 elements. as_series: a list
 * (llvm_list.c's layout, through LIST_NEW/LIST_RETAIN) of float64 copies,
 * each trimmed by kj_rt_nppoly's trimseq when trim is true; NumPy's
 * "Coefficient array is empty" ValueError first. */
#include "codegen.h"

#include "../abi/abi.h"
#include "../abi/abi_nppoly.h"
#include "../ir/builtins.h"

enum { LIST_DATA = 16 }; /* the elements' offset in kj_list (llvm_list.c) */

static const kj_type *type_at(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

/* A float64 1-d copy of the 1-d array value v of element type elem. */
static LLVMValueRef copy_f64(kj_cg *cg, const kir_inst *in, LLVMValueRef v, const kj_type *elem)
{
    static const kj_type F64 = {.kind = KJ_T_FLOAT, .bits = 64};
    LLVMValueRef out = kj_cg_out_desc(cg, 1);
    LLVMValueRef a[8] = {cg->fn->rt, kj_cg_spill(cg, v), kj_cg_i32(cg, 1), kj_cg_i32(cg, kj_cg_dtype(elem)),
                         kj_cg_i32(cg, kj_cg_dtype(&F64)), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_COPY, a, 8);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 1), out, "");
}

/* A new int64 array [-1, 1]. */
static LLVMValueRef default_window(kj_cg *cg, const kir_inst *in)
{
    static const kj_type I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
    LLVMValueRef shape = kj_cg_spill(cg, LLVMConstArray2(cg->t_i64, (LLVMValueRef[]){kj_cg_i64(cg, 2)}, 1));
    LLVMValueRef out = kj_cg_out_desc(cg, 1);
    LLVMValueRef a[8] = {cg->fn->rt, kj_cg_i32(cg, kj_cg_dtype(&I64)), kj_cg_i32(cg, 1), shape,
                         LLVMConstNull(cg->t_ptr), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_ALLOC, a, 8);
    LLVMValueRef d = LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 1), out, "");
    LLVMValueRef data = LLVMBuildExtractValue(cg->b, d, 0, "");
    for (int k = 0; k < 2; k++) {
        LLVMValueRef i = kj_cg_i64(cg, k);
        LLVMBuildStore(cg->b, kj_cg_i64(cg, k ? 1 : -1), LLVMBuildInBoundsGEP2(cg->b, cg->t_i64, data, &i, 1, ""));
    }
    return d;
}


static LLVMValueRef dim0(kj_cg *cg, LLVMValueRef arr)
{
    return LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, arr, 1, ""), 0, "");
}

static LLVMValueRef polynomial(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = in->type;
    LLVMValueRef v = LLVMGetUndef(kj_cg_type(cg, t));
    v = LLVMBuildInsertValue(cg->b, v, copy_f64(cg, in, kj_cg_val(cg, in->args[0]), type_at(cg, in->args[0])->elem), 0, "");
    bool three = in->nargs > 2 && in->args[1] && type_at(cg, in->args[1])->kind == KJ_T_ARRAY;
    for (unsigned k = 1; k < 3; k++) {
        LLVMValueRef w;
        if (!three) {
            w = default_window(cg, in);
        } else {
            w = copy_f64(cg, in, kj_cg_val(cg, in->args[k]), type_at(cg, in->args[k])->elem);
            LLVMValueRef bad = LLVMBuildICmp(cg->b, LLVMIntNE, dim0(cg, w), kj_cg_i64(cg, 2), "");
            kj_cg_raise_if(cg, bad, KJ_RT_VALUE,
                           k == 1 ? "Domain has wrong number of elements." : "Window has wrong number of elements.",
                           in->span);
        }
        v = LLVMBuildInsertValue(cg->b, v, w, k, "");
    }
    return v;
}

/* trimseq(a) of a float64 1-d array: kj_rt_nppoly's view. */
static LLVMValueRef trimseq(kj_cg *cg, const kir_inst *in, LLVMValueRef a)
{
    LLVMValueRef out = kj_cg_out_desc(cg, 1), f0 = LLVMConstReal(cg->t_f64, 0);
    LLVMValueRef args[17] = {cg->fn->rt, kj_cg_i32(cg, KJ_NPP_TRIMSEQ), kj_cg_spill(cg, a), kj_cg_i32(cg, 1),
                             kj_cg_i32(cg, kj_cg_dtype(in->type->elem->elem)), LLVMConstNull(cg->t_ptr),
                             kj_cg_i32(cg, -1), kj_cg_i32(cg, 0), kj_cg_i64(cg, 1), f0, f0,
                             kj_cg_i32(cg, kj_cg_dtype(in->type->elem->elem)), out, kj_cg_i32(cg, 1),
                             LLVMConstNull(cg->t_ptr), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_NPPOLY, args, 17);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 1), out, "");
}

/* Store series s (a float64 1-d array) as element i of list data, trimmed
 * as trim says (NULL: always), its owner retained by the list. */
static void put_series(kj_cg *cg, const kir_inst *in, LLVMValueRef data, LLVMValueRef i, LLVMValueRef s,
                       LLVMValueRef trim)
{
    const kj_type *et = in->type->elem;
    LLVMValueRef ts = trimseq(cg, in, s);
    s = trim ? LLVMBuildSelect(cg->b, trim, ts, s, "") : ts;
    LLVMTypeRef mt = kj_cg_memtype(cg, et);
    LLVMBuildStore(cg->b, kj_cg_to_mem(cg, et, s), LLVMBuildGEP2(cg->b, mt, data, &i, 1, ""));
    LLVMValueRef r[2] = {cg->fn->rt, LLVMBuildExtractValue(cg->b, s, 3, "")};
    kj_cg_rtcall(cg, KJ_RTF_LIST_RETAIN, r, 2);
}

/* A new list of n series; its element memory in *data. */
static LLVMValueRef new_list(kj_cg *cg, const kir_inst *in, LLVMValueRef n, LLVMValueRef *data)
{
    LLVMTypeRef mt = kj_cg_memtype(cg, in->type->elem);
    int32_t owner = (int32_t)kj_abi_array_bytes(1) - 8;
    LLVMValueRef a[4] = {cg->fn->rt, LLVMSizeOf(mt), n, kj_cg_i32(cg, owner)};
    LLVMValueRef l = kj_cg_rtcall(cg, KJ_RTF_LIST_NEW, a, 4);
    LLVMValueRef off = kj_cg_i64(cg, LIST_DATA);
    *data = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_i8, l, &off, 1, ""), "");
    return l;
}

/* as_series of a tuple of 1-d arrays. */
static LLVMValueRef as_series(kj_cg *cg, const kir_inst *in, LLVMValueRef trim)
{
    const kj_type *tt = type_at(cg, in->args[0]);
    LLVMValueRef tv = kj_cg_val(cg, in->args[0]);
    for (uint32_t k = 0; k < tt->n; k++) { /* NumPy checks every series before converting any */
        LLVMValueRef empty = LLVMBuildICmp(cg->b, LLVMIntEQ, dim0(cg, LLVMBuildExtractValue(cg->b, tv, k, "")),
                                           kj_cg_i64(cg, 0), "");
        kj_cg_raise_if(cg, empty, KJ_RT_VALUE, "Coefficient array is empty", in->span);
    }
    LLVMValueRef data, l = new_list(cg, in, kj_cg_i64(cg, tt->n), &data);
    for (uint32_t k = 0; k < tt->n; k++)
        put_series(cg, in, data, kj_cg_i64(cg, k),
                   copy_f64(cg, in, LLVMBuildExtractValue(cg->b, tv, k, ""), tt->elems[k]->elem), trim);
    return l;
}

/* as_series of an array: a 2-d array's rows, a 1-d array's elements (each a
 * 1-element series), as NumPy iterates it. A loop over the rows, each a
 * 1-d view copied to float64. */
static LLVMValueRef as_series_array(kj_cg *cg, const kir_inst *in, LLVMValueRef trim)
{
    const kj_type *at = type_at(cg, in->args[0]);
    LLVMValueRef a = kj_cg_val(cg, in->args[0]), n = dim0(cg, a);
    /* NumPy's min() of no sizes, then its empty-series check */
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, n, kj_cg_i64(cg, 0), ""), KJ_RT_VALUE,
                   "min() arg is an empty sequence", in->span);
    LLVMValueRef len = kj_cg_i64(cg, 1), step = kj_cg_i64(cg, 0);
    if (at->ndim == 2) {
        len = LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, a, 1, ""), 1, "");
        step = LLVMBuildExtractValue(cg->b, LLVMBuildExtractValue(cg->b, a, 2, ""), 1, "");
        kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, len, kj_cg_i64(cg, 0), ""), KJ_RT_VALUE,
                       "Coefficient array is empty", in->span);
    }
    LLVMValueRef data, l = new_list(cg, in, n, &data);
    LLVMValueRef base = LLVMBuildExtractValue(cg->b, a, 0, ""), s0 = kj_cg_array_stride(cg, a, 0);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b), body = kj_cg_bb(cg, "as_series.row"),
                      done = kj_cg_bb(cg, "as_series.done");
    LLVMBuildBr(cg->b, body);
    LLVMPositionBuilderAtEnd(cg->b, body);
    LLVMValueRef i = LLVMBuildPhi(cg->b, cg->t_i64, "i");
    LLVMValueRef off = LLVMBuildMul(cg->b, i, s0, "");
    LLVMValueRef row = LLVMGetUndef(kj_cg_array_type(cg, 1));
    row = LLVMBuildInsertValue(cg->b, row, LLVMBuildGEP2(cg->b, cg->t_i8, base, &off, 1, ""), 0, "");
    LLVMTypeRef d1 = LLVMArrayType2(cg->t_i64, 1);
    row = LLVMBuildInsertValue(cg->b, row, LLVMBuildInsertValue(cg->b, LLVMGetUndef(d1), len, 0, ""), 1, "");
    row = LLVMBuildInsertValue(cg->b, row, LLVMBuildInsertValue(cg->b, LLVMGetUndef(d1), step, 0, ""), 2, "");
    row = LLVMBuildInsertValue(cg->b, row, LLVMBuildExtractValue(cg->b, a, 3, ""), 3, "");
    put_series(cg, in, data, i, copy_f64(cg, in, row, at->elem), trim);
    LLVMValueRef next = LLVMBuildAdd(cg->b, i, kj_cg_i64(cg, 1), "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(cg->b);
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, next, n, ""), body, done);
    LLVMValueRef inc[2] = {kj_cg_i64(cg, 0), next};
    LLVMBasicBlockRef from[2] = {pre, end};
    LLVMAddIncoming(i, inc, from, 2);
    LLVMPositionBuilderAtEnd(cg->b, done);
    return l;
}

LLVMValueRef kj_cg_polynomial(kj_cg *cg, const kir_inst *in)
{
    if (in->aux == KJ_B_NP_POLYNOMIAL) return polynomial(cg, in);
    bool trim_given = in->nargs > 1 && in->args[1] && type_at(cg, in->args[1])->kind == KJ_T_BOOL;
    LLVMValueRef trim = trim_given ? kj_cg_val(cg, in->args[1]) : NULL;
    if (type_at(cg, in->args[0])->kind == KJ_T_ARRAY) return as_series_array(cg, in, trim);
    return as_series(cg, in, trim);
}
