/* SPDX-License-Identifier: BSD-2-Clause */
/* The built-in table (builtins.h): lookup by dotted path, argument binding
 * and the typing rule of every built-in (Numba/NumPy semantics, NEP 50
 * literals). */
#include "builtins.h"
#include "builtins_int.h"
#include "builtins_random.h"
#include "../frontend/ast.h" /* the operators of kj_builtin_operator */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the table ------------------------------------------------------------- */

static const kj_builtin_info infos[KJ_B__COUNT] = {
#define X(id, path, flags, params) [KJ_B_##id] = {path, flags, params},
    KJ_BUILTINS(X)
#undef X
};

/* Every spelling, canonical paths first, then aliases. About 250 entries:
 * lookups compare the length first, so a scan costs a few hundred integer
 * compares and needs no table built at run time (no mutable state). */
typedef struct {
    const char *path;
    uint16_t len;
    uint16_t id;
} path_entry;

static const path_entry paths[] = {
#define X(id, path, flags, params) {path, sizeof(path) - 1, KJ_B_##id},
    KJ_BUILTINS(X)
#undef X
#define A(path, id) {path, sizeof(path) - 1, KJ_B_##id},
    KJ_BUILTIN_ALIASES(A)
#undef A
};

enum { NPATHS = sizeof paths / sizeof *paths };

const kj_builtin_info *kj_builtin_get(kj_builtin id)
{
    return (unsigned)id < KJ_B__COUNT ? &infos[id] : NULL;
}

bool kj_builtin_has(unsigned id, unsigned flags)
{
    return id < KJ_B__COUNT && (infos[id].flags & flags);
}

bool kj_builtin_operator(kj_builtin id, kj_opufunc *out)
{
    static const struct {
        kj_builtin id;
        kj_opufunc o;
    } ops[] = {
        {KJ_B_NP_ADD, {KJ_OPU_BINARY, KJ_OP_ADD}},           {KJ_B_NP_SUBTRACT, {KJ_OPU_BINARY, KJ_OP_SUB}},
        {KJ_B_NP_MULTIPLY, {KJ_OPU_BINARY, KJ_OP_MUL}},      {KJ_B_NP_DIVIDE, {KJ_OPU_BINARY, KJ_OP_DIV}},
        {KJ_B_NP_FLOOR_DIVIDE, {KJ_OPU_BINARY, KJ_OP_FLOORDIV}},
        {KJ_B_NP_REMAINDER, {KJ_OPU_BINARY, KJ_OP_MOD}},     {KJ_B_NP_LEFT_SHIFT, {KJ_OPU_BINARY, KJ_OP_LSHIFT}},
        {KJ_B_NP_RIGHT_SHIFT, {KJ_OPU_BINARY, KJ_OP_RSHIFT}}, {KJ_B_NP_BITWISE_AND, {KJ_OPU_BINARY, KJ_OP_BITAND}},
        {KJ_B_NP_BITWISE_OR, {KJ_OPU_BINARY, KJ_OP_BITOR}},  {KJ_B_NP_BITWISE_XOR, {KJ_OPU_BINARY, KJ_OP_BITXOR}},
        {KJ_B_NP_EQUAL, {KJ_OPU_COMPARE, KJ_CMP_EQ}},        {KJ_B_NP_NOT_EQUAL, {KJ_OPU_COMPARE, KJ_CMP_NE}},
        {KJ_B_NP_LESS, {KJ_OPU_COMPARE, KJ_CMP_LT}},         {KJ_B_NP_LESS_EQUAL, {KJ_OPU_COMPARE, KJ_CMP_LE}},
        {KJ_B_NP_GREATER, {KJ_OPU_COMPARE, KJ_CMP_GT}},      {KJ_B_NP_GREATER_EQUAL, {KJ_OPU_COMPARE, KJ_CMP_GE}},
        {KJ_B_NP_NEGATIVE, {KJ_OPU_UNARY, KJ_UOP_NEG}},      {KJ_B_NP_POSITIVE, {KJ_OPU_UNARY, KJ_UOP_POS}},
        {KJ_B_NP_INVERT, {KJ_OPU_UNARY, KJ_UOP_INVERT}},     {KJ_B_NP_SQUARE, {KJ_OPU_SQUARE, KJ_OP_MUL}},
        {KJ_B_NP_LOGICAL_AND, {KJ_OPU_LOGICAL, KJ_OP_BITAND}}, {KJ_B_NP_LOGICAL_OR, {KJ_OPU_LOGICAL, KJ_OP_BITOR}},
        {KJ_B_NP_LOGICAL_XOR, {KJ_OPU_LOGICAL, KJ_OP_BITXOR}}, {KJ_B_NP_LOGICAL_NOT, {KJ_OPU_LOGICAL, KJ_UOP_NOT}},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i].id == id) {
            *out = ops[i].o;
            return true;
        }
    return kj_builtin_pyoperator(id, out); /* operator.add, ... (builtins_operator.c) */
}

