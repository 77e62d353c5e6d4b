/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit types: the interning table, NumPy 2 (NEP 50) promotion, unification
 * and implicit conversion.
 *
 * Every type is interned: kj_types keeps an open-addressing hash table keyed
 * on a type's structure, so two types are equal exactly when their pointers
 * are. Component types (array elements, tuple elements) are themselves
 * interned, which lets the hash and the equality test compare them by
 * pointer. */
#include "types.h"
#include "../util/npdatetime.h"

#include <stdlib.h>
#include <string.h>

struct kj_types {
    kj_arena *a;
    const kj_type **slots; /* open addressing, linear probing; NULL = empty */
    uint32_t cap;          /* power of two */
    uint32_t count;        /* interned types; also the next dense id */
};

enum { INITIAL_SLOTS = 64 };

kj_arena *kj_types_arena(kj_types *t) { return t->a; }

kj_types *kj_types_new(kj_arena *a)
{
    kj_types *t = KJ_NEW(a, kj_types);
    t->a = a;
    t->cap = INITIAL_SLOTS;
    t->slots = KJ_NEWN(a, const kj_type *, t->cap);
    return t;
}

/* ---- hashing and structural equality ------------------------------------ */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    for (; *s; s++) h = mix(h, (unsigned char)*s);
    return h;
}

static uint64_t type_hash(const kj_type *k)
{
    uint64_t h = mix(0, (uint64_t)k->kind);
    h = mix(h, (uint64_t)k->bits | (uint64_t)k->is_signed << 8 | (uint64_t)k->weak << 9 |
                   (uint64_t)k->ndim << 16 | (uint64_t)k->layout << 24 | (uint64_t)k->unit << 32);
    h = mix(h, (uint64_t)(uintptr_t)k->elem);
    h = mix(h, k->n);
    for (uint32_t i = 0; i < k->n; i++) h = mix(h, (uint64_t)(uintptr_t)k->elems[i]);
    if (k->kind == KJ_T_OPAQUE) h = hash_str(h, k->name);
    if (k->kind == KJ_T_FUNC) h = mix(mix(h, (uint64_t)(uintptr_t)k->ref), (uint64_t)k->builtin);
    if (k->kind == KJ_T_TUPLE || k->kind == KJ_T_ARRAY)
        h = mix(h, (uint64_t)(uintptr_t)k->ref); /* a namedtuple's class; xoroshiro states */
    return h;
}

static bool type_eq(const kj_type *x, const kj_type *y)
{
    if (x->kind != y->kind || x->bits != y->bits || x->is_signed != y->is_signed ||
        x->weak != y->weak || x->ndim != y->ndim || x->layout != y->layout ||
        x->elem != y->elem || x->n != y->n || x->unit != y->unit)
        return false;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->elems[i] != y->elems[i]) return false;
    if (x->kind == KJ_T_FUNC) return x->ref == y->ref && x->builtin == y->builtin;
    if (x->kind == KJ_T_TUPLE || x->kind == KJ_T_ARRAY) return x->ref == y->ref;
    return x->kind != KJ_T_OPAQUE || !strcmp(x->name, y->name);
}

/* ---- printed names -------------------------------------------------------- */

static const char *layout_name(kj_layout l)
{
    return l == KJ_LAYOUT_C ? "C" : l == KJ_LAYOUT_F ? "F" : "A";
}

/* The printed form (see kj_type_str in types.h); components are already
 * interned, so their names exist. */
