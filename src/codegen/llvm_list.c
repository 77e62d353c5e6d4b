/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_list — reflected lists (src/ir/lower_list.c's BUILTINs) in host code.
 *
 * A list value is a pointer to the runtime's kj_list (src/runtime/list.h):
 * its length is the i64 at offset 0 and its elements (memory form, abi.h)
 * start at the pointer at offset 16. Reading, writing and iterating are
 * inline loads and stores; creating, growing and popping call the runtime
 * (kj_rt_list_*), which owns the memory and frees it with the run. An
 * array element's owner gets one reference from the list (LIST_RETAIN),
 * handed to the run when the element leaves it (LIST_DROP). */
#include "codegen.h"

#include "../abi/abi.h"
#include "../ir/builtins.h"

#include <stdio.h>

enum { LIST_LEN = 0, LIST_DATA = 16 }; /* byte offsets in kj_list (list.h) */

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static LLVMValueRef field(kj_cg *cg, LLVMValueRef l, unsigned off, LLVMTypeRef ty)
{
    LLVMValueRef o = kj_cg_i64(cg, off);
    LLVMValueRef p = LLVMBuildGEP2(cg->b, cg->t_i8, l, &o, 1, "");
    return LLVMBuildLoad2(cg->b, ty, p, "");
}

/* An element type's memory type; an empty list of unknown elements
 * (never read) holds i64s. */
static LLVMTypeRef elem_mem(kj_cg *cg, const kj_type *lt)
{
    return lt->elem ? kj_cg_memtype(cg, lt->elem) : cg->t_i64;
}

static LLVMValueRef slot(kj_cg *cg, const kj_type *lt, LLVMValueRef l, LLVMValueRef i)
{
    LLVMValueRef data = field(cg, l, LIST_DATA, cg->t_ptr);
    return LLVMBuildGEP2(cg->b, elem_mem(cg, lt), data, &i, 1, "");
}

/* The owner of an array value { data, shape, strides, owner }. */
static LLVMValueRef owner_of(kj_cg *cg, LLVMValueRef v) { return LLVMBuildExtractValue(cg->b, v, 3, ""); }

/* Store v (a value of the element type) at p; an array's owner retained. */
static void store(kj_cg *cg, const kj_type *et, LLVMValueRef p, LLVMValueRef v)
{
    LLVMBuildStore(cg->b, kj_cg_to_mem(cg, et, v), p);
    if (et->kind == KJ_T_ARRAY) {
        LLVMValueRef a[2] = {cg->fn->rt, owner_of(cg, v)};
        kj_cg_rtcall(cg, KJ_RTF_LIST_RETAIN, a, 2);
    }
}

static LLVMValueRef load(kj_cg *cg, const kj_type *et, LLVMValueRef p)
{
    return kj_cg_from_mem(cg, et, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, et), p, ""));
}

/* i wrapped (negative from the end) and checked: IndexError as Python. */
static LLVMValueRef checked(kj_cg *cg, const kir_inst *in, LLVMValueRef l, LLVMValueRef i)
{
    LLVMValueRef n = field(cg, l, LIST_LEN, cg->t_i64);
    LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, i, kj_cg_i64(cg, 0), "");
    i = LLVMBuildSelect(cg->b, neg, LLVMBuildAdd(cg->b, i, n, ""), i, "");
    LLVMValueRef bad = LLVMBuildICmp(cg->b, LLVMIntUGE, i, n, "");
    kj_cg_raise_if(cg, bad, KJ_RT_INDEX, in->aux == KJ_B_LIST_SET ? "list assignment index out of range"
                                                                  : "list index out of range", in->span);
    return i;
}

static LLVMValueRef list_new(kj_cg *cg, const kir_inst *in)
{
    const kj_type *lt = in->type, *et = lt->elem;
    LLVMTypeRef mt = elem_mem(cg, lt);
    int32_t owner = et && et->kind == KJ_T_ARRAY ? (int32_t)kj_abi_array_bytes(et->ndim) - 8 : -1;
    LLVMValueRef a[4] = {cg->fn->rt, LLVMSizeOf(mt), kj_cg_i64(cg, in->nargs), kj_cg_i32(cg, owner)};
    LLVMValueRef l = kj_cg_rtcall(cg, KJ_RTF_LIST_NEW, a, 4);
    for (uint32_t k = 0; k < in->nargs; k++)
        store(cg, et, slot(cg, lt, l, kj_cg_i64(cg, k)), kj_cg_val(cg, in->args[k]));
    return l;
}

