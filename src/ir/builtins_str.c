/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the str methods that make or read lists of strings, and of the
 * case maps and classes (Numba's unicode type, reference/pysupported.rst
 * "str"): split/rsplit(sep=None, maxsplit=-1), splitlines(keepends=False),
 * sep.join(list of str), partition/rpartition (a 3-tuple of str), index/
 * rindex, expandtabs(tabsize=8), title/swapcase/capitalize/casefold and the
 * is* predicates. builtins.c's dispatch sends KJ_B_STR_SPLIT..
 * KJ_B_STR_ISPRINTABLE here; llvm_str_split.c lowers them. */
#include "builtins.h"

typedef struct {
    kj_types *t;
    kj_builtin id;
    const kj_barg *args;
    uint32_t nargs;
    kj_span call;
    const kj_source *src;
    kj_diags *d;
    const kj_type **conv;
} sctx;

static const kj_type *ty(const sctx *c, uint32_t i) { return i < c->nargs ? c->args[i].type : NULL; }
static bool given(const sctx *c, uint32_t i) { return ty(c, i) && ty(c, i)->kind != KJ_T_NONE; }
static const char *name(const sctx *c) { return kj_builtin_get(c->id)->path; }

/* Argument i (when given) a string (want 's'), an integer ('i', converted
 * to int64) or a bool ('b'); a located error otherwise. */
static bool arg(sctx *c, uint32_t i, char want)
{
    if (!given(c, i)) return true;
    const kj_type *x = ty(c, i);
    bool ok = want == 's' ? x->kind == KJ_T_STR : want == 'i' ? kj_is_int(x) : x->kind == KJ_T_BOOL || kj_is_int(x);
    if (!ok) {
        kj_error(c->d, c->src, c->args[i].span, "%s() argument %u must be %s, not %s", name(c), i,
                 want == 's' ? "str" : want == 'i' ? "int" : "bool", kj_type_str(x));
        return false;
    }
    if (want == 'i' && c->conv) c->conv[i] = kj_t_int(c->t, 64, true);
    return true;
}

static const kj_type *join_type(sctx *c)
{
    const kj_type *x = ty(c, 1);
    if (!x || x->kind != KJ_T_LIST || !x->elem || x->elem->kind != KJ_T_STR) {
        kj_error(c->d, c->src, c->nargs > 1 ? c->args[1].span : c->call, "%s() takes a list of str, not %s", name(c),
                 x ? kj_type_str(x) : "nothing");
        return NULL;
    }
    return kj_t_str(c->t);
}

const kj_type *kj_type_str_builtin(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                   const kj_source *src, kj_diags *d, const kj_type **conv)
{
    sctx c = {t, id, args, nargs, call, src, d, conv};
    const kj_type *st = kj_t_str(t);
    if (!ty(&c, 0) || ty(&c, 0)->kind != KJ_T_STR) {
        kj_error(d, src, call, "%s() takes a string as its receiver", name(&c));
        return NULL;
    }
    switch (id) {
    case KJ_B_STR_SPLIT: case KJ_B_STR_RSPLIT:
        return arg(&c, 1, 's') && arg(&c, 2, 'i') ? kj_t_list(t, st) : NULL;
    case KJ_B_STR_SPLITLINES: return arg(&c, 1, 'b') ? kj_t_list(t, st) : NULL;
    case KJ_B_STR_JOIN: return join_type(&c);
    case KJ_B_STR_PARTITION: case KJ_B_STR_RPARTITION: {
        if (!given(&c, 1)) return arg(&c, 1, 's'), kj_error(d, src, call, "%s() takes a separator", name(&c)), NULL;
        const kj_type *e[3] = {st, st, st};
        return arg(&c, 1, 's') ? kj_t_tuple(t, e, 3) : NULL;
    }
    case KJ_B_STR_INDEX: case KJ_B_STR_RINDEX:
        if (!given(&c, 1)) return kj_error(d, src, call, "%s() takes a substring", name(&c)), NULL;
        return arg(&c, 1, 's') ? kj_t_int(t, 64, true) : NULL;
    case KJ_B_STR_EXPANDTABS: return arg(&c, 1, 'i') ? st : NULL;
    case KJ_B_STR_TITLE: case KJ_B_STR_SWAPCASE: case KJ_B_STR_CAPITALIZE: case KJ_B_STR_CASEFOLD: return st;
    default: return kj_t_bool(t); /* the is* predicates */
    }
}
