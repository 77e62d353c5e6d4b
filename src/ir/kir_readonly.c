/* SPDX-License-Identifier: BSD-2-Clause */
/* kir_readonly — a module-level array written by compiled code.
 *
 * Numba types a global array as a read-only array (pysemantics.rst, "Global
 * and closure variables"): no compiled function may write it, through its
 * name or any other way. Typing refuses a store through the name itself
 * (kj_frozen_write_error); this pass follows the array (a frozen constant,
 * CONST_ARRAY, or a module slot, MODULE_GET) through locals, views and
 * calls to every write of a compiled function — `b = A; b[0] = 1`,
 * `A[1:] += 1`, `A.fill(0)`, `w(A)` where w writes its parameter, an
 * atomic, a ufunc's out — each a compile error with Numba 0.56's wording
 * (readonly array(int64, 1d, C)). Host functions are Python: they may
 * write a module array (resolve_modslot.c), so they are not checked. */
#include "sema_int.h"
#include "kir.h"

#include <stdlib.h>

enum { MAX_DEPTH = 8 };

/* The value an instruction's use reads as an array, marked with the ref of
 * the root it derives from (0: none); locals likewise. */
typedef struct {
    const kir_func *f;
    kir_ref *mark;  /* [ninsts] */
    kir_ref *lmark; /* [nlocals] */
} rctx;

static bool writes_param(const kir_func *f, uint32_t k, int depth, kir_ref *at);

static bool writer_builtin(unsigned b)
{
    return b == KJ_B_ARR_FILL || b == KJ_B_ARR_SORT || b == KJ_B_NP_RANDOM_SHUFFLE || b == KJ_B_RANDOM_SHUFFLE ||
           (b >= KJ_B_ATOMIC_ADD && b <= KJ_B_ATOMIC_NANMIN);
}

/* Does instruction r write the array marked in its operands? What it calls
 * may, when the callee writes the parameter the array goes to. */
static bool writes(const rctx *c, kir_ref r, int depth)
{
    const kir_inst *in = &c->f->insts[r];
    kir_ref at;
    switch ((kir_op)in->op) {
    case KIR_ARRAY_STORE: return in->a && c->mark[in->a];
    case KIR_BUILTIN: return in->nargs && in->args[0] && c->mark[in->args[0]] && writer_builtin(in->aux);
    case KIR_UFUNC_CALL: /* the explicit outputs, last */
        for (uint32_t k = in->nargs - in->aux; k < in->nargs; k++)
            if (in->args[k] && c->mark[in->args[k]]) return true;
        return false;
    case KIR_CALL: case KIR_LAUNCH: {
        uint32_t first = in->op == KIR_LAUNCH ? 8 : 0; /* a launch's configuration, then the arguments */
        for (uint32_t k = first; in->fn && k < in->nargs; k++)
            if (in->args[k] && c->mark[in->args[k]] && writes_param(in->fn, k - first, depth + 1, &at))
                return true;
        return false;
    }
    default: return false;
    }
}

/* One pass: propagate the marks (through locals, views and casts); the
 * first write found, or 0. *grew: a local was newly marked. */
static kir_ref mark_pass(rctx *c, int depth, bool *grew)
{
    const kir_func *f = c->f;
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        switch ((kir_op)in->op) {
        case KIR_LOCAL_GET: c->mark[r] = c->lmark[in->i]; continue;
        case KIR_LOCAL_SET:
            if (c->mark[in->a] && !c->lmark[in->i]) c->lmark[in->i] = c->mark[in->a], *grew = true;
            continue;
        case KIR_ARRAY_VIEW: case KIR_CAST:
            if (in->type && in->type->kind == KJ_T_ARRAY) c->mark[r] = c->mark[in->a];
            continue;
        case KIR_BUILTIN:
            if (kj_builtin_has(in->aux, KJ_BF_VIEW) && in->nargs && in->args[0] && in->type &&
                in->type->kind == KJ_T_ARRAY)
                c->mark[r] = c->mark[in->args[0]];
            break;
        default: break;
        }
        if (!c->mark[r] && writes(c, r, depth)) return r;
    }
    return 0;
}

/* The first write of f reaching a root marked by `root` (roots: refs whose
 * mark is set before the passes), or 0. */
