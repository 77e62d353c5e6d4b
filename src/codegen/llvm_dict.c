/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_dict — dicts and sets (src/ir/lower_dict.c's BUILTINs) in host code.
 *
 * A dict or set value is a pointer to the runtime's kj_dict
 * (src/runtime/dict.h): its length is the i64 at offset 0; everything else
 * calls kj_rt_dict_* with keys and values spilled to memory. The runtime
 * hashes and compares a key's bytes, so a key is spilled into zeroed memory
 * (no padding garbage) with float elements' -0.0 made 0.0 (0.0 == -0.0 in
 * Python, and they must find the same entry). */
#include "codegen.h"

#include "../abi/abi.h"
#include "../ir/builtins.h"

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static LLVMValueRef len_of(kj_cg *cg, LLVMValueRef d) { return LLVMBuildLoad2(cg->b, cg->t_i64, d, "dlen"); }

static LLVMValueRef norm_float(kj_cg *cg, const kj_type *t, LLVMValueRef v)
{
    if (t->kind != KJ_T_FLOAT) return v;
    return LLVMBuildFAdd(cg->b, v, LLVMConstReal(LLVMTypeOf(v), 0.0), "nz"); /* -0.0 + 0.0 is 0.0 */
}

static LLVMValueRef key_ptr(kj_cg *cg, const kj_type *kt, LLVMValueRef v)
{
    if (kt->kind == KJ_T_TUPLE)
        for (uint32_t i = 0; i < kt->n; i++)
            v = LLVMBuildInsertValue(cg->b, v, norm_float(cg, kt->elems[i], LLVMBuildExtractValue(cg->b, v, i, "")), i,
                                     "");
    else
        v = norm_float(cg, kt, v);
    LLVMTypeRef mt = kj_cg_memtype(cg, kt);
    LLVMValueRef p = kj_cg_alloca(cg, mt, "key");
    LLVMBuildMemSet(cg->b, p, LLVMConstInt(cg->t_i8, 0, 0), LLVMSizeOf(mt), 8);
    LLVMBuildStore(cg->b, kj_cg_to_mem(cg, kt, v), p);
    return p;
}

static LLVMValueRef val_ptr(kj_cg *cg, const kj_type *vt, LLVMValueRef v)
{
    LLVMValueRef p = kj_cg_alloca(cg, kj_cg_memtype(cg, vt), "val");
    LLVMBuildStore(cg->b, kj_cg_to_mem(cg, vt, v), p);
    return p;
}

static LLVMValueRef load(kj_cg *cg, const kj_type *t, LLVMValueRef p)
{
    return kj_cg_from_mem(cg, t, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, t), p, ""));
}

/* The key's dtypes for KeyError's message, 4 bits each (dict.c). */
static void key_kinds(const kj_type *kt, int64_t *kinds, int32_t *n)
{
    *kinds = 0, *n = 0;
    if (kt->kind == KJ_T_STR) { /* dict.c reads the text */
        *n = -1;
        return;
    }
    if (kt->kind != KJ_T_TUPLE) {
        *kinds = kj_cg_dtype(kt);
        return;
    }
    *n = kt->n < 15 ? (int32_t)kt->n : 15;
    for (int32_t i = 0; i < *n; i++) *kinds |= (int64_t)kj_cg_dtype(kt->elems[i]) << (4 * i);
}

/* py: a Python dict host code made (a display, dict()), printed by repr; not a numba.typed.Dict */
static LLVMValueRef dict_new(kj_cg *cg, const kj_type *t, bool py)
{
    bool set = t->kind == KJ_T_SET;
    LLVMValueRef ksize = t->elem ? LLVMSizeOf(kj_cg_memtype(cg, t->elem)) : kj_cg_i64(cg, 8);
    LLVMValueRef vsize = set ? kj_cg_i64(cg, 0) : t->elem ? LLVMSizeOf(kj_cg_memtype(cg, t->elems[0])) : kj_cg_i64(cg, 8);
    const kj_type *vt = !set && t->elem ? t->elems[0] : NULL;
    int32_t owner = vt && vt->kind == KJ_T_ARRAY ? (int32_t)kj_abi_array_bytes(vt->ndim) - 8 : -1;
    int32_t key_kind = !t->elem ? 0 : t->elem->kind == KJ_T_INT || t->elem->kind == KJ_T_BOOL ? 1
                     : t->elem->kind == KJ_T_STR ? 2 : 0;
    if (!set && py && cg->fn->kf->pycode) key_kind |= KJ_DICT_PYDICT; /* a Python dict: printed by repr */
    LLVMValueRef a[5] = {cg->fn->rt, ksize, vsize, kj_cg_i32(cg, owner), kj_cg_i32(cg, key_kind)};
    return kj_cg_rtcall(cg, KJ_RTF_DICT_NEW, a, 5);
}

