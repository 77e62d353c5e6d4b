/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's own binary ufuncs (np.add, np.maximum, ...) as the scalar
 * functions that their methods reduce, accumulate, outer and at loop over
 * (kir_ufunc_meth.h). NumPy's loops for them are homogeneous: both inputs
 * and the result of one type. */
#include "kir_ufunc_meth.h"

#include "builtins.h"
#include "kir_build.h"

bool kir_np_ufunc_ok(int b)
{
    return b == KJ_B_NP_ADD || b == KJ_B_NP_SUBTRACT || b == KJ_B_NP_MULTIPLY || b == KJ_B_NP_MAXIMUM ||
           b == KJ_B_NP_MINIMUM;
}

const kj_type *kir_np_ufunc_loop(kj_types *ty, int b, bool reduce, const kj_type *x, const kj_type *y)
{
    if (!kir_np_ufunc_ok(b) || !kj_is_scalar(x) || (y && !kj_is_scalar(y))) return NULL;
    const kj_type *t = kj_strong(ty, y ? kj_promote(ty, x, y) : x);
    if (!t || t->kind == KJ_T_COMPLEX) return NULL;
    /* np.add.reduce / np.multiply.reduce (and accumulate) of bools and
     * integers narrower than int64 use the int64 (uint64) loop: NumPy's
     * sum/prod rule */
    bool widen = reduce && (b == KJ_B_NP_ADD || b == KJ_B_NP_MULTIPLY);
    if (widen && t->kind == KJ_T_BOOL) return kj_t_int(ty, 64, true);
    if (widen && t->kind == KJ_T_INT && t->bits < 64) return kj_t_int(ty, 64, t->is_signed);
    if (t->kind == KJ_T_BOOL && b == KJ_B_NP_SUBTRACT) return NULL; /* NumPy has no ??->? subtract */
    return t;
}

kir_identity kir_np_ufunc_identity(int b)
{
    kir_identity id = {0};
    if (b == KJ_B_NP_ADD || b == KJ_B_NP_MULTIPLY) {
        id.has = id.reorderable = id.integral = true;
        id.i = b == KJ_B_NP_MULTIPLY;
        id.f = (double)id.i;
    }
    if (b == KJ_B_NP_MAXIMUM || b == KJ_B_NP_MINIMUM) id.reorderable = true; /* no identity, but reorderable */
    return id;
}

/* NumPy's name of the ufunc: "add" for np.add */
static const char *np_name(int b)
{
    return b == KJ_B_NP_ADD        ? "add"
           : b == KJ_B_NP_SUBTRACT ? "subtract"
           : b == KJ_B_NP_MULTIPLY ? "multiply"
           : b == KJ_B_NP_MAXIMUM  ? "maximum"
                                   : "minimum";
}

kir_func *kir_np_ufunc_func(kj_arena *a, kj_types *ty, kir_module *m, int b, const kj_type *t)
{
    const char *name = np_name(b);
    const char *mangled = kj_arena_printf(a, "np.%s[%s,%s]", name, kj_type_str(t), kj_type_str(t));
    kir_func *f = kir_module_find(m, mangled);
    if (f) return f;
    f = kir_func_new(a, m, name, mangled, KIR_FN_UFUNC);
    f->nparams = 2;
    f->params = KJ_NEWN(a, const kj_type *, 2);
    f->param_names = KJ_NEWN(a, const char *, 2);
    f->params[0] = f->params[1] = t;
    f->param_names[0] = "x1", f->param_names[1] = "x2";
    f->ret = t;
    f->identity = kir_np_ufunc_identity(b);
    f->target = KJ_RUN_CPU; /* NumPy's methods loop on the host (kir_ufunc_on_gpu) */
    kir_builder kb = {.a = a, .ty = ty, .f = f};
    kir_ref x = kb_param(&kb, 0), y = kb_param(&kb, 1), r;
    bool logical = t->kind == KJ_T_BOOL; /* add is or, multiply and (NumPy's ??->? loops) */
    if (b == KJ_B_NP_MAXIMUM || b == KJ_B_NP_MINIMUM) {
        kir_ref args[2] = {x, y};
        r = kb_builtin(&kb, b, t, args, 2);
    } else {
        kir_op op = b == KJ_B_NP_ADD ? (logical ? KIR_OR : KIR_ADD)
                    : b == KJ_B_NP_MULTIPLY ? (logical ? KIR_AND : KIR_MUL) : KIR_SUB;
        r = kb_binop(&kb, op, t, x, y);
    }
    kb_return(&kb, r);
    return f;
}