int kj_builtin_lookup(const char *path)
{
    size_t len = strlen(path);
    for (size_t i = 0; i < NPATHS; i++)
        if (paths[i].len == len && !memcmp(paths[i].path, path, len)) return paths[i].id;
    return -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The next component of `path` after `prefix.` (all of `path` when prefix is
 * empty), as [*start, *start + return); 0 when path is not under prefix. */
static size_t child_of(const char *prefix, size_t plen, const path_entry *e, const char **start)
{
    const char *p = e->path;
    if (plen) {
        if (e->len <= plen + 1 || memcmp(p, prefix, plen) || p[plen] != '.') return 0;
        p += plen + 1;
    }
    const char *dot = strchr(p, '.');
    *start = p;
    return dot ? (size_t)(dot - p) : strlen(p);
}

uint32_t kj_builtin_children(const char *prefix, const char **out, uint32_t max, kj_arena *a)
{
    size_t plen = strlen(prefix);
    uint32_t n = 0;
    for (size_t i = 0; i < NPATHS && n < max; i++) {
        const char *c;
        size_t len = child_of(prefix, plen, &paths[i], &c);
        if (!len) continue;
        bool seen = false;
        for (uint32_t j = 0; j < n && !seen; j++)
            seen = strlen(out[j]) == len && !memcmp(out[j], c, len);
        if (seen) continue;
        if (c[len] == 0) out[n++] = c; /* the last component: NUL-terminated in the table */
        else if (a) out[n++] = kj_arena_strndup(a, c, len);
    }
    qsort(out, n, sizeof *out, cmp_str);
    return n;
}

/* ---- parameters and binding ------------------------------------------------- */


/* params := [p (',' p)*];  p := ['*'] NAME ['='] */
static uint32_t parse_params(const char *s, param *ps)
{
    uint32_t n = 0;
    while (*s && n < MAX_PARAMS) {
        while (*s == ' ' || *s == ',') s++;
        if (!*s) break;
        param p = {0};
        if (*s == '*') {
            p.variadic = true;
            s++;
        }
        p.name = s;
        while (*s && *s != ',' && *s != '=' && *s != ' ') s++;
        p.len = (uint32_t)(s - p.name);
        if (*s == '=') {
            p.optional = true;
            s++;
        }
        ps[n++] = p;
    }
    return n;
}

static int variadic_index(const param *ps, uint32_t np)
{
    for (uint32_t i = 0; i < np; i++)
        if (ps[i].variadic) return (int)i;
    return -1;
}

/* "takes 1 argument but 2 were given", CPython style. */
static void too_many(kj_builtin id, const param *ps, uint32_t np, uint32_t npos, kj_span sp,
                     const kj_source *src, kj_diags *d)
{
    uint32_t lo = 0;
    for (uint32_t i = 0; i < np; i++) lo += !ps[i].optional;
    const char *were = npos == 1 ? "was" : "were";
    if (lo == np)
        kj_error(d, src, sp, "%s() takes %u argument%s but %u %s given", infos[id].path, np,
                 np == 1 ? "" : "s", npos, were);
    else
        kj_error(d, src, sp, "%s() takes from %u to %u arguments but %u %s given", infos[id].path,
                 lo, np, npos, were);
}

static void unexpected_kw(kj_builtin id, const param *ps, uint32_t np, const char *kw, kj_span sp,
                          const kj_source *src, kj_diags *d)
{
    kj_diag *dg = kj_error(d, src, sp, "%s() got an unexpected keyword argument '%s'",
                           infos[id].path, kw);
    char names[MAX_PARAMS][32];
    const char *cands[MAX_PARAMS];
    uint32_t nc = 0;
    for (uint32_t i = 0; i < np; i++) {
        if (ps[i].variadic) continue;
        snprintf(names[nc], sizeof names[nc], "%.*s", (int)ps[i].len, ps[i].name);
        cands[nc] = names[nc];
        nc++;
    }
    const char *best = kj_closest(kw, cands, nc);
    if (best) kj_diag_hint(dg, "did you mean '%s'?", best);
}

/* The output slot of parameter i when the *args parameter (at `var`, or -1)
 * took `nvar` positionals. */
static uint32_t slot_of(uint32_t i, int var, uint32_t nvar)
{
    return var < 0 || (int)i < var ? i : i - 1 + nvar;
}

static int find_param(const param *ps, uint32_t np, const char *name)
{
    for (uint32_t i = 0; i < np; i++)
        if (!ps[i].variadic && strlen(name) == ps[i].len && !memcmp(ps[i].name, name, ps[i].len))
            return (int)i;
    return -1;
}

int kj_builtin_bind(kj_builtin id, const kj_barg *pos, uint32_t npos, const char *const *kwnames,
                    const kj_barg *kw, uint32_t nkw, kj_span call_span, const kj_source *src,
                    kj_diags *d, kj_barg *out, int32_t *argmap, uint32_t max_out)
{
    param ps[MAX_PARAMS];
    uint32_t np = parse_params(infos[id].params, ps);
    int var = variadic_index(ps, np);
    uint32_t nfix = var < 0 ? np : (uint32_t)var; /* positional slots before *args */
    if (var < 0 && npos > np) {
        too_many(id, ps, np, npos, pos[np].span, src, d);
        return -1;
    }
    uint32_t nvar = var >= 0 && npos > nfix ? npos - nfix : 0;
    uint32_t nout = (var >= 0 ? np - 1 : np) + nvar;
    if (nout > max_out) {
        kj_error(d, src, call_span, "%s() called with too many arguments", infos[id].path);
        return -1;
    }
    for (uint32_t i = 0; i < nout; i++) {
        out[i] = (kj_barg){.type = NULL, .span = call_span};
        if (argmap) argmap[i] = INT32_MIN;
    }
    for (uint32_t k = 0; k < npos; k++) {
        out[k] = pos[k]; /* fixed slots, then the *args run, are the first slots in order */
        if (argmap) argmap[k] = (int32_t)k;
    }
    for (uint32_t k = 0; k < nkw; k++) {
        int p = find_param(ps, np, kwnames[k]);
        if (p < 0) {
            unexpected_kw(id, ps, np, kwnames[k], kw[k].span, src, d);
            return -1;
        }
        uint32_t s = slot_of((uint32_t)p, var, nvar);
        if (out[s].type) {
            kj_error(d, src, kw[k].span, "%s() got multiple values for argument '%s'",
                     infos[id].path, kwnames[k]);
            return -1;
        }
        out[s] = kw[k];
        if (argmap) argmap[s] = -1 - (int32_t)k;
    }
    for (uint32_t i = 0; i < np; i++) {
        if (ps[i].optional || ps[i].variadic || out[slot_of(i, var, nvar)].type) continue;
        kj_error(d, src, call_span, "%s() missing required argument '%.*s'", infos[id].path,
                 (int)ps[i].len, ps[i].name);
        return -1;
    }
    return (int)nout;
}


/* ---- typing: math, conversions, Python built-ins ----------------------------- */

typedef enum { M_FLOAT, M_PRED, M_ROUNDING } math_kind;

/* math.sin(x) and friends; np.sin(array) maps over the elements. Scalar
 * rules follow Numba: float32 stays, everything else computes in float64;
 * isnan & co. give bool; floor/ceil/trunc give int64 (Python's int), except
 * on arrays where NumPy keeps the float type. */
static const kj_type *type_math1(bctx *c, math_kind k)
{
    const kj_type *x = ty(c, 0);
    if (is_array(x)) { /* NumPy's loop: complex ufuncs, float32 for small ints (builtins_cpxarr.c) */
        const kj_type *e = k == M_PRED ? kj_t_bool(c->t) : kj_np_float_loop(c->t, c->id, x->elem, c->call, c->src, c->d);
        return e ? arr(c, e, x->ndim) : NULL;
    }
    if (!kj_is_scalar(x)) return argerr(c, 0, "a number");
    if (k == M_PRED) {
        convto(c, 0, float_of(c, x));
        return kj_t_bool(c->t);
    }
    if (k == M_ROUNDING) {
        if (kj_is_float(x)) return i64(c);
        /* Numba: uint64 → uint64, other integers → int64, unchanged value. */
        const kj_type *r = x->kind == KJ_T_INT && !x->is_signed && x->bits == 64 ? x : i64(c);
        convto(c, 0, r);
        return r;
    }
    const kj_type *r = float_of(c, x);
    convto(c, 0, r);
    return r;
}

/* Two-argument elementwise functions (atan2, pow, hypot, np.minimum...):
 * scalars promote (NEP 50) and convert to the result; with an array the
 * result is an array of max ndim (broadcasting). The kind says what
 * happens to the promoted type: */
typedef enum binary_kind {
    BIN_FLOAT,   /* the math rule: integers become float64 (math.fmod, atan2, ...) */
    BIN_PROMOTE, /* kept (np.minimum/maximum) */
    BIN_NP_FMOD, /* kept, bool computed as int8: NumPy's fmod loops keep integers */
} binary_kind;

static const kj_type *type_binary(bctx *c, binary_kind kind)
{
    const kj_type *a = ty(c, 0), *b = ty(c, 1);
    if (!kj_is_scalar(elem_or_self(a))) return argerr(c, 0, "a number or an array");
    if (!kj_is_scalar(elem_or_self(b))) return argerr(c, 1, "a number or an array");
    const kj_type *r = kj_promote(c->t, elem_or_self(a), elem_or_self(b));
    if (kind == BIN_FLOAT && (is_array(a) || is_array(b))) { /* Numba's loop; a Python int scalar is int64 */
        if (!kj_is_float(r) && !kj_is_complex(r))
            r = kj_promote(c->t, kj_strong(c->t, elem_or_self(a)), kj_strong(c->t, elem_or_self(b)));
        r = kj_np_float_loop(c->t, c->id, r, c->call, c->src, c->d);
    }
    else if (kind == BIN_FLOAT) r = float_of(c, r);
    if (!r) return NULL;
    if (kind == BIN_NP_FMOD && r->kind == KJ_T_BOOL) r = kj_t_int(c->t, 8, true);
    if (!is_array(a)) convto(c, 0, r);
    if (!is_array(b)) convto(c, 1, r);
    if (!is_array(a) && !is_array(b)) return r;
    int nd = is_array(a) ? a->ndim : 0;
    if (is_array(b) && b->ndim > nd) nd = b->ndim;
    return arr(c, kj_strong(c->t, r), nd);
}

/* np.where(condition, x, y) and np.clip(a, a_min, a_max): x and y (a and
 * its bounds) promote as NumPy's operators (weak Python literals); scalars
 * are converted to that type, arrays broadcast. where's condition is any
 * number or array (its truth value). On arrays both run through the fused loops
 * (kir_fuse.c). */
static const kj_type *type_select3(bctx *c)
{
    bool where = c->id == KJ_B_NP_WHERE;
    const kj_type *r = NULL;
    int nd = 0;
    for (uint32_t i = 0; i < 3; i++) {
        const kj_type *x = ty(c, i), *e = elem_or_self(x);
        if (!kj_is_scalar(e)) return argerr(c, i, "a number or an array");
        if (is_array(x) && x->ndim > nd) nd = x->ndim;
        if (where && i == 0) continue; /* any number: its truth value */
        r = r ? kj_promote(c->t, r, e) : e;
    }
    if (where && !is_array(ty(c, 0))) convto(c, 0, kj_t_bool(c->t));
    for (uint32_t i = where ? 1 : 0; i < 3; i++)
        if (!is_array(ty(c, i))) convto(c, i, r);
    return nd ? arr(c, kj_strong(c->t, r), nd) : r;
}

/* np.sign(x): x's type, numbers but bool (NumPy has no bool loop). */
static const kj_type *type_sign(bctx *c)
{
    const kj_type *x = ty(c, 0), *e = elem_or_self(x);
    if (!kj_is_scalar(e) || e->kind == KJ_T_BOOL) return argerr(c, 0, "a number or an array of numbers");
    return is_array(x) ? arr(c, x->elem, x->ndim) : kj_strong(c->t, x);
}

/* abs(x): same type; abs(True) is the int 1. On arrays NumPy keeps bool. */
static const kj_type *type_abs(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (is_array(x)) return arr(c, kj_is_complex(x->elem) ? kj_complex_part(c->t, x->elem) : x->elem, x->ndim);
    if (!kj_is_scalar(x)) return argerr(c, 0, "a number");
    if (x->kind != KJ_T_BOOL) return x;
    convto(c, 0, i64(c));
    return i64(c);
}

/* max(a) / min(a) of a 1-d array: Python iterates it, keeping the first
 * element that no later one is greater (less) than. For integers and bools
 * that is np.max / np.min (lowered so); floats are scanned in Python's
 * order (lower_pyiter.c: a NaN first wins, later NaNs are skipped). A 2-d
 * array's rows have no truth value: refused. */
static const kj_type *type_minmax_array(bctx *c, const kj_type *x)
{
    if (x->ndim != 1) {
        kj_diag *dg = kj_error(c->d, c->src, span_of(c, 0),
                               "%s() of a %d-d array compares its rows, whose truth value is ambiguous",
                               c->name, x->ndim);
        kj_diag_hint(dg, "use np.%s(a) for the %s of all elements", c->name, c->name);
        return NULL;
    }
    return x->elem;
}

/* any(x) / all(x) of a tuple of numbers or a 1-d array (lower_pyiter.c):
 * each element's truth, NaN true. */
static const kj_type *type_anyall(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (x && x->kind == KJ_T_TUPLE) {
        for (uint32_t i = 0; i < x->n; i++)
            if (!kj_is_scalar(x->elems[i])) return argerr(c, 0, "a tuple of numbers");
        return kj_t_bool(c->t);
    }
    if (x && x->kind == KJ_T_LIST && x->elem && kj_is_scalar(x->elem)) return kj_t_bool(c->t);
    if (!is_array(x)) return argerr(c, 0, "a tuple or a 1-d array");
    if (x->ndim != 1) {
        kj_diag *dg = kj_error(c->d, c->src, span_of(c, 0),
                               "%s() of a %d-d array takes the truth of its rows, which is ambiguous",
                               c->name, x->ndim);
        kj_diag_hint(dg, "use np.%s(a) over all elements", c->name);
        return NULL;
    }
    return kj_t_bool(c->t);
}

/* min(a, b, ...) / max(...): 2+ scalars promote; one tuple argument is the
 * same over its elements; one array argument, its elements. */
static const kj_type *type_minmax(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (c->nargs == 1 && is_array(x)) return type_minmax_array(c, x);
    const kj_type *st = kj_type_minmax_str(c->t, x, c->nargs, c->args); /* lower_pyiter.c */
    if (st) return st;
    if (c->nargs == 1 && x && x->kind == KJ_T_LIST && x->elem && kj_is_scalar(x->elem)) return x->elem;
    if (c->nargs == 1 && x && x->kind == KJ_T_TUPLE && x->n > 0) {
        const kj_type *r = x->elems[0];
        for (uint32_t i = 0; i < x->n && r; i++)
            r = kj_is_scalar(x->elems[i]) ? kj_promote(c->t, r, x->elems[i]) : NULL;
        if (!r) return argerr(c, 0, "a tuple of numbers");
        const kj_type *el[64];
        if (x->n > 64) return argerr(c, 0, "a tuple of at most 64 numbers");
        for (uint32_t i = 0; i < x->n; i++) el[i] = r;
        convto(c, 0, kj_t_tuple(c->t, el, x->n));
        return r;
    }
    if (c->nargs < 2) {
        kj_diag *dg = kj_error(c->d, c->src, c->call, "%s() expects 2 or more arguments", c->name);
        if (is_array(x)) kj_diag_hint(dg, "use np.%s(a) for the %s of an array", c->name, c->name);
        return NULL;
    }
    const kj_type *r = NULL;
    for (uint32_t i = 0; i < c->nargs; i++) {
        if (!kj_is_scalar(ty(c, i))) return argerr(c, i, "a number");
        r = r ? kj_promote(c->t, r, ty(c, i)) : ty(c, i);
    }
    for (uint32_t i = 0; i < c->nargs; i++) convto(c, i, r);
    return r;
}

/* sum(iterable, start=0), Python's left-to-right start + x0 + x1 + ...
 * (lowered as additions, lower.c): over a tuple of numbers, in the type
 * that unifies start with the elements (bools add as ints); over a 1-d
 * array of signed ints or bools, int64 (the order does not change an
 * integer sum, so np.sum gives it); over a 1-d float array, in that type
 * (or float64 from a float64 start), added in Python's order
 * (lower_pyiter.c), not np.sum's pairwise one. Unsigned arrays are refused
 * (Numba's int64 start + uint64 is a float64). */
static const kj_type *type_sum(bctx *c)
{
    const kj_type *x = ty(c, 0), *start = given(c, 1) ? ty(c, 1) : kj_t_weak_int(c->t);
    if (!kj_is_scalar(start)) return argerr(c, 1, "a number");
    if (x && x->kind == KJ_T_LIST && x->elem && kj_is_scalar(x->elem)) { /* Python's scan (lower_pyiter.c) */
        const kj_type *r = kj_strong(c->t, kj_promote(c->t, start, x->elem));
        r = r->kind == KJ_T_BOOL ? i64(c) : r;
        convto(c, 1, r);
        return r;
    }
    if (x && x->kind == KJ_T_TUPLE) {
        const kj_type *r = start;
        for (uint32_t i = 0; i < x->n && r; i++)
            r = kj_is_scalar(x->elems[i]) ? kj_promote(c->t, r, x->elems[i]) : NULL;
        if (!r) return argerr(c, 0, "a tuple of numbers");
        r = kj_strong(c->t, r);
        return r->kind == KJ_T_BOOL ? i64(c) : r;
    }
    if (!is_array(x)) return argerr(c, 0, "a tuple or a 1-d array");
    if (x->ndim == 1 && x->elem->kind == KJ_T_FLOAT) {
        const kj_type *r = kj_strong(c->t, kj_promote(c->t, start, x->elem));
        convto(c, 1, r);
        return r;
    }
    bool ints = x->elem->kind == KJ_T_BOOL || (x->elem->kind == KJ_T_INT && x->elem->is_signed);
    if (x->ndim != 1 || !ints || !kj_is_int(start)) {
        kj_diag *dg = kj_error(c->d, c->src, c->call,
                               "sum() of %s%s is not supported (Python adds element by element)",
                               kj_type_str(x), kj_is_int(start) ? "" : " from a non-integer start");
        kj_diag_hint(dg, "use np.sum(a) (NumPy's pairwise order), or add in a loop");
        return NULL;
    }
    convto(c, 1, i64(c));
    return i64(c);
}

/* round(x) → int64; round(x, ndigits) → the type of x. */
static const kj_type *type_round(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (is_array(x)) { /* CPython's ndarray.__round__; Numba compiles it nowhere */
        kj_diag *dg = kj_error(c->d, c->src, span_of(c, 0), "round() of an array is not supported");
        kj_diag_hint(dg, "use np.round(a, decimals)");
        return NULL;
    }
    if (!kj_is_scalar(x)) return argerr(c, 0, "a number");
    if (!given(c, 1)) return i64(c);
    if (!int_arg(c, 1)) return NULL;
    if (x->kind != KJ_T_BOOL) return x;
    convto(c, 0, i64(c));
    return i64(c);
}

/* float32(x), np.int64(x): a scalar, or (host) an array astype'd. */
static const kj_type *type_convert(bctx *c)
{
    const kj_type *target = c->target;
    if (target && target->kind == KJ_T_DTYPE) target = target->elem;
    if (!kj_is_scalar(target)) {
        kj_error(c->d, c->src, c->call, "%s is not a type that values convert to",
                 kj_type_str(target));
        return NULL;
    }
    c->name = target->name; /* messages say float32(), not convert() */
    const kj_type *x = ty(c, 0);
    if (is_array(x)) return arr(c, target, x->ndim);
    if (!kj_is_scalar(x)) return argerr(c, 0, "a number");
    return target;
}

/* range(stop) / range(start, stop[, step]): integers, iterated as their
 * promotion (Python ints as int64; int64 with uint64 as int64, like Numba). */
static const kj_type *type_range(bctx *c)
{
    if (c->nargs < 1 || c->nargs > 3) {
        kj_error(c->d, c->src, c->call, "%s() takes 1 to 3 arguments but %u %s given", c->name,
                 c->nargs, c->nargs == 1 ? "was" : "were");
        return NULL;
    }
    const kj_type *r = NULL;
    for (uint32_t i = 0; i < c->nargs; i++) {
        if (!kj_is_int(ty(c, i))) {
            kj_error(c->d, c->src, span_of(c, i), "%s() arguments must be integers, not %s",
                     c->name, kj_type_str(ty(c, i)));
            return NULL;
        }
        r = r ? kj_promote(c->t, r, ty(c, i)) : ty(c, i);
    }
    r = kj_is_int(r) ? kj_strong(c->t, r) : i64(c);
    for (uint32_t i = 0; i < c->nargs; i++) convto(c, i, r);
    return kj_t_range(c->t, r);
}

/* print(*args, sep=, end=): anything printable; sep/end strings. */
static const kj_type *type_print(bctx *c)
{
    for (uint32_t i = c->nargs >= 2 ? c->nargs - 2 : c->nargs; i < c->nargs; i++)
        if (given(c, i) && ty(c, i)->kind != KJ_T_STR) return argerr(c, i, "a string");
    return none(c);
}

static const kj_type *type_len(bctx *c)
{
    const kj_type *x = ty(c, 0);
    bool gpus = x && x->kind == KJ_T_OPAQUE && !strcmp(x->name, "gpus"); /* len(cuda.gpus) */
    bool range = x && (x->kind == KJ_T_RANGE || x->kind == KJ_T_LIST || x->kind == KJ_T_DICT || x->kind == KJ_T_SET ||
                       x->kind == KJ_T_STR); /* lower_iter.c, lower_list.c */
    if (!is_array(x) && !(x && x->kind == KJ_T_TUPLE) && !gpus && !range) return argerr(c, 0, "an array or a tuple");
    return i64(c);
}

/* key= and reverse= of lst.sort() and sorted() (params k, k + 1) over a
 * list lt: elements of numbers or strings, compared with `<` as CPython's
 * list sort does (src/runtime/list_sort.c). */
static bool sort_args(bctx *c, const kj_type *lt, uint32_t k)
{
    /* key=f: infer_sortkey.c types f's call on an element, and its result */
    bool key = given(c, k) && ty(c, k)->kind == KJ_T_FUNC;
    if (lt->elem && !key && !kj_list_orderable(lt->elem)) {
        kj_error(c->d, c->src, c->call, "%s() of %s is not supported yet: kjit sorts lists of real numbers, strings "
                 "or tuples of real numbers", c->name, kj_type_str(lt));
        return false;
    }
    if (given(c, k + 1)) {
        if (!kj_is_int(ty(c, k + 1)) && ty(c, k + 1)->kind != KJ_T_BOOL) {
            argerr(c, k + 1, "a bool");
            return false;
        }
        convto(c, k + 1, kj_t_bool(c->t));
    }
    return true;
}

/* sorted(iterable, key=, reverse=) and list(iterable): a new list
 * (lower_list.c builds it from a list, a tuple of one type, a range, a
 * string, a set or dict (the keys) or a 1-d array, as Numba's sorted()
 * and list() return a list for each), which sorted() then sorts in place. */
static const kj_type *type_sorted(bctx *c)
{
    const kj_type *x = ty(c, 0), *el = NULL;
    if (c->id == KJ_B_LIST_OF && !x) return kj_t_list(c->t, NULL); /* list(): its first append types it */
    if (x && x->kind == KJ_T_LIST) el = x->elem;
    else if (x && x->kind == KJ_T_RANGE) el = x->elem;
    else if (x && x->kind == KJ_T_STR) el = x;
    else if (x && (x->kind == KJ_T_SET || x->kind == KJ_T_DICT)) el = x->elem; /* the keys, in insertion order */
    else if (x && x->kind == KJ_T_ARRAY && x->ndim == 1) el = x->elem;
    else if (x && x->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < x->n; k++) {
            const kj_type *u = kj_strong(c->t, x->elems[k]); /* CPython keeps each value: no promotion */
            if (el && u != el) return argerr(c, 0, "a tuple of one type");
            el = u;
        }
    } else {
        return argerr(c, 0, "a list, a tuple of one type, a range, a string, a set, a dict or a 1-d array");
    }
    const kj_type *lt = kj_t_list(c->t, el ? kj_strong(c->t, el) : NULL);
    if (c->id == KJ_B_LIST_OF) return lt;
    return sort_args(c, lt, 1) ? lt : NULL;
}

