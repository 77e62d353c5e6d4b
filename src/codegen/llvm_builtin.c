/* SPDX-License-Identifier: BSD-2-Clause */
/* Built-in functions in host code: one table row per kj_builtin, naming the
 * function that generates it and, for math, the LLVM intrinsic and/or the
 * libm function (double name; the float32 one appends 'f').
 *
 * To add a built-in: write `static LLVMValueRef b_NAME(kj_cg *, const
 * kir_inst *, const bi_row *)` that returns the value of type in->type
 * (arguments are in->args in the table order of builtins.h, 0 = absent
 * optional) and add its row to `rows` below. Built-ins without a row here
 * are the host ones (NumPy, print, time, cuda on the host): see
 * llvm_host_builtins.c; math on arrays goes to llvm_ufunc.c. A host
 * built-in implemented in C is declared once, in src/abi/rtfns.def, and
 * called with kj_cg_rtcall. */
#include "codegen.h"

#include "../ir/builtins.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Scalar types for intermediate conversions (kj_cg_cast reads only kind,
 * bits and signedness). */
static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

typedef struct bi_row bi_row;
typedef LLVMValueRef (*bi_emit)(kj_cg *cg, const kir_inst *in, const bi_row *row);
struct bi_row {
    bi_emit emit;
    const char *intrinsic; /* llvm.NAME overloaded on the float type, or NULL */
    const char *libm;      /* libm name for double (float appends 'f'), or NULL */
};

static const kj_type *arg_type(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return k < in->nargs && in->args[k] ? cg->fn->kf->insts[in->args[k]].type : NULL;
}

static LLVMValueRef arg(kj_cg *cg, const kir_inst *in, uint32_t k) { return kj_cg_val(cg, in->args[k]); }

static bool is_float(const kj_type *t) { return t && t->kind == KJ_T_FLOAT; }

/* Argument k as a float: itself when it is one, else converted to the
 * result's float type (or float64). */
static LLVMValueRef float_arg(kj_cg *cg, const kir_inst *in, uint32_t k, const kj_type **ft)
{
    const kj_type *t = arg_type(cg, in, k);
    if (is_float(t)) {
        *ft = t;
        return arg(cg, in, k);
    }
    *ft = is_float(in->type) ? in->type : &T_F64;
    return kj_cg_cast(cg, arg(cg, in, k), t, *ft);
}

static LLVMValueRef unsupported(kj_cg *cg, const kir_inst *in)
{
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
    kj_cg_fail(cg, in->span, "built-in '%s' is not supported by the host code generator yet",
               bi ? bi->path : "?");
    return in->type ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
}

/* Host array arguments go to the runtime's elementwise loops
 * (kj_cg_array_math in llvm_ufunc.c). */
static bool any_array(kj_cg *cg, const kir_inst *in)
{
    if (in->type && in->type->kind == KJ_T_ARRAY) return true;
    for (uint32_t k = 0; k < in->nargs; k++) {
        const kj_type *t = arg_type(cg, in, k);
        if (t && t->kind == KJ_T_ARRAY) return true;
    }
    return false;
}

/* The intrinsic when LLVM has one, else the libm function. */
static LLVMValueRef math_call(kj_cg *cg, const bi_row *row, const kj_type *ft, LLVMValueRef *x, unsigned n)
{
    LLVMTypeRef ty = kj_cg_type(cg, ft);
    if (ft->bits == 16) { /* NumPy's float16 loops compute in float32 and round back */
        static const kj_type f32 = {.kind = KJ_T_FLOAT, .bits = 32, .is_signed = true};
        LLVMValueRef w[2];
        for (unsigned k = 0; k < n; k++) w[k] = LLVMBuildFPExt(cg->b, x[k], cg->t_f32, "");
        return LLVMBuildFPTrunc(cg->b, math_call(cg, row, &f32, w, n), ty, "");
    }
    if (row->intrinsic && LLVMLookupIntrinsicID(row->intrinsic, strlen(row->intrinsic)))
        return kj_cg_intrinsic(cg, row->intrinsic, ty, x, n);
    char name[32];
    snprintf(name, sizeof name, "%s%s", row->libm, ft->bits == 32 ? "f" : "");
    return kj_cg_libm(cg, name, ty, x, n);
}

