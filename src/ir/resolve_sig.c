/* SPDX-License-Identifier: BSD-2-Clause */
/* resolve — signatures written as Numba type objects, as well as strings:
 *
 *   @cuda.jit(void(float32[:, ::1], int64))          a signature object
 *   @njit([int32(int32, int32), int64(int64, int64)])  a list of them
 *   @njit((int64[:], int64))                          argument types only
 *   @cuda.jit(SIG) with SIG = 'void(float64[:])' or SIG = void(float64[:])
 *
 * Numba evaluates these expressions in Python when the decorator runs; kjit
 * evaluates them here, at compile time, into the same kj_sig a signature
 * string parses to (numba.core.sigutils.normalize_signature: a tuple is the
 * argument types, a call of a type is a signature). */
#include "sema_int.h"

#include <string.h>

enum { MAX_DIMS = 4, MAX_DEPTH = 32 };

/* A name holding a signature (string or object) — module-level, or a
 * signature local of the host function being resolved (s->host): its value
 * expression, else NULL. */
static const kj_expr *named_value(kj_sema *s, const kj_expr *e)
{
    if (e->kind != KJ_E_NAME) return NULL;
    const kj_static_local *l = s->host ? kj_static_local_find(s->host, e->name) : NULL;
    if (l) return l->expr;
    const kj_sym *sym = kj_sym_find(s, e->name);
    if (!sym || !sym->expr) return NULL;
    if (sym->kind == SYM_TYPEOBJ) return sym->expr;
    if (sym->kind == SYM_CONST && sym->cval.type &&
        (sym->cval.type->kind == KJ_T_STR || sym->cval.type->kind == KJ_T_TUPLE))
        return sym->expr;
    return NULL;
}

/* A scalar type named by a NAME/ATTR chain (float32, np.int64, types.intp,
 * void), or NULL (quietly). */
static const kj_type *scalar_ref(kj_sema *s, const kj_expr *e)
{
    kj_einfo ref;
    if (e->kind != KJ_E_NAME && e->kind != KJ_E_ATTR) return NULL;
    if (!kj_static_ref(s, e, &ref, false) || ref.kind != EI_DTYPE) return NULL;
    return ref.dtype;
}

static bool is_type_expr(kj_sema *s, const kj_expr *e, uint32_t depth);

/* Is `e` a call of numba.types.Array? */
static bool is_array_ctor(kj_sema *s, const kj_expr *e)
{
    kj_einfo ref;
    return e->kind == KJ_E_CALL && kj_static_ref(s, e->call.fn, &ref, false) && ref.kind == EI_TYPEOBJ &&
           ref.path && !strcmp(ref.path, "types.Array");
}

/* types.Array(dtype, ndim, layout): Numba's array type constructor, layout
 * 'C', 'F' or 'A'. NULL after reporting (when `report`). */
static const kj_type *array_ctor(kj_sema *s, const kj_expr *e, bool report)
{
    const kj_type *el = e->call.nargs == 3 && !e->call.nkw ? scalar_ref(s, e->call.args[0]) : NULL;
    const kj_expr *nd = el ? e->call.args[1] : NULL, *lay = el ? e->call.args[2] : NULL;
    bool ok = el && el->kind != KJ_T_NONE && nd->kind == KJ_E_INT && !nd->int_.big && nd->int_.value >= 1 &&
              nd->int_.value <= MAX_DIMS && lay->kind == KJ_E_STR && lay->str.len == 1 &&
              strchr("CFA", lay->str.s[0]);
    if (!ok) {
        if (report) {
            kj_diag *dg = kj_error(s->d, s->src, e->span, "types.Array takes a scalar type, 1 to %d "
                                   "dimensions and a layout 'C', 'F' or 'A'", MAX_DIMS);
            kj_diag_hint(dg, "types.Array(types.float32, 2, 'C') is float32[:, ::1]");
        }
        return NULL;
    }
    kj_layout l = lay->str.s[0] == 'C' ? KJ_LAYOUT_C : lay->str.s[0] == 'F' ? KJ_LAYOUT_F : KJ_LAYOUT_A;
    if (nd->int_.value == 1 && l == KJ_LAYOUT_F) l = KJ_LAYOUT_C; /* one dimension: F is C */
    return kj_t_array(s->types, el, (int)nd->int_.value, l);
}

/* One array dimension: ':' or '::1' (contiguous). */
static bool dim_ok(const kj_expr *d, bool *contig)
{
    if (d->kind != KJ_E_SLICE || d->slice.lo || d->slice.hi) return false;
    const kj_expr *st = d->slice.step;
    *contig = st != NULL;
    return !st || (st->kind == KJ_E_INT && st->int_.value == 1 && !st->int_.big);
}

