/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit types. Types are interned in a kj_types table: two types are equal
 * exactly when their pointers are equal. */
#ifndef KJ_TYPES_H
#define KJ_TYPES_H

#include "../util/diag.h"
#include "../util/arena.h"
#include "../util/buf.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef enum {
    KJ_T_NONE,   /* None, and the "returns nothing" type */
    KJ_T_BOOL,
    KJ_T_INT,    /* bits 8/16/32/64, is_signed; weak = a Python int literal (NEP 50) */
    KJ_T_FLOAT,  /* bits 32/64; weak = a Python float literal */
    KJ_T_ARRAY,  /* elem (scalar), ndim 1..4, layout */
    KJ_T_TUPLE,  /* elems[n] */
    KJ_T_RANGE,  /* elem = the integer type iterated */
    KJ_T_STR,    /* string literal (print, decorators) */
    KJ_T_DTYPE,  /* a dtype used as a value: np.float32 passed as dtype=; elem = the scalar */
    KJ_T_OPAQUE, /* runtime handles: "stream", "event", "slice" */
    KJ_T_FUNC,   /* a function used as a value (passed, stored, called): a compile-time constant, one
                    type per function (ref: its kj_fn, or builtin: a built-in's id), as Numba's
                    dispatcher types; a value of it holds nothing at run time */
    KJ_T_COMPLEX, /* bits 64 (complex64: two float32) / 128 (complex128: two float64) */
    KJ_T_LIST,   /* Numba's reflected list: elem (strong), or NULL for `[]` before an append says
                    what it holds; a pointer to the runtime's kj_list (src/runtime/list.c) */
    KJ_T_DICT,   /* numba.typed.Dict: key elem, value elems[0] (n 1); elem NULL (n 0) for `{}` before a
                    store says what it holds; a pointer to the runtime's kj_dict (src/runtime/dict.c) */
    KJ_T_SET,    /* a set of elem (NULL: `set()` before an add); a kj_dict with no values */
    KJ_T_GENERATOR, /* what calling a generator function gives: elem = the yield type; an LLVM
                       coroutine's handle (infer_pygen.c, llvm_pygen.c) */
    KJ_T_OPTIONAL, /* Numba's Optional(elem): None or a value of elem (a strong type, never none or
                      optional); a (valid bool, elem) pair (types_optional.c, infer_optional.c) */
    KJ_T_DATETIME,  /* np.datetime64 of `unit` (util/npdatetime.h): an int64, INT64_MIN is NaT */
    KJ_T_TIMEDELTA, /* np.timedelta64 of `unit` (infer_datetime.c, runtime/datetime.c) */
} kj_type_kind;

typedef enum { KJ_LAYOUT_A, KJ_LAYOUT_C, KJ_LAYOUT_F } kj_layout;

typedef struct kj_type kj_type;
struct kj_type {
    kj_type_kind kind;
    uint8_t bits;
    bool is_signed;
    bool weak;
    uint8_t ndim;
    kj_layout layout;
    const kj_type *elem;
    const kj_type **elems;
    uint32_t n;
    const char *name; /* printed form, computed once at interning */
    const void *ref;  /* FUNC: the user function (sema's kj_fn), or NULL for a built-in;
                         TUPLE: its kj_ntclass when it is a namedtuple, else NULL */
    int32_t builtin;  /* FUNC: the built-in's id when ref is NULL */
    uint8_t unit;     /* DATETIME, TIMEDELTA: NumPy's unit (KJ_DTU_*) */
    uint32_t id;      /* dense, for tables keyed by type */
};

typedef struct kj_types kj_types;

/* A class made by collections.namedtuple('Point', ['x', 'y']): its instances
 * are tuples (KJ_T_TUPLE) whose ref is the class (types_namedtuple.c). */
typedef struct kj_ntclass {
    const char *name;
    const char **fields;
    uint32_t n;
    bool strkey_dict; /* Numba's LiteralStrKeyDict: fields are its keys (infer_lsd.c) */
} kj_ntclass;

kj_types *kj_types_new(kj_arena *a);
kj_arena *kj_types_arena(kj_types *t); /* where its types live (for layouts they refer to) */