static const char *make_name(kj_arena *a, const kj_type *k)
{
    switch (k->kind) {
    case KJ_T_NONE: return "none";
    case KJ_T_BOOL: return "bool";
    case KJ_T_INT:
        if (k->weak) return "int";
        return kj_arena_printf(a, "%sint%d", k->is_signed ? "" : "u", k->bits);
    case KJ_T_FLOAT: return k->weak ? "float" : kj_arena_printf(a, "float%d", k->bits);
    case KJ_T_ARRAY:
        if (kj_buffer_kind(k)) /* as Numba names them: readonly bytes(uint8, 1d, C) */
            return kj_arena_printf(a, "%s(%s, %dd, %s)", (const char *)k->ref, k->elem->name, k->ndim,
                                   layout_name(k->layout));
        if (k->ref) return "array(xoroshiro128p_dtype, 1d, C)"; /* kj_t_xoro_states */
        return kj_arena_printf(a, "array(%s, %dd, %s)", k->elem->name, k->ndim,
                               layout_name(k->layout));
    case KJ_T_TUPLE: {
        kj_buf b = {0};
        if (k->ref) kj_buf_puts(&b, ((const kj_ntclass *)k->ref)->name); /* Point(int64, int64), as Numba */
        kj_buf_putc(&b, '(');
        for (uint32_t i = 0; i < k->n; i++) {
            if (i) kj_buf_puts(&b, ", ");
            kj_buf_puts(&b, k->elems[i]->name);
        }
        kj_buf_puts(&b, k->n == 1 && !k->ref ? ",)" : ")");
        char *s = kj_arena_strdup(a, b.s);
        kj_buf_free(&b);
        return s;
    }
    case KJ_T_RANGE: return kj_arena_printf(a, "range(%s)", k->elem->name);
    case KJ_T_LIST: return kj_arena_printf(a, "list(%s)", k->elem ? k->elem->name : "undefined");
    case KJ_T_DICT:
        return k->elem ? kj_arena_printf(a, "DictType[%s,%s]", k->elem->name, k->elems[0]->name) : "DictType[undefined,undefined]";
    case KJ_T_SET: return kj_arena_printf(a, "set(%s)", k->elem ? k->elem->name : "undefined");
    case KJ_T_GENERATOR: return kj_arena_printf(a, "generator(yield_type=%s)", k->elem->name);
    case KJ_T_OPTIONAL: return kj_arena_printf(a, "OptionalType(%s)", k->elem->name);
    case KJ_T_STR: return "str";
    case KJ_T_DTYPE: return kj_arena_printf(a, "dtype(%s)", k->elem->name);
    case KJ_T_OPAQUE: case KJ_T_FUNC: return k->name;
    case KJ_T_COMPLEX: return k->bits == 64 ? "complex64" : "complex128";
    case KJ_T_DATETIME: case KJ_T_TIMEDELTA: /* as Numba: datetime64[D], timedelta64[] */
        return kj_arena_printf(a, "%s[%s]", k->kind == KJ_T_DATETIME ? "datetime64" : "timedelta64",
                               kj_dtu_name(k->unit));
    }
    return "?";
}

/* ---- the table ------------------------------------------------------------ */

static void grow(kj_types *t)
{
    uint32_t cap = t->cap * 2;
    const kj_type **slots = KJ_NEWN(t->a, const kj_type *, cap);
    for (uint32_t i = 0; i < t->cap; i++) {
        const kj_type *ty = t->slots[i];
        if (!ty) continue;
        uint32_t j = (uint32_t)type_hash(ty) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = ty;
    }
    t->slots = slots;
    t->cap = cap;
}

/* The interned type structurally equal to `key`, created on first use. The
 * key may live on the caller's stack: its elems array and opaque name are
 * copied into the arena. */
static const kj_type *intern(kj_types *t, const kj_type *key)
{
    if ((t->count + 1) * 2 > t->cap) grow(t);
    uint32_t j = (uint32_t)type_hash(key) & (t->cap - 1);
    for (; t->slots[j]; j = (j + 1) & (t->cap - 1))
        if (type_eq(t->slots[j], key)) return t->slots[j];
    kj_type *ty = KJ_NEW(t->a, kj_type);
    *ty = *key;
    if (key->n) {
        ty->elems = KJ_NEWN(t->a, const kj_type *, key->n);
        memcpy(ty->elems, key->elems, key->n * sizeof *key->elems);
    } else {
        ty->elems = NULL;
    }
    ty->name = key->kind == KJ_T_OPAQUE || key->kind == KJ_T_FUNC ? kj_arena_strdup(t->a, key->name) : make_name(t->a, ty);
    ty->id = t->count++;
    t->slots[j] = ty;
    return ty;
}

