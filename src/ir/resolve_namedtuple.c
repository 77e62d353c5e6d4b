/* SPDX-License-Identifier: BSD-2-Clause */
/* collections.namedtuple, as Numba supports it (pysupported.rst, "tuple":
 * "namedtuple" with homogeneous and heterogeneous members): a class made at
 * module level, `Point = namedtuple('Point', ['x', 'y'])` (or 'x y', 'x, y'),
 * whose instances are tuples that also have names: constructed positionally
 * or by keyword, read as p.x or p[0], unpacked, passed to and returned from
 * compiled functions and passed to kernels exactly as tuples are. Its type is
 * a KJ_T_TUPLE whose ref is the class (types.c), so every tuple path applies;
 * printing (llvm_host_builtins.c) shows Point(x=1, y=2) as Python does. */
#include "sema_int.h"

#include <ctype.h>

static bool is_identifier(const char *s, size_t n)
{
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return false;
    return true;
}

/* One field name (of length n at s), checked as namedtuple checks it. */
static bool add_field(kj_sema *s, kj_ntclass *c, uint32_t cap, const char *f, size_t n, kj_span sp)
{
    const char *name = kj_arena_strndup(s->a, f, n);
    if (!is_identifier(f, n) || name[0] == '_') {
        kj_error(s->d, s->src, sp,
                 name[0] == '_' && is_identifier(f, n)
                     ? "ValueError: Field names cannot start with an underscore: '%s'"
                     : "ValueError: Type names and field names must be valid identifiers: '%s'",
                 name);
        return false;
    }
    if (kj_nt_field(c, name) >= 0) {
        kj_error(s->d, s->src, sp, "ValueError: Encountered duplicate field name: '%s'", name);
        return false;
    }
    if (c->n == cap) {
        kj_error(s->d, s->src, sp, "a namedtuple has at most %u fields in kjit", cap);
        return false;
    }
    c->fields[c->n++] = name;
    return true;
}

enum { MAX_FIELDS = 64 };

/* 'x y' or 'x, y': names separated by commas and white space. */
static bool fields_of_string(kj_sema *s, kj_ntclass *c, const kj_expr *e)
{
    const char *p = e->str.s, *end = p + e->str.len;
    while (p < end) {
        while (p < end && (*p == ',' || isspace((unsigned char)*p))) p++;
        const char *q = p;
        while (q < end && *q != ',' && !isspace((unsigned char)*q)) q++;
        if (q > p && !add_field(s, c, MAX_FIELDS, p, (size_t)(q - p), e->span)) return false;
        p = q;
    }
    return true;
}

static bool fields_of(kj_sema *s, kj_ntclass *c, const kj_expr *e)
{
    if (e->kind == KJ_E_STR) return fields_of_string(s, c, e);
    if (e->kind == KJ_E_LIST || e->kind == KJ_E_TUPLE) {
        for (uint32_t i = 0; i < e->seq.n; i++) {
            const kj_expr *f = e->seq.v[i];
            if (f->kind != KJ_E_STR) {
                kj_error(s->d, s->src, f->span, "namedtuple field names must be string literals");
                return false;
            }
            if (!add_field(s, c, MAX_FIELDS, f->str.s, f->str.len, f->span)) return false;
        }
        return true;
    }
    kj_diag_hint(kj_error(s->d, s->src, e->span, "namedtuple field names must be written in place"),
                 "a list or tuple of strings, ['x', 'y'], or one string, 'x y'");
    return false;
}

static bool is_namedtuple_call(kj_sema *s, const kj_expr *v)
{
    kj_einfo ref;
    return v->kind == KJ_E_CALL && kj_static_ref(s, v->call.fn, &ref, false) && ref.kind == EI_BUILTIN &&
           ref.builtin == KJ_B_NAMEDTUPLE;
}