/* math.f(x) and math.f(x, y): computed in the argument's float type. */
static LLVMValueRef b_math(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    const kj_type *ft = NULL, *ft2 = NULL;
    LLVMValueRef x[2] = {float_arg(cg, in, 0, &ft), NULL};
    unsigned n = in->nargs >= 2 && in->args[1] ? 2 : 1;
    if (n == 2) {
        LLVMValueRef y = float_arg(cg, in, 1, &ft2); /* sets ft2 before it is read */
        x[1] = kj_cg_cast(cg, y, ft2, ft);
    }
    return kj_cg_cast(cg, math_call(cg, row, ft, x, n), ft, in->type);
}

/* math.lgamma: through the runtime (C's lgamma writes a global). */
static LLVMValueRef b_lgamma(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    const kj_type *ft = NULL;
    LLVMValueRef x = float_arg(cg, in, 0, &ft);
    LLVMValueRef r = kj_cg_rtcall(cg, ft->bits == 32 ? KJ_RTF_LGAMMAF : KJ_RTF_LGAMMA, &x, 1);
    return kj_cg_cast(cg, r, ft, in->type);
}

/* math.fmod: LLVM's frem is C's fmod. */
static LLVMValueRef b_fmod(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    const kj_type *ft = NULL, *ft2 = NULL;
    LLVMValueRef x = float_arg(cg, in, 0, &ft);
    LLVMValueRef y = float_arg(cg, in, 1, &ft2);
    y = kj_cg_cast(cg, y, ft2, ft);
    return kj_cg_cast(cg, kj_cg_fm(cg, LLVMBuildFRem(cg->b, x, y, "")), ft, in->type);
}

/* np.fmod: math.fmod for floats; for integers C's remainder (the sign of
 * the dividend), and 0 where NumPy gives 0: a zero divisor (NumPy warns),
 * and -1, whose remainder is always 0 but whose srem overflows for the
 * most negative dividend (undefined in LLVM). */
static LLVMValueRef b_np_fmod(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    if (is_float(in->type)) return b_fmod(cg, in, row);
    LLVMValueRef x = kj_cg_cast(cg, arg(cg, in, 0), arg_type(cg, in, 0), in->type);
    LLVMValueRef y = kj_cg_cast(cg, arg(cg, in, 1), arg_type(cg, in, 1), in->type);
    LLVMTypeRef ty = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMConstInt(ty, 0, 0), one = LLVMConstInt(ty, 1, 0);
    bool sign = kj_cg_is_signed(in->type);
    LLVMValueRef none = LLVMBuildICmp(cg->b, LLVMIntEQ, y, zero, "");
    if (sign) none = LLVMBuildOr(cg->b, none, LLVMBuildICmp(cg->b, LLVMIntEQ, y, LLVMConstAllOnes(ty), ""), "");
    LLVMValueRef safe = LLVMBuildSelect(cg->b, none, one, y, "");
    LLVMValueRef r = sign ? LLVMBuildSRem(cg->b, x, safe, "") : LLVMBuildURem(cg->b, x, safe, "");
    return LLVMBuildSelect(cg->b, none, zero, r, "fmod");
}

/* math.floor/ceil/trunc: float → int64 (Python), integers unchanged. */
static LLVMValueRef b_rounding(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    const kj_type *t = arg_type(cg, in, 0);
    if (!is_float(t)) return kj_cg_cast(cg, arg(cg, in, 0), t, in->type);
    LLVMValueRef x = arg(cg, in, 0);
    return kj_cg_cast(cg, math_call(cg, row, t, &x, 1), t, in->type);
}

