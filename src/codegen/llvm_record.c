/* SPDX-License-Identifier: BSD-2-Clause */
/* Records (NumPy structured dtypes, infer_record.c) in generated code, the same on every target: a
 * record is a pointer to its bytes (its fields read and written with alignment 1 unless the dtype
 * is aligned, as Numba's: a packed record's fields may sit at any byte, which the GPU faults on), an array of records a descriptor whose element is [itemsize x i8]
 * (llvm_array.c), so that a[i] is the element's address; a field a load or store at its offset;
 * a['x'] the descriptor with its data moved to the field. Arrays of records are allocated as uint8
 * arrays of shape (..., itemsize) whose last dimension is dropped; printing is the runtime's
 * (record.c, format.c). */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../runtime/array.h"

#include <string.h>

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static LLVMValueRef field_ptr(kj_cg *cg, const kir_inst *in, const kj_type **ft)
{
    const kj_recdesc *d = kj_record_of(type_of(cg, in->args[0]));
    int64_t f = (int64_t)LLVMConstIntGetSExtValue(kj_cg_val(cg, in->args[1]));
    *ft = d->types[f];
    LLVMValueRef off = kj_cg_i64(cg, d->offsets[f]);
    return LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, kj_cg_val(cg, in->args[0]), &off, 1, "field");
}

/* a['x']: the same shape and strides, the data moved to the field */
static LLVMValueRef view(kj_cg *cg, const kir_inst *in)
{
    const kj_recdesc *d = kj_record_of(type_of(cg, in->args[0])->elem);
    int64_t f = (int64_t)LLVMConstIntGetSExtValue(kj_cg_val(cg, in->args[1]));
    LLVMValueRef arr = kj_cg_val(cg, in->args[0]), off = kj_cg_i64(cg, d->offsets[f]);
    LLVMValueRef data = LLVMBuildExtractValue(cg->b, arr, 0, "data");
    data = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, data, &off, 1, "field");
    return LLVMBuildInsertValue(cg->b, arr, data, 0, "");
}

/* A float into a packed field on the GPU, byte by byte from integer bit fields. An align-1 float
 * store is split by NVPTX into st.b8 of shifted copies of the value's register, the lowest byte
 * straight from the register the float arithmetic defined; on an H100 (CUDA 13's ptxas) that byte
 * came out as the value converted to an integer (2.0 stored its low byte as 2: 2.0000005), not as
 * its bits. Each byte here is a bfe (bit-field extract) of the bits, an integer instruction. */
static void store_float_bytes(kj_cg *cg, LLVMValueRef v, unsigned bits, LLVMValueRef p)
{
    LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, bits), args[2] = {it, cg->t_i32};
    LLVMValueRef x = LLVMBuildBitCast(cg->b, v, it, "");
    LLVMTypeRef fty = LLVMFunctionType(it, args, 2, 0);
    const char *text = bits == 64 ? "bfe.u64 $0, $1, $2, 8;" : "bfe.u32 $0, $1, $2, 8;";
    const char *cons = bits == 64 ? "=l,l,r" : "=r,r,r";
    LLVMValueRef bfe = LLVMGetInlineAsm(fty, (char *)text, strlen(text), (char *)cons, strlen(cons), 0, 0,
                                        LLVMInlineAsmDialectATT, 0);
    for (unsigned k = 0; k < bits / 8; k++) {
        LLVMValueRef a[2] = {x, kj_cg_i32(cg, (int32_t)(8 * k))}, off = kj_cg_i64(cg, k);
        LLVMValueRef byte = LLVMBuildTrunc(cg->b, LLVMBuildCall2(cg->b, fty, bfe, a, 2, ""), cg->t_i8, "");
        LLVMValueRef q = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, p, &off, 1, "");
        LLVMSetAlignment(LLVMBuildStore(cg->b, byte, q), 1);
    }
}