const kj_type *kj_t_none(kj_types *t);
const kj_type *kj_t_bool(kj_types *t);
const kj_type *kj_t_int(kj_types *t, int bits, bool is_signed);
const kj_type *kj_t_float(kj_types *t, int bits);
const kj_type *kj_t_complex(kj_types *t, int bits); /* 64 or 128 */
const kj_type *kj_t_weak_int(kj_types *t);   /* stored as int64 */
const kj_type *kj_t_weak_float(kj_types *t); /* stored as float64 */
const kj_type *kj_t_array(kj_types *t, const kj_type *elem, int ndim, kj_layout layout);
const kj_type *kj_t_tuple(kj_types *t, const kj_type *const *elems, uint32_t n);
/* An instance of the namedtuple class cls (cls->n elems); kj_t_tuple_like
 * is a tuple of the same class as `like` (a namedtuple or a plain tuple). */
const kj_type *kj_t_namedtuple(kj_types *t, const kj_ntclass *cls, const kj_type *const *elems);
const kj_type *kj_t_tuple_like(kj_types *t, const kj_type *like, const kj_type *const *elems, uint32_t n);
/* The class of a namedtuple type, NULL for anything else; a field's index, -1 if absent. */
const kj_ntclass *kj_nt_class(const kj_type *ty);
int kj_nt_field(const kj_ntclass *cls, const char *name);
const kj_type *kj_t_range(kj_types *t, const kj_type *elem);
const kj_type *kj_t_list(kj_types *t, const kj_type *elem); /* elem NULL: `[]`, not yet known */
const kj_type *kj_t_dict(kj_types *t, const kj_type *key, const kj_type *value); /* NULLs: `{}` */
const kj_type *kj_t_set(kj_types *t, const kj_type *elem); /* elem NULL: `set()` */
const kj_type *kj_t_generator(kj_types *t, const kj_type *yield_type);
/* types_optional.c: Optional(elem), named OptionalType(elem) as in Numba; NULL when elem cannot be
 * optional (a function, a dtype, a handle...). elem is made strong; Optional(Optional(T)) is Optional(T). */
const kj_type *kj_t_optional(kj_types *t, const kj_type *elem);
bool kj_optional_elem_ok(const kj_type *elem); /* what Optional may hold */
/* kj_unify where None may meet a value, as Numba's unification: none with T (or Optional(T)) is
 * Optional(T), Optional(T) with U is Optional(unify(T, U)); otherwise kj_unify. For the bindings of
 * one variable, a function's returns and a conditional expression's branches. */
const kj_type *kj_unify_opt(kj_types *t, const kj_type *a, const kj_type *b);
const kj_type *kj_t_str(kj_types *t);
const kj_type *kj_t_dtype(kj_types *t, const kj_type *scalar);
const kj_type *kj_t_opaque(kj_types *t, const char *name);
/* The exception an except clause binds in host code (`except E as e`):
 * opaque, its value the exception's str() (raise.c, lower_try.c). */
static inline bool kj_t_is_exception(const kj_type *t)
{
    return t && t->kind == KJ_T_OPAQUE && !strcmp(t->name, "exception");
}
/* An exception caught in host code, its .args or its type(): one value, the
 * exception object (abi/exc_obj.h), typed three ways (builtins_exc.c) */
static inline bool kj_t_is_excobj(const kj_type *t)
{
    return t && t->kind == KJ_T_OPAQUE && !strncmp(t->name, "exception", 9);
}
/* numba.cuda.random's states: stored as a C-ordered (n, 2) uint64 array (s0,
 * s1 of each generator), where Numba has a 1-d array of xoroshiro128p_dtype
 * records: its shape, size, ndim and len() are the records' (n,), as Numba's
 * (kj_type_rank); its name is Numba's. */
const kj_type *kj_t_xoro_states(kj_types *t);
bool kj_is_xoro_states(const kj_type *ty);
/* Numba's Buffer types (pysupported.rst "bytes, bytearray, memoryview"): arrays
 * whose ref marks the kind; bytes and bytearray are 1-d C uint8, a memoryview
 * has the element, dimensions and layout of what it views (readonly over bytes). */
typedef enum { KJ_BUF_NOT, KJ_BUF_BYTES, KJ_BUF_BYTEARRAY, KJ_BUF_MEMVIEW, KJ_BUF_MEMVIEW_RO } kj_buf_kind;
const kj_type *kj_t_buffer(kj_types *t, kj_buf_kind k, const kj_type *elem, int ndim, kj_layout layout);
kj_buf_kind kj_buffer_kind(const kj_type *ty);
/* The dimensions an array shows (shape, ndim, size): its ndim, 1 for xoroshiro states. */
static inline int kj_type_rank(const kj_type *ty) { return kj_is_xoro_states(ty) ? 1 : ty->ndim; }
/* A NumPy structured dtype (numpysupported.rst "structured scalars"), as Numba's Record: fields
 * in order with NumPy's byte offsets, itemsize, align=. A record value is a pointer to its bytes
 * (in an array: Numba's records are references); its type is opaque, named as Numba names it,
 * whose ref is the layout (infer_record.c). */
