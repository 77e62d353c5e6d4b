/* SPDX-License-Identifier: BSD-2-Clause */
/* resolve_modslot — a script's module-level value computed when the script
 * runs, read by a compiled function, a kernel or a host function.
 *
 * Numba freezes the value a global has when it compiles a function that
 * reads it (its first call; pysemantics.rst, "Global and closure
 * variables"):
 *
 *     np.random.seed(0)
 *     A = np.random.rand(5)
 *     N = A.shape[0]
 *     @njit
 *     def f(i): return A[i] * N
 *
 * Arrays whose elements are constant expressions are frozen into the code
 * (resolve_frozen.c). Any other module-level name bound once (the one
 * `name = value` of kj_script_binding) to an array or a number gets a module
 * slot: <module> stores the value into the run's slot when it binds the name
 * (MODULE_SET, after the assignment) and readers load it (MODULE_GET;
 * rt_modslot.c). Bound once, the name has only that value, the one Numba
 * would freeze. Its type is the one <module> infers for the bound value. As
 * in Numba, the array is read-only to the reader (kj_frozen_write_error). A
 * name bound more than once stays refused (kj_script_var_error): Numba would
 * see only the value it had at the first call. A script's host function
 * reads (and may write) <module>'s arrays through their slots, constant ones
 * too, as Python shares them; one that rebinds a name through `global`
 * stores into the slot (infer_hostglobal.c), and <module> then reads that
 * name from the slot after binding it (kj_lower_modslot_shared). */
#include "lower_int.h"
#include "sema_int.h"

#include <string.h>

/* The type <module> gives the value `name` is bound to, or NULL. */
static const kj_type *slot_type(kj_sema *s, const kj_expr *v)
{
    if (!s->script->specs.n || !v) return NULL;
    const kj_type *t = s->script->specs.v[0]->ei[v->id].type;
    if (!t) return NULL;
    switch (t->kind) {
    case KJ_T_ARRAY: case KJ_T_INT: case KJ_T_FLOAT: case KJ_T_BOOL: case KJ_T_COMPLEX:
        return kj_strong(s->types, t);
    default: return NULL;
    }
}

static kir_frozen *slot_of(kj_sema *s, const char *name)
{
    for (uint32_t i = 0; i < s->modslots.n; i++)
        if (!strcmp(s->modslots.v[i]->name, name)) return s->modslots.v[i];
    kir_frozen *fz = KJ_NEW(s->a, kir_frozen);
    fz->name = name;
    fz->slot = true;
    fz->slot_index = s->modslots.n;
    KJ_PUSH(s->a, s->modslots, fz);
    return fz;
}

bool kj_modslot_ref(kj_sema *s, const kj_fn *reader, const kj_expr *e, kj_einfo *ei)
{
    if (!s->script || reader == s->script || e->kind != KJ_E_NAME) return false;
    /* compiled code would freeze a name host code rebinds: kj_script_var_error */
    if (reader->kind != FK_HELPER && kj_host_rebinder(s, e->name)) return false;
    const kj_expr *v = kj_script_binding(s, e->name);
    const kj_type *t = slot_type(s, v);
    if (!t && v && s->script->specs.n && s->script->specs.v[0]->state == SPEC_INFERRING &&
        !s->script->specs.v[0]->ei[v->id].type) {
        /* the reader is typed (called) before <module> reached the binding:
         * Python's NameError when it runs, a located error here */
        kj_diag *dg = kj_error(s->d, s->src, e->span,
                               "'%s' is read before the script binds it (Python: NameError: name '%s' is not "
                               "defined)", e->name, e->name);
        kj_diag_hint(dg, "call the function after the statement that binds '%s'", e->name);
        return false;
    }
    if (!t) return false;
    memset(ei, 0, sizeof *ei);
    ei->kind = EI_VALUE;
    ei->type = t;
    ei->frozen = slot_of(s, e->name);
    return true;
}

static const kir_frozen *registered(const kj_sema *s, const char *name)
{
    for (uint32_t i = 0; i < s->modslots.n; i++)
        if (!strcmp(s->modslots.v[i]->name, name)) return s->modslots.v[i];
    return NULL;
}

/* After <module>'s `name = value`: the value into the name's slot, when a
 * function reads it. */
void kj_lower_modslot_set(lctx *lc, const kj_stmt *st)
{
    kj_sema *s = lc->s;
    if (lc->sp->fn != s->script || st->kind != KJ_S_ASSIGN || st->assign.ntargets != 1) return;
    const kj_expr *t = st->assign.targets[0];
    if (t->kind != KJ_E_NAME || kj_script_binding(s, t->name) != st->assign.value) return;
    const kir_frozen *fz = registered(s, t->name);
    kj_var *v = kj_var_of(lc->sp, t);
    int32_t l = v ? lc->local[v - lc->sp->vars.v] : -1;
    if (!fz || l < 0) return;
    kir_ref get = kj_lw_get(lc, (uint32_t)l, st->span);
    kir_ref set = kj_lw_emit(lc, KIR_MODULE_SET, NULL, st->span);
    kir_at(lc->f, set)->a = get;
    kir_at(lc->f, set)->frozen = fz;
}

/* `name = v` in a host function that declared it global
 * (infer_hostglobal.c): v, in the slot's type, into the slot. */
bool kj_lower_modslot_store(lctx *lc, const kj_expr *t, kir_ref v, kj_span sp)
{
    kj_einfo ei;
    if (t->kind != KJ_E_NAME || !kj_host_global(lc->s, lc->sp->fn, t->name) ||
        !kj_modslot_ref(lc->s, lc->sp->fn, t, &ei))
        return false;
    kir_ref set = kj_lw_emit(lc, KIR_MODULE_SET, NULL, sp);
    kir_at(lc->f, set)->a = kj_lw_cast(lc, v, ei.type, sp);
    kir_at(lc->f, set)->frozen = ei.frozen;
    return true;
}

/* A read in <module> of a name host functions rebind: from the slot, which
 * a call may have changed since <module> bound it; 0 for any other name. */
kir_ref kj_lower_modslot_shared(lctx *lc, const kj_expr *e, uint32_t local)
{
    kj_sema *s = lc->s;
    const kir_frozen *fz = lc->sp->fn == s->script ? registered(s, e->name) : NULL;
    if (!fz || !kj_host_rebinder(s, e->name)) return 0;
    kir_ref r = kj_lw_emit(lc, KIR_MODULE_GET, lc->f->locals[local].type, e->span);
    kir_at(lc->f, r)->frozen = fz;
    return r;
}
