/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_pygen — generators (Numba's reference/pysupported.rst
 * "Generators"): a function whose body has a `yield` statement returns,
 * when called, a generator of its yield type (the unified type of every
 * yielded value; a bare `yield` gives None). Iterating it (for, list(),
 * sum(), next()) runs the body up to the next yield each time; codegen
 * makes it an LLVM coroutine, whose frame holds the live locals and the
 * resume index (llvm_pygen.c). Refused as Numba refuses: a yield type
 * that does not unify, a generator in a kernel or device function; and,
 * where kjit differs, `yield` inside a try statement (kjit's try keeps a
 * setjmp context in the stack frame the yield leaves). */
#include "sema_int.h"

/* Does the block (not a nested def) hold a yield statement? */
bool kj_block_yields(const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        if (b->v[i]->kind == KJ_S_YIELD) return true;
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++)
            if (kj_block_yields(in[k])) return true;
    }
    return false;
}

/* yield statements inside a try statement of block b (in_try: b is in one). */
static void check_try(kj_ictx *ic, const kj_block *b, bool in_try)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        if (st->kind == KJ_S_YIELD && in_try) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, st->span, "'yield' inside a 'try' statement is not supported");
            kj_diag_hint(dg, "move the yield out of the try statement");
        }
        const kj_block *in[2];
        bool t = in_try || st->kind == KJ_S_TRY;
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++) check_try(ic, in[k], t);
    }
}

/* Once per reporting walk of a generator: what is refused as a whole. */
void kj_check_generator(kj_ictx *ic)
{
    if (ic->report) check_try(ic, &ic->sp->fn->def->body, false);
}

/* `return` in a generator: it ends the iteration; a value is typed and
 * dropped, as Numba drops it (no StopIteration.value). */
void kj_infer_generator_return(kj_ictx *ic, const kj_stmt *st)
{
    if (st->ret.value) kj_type_expr(ic, st->ret.value);
}

void kj_infer_yield(kj_ictx *ic, const kj_stmt *st)
{
    kj_spec *sp = ic->sp;
    kj_fkind k = sp->fn->kind;
    if (k == FK_KERNEL || k == FK_DEVICE || sp->device || k == FK_VECTORIZE || k == FK_GUVECTORIZE ||
        k == FK_REDUCE) {
        kj_error(ic->d, ic->s->src, st->span, "generators are not supported in %s (a function with 'yield')",
                 k == FK_KERNEL ? "kernels" : k == FK_DEVICE || sp->device ? "device functions" : "ufuncs");
        return;
    }
    const kj_type *t = st->ret.value ? kj_value_type(ic, st->ret.value) : kj_t_none(ic->s->types);
    if (!t) return;
    t = kj_strong(ic->s->types, t);
    if (t->kind == KJ_T_LIST && !t->elem) {
        kj_error(ic->d, ic->s->src, st->span, "cannot yield an empty list: its element type is unknown");
        return;
    }
    if (!sp->ret) {
        sp->ret = kj_t_generator(ic->s->types, t);
        ic->changed = true;
        return;
    }
    const kj_type *u = kj_unify(ic->s->types, sp->ret->elem, t);
    if (!u) { /* Numba's TypingError, its types sorted by name */
        const char *a = kj_type_str(sp->ret->elem), *b = kj_type_str(t);
        if (strcmp(a, b) > 0) {
            const char *x = a;
            a = b, b = x;
        }
        kj_error(ic->d, ic->s->src, st->span, "Can't unify yield type from the following types: %s, %s", a, b);
        return;
    }
    if (u != sp->ret->elem) {
        sp->ret = kj_t_generator(ic->s->types, u);
        ic->changed = true;
    }
}

/* iter(x): an iterator over x; of a generator, the generator itself.
 * next(it): the next value (StopIteration at the end); next(it, default):
 * default then, converted to the yield type. */
const kj_type *kj_btype_iter(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                             const kj_source *src, kj_diags *d, const kj_type **conv)
{
    const kj_type *x = nargs ? args[0].type : NULL;
    if (!x) {
        kj_error(d, src, call, "%s() missing required argument", id == KJ_B_ITER ? "iter" : "next");
        return NULL;
    }
    if (x->kind != KJ_T_GENERATOR) {
        kj_error(d, src, args[0].span, "'%s' object is not %s", kj_type_str(kj_strong(t, x)),
                 id == KJ_B_ITER ? "iterable here (iter() takes a generator)" : "an iterator");
        return NULL;
    }
    if (id == KJ_B_ITER) return x;
    if (nargs > 1 && args[1].type) {
        if (!kj_can_convert(args[1].type, x->elem) && !(kj_is_scalar(args[1].type) && kj_is_scalar(x->elem))) {
            kj_error(d, src, args[1].span, "next()'s default is %s, the iterator yields %s",
                     kj_type_str(args[1].type), kj_type_str(x->elem));
            return NULL;
        }
        if (conv) conv[1] = x->elem;
    }
    return x->elem;
}

const kj_barg *kj_gen_list_args(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_barg *buf)
{
    bool over = id == KJ_B_SUM || id == KJ_B_LIST_OF || id == KJ_B_SORTED || id == KJ_B_ANY || id == KJ_B_ALL ||
                ((id == KJ_B_MIN || id == KJ_B_MAX) && nargs == 1);
    if (!over || !nargs || nargs > 8 || !args[0].type || args[0].type->kind != KJ_T_GENERATOR) return args;
    memcpy(buf, args, nargs * sizeof *args);
    buf[0].type = kj_t_list(t, args[0].type->elem);
    return buf;
}