static const kj_ntclass *make_class(kj_sema *s, const kj_expr *v)
{
    const kj_expr *name = v->call.nargs > 0 ? v->call.args[0] : NULL;
    const kj_expr *fields = v->call.nargs > 1 ? v->call.args[1] : NULL;
    for (uint32_t k = 0; k < v->call.nkw; k++) {
        const kj_keyword *kw = &v->call.kw[k];
        if (!strcmp(kw->name, "typename") && !name) name = kw->value;
        else if (!strcmp(kw->name, "field_names") && !fields) fields = kw->value;
        else {
            kj_error(s->d, s->src, kw->span, "namedtuple() keyword argument '%s' is not supported by kjit",
                     kw->name);
            return NULL;
        }
    }
    if (!name || !fields || v->call.nargs > 2) {
        kj_error(s->d, s->src, v->span, "namedtuple() takes a type name and the field names");
        return NULL;
    }
    if (name->kind != KJ_E_STR || !is_identifier(name->str.s, name->str.len)) {
        kj_error(s->d, s->src, name->span, "namedtuple's type name must be a string literal naming a class");
        return NULL;
    }
    kj_ntclass *c = KJ_NEW(s->a, kj_ntclass);
    c->name = kj_arena_strndup(s->a, name->str.s, name->str.len);
    c->fields = KJ_NEWN(s->a, const char *, MAX_FIELDS);
    return fields_of(s, c, fields) ? c : NULL;
}

bool kj_resolve_namedtuple(kj_sema *s, const kj_stmt *st, const kj_ntclass **out)
{
    *out = NULL;
    if (!is_namedtuple_call(s, st->assign.value)) return false;
    *out = make_class(s, st->assign.value);
    return true;
}

/* ---- typing -------------------------------------------------------------- */

/* The argument that fills field i: positional, or by keyword. */
static bool bind_args(kj_ictx *ic, const kj_expr *e, const kj_ntclass *cls, const kj_expr **by_field)
{
    if (e->call.nargs > cls->n) {
        kj_error(ic->d, ic->s->src, e->span, "TypeError: %s.__new__() takes %u positional arguments but %u were given",
                 cls->name, cls->n + 1, e->call.nargs + 1); /* counting cls, as Python's __new__ does */
        return false;
    }
    for (uint32_t i = 0; i < cls->n; i++) by_field[i] = i < e->call.nargs ? e->call.args[i] : NULL;
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        const kj_keyword *kw = &e->call.kw[k];
        int f = kj_nt_field(cls, kw->name);
        if (f < 0 || by_field[f]) {
            kj_error(ic->d, ic->s->src, kw->span,
                     f < 0 ? "TypeError: %s.__new__() got an unexpected keyword argument '%s'"
                           : "TypeError: %s.__new__() got multiple values for argument '%s'",
                     cls->name, kw->name);
            return false;
        }
        by_field[f] = kw->value;
    }
    /* Python's message: missing 1 required positional argument: 'y' / 2 ...: 'x' and 'y' */
    kj_buf names = {0};
    uint32_t missing = 0;
    for (uint32_t i = 0; i < cls->n; i++)
        if (!by_field[i]) missing++;
    for (uint32_t i = 0, k = 0; i < cls->n; i++) {
        if (by_field[i]) continue;
        k++;
        kj_buf_puts(&names, k == 1 ? "'" : k == missing ? (missing > 2 ? ", and '" : " and '") : ", '");
        kj_buf_puts(&names, cls->fields[i]);
        kj_buf_putc(&names, '\'');
    }
    if (missing)
        kj_error(ic->d, ic->s->src, e->span, "TypeError: %s.__new__() missing %u required positional argument%s: %s",
                 cls->name, missing, missing > 1 ? "s" : "", names.s);
    kj_buf_free(&names);
    return !missing;
}

kj_einfo *kj_type_nt_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const kj_ntclass *cls)
{
    const kj_expr *by_field[MAX_FIELDS];
    for (uint32_t i = 0; i < e->call.nargs; i++) kj_value_type(ic, e->call.args[i]);
    for (uint32_t k = 0; k < e->call.nkw; k++) kj_value_type(ic, e->call.kw[k].value);
    if (!bind_args(ic, e, cls, by_field)) return ei_value(ei, NULL);
    const kj_type *el[MAX_FIELDS];
    for (uint32_t i = 0; i < cls->n; i++) {
        /* literals take their strong types, as Numba types Point(1, 2.5) (int64, float64) */
        el[i] = kj_strong(ic->s->types, ic->sp->ei[by_field[i]->id].type);
        if (!el[i]) return ei_value(ei, NULL);
    }
    ei_value(ei, kj_t_namedtuple(ic->s->types, cls, el));
    ei->ntc = cls;
    return ei;
}

const kj_type *kj_nt_attr_type(kj_ictx *ic, const kj_expr *e, const kj_type *t)
{
    const kj_ntclass *cls = kj_nt_class(t);
    int f = kj_nt_field(cls, e->attr.name);
    if (f < 0) {
        kj_error(ic->d, ic->s->src, e->attr.name_span, "'%s' object has no attribute '%s'", cls->name,
                 e->attr.name);
        return NULL;
    }
    return t->elems[f];
}
