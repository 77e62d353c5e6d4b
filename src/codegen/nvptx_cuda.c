/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.* on the GPU: the NVPTX answers to the target table's kernel
 * questions (thread ids from the sreg intrinsics, barriers, warp
 * operations, shared memory in address space 3, local arrays, device
 * print through vprintf). The target-neutral part is llvm_cuda.c. */
#include "nvptx.h"

#include "../abi/abi.h"
#include "../ir/builtins.h"

#include <string.h>

enum { SHARED_ALIGN = 16, ADDR_SHARED = 3 };

static const kj_type T_I32 = {.kind = KJ_T_INT, .bits = 32, .is_signed = true};
static const kj_type T_U32 = {.kind = KJ_T_INT, .bits = 32, .is_signed = false};
static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

/* A call of a non-overloaded NVVM intrinsic. `convergent` calls must not
 * be moved across control flow (barriers, warp operations). */
static LLVMValueRef nvvm(kj_cg *cg, const char *name, LLVMValueRef *args, unsigned n)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(cg->mod, id, NULL, 0);
    return LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, NULL, 0), f, args, n, "");
}

LLVMValueRef kj_nvptx_sreg(kj_cg *cg, kj_sreg r, unsigned d)
{
    static const char *const reg[4] = {"tid", "ctaid", "ntid", "nctaid"};
    const char *name = kj_arena_printf(cg->a, "llvm.nvvm.read.ptx.sreg.%s.%c", reg[r], "xyz"[d]);
    return LLVMBuildZExt(cg->b, nvvm(cg, name, NULL, 0), cg->t_i64, "");
}

LLVMValueRef kj_nvptx_laneid(kj_cg *cg)
{
    return LLVMBuildZExt(cg->b, nvvm(cg, "llvm.nvvm.read.ptx.sreg.laneid", NULL, 0), cg->t_i64, "");
}

static const kj_type *arg_type(kj_cg *cg, const kir_inst *in, unsigned k)
{
    return k < in->nargs && in->args[k] ? cg->fn->kf->insts[in->args[k]].type : NULL;
}

/* Argument k as i1 (a predicate: nonzero). */
static LLVMValueRef pred(kj_cg *cg, const kir_inst *in, unsigned k)
{
    LLVMValueRef v = kj_cg_val(cg, in->args[k]);
    const kj_type *t = arg_type(cg, in, k);
    if (t->kind == KJ_T_BOOL) return v;
    if (t->kind == KJ_T_FLOAT) return LLVMBuildFCmp(cg->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

/* Argument k as i32 (a mask or lane), or `dflt` when absent. */
static LLVMValueRef u32_arg(kj_cg *cg, const kir_inst *in, unsigned k, uint32_t dflt)
{
    const kj_type *t = arg_type(cg, in, k);
    if (!t) return LLVMConstInt(cg->t_i32, dflt, 0);
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), t, &T_U32);
}

/* Under boundscheck, a warp operation whose mask leaves out the calling
 * thread is an error (undefined on the GPU; the cpu target checks the
 * same): `(mask >> laneid) & 1` tested before the operation, reported
 * through the module's error record, so that it names kernel and line. */
static void check_mask(kj_cg *cg, const kir_inst *in, LLVMValueRef mask)
{
    if (!cg->fn->kf->boundscheck) return;
    LLVMValueRef lane = nvvm(cg, "llvm.nvvm.read.ptx.sreg.laneid", NULL, 0);
    LLVMValueRef bit = LLVMBuildAnd(cg->b, LLVMBuildLShr(cg->b, mask, lane, ""), kj_cg_i32(cg, 1), "");
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)in->aux);
    const char *msg = kj_arena_printf(cg->a, "the mask of %s leaves out the calling thread", bi ? bi->path : "?");
    kj_cg_raise_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, bit, kj_cg_i32(cg, 0), ""), KJ_RT_RUNTIME, msg, in->span);
}

