/* SPDX-License-Identifier: BSD-2-Clause */
/* Host built-ins in generated code: NumPy constructors and reductions,
 * np.random, copies and reshape, np.allclose/np.save, print,
 * time.perf_counter and the host side of numba.cuda. Almost all of them are
 * calls into the runtime (rt_host.h): arrays travel as pointers to spilled
 * descriptors, results come back through a descriptor the runtime fills,
 * and the runtime raises errors at the call's source location.
 *
 * On the cpu target device arrays are host arrays: cuda.to_device and
 * copy_to_host copy (as Numba's do), device_array allocates, streams and
 * synchronisation are no-ops, and events record time.perf_counter. */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../ir/builtins_random.h"
#include "../abi/abi.h"

#include <string.h>

/* ---- shared helpers ---- */

int32_t kj_cg_dtype(const kj_type *t)
{
    if (!t) return KJ_DT_FLOAT64;
    switch (t->kind) {
    case KJ_T_BOOL: return KJ_DT_BOOL;
    case KJ_T_DATETIME: case KJ_T_TIMEDELTA: return KJ_DT_INT64; /* the unit is the static type's */
    case KJ_T_FLOAT: return t->bits == 16 ? KJ_DT_FLOAT16 : t->bits == 32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    case KJ_T_COMPLEX: return t->bits == 64 ? KJ_DT_COMPLEX64 : KJ_DT_COMPLEX128;
    case KJ_T_INT:
        switch (t->bits) {
        case 8: return t->is_signed ? KJ_DT_INT8 : KJ_DT_UINT8;
        case 16: return t->is_signed ? KJ_DT_INT16 : KJ_DT_UINT16;
        case 32: return t->is_signed ? KJ_DT_INT32 : KJ_DT_UINT32;
        default: return t->is_signed ? KJ_DT_INT64 : KJ_DT_UINT64;
        }
    default: return KJ_DT_FLOAT64;
    }
}

LLVMValueRef kj_cg_spill(kj_cg *cg, LLVMValueRef v)
{
    LLVMValueRef p = kj_cg_alloca(cg, LLVMTypeOf(v), "spill");
    LLVMBuildStore(cg->b, v, p);
    return p;
}

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

void kj_cg_operand(kj_cg *cg, kir_ref r, LLVMValueRef out[3])
{
    const kj_type *t = type_of(cg, r);
    LLVMValueRef v = kj_cg_val(cg, r);
    if (t->kind == KJ_T_ARRAY && kj_record_of(t->elem)) { /* the records' bytes: llvm_record.c */
        out[0] = kj_cg_spill(cg, kj_cg_record_bytes(cg, t, v));
        out[1] = kj_cg_i32(cg, t->ndim + 1);
        out[2] = kj_cg_i32(cg, KJ_DT_UINT8);
    } else if (t->kind == KJ_T_ARRAY) {
        out[0] = kj_cg_spill(cg, v);
        out[1] = kj_cg_i32(cg, t->ndim);
        out[2] = kj_cg_i32(cg, kj_cg_dtype(t->elem));
    } else {
        out[0] = kj_cg_spill(cg, kj_cg_to_mem(cg, t, v));
        out[1] = kj_cg_i32(cg, 0);
        out[2] = kj_cg_i32(cg, kj_cg_dtype(t));
    }
}

LLVMValueRef kj_cg_out_desc(kj_cg *cg, int ndim) { return kj_cg_alloca(cg, kj_cg_array_type(cg, ndim), "out"); }

LLVMValueRef kj_cg_line(kj_cg *cg, const kir_inst *in) { return kj_cg_i32(cg, in->span.line); }
LLVMValueRef kj_cg_col(kj_cg *cg, const kir_inst *in) { return kj_cg_i32(cg, in->span.col); }

static LLVMValueRef load_desc(kj_cg *cg, LLVMValueRef p, int ndim)
{
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, ndim), p, "arr");
}

/* Argument k, or 0 when absent (not given, or None). */
static kir_ref argref(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    if (k >= in->nargs || !in->args[k]) return 0;
    return type_of(cg, in->args[k])->kind == KJ_T_NONE ? 0 : in->args[k];
}

static LLVMValueRef argv(kj_cg *cg, const kir_inst *in, uint32_t k) { return kj_cg_val(cg, in->args[k]); }

static const kj_type *argt(kj_cg *cg, const kir_inst *in, uint32_t k) { return type_of(cg, in->args[k]); }

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

static LLVMValueRef to_i64(kj_cg *cg, kir_ref r) { return kj_cg_cast(cg, kj_cg_val(cg, r), type_of(cg, r), &T_I64); }
static LLVMValueRef to_f64(kj_cg *cg, kir_ref r) { return kj_cg_cast(cg, kj_cg_val(cg, r), type_of(cg, r), &T_F64); }

/* n int64 values in a [n x i64] temporary. */
static LLVMValueRef i64_array(kj_cg *cg, const LLVMValueRef *v, int n)
{
    LLVMValueRef a = LLVMGetUndef(LLVMArrayType2(cg->t_i64, (uint64_t)n));
    for (int k = 0; k < n; k++) a = LLVMBuildInsertValue(cg->b, a, v[k], (unsigned)k, "");
    return kj_cg_spill(cg, a);
}

/* A shape argument: an int, or a tuple of nd ints. */
static LLVMValueRef shape_of(kj_cg *cg, kir_ref r, int nd)
{
    const kj_type *t = type_of(cg, r);
    LLVMValueRef v[KJ_ABI_MAX_DIMS];
    if (t->kind != KJ_T_TUPLE) {
        v[0] = to_i64(cg, r);
        return i64_array(cg, v, 1);
    }
    LLVMValueRef tup = kj_cg_val(cg, r);
    for (int k = 0; k < nd && k < KJ_ABI_MAX_DIMS; k++)
        v[k] = kj_cg_cast(cg, LLVMBuildExtractValue(cg->b, tup, (unsigned)k, ""), t->elems[k], &T_I64);
    return i64_array(cg, v, nd);
}

LLVMValueRef kj_cg_shape_arg(kj_cg *cg, kir_ref r, int nd) { return shape_of(cg, r, nd); }
LLVMValueRef kj_cg_load_desc(kj_cg *cg, LLVMValueRef p, int ndim) { return load_desc(cg, p, ndim); }

/* The shape of array value `arr` in a [nd x i64] temporary. */
static LLVMValueRef shape_of_array(kj_cg *cg, LLVMValueRef arr)
{
    return kj_cg_spill(cg, LLVMBuildExtractValue(cg->b, arr, 1, "shape"));
}

/* A shape given as separate int arguments (rand(2, 3), reshape(2, 3)). */
static LLVMValueRef shape_list(kj_cg *cg, const kir_inst *in, uint32_t first, int nd)
{
    LLVMValueRef v[KJ_ABI_MAX_DIMS];
    for (int k = 0; k < nd && k < KJ_ABI_MAX_DIMS; k++) v[k] = to_i64(cg, in->args[first + (uint32_t)k]);
    return i64_array(cg, v, nd);
}

static LLVMValueRef rt_arg(kj_cg *cg) { return cg->fn->rt; }

/* ---- constructors ---- */

/* np.zeros/ones/empty/full, their _like forms, cuda.device_array(_like):
 * a new array of in->type with `shape`, filled with `fill` (a value of
 * type fill_t), one (ones) or zero. */
static LLVMValueRef alloc(kj_cg *cg, const kir_inst *in, LLVMValueRef shape, LLVMValueRef fill,
                          const kj_type *fill_t)
{
    const kj_type *at = in->type;
    LLVMValueRef fillp = LLVMConstNull(cg->t_ptr);
    if (fill) fillp = kj_cg_spill(cg, kj_cg_to_mem(cg, at->elem, kj_cg_cast(cg, fill, fill_t, at->elem)));
    LLVMValueRef out = kj_cg_out_desc(cg, at->ndim);
    LLVMValueRef a[8] = {rt_arg(cg), kj_cg_i32(cg, kj_cg_dtype(at->elem)), kj_cg_i32(cg, at->ndim), shape, fillp,
                         out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_ALLOC, a, 8);
    return load_desc(cg, out, at->ndim);
}

/* The [nd x i64] shape at `p` reversed, in a new temporary. */
static LLVMValueRef reversed(kj_cg *cg, LLVMValueRef p, int nd)
{
    LLVMValueRef s = LLVMBuildLoad2(cg->b, LLVMArrayType2(cg->t_i64, (uint64_t)nd), p, "shape"), v[KJ_ABI_MAX_DIMS];
    for (int k = 0; k < nd && k < KJ_ABI_MAX_DIMS; k++) v[k] = LLVMBuildExtractValue(cg->b, s, (unsigned)(nd - 1 - k), "");
    return i64_array(cg, v, nd);
}

/* cuda.device_array(shape, order='F'), device_array_like(f): a Fortran-ordered
 * array is the transpose (a view, llvm_array.c) of a C array of the reversed shape. */
