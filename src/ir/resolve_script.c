/* SPDX-License-Identifier: BSD-2-Clause */
/* A file without `main` is a script: its module-level statements run in
 * order, as `python3 file.py` runs them (most of Numba's documentation
 * examples are such scripts). They become the body of an implicit host
 * function named `<module>` (CPython's name for a module's code, which its
 * tracebacks show), the program's entry point in main's place. It is made
 * only when there is such a statement: a file of functions alone stays a
 * library with no entry point.
 *
 * A module-level name bound once to a compile-time object (a constant, a
 * tuple of constants, a decorator, a compiled function, a type object, a
 * dtype) stays a module symbol, as in a file with main: every function reads
 * it, frozen as Numba freezes globals. Any other module-level name (an array,
 * a value computed when the script runs, a name bound more than once) is a
 * local variable of `<module>`. Another function reads a name bound once to
 * an array or a number from its module slot (resolve_modslot.c); any other
 * such read is a located error. */
#include "sema_int.h"

static bool has_main(const kj_block *body)
{
    for (uint32_t i = 0; i < body->n; i++)
        if (body->v[i]->kind == KJ_S_DEF && !strcmp(body->v[i]->def->name, "main")) return true;
    return false;
}

bool kj_script_begin(kj_sema *s, kj_script *sc)
{
    memset(sc, 0, sizeof *sc);
    return !has_main(&s->mod->body);
}

static bool names_once(const kj_sema *s, const kj_expr *t)
{
    if (t->kind == KJ_E_TUPLE) {
        for (uint32_t i = 0; i < t->seq.n; i++)
            if (!names_once(s, t->seq.v[i])) return false;
        return true;
    }
    /* a name a function rebinds through `global` is a variable (infer_hostglobal.c) */
    return t->kind == KJ_E_NAME && kj_count_assigns(&s->mod->body, t->name) == 1 && !kj_host_rebinder(s, t->name);
}

bool kj_script_binds_once(const kj_sema *s, const kj_stmt *st)
{
    for (uint32_t k = 0; k < st->assign.ntargets; k++)
        if (!names_once(s, st->assign.targets[k])) return false;
    return true;
}

void kj_script_add(kj_sema *s, kj_script *sc, const kj_stmt *st)
{
    if (st->kind == KJ_S_IF && kj_is_main_guard(st)) {
        /* __name__ is "__main__" when the file runs: the guarded block runs */
        for (uint32_t i = 0; i < st->if_.then.n; i++) kj_script_add(s, sc, st->if_.then.v[i]);
        return;
    }
    KJ_PUSH(s->a, sc->body, (kj_stmt *)st);
}

kj_fn *kj_script_end(kj_sema *s, kj_script *sc)
{
    kj_funcdef *def = KJ_NEW(s->a, kj_funcdef);
    def->name = KJ_SCRIPT_NAME;
    /* messages about <module> itself point at its first statement */
    def->span = def->name_span = sc->body.n ? sc->body.v[0]->span : (kj_span){0, 0, 1, 1};
    def->body = (kj_block){sc->body.v, sc->body.n};
    def->nexprs = s->mod->nexprs; /* its statements keep their module-level expression ids */
    kj_fn *fn = KJ_NEW(s->a, kj_fn);
    fn->def = def;
    fn->kind = FK_MAIN;
    fn->decorator = "";
    s->script = fn;
    return fn;
}

bool kj_script_var_error(kj_sema *s, kj_diags *d, const kj_fn *reader, const kj_expr *e)
{
    if (!s->script || reader == s->script || !kj_count_assigns(&s->script->def->body, e->name)) return false;
    const kj_funcdef *rb = kj_host_rebinder(s, e->name);
    if (rb && reader->kind != FK_HELPER) {
        kj_diag *dg = kj_error(d, s->src, e->span,
                               "'%s' is rebound by %s() through 'global': Numba would freeze only the value it "
                               "has when this function is first compiled, so kjit does not read it here",
                               e->name, rb->name);
        kj_diag_hint(dg, "pass it as an argument");
        return true;
    }
    if (kj_count_assigns(&s->mod->body, e->name) > 1) {
        /* Numba freezes the value the global has when it compiles the
         * reader (its first call): later bindings would not be seen */
        kj_diag *dg = kj_error(d, s->src, e->span,
                               "'%s' is bound more than once at module level: Numba would freeze only the value "
                               "it has when the function is first compiled, so kjit does not read it here",
                               e->name);
        kj_diag_hint(dg, "bind each value to its own name, or pass it as an argument");
        return true;
    }
    kj_diag *dg = kj_error(d, s->src, e->span,
                           "'%s' is a module-level variable set when the script runs; kjit does not "
                           "freeze such values into compiled functions yet", e->name);
    kj_diag_hint(dg, "pass it as an argument, or bind it once to a constant expression "
                     "(module constants and tuples of them are frozen into every function)");
    return true;
}