/* list.append(x), list.pop(index=) of a reflected list: x converts to the
 * elements' type (an empty list's type comes from its first append:
 * infer_list.c); pop gives an element. */
static const kj_type *type_list_method(bctx *c)
{
    const kj_type *l = ty(c, 0);
    if (!l || l->kind != KJ_T_LIST || c->id == KJ_B_LIST_NEW || c->id == KJ_B_LIST_GET || c->id == KJ_B_LIST_SET ||
        c->id == KJ_B_LIST_REPEAT || c->id == KJ_B_LIST_SLICE || c->id == KJ_B_LIST_SETSLICE ||
        c->id == KJ_B_LIST_DEL || c->id == KJ_B_LIST_CMP) {
        /* list.<new>/<get>/<set> are made by lowering (lower_list.c), never called */
        kj_error(c->d, c->src, c->call, "%s() takes a list as its receiver", c->name);
        return NULL;
    }
    switch (c->id) {
    case KJ_B_LIST_SORT: return sort_args(c, l, 1) ? none(c) : NULL;
    case KJ_B_LIST_CLEAR: case KJ_B_LIST_REVERSE: return none(c);
    case KJ_B_LIST_COPY: return l;
    case KJ_B_LIST_COUNT: case KJ_B_LIST_INDEX: case KJ_B_LIST_REMOVE: /* compared as `x in lst` (lower_list.c) */
        if (!l->elem || !kj_is_scalar(l->elem)) return argerr(c, 0, "a list of numbers");
        if (!ty(c, 1) || !kj_is_scalar(ty(c, 1))) return argerr(c, 1, "a number");
        for (uint32_t k = 2; k < 4; k++) {
            if (!given(c, k)) continue;
            if (!kj_is_int(ty(c, k))) return argerr(c, k, "an integer");
            convto(c, k, i64(c));
        }
        return c->id == KJ_B_LIST_REMOVE ? none(c) : i64(c);
    case KJ_B_LIST_EXTEND: /* lst.extend(other): a list of the same elements */
        if (!ty(c, 1) || ty(c, 1)->kind != KJ_T_LIST || (l->elem && ty(c, 1)->elem && ty(c, 1)->elem != l->elem))
            return argerr(c, 1, "a list of the same elements");
        return none(c);
    case KJ_B_LIST_INSERT:
        if (!kj_is_int(ty(c, 1))) return argerr(c, 1, "an integer");
        convto(c, 1, i64(c));
        if (!ty(c, 2) || !l->elem || !kj_can_convert(ty(c, 2), l->elem)) return argerr(c, 2, "an element of the list");
        convto(c, 2, l->elem);
        return none(c);
    default: break;
    }
    if (c->id == KJ_B_LIST_APPEND) {
        if (!ty(c, 1)) return argerr(c, 1, "a value");
        const kj_type *x = kj_strong(c->t, ty(c, 1));
        if (l->elem && !kj_can_convert(ty(c, 1), l->elem)) {
            kj_error(c->d, c->src, span_of(c, 1), "cannot append %s to %s", kj_type_str(x), kj_type_str(l));
            return NULL;
        }
        if (l->elem) convto(c, 1, l->elem);
        return none(c);
    }
    if (given(c, 1) && !kj_is_int(ty(c, 1))) return argerr(c, 1, "an integer");
    if (given(c, 1)) convto(c, 1, i64(c));
    if (!l->elem) kj_error(c->d, c->src, c->call, "pop() of an empty list whose element type is unknown");
    return l->elem;
}

