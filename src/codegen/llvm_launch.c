/* SPDX-License-Identifier: BSD-2-Clause */
/* Kernel launches in host code, the same on every target.
 *
 * `k[grid, block, stream, shared](args)` becomes one call of the runtime's
 * launch entry (abi.h "kernels"):
 *
 *     kj_rt_launch(rt, &K.kernel, cfg, args, line, col)
 *
 * `K.kernel` is a constant kj_abi_kernel: the kernel's name, its PTX entry
 * (the mangled name), its parameters as the GPU receives them and, on the
 * cpu target, `K.block_entry` (llvm_kernel.c), which runs one block. The
 * runtime checks the configuration, then loops over the blocks on the host
 * or launches on the GPU: host code never knows which. */
#include "codegen.h"

#include "../abi/abi.h"
#include "../ir/builtins.h"
#include "../ir/kir_gpu_ufunc.h"

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

/* How leaf t of parameter j of kernel k reaches the GPU (an array inside a
 * tuple counts as written: the read-only analysis is per parameter). */
static kj_abi_param param_of(kj_cg *cg, const kir_func *k, uint32_t j, const kj_type *t)
{
    if (t->kind == KJ_T_ARRAY) {
        bool ro = k->params[j] == t && kir_param_read_only(k, j);
        int32_t kind = ro ? KJ_ABI_PARAM_ARRAY_READ : KJ_ABI_PARAM_ARRAY;
        /* records: their bytes (llvm_record.c), whose fields need no alignment */
        int32_t dt = kj_record_of(t->elem) ? KJ_DT_UINT8 : kj_cg_dtype(t->elem);
        return (kj_abi_param){kind, (int32_t)t->ndim, 0, dt};
    }
    int32_t size = (int32_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, t));
    bool scalar = t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT || t->kind == KJ_T_BOOL;
    return (kj_abi_param){KJ_ABI_PARAM_SCALAR, 0, size, scalar ? kj_cg_dtype(t) : -1};
}

static LLVMValueRef i32c(kj_cg *cg, int32_t v) { return LLVMConstInt(cg->t_i32, (unsigned long long)v, 1); }