static LLVMValueRef list_pop(kj_cg *cg, const kir_inst *in)
{
    kir_ref ix = in->nargs > 1 ? in->args[1] : 0;
    LLVMValueRef a[6] = {cg->fn->rt, kj_cg_val(cg, in->args[0]), ix ? kj_cg_val(cg, ix) : kj_cg_i64(cg, 0),
                         kj_cg_i32(cg, ix != 0), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    return load(cg, in->type, kj_cg_rtcall(cg, KJ_RTF_LIST_POP, a, 6));
}

/* lst[a:b:c] (a new list), lst[a:b:c] = other, del lst[a:b:c], del lst[i]:
 * list_slice.c, with args (list, start, stop, step, has[, other]). */
static LLVMValueRef list_slice(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[9] = {cg->fn->rt, kj_cg_val(cg, in->args[0])};
    if (in->aux == KJ_B_LIST_DEL && in->nargs == 2) {
        LLVMValueRef d[5] = {a[0], a[1], kj_cg_val(cg, in->args[1]), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_LIST_DELITEM, d, 5);
        return NULL;
    }
    for (unsigned k = 1; k < 4; k++) a[k + 1] = kj_cg_val(cg, in->args[k]);
    a[5] = LLVMBuildTrunc(cg->b, kj_cg_val(cg, in->args[4]), cg->t_i32, "");
    unsigned n = 6;
    if (in->aux == KJ_B_LIST_SETSLICE) a[n++] = kj_cg_val(cg, in->args[5]);
    a[n++] = kj_cg_line(cg, in);
    a[n++] = kj_cg_col(cg, in);
    kj_rtfn f = in->aux == KJ_B_LIST_SLICE ? KJ_RTF_LIST_SLICE
                : in->aux == KJ_B_LIST_SETSLICE ? KJ_RTF_LIST_SETSLICE : KJ_RTF_LIST_DELSLICE;
    LLVMValueRef r = kj_cg_rtcall(cg, f, a, n);
    return in->aux == KJ_B_LIST_SLICE ? r : NULL;
}

/* The kind list_sort.c compares a field as: 0 signed ints, 1 unsigned ints
 * and bools, 2 floats, 3 strings (builtins.c, infer_list.c allow no other). */
static int field_kind(const kj_type *t)
{
    return !t || t->kind == KJ_T_BOOL ? 1 : t->kind == KJ_T_INT ? (t->is_signed ? 0 : 1) : t->kind == KJ_T_FLOAT ? 2 : 3;
}

/* The element description list_sort.c reads: "KIND,SIZE,OFFSET;" per field
 * (a tuple's elements at their offsets in its memory form), a constant string. */
LLVMValueRef kj_cg_list_elem_desc(kj_cg *cg, const kj_type *et)
{
    char buf[64 * 48];
    size_t n = 0;
    if (et && et->kind == KJ_T_TUPLE) {
        LLVMTypeRef mt = kj_cg_memtype(cg, et);
        for (uint32_t k = 0; k < et->n && k < 64; k++) {
            const kj_type *f = et->elems[k];
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%d,%llu,%llu;", field_kind(f),
                                  (unsigned long long)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, f)),
                                  (unsigned long long)LLVMOffsetOfElement(cg->td, mt, k));
        }
    } else {
        LLVMTypeRef mt = et ? kj_cg_memtype(cg, et) : cg->t_i64;
        snprintf(buf, sizeof buf, "%d,%llu,0;", field_kind(et), (unsigned long long)LLVMABISizeOfType(cg->td, mt));
    }
    return kj_cg_cstr(cg, buf);
}

/* lst1 op lst2: an i1 from kj_rt_list_cmp (the kind of whichever list
 * knows its elements: `[]` has none). */
static LLVMValueRef list_cmp(kj_cg *cg, const kir_inst *in, const kj_type *lt, LLVMValueRef l)
{
    const kj_type *et = lt->elem ? lt->elem : type_of(cg, in->args[1])->elem;
    LLVMValueRef op = LLVMBuildTrunc(cg->b, kj_cg_val(cg, in->args[2]), cg->t_i32, "");
    LLVMValueRef a[5] = {cg->fn->rt, l, kj_cg_val(cg, in->args[1]), kj_cg_list_elem_desc(cg, et), op};
    LLVMValueRef r = kj_cg_rtcall(cg, KJ_RTF_LIST_CMP, a, 5);
    return LLVMBuildICmp(cg->b, LLVMIntNE, r, kj_cg_i32(cg, 0), "");
}

/* lst.sort(reverse=): list_sort.c with the elements' kind. */
static LLVMValueRef list_sort(kj_cg *cg, const kir_inst *in, const kj_type *lt, LLVMValueRef l)
{
    kir_ref rev = in->nargs > 2 ? in->args[2] : 0;
    LLVMValueRef r = rev ? LLVMBuildZExt(cg->b, kj_cg_val(cg, rev), cg->t_i32, "") : kj_cg_i32(cg, 0);
    LLVMValueRef a[4] = {cg->fn->rt, l, kj_cg_list_elem_desc(cg, lt->elem), r};
    kj_cg_rtcall(cg, KJ_RTF_LIST_SORT, a, 4);
    return NULL;
}