/* math.isnan / isinf / isfinite */
static LLVMValueRef b_pred(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    const kj_type *t = arg_type(cg, in, 0);
    LLVMValueRef x = arg(cg, in, 0);
    bool nan = in->aux == KJ_B_ISNAN, fin = in->aux == KJ_B_ISFINITE;
    if (!is_float(t)) return LLVMConstInt(cg->t_i1, fin, 0);
    if (nan) return LLVMBuildFCmp(cg->b, LLVMRealUNO, x, x, "isnan");
    LLVMValueRef ax = kj_cg_intrinsic(cg, "llvm.fabs", LLVMTypeOf(x), &x, 1);
    LLVMValueRef inf = LLVMConstReal(LLVMTypeOf(x), INFINITY);
    return LLVMBuildFCmp(cg->b, fin ? LLVMRealOLT : LLVMRealOEQ, ax, inf, fin ? "isfinite" : "isinf");
}

/* abs(x): integers wrap (abs(INT_MIN) == INT_MIN, as NumPy). */
static LLVMValueRef b_abs(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    const kj_type *t = arg_type(cg, in, 0);
    LLVMValueRef x = kj_cg_cast(cg, arg(cg, in, 0), t, in->type);
    if (is_float(in->type)) return kj_cg_intrinsic(cg, "llvm.fabs", LLVMTypeOf(x), &x, 1);
    if (!kj_cg_is_signed(in->type)) return x;
    LLVMValueRef a[2] = {x, LLVMConstInt(cg->t_i1, 0, 0)};
    return kj_cg_intrinsic(cg, "llvm.abs", LLVMTypeOf(x), a, 2);
}

/* min/max over 2+ arguments (or one tuple), as Python: min keeps the
 * current value unless the next is smaller (so NaN handling depends on
 * the order, exactly as in CPython). */
static LLVMValueRef b_minmax(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    bool is_max = in->aux == KJ_B_MAX;
    const kj_type *t0 = arg_type(cg, in, 0);
    uint32_t n = in->nargs;
    LLVMValueRef tup = NULL;
    if (n == 1 && t0 && t0->kind == KJ_T_TUPLE) {
        tup = arg(cg, in, 0);
        n = t0->n;
    }
    LLVMValueRef cur = NULL;
    for (uint32_t k = 0; k < n; k++) {
        const kj_type *t = tup ? t0->elems[k] : arg_type(cg, in, k);
        LLVMValueRef v = tup ? LLVMBuildExtractValue(cg->b, tup, k, "") : arg(cg, in, k);
        v = kj_cg_cast(cg, v, t, in->type);
        if (!cur) {
            cur = v;
            continue;
        }
        LLVMValueRef better = is_max ? kj_cg_less(cg, in->type, cur, v) : kj_cg_less(cg, in->type, v, cur);
        cur = kj_cg_fm(cg, LLVMBuildSelect(cg->b, better, v, cur, ""));
    }
    return cur;
}

/* np.where(c, x, y) on scalars: x if c else y. Array forms never get
 * here: kir_fuse.c turns them into ufunc calls. */
static LLVMValueRef b_where(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    LLVMValueRef x = kj_cg_cast(cg, arg(cg, in, 1), arg_type(cg, in, 1), in->type);
    LLVMValueRef y = kj_cg_cast(cg, arg(cg, in, 2), arg_type(cg, in, 2), in->type);
    return LLVMBuildSelect(cg->b, arg(cg, in, 0), x, y, "where");
}

/* np.clip(a, lo, hi) on scalars as NumPy's clip loop: t = max(a, lo), then
 * min(t, hi), each keeping the right operand unless the left one is greater
 * (smaller), and keeping a NaN left operand (a NaN bound is kept too). */
static LLVMValueRef b_clip(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    LLVMValueRef v[3];
    for (uint32_t k = 0; k < 3; k++) v[k] = kj_cg_cast(cg, arg(cg, in, k), arg_type(cg, in, k), in->type);
    bool fl = is_float(in->type);
    LLVMValueRef t = v[0];
    for (int k = 1; k <= 2; k++) {
        LLVMValueRef keep = k == 1 ? kj_cg_less(cg, in->type, v[k], t) : kj_cg_less(cg, in->type, t, v[k]);
        if (fl) keep = LLVMBuildOr(cg->b, keep, LLVMBuildFCmp(cg->b, LLVMRealUNO, t, t, ""), "");
        t = LLVMBuildSelect(cg->b, keep, t, v[k], "clip");
    }
    return t;
}