/* The module slots k reads (abi.h kj_abi_slot): a constant array, or null. */
static LLVMValueRef slots_desc(kj_cg *cg, const kir_func *k, uint32_t *n)
{
    const kir_inst **get;
    *n = kir_slot_reads(k, cg->a, &get);
    if (!*n) return LLVMConstNull(cg->t_ptr);
    LLVMTypeRef sf[5] = {cg->t_ptr, cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i32};
    LLVMTypeRef sty = LLVMStructTypeInContext(cg->ctx, sf, 5, 0);
    LLVMValueRef *v = KJ_NEWN(cg->a, LLVMValueRef, *n);
    for (uint32_t j = 0; j < *n; j++) {
        const kj_type *t = get[j]->type;
        int32_t ndim = t->kind == KJ_T_ARRAY ? (int32_t)t->ndim : 0;
        int32_t size = (int32_t)LLVMABISizeOfType(cg->td, kj_cg_memtype(cg, t));
        LLVMValueRef f[5] = {kj_cg_cstr(cg, get[j]->frozen->name), i32c(cg, (int32_t)get[j]->frozen->slot_index),
                             i32c(cg, ndim), i32c(cg, size), i32c(cg, 0)};
        v[j] = LLVMConstNamedStruct(sty, f, 5);
    }
    LLVMValueRef init = LLVMConstArray2(sty, v, *n);
    LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), kj_arena_printf(cg->a, "%s.slots", k->mangled));
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* The constant kj_abi_kernel of kernel specialisation k, made once. */
static LLVMValueRef kernel_desc(kj_cg *cg, const kir_func *k)
{
    const char *gname = kj_arena_printf(cg->a, "%s.kernel", k->mangled);
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, gname);
    if (g) return g;
    LLVMTypeRef pf[4] = {cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i32};
    LLVMTypeRef pty = LLVMStructTypeInContext(cg->ctx, pf, 4, 0);
    uint32_t nl, *owner;
    const kj_type **leaf = kj_kargs_leaf_types(cg, k, &nl, &owner);
    LLVMValueRef *ps = KJ_NEWN(cg->a, LLVMValueRef, nl + 1);
    for (uint32_t j = 0; j < nl; j++) {
        kj_abi_param p = param_of(cg, k, owner[j], leaf[j]);
        LLVMValueRef f[4] = {i32c(cg, p.kind), i32c(cg, p.ndim), i32c(cg, p.size), i32c(cg, p.dtype)};
        ps[j] = LLVMConstNamedStruct(pty, f, 4);
    }
    LLVMValueRef params = LLVMConstNull(cg->t_ptr);
    if (nl) {
        LLVMValueRef init = LLVMConstArray2(pty, ps, nl);
        params = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), kj_arena_printf(cg->a, "%s.params", k->mangled));
        LLVMSetInitializer(params, init);
        LLVMSetGlobalConstant(params, 1);
        LLVMSetLinkage(params, LLVMPrivateLinkage);
    }
    LLVMValueRef block = LLVMGetNamedFunction(cg->mod, kj_arena_printf(cg->a, "%s.block_entry", k->mangled));
    uint32_t nslots;
    LLVMValueRef slots = slots_desc(cg, k, &nslots);
    LLVMTypeRef kf[13] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i32, cg->t_i32, cg->t_ptr, cg->t_i64, cg->t_i32,
                          cg->t_i32, cg->t_i32, cg->t_ptr, cg->t_ptr, cg->t_i32};
    LLVMTypeRef kty = LLVMStructTypeInContext(cg->ctx, kf, 13, 0);
    LLVMValueRef v[13] = {kj_cg_cstr(cg, k->name), kj_cg_cstr(cg, kj_ptx_symbol(cg->a, k->mangled)),
                          block ? block : LLVMConstNull(cg->t_ptr), i32c(cg, (int32_t)nl),
                          i32c(cg, cg->run->parallel_blocks), params,
                          kj_cg_i64(cg, block ? kj_codegen_kernel_static_shared(k) : 0),
                          i32c(cg, kj_cg_uses_grid_sync(k)), i32c(cg, k->layout_perm), i32c(cg, (int32_t)nslots),
                          slots,
                          k->index32 && !block ? kj_cg_cstr(cg, kj_ptx_symbol32(cg->a, k->mangled))
                                               : LLVMConstNull(cg->t_ptr),
                          i32c(cg, k->regroup && block)};
    g = LLVMAddGlobal(cg->mod, kty, gname);
    LLVMSetInitializer(g, LLVMConstStructInContext(cg->ctx, v, 13, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

LLVMValueRef kj_cg_kernel_desc(kj_cg *cg, const kir_func *k) { return kernel_desc(cg, k); }

/* Launch configuration value k (0..7) as i64; absent ones are 0. The
 * stream (k = 6) is a cuda.stream() handle (its address; NULL, the default
 * stream, on the host) or 0, Numba's spelling of the default stream. */
static LLVMValueRef cfg_value(kj_cg *cg, const kir_inst *in, unsigned k)
{
    kir_ref r = k < in->nargs ? in->args[k] : 0;
    if (!r) return kj_cg_i64(cg, 0);
    const kj_type *t = cg->fn->kf->insts[r].type;
    if (t && t->kind == KJ_T_OPAQUE) return LLVMBuildPtrToInt(cg->b, kj_cg_val(cg, r), cg->t_i64, "stream");
    if (!t || t->kind != KJ_T_INT) return kj_cg_i64(cg, 0);
    return kj_cg_cast(cg, kj_cg_val(cg, r), t, &T_I64);
}

void kj_cg_launch_kernel(kj_cg *cg, const kir_func *k, const LLVMValueRef *cfgv, const LLVMValueRef *vals,
                         const kir_inst *at)
{
    LLVMTypeRef ct = LLVMArrayType2(cg->t_i64, 8);
    LLVMValueRef cfg = kj_cg_alloca(cg, ct, "launch");
    for (unsigned j = 0; j < 8; j++) {
        LLVMValueRef idx[2] = {kj_cg_i32(cg, 0), kj_cg_i32(cg, j)};
        LLVMBuildStore(cg->b, cfgv[j], LLVMBuildInBoundsGEP2(cg->b, ct, cfg, idx, 2, ""));
    }
    uint32_t n = 0, nl;
    const kj_type **leaf = kj_kargs_leaf_types(cg, k, &nl, NULL);
    LLVMValueRef *lv = KJ_NEWN(cg->a, LLVMValueRef, nl + 1);
    for (uint32_t j = 0; j < k->nparams; j++) kj_kargs_split(cg, k->params[j], vals[j], lv, &n);
    LLVMTypeRef aty = LLVMArrayType2(cg->t_ptr, n ? n : 1);
    LLVMValueRef args = kj_cg_alloca(cg, aty, "args");
    for (uint32_t j = 0; j < n; j++) {
        LLVMValueRef p = kj_cg_spill(cg, kj_cg_to_mem(cg, leaf[j], lv[j]));
        LLVMValueRef idx[2] = {kj_cg_i32(cg, 0), kj_cg_i32(cg, (int64_t)j)};
        LLVMBuildStore(cg->b, p, LLVMBuildInBoundsGEP2(cg->b, aty, args, idx, 2, ""));
    }
    LLVMValueRef a[6] = {cg->fn->rt, kernel_desc(cg, k), cfg, args, kj_cg_line(cg, at), kj_cg_col(cg, at)};
    kj_cg_rtcall(cg, KJ_RTF_LAUNCH, a, 6);
}

/* LAUNCH kernel[grid x y z, block x y z, stream, shared](args) */
void kj_cg_launch(kj_cg *cg, const kir_inst *in)
{
    const kir_func *k = in->fn;
    if (!k || k->kind != KIR_FN_KERNEL || cg->fn->kx || in->nargs != 8 + k->nparams) {
        kj_cg_fail(cg, in->span, "launch of '%s' is not supported here", k ? k->name : "?");
        return;
    }
    LLVMValueRef cfg[8], *vals = KJ_NEWN(cg->a, LLVMValueRef, k->nparams + 1);
    for (unsigned j = 0; j < 8; j++) cfg[j] = cfg_value(cg, in, j);
    /* arguments are already of the parameters' types, or arrays of another
     * layout, which have the same form */
    for (uint32_t j = 0; j < k->nparams; j++) {
        vals[j] = kj_cg_val(cg, in->args[8 + j]);
    }
    kj_cg_launch_kernel(cg, k, cfg, vals, in);
}

/* ---- lazy coherence (gpu.h): host code's array accesses ----
 *
 * With kernels on the GPU, host code calls kj_rt_host_access before an
 * instruction reads or writes array data, so that a copy the GPU made
 * stale comes back only when host code needs it. Instructions that only
 * move descriptors (locals, tuples, views, launches, shapes) need none. */

static bool reads_only(const kir_inst *in)
{
    switch ((kir_op)in->op) {
    case KIR_ARRAY_LOAD: case KIR_ADD: case KIR_SUB: case KIR_MUL: case KIR_DIV: case KIR_FLOORDIV:
    case KIR_MOD: case KIR_POW: case KIR_AND: case KIR_OR: case KIR_XOR: case KIR_SHL: case KIR_SHR:
    case KIR_NEG: case KIR_NOT: case KIR_INVERT: case KIR_EQ: case KIR_NE: case KIR_LT: case KIR_LE:
    case KIR_GT: case KIR_GE:
        return true;
    case KIR_BUILTIN: return kj_builtin_has(in->aux, KJ_BF_READS);
    default: return false;
    }
}

static bool touches_data(const kir_inst *in)
{
    if (kir_launches(in)) return false; /* the runtime keeps a launch's arrays coherent */
    /* A host function kjit compiled checks its own accesses (and its
     * launches keep their arrays coherent): checking its array arguments
     * here too would download a device array before every call of a helper
     * that launches on it, and upload it again at the next launch. */
    if (in->op == KIR_CALL) return false;
    switch ((kir_op)in->op) {
    case KIR_LOCAL_GET: case KIR_LOCAL_SET: case KIR_PARAM: case KIR_TUPLE: case KIR_TUPLE_GET:
    case KIR_ARRAY_DIM: case KIR_ARRAY_VIEW: case KIR_LAUNCH: case KIR_RETURN: case KIR_SELECT:
        return false;
    case KIR_CAST: /* an array to another layout of it: the same descriptor (was a write: a re-upload) */
        return !in->type || in->type->kind != KJ_T_ARRAY;
    case KIR_BUILTIN:
        if (kj_builtin_has(in->aux, KJ_BF_SHAPE | KJ_BF_VIEW)) return false; /* a view, as ARRAY_VIEW */
        /* the runtime keeps the coherence of these: copies between the sides, and MPI buffers
         * (rt_mpi.c, which may use the device copy) */
        if (in->aux == KJ_B_CUDA_TO_DEVICE || in->aux == KJ_B_ARR_COPY_TO_HOST || in->aux == KJ_B_ARR_COPY_TO_DEVICE ||
            in->aux == KJ_B_KJIT_ON_DEVICE || in->aux == KJ_B_KJIT_GPU_MATMUL)
            return false;
        return !kj_builtin_has(in->aux, KJ_BF_MPI);
    default: return true;
    }
}

static void access(kj_cg *cg, const kir_inst *in, kir_ref r, LLVMValueRef write)
{
    const kj_type *t = r ? cg->fn->kf->insts[r].type : NULL;
    if (!t || t->kind != KJ_T_ARRAY) return;
    LLVMValueRef owner = LLVMBuildExtractValue(cg->b, kj_cg_val(cg, r), 3, "owner");
    LLVMValueRef a[5] = {cg->fn->rt, owner, write, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_HOST_ACCESS, a, 5);
}

void kj_cg_host_access(kj_cg *cg, const kir_inst *in)
{
    if (cg->fn->kx || cg->fn->quiet_access || !touches_data(in)) return;
    LLVMValueRef write = kj_cg_i32(cg, !reads_only(in));
    access(cg, in, in->a, write);
    if (in->op != KIR_ARRAY_STORE) access(cg, in, in->b, write); /* a store's b is the value */
    access(cg, in, in->c, write);
    for (uint32_t k = 0; k < in->nargs; k++) access(cg, in, in->args[k], write);
}

/* ---- checks hoisted out of loops ----
 *
 * A host copy goes stale only when a kernel runs. In a loop that cannot
 * launch one (no launch in it, nor in what it calls), every array the loop
 * reads was either current when the loop began or is made inside it, so
 * the checks are made once before the loop instead of at every access:
 * per element they would cost a call each (40× on a host loop), and stop
 * LLVM from vectorising. */

typedef struct fn_stack {
    const kir_func *f;
    const struct fn_stack *up;
} fn_stack;

static bool block_may_launch(const kir_func *f, kir_blkid b, const fn_stack *st);

static bool func_may_launch(const kir_func *f, const fn_stack *st)
{
    for (const fn_stack *s = st; s; s = s->up)
        if (s->f == f) return false; /* a cycle adds no launch */
    fn_stack here = {f, st};
    return block_may_launch(f, 0, &here);
}

static bool block_may_launch(const kir_func *f, kir_blkid b, const fn_stack *st)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        const kir_inst *in = &f->insts[blk->v[k]];
        if (kir_launches(in)) return true;
        /* cuda.to_device makes an array whose host copy is stale, as a launch does, and
         * so do an MPI receive into a device-resident buffer (rt_mpi.c) and a product of
         * device arrays (kir_matmul_gpu.c: checks hoisted before the loop would bring
         * its operands back first) */
        if (in->op == KIR_BUILTIN && (in->aux == KJ_B_CUDA_TO_DEVICE || in->aux == KJ_B_KJIT_GPU_MATMUL ||
                                      kj_builtin_has(in->aux, KJ_BF_MPI)))
            return true;
        if (in->op == KIR_CALL && in->fn && !kj_cg_device_side(in->fn) && func_may_launch(in->fn, st)) return true;
        if ((in->op == KIR_IF || in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR) &&
            block_may_launch(f, in->blk[0], st))
            return true;
        if (in->op == KIR_IF && in->blk[1] && block_may_launch(f, in->blk[1], st)) return true;
    }
    return false;
}

