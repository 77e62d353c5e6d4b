/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_sortkey — sorted(x, key=f) and lst.sort(key=f) (issue 23 point 8,
 * issue 24; Numba's pysupported.rst: "sorted()", "list.sort()" with key=).
 * The key is a function value known when the program compiles: a lambda, a
 * function defined in the file (@jit or plain), or the built-ins abs, len
 * and str.lower / str.upper. It is typed here as a call of it on one
 * element of the list; its result (the sort key) must be one list_sort.c
 * compares: a real number, a string or a tuple of them. The key function's
 * specialisation is kept in the key expression's einfo (callee) for
 * lower_sortkey.c. */
#include "sema_int.h"
#include "builtins.h"

#include <string.h>

bool kj_sort_key_kw(int b, const char *kw)
{
    return (b == KJ_B_SORTED || b == KJ_B_LIST_SORT) && !strcmp(kw, "key");
}

static bool builtin_key(int b)
{
    return b == KJ_B_ABS || b == KJ_B_LEN || b == KJ_B_STR_LOWER || b == KJ_B_STR_UPPER;
}

static bool fn_key(const kj_fn *fn)
{
    return fn->kind == FK_JIT || fn->kind == FK_HELPER;
}

/* key=str.lower, key=str.upper: the unbound methods, as the built-ins
 * STR_LOWER/UPPER (as a value, lowered as a FUNC constant) */
static kj_einfo *str_method(kj_ictx *ic, const kj_expr *e)
{
    if (e->kind != KJ_E_ATTR || (strcmp(e->attr.name, "lower") && strcmp(e->attr.name, "upper"))) return NULL;
    kj_einfo *oi = kj_type_expr(ic, e->attr.obj);
    if (oi->kind != EI_BUILTIN || oi->builtin != KJ_B_STR) return NULL;
    kj_einfo *ei = ei_reset(ic, e);
    ei->kind = EI_BUILTIN;
    ei->builtin = e->attr.name[0] == 'l' ? KJ_B_STR_LOWER : KJ_B_STR_UPPER;
    return ei;
}

/* key=f: f as a function value (a FUNC type), or None (no key). */
bool kj_type_sort_key_arg(kj_ictx *ic, const kj_expr *e, kj_barg *out)
{
    memset(out, 0, sizeof *out);
    out->span = e->span;
    kj_einfo *ei = str_method(ic, e);
    if (!ei) ei = kj_type_expr(ic, e);
    if (ei->kind == EI_NONE || (ei->kind == EI_VALUE && !ei->type)) return false; /* reported */
    kj_types *T = ic->s->types;
    if (ei->kind == EI_VALUE && ei->type && ei->type->kind == KJ_T_NONE) {
        out->type = ei->type;
        return true;
    }
    bool host = ic->sp->fn->kind == FK_MAIN || ic->sp->fn->kind == FK_HELPER;
    bool jit_key = ei->kind == EI_FUNC && ei->fn && ei->fn->kind == FK_JIT;
    if (!host && (ei->kind == EI_BUILTIN || (ei->kind == EI_FUNC && !jit_key))) {
        /* Numba's listobj.py: compiled code calls only compiled key functions */
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "Key must be None or a Numba JIT compiled function");
        kj_diag_hint(dg, "in a @jit function, give a lambda or a @jit function: key=lambda x: len(x)");
        return false;
    }
    if (ei->kind == EI_FUNC && ei->fn && !ei->fn->bad && fn_key(ei->fn)) {
        out->type = ei->type = kj_t_func(T, ei->fn, -1, ei->fn->def->name); /* lowered as a FUNC constant */
        return true;
    }
    if (ei->kind == EI_BUILTIN && builtin_key(ei->builtin)) {
        out->type = ei->type = kj_t_func(T, NULL, ei->builtin, kj_builtin_get(ei->builtin)->path);
        return true;
    }
    kj_diag *dg = ei->kind == EI_VALUE /* CPython's TypeError */
        ? kj_error(ic->d, ic->s->src, e->span, "'%s' object is not callable", kj_type_str(ei->type))
        : kj_error(ic->d, ic->s->src, e->span, "key= takes a function of one argument here, not %s",
                   ei->kind == EI_FUNC && ei->fn->kind == FK_KERNEL ? "a kernel"
                   : ei->kind == EI_FUNC ? "this kind of function" : "this");
    kj_diag_hint(dg, "give a lambda, a function defined in the file, abs, len or str.lower");
    return false;
}

