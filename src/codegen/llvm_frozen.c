/* SPDX-License-Identifier: BSD-2-Clause */
/* llvm_frozen — a frozen module-level array (KIR CONST_ARRAY,
 * resolve_frozen.c): its elements become a global of the module, one per
 * name, and the value is a C-contiguous array over it with no owner; on
 * the GPU in global memory (address space 1), read through a generic
 * pointer. The global is writable data, not a constant: compiled code
 * cannot write it (typing refuses a direct store, kir_readonly.c one through
 * another name, as Numba's read-only array type does), but host code (main,
 * helpers: Python) is not checked; such a store must land somewhere
 * defined, not in read-only memory (a fault) nor be folded away by the
 * optimiser (a lost write).
 *
 * Module slots (MODULE_GET/SET, resolve_modslot.c) are read through the
 * run context on the host and from a global the runtime fills on the GPU. */
#include "codegen.h"

#include "../abi/abi.h"

#include <stdio.h>
#include <stdlib.h>

enum { ADDR_GLOBAL = 1 };

static LLVMValueRef initializer(const kj_type *elem, const kir_frozen *fz, LLVMTypeRef ety)
{
    LLVMValueRef *v = malloc((fz->n ? fz->n : 1) * sizeof *v);
    if (!v) return NULL;
    for (uint64_t k = 0; k < fz->n; k++)
        v[k] = elem->kind == KJ_T_FLOAT ? LLVMConstReal(ety, fz->f[k])
                                        : LLVMConstInt(ety, (unsigned long long)fz->i[k], elem->is_signed);
    LLVMValueRef init = LLVMConstArray2(ety, v, fz->n);
    free(v);
    return init;
}

/* The global holding a frozen array's elements, made once per name and
 * address space: `as` 0 (host), 1 (GPU global memory) or 4 (the GPU's
 * constant bank, cuda.const.array_like: llvm_cuda_const.c). */
static LLVMValueRef global_of(kj_cg *cg, const kir_inst *in, unsigned as)
{
    const kir_frozen *fz = in->frozen;
    char name[256];
    snprintf(name, sizeof name, "%s_%s", as == KJ_CG_ADDR_CONST ? "kjit_const" : "kjit_frozen", fz->name);
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
    if (g) return g;
    LLVMTypeRef ety = kj_cg_memtype(cg, in->type->elem), aty = LLVMArrayType2(ety, fz->n);
    LLVMValueRef init = initializer(in->type->elem, fz, ety);
    if (!init) {
        kj_cg_fail(cg, in->span, "out of memory freezing '%s'", fz->name);
        return NULL;
    }
    g = LLVMAddGlobalInAddressSpace(cg->mod, aty, name, as);
    LLVMSetInitializer(g, init);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, 16);
    if (as == KJ_CG_ADDR_CONST) LLVMSetGlobalConstant(g, 1);
    return g;
}

LLVMValueRef kj_cg_frozen_array_in(kj_cg *cg, const kir_inst *in, unsigned as)
{
    LLVMValueRef g = global_of(cg, in, as);
    if (!g) return LLVMGetUndef(kj_cg_type(cg, in->type));
    LLVMValueRef data = as ? LLVMBuildAddrSpaceCast(cg->b, g, cg->t_ptr, "") : g;
    LLVMValueRef dims[4];
    for (unsigned k = 0; k < in->type->ndim && k < 4; k++) dims[k] = kj_cg_i64(cg, in->frozen->shape[k]);
    return kj_cg_c_array(cg, in->type, data, dims);
}

LLVMValueRef kj_cg_frozen_array(kj_cg *cg, const kir_inst *in)
{
    return kj_cg_frozen_array_in(cg, in, cg->tgt == &kj_target_nvptx ? ADDR_GLOBAL : 0);
}

/* A script's module slot (rt_modslot.c): the storage of slot `index` in the
 * run's context, made when <module> binds it (set) or read, which raises
 * NameError while unbound. */
static LLVMValueRef slot_ptr(kj_cg *cg, const kir_inst *in, LLVMValueRef owner, bool set)
{
    LLVMValueRef a[7] = {cg->fn->rt, kj_cg_i32(cg, in->frozen->slot_index), kj_cg_i32(cg, set),
                         owner ? owner : LLVMConstNull(cg->t_ptr), kj_cg_cstr(cg, in->frozen->name),
                         kj_cg_i32(cg, in->span.line), kj_cg_i32(cg, in->span.col)};
    return kj_cg_rtcall(cg, KJ_RTF_MODULE_SLOT, a, 7);
}

/* On the GPU there is no run context: a kernel reads the slot from the
 * module's global KJ_ABI_GPU_SLOT + name (abi.h kj_abi_slot), which the
 * runtime writes before each launch of a kernel that reads it (the slots
 * are listed in its descriptor: kir_slot_reads). Zero-initialised and
 * externally visible, so that the driver finds it and LLVM assumes
 * nothing of its value; the loads are invariant (nothing writes it while a
 * kernel runs), so LLVM may hoist them out of loops. */
static LLVMValueRef gpu_slot_get(kj_cg *cg, const kir_inst *in)
{
    char name[256];
    snprintf(name, sizeof name, KJ_ABI_GPU_SLOT "%s", in->frozen->name);
    LLVMTypeRef mt = kj_cg_memtype(cg, in->type);
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
    if (!g) {
        g = LLVMAddGlobalInAddressSpace(cg->mod, mt, name, ADDR_GLOBAL);
        LLVMSetInitializer(g, LLVMConstNull(mt));
        LLVMSetAlignment(g, 8);
    }
    LLVMValueRef v = LLVMBuildLoad2(cg->b, mt, g, in->frozen->name);
    unsigned kind = LLVMGetMDKindIDInContext(cg->ctx, "invariant.load", 14);
    LLVMSetMetadata(v, kind, LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, NULL, 0)));
    return kj_cg_from_mem(cg, in->type, v);
}

LLVMValueRef kj_cg_module_get(kj_cg *cg, const kir_inst *in)
{
    if (cg->tgt == &kj_target_nvptx) return gpu_slot_get(cg, in);
    LLVMValueRef p = slot_ptr(cg, in, NULL, false);
    if (!p) return LLVMGetUndef(kj_cg_type(cg, in->type));
    return kj_cg_from_mem(cg, in->type, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, in->type), p, in->frozen->name));
}

void kj_cg_module_set(kj_cg *cg, const kir_inst *in)
{
    const kj_type *t = cg->fn->kf->insts[in->a].type;
    LLVMValueRef v = kj_cg_val(cg, in->a), owner = NULL;
    if (cg->tgt == &kj_target_nvptx) { /* only <module> and host functions bind slots */
        kj_cg_fail(cg, in->span, "'%s': GPU code cannot bind a module-level name", in->frozen->name);
        return;
    }
    if (t->kind == KJ_T_ARRAY) kj_cg_owners(cg, t, v, &owner, 0, 1);
    LLVMValueRef p = slot_ptr(cg, in, owner, true);
    if (p) LLVMBuildStore(cg->b, kj_cg_to_mem(cg, t, v), p);
}