LLVMValueRef kj_cg_record(kj_cg *cg, const kir_inst *in)
{
    const kj_type *ft;
    switch (in->aux) {
    case KJ_B_REC_GET: {
        LLVMValueRef p = field_ptr(cg, in, &ft);
        LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, ft), p, "");
        if (!kj_record_of(type_of(cg, in->args[0]))->aligned) LLVMSetAlignment(v, 1);
        return kj_cg_from_mem(cg, ft, v);
    }
    case KJ_B_REC_SET: {
        LLVMValueRef p = field_ptr(cg, in, &ft);
        LLVMValueRef v = kj_cg_to_mem(cg, ft, kj_cg_val(cg, in->args[2]));
        bool packed = !kj_record_of(type_of(cg, in->args[0]))->aligned;
        if (packed && cg->tgt == &kj_target_nvptx && ft->kind == KJ_T_FLOAT) {
            store_float_bytes(cg, v, ft->bits, p);
            return kj_cg_zero(cg, in->type);
        }
        LLVMValueRef s = LLVMBuildStore(cg->b, v, p);
        if (packed) LLVMSetAlignment(s, 1);
        return kj_cg_zero(cg, in->type);
    }
    default: return view(cg, in);
    }
}

/* The bytes of one record in an array of them. */
LLVMTypeRef kj_cg_record_memtype(kj_cg *cg, const kj_type *rec)
{
    return LLVMArrayType2(cg->t_i8, kj_record_of(rec)->size);
}

/* An array of records from the uint8 array `bytes` of shape (shape..., itemsize) (np.zeros(shape,
 * dtype=rec), a copy, a device copy: the runtime's arrays): its last dimension dropped. */
LLVMValueRef kj_cg_record_alloc(kj_cg *cg, int nd, LLVMValueRef bytes)
{
    LLVMValueRef out = LLVMGetUndef(kj_cg_array_type(cg, nd));
    out = LLVMBuildInsertValue(cg->b, out, LLVMBuildExtractValue(cg->b, bytes, 0, ""), 0, "");
    LLVMValueRef sh = LLVMBuildExtractValue(cg->b, bytes, 1, ""), st = LLVMBuildExtractValue(cg->b, bytes, 2, "");
    LLVMTypeRef dims = LLVMArrayType2(cg->t_i64, (uint64_t)nd);
    LLVMValueRef nsh = LLVMGetUndef(dims), nst = LLVMGetUndef(dims);
    for (unsigned k = 0; k < (unsigned)nd; k++) {
        nsh = LLVMBuildInsertValue(cg->b, nsh, LLVMBuildExtractValue(cg->b, sh, k, ""), k, "");
        nst = LLVMBuildInsertValue(cg->b, nst, LLVMBuildExtractValue(cg->b, st, k, ""), k, "");
    }
    out = LLVMBuildInsertValue(cg->b, out, nsh, 1, "");
    out = LLVMBuildInsertValue(cg->b, out, nst, 2, "");
    return LLVMBuildInsertValue(cg->b, out, LLVMBuildExtractValue(cg->b, bytes, 3, ""), 3, "");
}

/* The inverse, for the runtime: the bytes of the records of `arr` (type at) as a uint8 array of
 * shape (shape..., itemsize), strides (strides..., 1). */
LLVMValueRef kj_cg_record_bytes(kj_cg *cg, const kj_type *at, LLVMValueRef arr)
{
    unsigned nd = at->ndim;
    LLVMValueRef out = LLVMGetUndef(kj_cg_array_type(cg, (int)nd + 1));
    out = LLVMBuildInsertValue(cg->b, out, LLVMBuildExtractValue(cg->b, arr, 0, ""), 0, "");
    LLVMValueRef sh = LLVMBuildExtractValue(cg->b, arr, 1, ""), st = LLVMBuildExtractValue(cg->b, arr, 2, "");
    LLVMTypeRef dims = LLVMArrayType2(cg->t_i64, (uint64_t)nd + 1);
    LLVMValueRef nsh = LLVMGetUndef(dims), nst = LLVMGetUndef(dims);
    for (unsigned k = 0; k < nd; k++) {
        nsh = LLVMBuildInsertValue(cg->b, nsh, LLVMBuildExtractValue(cg->b, sh, k, ""), k, "");
        nst = LLVMBuildInsertValue(cg->b, nst, LLVMBuildExtractValue(cg->b, st, k, ""), k, "");
    }
    nsh = LLVMBuildInsertValue(cg->b, nsh, kj_cg_i64(cg, kj_record_of(at->elem)->size), nd, "");
    nst = LLVMBuildInsertValue(cg->b, nst, kj_cg_i64(cg, 1), nd, "");
    out = LLVMBuildInsertValue(cg->b, out, nsh, 1, "");
    out = LLVMBuildInsertValue(cg->b, out, nst, 2, "");
    return LLVMBuildInsertValue(cg->b, out, LLVMBuildExtractValue(cg->b, arr, 3, ""), 3, "");
}

