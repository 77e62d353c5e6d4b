/* SPDX-License-Identifier: BSD-2-Clause */
/* Host code of np.array/asarray/ascontiguousarray, the joins (np.concatenate,
 * np.stack, np.hstack, ...) and np.flip (typed in builtins_np_manip.c).
 *
 * np.array of a tuple: typing converted the nesting's leaves to the result
 * dtype, so the array is allocated (the runtime's np.empty) and each leaf
 * is stored at its C-order offset, here in generated code. */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../abi/abi.h"
#include "../runtime/array_manip.h"

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static LLVMValueRef load_desc(kj_cg *cg, LLVMValueRef p, int ndim)
{
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, ndim), p, "arr");
}

/* ---- np.array of a tuple ---- */

/* The shape of the nesting of tuple type t into shape[0..nd). */
static void seq_shape(const kj_type *t, int64_t *shape, int nd)
{
    for (int d = 0; d < nd; d++) {
        shape[d] = t->n;
        if (t->n) t = t->elems[0];
    }
}

typedef struct {
    LLVMValueRef data;  /* the new array's data pointer */
    const kj_type *elem;
    LLVMTypeRef mt;     /* the element's memory type */
    int64_t next;       /* C-order index of the next leaf */
} store_ctx;

static void store_leaves(kj_cg *cg, store_ctx *s, LLVMValueRef v, const kj_type *t)
{
    if (t->kind != KJ_T_TUPLE) {
        LLVMValueRef idx = kj_cg_i64(cg, s->next++);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, s->mt, s->data, &idx, 1, "leaf");
        LLVMBuildStore(cg->b, kj_cg_to_mem(cg, s->elem, v), p);
        return;
    }
    for (uint32_t k = 0; k < t->n; k++)
        store_leaves(cg, s, LLVMBuildExtractValue(cg->b, v, k, ""), t->elems[k]);
}

static LLVMValueRef b_array_of_seq(kj_cg *cg, const kir_inst *in)
{
    const kj_type *at = in->type, *st = type_of(cg, in->args[0]);
    int64_t shape[KJ_ABI_MAX_DIMS] = {0};
    seq_shape(st, shape, at->ndim);
    LLVMValueRef sv = LLVMGetUndef(LLVMArrayType2(cg->t_i64, (uint64_t)at->ndim));
    for (int d = 0; d < at->ndim; d++) sv = LLVMBuildInsertValue(cg->b, sv, kj_cg_i64(cg, shape[d]), (unsigned)d, "");
    LLVMValueRef out = kj_cg_out_desc(cg, at->ndim);
    LLVMValueRef a[8] = {cg->fn->rt, kj_cg_i32(cg, kj_cg_dtype(at->elem)), kj_cg_i32(cg, at->ndim),
                         kj_cg_spill(cg, sv), LLVMConstNull(cg->t_ptr), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_ALLOC, a, 8);
    LLVMValueRef desc = load_desc(cg, out, at->ndim);
    store_ctx s = {.data = LLVMBuildExtractValue(cg->b, desc, 0, "data"), .elem = at->elem,
                   .mt = kj_cg_memtype(cg, at->elem)};
    store_leaves(cg, &s, kj_cg_val(cg, in->args[0]), st);
    return desc;
}

static LLVMValueRef join_call(kj_cg *cg, const kir_inst *in, int mode, LLVMValueRef axis);

/* np.array(lst) of a list of k-tuples of one number type (rt_list_array.c) */
static LLVMValueRef list_of_tuples(kj_cg *cg, const kir_inst *in, const kj_type *x)
{
    LLVMValueRef out = kj_cg_out_desc(cg, 2);
    LLVMValueRef a[8] = {cg->fn->rt, kj_cg_val(cg, in->args[0]), kj_cg_i32(cg, kj_cg_dtype(x->elem->elems[0])),
                         kj_cg_i32(cg, kj_cg_dtype(in->type->elem)), kj_cg_i32(cg, (int64_t)x->elem->n), out,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_LIST_ARRAY2, a, 8);
    return load_desc(cg, out, 2);
}

/* np.array(a) copies; np.asarray(a) is a itself unless dtype= casts;
 * np.ascontiguousarray(a) is a itself when it is C-contiguous already. */