static LLVMValueRef alloc_f(kj_cg *cg, const kir_inst *in)
{
    int nd = in->type->ndim;
    LLVMValueRef shape = in->aux == KJ_B_CUDA_DEVICE_ARRAY ? shape_of(cg, in->args[0], nd)
                                                           : shape_of_array(cg, argv(cg, in, 0));
    return kj_cg_array_transpose(cg, in->type, alloc(cg, in, reversed(cg, shape, nd), NULL, NULL));
}

/* cuda.device_array(n, dtype=xoroshiro128p_dtype): n states, stored as (n, 2) uint64. */
static LLVMValueRef alloc_xoro(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = type_of(cg, in->args[0]);
    LLVMValueRef v[2] = {t->kind == KJ_T_TUPLE ? kj_cg_cast(cg, LLVMBuildExtractValue(cg->b, argv(cg, in, 0), 0, ""),
                                                            t->elems[0], &T_I64)
                                               : to_i64(cg, in->args[0]),
                         kj_cg_i64(cg, 2)};
    return alloc(cg, in, i64_array(cg, v, 2), NULL, NULL);
}

/* np.zeros(shape, dtype=rec), np.empty, cuda.device_array: the records' zeroed bytes as a uint8
 * array of shape (shape..., itemsize), viewed as records (llvm_record.c). */
static LLVMValueRef alloc_records(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = in->type, *t = type_of(cg, in->args[0]);
    int nd = at->ndim;
    LLVMValueRef v[KJ_ABI_MAX_DIMS + 1];
    for (int k = 0; k < nd; k++)
        v[k] = t->kind == KJ_T_TUPLE ? kj_cg_cast(cg, LLVMBuildExtractValue(cg->b, argv(cg, in, 0), (unsigned)k, ""),
                                                  t->elems[k], &T_I64)
                                     : to_i64(cg, in->args[0]);
    v[nd] = kj_cg_i64(cg, kj_record_of(at->elem)->size);
    LLVMValueRef out = kj_cg_out_desc(cg, nd + 1);
    LLVMValueRef a[8] = {rt_arg(cg), kj_cg_i32(cg, KJ_DT_UINT8), kj_cg_i32(cg, nd + 1), i64_array(cg, v, nd + 1),
                         LLVMConstNull(cg->t_ptr), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_ALLOC, a, 8);
    return kj_cg_record_alloc(cg, nd, load_desc(cg, out, nd + 1));
}

static LLVMValueRef b_alloc(kj_cg *cg, const kir_inst *in)
{
    if (kj_record_of(in->type->elem)) return alloc_records(cg, in);
    if (in->aux == KJ_B_CUDA_DEVICE_ARRAY && kj_is_xoro_states(in->type)) return alloc_xoro(cg, in);
    if (in->aux == KJ_B_CUDA_DEVICE_ARRAY && argref(cg, in, 2)) return kj_cg_device_array_strided(cg, in);
    if ((in->aux == KJ_B_CUDA_DEVICE_ARRAY || in->aux == KJ_B_CUDA_DEVICE_ARRAY_LIKE) &&
        in->type->layout == KJ_LAYOUT_F)
        return alloc_f(cg, in);
    const kj_type *at = in->type;
    LLVMValueRef one = kj_cg_i64(cg, 1);
    switch (in->aux) {
    case KJ_B_NP_ONES: return alloc(cg, in, shape_of(cg, in->args[0], at->ndim), one, &T_I64);
    case KJ_B_NP_FULL:
        return alloc(cg, in, shape_of(cg, in->args[0], at->ndim), argv(cg, in, 1), argt(cg, in, 1));
    case KJ_B_NP_ZEROS_LIKE:
    case KJ_B_NP_EMPTY_LIKE:
    case KJ_B_CUDA_DEVICE_ARRAY_LIKE: return alloc(cg, in, shape_of_array(cg, argv(cg, in, 0)), NULL, NULL);
    case KJ_B_NP_ONES_LIKE: return alloc(cg, in, shape_of_array(cg, argv(cg, in, 0)), one, &T_I64);
    case KJ_B_NP_FULL_LIKE:
        return alloc(cg, in, shape_of_array(cg, argv(cg, in, 0)), argv(cg, in, 1), argt(cg, in, 1));
    default: /* zeros, empty, cuda.device_array */
        return alloc(cg, in, shape_of(cg, in->args[0], at->ndim), NULL, NULL);
    }
}

/* np.arange(start, stop=, step=, dtype=): arange(n) counts from 0. */
static LLVMValueRef b_arange(kj_cg *cg, const kir_inst *in)
{
    kir_ref r0 = argref(cg, in, 0), r1 = argref(cg, in, 1), r2 = argref(cg, in, 2);
    bool fl = type_of(cg, r0)->kind == KJ_T_FLOAT;
    LLVMValueRef start, stop, step;
    if (fl) {
        start = r1 ? to_f64(cg, r0) : LLVMConstReal(cg->t_f64, 0);
        stop = r1 ? to_f64(cg, r1) : to_f64(cg, r0);
        step = r2 ? to_f64(cg, r2) : LLVMConstReal(cg->t_f64, 1);
    } else {
        start = r1 ? to_i64(cg, r0) : kj_cg_i64(cg, 0);
        stop = r1 ? to_i64(cg, r1) : to_i64(cg, r0);
        step = r2 ? to_i64(cg, r2) : kj_cg_i64(cg, 1);
    }
    LLVMValueRef out = kj_cg_out_desc(cg, 1);
    LLVMValueRef a[8] = {rt_arg(cg), start, stop, step, kj_cg_i32(cg, kj_cg_dtype(in->type->elem)), out,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, fl ? KJ_RTF_ARANGE_F : KJ_RTF_ARANGE_I, a, 8);
    return load_desc(cg, out, 1);
}

/* np.linspace(start, stop, num=50, endpoint=True, dtype=) */
static LLVMValueRef b_linspace(kj_cg *cg, const kir_inst *in)
{
    kir_ref num = argref(cg, in, 2), ep = argref(cg, in, 3);
    LLVMValueRef endpoint = ep ? LLVMBuildZExt(cg->b, kj_cg_val(cg, ep), cg->t_i32, "") : kj_cg_i32(cg, 1);
    LLVMValueRef out = kj_cg_out_desc(cg, 1);
    LLVMValueRef a[9] = {rt_arg(cg), to_f64(cg, in->args[0]), to_f64(cg, in->args[1]),
                         num ? to_i64(cg, num) : kj_cg_i64(cg, 50), endpoint,
                         kj_cg_i32(cg, kj_cg_dtype(in->type->elem)), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_LINSPACE, a, 9);
    return load_desc(cg, out, 1);
}

/* ---- np.random ---- */

/* rand(d0, ...) / random(size): one float64, or an array of them. */
static LLVMValueRef random_values(kj_cg *cg, const kir_inst *in, LLVMValueRef shape)
{
    if (in->type->kind != KJ_T_ARRAY) return kj_cg_rtcall(cg, KJ_RTF_RANDOM, &cg->fn->rt, 1);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[6] = {rt_arg(cg), kj_cg_i32(cg, nd), shape, out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_RAND, a, 6);
    return load_desc(cg, out, nd);
}

