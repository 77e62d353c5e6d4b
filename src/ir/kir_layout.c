/* SPDX-License-Identifier: BSD-2-Clause */
/* Thread-layout specialisation (kir_layout.h; docs/cuda.md "Thread
 * layout").
 *
 * Only x and y are ever swapped: the launch runs block (by, bx, bz), and
 * the kernel reads threadIdx.x, blockDim.x from the physical y (and y from
 * x). Logical thread (blockIdx, threadIdx) is then physical thread
 * (blockIdx, swap(threadIdx)): a bijection that keeps every block's threads
 * together, so barriers and shared memory mean what they meant. Swapping x
 * and y of a block can never break CUDA's limits (1024 each); moving z
 * could (64), which is why it is not permuted. On the GPU the grid is
 * swapped as well when its new y fits (abi.h, kj_abi_launch_phys; the
 * kernel's blockIdx/gridDim reads follow, llvm_cuda.c), so that
 * consecutive blocks walk the contiguous dimension too.
 *
 * Which dimension walks the contiguous one comes from a small abstract
 * interpretation of the index expressions: for every value, the thread
 * dimensions it depends on (`dep`), and those it is "unit" in — the value
 * is t_d + (something not depending on t_d), or minus that, so that
 * neighbouring threads in d touch neighbouring elements. Locals merge all
 * their assignments (flow-insensitive), iterated a few times for loops. */
#include "kir_layout.h"

#include "../abi/abi.h"
#include "builtins.h"

#include <string.h>

enum { ALL_DIMS = 7, PASSES = 3, MAX_DEPTH = 8 };

typedef struct lay {
    const kir_func *f;
    uint8_t *dep, *unit;     /* per instruction */
    uint8_t *ldep, *lunit;   /* per local, from the previous pass */
    uint8_t *ndep, *nunit;   /* per local, being made by this pass */
    bool *nset;
} lay;

static bool is_const(const kir_func *f, kir_ref r, int64_t v)
{
    return r && f->insts[r].op == KIR_CONST_INT && f->insts[r].i == v;
}

/* A local assigned value (dep, unit) in this pass. */
static void local_merge(lay *L, uint32_t k, uint8_t dep, uint8_t unit)
{
    if (k >= L->f->nlocals) return;
    L->ndep[k] |= dep;
    L->nunit[k] = L->nset[k] ? (uint8_t)(L->nunit[k] & unit) : unit;
    L->nset[k] = true;
}

/* Element k of tuple value r, when r's elements are known. */
static void tuple_elem(lay *L, kir_ref r, int64_t k, uint8_t *dep, uint8_t *unit)
{
    const kir_inst *t = &L->f->insts[r];
    if (t->op == KIR_BUILTIN && t->aux == KJ_B_CUDA_GRID && k >= 0 && k < 3) {
        *dep = *unit = (uint8_t)(1u << k);
        return;
    }
    if (t->op == KIR_TUPLE && k >= 0 && (uint64_t)k < t->nargs) {
        *dep = L->dep[t->args[k]];
        *unit = L->unit[t->args[k]];
        return;
    }
    *dep = L->dep[r];
    *unit = 0;
}

static uint8_t operand_deps(const lay *L, const kir_inst *in)
{
    uint8_t d = (uint8_t)(L->dep[in->a] | L->dep[in->b] | L->dep[in->c]);
    for (uint32_t k = 0; k < in->nargs; k++) d |= L->dep[in->args[k]];
    return d;
}

/* dep and unit of instruction r, from its operands. */
static void eval(lay *L, kir_ref r)
{
    const kir_func *f = L->f;
    const kir_inst *in = &f->insts[r];
    uint8_t da = L->dep[in->a], ua = L->unit[in->a], db = L->dep[in->b], ub = L->unit[in->b];
    uint8_t dep = operand_deps(L, in), unit = 0;
    switch (in->op) {
    case KIR_BUILTIN:
        if (in->aux >= KJ_B_TID_X && in->aux <= KJ_B_TID_Z) dep = unit = (uint8_t)(1u << (in->aux - KJ_B_TID_X));
        else if (in->aux == KJ_B_CUDA_GRID) {
            const kir_inst *n = in->nargs ? &f->insts[in->args[0]] : NULL;
            int nd = n && n->op == KIR_CONST_INT && n->i >= 1 && n->i <= 3 ? (int)n->i : 1;
            dep = (uint8_t)((1u << nd) - 1);
            unit = nd == 1 ? 1 : 0; /* a tuple's elements: tuple_elem */
        }
        break;
    case KIR_TUPLE_GET: tuple_elem(L, in->a, in->i, &dep, &unit); break;
    case KIR_LOCAL_GET:
        if ((uint64_t)in->i < f->nlocals) dep = L->ldep[in->i], unit = L->lunit[in->i];
        break;
    case KIR_LOCAL_SET: local_merge(L, (uint32_t)in->i, da, ua); break;
    case KIR_FOR: case KIR_PFOR: { /* i = a + k*c: unit in what a is, where b and c do not vary */
        uint8_t bc = (uint8_t)(db | L->dep[in->c]);
        local_merge(L, (uint32_t)in->i, (uint8_t)(da | bc), (uint8_t)(ua & ~bc));
        break;
    }
    case KIR_ADD: case KIR_SUB: unit = (uint8_t)((ua & ~db) | (ub & ~da)); break;
    case KIR_MUL:
        if (is_const(f, in->a, 1) || is_const(f, in->a, -1)) unit = ub;
        else if (is_const(f, in->b, 1) || is_const(f, in->b, -1)) unit = ua;
        break;
    case KIR_NEG: case KIR_CAST: case KIR_WRAP_INDEX: unit = ua; break;
    default: break;
    }
    L->dep[r] = dep;
    L->unit[r] = unit;
}