/* str(x) of a number or string and the str methods (Numba's unicode type):
 * a receiver and string arguments of type str, widths and indices int64. */
static const kj_type *type_str_method(bctx *c)
{
    const kj_type *st = kj_t_str(c->t), *x = ty(c, 0);
    if (c->id == KJ_B_STR) {
        if (!x || (!kj_is_scalar(x) && x->kind != KJ_T_STR && !kj_t_is_excobj(x)) || kj_is_complex(x))
            return argerr(c, 0, "a number or a string");
        return st;
    }
    if (!x || x->kind != KJ_T_STR) {
        kj_error(c->d, c->src, c->call, "%s() takes a string as its receiver", c->name);
        return NULL;
    }
    if (c->id == KJ_B_STR_FORMAT || c->id == KJ_B_STR_FMT1) { /* "{} {:.2f}".format(a, b): lower_str.c */
        if (!c->args[0].sval) return argerr(c, 0, "a constant format string");
        for (uint32_t i = 1; i < c->nargs; i++)
            if (!ty(c, i) || ((!kj_is_scalar(ty(c, i)) || kj_is_complex(ty(c, i))) && ty(c, i)->kind != KJ_T_STR &&
                              ty(c, i)->kind != KJ_T_NONE && !kj_t_is_excobj(ty(c, i))))
                return argerr(c, i, "a number, a string or None");
        return st;
    }
    for (uint32_t i = 1; i < c->nargs; i++) {
        bool want_int = c->id == KJ_B_STR_REPEAT || c->id == KJ_B_STR_GET || c->id == KJ_B_STR_SLICE ||
                        (c->id >= KJ_B_STR_ZFILL && i == 1); /* center/ljust/rjust's fillchar is a str */
        bool optional = c->id == KJ_B_STR_SLICE || (c->id >= KJ_B_STR_STRIP && c->id <= KJ_B_STR_RSTRIP) ||
                        (c->id >= KJ_B_STR_CENTER && c->id <= KJ_B_STR_RJUST); /* strip(chars=None), fillchar */
        if (optional && !given(c, i)) continue;
        if (want_int ? !kj_is_int(ty(c, i)) : (!ty(c, i) || ty(c, i)->kind != KJ_T_STR))
            return argerr(c, i, want_int ? "an integer" : "a string");
        if (want_int) convto(c, i, i64(c));
    }
    switch (c->id) {
    case KJ_B_STR_FIND: case KJ_B_STR_RFIND: case KJ_B_STR_COUNT: case KJ_B_STR_CMP: return i64(c);
    case KJ_B_STR_IN: case KJ_B_STR_STARTSWITH: case KJ_B_STR_ENDSWITH: case KJ_B_STR_ISDIGIT:
    case KJ_B_STR_ISALPHA: case KJ_B_STR_ISSPACE: return kj_t_bool(c->t);
    default: return st;
    }
}

/* ---- typing: host NumPy ------------------------------------------------------ */

/* np.zeros/ones/empty(shape, dtype=float64), cuda.device_array likewise. */
const kj_type *kj_btype_alloc(bctx *c)
{
    int nd = shape_arg(c, 0);
    const kj_type *e = nd ? dtype_arg(c, 1, f64(c)) : NULL;
    return e ? arr(c, e, nd) : NULL;
}

/* np.full(shape, fill_value, dtype=): the dtype, else the fill value's
 * (strong) type: np.full(3, 7) is int64. */
static const kj_type *type_full(bctx *c)
{
    int nd = shape_arg(c, 0);
    if (!nd || !num_arg(c, 1, NULL)) return NULL;
    const kj_type *e = dtype_arg(c, 2, kj_strong(c->t, ty(c, 1)));
    if (!e) return NULL;
    convto(c, 1, e);
    return arr(c, e, nd);
}

/* np.*_like(a[, fill_value], dtype=) */
static const kj_type *type_like(bctx *c, bool has_fill)
{
    const kj_type *a = ty(c, 0);
    if (!is_array(a)) return argerr(c, 0, "an array");
    if (has_fill && !num_arg(c, 1, NULL)) return NULL;
    const kj_type *e = dtype_arg(c, has_fill ? 2 : 1, a->elem);
    if (!e) return NULL;
    if (has_fill) convto(c, 1, e);
    return arr(c, e, a->ndim);
}

/* np.arange(start, stop=, step=, dtype=): int64 unless a float is involved. */
static const kj_type *type_arange(bctx *c)
{
    bool fl = false;
    for (uint32_t i = 0; i < 3; i++) {
        if (!given(c, i)) continue;
        if (!kj_is_numeric(ty(c, i))) return argerr(c, i, "a number");
        fl |= kj_is_float(ty(c, i));
    }
    const kj_type *e = dtype_arg(c, 3, fl ? f64(c) : i64(c));
    if (!e) return NULL;
    const kj_type *work = fl || kj_is_float(e) ? f64(c) : i64(c);
    for (uint32_t i = 0; i < 3; i++)
        if (given(c, i)) convto(c, i, work);
    return arr(c, e, 1);
}

/* np.linspace(start, stop, num=50, endpoint=True, dtype=float64) */
static const kj_type *type_linspace(bctx *c)
{
    if (!num_arg(c, 0, f64(c)) || !num_arg(c, 1, f64(c))) return NULL;
    if (given(c, 2) && !int_arg(c, 2)) return NULL;
    if (given(c, 3) && !num_arg(c, 3, kj_t_bool(c->t))) return NULL;
    const kj_type *e = dtype_arg(c, 4, f64(c));
    return e ? arr(c, e, 1) : NULL;
}

/* np.random.rand(d0, d1, ...): float64 array of that many dims; no
 * argument gives one float. */
static const kj_type *type_rand(bctx *c)
{
    if (c->nargs > 4) {
        kj_error(c->d, c->src, span_of(c, 4), "%s() takes at most 4 dimensions", c->name);
        return NULL;
    }
    for (uint32_t i = 0; i < c->nargs; i++)
        if (!int_arg(c, i)) return NULL;
    return c->nargs ? arr(c, f64(c), (int)c->nargs) : f64(c);
}

/* np.random.random(size=None) */
static const kj_type *type_random(bctx *c)
{
    if (!given(c, 0)) return f64(c);
    int nd = shape_arg(c, 0);
    return nd ? arr(c, f64(c), nd) : NULL;
}

/* np.random.randint(low, high=, size=, dtype=int64) */
static const kj_type *type_randint(bctx *c)
{
    if (!int_arg(c, 0) || (given(c, 1) && !int_arg(c, 1))) return NULL;
    const kj_type *e = dtype_arg(c, 3, i64(c));
    if (!e) return NULL;
    if (!kj_is_int(e)) return argerr(c, 3, "an integer dtype");
    if (!given(c, 2)) return e;
    int nd = shape_arg(c, 2);
    return nd ? arr(c, e, nd) : NULL;
}

/* np.random's distributions (builtins_random.h): float parameters (binomial's
 * n an integer), then size=. */
static const kj_type *type_rdist(bctx *c, const kj_rdist_spec *sp)
{
    for (int i = 0; i < sp->nparams; i++)
        if (given(c, (uint32_t)i) && !(i == 0 && sp->int_first ? int_arg(c, 0) : num_arg(c, (uint32_t)i, f64(c))))
            return NULL;
    const kj_type *e = sp->int_result ? i64(c) : f64(c);
    if (!given(c, (uint32_t)sp->nparams)) return e;
    int nd = shape_arg(c, (uint32_t)sp->nparams);
    return nd ? arr(c, e, nd) : NULL;
}