/* Mark the instructions of block b (and nested blocks) as inside. */
static void mark_inside(const kir_func *f, kir_blkid b, bool *inside)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        const kir_inst *in = &f->insts[blk->v[k]];
        inside[blk->v[k]] = true;
        if (in->op == KIR_IF || in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR) {
            mark_inside(f, in->blk[0], inside);
            if (in->op == KIR_IF && in->blk[1]) mark_inside(f, in->blk[1], inside);
        }
    }
}

static bool has_array_operand(const kir_func *f, const kir_inst *in)
{
    kir_ref ops[3] = {in->a, in->op == KIR_ARRAY_STORE ? 0 : in->b, in->c};
    for (unsigned k = 0; k < 3; k++)
        if (ops[k] && kj_cg_type_has_array(f->insts[ops[k]].type)) return true;
    for (uint32_t k = 0; k < in->nargs; k++)
        if (in->args[k] && kj_cg_type_has_array(f->insts[in->args[k]].type)) return true;
    return false;
}

/* Check every array held by v (of type t) now. */
static void access_value(kj_cg *cg, const kir_inst *at, const kj_type *t, LLVMValueRef v, LLVMValueRef write)
{
    enum { MAX = 16 };
    LLVMValueRef own[MAX];
    unsigned n = kj_cg_owners(cg, t, v, own, 0, MAX);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef a[5] = {cg->fn->rt, own[k], write, kj_cg_line(cg, at), kj_cg_col(cg, at)};
        kj_cg_rtcall(cg, KJ_RTF_HOST_ACCESS, a, 5);
    }
}