static const kj_type *scalar(kj_types *t, kj_type_kind kind, int bits, bool is_signed, bool weak)
{
    kj_type k = {.kind = kind, .bits = (uint8_t)bits, .is_signed = is_signed, .weak = weak};
    return intern(t, &k);
}

const kj_type *kj_t_none(kj_types *t) { return scalar(t, KJ_T_NONE, 0, false, false); }
const kj_type *kj_t_bool(kj_types *t) { return scalar(t, KJ_T_BOOL, 8, false, false); }
const kj_type *kj_t_int(kj_types *t, int bits, bool is_signed)
{
    return scalar(t, KJ_T_INT, bits, is_signed, false);
}
const kj_type *kj_t_float(kj_types *t, int bits)
{
    return scalar(t, KJ_T_FLOAT, bits, true, false);
}
const kj_type *kj_t_complex(kj_types *t, int bits)
{
    return scalar(t, KJ_T_COMPLEX, bits, true, false);
}
const kj_type *kj_t_datetime(kj_types *t, int unit, bool is_timedelta)
{
    kj_type k = {.kind = is_timedelta ? KJ_T_TIMEDELTA : KJ_T_DATETIME, .bits = 64, .is_signed = true,
                 .unit = (uint8_t)unit};
    return intern(t, &k);
}
const kj_type *kj_t_weak_int(kj_types *t) { return scalar(t, KJ_T_INT, 64, true, true); }
const kj_type *kj_t_weak_float(kj_types *t) { return scalar(t, KJ_T_FLOAT, 64, true, true); }
const kj_type *kj_t_str(kj_types *t) { return scalar(t, KJ_T_STR, 0, false, false); }

const kj_type *kj_t_array(kj_types *t, const kj_type *elem, int ndim, kj_layout layout)
{
    /* A one-dimensional F array is the same thing as a C one. */
    if (ndim == 1 && layout == KJ_LAYOUT_F) layout = KJ_LAYOUT_C;
    kj_type k = {.kind = KJ_T_ARRAY, .elem = elem, .ndim = (uint8_t)ndim, .layout = layout};
    return intern(t, &k);
}

/* The marker (ref) of the xoroshiro128p states type. */
static const char xoro_marker[] = "xoroshiro128p_dtype";

const kj_type *kj_t_xoro_states(kj_types *t)
{
    kj_type k = {.kind = KJ_T_ARRAY, .elem = kj_t_int(t, 64, false), .ndim = 2, .layout = KJ_LAYOUT_C,
                 .ref = xoro_marker};
    return intern(t, &k);
}

bool kj_is_xoro_states(const kj_type *ty) { return ty && ty->kind == KJ_T_ARRAY && ty->ref == xoro_marker; }

/* The markers (ref) of the buffer types, indexed by kj_buf_kind - 1: their Numba names. */
static const char buf_markers[4][24] = {"readonly bytes", "bytearray", "memoryview", "readonly memoryview"};

const kj_type *kj_t_buffer(kj_types *t, kj_buf_kind bk, const kj_type *elem, int ndim, kj_layout layout)
{
    if (ndim == 1 && layout == KJ_LAYOUT_F) layout = KJ_LAYOUT_C;
    kj_type k = {.kind = KJ_T_ARRAY, .elem = elem, .ndim = (uint8_t)ndim, .layout = layout,
                 .ref = bk ? buf_markers[bk - 1] : NULL};
    return intern(t, &k);
}

kj_buf_kind kj_buffer_kind(const kj_type *ty)
{
    if (!ty || ty->kind != KJ_T_ARRAY || !ty->ref) return KJ_BUF_NOT;
    for (int i = 0; i < 4; i++)
        if (ty->ref == buf_markers[i]) return (kj_buf_kind)(i + 1);
    return KJ_BUF_NOT;
}