/* np.random.shuffle(x): x an array, shuffled in place along axis 0. */
static const kj_type *type_shuffle(bctx *c)
{
    return is_array(ty(c, 0)) ? none(c) : argerr(c, 0, "an array");
}

/* np.random.permutation(x): an int (a shuffled arange) or an array (a shuffled copy). */
static const kj_type *type_permutation(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (is_array(x)) return arr(c, x->elem, x->ndim);
    return int_arg(c, 0) ? arr(c, i64(c), 1) : NULL;
}

bool vector_arg(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (is_array(x) && x->ndim == 1 && kj_is_scalar(x->elem)) return true;
    return bad_arg(c, i, "a 1-dimensional array");
}

/* np.random.choice(a, size=None, replace=True, p=None): a an int or a 1-D array. */
/* o: the index of `a` (1 for Generator.choice, after its receiver). */
const kj_type *kj_btype_choice(bctx *c, uint32_t o)
{
    const kj_type *a = ty(c, o), *e = i64(c);
    if (is_array(a)) {
        if (a->ndim != 1) return argerr(c, o, "1-dimensional or an integer");
        e = a->elem;
    } else if (!kj_is_int(a)) {
        return argerr(c, o, "1-dimensional or an integer");
    } else {
        convto(c, o, i64(c));
    }
    if (given(c, o + 2) && !num_arg(c, o + 2, kj_t_bool(c->t))) return NULL;
    if (given(c, o + 3) && !vector_arg(c, o + 3)) return NULL;
    if (!given(c, o + 1)) return e;
    int nd = shape_arg(c, o + 1);
    return nd ? arr(c, e, nd) : NULL;
}

/* np.random.multinomial(n, pvals, size=None): int64 counts, shape size + (len(pvals),). */
const kj_type *kj_btype_multinomial(bctx *c, uint32_t o)
{
    if (!int_arg(c, o) || !vector_arg(c, o + 1)) return NULL;
    if (!given(c, o + 2)) return arr(c, i64(c), 1);
    int nd = shape_arg(c, o + 2);
    if (nd == 4) {
        kj_error(c->d, c->src, span_of(c, o + 2), "%s() size must have 1 to 3 dimensions", c->name);
        return NULL;
    }
    return nd ? arr(c, i64(c), nd + 1) : NULL;
}

/* np.random.dirichlet(alpha, size=None): float64, shape size + (len(alpha),). */
const kj_type *kj_btype_dirichlet(bctx *c, uint32_t o)
{
    if (!vector_arg(c, o)) return NULL;
    if (!given(c, o + 1)) return arr(c, f64(c), 1);
    int nd = shape_arg(c, o + 1);
    if (nd == 4) {
        kj_error(c->d, c->src, span_of(c, o + 1), "%s() size must have 1 to 3 dimensions", c->name);
        return NULL;
    }
    return nd ? arr(c, f64(c), nd + 1) : NULL;
}

/* np.random.default_rng(seed) and its Generator's methods (receiver: argument 0). */
static const kj_type *type_generator(bctx *c)
{
    if (c->id == KJ_B_NP_RANDOM_DEFAULT_RNG) return int_arg(c, 0) ? kj_t_opaque(c->t, "Generator") : NULL;
    const kj_type *x = ty(c, 1);
    if (c->id == KJ_B_GEN_SHUFFLE) return is_array(x) ? none(c) : argerr(c, 1, "an array");
    if (c->id == KJ_B_GEN_PERMUTATION) {
        if (is_array(x)) return arr(c, x->elem, x->ndim);
        return int_arg(c, 1) ? arr(c, i64(c), 1) : NULL;
    }
    uint32_t size = c->id == KJ_B_GEN_RANDOM ? 1 : 3;
    if (c->id == KJ_B_GEN_INTEGERS && (!int_arg(c, 1) || (given(c, 2) && !int_arg(c, 2)))) return NULL;
    if (c->id == KJ_B_GEN_UNIFORM)
        for (uint32_t i = 1; i < 3; i++)
            if (given(c, i) && !num_arg(c, i, f64(c))) return NULL;
    const kj_type *e = c->id == KJ_B_GEN_INTEGERS ? i64(c) : f64(c);
    if (!given(c, size)) return e;
    int nd = shape_arg(c, size);
    return nd ? arr(c, e, nd) : NULL;
}

/* np.load(file): its type must come from the caller (`target`). */
static const kj_type *type_load(bctx *c)
{
    const kj_type *target = c->target;
    const kj_type *f = ty(c, 0);
    if (!f || f->kind != KJ_T_STR) return argerr(c, 0, "a string");
    if (is_array(target)) return target;
    kj_error(c->d, c->src, c->call,
             "np.load needs a dtype and shape known at compile time; use np.load(...) only where "
             "its type can be inferred");
    return NULL;
}

static const kj_type *type_save(bctx *c)
{
    const kj_type *f = ty(c, 0);
    if (!f || f->kind != KJ_T_STR) return argerr(c, 0, "a string");
    if (!is_array(ty(c, 1))) return argerr(c, 1, "an array");
    return none(c);
}

static const kj_type *type_allclose(bctx *c)
{
    for (uint32_t i = 0; i < 2; i++)
        if (!kj_is_scalar(elem_or_self(ty(c, i)))) return argerr(c, i, "an array or a number");
    for (uint32_t i = 2; i < 4; i++)
        if (given(c, i) && !num_arg(c, i, f64(c))) return NULL;
    return kj_t_bool(c->t);
}

/* np.isclose(a, b, rtol=, atol=, equal_nan=False): bools of the broadcast
 * shape (a bool for two numbers); equal_nan a constant (lower_isclose.c
 * makes the comparison a scalar function of its own). */
static const kj_type *type_isclose(bctx *c)
{
    if (!type_allclose(c)) return NULL;
    if (given(c, 4) && (ty(c, 4)->kind != KJ_T_BOOL || !c->args[4].is_const))
        return argerr(c, 4, "a constant True or False");
    int nd = 0;
    for (uint32_t i = 0; i < 2; i++)
        if (is_array(ty(c, i)) && ty(c, i)->ndim > nd) nd = ty(c, i)->ndim;
    return nd ? arr(c, kj_t_bool(c->t), nd) : kj_t_bool(c->t);
}

typedef enum { R_SUM, R_MINMAX, R_MEAN, R_ARG, R_TRUTH, R_COUNT } reduce_kind;

/* The axis= (argument 1) of a reduction: absent or None folds every axis
 * (a scalar), an integer one axis (an array of the others; a scalar from a
 * 1-d array). A constant axis is checked here, a variable one when it
 * runs (AxisError). */
static const kj_type *reduce_axis(bctx *c, const kj_type *a, const kj_type *elem)
{
    if (!given(c, 1)) return elem;
    const kj_type *ax = ty(c, 1);
    if (!kj_is_int(ax) || ax->kind == KJ_T_BOOL) return argerr(c, 1, "an integer or None");
    if (c->args[1].is_const && (c->args[1].ival < -a->ndim || c->args[1].ival >= a->ndim)) {
        kj_error(c->d, c->src, span_of(c, 1), "axis %lld is out of bounds for array of dimension %d",
                 (long long)c->args[1].ival, a->ndim);
        return NULL;
    }
    convto(c, 1, i64(c));
    return a->ndim == 1 ? elem : arr(c, elem, a->ndim - 1);
}

/* np.sum/prod/min/max/mean/var/std/argmin/argmax(a, axis=) and the
 * methods: sum and prod of bools and signed ints are int64, of unsigned
 * ints uint64, of floats the float; min/max the element type; mean/var/std
 * float64 unless the elements are floats; argmin/argmax int64. var/std
 * take an integer ddof= (argument 2). */
static const kj_type *type_reduce(bctx *c, reduce_kind k)
{
    const kj_type *a = ty(c, 0);
    if (!is_array(a)) return argerr(c, 0, "an array");
    const kj_type *e = a->elem, *r = NULL;
    switch (k) {
    case R_SUM: r = kj_is_float(e) || kj_is_complex(e) ? e : kj_t_int(c->t, 64, e->kind == KJ_T_BOOL || e->is_signed); break;
    case R_MINMAX: r = e; break;
    case R_MEAN: /* var/std of complex: real (NumPy's |x - mean|**2) */
        r = !kj_is_complex(e) ? float_of(c, e) : c->id == KJ_B_NP_MEAN || c->id == KJ_B_ARR_MEAN ? e
                                                  : kj_complex_part(c->t, e);
        break;
    case R_ARG: case R_COUNT: r = i64(c); break;
    case R_TRUTH: r = kj_t_bool(c->t); break;
    }
    bool ddof = c->id == KJ_B_NP_STD || c->id == KJ_B_NP_VAR || c->id == KJ_B_ARR_STD || c->id == KJ_B_ARR_VAR;
    if (ddof && given(c, 2) && !int_arg(c, 2)) return NULL;
    return reduce_axis(c, a, r);
}

/* a.reshape(n, m) or a.reshape((n, m)) */
/* a.reshape(...)'s result: C-contiguous when `a` is, else whatever view
 * NumPy's no-copy rule leaves (b[::2].reshape(-1) is strided), or a copy. */
static const kj_type *reshaped(bctx *c, int nd)
{
    const kj_type *a = ty(c, 0);
    return kj_t_array(c->t, a->elem, nd, a->layout == KJ_LAYOUT_C ? KJ_LAYOUT_C : KJ_LAYOUT_A);
}

static const kj_type *type_reshape(bctx *c)
{
    uint32_t n = c->nargs - 1;
    if (n == 0) {
        kj_error(c->d, c->src, c->call, "%s() missing required argument 'shape'", c->name);
        return NULL;
    }
    if (n == 1) {
        int nd = shape_arg(c, 1);
        return nd ? reshaped(c, nd) : NULL;
    }
    if (n > 4) {
        kj_error(c->d, c->src, span_of(c, 5), "%s() shape must have 1 to 4 dimensions, not %u",
                 c->name, n);
        return NULL;
    }
    for (uint32_t i = 1; i <= n; i++)
        if (!int_arg(c, i)) return NULL;
    return reshaped(c, (int)n);
}