/* The index that addresses the contiguous dimension of an access to an
 * array of type t with n indices, or 0 when it is not known statically. */
static kir_ref contiguous_index(const kj_type *t, const kir_ref *args, uint32_t n)
{
    if (!t || t->kind != KJ_T_ARRAY || n == 0 || n != (uint32_t)t->ndim) return 0;
    if (t->layout == KJ_LAYOUT_C) return args[n - 1];
    if (t->layout == KJ_LAYOUT_F) return args[0];
    return 0; /* 'A': the strides say, at run time */
}

int kir_layout_contiguous_dim(kj_arena *a, const kir_func *f, int votes[3])
{
    lay L = {.f = f};
    L.dep = KJ_NEWN(a, uint8_t, f->ninsts + 1);
    L.unit = KJ_NEWN(a, uint8_t, f->ninsts + 1);
    uint32_t nl = f->nlocals + 1;
    L.ldep = KJ_NEWN(a, uint8_t, nl), L.lunit = KJ_NEWN(a, uint8_t, nl);
    L.ndep = KJ_NEWN(a, uint8_t, nl), L.nunit = KJ_NEWN(a, uint8_t, nl);
    L.nset = KJ_NEWN(a, bool, nl);
    for (int p = 0; p < PASSES; p++) {
        memset(L.ndep, 0, nl), memset(L.nunit, 0, nl), memset(L.nset, 0, nl);
        for (kir_ref r = 1; r < f->ninsts; r++) eval(&L, r);
        memcpy(L.ldep, L.ndep, nl), memcpy(L.lunit, L.nunit, nl);
    }
    int v[3] = {0, 0, 0};
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (in->op != KIR_ARRAY_LOAD && in->op != KIR_ARRAY_STORE) continue;
        kir_ref c = contiguous_index(f->insts[in->a].type, in->args, in->nargs);
        for (int d = 0; c && d < 3; d++) v[d] += (L.unit[c] >> d) & 1;
    }
    if (votes) memcpy(votes, v, sizeof v);
    int best = -1;
    for (int d = 0; d < 3; d++)
        if (v[d] > 0 && (best < 0 || v[d] > v[best])) best = d;
    return best;
}

/* Built-ins that tell which threads share a warp, or where in it a thread is. */
static bool warp_position(unsigned b)
{
    return kj_builtin_has(b, KJ_BF_WARP) || b == KJ_B_LANEID || b == KJ_B_WARPSIZE || b == KJ_B_LANEMASK_LT;
}

/* Built-ins whose value is the thread's logical position in its block
 * (what a device function would need compiling for the swap). */
static bool thread_position(unsigned b)
{
    return (b >= KJ_B_TID_X && b <= KJ_B_TID_Z) || (b >= KJ_B_BDIM_X && b <= KJ_B_BDIM_Z) ||
           b == KJ_B_CUDA_GRID || b == KJ_B_CUDA_GRIDSIZE;
}

static bool atomic_op(unsigned b)
{
    const kj_builtin_info *bi = kj_builtin_get((kj_builtin)b);
    return bi && !strncmp(bi->path, "cuda.atomic.", 12);
}

/* On the cpu the emulated threads run in a fixed order, which remapping
 * changes: whatever can show that order stays as written. */
static bool order_visible(const kir_inst *in)
{
    if (in->op == KIR_ASSERT || in->op == KIR_BOUNDS_CHECK) return true;
    return in->op == KIR_BUILTIN && (in->aux == KJ_B_PRINT || atomic_op(in->aux));
}

static const char *illegal_in(const kir_func *f, bool callee, bool cpu, int depth)
{
    if (depth > MAX_DEPTH) return "device functions nested too deeply to check";
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (in->op == KIR_BUILTIN && warp_position(in->aux)) return "it uses a warp operation or the lane id";
        if (callee && in->op == KIR_BUILTIN && thread_position(in->aux))
            return "a device function it calls reads its thread position";
        if (cpu && order_visible(in)) return "on the cpu, the order its threads run in could be seen";
        if (in->op == KIR_CALL && in->fn) {
            const char *why = illegal_in(in->fn, true, cpu, depth + 1);
            if (why) return why;
        }
    }
    return NULL;
}

const char *kir_layout_illegal(const kir_func *f, kj_run_target target)
{
    if (f->kind != KIR_FN_KERNEL || f->applies) return "not a kernel written in the program";
    return illegal_in(f, false, target != KJ_RUN_CUDA, 0);
}

unsigned kir_layout_remap(kj_arena *a, kir_module *m, uint32_t from, kj_run_target target, bool on)
{
    unsigned n = 0;
    for (uint32_t k = from; on && k < m->nfuncs; k++) {
        kir_func *f = m->funcs[k];
        if (f->kind != KIR_FN_KERNEL || f->layout_perm || kir_layout_illegal(f, target)) continue;
        int v[3];
        /* y walks the contiguous dimension more often than x does */
        if (kir_layout_contiguous_dim(a, f, v) == 1 && v[1] > v[0]) {
            f->layout_perm = KJ_ABI_PERM_XY;
            n++;
        }
    }
    return n;
}