/* What the checks before a loop must cover: per local and per value made
 * outside the loop, ACC_READ / ACC_WRITE when an instruction of the loop
 * that touches array data reads or writes an array that comes from it. */
enum { ACC_READ = 1, ACC_WRITE = 2 };

typedef struct hoist {
    const kir_func *f;
    const bool *inside;
    uint8_t *local, *value;
    bool opaque; /* some array's origin is not known: check every array the loop uses */
} hoist;

/* Mark where array value r comes from, through views, tuples and selects. */
static void mark_origin(hoist *h, kir_ref r, uint8_t acc, int depth)
{
    if (!r || !kj_cg_type_has_array(h->f->insts[r].type)) return;
    const kir_inst *in = &h->f->insts[r];
    if (!h->inside[r] || in->op == KIR_PARAM) {
        h->value[r] |= acc;
        return;
    }
    if (depth > 32) {
        h->opaque = true;
        return;
    }
    switch ((kir_op)in->op) {
    case KIR_LOCAL_GET: h->local[in->i] |= acc; return;
    case KIR_ARRAY_VIEW: case KIR_TUPLE_GET: mark_origin(h, in->a, acc, depth + 1); return;
    case KIR_SELECT: mark_origin(h, in->b, acc, depth + 1), mark_origin(h, in->c, acc, depth + 1); return;
    case KIR_TUPLE:
        for (uint32_t k = 0; k < in->nargs; k++) mark_origin(h, in->args[k], acc, depth + 1);
        return;
    default: h->opaque = true; /* made in the loop by a call or a builtin: it may alias anything */
    }
}