/* randint(low, high=, size=, dtype=): randint(n) draws from [0, n). */
static LLVMValueRef b_randint(kj_cg *cg, const kir_inst *in)
{
    kir_ref hi = argref(cg, in, 1), size = argref(cg, in, 2);
    LLVMValueRef low = hi ? to_i64(cg, in->args[0]) : kj_cg_i64(cg, 0);
    LLVMValueRef high = hi ? to_i64(cg, hi) : to_i64(cg, in->args[0]);
    const kj_type *e = in->type->kind == KJ_T_ARRAY ? in->type->elem : in->type;
    LLVMValueRef dt = kj_cg_i32(cg, kj_cg_dtype(e));
    if (!size) {
        LLVMValueRef a[6] = {rt_arg(cg), low, high, dt, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_cast(cg, kj_cg_rtcall(cg, KJ_RTF_RANDINT, a, 6), &T_I64, e);
    }
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[9] = {rt_arg(cg), low, high, dt, kj_cg_i32(cg, nd), shape_of(cg, size, nd), out,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_RANDINT_ARRAY, a, 9);
    return load_desc(cg, out, nd);
}

/* np.random's legacy distributions (builtins_random.h): the parameters as
 * float64 (defaults where not given), then one value or an array of size=.
 * randn(d0, ...) is standard_normal(size=(d0, ...)). */
static LLVMValueRef b_rdist(kj_cg *cg, const kir_inst *in, const kj_rdist_spec *sp, LLVMValueRef shape)
{
    LLVMValueRef a[10] = {rt_arg(cg), kj_cg_i32(cg, sp->dist)};
    for (int i = 0; i < 3; i++) {
        kir_ref r = i < sp->nparams ? argref(cg, in, (uint32_t)i) : 0;
        a[2 + i] = r ? to_f64(cg, r) : LLVMConstReal(cg->t_f64, sp->defaults[i]);
    }
    if (!shape && in->type->kind != KJ_T_ARRAY) {
        a[5] = kj_cg_line(cg, in);
        a[6] = kj_cg_col(cg, in);
        if (!sp->int_result) return kj_cg_rtcall(cg, KJ_RTF_RDIST, a, 7);
        return kj_cg_cast(cg, kj_cg_rtcall(cg, KJ_RTF_RDIST_I, a, 7), &T_I64, in->type);
    }
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    a[5] = kj_cg_i32(cg, nd);
    a[6] = shape ? shape : shape_of(cg, argref(cg, in, (uint32_t)sp->nparams), nd);
    a[7] = out;
    a[8] = kj_cg_line(cg, in);
    a[9] = kj_cg_col(cg, in);
    kj_cg_rtcall(cg, KJ_RTF_RDIST_ARRAY, a, 10);
    return load_desc(cg, out, nd);
}

/* shuffle(x) in place; permutation(n) or permutation(x). */
static LLVMValueRef b_shuffle(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef x[3];
    kj_cg_operand(cg, in->args[0], x);
    if (in->aux == KJ_B_NP_RANDOM_SHUFFLE) {
        LLVMValueRef a[6] = {rt_arg(cg), x[0], x[1], x[2], kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_SHUFFLE, a, 6);
        return kj_cg_zero(cg, in->type);
    }
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    if (argt(cg, in, 0)->kind != KJ_T_ARRAY) {
        LLVMValueRef a[5] = {rt_arg(cg), to_i64(cg, in->args[0]), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_PERMUTATION_N, a, 5);
    } else {
        LLVMValueRef a[7] = {rt_arg(cg), x[0], x[1], x[2], out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_PERMUTATION, a, 7);
    }
    return load_desc(cg, out, nd);
}

/* The run-time call of np.random's choice/multinomial/dirichlet (a legacy
 * argument list `a`) or of the Generator's method (in->args[0] the
 * Generator, inserted after rt; `extra`, choice's shuffle=, before the
 * trailing `tail` arguments). */
static LLVMValueRef pick_call(kj_cg *cg, const kir_inst *in, kj_rtfn legacy, kj_rtfn gen, LLVMValueRef *a,
                              unsigned n, LLVMValueRef extra, unsigned tail)
{
    if (in->aux < KJ_B_GEN_CHOICE || in->aux > KJ_B_GEN_DIRICHLET) return kj_cg_rtcall(cg, legacy, a, n);
    LLVMValueRef g[16];
    unsigned k = 0;
    g[k++] = a[0];
    g[k++] = kj_cg_val(cg, in->args[0]);
    for (unsigned i = 1; i < n - tail; i++) g[k++] = a[i];
    if (extra) g[k++] = extra;
    for (unsigned i = n - tail; i < n; i++) g[k++] = a[i];
    return kj_cg_rtcall(cg, gen, g, k);
}

/* choice(a, size=None, replace=True, p=None): a an int (the population
 * range(a)) or a 1-D array; without size= one value, which choice1 hands
 * back as int64 bits. Generator.choice: the same after its receiver, and
 * shuffle= (argument 6). */
static LLVMValueRef b_choice(kj_cg *cg, const kir_inst *in)
{
    static const kj_type T_I32 = {.kind = KJ_T_INT, .bits = 32, .is_signed = true};
    uint32_t o = in->aux == KJ_B_GEN_CHOICE;
    LLVMValueRef x[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, 0), kj_cg_i32(cg, 0)}, pop = kj_cg_i64(cg, 0);
    if (argt(cg, in, o)->kind == KJ_T_ARRAY) kj_cg_operand(cg, in->args[o], x);
    else pop = to_i64(cg, in->args[o]);
    kir_ref size = argref(cg, in, o + 1), rep = argref(cg, in, o + 2), p = argref(cg, in, o + 3);
    kir_ref shuf = o ? argref(cg, in, 6) : 0;
    LLVMValueRef pv[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, 0), kj_cg_i32(cg, -1)};
    if (p) kj_cg_operand(cg, p, pv);
    LLVMValueRef replace = rep ? kj_cg_cast(cg, kj_cg_val(cg, rep), type_of(cg, rep), &T_I32) : kj_cg_i32(cg, 1);
    LLVMValueRef shuffle = shuf ? kj_cg_cast(cg, kj_cg_val(cg, shuf), type_of(cg, shuf), &T_I32) : kj_cg_i32(cg, 1);
    LLVMValueRef a[13] = {rt_arg(cg), x[0], x[1], pop, x[2], replace, pv[0], pv[2]};
    if (!size) {
        a[8] = kj_cg_line(cg, in);
        a[9] = kj_cg_col(cg, in);
        LLVMValueRef bits = pick_call(cg, in, KJ_RTF_CHOICE1, KJ_RTF_GEN_CHOICE1, a, 10, shuffle, 2);
        const kj_type *e = in->type;
        if (e->kind == KJ_T_FLOAT && e->bits == 64) return LLVMBuildBitCast(cg->b, bits, cg->t_f64, "choice");
        if (e->kind == KJ_T_FLOAT && e->bits == 32)
            return LLVMBuildBitCast(cg->b, LLVMBuildTrunc(cg->b, bits, cg->t_i32, ""), cg->t_f32, "choice");
        return kj_cg_cast(cg, bits, &T_I64, e);
    }
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    a[8] = kj_cg_i32(cg, nd);
    a[9] = shape_of(cg, size, nd);
    a[10] = out;
    a[11] = kj_cg_line(cg, in);
    a[12] = kj_cg_col(cg, in);
    pick_call(cg, in, KJ_RTF_CHOICE, KJ_RTF_GEN_CHOICE, a, 13, shuffle, 5);
    return load_desc(cg, out, nd);
}

/* multinomial(n, pvals, size=None), and the Generator's */
static LLVMValueRef b_multinomial(kj_cg *cg, const kir_inst *in)
{
    uint32_t o = in->aux == KJ_B_GEN_MULTINOMIAL;
    LLVMValueRef pv[3];
    kj_cg_operand(cg, in->args[o + 1], pv);
    kir_ref size = argref(cg, in, o + 2);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[9] = {rt_arg(cg), to_i64(cg, in->args[o]), pv[0], pv[2], kj_cg_i32(cg, nd),
                         size ? shape_of(cg, size, nd - 1) : LLVMConstNull(cg->t_ptr), out,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    pick_call(cg, in, KJ_RTF_MULTINOMIAL, KJ_RTF_GEN_MULTINOMIAL, a, 9, NULL, 0);
    return load_desc(cg, out, nd);
}

/* dirichlet(alpha, size=None), and the Generator's */
static LLVMValueRef b_dirichlet(kj_cg *cg, const kir_inst *in)
{
    uint32_t o = in->aux == KJ_B_GEN_DIRICHLET;
    LLVMValueRef av[3];
    kj_cg_operand(cg, in->args[o], av);
    kir_ref size = argref(cg, in, o + 1);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[8] = {rt_arg(cg), av[0], av[2], kj_cg_i32(cg, nd),
                         size ? shape_of(cg, size, nd - 1) : LLVMConstNull(cg->t_ptr), out,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    pick_call(cg, in, KJ_RTF_DIRICHLET, KJ_RTF_GEN_DIRICHLET, a, 8, NULL, 0);
    return load_desc(cg, out, nd);
}

/* Generator.shuffle(x) / permutation(n or x) */
static LLVMValueRef gen_shuffle(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef x[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, 0), kj_cg_i32(cg, 0)}, n = kj_cg_i64(cg, 0);
    if (argt(cg, in, 1)->kind == KJ_T_ARRAY) kj_cg_operand(cg, in->args[1], x);
    else n = to_i64(cg, in->args[1]);
    if (in->aux == KJ_B_GEN_SHUFFLE) {
        LLVMValueRef a[7] = {rt_arg(cg), argv(cg, in, 0), x[0], x[1], x[2], kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_GEN_SHUFFLE, a, 7);
        return kj_cg_zero(cg, in->type);
    }
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[9] = {rt_arg(cg), argv(cg, in, 0), n, x[0], x[1], x[2], out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_GEN_PERMUTATION, a, 9);
    return load_desc(cg, out, nd);
}

/* Generator.permuted(x, axis=, out=): a new array, or out itself. */
static LLVMValueRef gen_permuted(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef x[3], o[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, 0), kj_cg_i32(cg, 0)};
    kj_cg_operand(cg, in->args[1], x);
    kir_ref axis = argref(cg, in, 2), out = argref(cg, in, 3);
    if (out) kj_cg_operand(cg, out, o);
    int nd = in->type->ndim;
    LLVMValueRef res = out ? LLVMConstNull(cg->t_ptr) : kj_cg_out_desc(cg, nd);
    LLVMValueRef a[12] = {rt_arg(cg), argv(cg, in, 0), x[0], x[1], x[2], axis ? to_i64(cg, axis) : kj_cg_i64(cg, 0),
                          kj_cg_i32(cg, axis != 0), o[0], o[2], res, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_GEN_PERMUTED, a, 12);
    return out ? kj_cg_val(cg, out) : load_desc(cg, res, nd);
}