static void put(kj_cg *cg, const kj_type *t, LLVMValueRef d, LLVMValueRef k, LLVMValueRef v)
{
    LLVMValueRef a[4] = {cg->fn->rt, d, key_ptr(cg, t->elem, k),
                         t->kind == KJ_T_SET ? LLVMConstNull(cg->t_ptr) : val_ptr(cg, t->elems[0], v)};
    kj_cg_rtcall(cg, KJ_RTF_DICT_SET, a, 4);
}

static LLVMValueRef display(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef d = dict_new(cg, in->type, true);
    bool set = in->aux == KJ_B_SET_NEW;
    for (uint32_t k = 0; k < in->nargs; k += set ? 1 : 2)
        put(cg, in->type, d, kj_cg_val(cg, in->args[k]), set ? NULL : kj_cg_val(cg, in->args[k + 1]));
    return d;
}

static bool has_default(kj_cg *cg, const kir_inst *in)
{
    return in->nargs > 2 && in->args[2] && type_of(cg, in->args[2])->kind != KJ_T_NONE; /* 0: not given */
}

/* pop/remove/discard: the removed value's address, or NULL when missing
 * and a default is allowed (must 0). */
static LLVMValueRef pop(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef d, LLVMValueRef k, bool must)
{
    int64_t kinds;
    int32_t n;
    key_kinds(t->elem, &kinds, &n);
    LLVMValueRef a[8] = {cg->fn->rt, d, key_ptr(cg, t->elem, k), kj_cg_i32(cg, must), kj_cg_i64(cg, kinds),
                         kj_cg_i32(cg, n), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_DICT_POP, a, 8);
}

/* p, or the default argument's address where p is NULL. */
static LLVMValueRef or_default(kj_cg *cg, const kir_inst *in, const kj_type *vt, LLVMValueRef p)
{
    LLVMValueRef dp = val_ptr(cg, vt, kj_cg_val(cg, in->args[2]));
    return LLVMBuildSelect(cg->b, LLVMBuildIsNull(cg->b, p, ""), dp, p, "");
}

static LLVMValueRef as_list(kj_cg *cg, const kj_type *t, LLVMValueRef d, int which)
{
    LLVMValueRef size = kj_cg_i64(cg, 0), off = kj_cg_i64(cg, 0);
    if (which == 2) {
        LLVMTypeRef el[2] = {kj_cg_memtype(cg, t->elem), kj_cg_memtype(cg, t->elems[0])};
        LLVMTypeRef st = LLVMStructTypeInContext(cg->ctx, el, 2, 0);
        size = LLVMSizeOf(st);
        off = LLVMBuildPtrToInt(cg->b, LLVMBuildStructGEP2(cg->b, st, LLVMConstNull(cg->t_ptr), 1, ""), cg->t_i64, "");
    }
    LLVMValueRef a[5] = {cg->fn->rt, d, kj_cg_i32(cg, which), size, off};
    return kj_cg_rtcall(cg, KJ_RTF_DICT_LIST, a, 5);
}