/* A field's type as NumPy's dtype repr writes it: '<f8', 'i1', '?' */
static const char *descr_of(kj_dtype dt)
{
    const char *s = kj_dtype_descr(dt);
    return dt == KJ_DT_BOOL ? "?" : *s == '|' ? s + 1 : s;
}

/* NumPy's descr of the dtype, as its str() and repr() write it: [('x', '<f8'), ('y', '<i4')], or the dict
 * form of an aligned dtype. */
const char *kj_cg_record_descr(kj_cg *cg, const kj_type *rec)
{
    const kj_recdesc *d = kj_record_of(rec);
    kj_buf r = {0};
    if (!d->aligned) {
        kj_buf_putc(&r, '[');
        for (uint32_t i = 0; i < d->n; i++)
            kj_buf_printf(&r, "%s('%s', '%s')", i ? ", " : "", d->names[i], descr_of((kj_dtype)kj_cg_dtype(d->types[i])));
        kj_buf_putc(&r, ']');
    } else {
        kj_buf_puts(&r, "{'names': [");
        for (uint32_t i = 0; i < d->n; i++) kj_buf_printf(&r, "%s'%s'", i ? ", " : "", d->names[i]);
        kj_buf_puts(&r, "], 'formats': [");
        for (uint32_t i = 0; i < d->n; i++)
            kj_buf_printf(&r, "%s'%s'", i ? ", " : "", descr_of((kj_dtype)kj_cg_dtype(d->types[i])));
        kj_buf_puts(&r, "], 'offsets': [");
        for (uint32_t i = 0; i < d->n; i++) kj_buf_printf(&r, "%s%u", i ? ", " : "", d->offsets[i]);
        kj_buf_printf(&r, "], 'itemsize': %u, 'aligned': True}", d->size);
    }
    char *out = kj_arena_strdup(cg->a, r.s);
    kj_buf_free(&r);
    return out;
}

/* "DT:OFF,..." (each field's kj_dtype and offset) and the descr, for the runtime's printer */
static void layout_strings(kj_cg *cg, const kj_type *rec, LLVMValueRef *spec, LLVMValueRef *descr)
{
    const kj_recdesc *d = kj_record_of(rec);
    kj_buf s = {0};
    for (uint32_t i = 0; i < d->n; i++)
        kj_buf_printf(&s, "%s%d:%u", i ? "," : "", kj_cg_dtype(d->types[i]), d->offsets[i]);
    *spec = kj_cg_cstr(cg, s.s);
    *descr = kj_cg_cstr(cg, kj_cg_record_descr(cg, rec));
    kj_buf_free(&s);
}

/* print of a record (t) or an array of them; repr inside a tuple or list */
void kj_cg_print_record(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool repr)
{
    bool arr = t->kind == KJ_T_ARRAY;
    LLVMValueRef spec, descr;
    layout_strings(cg, arr ? t->elem : t, &spec, &descr);
    LLVMValueRef a[6] = {cg->fn->rt, arr ? kj_cg_spill(cg, v) : v, kj_cg_i32(cg, arr ? t->ndim : 0), spec, descr,
                         kj_cg_i32(cg, repr)};
    kj_cg_rtcall(cg, KJ_RTF_PRINT_RECORDS, a, 6);
}

/* cuda.to_device(record) → numba-cuda's DeviceRecord, and its copy_to_host(): a copy of the bytes
 * (record.c). Host memory: on the cpu targets, where kernels run on the host. */
LLVMValueRef kj_cg_record_copy(kj_cg *cg, const kir_inst *in, bool gpu)
{
    if (gpu) {
        kj_cg_fail(cg, in->span, "a record on the GPU by itself (cuda.to_device(record), numba-cuda's DeviceRecord) "
                                 "is supported on --target cpu and parallel only; pass an array of records");
        return LLVMConstNull(cg->t_ptr);
    }
    LLVMValueRef a[3] = {cg->fn->rt, kj_cg_val(cg, in->args[0]), kj_cg_i64(cg, kj_record_of(in->type)->size)};
    return kj_cg_rtcall(cg, KJ_RTF_RECORD_COPY, a, 3);
}