LLVMValueRef kj_nvptx_barrier(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef zero = kj_cg_i32(cg, 0);
    switch ((kj_builtin)in->aux) {
    case KJ_B_SYNCTHREADS: nvvm(cg, "llvm.nvvm.barrier.cta.sync.aligned.all", &zero, 1); return NULL;
    case KJ_B_GRID_SYNC: return kj_nvptx_grid_sync(cg, in);
    case KJ_B_SYNCTHREADS_COUNT: {
        LLVMValueRef a[2] = {zero, pred(cg, in, 0)};
        return kj_cg_cast(cg, nvvm(cg, "llvm.nvvm.barrier.cta.red.popc.aligned.all", a, 2), &T_I32, in->type);
    }
    default: { /* and / or */
        LLVMValueRef a[2] = {zero, pred(cg, in, 0)};
        const char *name = in->aux == KJ_B_SYNCTHREADS_AND ? "llvm.nvvm.barrier.cta.red.and.aligned.all"
                                                            : "llvm.nvvm.barrier.cta.red.or.aligned.all";
        LLVMValueRef r = LLVMBuildZExt(cg->b, nvvm(cg, name, a, 2), cg->t_i32, "");
        return kj_cg_cast(cg, r, &T_I32, in->type);
    }
    }
}

/* shfl.sync of a 32-bit value (i32 or f32). */
static LLVMValueRef shfl32(kj_cg *cg, const char *mode, LLVMValueRef mask, LLVMValueRef v, LLVMValueRef lane,
                           uint32_t c)
{
    bool f = LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMFloatTypeKind;
    const char *name = kj_arena_printf(cg->a, "llvm.nvvm.shfl.sync.%s.%s", mode, f ? "f32" : "i32");
    LLVMValueRef a[4] = {mask, v, lane, LLVMConstInt(cg->t_i32, c, 0)};
    return nvvm(cg, name, a, 4);
}

/* cuda.shfl_*_sync(mask, value, lane/delta): 64-bit values as two halves. */
static LLVMValueRef shuffle(kj_cg *cg, const kir_inst *in)
{
    static const char *const mode[] = {"idx", "up", "down", "bfly"};
    unsigned m = in->aux - KJ_B_SHFL_SYNC;
    uint32_t c = in->aux == KJ_B_SHFL_UP_SYNC ? 0 : 0x1f; /* width 32: clamp (up: none) */
    LLVMValueRef mask = u32_arg(cg, in, 0, 0xffffffffu), lane = u32_arg(cg, in, 2, 0);
    check_mask(cg, in, mask);
    LLVMValueRef v = kj_cg_val(cg, in->args[1]);
    const kj_type *t = arg_type(cg, in, 1);
    LLVMTypeRef ty = LLVMTypeOf(v);
    if (t->kind == KJ_T_BOOL) v = LLVMBuildZExt(cg->b, v, cg->t_i32, "");
    else if (t->kind == KJ_T_INT && t->bits < 32) v = kj_cg_cast(cg, v, t, &T_I32);
    unsigned bits = LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMDoubleTypeKind ? 64 : LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(LLVMTypeOf(v)) : 32;
    LLVMValueRef r;
    if (bits == 64) {
        LLVMValueRef x = LLVMBuildBitCast(cg->b, v, cg->t_i64, "");
        LLVMValueRef lo = LLVMBuildTrunc(cg->b, x, cg->t_i32, "");
        LLVMValueRef hi = LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, x, kj_cg_i64(cg, 32), ""), cg->t_i32, "");
        lo = LLVMBuildZExt(cg->b, shfl32(cg, mode[m], mask, lo, lane, c), cg->t_i64, "");
        hi = LLVMBuildZExt(cg->b, shfl32(cg, mode[m], mask, hi, lane, c), cg->t_i64, "");
        r = LLVMBuildOr(cg->b, lo, LLVMBuildShl(cg->b, hi, kj_cg_i64(cg, 32), ""), "");
        r = LLVMBuildBitCast(cg->b, r, LLVMTypeOf(v), "");
    } else {
        r = shfl32(cg, mode[m], mask, v, lane, c);
    }
    if (t->kind == KJ_T_BOOL) r = LLVMBuildTrunc(cg->b, r, ty, "");
    else if (t->kind == KJ_T_INT && t->bits < 32) r = kj_cg_cast(cg, r, &T_I32, t);
    return kj_cg_cast(cg, r, t, in->type);
}