/* np.minimum / np.maximum on scalars: NaN propagates (NumPy). */
static LLVMValueRef b_np_minmax(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_array_math(cg, in);
    LLVMValueRef a = kj_cg_cast(cg, arg(cg, in, 0), arg_type(cg, in, 0), in->type);
    LLVMValueRef b = kj_cg_cast(cg, arg(cg, in, 1), arg_type(cg, in, 1), in->type);
    bool is_max = in->aux == KJ_B_NP_MAXIMUM;
    /* a if (a <= b (>= for max) or a is NaN) else b */
    LLVMValueRef keep = is_max ? kj_cg_less(cg, in->type, b, a) : kj_cg_less(cg, in->type, a, b);
    if (is_float(in->type)) {
        LLVMValueRef eq = LLVMBuildFCmp(cg->b, LLVMRealOEQ, a, b, "");
        keep = LLVMBuildOr(cg->b, LLVMBuildOr(cg->b, keep, eq, ""),
                           LLVMBuildFCmp(cg->b, LLVMRealUNO, a, a, ""), "");
    } else {
        keep = LLVMBuildOr(cg->b, keep, LLVMBuildICmp(cg->b, LLVMIntEQ, a, b, ""), "");
    }
    return kj_cg_fm(cg, LLVMBuildSelect(cg->b, keep, a, b, ""));
}

/* round(x) → int (half to even); round(x, n) → the type of x. */
static LLVMValueRef b_round(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    const kj_type *t = arg_type(cg, in, 0);
    LLVMValueRef x = arg(cg, in, 0);
    bool nd = in->nargs >= 2 && in->args[1];
    if (!nd) {
        if (!is_float(t)) return kj_cg_cast(cg, x, t, in->type);
        return kj_cg_cast(cg, kj_cg_intrinsic(cg, "llvm.roundeven", LLVMTypeOf(x), &x, 1), t, in->type);
    }
    LLVMValueRef n = kj_cg_cast(cg, arg(cg, in, 1), arg_type(cg, in, 1), &T_I64);
    if (!is_float(t)) {
        LLVMValueRef a[2] = {kj_cg_cast(cg, x, t, &T_I64), n};
        return kj_cg_cast(cg, kj_cg_rtcall(cg, KJ_RTF_ROUND_INT, a, 2), &T_I64, in->type);
    }
    LLVMValueRef a[2] = {kj_cg_cast(cg, x, t, &T_F64), n};
    return kj_cg_cast(cg, kj_cg_rtcall(cg, KJ_RTF_ROUND_NDIGITS, a, 2), &T_F64, in->type);
}

/* int(x), float(x), bool(x), float32(x): a conversion to the result type. */
static LLVMValueRef b_convert(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (any_array(cg, in)) return kj_cg_host_builtin(cg, in); /* float32(a): a.astype(float32) */
    return kj_cg_cast(cg, arg(cg, in, 0), arg_type(cg, in, 0), in->type);
}

static LLVMValueRef b_const(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    double v = in->aux == KJ_B_PI ? M_PI : in->aux == KJ_B_E ? M_E : in->aux == KJ_B_INF ? INFINITY : NAN;
    return LLVMConstReal(kj_cg_type(cg, in->type), v);
}

static LLVMValueRef b_fma(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    LLVMValueRef a[3];
    for (uint32_t k = 0; k < 3; k++) a[k] = kj_cg_cast(cg, arg(cg, in, k), arg_type(cg, in, k), in->type);
    return kj_cg_intrinsic(cg, "llvm.fma", kj_cg_type(cg, in->type), a, 3);
}

/* numba.cuda.random's generators (llvm_cuda_random.c) */
static LLVMValueRef b_xoro(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    return kj_cg_xoroshiro(cg, in);
}