static LLVMValueRef b_asarray(kj_cg *cg, const kir_inst *in)
{
    const kj_type *x = type_of(cg, in->args[0]), *at = in->type;
    if (x->kind == KJ_T_TUPLE && x->n && x->elems[0]->kind == KJ_T_ARRAY) /* np.array([a, b]): a stack */
        return join_call(cg, in, KJ_JOIN_ARRAY, kj_cg_i64(cg, 0));
    if (x->kind == KJ_T_LIST && x->elem->kind == KJ_T_TUPLE) return list_of_tuples(cg, in, x);
    if (x->kind == KJ_T_LIST) { /* np.array(lst): rt_list_array.c */
        LLVMValueRef out = kj_cg_out_desc(cg, 1);
        LLVMValueRef a[7] = {cg->fn->rt, kj_cg_val(cg, in->args[0]), kj_cg_i32(cg, kj_cg_dtype(x->elem)),
                             kj_cg_i32(cg, kj_cg_dtype(at->elem)), out, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_LIST_ARRAY, a, 7);
        return load_desc(cg, out, 1);
    }
    if (x->kind != KJ_T_ARRAY) return b_array_of_seq(cg, in);
    if (in->aux == KJ_B_NP_ARRAY || x->elem != at->elem)
        return kj_cg_array_copy_as(cg, in->args[0], at->elem, at->ndim, in);
    if (in->aux == KJ_B_NP_ASARRAY || x->layout == KJ_LAYOUT_C) return kj_cg_val(cg, in->args[0]);
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    LLVMValueRef out = kj_cg_out_desc(cg, at->ndim);
    LLVMValueRef a[8] = {cg->fn->rt, o[0], o[1], o[2], kj_cg_i32(cg, kj_cg_dtype(at->elem)), out,
                         kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_ASCONTIG, a, 8);
    return load_desc(cg, out, at->ndim);
}

/* ---- joins ---- */

static int join_mode(int b)
{
    switch (b) {
    case KJ_B_NP_STACK: return KJ_JOIN_STACK;
    case KJ_B_NP_HSTACK: return KJ_JOIN_HSTACK;
    case KJ_B_NP_VSTACK: return KJ_JOIN_VSTACK;
    case KJ_B_NP_DSTACK: return KJ_JOIN_DSTACK;
    case KJ_B_NP_COLUMN_STACK: return KJ_JOIN_COLUMN;
    default: return KJ_JOIN_CONCAT;
    }
}

/* Element k of array type [n x elt] at p := v. */
static void put(kj_cg *cg, LLVMTypeRef elt, LLVMValueRef p, unsigned n, unsigned k, LLVMValueRef v)
{
    LLVMValueRef idx[2] = {kj_cg_i64(cg, 0), kj_cg_i64(cg, k)};
    LLVMBuildStore(cg->b, v, LLVMBuildInBoundsGEP2(cg->b, LLVMArrayType2(elt, n), p, idx, 2, ""));
}

/* Integer argument k (an axis, a size) as int64, or 0 when absent. */
static LLVMValueRef axis_val(kj_cg *cg, const kir_inst *in, uint32_t k, bool *given)
{
    static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
    *given = k < in->nargs && in->args[k] && type_of(cg, in->args[k])->kind != KJ_T_NONE;
    if (!*given) return kj_cg_i64(cg, 0);
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), type_of(cg, in->args[k]), &T_I64);
}

/* The runtime's join of the tuple of arrays in->args[0] (mode, axis). */
static LLVMValueRef join_call(kj_cg *cg, const kir_inst *in, int mode, LLVMValueRef axis)
{
    const kj_type *st = type_of(cg, in->args[0]), *at = in->type;
    unsigned n = st->n;
    LLVMValueRef tup = kj_cg_val(cg, in->args[0]);
    LLVMValueRef ptrs = kj_cg_alloca(cg, LLVMArrayType2(cg->t_ptr, n), "join.ptrs");
    LLVMValueRef ndims = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i32, n), "join.ndims");
    LLVMValueRef dtypes = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i32, n), "join.dtypes");
    for (unsigned k = 0; k < n; k++) {
        const kj_type *e = st->elems[k];
        put(cg, cg->t_ptr, ptrs, n, k, kj_cg_spill(cg, LLVMBuildExtractValue(cg->b, tup, k, "")));
        put(cg, cg->t_i32, ndims, n, k, kj_cg_i32(cg, e->ndim));
        put(cg, cg->t_i32, dtypes, n, k, kj_cg_i32(cg, kj_cg_dtype(e->elem)));
    }
    LLVMValueRef out = kj_cg_out_desc(cg, at->ndim);
    LLVMValueRef a[12] = {cg->fn->rt, ptrs, ndims, dtypes, kj_cg_i32(cg, n), kj_cg_i32(cg, mode),
                          axis, kj_cg_i32(cg, kj_cg_dtype(at->elem)), out, kj_cg_i32(cg, at->ndim),
                          kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_JOIN, a, 12);
    return load_desc(cg, out, at->ndim);
}