/* np.random.default_rng(seed), and its Generator's random(size=),
 * uniform(low=0, high=1, size=), integers(low, high=, size=): one value
 * through a temporary, or an array. */
static LLVMValueRef b_generator(kj_cg *cg, const kir_inst *in)
{
    if (in->aux == KJ_B_NP_RANDOM_DEFAULT_RNG) {
        LLVMValueRef a[4] = {rt_arg(cg), to_i64(cg, in->args[0]), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_DEFAULT_RNG, a, 4);
    }
    if (in->aux == KJ_B_GEN_SHUFFLE || in->aux == KJ_B_GEN_PERMUTATION) return gen_shuffle(cg, in);
    if (in->aux == KJ_B_GEN_PERMUTED) return gen_permuted(cg, in);
    bool ints = in->aux == KJ_B_GEN_INTEGERS, arr = in->type->kind == KJ_T_ARRAY;
    kir_ref size = argref(cg, in, in->aux == KJ_B_GEN_RANDOM ? 1 : 3);
    int nd = arr ? in->type->ndim : 0;
    LLVMValueRef out = arr ? kj_cg_out_desc(cg, nd) : kj_cg_alloca(cg, ints ? cg->t_i64 : cg->t_f64, "draw");
    LLVMValueRef shape = size ? shape_of(cg, size, nd) : LLVMConstNull(cg->t_ptr);
    LLVMValueRef a[10] = {rt_arg(cg), argv(cg, in, 0)};
    int n = 0;
    if (ints) {
        kir_ref hi = argref(cg, in, 2);
        a[2] = hi ? to_i64(cg, in->args[1]) : kj_cg_i64(cg, 0);
        a[3] = hi ? to_i64(cg, hi) : to_i64(cg, in->args[1]);
        n = 4;
    } else {
        kir_ref lo = in->aux == KJ_B_GEN_UNIFORM ? argref(cg, in, 1) : 0;
        kir_ref hi = in->aux == KJ_B_GEN_UNIFORM ? argref(cg, in, 2) : 0;
        a[2] = lo ? to_f64(cg, lo) : LLVMConstReal(cg->t_f64, 0.0);
        a[3] = hi ? to_f64(cg, hi) : LLVMConstReal(cg->t_f64, 1.0);
        a[4] = kj_cg_i32(cg, in->aux == KJ_B_GEN_RANDOM);
        n = 5;
    }
    a[n++] = kj_cg_i32(cg, nd);
    a[n++] = shape;
    a[n++] = out;
    a[n++] = kj_cg_line(cg, in);
    a[n++] = kj_cg_col(cg, in);
    kj_cg_rtcall(cg, ints ? KJ_RTF_GEN_INTEGERS : KJ_RTF_GEN_UNIFORM, a, (unsigned)n);
    if (arr) return load_desc(cg, out, nd);
    return LLVMBuildLoad2(cg->b, ints ? cg->t_i64 : cg->t_f64, out, "draw");
}

static LLVMValueRef b_seed(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[4] = {rt_arg(cg), to_i64(cg, in->args[0]), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_SEED, a, 4);
    return kj_cg_zero(cg, in->type);
}

/* ---- reductions, copies, reshape, files ---- */

static int reduce_op(int builtin)
{
    switch (builtin) {
    case KJ_B_NP_SUM: case KJ_B_ARR_SUM: return KJ_RED_SUM;
    case KJ_B_NP_MIN: case KJ_B_ARR_MIN: return KJ_RED_MIN;
    case KJ_B_NP_MAX: case KJ_B_ARR_MAX: return KJ_RED_MAX;
    case KJ_B_NP_MEAN: case KJ_B_ARR_MEAN: return KJ_RED_MEAN;
    case KJ_B_NP_PROD: case KJ_B_ARR_PROD: return KJ_RED_PROD;
    case KJ_B_NP_VAR: case KJ_B_ARR_VAR: return KJ_RED_VAR;
    case KJ_B_NP_ARGMIN: case KJ_B_ARR_ARGMIN: return KJ_RED_ARGMIN;
    case KJ_B_NP_ARGMAX: case KJ_B_ARR_ARGMAX: return KJ_RED_ARGMAX;
    default: return KJ_RED_STD;
    }
}

/* np.sum(a) etc. (argument 0; axis= is argument 1, var/std's ddof= 2): the
 * whole-array sum/min/max/mean/std through kj_rt_reduce, everything else
 * (an axis, a ddof, prod/var/argmin/argmax) through kj_rt_reduce_axis,
 * whose result is an array when the axis leaves dimensions. */
static LLVMValueRef b_reduce(kj_cg *cg, const kir_inst *in)
{
    int op = reduce_op(in->aux);
    kir_ref axis = argref(cg, in, 1), ddof = op == KJ_RED_STD || op == KJ_RED_VAR ? argref(cg, in, 2) : 0;
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    bool arr = in->type->kind == KJ_T_ARRAY;
    int nd = arr ? in->type->ndim : 0;
    LLVMTypeRef mt = arr ? NULL : kj_cg_memtype(cg, in->type);
    LLVMValueRef res = arr ? kj_cg_out_desc(cg, nd) : kj_cg_alloca(cg, mt, "red");
    LLVMValueRef rdt = kj_cg_i32(cg, kj_cg_dtype(arr ? in->type->elem : in->type));
    if (!axis && !ddof && op <= KJ_RED_STD) {
        LLVMValueRef a[9] = {rt_arg(cg), kj_cg_i32(cg, op), o[0], o[1], o[2], rdt, res, kj_cg_line(cg, in),
                             kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_REDUCE, a, 9);
    } else {
        LLVMValueRef a[13] = {rt_arg(cg), kj_cg_i32(cg, op), o[0], o[1], o[2], rdt, kj_cg_i32(cg, axis != 0),
                              axis ? to_i64(cg, axis) : kj_cg_i64(cg, 0), ddof ? to_i64(cg, ddof) : kj_cg_i64(cg, 0),
                              res, kj_cg_i32(cg, nd), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_REDUCE_AXIS, a, 13);
    }
    if (arr) return load_desc(cg, res, nd);
    return kj_cg_from_mem(cg, in->type, LLVMBuildLoad2(cg->b, mt, res, ""));
}

/* a.copy(), a.astype(t), float32(a), cuda.to_device(a), d.copy_to_host():
 * a C-ordered copy of argument 0 with the result's element type. */
LLVMValueRef kj_cg_array_copy_as(kj_cg *cg, kir_ref src, const kj_type *elem, int ndim, const kir_inst *in)
{
    LLVMValueRef o[3];
    kj_cg_operand(cg, src, o);
    bool rec = kj_record_of(elem) != NULL; /* records: their bytes copied (llvm_record.c) */
    LLVMValueRef out = kj_cg_out_desc(cg, ndim + rec);
    LLVMValueRef a[8] = {rt_arg(cg), o[0], o[1], o[2], kj_cg_i32(cg, rec ? KJ_DT_UINT8 : kj_cg_dtype(elem)), out,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_COPY, a, 8);
    return rec ? kj_cg_record_alloc(cg, ndim, load_desc(cg, out, ndim + 1)) : load_desc(cg, out, ndim);
}

/* np.cumsum(a), np.cumprod(a), a.cumsum(), a.cumprod(); with axis= an
 * array of a's shape (kj_rt_cumulate_axis) */
static LLVMValueRef b_cumulate(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    kir_ref axis = argref(cg, in, 1);
    int nd = axis ? in->type->ndim : 1;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    bool prod = in->aux == KJ_B_NP_CUMPROD || in->aux == KJ_B_ARR_CUMPROD;
    if (axis) {
        LLVMValueRef a[9] = {rt_arg(cg), o[0], o[1], o[2], kj_cg_i32(cg, prod), to_i64(cg, axis), out,
                             kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_CUMULATE_AXIS, a, 9);
    } else {
        LLVMValueRef a[8] = {rt_arg(cg), o[0], o[1], o[2], kj_cg_i32(cg, prod), out, kj_cg_line(cg, in),
                             kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_CUMULATE, a, 8);
    }
    return load_desc(cg, out, nd);
}

static LLVMValueRef b_copy(kj_cg *cg, const kir_inst *in)
{
    return kj_cg_array_copy_as(cg, in->args[0], in->type->elem, in->type->ndim, in);
}

/* cuda.to_device(a) (to_device 1) / d.copy_to_host() (0) with kernels on
 * the GPU: the runtime's copy, made where it is for (rt_cuda.c). */