/* a.T, a.transpose(), np.transpose(a): a view (llvm_array.c) */
static LLVMValueRef b_transpose(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    if (in->nargs > 1 && in->args[1] && arg_type(cg, in, 1)->kind != KJ_T_NONE)
        return kj_cg_np_manip(cg, in); /* with axes: host code only (infer_call.c) */
    return kj_cg_array_transpose(cg, arg_type(cg, in, 0), arg(cg, in, 0));
}

/* An element's size in bytes: a record's itemsize (llvm_record.c) */
static int64_t elem_size(kj_cg *cg, const kj_type *e)
{
    return (int64_t)LLVMABISizeOfType(cg->td, kj_record_of(e) ? kj_cg_record_memtype(cg, e) : kj_cg_memtype(cg, e));
}

/* d.is_c_contiguous() / is_f_contiguous(), as NumPy's flags: every axis longer
 * than 1, taken from the last (C) or the first (F), steps by the item size
 * times the axes after it; an empty array is both. */
LLVMValueRef kj_cg_array_contiguous(kj_cg *cg, const kj_type *t, LLVMValueRef a, bool f)
{
    LLVMValueRef one = kj_cg_i64(cg, 1), zero = kj_cg_i64(cg, 0);
    LLVMValueRef sd = kj_cg_i64(cg, elem_size(cg, t->elem));
    LLVMValueRef ok = LLVMConstInt(cg->t_i1, 1, 0), empty = LLVMConstInt(cg->t_i1, 0, 0);
    for (unsigned j = 0; j < t->ndim; j++) {
        unsigned k = f ? j : t->ndim - 1 - j;
        LLVMValueRef n = kj_cg_array_dim(cg, a, k);
        LLVMValueRef step = LLVMBuildOr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, n, one, ""),
                                        LLVMBuildICmp(cg->b, LLVMIntEQ, kj_cg_array_stride(cg, a, k), sd, ""), "");
        ok = LLVMBuildAnd(cg->b, ok, step, "");
        empty = LLVMBuildOr(cg->b, empty, LLVMBuildICmp(cg->b, LLVMIntEQ, n, zero, ""), "");
        sd = LLVMBuildMul(cg->b, sd, n, "");
    }
    return LLVMBuildOr(cg->b, ok, empty, f ? "f_contiguous" : "c_contiguous");
}

/* len(a), a.shape, a.size, a.ndim, a.dtype, a.strides */
static LLVMValueRef b_array_attr(kj_cg *cg, const kir_inst *in, const bi_row *row)
{
    (void)row;
    const kj_type *t = arg_type(cg, in, 0);
    if (!t || t->kind != KJ_T_ARRAY) {
        if (in->aux == KJ_B_LEN && t && t->kind == KJ_T_TUPLE) return kj_cg_i64(cg, t->n);
        if (in->aux == KJ_B_LEN && t && t->kind == KJ_T_OPAQUE) /* len(cuda.gpus): the count it holds */
            return LLVMBuildPtrToInt(cg->b, arg(cg, in, 0), cg->t_i64, "gpus");
        if (in->aux == KJ_B_LEN && t && t->kind == KJ_T_LIST) return kj_cg_list_builtin(cg, in); /* llvm_list.c */
        if (in->aux == KJ_B_LEN && t && (t->kind == KJ_T_DICT || t->kind == KJ_T_SET))
            return kj_cg_dict_builtin(cg, in); /* llvm_dict.c */
        if (in->aux == KJ_B_LEN && t && t->kind == KJ_T_STR) return kj_cg_str_builtin(cg, in); /* llvm_str.c */
        return unsupported(cg, in);
    }
    LLVMValueRef a = arg(cg, in, 0);
    switch (in->aux) {
    case KJ_B_LEN: return kj_cg_array_dim(cg, a, 0);
    case KJ_B_ARR_NDIM: return kj_cg_i64(cg, kj_type_rank(t));
    case KJ_B_ARR_DTYPE: return kj_cg_zero(cg, in->type);
    case KJ_B_ARR_ITEMSIZE: return kj_cg_i64(cg, elem_size(cg, t->elem));
    case KJ_B_ARR_IS_C_CONTIGUOUS: case KJ_B_ARR_IS_F_CONTIGUOUS:
        return kj_cg_array_contiguous(cg, t, a, in->aux == KJ_B_ARR_IS_F_CONTIGUOUS);
    case KJ_B_ARR_STRIDES: {
        LLVMValueRef s = LLVMGetUndef(kj_cg_type(cg, in->type));
        for (unsigned k = 0; k < (unsigned)kj_type_rank(t); k++)
            s = LLVMBuildInsertValue(cg->b, s, kj_cg_array_stride(cg, a, k), k, "");
        return s;
    }
    case KJ_B_ARR_SIZE: case KJ_B_ARR_NBYTES: {
        LLVMValueRef n = kj_cg_array_dim(cg, a, 0);
        if (in->aux == KJ_B_ARR_SIZE && kj_is_xoro_states(t)) return n; /* n records */
        for (unsigned k = 1; k < t->ndim; k++) n = LLVMBuildMul(cg->b, n, kj_cg_array_dim(cg, a, k), "");
        if (in->aux == KJ_B_ARR_SIZE) return n;
        return LLVMBuildMul(cg->b, n, kj_cg_i64(cg, elem_size(cg, t->elem)), "");
    }
    default: { /* shape */
        LLVMValueRef s = LLVMGetUndef(kj_cg_type(cg, in->type));
        for (unsigned k = 0; k < (unsigned)kj_type_rank(t); k++)
            s = LLVMBuildInsertValue(cg->b, s, kj_cg_array_dim(cg, a, k), k, "");
        return s;
    }
    }
}