/* Array methods and attributes; the receiver is args[0]. */
/* a.T: a's elements, dimensions reversed; a C array's transpose is an F
 * one and the other way round (one dimension: itself). */
static const kj_type *transposed(bctx *c, const kj_type *a)
{
    kj_layout l = a->ndim < 2 || a->layout == KJ_LAYOUT_A ? a->layout
                  : a->layout == KJ_LAYOUT_C              ? KJ_LAYOUT_F
                                                          : KJ_LAYOUT_C;
    return kj_t_array(c->t, a->elem, a->ndim, l);
}

static const kj_type *type_array_method(bctx *c)
{
    if (c->id == KJ_B_ARR_COPY_TO_HOST && kj_record_of(ty(c, 0))) /* DeviceRecord.copy_to_host(): a record */
        return given(c, 1) ? argerr(c, 1, "None (a DeviceRecord is copied to a new record)") : ty(c, 0);
    if (!recv_array(c)) return NULL;
    const kj_type *a = ty(c, 0);
    switch (c->id) {
    case KJ_B_ARR_ASTYPE: {
        const kj_type *e = dtype_arg(c, 1, NULL);
        return e ? arr(c, e, a->ndim) : NULL;
    }
    case KJ_B_ARR_COPY: return arr(c, a->elem, a->ndim);
    case KJ_B_ARR_T: case KJ_B_ARR_TRANSPOSE: case KJ_B_NP_TRANSPOSE:
        if (c->id != KJ_B_ARR_T && given(c, 1)) /* axes given (builtins_np_manip.c) */
            return kj_type_np_manip(c->t, c->id, c->args, c->nargs, c->call, c->src, c->d, c->conv);
        return transposed(c, a);
    case KJ_B_NP_COPY: return arr(c, a->elem, a->ndim);
    case KJ_B_NP_RAVEL: case KJ_B_ARR_RAVEL: case KJ_B_ARR_FLATTEN: return arr(c, a->elem, 1);
    case KJ_B_NP_CUMSUM: case KJ_B_NP_CUMPROD: case KJ_B_ARR_CUMSUM: case KJ_B_ARR_CUMPROD: { /* sum's dtype */
        const kj_type *e = kj_is_float(a->elem) || kj_is_complex(a->elem) ? a->elem
                                                : kj_t_int(c->t, 64, a->elem->kind == KJ_T_BOOL || a->elem->is_signed);
        if (!given(c, 1)) return arr(c, e, 1);
        return reduce_axis(c, a, e) ? arr(c, e, a->ndim) : NULL; /* axis=: a's shape */
    }
    case KJ_B_ARR_COPY_TO_HOST: /* into `ary` when given (Numba: returns it), else a new array */
        if (!stream_arg(c, 2)) return NULL;
        if (!given(c, 1)) return arr(c, a->elem, a->ndim);
        if (!is_array(ty(c, 1)) || ty(c, 1)->elem != a->elem || ty(c, 1)->ndim != a->ndim)
            return argerr(c, 1, "an array of the same dtype and dimensions");
        return ty(c, 1);
    case KJ_B_ARR_RESHAPE: return type_reshape(c);
    case KJ_B_ARR_COPY_TO_DEVICE: /* d.copy_to_device(ary): ary's data into d (Numba: the same shape) */
        if (!stream_arg(c, 2)) return NULL;
        if (!is_array(ty(c, 1)) || ty(c, 1)->elem != a->elem || ty(c, 1)->ndim != a->ndim)
            return argerr(c, 1, "an array of the same dtype and dimensions");
        return none(c);
    case KJ_B_ARR_IS_C_CONTIGUOUS: case KJ_B_ARR_IS_F_CONTIGUOUS: return kj_t_bool(c->t);
    case KJ_B_ARR_ITEMSIZE: return i64(c);
    case KJ_B_ARR_SPLIT: /* views of `section` elements (lower_devarr.c); numba-cuda: 1-d arrays only */
        if (a->ndim != 1) return argerr(c, 0, "a 1-d array (numba-cuda splits only those)");
        if (!kj_is_int(ty(c, 1))) return argerr(c, 1, "an int");
        convto(c, 1, i64(c));
        if (!stream_arg(c, 2)) return NULL;
        return kj_t_list(c->t, kj_t_array(c->t, a->elem, 1, KJ_LAYOUT_A));
    case KJ_B_ARR_VIEW: { /* the same memory as another dtype: of another size, the last axis rescaled (C only) */
        const kj_type *e = dtype_arg(c, 1, NULL);
        if (!e) return NULL;
        if (e->bits == a->elem->bits) return kj_t_array(c->t, e, a->ndim, a->layout);
        if (!a->ndim) return argerr(c, 1, "a dtype of the same size for a 0-d array");
        return arr(c, e, a->ndim);
    }
    case KJ_B_ARR_STRIDES: {
        const kj_type *el[4] = {i64(c), i64(c), i64(c), i64(c)};
        return kj_t_tuple(c->t, el, (uint32_t)kj_type_rank(a));
    }
    case KJ_B_ARR_SUM:
    case KJ_B_ARR_PROD: return type_reduce(c, R_SUM);
    case KJ_B_ARR_ANY:
    case KJ_B_ARR_ALL: return type_reduce(c, R_TRUTH);
    case KJ_B_ARR_MIN:
    case KJ_B_ARR_MAX: return type_reduce(c, R_MINMAX);
    case KJ_B_ARR_MEAN:
    case KJ_B_ARR_VAR:
    case KJ_B_ARR_STD: return type_reduce(c, R_MEAN);
    case KJ_B_ARR_ARGMIN:
    case KJ_B_ARR_ARGMAX: return type_reduce(c, R_ARG);
    case KJ_B_ARR_FILL: return num_arg(c, 1, a->elem) ? none(c) : NULL;
    case KJ_B_ARR_SHAPE: {
        const kj_type *el[4] = {i64(c), i64(c), i64(c), i64(c)};
        return kj_t_tuple(c->t, el, (uint32_t)kj_type_rank(a));
    }
    case KJ_B_ARR_SIZE: case KJ_B_ARR_NBYTES:
    case KJ_B_ARR_NDIM: return i64(c);
    case KJ_B_ARR_DTYPE: return kj_t_dtype(c->t, a->elem);
    default: return kj_bno_rule(c);
    }
}

/* ---- dispatch ------------------------------------------------------------------------ */

/* Every built-in must reach a rule; this is a bug in this file, not in the
 * user's program. */
const kj_type *kj_bno_rule(bctx *c)
{
    kj_error(c->d, c->src, c->call, "internal error: no typing rule for %s()", c->name);
    return NULL;
}