/* The key of a built-in key function on an element of type el, or NULL. */
static const kj_type *builtin_key_type(kj_ictx *ic, int b, const kj_type *el, kj_span sp)
{
    kj_types *T = ic->s->types;
    if (b == KJ_B_ABS && (kj_is_int(el) || el->kind == KJ_T_BOOL || el->kind == KJ_T_FLOAT))
        return el->kind == KJ_T_BOOL ? kj_t_int(T, 64, true) : el;
    if (b == KJ_B_LEN && (el->kind == KJ_T_STR || el->kind == KJ_T_LIST || el->kind == KJ_T_TUPLE ||
                          (el->kind == KJ_T_ARRAY && el->ndim >= 1)))
        return kj_t_int(T, 64, true);
    if ((b == KJ_B_STR_LOWER || b == KJ_B_STR_UPPER) && el->kind == KJ_T_STR) return el;
    kj_error(ic->d, ic->s->src, sp, "key=%s cannot be applied to the elements, of type %s",
             kj_builtin_get(b)->path, kj_type_str(el));
    return NULL;
}

/* a function's name as CPython gives it: "<lambda>" for every lambda */
static const char *py_name(const kj_funcdef *def)
{
    return !strncmp(def->name, "<lambda", 7) ? "<lambda>" : def->name;
}

/* Does the key function take one argument? Else CPython's TypeError,
 * known here when the program compiles. */
static bool arity_ok(kj_ictx *ic, const kj_funcdef *def, kj_span sp)
{
    uint32_t req = 0;
    while (req < def->nparams && !def->params[req].def) req++;
    if (def->nparams == 1 && req == 1) return true;
    kj_diag *dg;
    if (def->nparams == 0) {
        dg = kj_error(ic->d, ic->s->src, sp, "%s() takes 0 positional arguments but 1 was given", py_name(def));
    } else if (req > 1) {
        const char *names = "";
        for (uint32_t i = 1; i < req; i++)
            names = kj_arena_printf(ic->s->a, "%s%s'%s'", names, i == 1 ? "" : i + 1 == req ? " and " : ", ",
                                    def->params[i].name);
        dg = kj_error(ic->d, ic->s->src, sp, "%s() missing %u required positional argument%s: %s", py_name(def),
                      req - 1, req == 2 ? "" : "s", names);
    } else {
        dg = kj_error(ic->d, ic->s->src, sp, "a key function with default parameters (%s()) is not supported yet",
                      py_name(def));
    }
    kj_diag_hint(dg, "a key function takes one argument: an element of the list");
    return false;
}

/* The key of a user function on an element of type el (its
 * specialisation kept in *spec), or NULL. */
static const kj_type *fn_key_type(kj_ictx *ic, kj_fn *fn, const kj_type *el, kj_span sp, kj_spec **spec)
{
    if (!arity_ok(ic, fn->def, sp)) return NULL;
    const kj_type *args[2] = {el, NULL};
    kj_spec *callee = kj_specialise(ic, fn, args, false, sp);
    if (!callee || callee->state == SPEC_FAILED) return NULL;
    if (!callee->ret) {
        if (ic->report && !kj_has_errors(ic->d))
            kj_error(ic->d, ic->s->src, sp, "cannot infer the return type of the key function '%s'", fn->def->name);
        return NULL;
    }
    *spec = callee;
    return callee->ret;
}

/* After builtins.c typed sorted()/lst.sort() (key at bound[1]): the key
 * function's call on an element; t, or NULL after an error. */
const kj_type *kj_type_sort_key_call(kj_ictx *ic, const kj_expr *e, int b, const kj_type *t, kj_barg *bound,
                                     const int32_t *map, int nb)
{
    if (nb < 2 || !bound[1].type || bound[1].type->kind != KJ_T_FUNC) return t;
    const kj_type *lt = b == KJ_B_SORTED ? t : bound[0].type;
    const kj_type *el = lt && lt->kind == KJ_T_LIST ? lt->elem : NULL;
    if (!el) return t; /* an empty list of no type yet: no element to call the key on */
    int32_t m = map[1];
    const kj_expr *ke = m >= 0 ? e->call.args[m] : e->call.kw[-1 - m].value;
    kj_einfo *kei = &ic->sp->ei[ke->id];
    kei->callee = NULL;
    const kj_type *fk = bound[1].type, *key;
    if (fk->ref) key = fn_key_type(ic, (kj_fn *)fk->ref, el, bound[1].span, &kei->callee);
    else key = builtin_key_type(ic, fk->builtin, el, bound[1].span);
    if (!key) return NULL;
    key = kj_strong(ic->s->types, key);
    bool ok = kj_list_orderable(key) && (key->kind != KJ_T_TUPLE || key->n < 64);
    if (!ok) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, bound[1].span, "%s() by a key of %s is not supported yet",
                               b == KJ_B_SORTED ? "sorted" : "list.sort", kj_type_str(key));
        kj_diag_hint(dg, "kjit sorts by keys of real numbers, strings or tuples of them");
        return NULL;
    }
    return t;
}