const kj_type *kj_t_tuple(kj_types *t, const kj_type *const *elems, uint32_t n)
{
    kj_type k = {.kind = KJ_T_TUPLE, .elems = (const kj_type **)elems, .n = n};
    return intern(t, &k);
}

const kj_type *kj_t_namedtuple(kj_types *t, const kj_ntclass *cls, const kj_type *const *elems)
{
    kj_type k = {.kind = KJ_T_TUPLE, .elems = (const kj_type **)elems, .n = cls->n, .ref = cls};
    return intern(t, &k);
}

const kj_type *kj_t_tuple_like(kj_types *t, const kj_type *like, const kj_type *const *elems, uint32_t n)
{
    const kj_ntclass *cls = kj_nt_class(like);
    return cls && cls->n == n ? kj_t_namedtuple(t, cls, elems) : kj_t_tuple(t, elems, n);
}

const kj_ntclass *kj_nt_class(const kj_type *ty)
{
    return ty && ty->kind == KJ_T_TUPLE ? ty->ref : NULL;
}

int kj_nt_field(const kj_ntclass *cls, const char *name)
{
    for (uint32_t i = 0; i < cls->n; i++)
        if (!strcmp(cls->fields[i], name)) return (int)i;
    return -1;
}

const kj_type *kj_t_range(kj_types *t, const kj_type *elem)
{
    kj_type k = {.kind = KJ_T_RANGE, .elem = elem};
    return intern(t, &k);
}

const kj_type *kj_t_list(kj_types *t, const kj_type *elem)
{
    kj_type k = {.kind = KJ_T_LIST, .elem = elem};
    return intern(t, &k);
}

const kj_type *kj_t_dict(kj_types *t, const kj_type *key, const kj_type *value)
{
    kj_type k = {.kind = KJ_T_DICT, .elem = key, .elems = key ? &value : NULL, .n = key ? 1 : 0};
    return intern(t, &k);
}

const kj_type *kj_t_set(kj_types *t, const kj_type *elem)
{
    kj_type k = {.kind = KJ_T_SET, .elem = elem};
    return intern(t, &k);
}

const kj_type *kj_t_generator(kj_types *t, const kj_type *yield_type)
{
    kj_type k = {.kind = KJ_T_GENERATOR, .elem = yield_type};
    return intern(t, &k);
}

const kj_type *kj_t_optional(kj_types *t, const kj_type *elem)
{
    if (elem && elem->kind == KJ_T_OPTIONAL) return elem;
    if (!kj_optional_elem_ok(elem)) return NULL; /* types_optional.c */
    kj_type k = {.kind = KJ_T_OPTIONAL, .elem = kj_strong(t, elem)};
    return intern(t, &k);
}

const kj_type *kj_t_dtype(kj_types *t, const kj_type *scalar_ty)
{
    kj_type k = {.kind = KJ_T_DTYPE, .elem = scalar_ty};
    return intern(t, &k);
}

const kj_type *kj_t_func(kj_types *t, const void *fn, int32_t builtin, const char *name)
{
    kj_type k = {.kind = KJ_T_FUNC, .ref = fn, .builtin = fn ? -1 : builtin,
                 .name = kj_arena_printf(t->a, "function(%s)", name)};
    return intern(t, &k);
}

/* Record(x[type=float64;offset=0],y[type=int32;offset=8];12;False), as Numba's name */
const kj_type *kj_t_record(kj_types *t, const kj_recdesc *d)
{
    kj_buf b = {0};
    kj_buf_puts(&b, "Record(");
    for (uint32_t i = 0; i < d->n; i++)
        kj_buf_printf(&b, "%s%s[type=%s;offset=%u]", i ? "," : "", d->names[i], d->types[i]->name, d->offsets[i]);
    kj_buf_printf(&b, ";%u;%s)", d->size, d->aligned ? "True" : "False");
    kj_type k = {.kind = KJ_T_OPAQUE, .name = kj_arena_strdup(t->a, b.s), .ref = d};
    kj_buf_free(&b);
    return intern(t, &k);
}