static const kj_type *type_numpy(bctx *c)
{
    const kj_rdist_spec *rd = kj_rdist_spec_of(c->id);
    if (rd) return type_rdist(c, rd);
    const kj_rdist_spec *gd = kj_gdist_spec_of(c->id);
    if (gd) return kj_btype_gen_dist(c, gd);
    switch (c->id) {
    case KJ_B_NP_ZEROS:
    case KJ_B_NP_ONES:
    case KJ_B_NP_EMPTY: return kj_btype_alloc(c);
    case KJ_B_NP_FULL: return type_full(c);
    case KJ_B_NP_ZEROS_LIKE:
    case KJ_B_NP_ONES_LIKE:
    case KJ_B_NP_EMPTY_LIKE: return type_like(c, false);
    case KJ_B_NP_FULL_LIKE: return type_like(c, true);
    case KJ_B_NP_ARANGE: return type_arange(c);
    case KJ_B_NP_LINSPACE: return type_linspace(c);
    case KJ_B_NP_RANDOM_SEED: return int_arg(c, 0) ? none(c) : NULL;
    case KJ_B_NP_RANDOM_RAND: return type_rand(c);
    case KJ_B_NP_RANDOM_RANDOM: case KJ_B_NP_RANDOM_RANDOM_SAMPLE: case KJ_B_NP_RANDOM_RANF:
    case KJ_B_NP_RANDOM_SAMPLE: return type_random(c);
    case KJ_B_NP_RANDOM_RANDN: return type_rand(c);
    case KJ_B_NP_RANDOM_SHUFFLE: return type_shuffle(c);
    case KJ_B_NP_RANDOM_PERMUTATION: return type_permutation(c);
    case KJ_B_NP_RANDOM_CHOICE: return kj_btype_choice(c, 0);
    case KJ_B_NP_RANDOM_MULTINOMIAL: return kj_btype_multinomial(c, 0);
    case KJ_B_NP_RANDOM_DIRICHLET: return kj_btype_dirichlet(c, 0);
    case KJ_B_GEN_CHOICE: case KJ_B_GEN_MULTINOMIAL: case KJ_B_GEN_DIRICHLET: return kj_btype_gen_pick(c);
    case KJ_B_GEN_PERMUTED: return kj_btype_gen_permuted(c); /* builtins_gen_permuted.c */
    case KJ_B_NP_RANDOM_DEFAULT_RNG: case KJ_B_GEN_RANDOM: case KJ_B_GEN_UNIFORM: case KJ_B_GEN_INTEGERS:
    case KJ_B_GEN_SHUFFLE: case KJ_B_GEN_PERMUTATION:
        return type_generator(c);
    case KJ_B_NP_RANDOM_RANDINT: return type_randint(c);
    case KJ_B_NP_LOAD: return type_load(c);
    case KJ_B_NP_SAVE: return type_save(c);
    case KJ_B_NP_ALLCLOSE: return type_allclose(c);
    case KJ_B_NP_ISCLOSE: return type_isclose(c);
    case KJ_B_NP_ARRAY_EQUAL: return type_allclose(c); /* two operands, a bool */
    case KJ_B_NP_SUM:
    case KJ_B_NP_PROD: return type_reduce(c, R_SUM);
    case KJ_B_NP_MIN:
    case KJ_B_NP_MAX: return type_reduce(c, R_MINMAX);
    case KJ_B_NP_MEAN:
    case KJ_B_NP_VAR:
    case KJ_B_NP_STD: return type_reduce(c, R_MEAN);
    case KJ_B_NP_ARGMIN:
    case KJ_B_NP_ARGMAX: return type_reduce(c, R_ARG);
    case KJ_B_NP_ANY:
    case KJ_B_NP_ALL: return type_reduce(c, R_TRUTH);
    case KJ_B_NP_COUNT_NONZERO: return type_reduce(c, R_COUNT);
    case KJ_B_TIME_PERF_COUNTER: return f64(c);
    case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY: case KJ_B_NP_ASCONTIGUOUSARRAY: case KJ_B_NP_CONCATENATE:
    case KJ_B_NP_STACK: case KJ_B_NP_HSTACK: case KJ_B_NP_VSTACK: case KJ_B_NP_DSTACK: case KJ_B_NP_COLUMN_STACK:
    case KJ_B_NP_FLIP: case KJ_B_NP_FLIPLR: case KJ_B_NP_FLIPUD: case KJ_B_NP_NONZERO: case KJ_B_ARR_NONZERO:
    case KJ_B_NP_FLATNONZERO: case KJ_B_NP_ARGWHERE: case KJ_B_NP_REPEAT: case KJ_B_ARR_REPEAT: case KJ_B_NP_EYE:
    case KJ_B_NP_IDENTITY: case KJ_B_NP_EXPAND_DIMS: case KJ_B_NP_SWAPAXES: case KJ_B_ARR_SWAPAXES: case KJ_B_NP_MOVEAXIS:
    case KJ_B_NP_ATLEAST_1D: case KJ_B_NP_ATLEAST_2D: case KJ_B_NP_ATLEAST_3D: case KJ_B_NP_BROADCAST_TO:
        return kj_type_np_manip(c->t, c->id, c->args, c->nargs, c->call, c->src, c->d, c->conv);
    KJ_B_NP_MANIP2_CASES:
        return kj_type_np_manip2(c->t, c->id, c->args, c->nargs, c->call, c->src, c->d, c->conv);
    case KJ_B_ARR_ASTYPE: case KJ_B_ARR_COPY: case KJ_B_ARR_RESHAPE: case KJ_B_ARR_SUM:
    case KJ_B_ARR_MIN: case KJ_B_ARR_MAX: case KJ_B_ARR_MEAN: case KJ_B_ARR_STD:
    case KJ_B_ARR_PROD: case KJ_B_ARR_VAR: case KJ_B_ARR_ARGMIN: case KJ_B_ARR_ARGMAX:
    case KJ_B_ARR_FILL: case KJ_B_ARR_COPY_TO_HOST: case KJ_B_ARR_SHAPE: case KJ_B_ARR_SIZE: case KJ_B_ARR_NBYTES:
    case KJ_B_ARR_NDIM: case KJ_B_ARR_DTYPE: case KJ_B_ARR_ANY: case KJ_B_ARR_ALL: case KJ_B_ARR_T:
    case KJ_B_ARR_TRANSPOSE: case KJ_B_NP_TRANSPOSE: case KJ_B_NP_COPY: case KJ_B_NP_RAVEL: case KJ_B_ARR_RAVEL:
    case KJ_B_ARR_FLATTEN: case KJ_B_NP_CUMSUM: case KJ_B_NP_CUMPROD: case KJ_B_ARR_CUMSUM: case KJ_B_ARR_CUMPROD:
    case KJ_B_ARR_ITEMSIZE: case KJ_B_ARR_SPLIT: case KJ_B_ARR_VIEW: case KJ_B_ARR_COPY_TO_DEVICE: case KJ_B_ARR_IS_C_CONTIGUOUS: case KJ_B_ARR_IS_F_CONTIGUOUS: case KJ_B_ARR_STRIDES:
        return type_array_method(c);
    case KJ_B_CUDA_TO_DEVICE: case KJ_B_CUDA_DEVICE_ARRAY: case KJ_B_CUDA_DEVICE_ARRAY_LIKE:
    case KJ_B_CUDA_SYNCHRONIZE: case KJ_B_CUDA_STREAM: case KJ_B_CUDA_EVENT:
    case KJ_B_CUDA_EVENT_ELAPSED_TIME: case KJ_B_STREAM_SYNCHRONIZE: case KJ_B_EVENT_RECORD:
    case KJ_B_EVENT_SYNCHRONIZE: case KJ_B_EVENT_ELAPSED_TIME: case KJ_B_KJIT_ON_DEVICE: case KJ_B_KJIT_GPU_MATMUL:
        return kj_btype_cuda_host(c);
    default: return kj_btype_mpi(c);
    }
}

static const kj_type *type_kernel(bctx *c)
{
    switch (c->id) {
    case KJ_B_CUDA_GRID:
    case KJ_B_CUDA_GRIDSIZE: return kj_btype_grid(c);
    case KJ_B_TID_X: case KJ_B_TID_Y: case KJ_B_TID_Z:
    case KJ_B_BID_X: case KJ_B_BID_Y: case KJ_B_BID_Z:
    case KJ_B_BDIM_X: case KJ_B_BDIM_Y: case KJ_B_BDIM_Z:
    case KJ_B_GDIM_X: case KJ_B_GDIM_Y: case KJ_B_GDIM_Z:
    case KJ_B_LANEID: case KJ_B_WARPSIZE: return i32(c);
    case KJ_B_SHARED_ARRAY:
    case KJ_B_LOCAL_ARRAY: return kj_btype_local_array(c);
    case KJ_B_CONST_ARRAY_LIKE: return kj_btype_const_array_like(c);
    case KJ_B_ATOMIC_ADD: case KJ_B_ATOMIC_SUB: case KJ_B_ATOMIC_MAX: case KJ_B_ATOMIC_MIN:
    case KJ_B_ATOMIC_EXCH: case KJ_B_ATOMIC_AND: case KJ_B_ATOMIC_OR: case KJ_B_ATOMIC_XOR:
    case KJ_B_ATOMIC_CAS: case KJ_B_ATOMIC_CAS2: case KJ_B_ATOMIC_INC: case KJ_B_ATOMIC_DEC:
    case KJ_B_ATOMIC_NANMAX: case KJ_B_ATOMIC_NANMIN: return kj_btype_atomic(c);
    case KJ_B_CBRT: case KJ_B_SELP: case KJ_B_NANOSLEEP: case KJ_B_LANEMASK_LT: return kj_btype_cuda_misc(c);
    case KJ_B_SHFL_SYNC: case KJ_B_SHFL_UP_SYNC:
    case KJ_B_SHFL_DOWN_SYNC: case KJ_B_SHFL_XOR_SYNC:
    case KJ_B_MATCH_ANY_SYNC: case KJ_B_MATCH_ALL_SYNC: return kj_btype_shfl(c);
    case KJ_B_POPC: case KJ_B_CLZ: case KJ_B_FFS: case KJ_B_BREV: return kj_btype_bits(c);
    case KJ_B_FMA: return kj_btype_fma(c);
    case KJ_B_XORO_CREATE: case KJ_B_XORO_INIT: case KJ_B_XORO_NEXT: case KJ_B_XORO_JUMP:
    case KJ_B_XORO_UNIFORM32: case KJ_B_XORO_UNIFORM64: case KJ_B_XORO_NORMAL32:
    case KJ_B_XORO_NORMAL64: return kj_btype_xoro(c);
    case KJ_B_CG_THIS_GRID: return kj_t_opaque(c->t, "grid_group");
    case KJ_B_GRID_SYNC: return opaque_arg(c, 0, "grid_group") ? none(c) : NULL;
    case KJ_B_SYNCTHREADS: case KJ_B_SYNCTHREADS_COUNT: case KJ_B_SYNCTHREADS_AND:
    case KJ_B_SYNCTHREADS_OR: case KJ_B_SYNCWARP: case KJ_B_THREADFENCE:
    case KJ_B_THREADFENCE_BLOCK: case KJ_B_THREADFENCE_SYSTEM: case KJ_B_ALL_SYNC:
    case KJ_B_ANY_SYNC: case KJ_B_BALLOT_SYNC: case KJ_B_ACTIVEMASK: case KJ_B_EQ_SYNC: return kj_btype_sync(c);
    default: return type_numpy(c);
    }
}

/* Python built-ins and math.*; everything else goes on to the kernel,
 * NumPy and cuda host groups. */