/* cuda.match_any_sync / match_all_sync(mask, value): PTX match.any/all.sync
 * .b32/.b64 (sm_70 and later), floats compared as their bits. */
static LLVMValueRef match(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef mask = u32_arg(cg, in, 0, 0xffffffffu), v = kj_cg_val(cg, in->args[1]);
    check_mask(cg, in, mask);
    LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(v));
    if (k == LLVMFloatTypeKind) v = LLVMBuildBitCast(cg->b, v, cg->t_i32, "");
    else if (k == LLVMDoubleTypeKind) v = LLVMBuildBitCast(cg->b, v, cg->t_i64, "");
    bool wide = LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64;
    LLVMValueRef a[2] = {mask, v};
    if (in->aux == KJ_B_MATCH_ANY_SYNC)
        return kj_cg_cast(cg, nvvm(cg, wide ? "llvm.nvvm.match.any.sync.i64" : "llvm.nvvm.match.any.sync.i32", a, 2),
                          &T_U32, in->type);
    LLVMValueRef p = nvvm(cg, wide ? "llvm.nvvm.match.all.sync.i64p" : "llvm.nvvm.match.all.sync.i32p", a, 2);
    LLVMValueRef r = LLVMGetUndef(kj_cg_type(cg, in->type));
    r = LLVMBuildInsertValue(cg->b, r, LLVMBuildExtractValue(cg->b, p, 0, ""), 0, "");
    return LLVMBuildInsertValue(cg->b, r, LLVMBuildExtractValue(cg->b, p, 1, ""), 1, "");
}

LLVMValueRef kj_nvptx_warp(kj_cg *cg, const kir_inst *in)
{
    switch ((kj_builtin)in->aux) {
    case KJ_B_MATCH_ANY_SYNC: case KJ_B_MATCH_ALL_SYNC: return match(cg, in);
    case KJ_B_SYNCWARP: {
        LLVMValueRef m = u32_arg(cg, in, 0, 0xffffffffu);
        check_mask(cg, in, m);
        nvvm(cg, "llvm.nvvm.bar.warp.sync", &m, 1);
        return NULL;
    }
    case KJ_B_SHFL_SYNC: case KJ_B_SHFL_UP_SYNC: case KJ_B_SHFL_DOWN_SYNC: case KJ_B_SHFL_XOR_SYNC:
        return shuffle(cg, in);
    case KJ_B_ACTIVEMASK: return kj_cg_cast(cg, nvvm(cg, "llvm.nvvm.activemask", NULL, 0), &T_U32, in->type);
    case KJ_B_BALLOT_SYNC: {
        LLVMValueRef a[2] = {u32_arg(cg, in, 0, 0xffffffffu), pred(cg, in, 1)};
        check_mask(cg, in, a[0]);
        return kj_cg_cast(cg, nvvm(cg, "llvm.nvvm.vote.ballot.sync", a, 2), &T_U32, in->type);
    }
    default: { /* all / any / eq (uni) */
        LLVMValueRef a[2] = {u32_arg(cg, in, 0, 0xffffffffu), pred(cg, in, 1)};
        check_mask(cg, in, a[0]);
        const char *name = in->aux == KJ_B_ALL_SYNC ? "llvm.nvvm.vote.all.sync"
                         : in->aux == KJ_B_EQ_SYNC ? "llvm.nvvm.vote.uni.sync"
                                                   : "llvm.nvvm.vote.any.sync";
        LLVMValueRef r = LLVMBuildZExt(cg->b, nvvm(cg, name, a, 2), cg->t_i32, "");
        return kj_cg_cast(cg, r, &T_I32, in->type);
    }
    }
}

/* %dynamic_smem_size, the launch's dynamic shared bytes. */
static LLVMValueRef dynamic_smem_size(kj_cg *cg)
{
    LLVMTypeRef fty = LLVMFunctionType(cg->t_i32, NULL, 0, 0);
    const char *text = "mov.u32 $0, %dynamic_smem_size;";
    LLVMValueRef asm_ = LLVMGetInlineAsm(fty, (char *)text, strlen(text), "=r", 2, 0, 0, LLVMInlineAsmDialectATT, 0);
    return LLVMBuildZExt(cg->b, LLVMBuildCall2(cg->b, fty, asm_, NULL, 0, ""), cg->t_i64, "");
}

