/* SPDX-License-Identifier: BSD-2-Clause */
/* np.isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False), as NumPy's:
 * in F, the type of a - b with b made float (result_type(a, b, 1.0)),
 *   isfinite(x) and isfinite(y) ? |x - y| <= atol + rtol * |y| : x == y
 * (or both NaN when equal_nan). One scalar function of (x, y, rtol, atol)
 * that is called for two numbers and applied as a ufunc (on the host) over
 * arrays, broadcasting as NumPy's. */
#include "builtins.h"
#include "kir_build.h"
#include "lower_int.h"

static kir_ref unary(kir_builder *b, int builtin, const kj_type *t, kir_ref x)
{
    return kb_builtin(b, builtin, t, &x, 1);
}

static kir_func *isclose_func(lctx *lc, const kj_type *const *el, const kj_type *f, bool equal_nan)
{
    kj_arena *a = lc->s->a;
    const char *mangled = kj_arena_printf(a, "np.isclose[%s,%s,%s%s]", kj_type_str(el[0]), kj_type_str(el[1]),
                                          kj_type_str(f), equal_nan ? ",equal_nan" : "");
    kir_func *g = kir_module_find(lc->s->kir, mangled);
    if (g) return g;
    g = kir_func_new(a, lc->s->kir, "isclose", mangled, KIR_FN_UFUNC);
    g->nparams = 4;
    g->params = KJ_NEWN(a, const kj_type *, 4);
    g->param_names = KJ_NEWN(a, const char *, 4);
    static const char *const names[4] = {"x", "y", "rtol", "atol"};
    for (uint32_t k = 0; k < 4; k++) g->params[k] = k < 2 ? el[k] : f, g->param_names[k] = names[k];
    g->ret = kj_t_bool(lc->s->types);
    g->target = KJ_RUN_CPU; /* NumPy's function: on the host (kir_ufunc_on_gpu) */
    kir_builder b = {.a = a, .ty = lc->s->types, .f = g};
    const kj_type *bt = g->ret;
    kir_ref x = kb_cast(&b, kb_param(&b, 0), f), y = kb_cast(&b, kb_param(&b, 1), f), rtol = kb_param(&b, 2), atol = kb_param(&b, 3);
    kir_ref fin = kb_binop(&b, KIR_AND, bt, unary(&b, KJ_B_ISFINITE, bt, x), unary(&b, KJ_B_ISFINITE, bt, y));
    kir_ref diff = unary(&b, KJ_B_ABS, f, kb_binop(&b, KIR_SUB, f, x, y));
    kir_ref tol = kb_binop(&b, KIR_ADD, f, atol, kb_binop(&b, KIR_MUL, f, rtol, unary(&b, KJ_B_ABS, f, y)));
    kir_ref r = kb_select(&b, fin, kb_binop(&b, KIR_LE, bt, diff, tol), kb_binop(&b, KIR_EQ, bt, x, y));
    if (equal_nan) {
        kir_ref nan2 = kb_binop(&b, KIR_AND, bt, unary(&b, KJ_B_ISNAN, bt, x), unary(&b, KJ_B_ISNAN, bt, y));
        r = kb_binop(&b, KIR_OR, bt, r, nan2);
    }
    kb_return(&b, r);
    return g;
}

/* argument k of the call (argmap: table order), or NULL when not given */
static const kj_expr *arg(const kj_expr *e, const kj_einfo *ei, int k)
{
    if (k >= ei->nbound) return NULL;
    int32_t m = ei->argmap[k];
    if (m == INT32_MIN || m == INT32_MAX) return NULL;
    const kj_expr *x = m >= 0 ? e->call.args[m] : e->call.kw[-1 - m].value;
    return x->kind == KJ_E_NONE ? NULL : x;
}

kir_ref kj_lower_isclose(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    kj_types *ty = lc->s->types;
    const kj_type *el[2];
    for (int k = 0; k < 2; k++) {
        const kj_type *t = kj_strong(ty, lc->sp->ei[arg(e, ei, k)->id].type);
        el[k] = t->kind == KJ_T_ARRAY ? t->elem : t;
    }
    const kj_type *f = kj_promote(ty, el[0], el[1]);
    if (f->kind != KJ_T_FLOAT) f = kj_t_float(ty, 64); /* ints and bools: float64 (b made float) */
    const kj_expr *en = arg(e, ei, 4);
    bool equal_nan = en && lc->sp->ei[en->id].cval.i;
    kir_ref args[4];
    static const double defaults[4] = {0, 0, 1e-05, 1e-08}; /* rtol, atol */
    for (int k = 0; k < 4; k++) {
        const kj_expr *x = arg(e, ei, k);
        const kj_type *t = x ? lc->sp->ei[x->id].type : NULL;
        if (!x) {
            args[k] = kj_lw_emit(lc, KIR_CONST_FLOAT, f, e->span);
            kir_at(lc->f, args[k])->f = defaults[k];
        } else if (t->kind == KJ_T_ARRAY) {
            args[k] = kj_lw_expr(lc, x);
        } else {
            args[k] = kj_lw_as(lc, x, k < 2 ? el[k] : f);
        }
    }
    kir_func *g = isclose_func(lc, el, f, equal_nan);
    kir_op op = ei->type->kind == KJ_T_ARRAY ? KIR_UFUNC_CALL : KIR_CALL;
    kir_ref r = kj_lw_emit(lc, op, kj_strong(ty, ei->type), e->span);
    kir_inst *in = kir_at(lc->f, r);
    in->fn = g;
    in->nargs = 4;
    in->args = kir_refs(lc->s->a, args, 4);
    return r;
}