#define MATH(id, intr, lib) [KJ_B_##id] = {b_math, intr, lib}
static const bi_row rows[KJ_B__COUNT] = {
    MATH(SIN, "llvm.sin", "sin"),
    MATH(COS, "llvm.cos", "cos"),
    MATH(TAN, "llvm.tan", "tan"),
    MATH(ASIN, "llvm.asin", "asin"),
    MATH(ACOS, "llvm.acos", "acos"),
    MATH(ATAN, "llvm.atan", "atan"),
    MATH(ATAN2, "llvm.atan2", "atan2"),
    MATH(SINH, "llvm.sinh", "sinh"),
    MATH(COSH, "llvm.cosh", "cosh"),
    MATH(TANH, "llvm.tanh", "tanh"),
    MATH(ASINH, NULL, "asinh"),
    MATH(ACOSH, NULL, "acosh"),
    MATH(ATANH, NULL, "atanh"),
    MATH(EXP, "llvm.exp", "exp"),
    MATH(EXPM1, NULL, "expm1"),
    MATH(EXP2, "llvm.exp2", "exp2"),
    MATH(LOG, "llvm.log", "log"),
    MATH(LOG1P, NULL, "log1p"),
    MATH(LOG2, "llvm.log2", "log2"),
    MATH(LOG10, "llvm.log10", "log10"),
    MATH(SQRT, "llvm.sqrt", "sqrt"),
    MATH(POW, "llvm.pow", "pow"),
    MATH(FABS, "llvm.fabs", "fabs"),
    MATH(COPYSIGN, "llvm.copysign", "copysign"),
    MATH(HYPOT, NULL, "hypot"),
    MATH(ERF, NULL, "erf"),
    MATH(ERFC, NULL, "erfc"),
    MATH(GAMMA, NULL, "tgamma"),
    [KJ_B_LGAMMA] = {b_lgamma, NULL, NULL},
    [KJ_B_FMOD] = {b_fmod, NULL, NULL},
    [KJ_B_NP_FMOD] = {b_np_fmod, NULL, NULL},
    [KJ_B_FLOOR] = {b_rounding, "llvm.floor", "floor"},
    [KJ_B_CEIL] = {b_rounding, "llvm.ceil", "ceil"},
    [KJ_B_TRUNC] = {b_rounding, "llvm.trunc", "trunc"},
    [KJ_B_ISNAN] = {b_pred, NULL, NULL},
    [KJ_B_ISINF] = {b_pred, NULL, NULL},
    [KJ_B_ISFINITE] = {b_pred, NULL, NULL},
    [KJ_B_ABS] = {b_abs, NULL, NULL},
    [KJ_B_MIN] = {b_minmax, NULL, NULL},
    [KJ_B_MAX] = {b_minmax, NULL, NULL},
    [KJ_B_NP_MINIMUM] = {b_np_minmax, NULL, NULL},
    [KJ_B_NP_MAXIMUM] = {b_np_minmax, NULL, NULL},
    [KJ_B_NP_WHERE] = {b_where, NULL, NULL},
    [KJ_B_NP_CLIP] = {b_clip, NULL, NULL},
    [KJ_B_ROUND] = {b_round, NULL, NULL},
    [KJ_B_INT] = {b_convert, NULL, NULL},
    [KJ_B_FLOAT] = {b_convert, NULL, NULL},
    [KJ_B_BOOL] = {b_convert, NULL, NULL},
    [KJ_B_CONVERT] = {b_convert, NULL, NULL},
    [KJ_B_PI] = {b_const, NULL, NULL},
    [KJ_B_E] = {b_const, NULL, NULL},
    [KJ_B_INF] = {b_const, NULL, NULL},
    [KJ_B_NAN] = {b_const, NULL, NULL},
    [KJ_B_FMA] = {b_fma, NULL, NULL},
    [KJ_B_XORO_NEXT] = {b_xoro, NULL, NULL},
    [KJ_B_XORO_JUMP] = {b_xoro, NULL, NULL},
    [KJ_B_XORO_UNIFORM32] = {b_xoro, NULL, NULL},
    [KJ_B_XORO_UNIFORM64] = {b_xoro, NULL, NULL},
    [KJ_B_XORO_NORMAL32] = {b_xoro, NULL, NULL},
    [KJ_B_XORO_NORMAL64] = {b_xoro, NULL, NULL},
    [KJ_B_LEN] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_SHAPE] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_SIZE] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_NBYTES] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_NDIM] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_DTYPE] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_STRIDES] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_ITEMSIZE] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_IS_C_CONTIGUOUS] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_IS_F_CONTIGUOUS] = {b_array_attr, NULL, NULL},
    [KJ_B_ARR_T] = {b_transpose, NULL, NULL},
    [KJ_B_ARR_TRANSPOSE] = {b_transpose, NULL, NULL},
    [KJ_B_NP_TRANSPOSE] = {b_transpose, NULL, NULL},
};