/* The name of a function's k-th static shared array: "shared_<h>_<k>", h a
 * hash (FNV-1a) of the function's name. A name of its own, rather than
 * LLVM's module-wide uniquing of "shared", keeps one kernel's PTX from
 * renumbering when another function (a runtime built-in, say) gains a
 * shared array; the hash keeps it short where function names are long. */
static const char *shared_name(kj_cg *cg, char *buf, size_t cap)
{
    size_t len = 0;
    const char *fn = LLVMGetValueName2(cg->fn->fn, &len);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)fn[i]) * 16777619u;
    snprintf(buf, cap, "shared_%08x_%u", h, cg->fn->nshared++);
    return buf;
}

/* cuda.shared.array: a global in address space 3 per array (static), or
 * the module's one extern array for dynamic shared memory (shape 0). */
LLVMValueRef kj_nvptx_shared_array(kj_cg *cg, const kir_inst *in)
{
    int64_t cd[KJ_ABI_MAX_DIMS] = {0};
    unsigned nd = in->type->ndim;
    if (!kj_cg_const_shape(cg->fn->kf, in->args[0], cd, nd)) {
        kj_cg_fail(cg, in->span, "the shape of cuda.shared.array must be a constant");
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    int64_t isz = (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, in->type->elem));
    int64_t n = kj_cg_elem_count(cd, nd);
    LLVMValueRef dims[KJ_ABI_MAX_DIMS], g;
    char name[32];
    if (n == 0) {
        g = LLVMGetNamedGlobal(cg->mod, "kjit_dynamic_shared");
        if (!g) {
            g = LLVMAddGlobalInAddressSpace(cg->mod, LLVMArrayType2(cg->t_i8, 0), "kjit_dynamic_shared", ADDR_SHARED);
            LLVMSetLinkage(g, LLVMExternalLinkage);
            LLVMSetAlignment(g, SHARED_ALIGN);
        }
        dims[0] = LLVMBuildSDiv(cg->b, dynamic_smem_size(cg), kj_cg_i64(cg, isz), "");
        for (unsigned k = 1; k < nd; k++) dims[k] = kj_cg_i64(cg, cd[k]);
    } else {
        LLVMTypeRef ty = LLVMArrayType2(cg->t_i8, (uint64_t)(n * isz));
        g = LLVMAddGlobalInAddressSpace(cg->mod, ty, shared_name(cg, name, sizeof name), ADDR_SHARED);
        LLVMSetLinkage(g, LLVMInternalLinkage);
        LLVMSetInitializer(g, LLVMGetUndef(ty));
        LLVMSetAlignment(g, SHARED_ALIGN);
        for (unsigned k = 0; k < nd; k++) dims[k] = kj_cg_i64(cg, cd[k]);
    }
    LLVMValueRef data = LLVMBuildAddrSpaceCast(cg->b, g, cg->t_ptr, "");
    return kj_cg_c_array(cg, in->type, data, dims);
}

/* cuda.local.array: per thread, zeroed where it is created (as on the
 * cpu target, so that both print the same). */
LLVMValueRef kj_nvptx_local_array(kj_cg *cg, const kir_inst *in)
{
    int64_t cd[KJ_ABI_MAX_DIMS];
    unsigned nd = in->type->ndim;
    if (!kj_cg_const_shape(cg->fn->kf, in->args[0], cd, nd)) {
        kj_cg_fail(cg, in->span, "the shape of cuda.local.array must be a constant");
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    int64_t bytes = kj_cg_elem_count(cd, nd) * (int64_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, in->type->elem));
    if (bytes < 1) bytes = 1;
    LLVMValueRef buf = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i8, (uint64_t)bytes), "local");
    LLVMSetAlignment(buf, SHARED_ALIGN);
    LLVMBuildMemSet(cg->b, buf, LLVMConstInt(cg->t_i8, 0, 0), kj_cg_i64(cg, bytes), SHARED_ALIGN);
    LLVMValueRef dims[KJ_ABI_MAX_DIMS];
    for (unsigned k = 0; k < nd; k++) dims[k] = kj_cg_i64(cg, cd[k]);
    return kj_cg_c_array(cg, in->type, buf, dims);
}