const kj_type *kj_t_opaque(kj_types *t, const char *name)
{
    kj_type k = {.kind = KJ_T_OPAQUE, .name = name};
    return intern(t, &k);
}

/* ---- predicates ------------------------------------------------------------- */

bool kj_is_scalar(const kj_type *ty)
{
    return ty && (ty->kind == KJ_T_BOOL || ty->kind == KJ_T_INT || ty->kind == KJ_T_FLOAT ||
                  ty->kind == KJ_T_COMPLEX);
}
bool kj_is_complex(const kj_type *ty) { return ty && ty->kind == KJ_T_COMPLEX; }
const kj_type *kj_complex_part(kj_types *t, const kj_type *c)
{
    return kj_t_float(t, c->bits == 64 ? 32 : 64);
}
bool kj_is_numeric(const kj_type *ty)
{
    return ty && (ty->kind == KJ_T_INT || ty->kind == KJ_T_FLOAT);
}
bool kj_is_int(const kj_type *ty) { return ty && ty->kind == KJ_T_INT; }
bool kj_is_float(const kj_type *ty) { return ty && ty->kind == KJ_T_FLOAT; }

const kj_type *kj_strong(kj_types *t, const kj_type *ty)
{
    if (!ty) return NULL;
    if (ty->weak) return ty->kind == KJ_T_INT ? kj_t_int(t, 64, true) : kj_t_float(t, 64);
    if (ty->kind != KJ_T_TUPLE) return ty;
    const kj_type *buf[16];
    const kj_type **el = ty->n <= 16 ? buf : KJ_NEWN(t->a, const kj_type *, ty->n);
    bool changed = false;
    for (uint32_t i = 0; i < ty->n; i++) {
        el[i] = kj_strong(t, ty->elems[i]);
        changed |= el[i] != ty->elems[i];
    }
    return changed ? kj_t_tuple_like(t, ty, el, ty->n) : ty;
}

/* ---- promotion ------------------------------------------------------------- */

/* NumPy's table for two strong scalar types (np.result_type):
 *   bool is below everything; two floats or two ints of one signedness take
 *   the wider; a signed and an unsigned int take the smallest signed int
 *   wider than the unsigned one, or float64 when that would exceed 64 bits
 *   (int64+uint64); an int with float32 stays float32 only when float32
 *   holds every value of the int (8 and 16 bit ints), else float64; float16
 *   stays float16 beside 8-bit ints and becomes float32 beside 16-bit ones. */
static const kj_type *promote_strong(kj_types *t, const kj_type *a, const kj_type *b)
{
    if (a->kind == KJ_T_BOOL) return b;
    if (b->kind == KJ_T_BOOL) return a;
    if (a->kind == KJ_T_FLOAT && b->kind == KJ_T_FLOAT) return a->bits >= b->bits ? a : b;
    if (a->kind == KJ_T_FLOAT || b->kind == KJ_T_FLOAT) {
        const kj_type *f = a->kind == KJ_T_FLOAT ? a : b, *i = f == a ? b : a;
        /* float16 holds every 8-bit int, float32 every 16-bit one */
        if (f->bits == 16 && i->bits <= 8) return f;
        if (f->bits <= 32 && i->bits <= 16) return kj_t_float(t, 32);
        return kj_t_float(t, 64);
    }
    if (a->is_signed == b->is_signed) return a->bits >= b->bits ? a : b;
    const kj_type *s = a->is_signed ? a : b, *u = s == a ? b : a;
    if (s->bits > u->bits) return s;
    if (u->bits < 64) return kj_t_int(t, u->bits * 2, true);
    return kj_t_float(t, 64);
}

/* NEP 50: a weak (Python) scalar defers to the strong operand's kind. */
static const kj_type *promote_weak(kj_types *t, const kj_type *w, const kj_type *s)
{
    if (w->kind == KJ_T_INT) {
        /* np.True_ + 1 is int64: bool is not an integer kind to NumPy. */
        return s->kind == KJ_T_BOOL ? kj_t_int(t, 64, true) : s;
    }
    return s->kind == KJ_T_FLOAT ? s : kj_t_float(t, 64);
}

