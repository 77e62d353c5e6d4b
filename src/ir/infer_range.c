/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of range objects held as values (issue 24 point 2, CPython's
 * semantics; lowered by lower_range.c): r.start / r.stop / r.step, r[i]
 * (negative too; IndexError 'range object index out of range' at run time),
 * x in r of integers, and print(r) as CPython prints it. Numba 0.56 types
 * none of r[i], r.start or print(r) in @jit code; kjit gives them CPython's
 * meaning everywhere. r[a:b] is refused (a range of ranges' bounds). */
#include "sema_int.h"
#include "builtins.h"

#include <string.h>

kj_einfo *kj_type_range_attr(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei)
{
    const char *n = e->attr.name;
    if (strcmp(n, "start") && strcmp(n, "stop") && strcmp(n, "step")) {
        kj_error(ic->d, ic->s->src, e->attr.name_span, "'range' object has no attribute '%s'", n);
        return ei_value(ei, NULL);
    }
    ei_value(ei, t->elem);
    ei->builtin = -1;
    return ei;
}

kj_einfo *kj_type_range_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei)
{
    if (e->sub.index->kind == KJ_E_SLICE) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "slicing a range is not supported");
        kj_diag_hint(dg, "index it (r[i]) or build the range you need with range(start, stop, step)");
        return ei_value(ei, NULL);
    }
    const kj_type *ix = kj_value_type(ic, e->sub.index);
    if (!ix) return ei_value(ei, NULL);
    if (!kj_is_int(ix) && ix->kind != KJ_T_BOOL) {
        kj_error(ic->d, ic->s->src, e->sub.index->span, "range indices must be integers or slices, not %s",
                 kj_type_str(ix));
        return ei_value(ei, NULL);
    }
    return ei_value(ei, t->elem);
}

const kj_type *kj_range_in_type(kj_ictx *ic, const kj_expr *e, const kj_type *l)
{
    if (kj_is_int(l) || l->kind == KJ_T_BOOL) return kj_t_bool(ic->s->types);
    kj_error(ic->d, ic->s->src, e->span, "'in' of a range takes an integer, not %s", kj_type_str(l));
    return NULL;
}