typedef struct kj_recdesc {
    uint32_t n;
    const char **names;
    const struct kj_type **types; /* scalar types */
    uint32_t *offsets;
    uint32_t size;
    bool aligned;
} kj_recdesc;
const kj_type *kj_t_record(kj_types *t, const kj_recdesc *d);
static inline const kj_recdesc *kj_record_of(const kj_type *ty)
{
    return ty && ty->kind == KJ_T_OPAQUE ? (const kj_recdesc *)ty->ref : NULL;
}
/* datetime64[unit] and timedelta64[unit] (Numba's NPDatetime, NPTimedelta): infer_datetime.c. */
const kj_type *kj_t_datetime(kj_types *t, int unit, bool is_timedelta);
static inline bool kj_is_dt(const kj_type *ty)
{
    return ty && (ty->kind == KJ_T_DATETIME || ty->kind == KJ_T_TIMEDELTA);
}
/* function(NAME): fn (a kj_fn) or, when fn is NULL, the built-in `builtin`. */
const kj_type *kj_t_func(kj_types *t, const void *fn, int32_t builtin, const char *name);

/* The strong type a weak literal type is stored as (int64/float64); other
 * types are returned unchanged. Tuples are strengthened element-wise. */
const kj_type *kj_strong(kj_types *t, const kj_type *ty);

bool kj_is_scalar(const kj_type *ty); /* bool, int, float, complex */
bool kj_is_complex(const kj_type *ty);
/* The float type of a complex type's parts (float32 / float64). */
const kj_type *kj_complex_part(kj_types *t, const kj_type *c);
bool kj_is_numeric(const kj_type *ty); /* int, float (bool excluded) */
bool kj_is_int(const kj_type *ty);
bool kj_is_float(const kj_type *ty);

/* NumPy promotion for a binary arithmetic operation under NEP 50: a weak
 * operand takes the other operand's kind where it fits (weak int with
 * float32 → float32; weak float with int32 → float64); two strong operands
 * follow NumPy's table (int32+int64 → int64, int64+float32 → float64,
 * int64+uint64 → float64, bool+bool → bool). Scalars only; NULL otherwise. */
const kj_type *kj_promote(kj_types *t, const kj_type *a, const kj_type *b);

/* The type a variable has when assigned values of types a and b on
 * different paths (or iterations). Scalars promote as above with weak
 * literals absorbed by strong types; identical types unify to themselves;
 * otherwise NULL (a type error). */
const kj_type *kj_unify(kj_types *t, const kj_type *a, const kj_type *b);

/* Can a value of type `from` be passed where `to` is expected without an
 * explicit conversion (weak literal to any numeric, same type, array with C
 * layout to A layout, int to wider int/float under NumPy "same_kind")? */
bool kj_can_convert(const kj_type *from, const kj_type *to);

/* A scalar type by Numba/NumPy name: "float32", "int64", "uint8", "bool_",
 * "boolean", "float_", "double", "intp", "int_"... NULL if unknown. */
const kj_type *kj_scalar_by_name(kj_types *t, const char *name);

/* A parsed signature: 'float32(float32, int64[:])', 'void(float32[:, ::1])'.
 * For a @guvectorize layout string see kj_parse_layout. */
typedef struct kj_sig {
    const kj_type *ret; /* KJ_T_NONE for void; NULL when the signature had no return type */
    const kj_type **params;
    uint32_t nparams;
} kj_sig;

/* Parse a signature string. `sp` locates the string literal in the source;
 * errors point into it (the column of the offending character). Returns
 * false after reporting an error. */
bool kj_parse_sig(kj_types *t, kj_arena *a, const char *s, uint32_t len, const kj_source *src,
                  kj_span sp, kj_diags *d, kj_sig *out);

/* A gufunc layout '(n),(n)->(n)' / '(m,n),()->(m)'. */
typedef struct kj_gu_layout {
    uint32_t nin, nout;
    struct { const char **dims; uint32_t ndims; } *args; /* nin + nout entries */
} kj_gu_layout;
bool kj_parse_layout(kj_arena *a, const char *s, uint32_t len, const kj_source *src, kj_span sp,
                     kj_diags *d, kj_gu_layout *out);

/* The printed name: float32, int64, bool, none, int (weak literal), float
 * (weak literal), array(float32, 2d, C), (int64, float32), range(int64),
 * str, dtype(float32), stream. */
static inline const char *kj_type_str(const kj_type *ty) { return ty ? ty->name : "?"; }

#endif