static LLVMValueRef method(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef d)
{
    LLVMValueRef k = in->nargs > 1 ? kj_cg_val(cg, in->args[1]) : NULL;
    const kj_type *vt = t->kind == KJ_T_DICT ? t->elems[0] : NULL;
    switch (in->aux) {
    case KJ_B_DICT_GETITEM: {
        int64_t kinds;
        int32_t n;
        key_kinds(t->elem, &kinds, &n);
        LLVMValueRef a[7] = {cg->fn->rt, d, key_ptr(cg, t->elem, k), kj_cg_i64(cg, kinds), kj_cg_i32(cg, n),
                             kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return load(cg, vt, kj_cg_rtcall(cg, KJ_RTF_DICT_GET, a, 7));
    }
    case KJ_B_DICT_SETITEM: put(cg, t, d, k, kj_cg_val(cg, in->args[2])); return NULL;
    case KJ_B_SET_ADD: put(cg, t, d, k, NULL); return NULL;
    case KJ_B_DICT_CONTAINS: case KJ_B_DICT_GET: {
        LLVMValueRef a[3] = {cg->fn->rt, d, key_ptr(cg, t->elem, k)};
        LLVMValueRef p = kj_cg_rtcall(cg, KJ_RTF_DICT_FIND, a, 3);
        if (in->aux == KJ_B_DICT_CONTAINS) return LLVMBuildIsNotNull(cg->b, p, "in");
        if (in->type->kind == KJ_T_OPTIONAL) return kj_cg_opt_found(cg, in->type, p); /* d.get(k): llvm_optional.c */
        return load(cg, vt, or_default(cg, in, vt, p));
    }
    case KJ_B_DICT_SETDEFAULT: {
        LLVMValueRef a[4] = {cg->fn->rt, d, key_ptr(cg, t->elem, k), val_ptr(cg, vt, kj_cg_val(cg, in->args[2]))};
        return load(cg, vt, kj_cg_rtcall(cg, KJ_RTF_DICT_SETDEFAULT, a, 4));
    }
    case KJ_B_DICT_POP: {
        bool def = has_default(cg, in);
        LLVMValueRef p = pop(cg, in, t, d, k, !def);
        return load(cg, vt, def ? or_default(cg, in, vt, p) : p);
    }
    case KJ_B_SET_DISCARD: case KJ_B_SET_REMOVE: pop(cg, in, t, d, k, in->aux == KJ_B_SET_REMOVE); return NULL;
    case KJ_B_DICT_KEYS: return as_list(cg, t, d, 0);
    case KJ_B_DICT_VALUES: return as_list(cg, t, d, 1);
    case KJ_B_DICT_ITEMS: return as_list(cg, t, d, 2);
    case KJ_B_SET_UNION: case KJ_B_SET_INTERSECTION: case KJ_B_SET_DIFFERENCE: {
        LLVMValueRef a[4] = {cg->fn->rt, d, k, kj_cg_i32(cg, in->aux - KJ_B_SET_UNION)};
        return kj_cg_rtcall(cg, KJ_RTF_SET_OP, a, 4);
    }
    default: return NULL;
    }
}

LLVMValueRef kj_cg_dict_builtin(kj_cg *cg, const kir_inst *in)
{
    if (in->aux == KJ_B_DICT_NEW || in->aux == KJ_B_SET_NEW) return display(cg, in);
    if (in->aux == KJ_B_DICT || in->aux == KJ_B_SET) return dict_new(cg, in->type, !in->i);
    const kj_type *t = type_of(cg, in->args[0]);
    if (t->kind != KJ_T_DICT && t->kind != KJ_T_SET) return NULL;
    LLVMValueRef d = kj_cg_val(cg, in->args[0]);
    if (in->aux == KJ_B_LEN) return len_of(cg, d);
    return method(cg, in, t, d);
}

/* The i-th element of list l of elements t (a kj_list: data at offset 16). */
static LLVMValueRef list_at(kj_cg *cg, const kj_type *t, LLVMValueRef l, LLVMValueRef i)
{
    LLVMValueRef o = kj_cg_i64(cg, 16);
    LLVMValueRef data = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_i8, l, &o, 1, ""), "");
    return load(cg, t, LLVMBuildGEP2(cg->b, kj_cg_memtype(cg, t), data, &i, 1, ""));
}