static LLVMValueRef device_copy(kj_cg *cg, const kir_inst *in, int to_device)
{
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    int nd = in->type->ndim;
    bool rec = kj_record_of(in->type->elem) != NULL; /* records: their bytes copied (llvm_record.c) */
    LLVMValueRef out = kj_cg_out_desc(cg, nd + rec);
    LLVMValueRef a[9] = {rt_arg(cg), o[0], o[1], o[2], kj_cg_i32(cg, rec ? KJ_DT_UINT8 : kj_cg_dtype(in->type->elem)),
                         out, kj_cg_i32(cg, to_device), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_DEVICE_COPY, a, 9);
    return rec ? kj_cg_record_alloc(cg, nd, load_desc(cg, out, nd + 1)) : load_desc(cg, out, nd);
}

/* a.reshape(n, m) / a.reshape((n, m)) */
static LLVMValueRef b_reshape(kj_cg *cg, const kir_inst *in)
{
    int nd = in->type->ndim;
    LLVMValueRef shape = in->nargs == 2 ? shape_of(cg, in->args[1], nd) : shape_list(cg, in, 1, nd);
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[9] = {rt_arg(cg), o[0], o[1], o[2], kj_cg_i32(cg, nd), shape, out, kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_RESHAPE, a, 9);
    return load_desc(cg, out, nd);
}

/* a.ravel(), np.ravel(a) */
static LLVMValueRef b_ravel(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    LLVMValueRef out = kj_cg_out_desc(cg, 1);
    LLVMValueRef a[7] = {rt_arg(cg), o[0], o[1], o[2], out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_RAVEL, a, 7);
    return load_desc(cg, out, 1);
}

/* a.fill(v): a loop in generated code. */
static LLVMValueRef b_fill(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = argt(cg, in, 0);
    LLVMValueRef v = kj_cg_cast(cg, argv(cg, in, 1), argt(cg, in, 1), at->elem);
    kj_cg_array_fill(cg, at, argv(cg, in, 0), v);
    return kj_cg_zero(cg, in->type);
}

/* np.allclose(a, b, rtol=1e-05, atol=1e-08) */
static LLVMValueRef b_allclose(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef x[3], y[3];
    kj_cg_operand(cg, in->args[0], x);
    kj_cg_operand(cg, in->args[1], y);
    kir_ref rtol = argref(cg, in, 2), atol = argref(cg, in, 3);
    LLVMValueRef a[11] = {rt_arg(cg), x[0], x[1], x[2], y[0], y[1], y[2],
                          rtol ? to_f64(cg, rtol) : LLVMConstReal(cg->t_f64, 1e-05),
                          atol ? to_f64(cg, atol) : LLVMConstReal(cg->t_f64, 1e-08), kj_cg_line(cg, in),
                          kj_cg_col(cg, in)};
    LLVMValueRef r = kj_cg_rtcall(cg, KJ_RTF_ALLCLOSE, a, 11);
    return LLVMBuildICmp(cg->b, LLVMIntNE, r, kj_cg_i32(cg, 0), "allclose");
}

/* np.array_equal(a1, a2) */
static LLVMValueRef b_array_equal(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef x[3], y[3];
    kj_cg_operand(cg, in->args[0], x);
    kj_cg_operand(cg, in->args[1], y);
    LLVMValueRef a[7] = {rt_arg(cg), x[0], x[1], x[2], y[0], y[1], y[2]};
    LLVMValueRef r = kj_cg_rtcall(cg, KJ_RTF_ARRAY_EQUAL, a, 7);
    return LLVMBuildICmp(cg->b, LLVMIntNE, r, kj_cg_i32(cg, 0), "array_equal");
}

/* np.load(path): the compiler typed it from the file's header. */
static LLVMValueRef b_load(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = in->type;
    int layout = at->layout == KJ_LAYOUT_C ? 1 : at->layout == KJ_LAYOUT_F ? 2 : 0;
    LLVMValueRef out = kj_cg_out_desc(cg, at->ndim);
    LLVMValueRef a[8] = {rt_arg(cg), argv(cg, in, 0), kj_cg_i32(cg, kj_cg_dtype(at->elem)), kj_cg_i32(cg, at->ndim),
                         kj_cg_i32(cg, layout), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_LOAD, a, 8);
    return load_desc(cg, out, at->ndim);
}

static LLVMValueRef b_save(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[1], o);
    LLVMValueRef a[7] = {rt_arg(cg), argv(cg, in, 0), o[0], o[1], o[2], kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_SAVE, a, 7);
    return kj_cg_zero(cg, in->type);
}

/* ---- cuda on the host, time ---- */

static LLVMValueRef b_cuda(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_CUDA_STREAM: return cg->run->stream_new(cg);
    case KJ_B_STREAM_SYNCHRONIZE:
        cg->run->stream_sync(cg, in);
        return kj_cg_zero(cg, in->type);
    case KJ_B_CUDA_EVENT: return kj_cg_rtcall(cg, KJ_RTF_EVENT_NEW, &cg->fn->rt, 1);
    case KJ_B_EVENT_RECORD: {
        /* stream=s: a cuda.stream() handle; absent, 0 or None: the default stream */
        kir_ref s = argref(cg, in, 1);
        bool handle = s && type_of(cg, s)->kind == KJ_T_OPAQUE;
        LLVMValueRef a[3] = {rt_arg(cg), argv(cg, in, 0), handle ? kj_cg_val(cg, s) : LLVMConstNull(cg->t_ptr)};
        kj_cg_rtcall(cg, KJ_RTF_EVENT_RECORD, a, 3);
        return kj_cg_zero(cg, in->type);
    }
    case KJ_B_CUDA_EVENT_ELAPSED_TIME: case KJ_B_EVENT_ELAPSED_TIME: {
        LLVMValueRef a[5] = {rt_arg(cg), argv(cg, in, 0), argv(cg, in, 1), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_EVENT_ELAPSED, a, 5);
    }
    default: /* cuda.synchronize(), e.synchronize() */
        cg->run->synchronize(cg, in);
        return kj_cg_zero(cg, in->type);
    }
}

/* The host table's cuda rows (kj_cg_run). On the host (cpu, parallel) a
 * stream is the default one (NULL), code is synchronous, a device array is
 * a host array and a copy between them an ordinary copy. */

static LLVMValueRef host_stream_new(kj_cg *cg) { return LLVMConstNull(cg->t_ptr); }
static void host_no_sync(kj_cg *cg, const kir_inst *in) { (void)cg, (void)in; }
static LLVMValueRef host_device_array(kj_cg *cg, const kir_inst *in, LLVMValueRef arr)
{
    (void)cg, (void)in;
    return arr;
}

/* d.copy_to_host(ary=None, stream=0): a new host array, or d copied into
 * ary, which is returned (Numba's semantics). */
static LLVMValueRef host_copy_to_host(kj_cg *cg, const kir_inst *in)
{
    if (!argref(cg, in, 1)) return b_copy(cg, in);
    LLVMValueRef dst = argv(cg, in, 1);
    LLVMValueRef d = kj_cg_spill(cg, dst), s = kj_cg_spill(cg, argv(cg, in, 0));
    const kj_type *dt = argt(cg, in, 0), *at = argt(cg, in, 1);
    int64_t isz = kj_record_of(dt->elem) ? kj_record_of(dt->elem)->size /* llvm_record.c */
                                         : (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, dt->elem));
    LLVMValueRef a[8] = {rt_arg(cg), d, kj_cg_i32(cg, at->ndim), s, kj_cg_i32(cg, dt->ndim), kj_cg_i64(cg, isz),
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_ASSIGN, a, 8);
    return dst;
}

/* cuda.to_device(f) of a Fortran-ordered array keeps its order (Numba copies
 * the buffer as it is): the C-ordered copy of f's transpose, transposed back. */
static LLVMValueRef to_device_f(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = in->type;
    int nd = t->ndim;
    LLVMValueRef src = kj_cg_spill(cg, kj_cg_array_transpose(cg, t, argv(cg, in, 0)));
    LLVMValueRef out = kj_cg_out_desc(cg, nd), dt = kj_cg_i32(cg, kj_cg_dtype(t->elem));
    if (cg->run->to_device == b_copy) {
        LLVMValueRef a[8] = {rt_arg(cg), src, kj_cg_i32(cg, nd), dt, dt, out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_COPY, a, 8);
    } else {
        LLVMValueRef a[9] = {rt_arg(cg), src, kj_cg_i32(cg, nd), dt, dt, out, kj_cg_i32(cg, 1), kj_cg_line(cg, in),
                             kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_DEVICE_COPY, a, 9);
    }
    return kj_cg_array_transpose(cg, t, load_desc(cg, out, nd));
}

/* a.view(dtype), d.view(dtype): a's memory read as another dtype; of another
 * size, the last axis (which must be contiguous) is rescaled, as NumPy's. */
