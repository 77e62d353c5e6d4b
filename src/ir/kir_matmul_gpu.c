/* SPDX-License-Identifier: BSD-2-Clause */
/* a @ b and np.dot(a, b) of two device matrices through cuBLAS (issue 25
 * point 5; kir_reduce.h).
 *
 * On the cuda target NumPy's products are host code: the runtime's
 * kj_rt_linalg, after lazy coherence brings both operands back from the
 * GPU. Here such a call of two 2-d arrays of one float dtype becomes a
 * call of a host function that asks at run time where their data are
 * (kjit.on_device, as kir_reduce_np.c's reductions do) and, when both are
 * on the GPU only, multiplies them there (kjit.gpu_matmul: cuBLAS, the
 * result left on the GPU), else does what the builtin did. The products
 * are cuBLAS's, which may differ from OpenBLAS's in the last bits, as
 * CuPy's do from NumPy's. */
#include "builtins.h"
#include "kir_build.h"
#include "kir_reduce.h"

static bool matrix(const kj_type *t)
{
    return t && t->kind == KJ_T_ARRAY && t->ndim == 2 && t->elem->kind == KJ_T_FLOAT &&
           (t->elem->bits == 32 || t->elem->bits == 64);
}

/* host function (a, b): on_device(a) and on_device(b) ? gpu_matmul(a, b) : the builtin */
static kir_func *chooser(kj_arena *a, kj_types *ty, kir_module *m, const kir_inst *in, const kj_type *elem)
{
    const kj_type *at = kj_t_array(ty, elem, 2, KJ_LAYOUT_A), *r = in->type;
    const kj_type *ps[2] = {at, at};
    const char *name = kj_builtin_get((kj_builtin)in->aux)->path;
    const char *mangled = kj_arena_printf(a, "%s.device[%s]", name, kj_type_str(at));
    kir_func *f = kir_module_find(m, mangled);
    if (f) return f;
    f = kir_reduce_new_func(a, ty, m, name, mangled, KIR_FN_HOST, ps, 2, r, in->span);
    kir_builder b = {.a = a, .ty = ty, .f = f, .sp = in->span};
    kir_ref x[2] = {kb_param(&b, 0), kb_param(&b, 1)};
    const kj_type *bt = kj_t_bool(ty);
    kir_ref on = kb_binop(&b, KIR_AND, bt, kb_builtin(&b, KJ_B_KJIT_ON_DEVICE, bt, &x[0], 1),
                          kb_builtin(&b, KJ_B_KJIT_ON_DEVICE, bt, &x[1], 1));
    kir_blkid then, els, saved = b.cur;
    kb_if(&b, on, &then, &els);
    b.cur = then;
    kb_return(&b, kb_builtin(&b, KJ_B_KJIT_GPU_MATMUL, r, x, 2));
    b.cur = saved;
    kb_return(&b, kb_builtin(&b, (int)in->aux, r, x, 2));
    return f;
}

void kir_matmul_gpu(kj_arena *a, kj_types *ty, kir_module *m, kir_func *f, kir_ref r)
{
    kir_inst *in = &f->insts[r];
    if ((in->aux != KJ_B_NP_DOT && in->aux != KJ_B_NP_MATMUL) || in->nargs != 2 || !in->args[0] || !in->args[1])
        return;
    const kj_type *at = f->insts[in->args[0]].type, *bt = f->insts[in->args[1]].type;
    if (!matrix(at) || !matrix(bt) || at->elem != bt->elem || !in->type || in->type->kind != KJ_T_ARRAY ||
        in->type->ndim != 2 || in->type->elem != at->elem)
        return;
    kir_func *h = chooser(a, ty, m, in, at->elem);
    in = &f->insts[r];
    kir_ref args[2] = {in->args[0], in->args[1]};
    in->op = KIR_CALL;
    in->fn = h;
    in->aux = 0;
    in->args = kir_refs(a, args, 2);
    in->nargs = 2;
}