LLVMValueRef kj_cg_list_builtin(kj_cg *cg, const kir_inst *in)
{
    if (in->aux == KJ_B_LIST_NEW) return list_new(cg, in);
    const kj_type *lt = type_of(cg, in->args[0]);
    if (lt->kind != KJ_T_LIST) return NULL;
    LLVMValueRef l = kj_cg_val(cg, in->args[0]);
    switch (in->aux) {
    case KJ_B_LEN: return field(cg, l, LIST_LEN, cg->t_i64);
    case KJ_B_LIST_GET: return load(cg, lt->elem, slot(cg, lt, l, checked(cg, in, l, kj_cg_val(cg, in->args[1]))));
    case KJ_B_LIST_SET: {
        LLVMValueRef p = slot(cg, lt, l, checked(cg, in, l, kj_cg_val(cg, in->args[1])));
        if (lt->elem->kind == KJ_T_ARRAY) {
            LLVMValueRef a[2] = {cg->fn->rt, owner_of(cg, load(cg, lt->elem, p))};
            kj_cg_rtcall(cg, KJ_RTF_LIST_DROP, a, 2);
        }
        store(cg, lt->elem, p, kj_cg_val(cg, in->args[2]));
        return NULL;
    }
    case KJ_B_LIST_APPEND: {
        LLVMValueRef a[2] = {cg->fn->rt, l};
        store(cg, lt->elem, kj_cg_rtcall(cg, KJ_RTF_LIST_GROW, a, 2), kj_cg_val(cg, in->args[1]));
        return NULL;
    }
    case KJ_B_LIST_POP: return list_pop(cg, in);
    case KJ_B_LIST_SORT: return list_sort(cg, in, lt, l);
    case KJ_B_LIST_CMP: return list_cmp(cg, in, lt, l);
    case KJ_B_LIST_SLICE: case KJ_B_LIST_SETSLICE: case KJ_B_LIST_DEL: return list_slice(cg, in);
    case KJ_B_LIST_INSERT: {
        LLVMValueRef a[3] = {cg->fn->rt, l, kj_cg_val(cg, in->args[1])};
        store(cg, lt->elem, kj_cg_rtcall(cg, KJ_RTF_LIST_INSERT, a, 3), kj_cg_val(cg, in->args[2]));
        return NULL;
    }
    case KJ_B_LIST_REPEAT: {
        LLVMValueRef a[3] = {cg->fn->rt, l, kj_cg_val(cg, in->args[1])};
        return kj_cg_rtcall(cg, KJ_RTF_LIST_REPEAT, a, 3);
    }
    case KJ_B_LIST_EXTEND: {
        LLVMValueRef a[3] = {cg->fn->rt, l, kj_cg_val(cg, in->args[1])};
        kj_cg_rtcall(cg, KJ_RTF_LIST_EXTEND, a, 3);
        return NULL;
    }
    case KJ_B_LIST_CLEAR: case KJ_B_LIST_REVERSE: case KJ_B_LIST_COPY: {
        LLVMValueRef a[2] = {cg->fn->rt, l};
        kj_rtfn f = in->aux == KJ_B_LIST_CLEAR ? KJ_RTF_LIST_CLEAR
                    : in->aux == KJ_B_LIST_REVERSE ? KJ_RTF_LIST_REVERSE : KJ_RTF_LIST_COPY;
        LLVMValueRef r = kj_cg_rtcall(cg, f, a, 2);
        return in->aux == KJ_B_LIST_COPY ? r : NULL;
    }
    default: return NULL;
    }
}

/* print of a list: [a, b, c], each element as its repr (put). */
void kj_cg_print_list(kj_cg *cg, const kir_inst *in, const kj_type *lt, LLVMValueRef l,
                      void (*put)(kj_cg *, const kir_inst *, const kj_type *, LLVMValueRef, bool),
                      void (*text)(kj_cg *, const char *))
{
    text(cg, "[");
    if (lt->elem) {
        LLVMValueRef n = field(cg, l, LIST_LEN, cg->t_i64);
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b), head = kj_cg_bb(cg, "plist"),
                          body = kj_cg_bb(cg, "plist.body"), sep = kj_cg_bb(cg, "plist.sep"),
                          elem = kj_cg_bb(cg, "plist.elem"), done = kj_cg_bb(cg, "plist.done");
        LLVMBuildBr(cg->b, head);
        LLVMPositionBuilderAtEnd(cg->b, head);
        LLVMValueRef i = LLVMBuildPhi(cg->b, cg->t_i64, "");
        LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, i, n, ""), body, done);
        LLVMPositionBuilderAtEnd(cg->b, body);
        LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, i, kj_cg_i64(cg, 0), ""), sep, elem);
        LLVMPositionBuilderAtEnd(cg->b, sep);
        text(cg, ", ");
        LLVMBuildBr(cg->b, elem);
        LLVMPositionBuilderAtEnd(cg->b, elem);
        put(cg, in, lt->elem, load(cg, lt->elem, slot(cg, lt, l, i)), true);
        LLVMValueRef next = LLVMBuildAdd(cg->b, i, kj_cg_i64(cg, 1), "");
        LLVMBasicBlockRef last = LLVMGetInsertBlock(cg->b);
        LLVMBuildBr(cg->b, head);
        LLVMValueRef vals[2] = {kj_cg_i64(cg, 0), next};
        LLVMBasicBlockRef from[2] = {pre, last};
        LLVMAddIncoming(i, vals, from, 2);
        LLVMPositionBuilderAtEnd(cg->b, done);
    }
    text(cg, "]");
}