static LLVMValueRef b_view(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = argt(cg, in, 0), *t = in->type;
    LLVMValueRef a = argv(cg, in, 0);
    int64_t from = (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, at->elem));
    int64_t to = (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, t->elem));
    if (from == to) return a;
    unsigned k = at->ndim - 1;
    kj_cg_raise_if(cg, LLVMBuildNot(cg->b, kj_cg_array_contiguous(cg, at, a, false), ""), KJ_RT_VALUE,
                   "To change to a dtype of a different size, the array must be C-contiguous", in->span);
    LLVMValueRef n = LLVMBuildMul(cg->b, kj_cg_array_dim(cg, a, k), kj_cg_i64(cg, from), "bytes");
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildSRem(cg->b, n, kj_cg_i64(cg, to), ""),
                                     kj_cg_i64(cg, 0), ""),
                   KJ_RT_VALUE,
                   "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the "
                   "last axis of the array.",
                   in->span);
    LLVMValueRef shape = LLVMBuildInsertValue(cg->b, LLVMBuildExtractValue(cg->b, a, 1, ""),
                                              LLVMBuildSDiv(cg->b, n, kj_cg_i64(cg, to), ""), k, "");
    LLVMValueRef strides = LLVMBuildInsertValue(cg->b, LLVMBuildExtractValue(cg->b, a, 2, ""), kj_cg_i64(cg, to), k, "");
    return LLVMBuildInsertValue(cg->b, LLVMBuildInsertValue(cg->b, a, shape, 1, ""), strides, 2, "view");
}

/* d.copy_to_device(ary, stream=0): ary's data into d (as numba-cuda's, which
 * checks that the sizes agree); the copy_to_host machinery with the operands
 * swapped: an assignment on the host targets, the runtime's coherent copy on cuda. */
static LLVMValueRef b_copy_to_device(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef d = kj_cg_spill(cg, argv(cg, in, 0)), s = kj_cg_spill(cg, argv(cg, in, 1));
    const kj_type *dt = argt(cg, in, 0), *st = argt(cg, in, 1);
    bool gpu = cg->run->copy_to_host != host_copy_to_host;
    LLVMValueRef last = gpu ? kj_cg_i32(cg, kj_cg_dtype(dt->elem))
                            : kj_cg_i64(cg, (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, dt->elem)));
    LLVMValueRef a[8] = {rt_arg(cg), d, kj_cg_i32(cg, dt->ndim), s, kj_cg_i32(cg, st->ndim), last,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, gpu ? KJ_RTF_COPY_INTO : KJ_RTF_ASSIGN, a, 8);
    return kj_cg_zero(cg, in->type);
}

/* With kernels on the GPU the runtime makes streams, waits for the GPU,
 * and copies straight from where an array is current (rt_cuda.c). */

static LLVMValueRef gpu_stream_new(kj_cg *cg) { return kj_cg_rtcall(cg, KJ_RTF_STREAM_NEW, &cg->fn->rt, 1); }

static void gpu_stream_sync(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[4] = {rt_arg(cg), argv(cg, in, 0), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_STREAM_SYNC, a, 4);
}

static void gpu_synchronize(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[3] = {rt_arg(cg), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_CUDA_SYNC, a, 3);
}

static LLVMValueRef gpu_to_device(kj_cg *cg, const kir_inst *in) { return device_copy(cg, in, 1); }

static LLVMValueRef gpu_copy_to_host(kj_cg *cg, const kir_inst *in)
{
    if (!argref(cg, in, 1)) return device_copy(cg, in, 0);
    LLVMValueRef dst = argv(cg, in, 1);
    LLVMValueRef d = kj_cg_spill(cg, dst), s = kj_cg_spill(cg, argv(cg, in, 0));
    const kj_type *dt = argt(cg, in, 0), *at = argt(cg, in, 1);
    LLVMValueRef a[8] = {rt_arg(cg), d, kj_cg_i32(cg, at->ndim), s, kj_cg_i32(cg, dt->ndim),
                         kj_cg_i32(cg, kj_cg_dtype(dt->elem)), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_COPY_INTO, a, 8);
    return dst;
}

/* cuda.device_array(_like): the host array's device copy made at once,
 * zeroed as the host copy is. */
static LLVMValueRef gpu_device_array(kj_cg *cg, const kir_inst *in, LLVMValueRef arr)
{
    LLVMValueRef a[5] = {rt_arg(cg), LLVMBuildExtractValue(cg->b, arr, 3, "owner"), kj_cg_i32(cg, KJ_ABI_FILL_ZERO),
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_TO_DEVICE, a, 5);
    return arr;
}

/* kjit.on_device(a) (kir_reduce_np.c): a's data on the GPU only */
static LLVMValueRef b_on_device(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[2] = {rt_arg(cg), LLVMBuildExtractValue(cg->b, argv(cg, in, 0), 3, "owner")};
    LLVMValueRef r = kj_cg_rtcall(cg, KJ_RTF_ON_DEVICE, a, 2);
    return LLVMBuildICmp(cg->b, LLVMIntNE, r, kj_cg_i32(cg, 0), "on_device");
}

/* ---- the host tables (codegen.h, kj_cg_run) ---- */

/* cpu: the loops of functions marked parallel (target='parallel',
 * parallel=True) on the pool; parallel: those of every host function;
 * cuda: none (the GPU is the parallel machine there). */
static bool marked_parallel(const kir_func *f) { return f->target == KJ_RUN_PARALLEL; }
static bool all_parallel(const kir_func *f) { (void)f; return true; }
static bool none_parallel(const kir_func *f) { (void)f; return false; }

const kj_cg_run kj_run_cpu = {
    .name = "cpu",
    .host_kernels = true,
    .parallel_loops = marked_parallel,
    .stream_new = host_stream_new,
    .stream_sync = host_no_sync,
    .synchronize = host_no_sync,
    .to_device = b_copy,
    .copy_to_host = host_copy_to_host,
    .device_array = host_device_array,
};

const kj_cg_run kj_run_parallel = {
    .name = "parallel",
    .host_kernels = true,
    .parallel_blocks = true,
    .parallel_loops = all_parallel,
    .stream_new = host_stream_new,
    .stream_sync = host_no_sync,
    .synchronize = host_no_sync,
    .to_device = b_copy,
    .copy_to_host = host_copy_to_host,
    .device_array = host_device_array,
};

const kj_cg_run kj_run_cuda = {
    .name = "cuda",
    .parallel_loops = none_parallel,
    .host_access = kj_cg_host_access,
    .hoist_access = kj_cg_hoist_access,
    .graph_loop = kj_cg_graph_begin,
    .stream_new = gpu_stream_new,
    .stream_sync = gpu_stream_sync,
    .synchronize = gpu_synchronize,
    .to_device = gpu_to_device,
    .copy_to_host = gpu_copy_to_host,
    .device_array = gpu_device_array,
};

const kj_cg_run *kj_cg_run_of(kj_run_target t)
{
    return t == KJ_RUN_CUDA ? &kj_run_cuda : t == KJ_RUN_PARALLEL ? &kj_run_parallel : &kj_run_cpu;
}

bool kj_codegen_parallel_blocks(kj_run_target t) { return kj_cg_run_of(t)->parallel_blocks; }

/* ---- print ---- */

static void put_str(kj_cg *cg, LLVMValueRef s)
{
    LLVMValueRef a[2] = {cg->fn->rt, s};
    kj_cg_rtcall(cg, KJ_RTF_PRINT_STR, a, 2);
}

static void put_cstr(kj_cg *cg, const char *s) { put_str(cg, kj_cg_cstr(cg, s)); }

static void put_call(kj_cg *cg, kj_rtfn id, LLVMValueRef v)
{
    LLVMValueRef a[2] = {cg->fn->rt, v};
    kj_cg_rtcall(cg, id, a, 2);
}

static void print_value(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef v, bool repr);

/* (a, b) and (a,): Python's tuple repr, elements by repr; a namedtuple's
 * repr, Point(x=1, y=2). */
static void print_tuple(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef v)
{
    const kj_ntclass *cls = kj_nt_class(t);
    if (cls && cls->strkey_dict) { /* Numba's literal-key dict, printed as CPython prints the dict */
        put_cstr(cg, "{");
        for (uint32_t k = 0; k < t->n; k++) {
            put_cstr(cg, kj_arena_printf(cg->a, "%s'%s': ", k ? ", " : "", cls->fields[k]));
            print_value(cg, in, t->elems[k], LLVMBuildExtractValue(cg->b, v, k, ""), true);
        }
        put_cstr(cg, "}");
        return;
    }
    if (cls) put_cstr(cg, cls->name);
    put_cstr(cg, "(");
    for (uint32_t k = 0; k < t->n; k++) {
        if (k) put_cstr(cg, ", ");
        if (cls) {
            put_cstr(cg, cls->fields[k]);
            put_cstr(cg, "=");
        }
        print_value(cg, in, t->elems[k], LLVMBuildExtractValue(cg->b, v, k, ""), true);
    }
    put_cstr(cg, t->n == 1 && !cls ? ",)" : ")");
}