/* print of a dict or set as Python: {1: 2.5, 3: 4.0}, {1, 2}, {}, set(). */
/* One key or value: by repr when `repr`, else by repr when the dict is a Python dict (py), by str if not. */
static void print_item(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef v, bool repr, LLVMValueRef py,
                       void (*putv)(kj_cg *, const kir_inst *, const kj_type *, LLVMValueRef, bool))
{
    if (repr) {
        putv(cg, in, t, v, true);
        return;
    }
    LLVMBasicBlockRef yes = kj_cg_bb(cg, "pdict.repr"), no = kj_cg_bb(cg, "pdict.str"), end = kj_cg_bb(cg, "pdict.item");
    LLVMBuildCondBr(cg->b, py, yes, no);
    LLVMPositionBuilderAtEnd(cg->b, yes);
    putv(cg, in, t, v, true);
    LLVMBuildBr(cg->b, end);
    LLVMPositionBuilderAtEnd(cg->b, no);
    putv(cg, in, t, v, false);
    LLVMBuildBr(cg->b, end);
    LLVMPositionBuilderAtEnd(cg->b, end);
}

void kj_cg_print_dict(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef d,
                      void (*putv)(kj_cg *, const kir_inst *, const kj_type *, LLVMValueRef, bool),
                      void (*text)(kj_cg *, const char *))
{
    bool set = t->kind == KJ_T_SET;
    if (!t->elem) {
        text(cg, set ? "set()" : "{}");
        return;
    }
    LLVMValueRef n = len_of(cg, d);
    LLVMBasicBlockRef empty = kj_cg_bb(cg, "pdict.empty"), full = kj_cg_bb(cg, "pdict.full"),
                      end = kj_cg_bb(cg, "pdict.end");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, n, kj_cg_i64(cg, 0), ""), empty, full);
    LLVMPositionBuilderAtEnd(cg->b, empty);
    text(cg, set ? "set()" : "{}");
    LLVMBuildBr(cg->b, end);
    LLVMPositionBuilderAtEnd(cg->b, full);
    LLVMValueRef keys = as_list(cg, t, d, 0), vals = set ? NULL : as_list(cg, t, d, 1);
    text(cg, "{");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b), head = kj_cg_bb(cg, "pdict"), body = kj_cg_bb(cg, "pdict.body"),
                      sep = kj_cg_bb(cg, "pdict.sep"), elem = kj_cg_bb(cg, "pdict.elem"), done = kj_cg_bb(cg, "pdict.done");
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
    /* numba.typed.Dict's str() formats keys and values with str(): {a: 1}, arrays as [0 1 2];
     * a set prints as Python's: {'a', 'b'}; so does a dict host code made ({'a': 1}, array([0, 1, 2])) */
    bool krepr = set || t->elem->kind != KJ_T_STR;
    const kj_type *vt = set ? NULL : t->elems[0];
    bool vrepr = set || (vt->kind != KJ_T_ARRAY && vt->kind != KJ_T_STR);
    LLVMValueRef py = NULL;
    if (!krepr || !vrepr) {
        LLVMValueRef a[1] = {d};
        py = LLVMBuildICmp(cg->b, LLVMIntNE, kj_cg_rtcall(cg, KJ_RTF_DICT_PYDICT, a, 1), kj_cg_i32(cg, 0), "pydict");
    }
    print_item(cg, in, t->elem, list_at(cg, t->elem, keys, i), krepr, py, putv);
    if (!set) {
        text(cg, ": ");
        print_item(cg, in, vt, list_at(cg, vt, vals, i), vrepr, py, putv);
    }
    LLVMValueRef next = LLVMBuildAdd(cg->b, i, kj_cg_i64(cg, 1), "");
    LLVMBasicBlockRef last = LLVMGetInsertBlock(cg->b);
    LLVMBuildBr(cg->b, head);
    LLVMValueRef vals2[2] = {kj_cg_i64(cg, 0), next};
    LLVMBasicBlockRef from[2] = {pre, last};
    LLVMAddIncoming(i, vals2, from, 2);
    LLVMPositionBuilderAtEnd(cg->b, done);
    text(cg, "}");
    LLVMBuildBr(cg->b, end);
    LLVMPositionBuilderAtEnd(cg->b, end);
}