static kir_ref find_write(rctx *c, int depth)
{
    bool grew = true;
    for (uint32_t pass = 0; grew && pass <= c->f->nlocals; pass++) {
        grew = false;
        kir_ref w = mark_pass(c, depth, &grew);
        if (w) return w;
    }
    return 0;
}

static bool writes_param(const kir_func *f, uint32_t k, int depth, kir_ref *at)
{
    if (depth > MAX_DEPTH || k >= f->nparams || f->params[k]->kind != KJ_T_ARRAY) return false;
    rctx c = {.f = f, .mark = calloc((size_t)f->ninsts + f->nlocals + 1, sizeof(kir_ref))};
    if (!c.mark) return false;
    c.lmark = c.mark + f->ninsts;
    for (kir_ref r = 1; r < f->ninsts; r++)
        if (f->insts[r].op == KIR_PARAM && (uint32_t)f->insts[r].i == k) c.mark[r] = r;
    *at = find_write(&c, depth);
    free(c.mark);
    return *at != 0;
}

/* Numba 0.56's name of the operation its typing finds no implementation of */
static const char *what(const kir_inst *in)
{
    switch ((kir_op)in->op) {
    case KIR_ARRAY_STORE: return in->aux == KIR_AUX_INPLACE ? "an in-place operator" : "setitem";
    case KIR_BUILTIN: return in->aux == KJ_B_ARR_FILL ? "arr_fill" : kj_builtin_get(in->aux)->path;
    case KIR_UFUNC_CALL: return "a ufunc's out";
    default: return "setitem";
    }
}

static void report(kj_sema *s, kj_diags *d, const kir_func *f, kir_ref w, kir_ref root)
{
    const kir_inst *in = &f->insts[w], *ri = &f->insts[root];
    const kj_type *t = ri->type;
    bool call = in->op == KIR_CALL || in->op == KIR_LAUNCH;
    kj_diag *dg = kj_error(d, s->src, in->span,
                           "Cannot modify readonly array: '%s' is a module-level array, read-only in compiled "
                           "code as Numba freezes globals (no %s(readonly array(%s, %ud, %s), ...)%s%s%s)",
                           ri->frozen->name, what(in), kj_type_str(t->elem), (unsigned)t->ndim,
                           t->layout == KJ_LAYOUT_C ? "C" : t->layout == KJ_LAYOUT_F ? "F" : "A",
                           call ? " in " : "", call && in->fn ? in->fn->name : "",
                           call ? "(), which writes its argument" : "");
    kj_diag_hint(dg, "pass the array as an argument to modify it, or copy it first: a = %s.copy()",
                 ri->frozen->name);
}

/* One compiled function: every root (CONST_ARRAY, MODULE_GET of an
 * array) followed to its first write. */
static void check_fn(kj_sema *s, kj_diags *d, const kir_func *f)
{
    rctx c = {.f = f, .mark = calloc((size_t)f->ninsts + f->nlocals + 1, sizeof(kir_ref))};
    if (!c.mark) return;
    c.lmark = c.mark + f->ninsts;
    bool any = false;
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if ((in->op == KIR_CONST_ARRAY || in->op == KIR_MODULE_GET) && in->type->kind == KJ_T_ARRAY)
            c.mark[r] = r, any = true;
    }
    kir_ref w = any ? find_write(&c, 0) : 0;
    if (w) {
        /* the root: the marked operand of the write */
        const kir_inst *in = &f->insts[w];
        kir_ref root = in->a && c.mark[in->a] ? c.mark[in->a] : 0;
        for (uint32_t k = 0; !root && k < in->nargs; k++) root = in->args[k] ? c.mark[in->args[k]] : 0;
        if (root) report(s, d, f, w, root);
    }
    free(c.mark);
}

bool kj_kir_writes_param(const kir_func *f, uint32_t k)
{
    kir_ref at = 0;
    return writes_param(f, k, 0, &at);
}

bool kj_check_readonly(kj_sema *s, kj_diags *d)
{
    uint32_t before = d->nerrors;
    for (uint32_t i = 0; i < s->specs.n; i++) {
        const kj_spec *sp = s->specs.v[i];
        if (!sp->kir || sp->fn->kind == FK_MAIN || sp->fn->kind == FK_HELPER) continue;
        check_fn(s, d, sp->kir);
    }
    return d->nerrors == before;
}