/* One value as print shows it (str), or as repr inside a tuple. */
static void print_value(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef v, bool repr)
{
    switch (t->kind) {
    case KJ_T_STR: put_call(cg, repr ? KJ_RTF_PRINT_REPR_STR : KJ_RTF_PRINT_STR, v); break;
    case KJ_T_BOOL: put_call(cg, KJ_RTF_PRINT_BOOL, LLVMBuildZExt(cg->b, v, cg->t_i32, "")); break;
    case KJ_T_INT: {
        bool u64 = !t->is_signed && t->bits == 64;
        put_call(cg, u64 ? KJ_RTF_PRINT_UINT : KJ_RTF_PRINT_INT, kj_cg_cast(cg, v, t, &T_I64));
        break;
    }
    case KJ_T_FLOAT:
        if (t->bits == 16) put_call(cg, KJ_RTF_PRINT_F16, LLVMBuildFPExt(cg->b, v, cg->t_f32, "")); /* exact */
        else put_call(cg, t->bits == 32 ? KJ_RTF_PRINT_F32 : KJ_RTF_PRINT_F64, v);
        break;
    case KJ_T_NONE: put_cstr(cg, "None"); break;
    case KJ_T_DATETIME: case KJ_T_TIMEDELTA: kj_cg_print_dt(cg, t, v, repr); break; /* llvm_datetime.c */
    case KJ_T_COMPLEX: {
        LLVMValueRef re = LLVMBuildExtractValue(cg->b, v, 0, ""), im = LLVMBuildExtractValue(cg->b, v, 1, "");
        if (t->bits == 64) {
            re = LLVMBuildFPExt(cg->b, re, cg->t_f64, "");
            im = LLVMBuildFPExt(cg->b, im, cg->t_f64, "");
        }
        LLVMValueRef a[4] = {cg->fn->rt, re, im, kj_cg_i32(cg, t->bits == 64)};
        kj_cg_rtcall(cg, KJ_RTF_PRINT_COMPLEX, a, 4);
        break;
    }
    case KJ_T_DTYPE: {
        if (kj_record_of(t->elem)) { /* a structured dtype: llvm_record.c */
            const char *d = kj_cg_record_descr(cg, t->elem);
            put_cstr(cg, repr ? kj_arena_printf(cg->a, "dtype(%s)", d) : d);
            break;
        }
        const char *name = kj_dtype_name((kj_dtype)kj_cg_dtype(t->elem));
        put_cstr(cg, repr ? kj_arena_printf(cg->a, "dtype('%s')", name) : name);
        break;
    }
    case KJ_T_TUPLE: print_tuple(cg, in, t, v); break;
    case KJ_T_OPTIONAL: kj_cg_print_optional(cg, in, t, v, repr, print_value, put_cstr); break; /* llvm_optional.c */
    case KJ_T_LIST: kj_cg_print_list(cg, in, t, v, print_value, put_cstr); break; /* llvm_list.c */
    case KJ_T_DICT: case KJ_T_SET: kj_cg_print_dict(cg, in, t, v, print_value, put_cstr); break; /* llvm_dict.c */
    case KJ_T_OPAQUE:
        if (kj_record_of(t)) { /* llvm_record.c */
            kj_cg_print_record(cg, t, v, repr);
            break;
        }
        if (!kj_t_is_excobj(t)) goto refused;
        put_call(cg, KJ_RTF_PRINT_STR, kj_cg_exc_str(cg, t, v, repr)); /* llvm_excobj.c */
        break;
    case KJ_T_ARRAY: {
        if (kj_buffer_kind(t)) { /* bytes, bytearray, memoryview: llvm_bytes.c */
            kj_cg_print_buffer(cg, t, v);
            break;
        }
        if (kj_record_of(t->elem)) { /* llvm_record.c */
            kj_cg_print_record(cg, t, v, repr);
            break;
        }
        if (kj_is_dt(t->elem)) { /* llvm_datetime.c */
            kj_cg_print_dt(cg, t, v, repr);
            break;
        }
        LLVMValueRef a[5] = {cg->fn->rt, kj_cg_spill(cg, v), kj_cg_i32(cg, t->ndim),
                             kj_cg_i32(cg, kj_cg_dtype(t->elem)), kj_cg_i32(cg, repr)};
        kj_cg_rtcall(cg, KJ_RTF_PRINT_ARRAY, a, 5);
        break;
    }
    default:
    refused:
        kj_cg_fail(cg, in->span, "printing a value of type %s is not supported by the host code generator yet",
                   kj_type_str(t));
    }
}

/* print(*args, sep=' ', end='\n') */
static LLVMValueRef b_print(kj_cg *cg, const kir_inst *in)
{
    if (cg->tgt->print) return cg->tgt->print(cg, in);
    uint32_t n = in->nargs >= 2 ? in->nargs - 2 : 0;
    kir_ref sep = argref(cg, in, n), end = argref(cg, in, n + 1);
    for (uint32_t k = 0; k < n; k++) {
        if (k) sep ? put_str(cg, kj_cg_val(cg, sep)) : put_cstr(cg, " ");
        print_value(cg, in, argt(cg, in, k), argv(cg, in, k), false);
    }
    end ? put_str(cg, kj_cg_val(cg, end)) : put_cstr(cg, "\n");
    return kj_cg_zero(cg, in->type);
}

/* a[...] with index arrays (INDEX_GET) and a[...] = v (INDEX_SET): the
 * arguments are the array (a view with the subscript's slices applied),
 * then per axis of it the index there or none (lower.c), then the value.
 * The runtime gets the per-axis indices as three arrays of length ndim. */
static void store_slot(kj_cg *cg, LLVMTypeRef elt, LLVMValueRef arr, unsigned n, unsigned k, LLVMValueRef v)
{
    LLVMValueRef idx[2] = {kj_cg_i64(cg, 0), kj_cg_i64(cg, k)};
    LLVMBuildStore(cg->b, v, LLVMBuildInBoundsGEP2(cg->b, LLVMArrayType2(elt, n), arr, idx, 2, ""));
}

static LLVMValueRef b_index(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[3], ix[3], v[3];
    kj_cg_operand(cg, in->args[0], a);
    unsigned nd = type_of(cg, in->args[0])->ndim;
    LLVMValueRef ptrs = kj_cg_alloca(cg, LLVMArrayType2(cg->t_ptr, nd), "ix.ptrs");
    LLVMValueRef ndims = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i32, nd), "ix.ndims");
    LLVMValueRef dtypes = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i32, nd), "ix.dtypes");
    for (unsigned d = 0; d < nd; d++) {
        kir_ref r = d + 1 < in->nargs ? in->args[d + 1] : 0;
        if (r) kj_cg_operand(cg, r, ix);
        else ix[0] = LLVMConstNull(cg->t_ptr), ix[1] = ix[2] = kj_cg_i32(cg, 0);
        store_slot(cg, cg->t_ptr, ptrs, nd, d, ix[0]);
        store_slot(cg, cg->t_i32, ndims, nd, d, ix[1]);
        store_slot(cg, cg->t_i32, dtypes, nd, d, ix[2]);
    }
    if (in->aux == KJ_B_INDEX_SET) {
        kj_cg_operand(cg, in->args[nd + 1], v);
        LLVMValueRef args[12] = {cg->fn->rt, a[0], a[1], a[2], ptrs, ndims, dtypes, v[0], v[1], v[2],
                                 kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_INDEX_SET, args, 12);
        return kj_cg_zero(cg, in->type);
    }
    int ond = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, ond);
    LLVMValueRef args[11] = {cg->fn->rt, a[0], a[1], a[2], ptrs, ndims, dtypes, out, kj_cg_i32(cg, ond),
                             kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_INDEX_GET, args, 11);
    return load_desc(cg, out, ond);
}

/* ---- dispatch ---- */