static LLVMValueRef b_join(kj_cg *cg, const kir_inst *in)
{
    bool given;
    LLVMValueRef axis = axis_val(cg, in, 1, &given);
    return join_call(cg, in, join_mode(in->aux), axis);
}

/* ---- flips ---- */

static LLVMValueRef b_flip(kj_cg *cg, const kir_inst *in)
{
    bool given = false;
    LLVMValueRef axis = in->aux == KJ_B_NP_FLIP ? axis_val(cg, in, 1, &given)
                        : kj_cg_i64(cg, in->aux == KJ_B_NP_FLIPLR ? 1 : 0);
    bool all = in->aux == KJ_B_NP_FLIP && !given;
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[9] = {cg->fn->rt, o[0], o[1], o[2], kj_cg_i32(cg, all), axis, out, kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_FLIP, a, 9);
    return load_desc(cg, out, nd);
}

/* ---- nonzero, repeat, eye ---- */

static LLVMValueRef b_nonzero(kj_cg *cg, const kir_inst *in)
{
    int mode = in->aux == KJ_B_NP_FLATNONZERO ? KJ_NONZERO_FLAT
               : in->aux == KJ_B_NP_ARGWHERE  ? KJ_NONZERO_ARGWHERE
                                               : KJ_NONZERO;
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    unsigned n = mode == KJ_NONZERO ? (unsigned)in->type->n : 1;
    int ond = mode == KJ_NONZERO_ARGWHERE ? 2 : 1;
    LLVMTypeRef dt = kj_cg_array_type(cg, ond);
    LLVMValueRef out = kj_cg_alloca(cg, LLVMArrayType2(dt, n ? n : 1), "nz.out");
    LLVMValueRef a[8] = {cg->fn->rt, o[0], o[1], o[2], kj_cg_i32(cg, mode), out, kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_NONZERO, a, 8);
    if (mode != KJ_NONZERO) return load_desc(cg, out, ond);
    LLVMValueRef tup = LLVMGetUndef(kj_cg_type(cg, in->type));
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef idx[2] = {kj_cg_i64(cg, 0), kj_cg_i64(cg, k)};
        LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, LLVMArrayType2(dt, n), out, idx, 2, "");
        tup = LLVMBuildInsertValue(cg->b, tup, load_desc(cg, p, 1), k, "");
    }
    return tup;
}

static LLVMValueRef b_repeat(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef o[3], r[3];
    kj_cg_operand(cg, in->args[0], o);
    kj_cg_operand(cg, in->args[1], r);
    bool given;
    LLVMValueRef axis = axis_val(cg, in, 2, &given);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[13] = {cg->fn->rt, o[0], o[1], o[2], r[0], r[1], r[2], kj_cg_i32(cg, given), axis, out,
                          kj_cg_i32(cg, nd), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_REPEAT, a, 13);
    return load_desc(cg, out, nd);
}

static LLVMValueRef b_eye(kj_cg *cg, const kir_inst *in)
{
    bool eye = in->aux == KJ_B_NP_EYE, has_n, has_m = false, has_k;
    LLVMValueRef n = axis_val(cg, in, 0, &has_n);
    LLVMValueRef m = eye ? axis_val(cg, in, 1, &has_m) : n;
    LLVMValueRef k = eye ? axis_val(cg, in, 2, &has_k) : kj_cg_i64(cg, 0);
    if (eye && !has_m) m = n;
    LLVMValueRef out = kj_cg_out_desc(cg, 2);
    LLVMValueRef a[8] = {cg->fn->rt, n, m, k, kj_cg_i32(cg, kj_cg_dtype(in->type->elem)), out, kj_cg_line(cg, in),
                         kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_EYE, a, 8);
    return load_desc(cg, out, 2);
}

/* ---- views that move, add or repeat dimensions ---- */

