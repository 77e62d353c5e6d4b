/* SPDX-License-Identifier: BSD-2-Clause */
/* np.sum/np.min/np.max of a device array on the GPU (kir_reduce.h).
 *
 * On the cuda target NumPy's reductions are host code: the runtime's
 * kj_rt_reduce, after lazy coherence brings a stale host copy back (the
 * whole array, for one number). Here such a call of a 1-d array of numbers
 * becomes a call of a host function that asks at run time where the data
 * are (kjit.on_device: a current device copy, a stale host copy) and then
 * either launches kir_reduce.c's one-pass kernel, which folds with the
 * scalar function written here, or does what the builtin did. An empty
 * array always takes the host's way (NumPy's 0, or its ValueError for
 * min/max). Integer results are the host's; a float sum may differ from
 * NumPy's pairwise sum in the last bits; max/min propagate NaN as NumPy's
 * maximum/minimum do. */
#include "builtins.h"
#include "kir_build.h"
#include "kir_reduce.h"

enum { OP_SUM, OP_MAX, OP_MIN };

static int op_of(uint32_t builtin)
{
    switch (builtin) {
    case KJ_B_NP_SUM: case KJ_B_ARR_SUM: return OP_SUM;
    case KJ_B_NP_MAX: case KJ_B_ARR_MAX: return OP_MAX;
    case KJ_B_NP_MIN: case KJ_B_ARR_MIN: return OP_MIN;
    default: return -1;
    }
}

static bool number(const kj_type *t)
{
    return t->kind == KJ_T_INT || (t->kind == KJ_T_FLOAT && (t->bits == 32 || t->bits == 64));
}

/* The device function R(R a, R b): a + b; or NumPy's maximum,
 * (a >= b or a != a) ? a : b (minimum with <=), which keeps a NaN. */
static const kir_func *scalar_fn(kj_arena *a, kj_types *ty, kir_module *m, int op, const kj_type *r, kj_span sp)
{
    static const char *const NAME[] = {"sum", "max", "min"};
    const char *mangled = kj_arena_printf(a, "np.%s.fold[%s]", NAME[op], kj_type_str(r));
    kir_func *f = kir_module_find(m, mangled);
    if (f) return f;
    const kj_type *ps[2] = {r, r};
    f = kir_reduce_new_func(a, ty, m, NAME[op], mangled, KIR_FN_DEVICE, ps, 2, r, sp);
    f->target = KJ_RUN_CUDA;
    if (op == OP_SUM) f->identity = (kir_identity){.has = true};
    kir_builder b = {.a = a, .ty = ty, .f = f, .sp = sp};
    kir_ref x = kb_param(&b, 0), y = kb_param(&b, 1);
    if (op == OP_SUM) {
        kb_return(&b, kb_binop(&b, KIR_ADD, r, x, y));
        return f;
    }
    const kj_type *bt = kj_t_bool(ty);
    kir_ref keep = kb_binop(&b, op == OP_MAX ? KIR_GE : KIR_LE, bt, x, y);
    if (r->kind == KJ_T_FLOAT) keep = kb_binop(&b, KIR_OR, bt, keep, kb_binop(&b, KIR_NE, bt, x, x));
    kb_return(&b, kb_select(&b, keep, x, y));
    return f;
}

/* host function (x): on_device(x) and len(x) > 0 ? the GPU's fold : the builtin */
static kir_func *chooser(kj_arena *a, kj_types *ty, kir_module *m, const kir_inst *in, int op, const kj_type *xt)
{
    const kj_type *at = kj_t_array(ty, xt->elem, 1, KJ_LAYOUT_A), *r = in->type;
    /* min/max raise on an empty array: one function per call site, so that the error names it */
    static const char *const NAME[] = {"sum", "max", "min"};
    const char *base = kj_arena_printf(a, "np.%s.device[%s]", NAME[op], kj_type_str(at));
    if (op != OP_SUM) base = kj_arena_printf(a, "%s@%u:%u", base, in->span.line, in->span.col);
    kir_func *f = kir_module_find(m, base);
    if (f) return f;
    f = kir_reduce_new_func(a, ty, m, kj_builtin_get((kj_builtin)in->aux)->path, base, KIR_FN_HOST, &at, 1, r, in->span);
    kir_builder b = {.a = a, .ty = ty, .f = f, .sp = in->span};
    kir_ref x = kb_param(&b, 0);
    const kj_type *bt = kj_t_bool(ty);
    kir_ref on = kb_builtin(&b, KJ_B_KJIT_ON_DEVICE, bt, &x, 1);
    kir_ref some = kb_binop(&b, KIR_GT, bt, kb_dim(&b, x, 0), kb_int(&b, 0));
    kir_blkid then, els, saved = b.cur;
    kb_if(&b, kb_binop(&b, KIR_AND, bt, on, some), &then, &els);
    b.cur = then;
    kb_return(&b, kir_reduce_gpu_1d(&b, m, scalar_fn(a, ty, m, op, r, in->span), x, base));
    b.cur = saved;
    kb_return(&b, kb_builtin(&b, (int)in->aux, r, &x, 1));
    return f;
}

void kir_reduce_np(kj_arena *a, kj_types *ty, kir_module *m, kir_func *f, kir_ref r)
{
    kir_inst *in = &f->insts[r];
    int op = op_of(in->aux);
    if (op < 0 || in->nargs < 1 || !in->type) return;
    for (uint32_t k = 1; k < in->nargs; k++)
        if (in->args[k]) return; /* axis=: the host's */
    const kj_type *xt = f->insts[in->args[0]].type;
    if (!xt || xt->kind != KJ_T_ARRAY || xt->ndim != 1 || !number(xt->elem) || !number(in->type)) return;
    if (op != OP_SUM && in->type != xt->elem) return;
    kir_func *h = chooser(a, ty, m, in, op, xt);
    in = &f->insts[r];
    kir_ref arg = in->args[0];
    in->op = KIR_CALL;
    in->fn = h;
    in->aux = 0;
    in->args = kir_refs(a, &arg, 1);
    in->nargs = 1;
}
