/* SPDX-License-Identifier: BSD-2-Clause */
/* infer_str — string values (Numba's unicode type, reference/pysupported.rst
 * "str"): `s + t`, `s * n`, comparisons, `sub in s`, `s[i]` and `s[a:b:c]`
 * are str (or bool) values lowered by lower_str.c; methods and str(x) are
 * built-ins (builtins.c's type_str_method). Strings are host-side objects:
 * their built-ins are KJ_BF_HOST, so a kernel or device function that
 * makes one is a located error, as Numba's CUDA target has no strings. */
#include "sema_int.h"
#include "builtins.h"

static bool is_str(const kj_type *t) { return t && t->kind == KJ_T_STR; }

bool kj_str_involved(const kj_type *l, const kj_type *r) { return is_str(l) || is_str(r); }

bool kj_device_str_refused(kj_ictx *ic, kj_span sp)
{
    if (!kj_is_device_ctx(ic->sp)) return false;
    kj_diag *dg = kj_error(ic->d, ic->s->src, sp, "strings are not supported in CUDA kernels and device functions");
    kj_diag_hint(dg, "Numba's CUDA target has no string values; only print() of constant strings");
    return true;
}

const kj_type *kj_str_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp)
{
    if (kj_device_str_refused(ic, sp)) return NULL;
    if (op == KJ_OP_MOD && is_str(l)) { /* "%d of %s" % (a, b): printf-style, lower_str.c */
        bool ok = true;
        for (uint32_t i = 0; i < (r->kind == KJ_T_TUPLE ? r->n : 1); i++) {
            const kj_type *x = r->kind == KJ_T_TUPLE ? r->elems[i] : r;
            ok &= is_str(x) || x->kind == KJ_T_NONE || (kj_is_scalar(x) && !kj_is_complex(x));
        }
        if (ok) return kj_t_str(ic->s->types);
        kj_error(ic->d, ic->s->src, sp, "%% formatting takes numbers, strings and None (or a tuple of them), not %s",
                 kj_type_str(r));
        return NULL;
    }
    if ((op == KJ_OP_ADD && is_str(l) && is_str(r)) ||
        (op == KJ_OP_MUL && ((is_str(l) && kj_is_int(r)) || (is_str(r) && kj_is_int(l)))))
        return kj_t_str(ic->s->types);
    kj_error(ic->d, ic->s->src, sp, "unsupported operand types for %s: '%s' and '%s'", kj_binop_str(op),
             kj_type_str(l), kj_type_str(r));
    return NULL;
}

const kj_type *kj_str_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l,
                                   const kj_type *r)
{
    if (kj_device_str_refused(ic, e->span)) return NULL;
    bool ok = is_str(l) && is_str(r) && op != KJ_CMP_IS && op != KJ_CMP_ISNOT;
    if (!ok) {
        kj_error(ic->d, ic->s->src, e->span, "'%s' not supported between instances of '%s' and '%s'",
                 kj_cmpop_str(op), kj_type_str(l), kj_type_str(r));
        return NULL;
    }
    return kj_t_bool(ic->s->types);
}

static bool int_part(kj_ictx *ic, const kj_expr *p)
{
    if (!p) return true;
    const kj_type *t = kj_value_type(ic, p);
    if (!t) return false;
    if (kj_is_int(t) || t->kind == KJ_T_NONE) return true;
    kj_error(ic->d, ic->s->src, p->span, "slice indices must be integers or None, not %s", kj_type_str(t));
    return false;
}

kj_einfo *kj_type_str_subscript(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    const kj_expr *ix = e->sub.index;
    if (kj_device_str_refused(ic, e->span)) return ei_value(ei, NULL);
    if (ix->kind == KJ_E_SLICE) {
        if (!int_part(ic, ix->slice.lo) || !int_part(ic, ix->slice.hi) || !int_part(ic, ix->slice.step))
            return ei_value(ei, NULL);
        return ei_value(ei, kj_t_str(ic->s->types));
    }
    const kj_type *it = kj_value_type(ic, ix);
    if (!it) return ei_value(ei, NULL);
    if (!kj_is_int(it)) {
        kj_error(ic->d, ic->s->src, ix->span, "string indices must be integers, not %s", kj_type_str(it));
        return ei_value(ei, NULL);
    }
    return ei_value(ei, kj_t_str(ic->s->types));
}