/* The int64s of r, an int or a tuple of ints, into v; their count. */
static int ints_of(kj_cg *cg, kir_ref r, LLVMValueRef *v)
{
    static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
    const kj_type *st = type_of(cg, r);
    LLVMValueRef sv = kj_cg_val(cg, r);
    if (st->kind != KJ_T_TUPLE) {
        v[0] = kj_cg_cast(cg, sv, st, &T_I64);
        return 1;
    }
    for (uint32_t k = 0; k < st->n && k < KJ_ABI_MAX_DIMS; k++)
        v[k] = kj_cg_cast(cg, LLVMBuildExtractValue(cg->b, sv, k, ""), st->elems[k], &T_I64);
    return (int)st->n;
}

static LLVMValueRef b_restride(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef v[KJ_ABI_MAX_DIMS] = {0};
    int np = 0, op;
    bool given;
    switch (in->aux) {
    case KJ_B_NP_EXPAND_DIMS: op = KJ_RS_EXPAND; v[np++] = axis_val(cg, in, 1, &given); break;
    case KJ_B_NP_SWAPAXES: case KJ_B_ARR_SWAPAXES: case KJ_B_NP_MOVEAXIS:
        op = in->aux == KJ_B_NP_MOVEAXIS ? KJ_RS_MOVE : KJ_RS_SWAP;
        v[np++] = axis_val(cg, in, 1, &given);
        v[np++] = axis_val(cg, in, 2, &given);
        break;
    case KJ_B_NP_ATLEAST_1D: case KJ_B_NP_ATLEAST_2D: case KJ_B_NP_ATLEAST_3D:
        op = KJ_RS_ATLEAST;
        v[np++] = kj_cg_i64(cg, 1 + (int)(in->aux - KJ_B_NP_ATLEAST_1D));
        break;
    case KJ_B_ARR_TRANSPOSE: case KJ_B_NP_TRANSPOSE:
        op = KJ_RS_PERM;
        if (type_of(cg, in->args[1])->kind == KJ_T_TUPLE) np = ints_of(cg, in->args[1], v);
        else /* a.transpose(1, 0) */
            for (uint32_t k = 1; k < in->nargs && np < KJ_ABI_MAX_DIMS; k++) v[np++] = axis_val(cg, in, k, &given);
        break;
    default: /* broadcast_to(a, shape): an int or a tuple of ints */
        op = KJ_RS_BROADCAST;
        np = ints_of(cg, in->args[1], v);
    }
    LLVMValueRef pa = LLVMGetUndef(LLVMArrayType2(cg->t_i64, KJ_ABI_MAX_DIMS));
    for (int k = 0; k < np; k++) pa = LLVMBuildInsertValue(cg->b, pa, v[k], (unsigned)k, "");
    LLVMValueRef o[3];
    kj_cg_operand(cg, in->args[0], o);
    int nd = in->type->ndim;
    LLVMValueRef out = kj_cg_out_desc(cg, nd);
    LLVMValueRef a[11] = {cg->fn->rt, o[0], o[1], o[2], kj_cg_i32(cg, op), kj_cg_spill(cg, pa), kj_cg_i32(cg, np),
                          out, kj_cg_i32(cg, nd), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_RESTRIDE, a, 11);
    return load_desc(cg, out, nd);
}

LLVMValueRef kj_cg_np_manip(kj_cg *cg, const kir_inst *in)
{
    switch (in->aux) {
    case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY: case KJ_B_NP_ASCONTIGUOUSARRAY: return b_asarray(cg, in);
    case KJ_B_NP_FLIP: case KJ_B_NP_FLIPLR: case KJ_B_NP_FLIPUD: return b_flip(cg, in);
    case KJ_B_NP_NONZERO: case KJ_B_ARR_NONZERO: case KJ_B_NP_FLATNONZERO: case KJ_B_NP_ARGWHERE:
        return b_nonzero(cg, in);
    case KJ_B_NP_REPEAT: case KJ_B_ARR_REPEAT: return b_repeat(cg, in);
    case KJ_B_NP_EYE: case KJ_B_NP_IDENTITY: return b_eye(cg, in);
    case KJ_B_NP_EXPAND_DIMS: case KJ_B_NP_SWAPAXES: case KJ_B_ARR_SWAPAXES: case KJ_B_NP_MOVEAXIS:
    case KJ_B_NP_ATLEAST_1D: case KJ_B_NP_ATLEAST_2D: case KJ_B_NP_ATLEAST_3D: case KJ_B_NP_BROADCAST_TO:
    case KJ_B_ARR_TRANSPOSE: case KJ_B_NP_TRANSPOSE:
        return b_restride(cg, in);
    default: return b_join(cg, in);
    }
}