/* The conservative answer: every array local the loop reads and every
 * array value it uses from outside, written when anything is. */
static void mark_all(hoist *h, uint32_t ninsts)
{
    uint8_t acc = ACC_READ;
    for (uint32_t r = 1; r < ninsts; r++)
        if (h->inside[r] && touches_data(&h->f->insts[r]) && !reads_only(&h->f->insts[r]) &&
            has_array_operand(h->f, &h->f->insts[r]))
            acc |= ACC_WRITE;
    for (uint32_t r = 1; r < ninsts; r++) {
        if (!h->inside[r]) continue;
        const kir_inst *in = &h->f->insts[r];
        if (in->op == KIR_LOCAL_GET && kj_cg_type_has_array(h->f->locals[in->i].type)) h->local[in->i] = acc;
        kir_ref ops[3] = {in->a, in->b, in->c};
        for (unsigned k = 0; k < 3; k++)
            if (ops[k] && !h->inside[ops[k]] && in->op != KIR_LOCAL_GET && in->op != KIR_PARAM) h->value[ops[k]] = acc;
        for (uint32_t k = 0; k < in->nargs; k++)
            if (in->args[k] && !h->inside[in->args[k]]) h->value[in->args[k]] = acc;
    }
}

bool kj_cg_hoist_access(kj_cg *cg, const kir_inst *loop)
{
    const kir_func *f = cg->fn->kf;
    if (cg->fn->kx || block_may_launch(f, loop->blk[0], NULL)) return false;
    bool *inside = KJ_NEWN(cg->a, bool, f->ninsts + 1);
    hoist h = {f, inside, KJ_NEWN(cg->a, uint8_t, f->nlocals + 1), KJ_NEWN(cg->a, uint8_t, f->ninsts + 1), false};
    mark_inside(f, loop->blk[0], inside);
    for (uint32_t r = 1; r < f->ninsts && !h.opaque; r++) {
        const kir_inst *in = &f->insts[r];
        if (!inside[r]) continue;
        /* a local the loop points at another array: its accesses there
         * are not those of its value before the loop */
        if (in->op == KIR_LOCAL_SET && kj_cg_type_has_array(f->locals[in->i].type)) h.opaque = true;
        if (!touches_data(in)) continue;
        uint8_t acc = reads_only(in) ? ACC_READ : ACC_READ | ACC_WRITE;
        mark_origin(&h, in->a, acc, 0);
        if (in->op != KIR_ARRAY_STORE) mark_origin(&h, in->b, acc, 0); /* a store's b is the value */
        mark_origin(&h, in->c, acc, 0);
        for (uint32_t k = 0; k < in->nargs; k++) mark_origin(&h, in->args[k], acc, 0);
    }
    if (h.opaque) {
        memset(h.local, 0, f->nlocals + 1);
        memset(h.value, 0, f->ninsts + 1);
        mark_all(&h, f->ninsts);
    }
    for (uint32_t k = 0; k < f->nlocals; k++) {
        if (!h.local[k]) continue;
        LLVMTypeRef ty = kj_cg_type(cg, f->locals[k].type);
        access_value(cg, loop, f->locals[k].type, LLVMBuildLoad2(cg->b, ty, kj_cg_local_ptr(cg, k), ""),
                     kj_cg_i32(cg, (h.local[k] & ACC_WRITE) != 0));
    }
    for (uint32_t r = 1; r < f->ninsts; r++)
        if (h.value[r] && kj_cg_type_has_array(f->insts[r].type) && cg->fn->vals[r])
            access_value(cg, loop, f->insts[r].type, cg->fn->vals[r], kj_cg_i32(cg, (h.value[r] & ACC_WRITE) != 0));
    cg->fn->quiet_access++;
    return true;
}

void kj_cg_hoist_end(kj_cg *cg) { cg->fn->quiet_access--; }