/* float32[:], float64[:, ::1], types.int8[::1, :]: the array type, or NULL
 * after reporting (when `report`). Numba's layouts: '::1' last → C, first →
 * F, none → A. */
static const kj_type *array_type(kj_sema *s, const kj_expr *e, bool report)
{
    const kj_type *el = scalar_ref(s, e->sub.obj);
    const kj_expr *ix = e->sub.index;
    kj_expr *const *dims = ix->kind == KJ_E_TUPLE ? ix->seq.v : (kj_expr *const *)&e->sub.index;
    uint32_t n = ix->kind == KJ_E_TUPLE ? ix->seq.n : 1;
    if (!el || el->kind == KJ_T_NONE) {
        if (report)
            kj_error(s->d, s->src, e->sub.obj->span,
                     "an array type needs a scalar type before '[': float32[:], int64[:, ::1]");
        return NULL;
    }
    if (n > MAX_DIMS) {
        if (report) kj_error(s->d, s->src, ix->span, "arrays have at most %d dimensions", MAX_DIMS);
        return NULL;
    }
    int contig_at = -1;
    for (uint32_t i = 0; i < n; i++) {
        bool c;
        if (!dim_ok(dims[i], &c) || (c && contig_at >= 0)) {
            if (report) {
                kj_diag *dg = kj_error(s->d, s->src, dims[i]->span,
                                       "invalid dimension in an array type");
                kj_diag_hint(dg, "each dimension is ':' or, for one contiguous dimension, '::1'");
            }
            return NULL;
        }
        if (c) contig_at = (int)i;
    }
    kj_layout lay = contig_at < 0 ? KJ_LAYOUT_A
                  : contig_at == (int)n - 1 ? KJ_LAYOUT_C
                  : contig_at == 0 ? KJ_LAYOUT_F : KJ_LAYOUT_A;
    if (contig_at > 0 && contig_at < (int)n - 1) {
        if (report) kj_error(s->d, s->src, ix->span, "'::1' must be the first or last dimension");
        return NULL;
    }
    return kj_t_array(s->types, el, (int)n, lay);
}

/* The Numba type objects of numba.types that name containers and strings
 * (numba.typed.Dict.empty's key_type=, value_type=): their canonical path,
 * or NULL. */
static const char *const CONTAINER_TYPES[] = {"types.unicode_type", "types.UniTuple", "types.ListType",
                                              "types.DictType"};

const char *kj_is_typeobj_path(const char *path)
{
    for (size_t i = 0; i < sizeof CONTAINER_TYPES / sizeof *CONTAINER_TYPES; i++)
        if (!strcmp(path, CONTAINER_TYPES[i])) return CONTAINER_TYPES[i];
    return NULL;
}

/* Which of CONTAINER_TYPES `e` names (-1: none). */
static int container_ref(kj_sema *s, const kj_expr *e)
{
    kj_einfo ref;
    if ((e->kind != KJ_E_NAME && e->kind != KJ_E_ATTR) || !kj_static_ref(s, e, &ref, false) ||
        ref.kind != EI_TYPEOBJ || !ref.path)
        return -1;
    for (int i = 0; i < (int)(sizeof CONTAINER_TYPES / sizeof *CONTAINER_TYPES); i++)
        if (ref.path == CONTAINER_TYPES[i]) return i;
    return -1;
}

static const kj_type *eval_type(kj_sema *s, const kj_expr *e, bool report, uint32_t depth);

/* types.unicode_type, types.UniTuple(t, n), types.ListType(t),
 * types.DictType(k, v): NULL when `e` is none of them, or after reporting. */
static const kj_type *container_type(kj_sema *s, const kj_expr *e, bool report, uint32_t depth, bool *is)
{
    int c = container_ref(s, e->kind == KJ_E_CALL ? e->call.fn : e);
    *is = c >= 0;
    if (c == 0 && e->kind != KJ_E_CALL) return kj_t_str(s->types);
    if (c <= 0 || e->kind != KJ_E_CALL || depth >= MAX_DEPTH) {
        if (c >= 0 && report) kj_error(s->d, s->src, e->span, "%s is used wrongly here", CONTAINER_TYPES[c]);
        return NULL;
    }
    static const uint32_t nargs[] = {0, 2, 1, 2};
    if (e->call.nargs != nargs[c] || e->call.nkw) {
        if (report)
            kj_error(s->d, s->src, e->span, "%s() takes %u arguments", CONTAINER_TYPES[c], nargs[c]);
        return NULL;
    }
    const kj_type *a = eval_type(s, e->call.args[0], report, depth + 1);
    if (!a) return NULL;
    if (c == 2) return kj_t_list(s->types, a);
    if (c == 3) {
        const kj_type *b = eval_type(s, e->call.args[1], report, depth + 1);
        return b ? kj_t_dict(s->types, a, b) : NULL;
    }
    const kj_expr *n = e->call.args[1];
    if (n->kind != KJ_E_INT || n->int_.big || n->int_.value < 1 || n->int_.value > 32) {
        if (report) kj_error(s->d, s->src, n->span, "types.UniTuple takes a count from 1 to 32");
        return NULL;
    }
    const kj_type *el[32];
    for (uint64_t i = 0; i < n->int_.value; i++) el[i] = a;
    return kj_t_tuple(s->types, el, (uint32_t)n->int_.value);
}