/* NumPy with a complex operand: complex64 stays complex64 only beside
 * bool, int8/16, float16/32, weak Python ints and floats, and complex64; every
 * other mix is complex128 (complex64 + float64 → complex128). */
static const kj_type *promote_complex(kj_types *t, const kj_type *a, const kj_type *b)
{
    const kj_type *c = a->kind == KJ_T_COMPLEX ? a : b, *o = c == a ? b : a;
    if (c->bits == 128 || o->weak || o->kind == KJ_T_BOOL) return o->kind == KJ_T_COMPLEX && o->bits > c->bits ? o : c;
    if (o->kind == KJ_T_COMPLEX) return o->bits > c->bits ? o : c;
    if ((o->kind == KJ_T_FLOAT && o->bits <= 32) || (o->kind == KJ_T_INT && o->bits <= 16)) return c;
    return kj_t_complex(t, 128);
}

const kj_type *kj_promote(kj_types *t, const kj_type *a, const kj_type *b)
{
    if (!kj_is_scalar(a) || !kj_is_scalar(b)) return NULL;
    if (a->kind == KJ_T_COMPLEX || b->kind == KJ_T_COMPLEX) return promote_complex(t, a, b);
    if (a->weak && b->weak) return a->kind == KJ_T_FLOAT ? a : b; /* weak float wins */
    if (a->weak) return promote_weak(t, a, b);
    if (b->weak) return promote_weak(t, b, a);
    return promote_strong(t, a, b);
}

/* ---- unification --------------------------------------------------------------- */

static const kj_type *unify_tuple(kj_types *t, const kj_type *a, const kj_type *b)
{
    if (a->n != b->n || a->ref != b->ref) return NULL;
    const kj_type *buf[16];
    const kj_type **el = a->n <= 16 ? buf : KJ_NEWN(t->a, const kj_type *, a->n);
    for (uint32_t i = 0; i < a->n; i++)
        if (!(el[i] = kj_unify(t, a->elems[i], b->elems[i]))) return NULL;
    return kj_t_tuple_like(t, a, el, a->n);
}

const kj_type *kj_unify(kj_types *t, const kj_type *a, const kj_type *b)
{
    if (!a || !b) return NULL;
    if (a == b) return a;
    if (kj_is_scalar(a) && kj_is_scalar(b)) return kj_promote(t, a, b);
    if (a->kind != b->kind) return NULL;
    switch (a->kind) {
    case KJ_T_ARRAY:
        if (a->elem != b->elem || a->ndim != b->ndim) return NULL;
        return kj_t_array(t, a->elem, a->ndim, KJ_LAYOUT_A);
    case KJ_T_TUPLE: return unify_tuple(t, a, b);
    case KJ_T_RANGE: {
        const kj_type *e = kj_unify(t, a->elem, b->elem);
        return e && kj_is_int(e) ? kj_t_range(t, kj_strong(t, e)) : NULL;
    }
    case KJ_T_LIST: /* `[]` takes the type of the list it meets; lists are otherwise invariant */
        return !a->elem ? b : !b->elem ? a : NULL;
    case KJ_T_DICT: case KJ_T_SET: /* `{}` / set() take the type they meet */
        return !a->elem ? b : !b->elem ? a : NULL;
    default: return NULL;
    }
}

/* ---- implicit conversion --------------------------------------------------------- */

/* np.can_cast(from, to, "same_kind") for strong scalars: any safe cast, or a
 * cast within one kind (int64 → int8, float64 → float32); bool → anything;
 * never float → int or numeric → bool. Unsigned → signed counts as one kind
 * (b → i), as does signed → unsigned only when safe, which it never is. */
