/* SPDX-License-Identifier: BSD-2-Clause */
/* KIR types → LLVM types. A value has two forms (abi.h): in registers
 * (bool is i1) and in memory (bool is one byte, as C's _Bool and NumPy's
 * bool_); tuples and arrays are literal structs of their parts. */
#include "codegen.h"

bool kj_cg_is_void(const kj_type *t) { return !t || t->kind == KJ_T_NONE; }

bool kj_cg_is_signed(const kj_type *t) { return t && t->kind == KJ_T_INT && t->is_signed; }

/* { ptr data, [N x i64] shape, [N x i64] strides, ptr owner } */
LLVMTypeRef kj_cg_array_type(kj_cg *cg, int ndim)
{
    LLVMTypeRef dims = LLVMArrayType2(cg->t_i64, (uint64_t)ndim);
    LLVMTypeRef fields[4] = {cg->t_ptr, dims, dims, cg->t_ptr};
    return LLVMStructTypeInContext(cg->ctx, fields, 4, 0);
}

static LLVMTypeRef int_type(kj_cg *cg, int bits) { return LLVMIntTypeInContext(cg->ctx, (unsigned)bits); }

/* The LLVM type of a KIR type; `mem` selects the memory form. */
static LLVMTypeRef lower(kj_cg *cg, const kj_type *t, bool mem)
{
    switch (t->kind) {
    case KJ_T_BOOL: return mem ? cg->t_i8 : cg->t_i1;
    case KJ_T_INT: return int_type(cg, t->bits ? t->bits : 64);
    case KJ_T_DATETIME: case KJ_T_TIMEDELTA: return cg->t_i64; /* NaT is INT64_MIN */
    case KJ_T_FLOAT: return t->bits == 16 ? LLVMHalfTypeInContext(cg->ctx) : t->bits == 32 ? cg->t_f32 : cg->t_f64;
    case KJ_T_ARRAY: return kj_cg_array_type(cg, t->ndim);
    case KJ_T_COMPLEX: { /* NumPy's layout: real, then imaginary */
        LLVMTypeRef part = t->bits == 64 ? cg->t_f32 : cg->t_f64, el[2] = {part, part};
        return LLVMStructTypeInContext(cg->ctx, el, 2, 0);
    }
    case KJ_T_TUPLE: {
        LLVMTypeRef *el = KJ_NEWN(cg->a, LLVMTypeRef, t->n + 1);
        for (uint32_t k = 0; k < t->n; k++) el[k] = lower(cg, t->elems[k], mem);
        return LLVMStructTypeInContext(cg->ctx, el, t->n, 0);
    }
    case KJ_T_OPTIONAL: { /* (valid, value): llvm_optional.c */
        LLVMTypeRef el[2] = {mem ? cg->t_i8 : cg->t_i1, lower(cg, t->elem, mem)};
        return LLVMStructTypeInContext(cg->ctx, el, 2, 0);
    }
    case KJ_T_RANGE: {
        LLVMTypeRef e = lower(cg, t->elem, mem);
        LLVMTypeRef el[3] = {e, e, e};
        return LLVMStructTypeInContext(cg->ctx, el, 3, 0);
    }
    case KJ_T_STR:
    case KJ_T_LIST: /* a kj_list* (llvm_list.c) */
    case KJ_T_DICT: case KJ_T_SET: /* a kj_dict* (llvm_dict.c) */
    case KJ_T_GENERATOR: /* a coroutine handle (llvm_pygen.c) */
    case KJ_T_OPAQUE: return cg->t_ptr;
    case KJ_T_NONE:
    case KJ_T_DTYPE:
    default: return LLVMStructTypeInContext(cg->ctx, NULL, 0, 0);
    }
}

LLVMTypeRef kj_cg_type(kj_cg *cg, const kj_type *t) { return lower(cg, t, false); }

LLVMTypeRef kj_cg_memtype(kj_cg *cg, const kj_type *t) { return lower(cg, t, true); }

/* Does the memory form differ from the value form (a bool somewhere)? */
static bool has_bool(const kj_type *t)
{
    if (t->kind == KJ_T_BOOL || t->kind == KJ_T_OPTIONAL) return true;
    if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++)
            if (has_bool(t->elems[k])) return true;
    }
    return false;
}

/* Convert between the two forms, element by element for tuples. */
static LLVMValueRef convert(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool to_mem)
{
    if (!has_bool(t)) return v;
    if (t->kind == KJ_T_OPTIONAL) return kj_cg_opt_convert(cg, t, v, to_mem); /* llvm_optional.c */
    if (t->kind == KJ_T_BOOL)
        return to_mem ? LLVMBuildZExt(cg->b, v, cg->t_i8, "")
                      : LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(cg->t_i8, 0, 0), "");
    LLVMValueRef out = LLVMGetUndef(lower(cg, t, to_mem));
    for (uint32_t k = 0; k < t->n; k++) {
        LLVMValueRef e = LLVMBuildExtractValue(cg->b, v, k, "");
        out = LLVMBuildInsertValue(cg->b, out, convert(cg, t->elems[k], e, to_mem), k, "");
    }
    return out;
}

LLVMValueRef kj_cg_to_mem(kj_cg *cg, const kj_type *t, LLVMValueRef v) { return convert(cg, t, v, true); }

LLVMValueRef kj_cg_from_mem(kj_cg *cg, const kj_type *t, LLVMValueRef v)
{
    return convert(cg, t, v, false);
}

LLVMValueRef kj_cg_zero(kj_cg *cg, const kj_type *t) { return LLVMConstNull(kj_cg_type(cg, t)); }