LLVMValueRef kj_cg_builtin(kj_cg *cg, kir_ref r)
{
    const kir_inst *in = &cg->fn->kf->insts[r];
    LLVMValueRef exc = kj_cg_exc_builtin(cg, in); /* of an exception object: llvm_excobj.c */
    if (exc) return exc;
    if (in->aux == KJ_B_REC_GET || in->aux == KJ_B_REC_SET || in->aux == KJ_B_REC_VIEW)
        return kj_cg_record(cg, in); /* llvm_record.c */
    if (in->aux == KJ_B_DT_OP) return kj_cg_datetime(cg, in); /* llvm_datetime.c */
    if (kj_cg_complex_builtin_of(cg, in)) return kj_cg_complex_builtin(cg, in);
    if (kj_builtin_pymath(in->aux)) return kj_cg_pymath(cg, in);
    if (kj_builtin_npmath(in->aux)) return kj_cg_npmath(cg, in);
    if (kj_builtin_pybuiltin(in->aux)) return kj_cg_pybuiltin(cg, in);
    const bi_row *row = in->aux < KJ_B__COUNT ? &rows[in->aux] : NULL;
    if (!row || !row->emit) {
        const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
        if (cg->fn->kx && bi && (bi->flags & KJ_BF_DEV) && !(bi->flags & KJ_BF_HOST))
            return kj_cg_kernel_builtin(cg, in); /* cuda.* inside kernels: llvm_kernel.c */
        return kj_cg_host_builtin(cg, in);
    }
    return row->emit(cg, in, row);
}