/* A type object: a scalar, an array type, or a module-level name holding one. */
static const kj_type *eval_type(kj_sema *s, const kj_expr *e, bool report, uint32_t depth)
{
    const kj_type *t = scalar_ref(s, e);
    if (t) return t;
    bool is;
    t = container_type(s, e, report, depth, &is);
    if (is) return t;
    if (e->kind == KJ_E_SUBSCRIPT) return array_type(s, e, report);
    if (is_array_ctor(s, e)) return array_ctor(s, e, report);
    const kj_expr *v = named_value(s, e);
    if (v && depth < MAX_DEPTH && is_type_expr(s, v, depth + 1)) return eval_type(s, v, report, depth + 1);
    if (report) {
        kj_diag *dg = kj_error(s->d, s->src, e->span, "expected a Numba type here");
        kj_diag_hint(dg, "a type is a scalar type such as int32 or float64, or an array type such "
                         "as float32[:] or float64[:, ::1]");
    }
    return NULL;
}

const kj_type *kj_eval_type(kj_sema *s, const kj_expr *e, bool report)
{
    return eval_type(s, e, report, 0);
}

static bool is_type_expr(kj_sema *s, const kj_expr *e, uint32_t depth)
{
    if (scalar_ref(s, e)) return true;
    if (container_ref(s, e->kind == KJ_E_CALL ? e->call.fn : e) >= 0) return true;
    if (e->kind == KJ_E_SUBSCRIPT) return scalar_ref(s, e->sub.obj) != NULL;
    if (is_array_ctor(s, e)) return true;
    const kj_expr *v = named_value(s, e);
    return v && depth < MAX_DEPTH && is_type_expr(s, v, depth + 1);
}

/* A signature's return type: a scalar type, or an array type written in
 * place (float32[:, ::1](float32[:, ::1]), as Numba's docs write one). */
static bool is_ret_type(kj_sema *s, const kj_expr *e)
{
    return scalar_ref(s, e) || (e->kind == KJ_E_SUBSCRIPT && scalar_ref(s, e->sub.obj)) || is_array_ctor(s, e);
}

/* ret(args...): a call of a type with types as arguments. */
static bool is_sig_call(kj_sema *s, const kj_expr *e, uint32_t depth)
{
    if (e->kind != KJ_E_CALL || e->call.nkw || !is_ret_type(s, e->call.fn)) return false;
    for (uint32_t i = 0; i < e->call.nargs; i++)
        if (!is_type_expr(s, e->call.args[i], depth + 1)) return false;
    return true;
}

/* A tuple of types: Numba's argument-types-only signature. Not `()`: a
 * tuple of empty tuples, x = ((), (), ()), is a value (numba-cuda's
 * test_array_args.test_tuple_of_empty_tuples), not a list of signatures. */
static bool is_arg_tuple(kj_sema *s, const kj_expr *e, uint32_t depth)
{
    if (e->kind != KJ_E_TUPLE || !e->seq.n) return false;
    for (uint32_t i = 0; i < e->seq.n; i++)
        if (!is_type_expr(s, e->seq.v[i], depth + 1)) return false;
    return true;
}

static bool is_sig_expr(kj_sema *s, const kj_expr *e, uint32_t depth)
{
    if (depth > MAX_DEPTH) return false;
    if (is_sig_call(s, e, depth) || is_arg_tuple(s, e, depth)) return true;
    const kj_expr *v = named_value(s, e);
    return v && is_sig_expr(s, v, depth + 1);
}

bool kj_is_typeobj_expr(kj_sema *s, const kj_expr *e)
{
    if (e->kind == KJ_E_LIST || e->kind == KJ_E_TUPLE) {
        if (!e->seq.n) return false;
        if (is_arg_tuple(s, e, 0)) return true;
        for (uint32_t i = 0; i < e->seq.n; i++)
            if (!is_sig_expr(s, e->seq.v[i], 1)) return false;
        return true;
    }
    return is_sig_call(s, e, 0) || ((e->kind == KJ_E_SUBSCRIPT || is_array_ctor(s, e)) && is_type_expr(s, e, 0));
}