LLVMValueRef kj_cg_host_builtin(kj_cg *cg, const kir_inst *in)
{
    if (in->aux >= KJ_B_LIST_NEW && in->aux <= KJ_B_LIST_REPEAT) return kj_cg_list_builtin(cg, in); /* llvm_list.c */
    if (kj_builtin_pyrandom(in->aux)) return kj_cg_pyrandom(cg, in);
    if (kj_builtin_threads(in->aux)) return kj_cg_threads(cg, in);
    if (kj_builtin_heapq(in->aux)) return kj_cg_heapq(cg, in);
    const kj_rdist_spec *rd = kj_rdist_spec_of((kj_builtin)in->aux);
    if (rd) return b_rdist(cg, in, rd, NULL);
    const kj_rdist_spec *gd = kj_gdist_spec_of((kj_builtin)in->aux);
    if (gd) return kj_cg_gen_dist(cg, in, gd); /* llvm_generator.c */
    if (in->aux >= KJ_B_DICT_NEW && in->aux <= KJ_B_SET) return kj_cg_dict_builtin(cg, in); /* llvm_dict.c */
    if (in->aux >= KJ_B_STR && in->aux <= KJ_B_STR_FMT1) return kj_cg_str_builtin(cg, in); /* llvm_str.c */
    if (kj_builtin_bytes(in->aux)) return kj_cg_bytes_builtin(cg, in); /* llvm_bytes.c */
    if (in->aux >= KJ_B_STR_SPLIT && in->aux <= KJ_B_STR_ISPRINTABLE) return kj_cg_str_split(cg, in); /* llvm_str_split.c */
    switch (in->aux) {
    case KJ_B_PRINT: return b_print(cg, in);
    case KJ_B_NP_ZEROS: case KJ_B_NP_ONES: case KJ_B_NP_EMPTY: case KJ_B_NP_FULL:
    case KJ_B_NP_ZEROS_LIKE: case KJ_B_NP_ONES_LIKE: case KJ_B_NP_EMPTY_LIKE: case KJ_B_NP_FULL_LIKE:
        return b_alloc(cg, in);
    case KJ_B_CUDA_DEVICE_ARRAY: case KJ_B_CUDA_DEVICE_ARRAY_LIKE: return cg->run->device_array(cg, in, b_alloc(cg, in));
    case KJ_B_KJIT_ON_DEVICE: return b_on_device(cg, in);
    case KJ_B_KJIT_GPU_MATMUL: return kj_cg_gpu_matmul(cg, in);
    case KJ_B_CUDA_TO_DEVICE:
        if (kj_record_of(in->type)) return kj_cg_record_copy(cg, in, cg->run->copy_to_host != host_copy_to_host);
        if (in->type->kind == KJ_T_ARRAY && in->type->layout == KJ_LAYOUT_F && in->type->ndim > 1)
            return to_device_f(cg, in);
        return cg->run->to_device(cg, in);
    case KJ_B_XORO_CREATE: case KJ_B_XORO_INIT: return kj_cg_xoroshiro_host(cg, in);
    case KJ_B_NP_ARANGE: return b_arange(cg, in);
    case KJ_B_NP_LINSPACE: return b_linspace(cg, in);
    case KJ_B_NP_RANDOM_SEED: return b_seed(cg, in);
    case KJ_B_NP_RANDOM_RAND:
        return random_values(cg, in, in->nargs ? shape_list(cg, in, 0, (int)in->nargs) : NULL);
    case KJ_B_NP_RANDOM_RANDN:
        return b_rdist(cg, in, kj_rdist_spec_of(KJ_B_NP_RANDOM_STANDARD_NORMAL),
                       in->nargs ? shape_list(cg, in, 0, (int)in->nargs) : NULL);
    case KJ_B_NP_RANDOM_RANDOM: case KJ_B_NP_RANDOM_RANDOM_SAMPLE: case KJ_B_NP_RANDOM_RANF:
    case KJ_B_NP_RANDOM_SAMPLE: {
        kir_ref size = argref(cg, in, 0);
        return random_values(cg, in, size ? shape_of(cg, size, in->type->ndim) : NULL);
    }
    case KJ_B_NP_RANDOM_RANDINT: return b_randint(cg, in);
    case KJ_B_NP_RANDOM_SHUFFLE: case KJ_B_NP_RANDOM_PERMUTATION: return b_shuffle(cg, in);
    case KJ_B_NP_RANDOM_CHOICE: case KJ_B_GEN_CHOICE: return b_choice(cg, in);
    case KJ_B_NP_RANDOM_MULTINOMIAL: case KJ_B_GEN_MULTINOMIAL: return b_multinomial(cg, in);
    case KJ_B_NP_RANDOM_DIRICHLET: case KJ_B_GEN_DIRICHLET: return b_dirichlet(cg, in);
    case KJ_B_NP_RANDOM_DEFAULT_RNG: case KJ_B_GEN_RANDOM: case KJ_B_GEN_UNIFORM: case KJ_B_GEN_INTEGERS:
    case KJ_B_GEN_SHUFFLE: case KJ_B_GEN_PERMUTATION: case KJ_B_GEN_PERMUTED:
        return b_generator(cg, in);
    case KJ_B_NP_SAVE: return b_save(cg, in);
    case KJ_B_NP_LOAD: return b_load(cg, in);
    case KJ_B_NP_ALLCLOSE: return b_allclose(cg, in);
    case KJ_B_NP_ARRAY_EQUAL: return b_array_equal(cg, in);
    case KJ_B_NP_SUM: case KJ_B_NP_MIN: case KJ_B_NP_MAX: case KJ_B_NP_MEAN: case KJ_B_NP_STD:
    case KJ_B_ARR_SUM: case KJ_B_ARR_MIN: case KJ_B_ARR_MAX: case KJ_B_ARR_MEAN: case KJ_B_ARR_STD:
    case KJ_B_NP_PROD: case KJ_B_NP_VAR: case KJ_B_NP_ARGMIN: case KJ_B_NP_ARGMAX:
    case KJ_B_ARR_PROD: case KJ_B_ARR_VAR: case KJ_B_ARR_ARGMIN: case KJ_B_ARR_ARGMAX:
        return b_reduce(cg, in);
    case KJ_B_ARR_COPY_TO_HOST:
        if (kj_record_of(in->type)) return kj_cg_record_copy(cg, in, cg->run->copy_to_host != host_copy_to_host);
        return cg->run->copy_to_host(cg, in);
    case KJ_B_ARR_COPY_TO_DEVICE: return b_copy_to_device(cg, in);
    case KJ_B_ARR_VIEW: return b_view(cg, in);
    case KJ_B_ARR_ASTYPE: case KJ_B_ARR_COPY: case KJ_B_CONVERT:
        return b_copy(cg, in);
    case KJ_B_ARR_RESHAPE: return b_reshape(cg, in);
    case KJ_B_ARR_RAVEL: return b_ravel(cg, in);
    case KJ_B_NP_CUMSUM: case KJ_B_NP_CUMPROD: case KJ_B_ARR_CUMSUM: case KJ_B_ARR_CUMPROD:
        return b_cumulate(cg, in);
    case KJ_B_ARR_FILL: return b_fill(cg, in);
    case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY: case KJ_B_NP_ASCONTIGUOUSARRAY: case KJ_B_NP_CONCATENATE:
    case KJ_B_NP_STACK: case KJ_B_NP_HSTACK: case KJ_B_NP_VSTACK: case KJ_B_NP_DSTACK: case KJ_B_NP_COLUMN_STACK:
    case KJ_B_NP_FLIP: case KJ_B_NP_FLIPLR: case KJ_B_NP_FLIPUD: case KJ_B_NP_NONZERO: case KJ_B_ARR_NONZERO:
    case KJ_B_NP_FLATNONZERO: case KJ_B_NP_ARGWHERE: case KJ_B_NP_REPEAT: case KJ_B_ARR_REPEAT: case KJ_B_NP_EYE:
    case KJ_B_NP_IDENTITY: case KJ_B_NP_EXPAND_DIMS: case KJ_B_NP_SWAPAXES: case KJ_B_ARR_SWAPAXES: case KJ_B_NP_MOVEAXIS:
    case KJ_B_NP_ATLEAST_1D: case KJ_B_NP_ATLEAST_2D: case KJ_B_NP_ATLEAST_3D: case KJ_B_NP_BROADCAST_TO:
        return kj_cg_np_manip(cg, in);
    KJ_B_NP_MANIP2_CASES: return kj_cg_np_manip2(cg, in);
    case KJ_B_INDEX_GET: case KJ_B_INDEX_SET: return b_index(cg, in);
    case KJ_B_TIME_PERF_COUNTER: return kj_cg_rtcall(cg, KJ_RTF_PERF_COUNTER, NULL, 0);
    case KJ_B_CUDA_SYNCHRONIZE: case KJ_B_CUDA_STREAM: case KJ_B_CUDA_EVENT: case KJ_B_CUDA_EVENT_ELAPSED_TIME:
    case KJ_B_STREAM_SYNCHRONIZE: case KJ_B_EVENT_RECORD: case KJ_B_EVENT_SYNCHRONIZE: case KJ_B_EVENT_ELAPSED_TIME:
        return b_cuda(cg, in);
    default: {
        if (kj_builtin_has(in->aux, KJ_BF_MPI)) return kj_cg_mpi(cg, in);
        if (kj_builtin_npsort(in->aux)) return kj_cg_npsort(cg, in);
        if (kj_builtin_npother(in->aux)) return kj_cg_npother(cg, in);
        if (kj_builtin_npshape(in->aux)) return kj_cg_npshape(cg, in);
        if (kj_builtin_nppoly(in->aux)) return kj_cg_nppoly(cg, in);
        if (kj_builtin_cuda_dev(in->aux)) return kj_cg_cuda_dev(cg, in);
        if (kj_builtin_cuda_host(in->aux)) return kj_cg_cuda_host(cg, in);
        if (kj_builtin_has(in->aux, KJ_BF_LINALG)) return kj_cg_linalg(cg, in);
        const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
        kj_cg_fail(cg, in->span, "built-in '%s' is not supported by the host code generator yet",
                   bi ? bi->path : "?");
        return in->type ? LLVMGetUndef(kj_cg_type(cg, in->type)) : NULL;
    }
    }
}