/* ---- print: one vprintf per call, so that threads' lines stay whole ---- */

typedef struct fmt {
    char s[512];
    size_t n;
} fmt;

static void put(fmt *f, const char *s, bool escape)
{
    for (; *s && f->n + 2 < sizeof f->s; s++) {
        if (escape && *s == '%') f->s[f->n++] = '%';
        f->s[f->n++] = *s;
    }
    f->s[f->n] = 0;
}

/* A constant string argument (sep=, end=, literals), or NULL. */
static const char *const_str(kj_cg *cg, kir_ref r)
{
    const kir_inst *s = r ? &cg->fn->kf->insts[r] : NULL;
    return s && s->op == KIR_CONST_STR ? s->s : NULL;
}

LLVMValueRef kj_nvptx_print(kj_cg *cg, const kir_inst *in)
{
    uint32_t n = in->nargs >= 2 ? in->nargs - 2 : 0;
    kir_ref sep = in->args[n], end = in->args[n + 1];
    const char *sep_s = sep ? const_str(cg, sep) : " ", *end_s = end ? const_str(cg, end) : "\n";
    if (!sep_s || !end_s) {
        kj_cg_fail(cg, in->span, "print() in GPU code needs constant sep= and end= strings");
        return kj_cg_zero(cg, in->type);
    }
    fmt f = {{0}, 0};
    LLVMValueRef *vals = KJ_NEWN(cg->a, LLVMValueRef, n + 1);
    unsigned nv = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (k) put(&f, sep_s, true);
        const kj_type *t = arg_type(cg, in, k);
        const char *lit = const_str(cg, in->args[k]);
        LLVMValueRef v = kj_cg_val(cg, in->args[k]);
        if (lit) {
            put(&f, lit, true);
        } else if (t->kind == KJ_T_BOOL) {
            put(&f, "%s", false);
            LLVMValueRef yes = kj_cg_cstr(cg, "True"), no = kj_cg_cstr(cg, "False"); /* in this order */
            vals[nv++] = LLVMBuildSelect(cg->b, v, yes, no, "");
        } else if (t->kind == KJ_T_INT) {
            put(&f, t->is_signed ? "%lld" : "%llu", false);
            vals[nv++] = kj_cg_cast(cg, v, t, &T_I64);
        } else if (t->kind == KJ_T_FLOAT) {
            /* vprintf has no shortest round-trip form: %f, as numba-cuda prints */
            put(&f, "%f", false);
            vals[nv++] = t->bits == 32 ? LLVMBuildFPExt(cg->b, v, cg->t_f64, "") : v;
        } else if (t->kind == KJ_T_STR) {
            put(&f, "%s", false);
            vals[nv++] = v;
        } else {
            kj_cg_fail(cg, in->span, "print() in GPU code cannot print a value of type %s", kj_type_str(t));
            return kj_cg_zero(cg, in->type);
        }
    }
    put(&f, end_s, true);
    LLVMTypeRef *tys = KJ_NEWN(cg->a, LLVMTypeRef, nv + 1);
    for (unsigned k = 0; k < nv; k++) tys[k] = LLVMTypeOf(vals[k]);
    LLVMTypeRef st = LLVMStructTypeInContext(cg->ctx, tys, nv, 0);
    LLVMValueRef buf = nv ? kj_cg_alloca(cg, st, "printf.args") : LLVMConstNull(cg->t_ptr);
    for (unsigned k = 0; k < nv; k++) LLVMBuildStore(cg->b, vals[k], LLVMBuildStructGEP2(cg->b, st, buf, k, ""));
    LLVMValueRef vp = LLVMGetNamedFunction(cg->mod, "vprintf");
    LLVMTypeRef pt[2] = {cg->t_ptr, cg->t_ptr};
    LLVMTypeRef fty = LLVMFunctionType(cg->t_i32, pt, 2, 0);
    if (!vp) vp = LLVMAddFunction(cg->mod, "vprintf", fty);
    LLVMValueRef a[2] = {kj_cg_cstr(cg, f.s), buf};
    LLVMBuildCall2(cg->b, fty, vp, a, 2, "");
    return kj_cg_zero(cg, in->type);
}
