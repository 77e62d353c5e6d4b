/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_hostglobal — `global NAME` in a script's host function that rebinds
 * a module variable, as CPython runs it:
 *
 *     counter = 0
 *     def bump():
 *         global counter
 *         counter += 1
 *     bump(); bump()
 *     print(counter)          # 2
 *
 * The variable must be a script's module-level name bound once at module
 * level (kj_script_binding) to an array or a number: it lives in its module
 * slot (resolve_modslot.c). The host function reads and writes the slot
 * (the value converted to the slot's type, the type <module> binds; another
 * type is refused), and <module> reads the name from the slot after its
 * binding, so it sees what host functions stored. Compiled functions keep
 * Numba's refusal of STORE_GLOBAL (infer_global.c); one that reads a name a
 * host function rebinds is refused: Numba would freeze only the value the
 * name has when it compiles the reader. */
#include "sema_int.h"

#include <string.h>

static bool declares(const kj_block *b, const char *name)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        if (st->kind == KJ_S_GLOBAL)
            for (uint32_t k = 0; k < st->import.n; k++)
                if (!strcmp(st->import.names[k].name, name)) return true;
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++)
            if (declares(in[k], name)) return true;
    }
    return false;
}

bool kj_host_global(const kj_sema *s, const kj_fn *fn, const char *name)
{
    if (!s->script || fn->kind != FK_HELPER) return false;
    size_t n = strcspn(name, "."); /* a version's name (versions.c): NAME.1 */
    char base[128];
    if (n >= sizeof base) return false;
    memcpy(base, name, n);
    base[n] = 0;
    return kj_count_assigns(&fn->def->body, base) && declares(&fn->def->body, base);
}

/* A function of the script (any def at module level) that declares `name`
 * global and assigns it, or NULL: such a name is no module constant but a
 * variable of <module> (kj_script_binds_once), whatever it is bound to. */
const kj_funcdef *kj_host_rebinder(const kj_sema *s, const char *name)
{
    const kj_block *body = &s->mod->body;
    for (uint32_t i = 0; i < body->n; i++) {
        const kj_funcdef *d = body->v[i]->kind == KJ_S_DEF ? body->v[i]->def : NULL;
        if (d && kj_count_assigns(&d->body, name) && declares(&d->body, name)) return d;
    }
    return NULL;
}

/* `name = value` (or op=) in a host function that declared it global: the
 * value must convert to the slot's type. */
void kj_host_global_assign(kj_ictx *ic, const kj_expr *target, const kj_type *t)
{
    if (target->kind != KJ_E_NAME || !t || !kj_host_global(ic->s, ic->sp->fn, target->name)) return;
    kj_einfo ei;
    if (!kj_modslot_ref(ic->s, ic->sp->fn, target, &ei)) return; /* refused at the global statement */
    const kj_type *st = kj_strong(ic->s->types, t), *u = kj_unify(ic->s->types, ei.type, st);
    if (u == ei.type) return;
    kj_diag *dg = kj_error(ic->d, ic->s->src, target->span,
                           "host function '%s' rebinds the module variable '%s' to %s, where the script binds "
                           "%s: kjit keeps a module variable's type", ic->sp->fn->def->name, target->name,
                           kj_type_str(st), kj_type_str(ei.type));
    kj_diag_hint(dg, "convert the value to %s, or use a new name", kj_type_str(ei.type));
}
