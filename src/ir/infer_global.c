/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_global — the `global` statement in a function body.
 *
 * Numba freezes a global when it compiles a function, and its bytecode
 * analysis refuses STORE_GLOBAL: `global X` in a @jit function, kernel or
 * device function may only read X (the declaration changes nothing: X is
 * read from the module as it would be without it), and assigning X there is
 * Numba's "Use of unsupported opcode (STORE_GLOBAL) found". Host code, which
 * Numba runs as Python, may rebind module variables through `global`: a
 * script's array or number bound once at module level lives in a module
 * slot that host functions read and write (infer_hostglobal.c); any other
 * such assignment is refused with kjit's own message. */
#include "sema_int.h"

void kj_check_global(kj_ictx *ic, const kj_stmt *st)
{
    const kj_fn *fn = ic->sp->fn;
    bool host = fn->kind == FK_MAIN || fn->kind == FK_HELPER;
    for (uint32_t i = 0; i < st->import.n; i++) {
        const kj_alias *al = &st->import.names[i];
        if (!kj_count_assigns(&fn->def->body, al->name)) continue; /* read only: Numba's frozen value */
        if (!host) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, al->span,
                                   "Use of unsupported opcode (STORE_GLOBAL) found: '%s' is assigned after "
                                   "'global %s'", al->name, al->name);
            kj_diag_hint(dg, "compiled functions read module variables as frozen constants (as Numba); "
                             "return the new value and assign it in host code");
            continue;
        }
        kj_einfo slot;
        kj_expr name = {.kind = KJ_E_NAME, .name = al->name, .span = al->span};
        if (kj_modslot_ref(ic->s, fn, &name, &slot)) continue; /* a module slot: infer_hostglobal.c */
        kj_diag *dg = kj_error(ic->d, ic->s->src, al->span,
                               "host function '%s' rebinds the module variable '%s' through 'global': kjit "
                               "supports this only for a script's array or number bound once at module level",
                               fn->def->name, al->name);
        kj_diag_hint(dg, "return the new value and assign it at module level");
    }
}