static const kj_type *type_any(bctx *c)
{
    if (c->id >= KJ_B_STR && c->id <= KJ_B_STR_FMT1) return type_str_method(c); /* strings */
    if (kj_builtin_bytes(c->id)) /* builtins_bytes.c */
        return kj_type_bytes_builtin(c->t, c->id, c->args, c->nargs, c->call, c->src, c->d, c->conv);
    if (c->id >= KJ_B_STR_SPLIT && c->id <= KJ_B_STR_ISPRINTABLE) /* builtins_str.c */
        return kj_type_str_builtin(c->t, c->id, c->args, c->nargs, c->call, c->src, c->d, c->conv);
    switch (c->id) {
    case KJ_B_RANGE:
    case KJ_B_PRANGE: return type_range(c);
    case KJ_B_LEN: return type_len(c);
    case KJ_B_NAMEDTUPLE: /* made at module level (resolve_namedtuple.c); infer_call.c refuses it in code */
        kj_error(c->d, c->src, c->call, "namedtuple classes are made at module level in kjit");
        return NULL;
    case KJ_B_LIST_APPEND: case KJ_B_LIST_POP: case KJ_B_LIST_NEW: case KJ_B_LIST_GET: case KJ_B_LIST_SET:
    case KJ_B_LIST_INSERT: case KJ_B_LIST_EXTEND: case KJ_B_LIST_CLEAR: case KJ_B_LIST_COPY: case KJ_B_LIST_REVERSE:
    case KJ_B_LIST_REPEAT: case KJ_B_LIST_COUNT: case KJ_B_LIST_INDEX: case KJ_B_LIST_REMOVE:
    case KJ_B_LIST_SLICE: case KJ_B_LIST_SETSLICE: case KJ_B_LIST_DEL: case KJ_B_LIST_SORT: case KJ_B_LIST_CMP:
        return type_list_method(c);
    case KJ_B_SORTED: case KJ_B_LIST_OF: return type_sorted(c);
    case KJ_B_DICT_NEW: case KJ_B_DICT_GETITEM: case KJ_B_DICT_SETITEM: case KJ_B_DICT_CONTAINS: case KJ_B_DICT_GET:
    case KJ_B_DICT_SETDEFAULT: case KJ_B_DICT_POP: case KJ_B_DICT_KEYS: case KJ_B_DICT_VALUES: case KJ_B_DICT_ITEMS:
    case KJ_B_SET_NEW: case KJ_B_SET_ADD: case KJ_B_SET_DISCARD: case KJ_B_SET_REMOVE: case KJ_B_SET_UNION:
    case KJ_B_SET_INTERSECTION: case KJ_B_SET_DIFFERENCE: case KJ_B_DICT: case KJ_B_SET: /* builtins_dict.c */
        return kj_type_dict_builtin(c->t, c->id, c->args, c->nargs, c->call, c->src, c->d, c->conv);
    case KJ_B_TYPED_LIST: case KJ_B_TYPED_LIST_EMPTY: case KJ_B_TYPED_DICT: case KJ_B_TYPED_DICT_EMPTY:
        /* calls are typed by infer_typed.c, which reads the type objects passed to them */
        if (!c->nargs && c->id == KJ_B_TYPED_LIST) return kj_t_list(c->t, NULL);
        if (!c->nargs && c->id == KJ_B_TYPED_DICT) return kj_t_dict(c->t, NULL, NULL);
        kj_error(c->d, c->src, c->call, "%s() takes Numba type objects, written in its call", c->name);
        return NULL;
    case KJ_B_ENUMERATE:
    case KJ_B_ZIP:
    case KJ_B_REVERSED: /* the iterable of a for loop is typed by infer_iter.c, never here */
        kj_error(c->d, c->src, c->call, "%s() is only supported as the iterable of a for loop", c->name);
        return NULL;
    case KJ_B_ABS: return type_abs(c);
    case KJ_B_MIN:
    case KJ_B_MAX: return type_minmax(c);
    case KJ_B_INT: return num_arg(c, 0, NULL) ? i64(c) : NULL;
    case KJ_B_FLOAT: return num_arg(c, 0, NULL) ? f64(c) : NULL;
    case KJ_B_BOOL: return num_arg(c, 0, NULL) ? kj_t_bool(c->t) : NULL;
    case KJ_B_ROUND: return type_round(c);
    case KJ_B_SUM: return type_sum(c);
    case KJ_B_ANY: case KJ_B_ALL: return type_anyall(c);
    case KJ_B_PRINT: return type_print(c);
    case KJ_B_CONVERT: return type_convert(c);
    case KJ_B_ISNAN: case KJ_B_ISINF: case KJ_B_ISFINITE: return type_math1(c, M_PRED);
    case KJ_B_FLOOR: case KJ_B_CEIL: case KJ_B_TRUNC: return type_math1(c, M_ROUNDING);
    case KJ_B_ATAN2: case KJ_B_POW: case KJ_B_COPYSIGN:
    case KJ_B_FMOD: case KJ_B_HYPOT: return type_binary(c, BIN_FLOAT);
    case KJ_B_NP_MINIMUM: case KJ_B_NP_MAXIMUM: return type_binary(c, BIN_PROMOTE);
    case KJ_B_NP_FMOD: return type_binary(c, BIN_NP_FMOD);
    case KJ_B_NP_WHERE: case KJ_B_NP_CLIP: return type_select3(c);
    case KJ_B_NP_SIGN: return type_sign(c);
    case KJ_B_REC_GET: case KJ_B_REC_SET: case KJ_B_REC_VIEW: /* typed by infer_record.c, never called */
    case KJ_B_INDEX_GET: case KJ_B_INDEX_SET: /* typed with the subscript (infer_expr.c), never called */
        kj_error(c->d, c->src, c->call, "%s is written as a subscript, not called", c->name);
        return NULL;
    case KJ_B_PI: case KJ_B_E: case KJ_B_INF: case KJ_B_NAN:
        return kj_t_weak_float(c->t); /* Python floats: weak under NEP 50 */
    case KJ_B_SIN: case KJ_B_COS: case KJ_B_TAN: case KJ_B_ASIN: case KJ_B_ACOS:
    case KJ_B_ATAN: case KJ_B_SINH: case KJ_B_COSH: case KJ_B_TANH: case KJ_B_ASINH:
    case KJ_B_ACOSH: case KJ_B_ATANH: case KJ_B_EXP: case KJ_B_EXPM1: case KJ_B_EXP2:
    case KJ_B_LOG: case KJ_B_LOG1P: case KJ_B_LOG2: case KJ_B_LOG10: case KJ_B_SQRT:
    case KJ_B_FABS: case KJ_B_ERF: case KJ_B_ERFC: case KJ_B_GAMMA: case KJ_B_LGAMMA:
        return type_math1(c, M_FLOAT);
    default: return type_kernel(c);
    }
}

const kj_type *kj_builtin_type(kj_types *t, kj_builtin id, const kj_type *target,
                               const kj_barg *args, uint32_t nargs, kj_span call_span,
                               const kj_source *src, kj_diags *d, const kj_type **conv)
{
    if ((unsigned)id >= KJ_B__COUNT) return NULL;
    if (infos[id].flags & KJ_BF_LINALG) {
        if (conv)
            for (uint32_t i = 0; i < nargs; i++) conv[i] = NULL;
        return kj_linalg_type(t, id, args, nargs, call_span, src, d);
    }
    bctx c = {.t = t, .id = id, .name = infos[id].path, .args = args, .nargs = nargs,
              .recv = (infos[id].flags & KJ_BF_METHOD) ? 1 : 0, .call = call_span, .src = src,
              .d = d, .conv = conv, .target = target};
    c.np = parse_params(infos[id].params, c.ps);
    c.var = variadic_index(c.ps, c.np);
    uint32_t fixed = c.recv + (c.var < 0 ? c.np : c.np - 1);
    c.nvar = c.var >= 0 && nargs > fixed ? nargs - fixed : 0;
    if (conv)
        for (uint32_t i = 0; i < nargs; i++) conv[i] = NULL;
    if (id == KJ_B_ITER || id == KJ_B_NEXT) return kj_btype_iter(t, id, args, nargs, call_span, src, d, conv);
    if (id == KJ_B_OBJMODE || id == KJ_B_OBJMODE_OUT) return kj_btype_objmode(t, id, args, nargs, call_span, src, d, conv);
    kj_barg genl[8]; /* sum(g), list(g), ...: typed as of a list of g's yield type (infer_pygen.c) */
    c.args = args = kj_gen_list_args(t, id, args, nargs, genl);
    bool dt_handled; /* datetime64 / timedelta64: infer_datetime.c */
    const kj_type *dtr = kj_dt_builtin_type(t, id, args, nargs, call_span, src, d, conv, &dt_handled);
    if (dt_handled) return dtr;
    if (kj_builtin_npshape(id)) return kj_builtin_type_npshape(t, id, args, nargs, call_span, src, d, conv);
    if (id == KJ_B_PRINT && kj_npshape_unprintable(args, nargs, src, d)) return NULL; /* builtins_npshape.c */
    if (id == KJ_B_PRINT && kj_polynomial_unprintable(args, nargs, src, d)) return NULL; /* builtins_polynomial.c */
    const kj_type *cx;
    if (kj_complex_builtin_type(t, id, target, args, nargs, call_span, src, d, conv, &cx)) return cx;
    if (infos[id].flags & KJ_BF_FP16) return kj_fp16_builtin_type(t, id, args, nargs, call_span, src, d);
    if (kj_builtin_npother(id)) return kj_builtin_type_npother(t, id, args, nargs, call_span, src, d, conv);
    if (kj_builtin_setops(id)) return kj_type_setops(t, id, args, nargs, call_span, src, d); /* builtins_set.c */
    if (kj_builtin_exc(id) || (id == KJ_B_LEN && nargs == 1 && kj_t_is_excobj(args[0].type) &&
                               !strcmp(args[0].type->name, "exception args")))
        return kj_type_exc(t, id, args, nargs, call_span, src, d); /* builtins_exc.c */
    if (id == KJ_B_SET && nargs && args[0].type && args[0].type->kind != KJ_T_NONE)
        return kj_type_set_of(t, args, nargs, call_span, src, d); /* set(iterable): builtins_set.c */
    if (id == KJ_B_TUPLE_INDEX) return kj_tuple_index_type(t, args, nargs, call_span, src, d); /* infer_tuple.c */
    if (kj_builtin_npsort(id)) { /* complex arrays only where builtins_complex.c says */
        const kj_type *r = kj_builtin_type_npsort(t, id, args, nargs, c.recv, call_span, src, d, conv);
        return r && !kj_complex_arrays_ok(id, args, nargs, r, call_span, src, d) ? NULL : r;
    }
    if (kj_builtin_cuda_dev(id)) return kj_builtin_type_cuda_dev(t, id, args, nargs, c.recv, call_span, src, d);
    if (kj_builtin_cuda_host(id)) return kj_builtin_type_cuda_host(t, id, args, nargs, call_span, src, d);
    if (kj_builtin_cuda_compile(id)) { /* a call is typed by cuda_compile.c; this is any other use */
        kj_error(d, src, call_span, "%s() takes a function and its signature: (code, resty) = %s(f, sig)",
                 infos[id].path, infos[id].path);
        return NULL;
    }
    if (kj_builtin_libdevice(id)) return kj_builtin_type_libdevice(t, id, args, nargs, call_span, src, d, conv);
    if (kj_builtin_pyrandom(id)) return kj_btype_pyrandom(&c);
    if (kj_builtin_threads(id)) return kj_btype_threads(&c);
    if (kj_builtin_heapq(id)) return kj_btype_heapq(&c);
    if (kj_builtin_pymath(id)) return kj_btype_pymath(&c);
    if (kj_builtin_npmath(id)) return kj_btype_npmath(&c);
    if (kj_builtin_nppoly(id)) return kj_btype_nppoly(&c);
    if (kj_builtin_pybuiltin(id)) return kj_btype_pybuiltin(&c);
    const kj_type *r = type_any(&c);
    return r && !kj_complex_arrays_ok(id, args, nargs, r, call_span, src, d) ? NULL : r;
}