static bool same_kind_cast(const kj_type *from, const kj_type *to)
{
    if (from->kind == KJ_T_BOOL) return true;
    if (to->kind == KJ_T_BOOL) return false;
    if (to->kind == KJ_T_COMPLEX) return true;
    if (from->kind == KJ_T_COMPLEX) return false; /* complex → real drops the imaginary part */
    if (to->kind == KJ_T_FLOAT) return true;
    if (from->kind == KJ_T_FLOAT) return false;
    /* int → int: NumPy's kinds are 'i' and 'u'; u → i is same_kind (u is
     * ordered below i), i → u is not. */
    return to->is_signed || !from->is_signed;
}

bool kj_can_convert(const kj_type *from, const kj_type *to)
{
    if (!from || !to) return false;
    if (from == to) return true;
    if (kj_is_scalar(from) && kj_is_scalar(to)) {
        if (from->weak) return to->kind != KJ_T_BOOL && from->kind != KJ_T_COMPLEX;
        if (to->weak) return false;
        return same_kind_cast(from, to);
    }
    if (from->kind != to->kind) return false;
    switch (from->kind) {
    case KJ_T_ARRAY:
        return from->elem == to->elem && from->ndim == to->ndim &&
               (to->layout == KJ_LAYOUT_A || from->layout == to->layout);
    case KJ_T_TUPLE: /* a namedtuple passes where a tuple is expected, not the other way */
        if (from->n != to->n || (to->ref && to->ref != from->ref)) return false;
        for (uint32_t i = 0; i < from->n; i++)
            if (!kj_can_convert(from->elems[i], to->elems[i])) return false;
        return true;
    case KJ_T_LIST: return !from->elem; /* `[]` into any list */
    case KJ_T_DICT: case KJ_T_SET: return !from->elem;
    default: return false;
    }
}

/* ---- names ------------------------------------------------------------------------- */

/* NumPy/Numba spellings of the scalar types. 'b' bool, 'i' signed, 'u'
 * unsigned, 'f' float. */
static const struct {
    const char *name;
    char kind;
    uint8_t bits;
} scalar_names[] = {
    {"bool", 'b', 8},     {"bool_", 'b', 8},     {"boolean", 'b', 8},   {"b1", 'b', 8},
    {"int8", 'i', 8},     {"int16", 'i', 16},    {"int32", 'i', 32},    {"int64", 'i', 64},
    {"uint8", 'u', 8},    {"uint16", 'u', 16},   {"uint32", 'u', 32},   {"uint64", 'u', 64},
    {"float32", 'f', 32}, {"float64", 'f', 64},  {"i1", 'i', 8},        {"i2", 'i', 16},
    {"i4", 'i', 32},      {"i8", 'i', 64},       {"u1", 'u', 8},        {"u2", 'u', 16},
    {"u4", 'u', 32},      {"u8", 'u', 64},       {"f4", 'f', 32},       {"f8", 'f', 64},
    {"float_", 'f', 64},  {"double", 'f', 64},   {"single", 'f', 32},   {"intp", 'i', 64},
    {"int_", 'i', 64},    {"uintp", 'u', 64},    {"intc", 'i', 32},     {"uintc", 'u', 32},
    {"short", 'i', 16},   {"ushort", 'u', 16},   {"longlong", 'i', 64}, {"ulonglong", 'u', 64},
    {"float16", 'f', 16}, {"f2", 'f', 16},       {"half", 'f', 16},
    {"complex64", 'c', 64}, {"complex128", 'c', 128}, {"c8", 'c', 64}, {"c16", 'c', 128},
    {"csingle", 'c', 64}, {"cdouble", 'c', 128}, {"complex_", 'c', 128},
};

const kj_type *kj_scalar_by_name(kj_types *t, const char *name)
{
    for (size_t i = 0; i < sizeof scalar_names / sizeof *scalar_names; i++) {
        if (strcmp(scalar_names[i].name, name)) continue;
        switch (scalar_names[i].kind) {
        case 'b': return kj_t_bool(t);
        case 'i': return kj_t_int(t, scalar_names[i].bits, true);
        case 'u': return kj_t_int(t, scalar_names[i].bits, false);
        case 'c': return kj_t_complex(t, scalar_names[i].bits);
        default: return kj_t_float(t, scalar_names[i].bits);
        }
    }
    return NULL;
}
