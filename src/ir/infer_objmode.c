/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_objmode — `with objmode(y='float64', z='int64[:]'):` (Numba's
 * pysupported.rst, "with objmode"). Numba runs the block in the
 * interpreter; kjit has none, and its wider host-code rules are those of a
 * whole function (main and undecorated helpers), so the block is compiled
 * as a plain block of the function, under the function's rules. What Numba
 * promises of the block's ends is kept: each annotated name leaves it in the
 * annotated type, through the `y = $objmode_out(y, 'float64')` the parser
 * appends to the block (parser_objmode.c): typed here, the annotation's type
 * when y converts to it (any number to any number, an array to an array of
 * its element type and dimensions), else a located error; an annotation that
 * names no type is sigparse.c's located error. */
#include "sema_int.h"

#include <stdio.h>

bool kj_objmode_with(kj_ictx *ic, const kj_stmt *st)
{
    const kj_expr *c = st->with.ctx;
    if (c->kind != KJ_E_CALL) return false;
    const kj_expr *fn = c->call.fn; /* typed only when it may be objmode: cuda.pinned is no value */
    const char *n = fn->kind == KJ_E_NAME ? fn->name : fn->kind == KJ_E_ATTR ? fn->attr.name : "";
    if (strcmp(n, "objmode")) return false;
    kj_einfo *f = kj_type_expr(ic, c->call.fn);
    if (f->kind != EI_BUILTIN || f->builtin != KJ_B_OBJMODE) return false;
    if (c->call.nargs)
        kj_error(ic->d, ic->s->src, c->call.args[0]->span, "objmode() takes its annotations by keyword: objmode(y='float64')");
    for (uint32_t i = 0; i < c->call.nkw; i++) {
        const kj_expr *v = c->call.kw[i].value;
        if (v->kind != KJ_E_STR || v->str.fstr)
            kj_error(ic->d, ic->s->src, v->span, "an objmode annotation is a string naming a type: %s='float64'",
                     c->call.kw[i].name);
    }
    if (st->with.target) kj_error(ic->d, ic->s->src, st->with.target->span, "'with objmode(...)' binds nothing with 'as'");
    return true;
}

/* The type annotation `s` (a string literal at sp) names, NULL after an error. */
static const kj_type *annotation(kj_types *t, const char *s, kj_span sp, const kj_source *src, kj_diags *d)
{
    char buf[256];
    if (snprintf(buf, sizeof buf, "%s()", s) >= (int)sizeof buf) {
        kj_error(d, src, sp, "objmode annotation too long");
        return NULL;
    }
    kj_arena a;
    kj_arena_init(&a);
    kj_sig sig;
    bool ok = kj_parse_sig(t, &a, buf, (uint32_t)strlen(buf), src, sp, d, &sig);
    kj_arena_free(&a);
    if (ok && (!sig.ret || sig.ret->kind == KJ_T_NONE)) {
        kj_error(d, src, sp, "objmode annotation '%s' names no value type", s);
        return NULL;
    }
    return ok ? sig.ret : NULL;
}

const kj_type *kj_btype_objmode(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                const kj_source *src, kj_diags *d, const kj_type **conv)
{
    if (id == KJ_B_OBJMODE) {
        kj_diag *dg = kj_error(d, src, call, "objmode is a context manager");
        kj_diag_hint(dg, "write: with objmode(y='float64'):");
        return NULL;
    }
    if (nargs != 2 || !args[1].is_const || !args[1].sval) { /* only the parser writes this call */
        kj_error(d, src, call, "$objmode_out takes a variable and its annotation, a string");
        return NULL;
    }
    const kj_type *want = annotation(t, args[1].sval, args[1].span, src, d), *x = args[0].type;
    if (!want || !x) return NULL;
    bool ok = kj_is_scalar(x) && kj_is_scalar(want) ? true : kj_can_convert(kj_strong(t, x), want);
    if (!ok) {
        kj_error(d, src, args[0].span, "objmode: the value is %s here, which its annotation '%s' cannot hold",
                 kj_type_str(kj_strong(t, x)), args[1].sval);
        return NULL;
    }
    if (conv) conv[0] = want;
    return want;
}