/* Types of a call's arguments or a tuple's items. */
static bool eval_types(kj_sema *s, kj_expr *const *v, uint32_t n, kj_sig *out, uint32_t depth)
{
    out->params = KJ_NEWN(s->a, const kj_type *, n ? n : 1);
    out->nparams = n;
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        out->params[i] = eval_type(s, v[i], true, depth + 1);
        if (!out->params[i]) ok = false;
        else if (out->params[i]->kind == KJ_T_NONE) {
            kj_error(s->d, s->src, v[i]->span, "a parameter cannot have type void");
            ok = false;
        }
    }
    return ok;
}

/* One signature: a string, ret(args...), (args...), or a name holding one.
 * *span is where its errors are reported from then on. */
static bool eval_sig(kj_sema *s, const kj_expr *e, kj_sig *out, kj_span *span, uint32_t depth)
{
    memset(out, 0, sizeof *out);
    if (!depth) *span = e->span; /* checks of the signature point at its use */
    if (e->kind == KJ_E_STR)
        return kj_parse_sig(s->types, s->a, e->str.s, e->str.len, s->src, e->span, s->d, out);
    if (e->kind == KJ_E_CALL && is_ret_type(s, e->call.fn)) {
        out->ret = eval_type(s, e->call.fn, true, depth + 1);
        if (!out->ret) return false;
        if (e->call.nkw) {
            kj_error(s->d, s->src, e->call.kw[0].span, "a signature takes no keyword arguments");
            return false;
        }
        return eval_types(s, e->call.args, e->call.nargs, out, depth);
    }
    if (e->kind == KJ_E_TUPLE) return eval_types(s, e->seq.v, e->seq.n, out, depth);
    const kj_expr *v = named_value(s, e);
    if (v && depth < MAX_DEPTH && v->kind != KJ_E_LIST) return eval_sig(s, v, out, span, depth + 1);
    if (e->kind == KJ_E_NAME && !kj_sym_find(s, e->name) &&
        !(s->host && kj_static_local_find(s->host, e->name))) {
        kj_diag *dg = kj_error(s->d, s->src, e->span, "'%s' is not a module-level name defined here",
                               e->name);
        kj_diag_hint(dg, "kjit reads a decorator's function and signatures when it compiles: define "
                         "them at module level, above a module-level decorator");
        return false;
    }
    kj_diag *dg = kj_error(s->d, s->src, e->span, "this is not a signature");
    kj_diag_hint(dg, "write a signature as a string such as 'void(float32[:])' or as Numba types "
                     "such as void(float32[:]); a tuple of types gives the argument types");
    return false;
}

/* Does the tuple list signatures ('f8(f8)', 'i4(i4)') rather than give
 * argument types? */
static bool tuple_of_sigs(kj_sema *s, const kj_expr *e)
{
    if (!e->seq.n) return false;
    for (uint32_t i = 0; i < e->seq.n; i++) {
        const kj_expr *it = e->seq.v[i];
        const kj_expr *v = named_value(s, it);
        if (v) it = v;
        if (it->kind != KJ_E_STR && !is_sig_call(s, it, 1)) return false;
    }
    return true;
}

bool kj_eval_sigs(kj_sema *s, const kj_expr *e, kj_sig **sigs, kj_span **spans, uint32_t *n)
{
    /* A module-level name holding a list of signatures. */
    for (uint32_t d = 0; d < MAX_DEPTH; d++) {
        const kj_expr *v = named_value(s, e);
        if (!v || (v->kind != KJ_E_LIST && v->kind != KJ_E_TUPLE)) break;
        e = v;
    }
    kj_expr *const *items = (kj_expr *const *)&e;
    uint32_t m = 1;
    if (e->kind == KJ_E_LIST || (e->kind == KJ_E_TUPLE && tuple_of_sigs(s, e))) {
        items = e->seq.v;
        m = e->seq.n;
    }
    *sigs = KJ_NEWN(s->a, kj_sig, m ? m : 1);
    *spans = KJ_NEWN(s->a, kj_span, m ? m : 1);
    *n = 0;
    bool ok = true;
    for (uint32_t i = 0; i < m; i++) {
        if (eval_sig(s, items[i], &(*sigs)[*n], &(*spans)[*n], 0)) (*n)++;
        else ok = false;
    }
    return ok;
}

void kj_check_typeobj(kj_sema *s, const kj_expr *e)
{
    if (e->kind == KJ_E_SUBSCRIPT || is_array_ctor(s, e)) {
        eval_type(s, e, true, 0);
        return;
    }
    kj_sig *sigs;
    kj_span *spans;
    uint32_t n;
    kj_eval_sigs(s, e, &sigs, &spans, &n);
}
