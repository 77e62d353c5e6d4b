/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal state shared by the three sema stages (resolve.c, infer*.c,
 * lower*.c). Nothing here is visible outside src/ir/. */
#ifndef KJ_SEMA_INT_H
#define KJ_SEMA_INT_H

#include "../util/strtab.h"
#include "builtins.h"
#include "sema.h"

#include <string.h>

/* ---- module-level symbols ---- */

typedef enum {
    FK_MAIN,       /* undecorated `main` */
    FK_HELPER,     /* undecorated host helper */
    FK_JIT,        /* @jit / @njit */
    FK_KERNEL,     /* @cuda.jit */
    FK_DEVICE,     /* @cuda.jit(device=True) */
    FK_VECTORIZE,  /* @vectorize */
    FK_GUVECTORIZE, /* @guvectorize */
    FK_REDUCE      /* @cuda.reduce / cuda.Reduce(f): the binary function of a reduction */
} kj_fkind;

typedef struct kj_spec kj_spec;
typedef struct kj_fn kj_fn;

/* A decorator with its arguments, however it was written: `@cuda.jit(sig,
 * fastmath=True)`, `cuda.jit(sig)(f)`, `dec = cuda.jit(sig)` then `dec(f)`,
 * `njit(f, cache=True)` (the function's own argument left out). */
typedef struct kj_decor {
    const char *path;         /* "cuda.jit", "numba.jit", "numba.vectorize", ... */
    kj_expr *const *args;     /* positional arguments (signatures, layout) */
    uint32_t nargs;
    const kj_keyword *kw;     /* options */
    uint32_t nkw;
    bool called;              /* written with arguments: @vectorize([...]) */
    kj_span span;             /* the decorator expression, for messages */
} kj_decor;

/* A decorator applied inside an expression of a host function:
 * cuda.jit(f)[1, 32](a) — the compiled function (or configured decorator)
 * made for that call expression. */
typedef struct kj_inline_decor {
    const kj_expr *at;
    struct kj_fn *fn;
    const kj_decor *decor;
} kj_inline_decor;

/* A name an undecorated host function binds to a compile-time object:
 * `k = cuda.jit(f)` (fn) or `dec = cuda.jit(sig)` (decor). Such a name is
 * not a variable: it stands for the object wherever the function uses it. */
typedef struct kj_static_local {
    const char *name;
    const kj_stmt *st; /* the one assignment binding it */
    struct kj_fn *fn;  /* a compiled function, or NULL */
    const kj_decor *decor; /* a configured decorator, or NULL */
    const kj_expr *expr;   /* a signature or string assigned once (sig = 'void(f8[:])'), or NULL */
} kj_static_local;

/* A function's variable table (versions.c) for the specialisations whose
 * None-typed parameters are the bits of none_mask (pruned ifs differ). */
typedef struct kj_vtab {
    uint64_t none_mask;
    const char *const *vnames; /* by expression id: the variable a NAME of a local denotes;
                                  NULL when every local is one variable */
} kj_vtab;

typedef struct kj_fn {
    const kj_funcdef *def;
    kj_fkind kind;
    const char *decorator; /* "cuda.jit", "vectorize", ... for messages */
    bool fastmath, boundscheck;
    bool lineinfo;      /* lineinfo=True or debug=True (GPU line tables) */
    bool numpy_errors;  /* error_model='numpy' */
    kj_run_target target; /* target= option (or parallel=True); DEFAULT: none */
    kj_sig *sigs;       /* explicit signatures (eager compilation) */
    uint32_t nsigs;
    kj_span *sig_spans;
    kj_gu_layout layout; /* FK_GUVECTORIZE */
    kir_identity identity; /* FK_VECTORIZE: identity= */
    kj_span identity_span; /* its value, for the check against the reduction's type */
    const char *layout_str;
    KJ_VEC(kj_spec *) specs;
    bool bad; /* its decorator was invalid: do not specialise */
    struct kj_fn *py_func;           /* NAME.py_func: the undecorated body, made when first used */
    KJ_VEC(kj_inline_decor) inline_decors; /* host functions: cuda.jit(f)[...](...) by call expression */
    KJ_VEC(kj_static_local) statics; /* host functions: names bound to compiled functions */
    kj_strtab static_tab;            /* statics by name → index */
    KJ_VEC(struct kj_vtab) vtabs;    /* its variable tables (versions.c), by which parameters are None */
} kj_fn;

/* ---- dispatch over explicit signatures (dispatch.c) ---- */

/* Numba's kinds of conversion of an argument to a parameter, best first. */
typedef enum { KJ_CONV_EXACT, KJ_CONV_PROMOTE, KJ_CONV_SAFE, KJ_CONV_UNSAFE, KJ_CONV_NONE } kj_conv;
kj_conv kj_numba_conv(const kj_type *from, const kj_type *to);

/* The signature Numba's dispatcher picks for `args` (weak literals typed as
 * Python's values): sig NULL when none accepts them; tie set when another
 * signature converts them equally well (an ambiguity). */
typedef struct kj_dispatch {
    const kj_sig *sig, *tie;
} kj_dispatch;
kj_dispatch kj_dispatch_sig(kj_types *t, const kj_fn *fn, const kj_type *const *args, uint32_t n);
/* Numba's TypeError for a failed kj_dispatch_sig, naming the candidates. */
void kj_dispatch_error(kj_diags *d, const kj_source *src, kj_span sp, kj_types *t, const kj_fn *fn,
                       const kj_type *const *args, uint32_t n, kj_dispatch r);

/* A compile-time constant value (module constants, literals, folded exprs). */
typedef struct kj_cval {
    const kj_type *type; /* weak int/float, bool, str, or a tuple of constants */
    int64_t i;
    double f;
    const char *s;
    struct kj_cval *elems;
    uint32_t n;
} kj_cval;

typedef enum {
    SYM_MODULE,  /* path = "np", "math", "cuda", "time", "numba" */
    SYM_BUILTIN, /* builtin id */
    SYM_DTYPE,   /* a scalar type used as converter / dtype */
    SYM_CONST,   /* module constant */
    SYM_FUNC,    /* user function */
    SYM_DECOR,   /* a decorator object: path "numba.jit", "cuda.jit", ...; decor when configured */
    SYM_TYPEOBJ, /* a Numba type or signature object (float32[:], void(int32)): expr */
    SYM_NTCLASS, /* a namedtuple class: ntc (resolve_namedtuple.c) */
} kj_symkind;

typedef struct kj_sym {
    const char *name;
    kj_symkind kind;
    kj_span span;
    const char *path;  /* MODULE, DECOR */
    int builtin;       /* BUILTIN */
    const kj_type *type; /* DTYPE */
    kj_cval cval;      /* CONST */
    kj_fn *fn;         /* FUNC */
    const kj_decor *decor; /* DECOR: a configured decorator (dec = cuda.jit(sig)), or NULL */
    const kj_expr *expr;   /* CONST, TYPEOBJ: the module-level value expression */
    const kj_ntclass *ntc; /* NTCLASS */
} kj_sym;

/* ---- per-specialisation state ---- */

typedef enum {
    EI_NONE,    /* not a value (error already reported or not yet typed) */
    EI_VALUE,   /* a run-time value of `type` */
    EI_MODULE,  /* a module or namespace: path */
    EI_BUILTIN, /* a builtin function or attribute: builtin */
    EI_METHOD,  /* a bound method of a value: builtin, receiver = attr obj */
    EI_DTYPE,   /* a scalar type name: dtype */
    EI_FUNC,    /* a user function: fn */
    EI_LAUNCH,  /* kernel[config] or kernel.forall(n): fn (forall set for the latter) */
    EI_FORALL,  /* kernel.forall, the method itself: fn */
    EI_UREDUCE, /* f.reduce of a @vectorize function f: fn */
    EI_UMETH,   /* f.accumulate / f.outer / f.at of a @vectorize f: fn, builtin = kj_umeth */
    EI_DECOR,   /* a decorator object (not callable in code): path, decor */
    EI_TYPEOBJ, /* a Numba array type or signature object (float32[:]): compile-time only */
    EI_DTYPE_FN, /* np.dtype, which makes a dtype from a name or a dtype */
    EI_NTCLASS, /* a namedtuple class (Point = namedtuple(...)): ntc */
} kj_eikind;

typedef struct kj_einfo {
    uint8_t kind; /* kj_eikind */
    bool is_const;
    bool nonneg; /* an integer value known to be >= 0 (indices need no wrap) */
    bool forall; /* EI_LAUNCH made by kernel.forall(ntasks, ...) */
    const kj_type *type;   /* EI_VALUE: the value's type (may be weak) */
    const kj_type *opt_type; /* EI_VALUE of an Optional(T) (infer_optional.c): that type; `type` is then
                                T, what a use of the value sees (lowering checks it is not None) */
    const kj_type *optype; /* BINOP/COMPARE/AUGASSIGN: the operation's type */
    const kj_type *restype; /* AUGASSIGN of an array (on its value): the operation's element type */
    kj_cval cval;          /* is_const */
    const char *path;
    int builtin;
    const kj_type *dtype;
    kj_fn *fn;
    const kj_decor *decor; /* EI_DECOR: a configured decorator, or NULL */
    const kj_ntclass *ntc; /* EI_NTCLASS */
    const struct kir_frozen *frozen; /* EI_VALUE: a frozen module-level array (resolve_frozen.c) */
    kj_spec *callee;       /* CALL of a user function / launch / ufunc: the spec */
    int32_t axis;          /* f.reduce(a, axis=) call: the axis, -1 for None */
    int npufunc;           /* EI_UMETH (attribute and call) of NumPy's ufunc: its kj_builtin; dtype its loop type */
    const kj_type **conv;  /* builtin call: per bound argument conversion */
    kj_barg *bound;        /* builtin call: bound arguments */
    int32_t *argmap;
    int nbound;
    const struct kj_ufout *ufout; /* builtin call of a NumPy ufunc with its output (infer_ufunc_out.c) */
} kj_einfo;

typedef struct kj_var {
    const char *name;
    const kj_type *type; /* unified over all assignments; NULL until one is typed */
    bool is_param;
    bool nonneg;         /* every assignment is a non-negative integer */
    bool assigned;       /* assigned somewhere in the body */
    kj_span first;       /* first assignment, for messages */
} kj_var;

typedef enum { SPEC_NEW, SPEC_INFERRING, SPEC_DONE, SPEC_FAILED } kj_spec_state;

struct kj_spec {
    kj_fn *fn;
    const kj_type **args;
    uint32_t nargs;
    bool device;         /* compiled for the device context (kernel side) */
    const kj_type *ret;  /* unified return type, NULL until a return is typed */
    bool ret_changed;
    kj_spec_state state;
    kj_einfo *ei;        /* [fn->def->nexprs] */
    KJ_VEC(kj_var) vars;
    kj_strtab vartab;    /* vars by name → index, filled as they are collected */
    const char *mangled;
    const char *const *vnames; /* its variable table (versions.c; kj_local_name) */
    kir_func *kir;
    kj_span called_at;   /* first call site, for messages */
    const kj_sig *sig;   /* the explicit signature it implements, if any */
    bool reachable;      /* reached from a root by a reporting walk */
    bool reported;       /* its reporting walk has run */
    struct kj_ulog *ulog; /* lazy ufunc loops its last walk compiled (infer_ufunc_dyn.c) */
    bool generator;      /* its body yields: ret is generator(yield type) (infer_pygen.c) */
};

/* ---- the whole analysis ---- */

struct kj_sema {
    const kj_module *mod;
    const kj_source *src;
    kj_types *types;
    kj_arena *a;
    kj_diags *d;
    const kj_sema_options *opt;
    KJ_VEC(kj_sym) syms;
    uint32_t *symtab;        /* open-addressing hash: name → syms index + 1 (0 = empty) */
    uint32_t symcap;         /* a power of two, kept under half full */
    KJ_VEC(kj_fn *) fns;
    KJ_VEC(kj_spec *) specs; /* creation order = printing order */
    kj_einfo *mod_ei;        /* [mod->nexprs]: top-level expressions */
    kj_fn *main;
    uint32_t depth;          /* nested specialisation depth (runaway recursion guard) */
    kir_module *kir;         /* the lowered module, once kj_sema_run succeeded */
    kj_fn *script;           /* a file without main: <module>, its module-level statements (resolve_script.c) */
    const struct kj_fn *host; /* while resolving decorators in a host function's body: that function,
                                 whose signature locals (sig = '...') signatures may name */
    bool module_scope;       /* resolving a script's module-level statement (resolve_shape.c) */
    KJ_VEC(struct kir_frozen *) modslots; /* a script's module slots functions read (resolve_modslot.c) */
    KJ_VEC(const kj_ntclass *) lsd_classes; /* literal-key dicts' classes, one per key list (infer_lsd.c) */
};

/* resolve.c */
uint32_t kj_name_hash(const char *name);
/* How many times the block assigns `name` (targets of =, op=, for). */
uint32_t kj_count_assigns(const kj_block *b, const char *name);
/* `if __name__ == "__main__":` with no else */
bool kj_is_main_guard(const kj_stmt *st);

/* resolve_script.c: a file without main runs its module-level statements as
 * the body of the host function KJ_SCRIPT_NAME. */
#define KJ_SCRIPT_NAME "<module>"
typedef struct kj_script {
    KJ_VEC(kj_stmt *) body;
} kj_script;
bool kj_script_begin(kj_sema *s, kj_script *sc); /* true: the file has no main */
/* every name the assignment binds is bound nowhere else at module level */
bool kj_script_binds_once(const kj_sema *s, const kj_stmt *st);
void kj_script_add(kj_sema *s, kj_script *sc, const kj_stmt *st);
kj_fn *kj_script_end(kj_sema *s, kj_script *sc);
/* resolve_shape.c: len(a), a.shape, a.size, a.ndim of a script variable bound
 * once to an array of constant shape (a = np.arange(1024)), as a module
 * constant; only while s->module_scope. */
bool kj_script_len(kj_sema *s, const kj_expr *e, kj_cval *out);
bool kj_script_shape_attr(kj_sema *s, const kj_expr *e, kj_cval *out);
/* `e` (a NAME that `reader` does not bind) is a variable of <module>: reports
 * that compiled functions cannot read it, and returns true. */
/* resolve_shape.c: the one module-level `name = value` of a script, or NULL */
const kj_expr *kj_script_binding(kj_sema *s, const char *name);
/* resolve_frozen.c: a script's module-level array read by another function,
 * frozen at compile time as Numba freezes globals (ei: its read-only value) */
bool kj_frozen_module_value(kj_sema *s, const char *name, const kj_expr *v); /* in a file with main */
bool kj_frozen_is_host_global(const kj_sema *s, const char *name); /* given by kjit_compile_globals */
bool kj_frozen_ref(kj_sema *s, const kj_fn *reader, const kj_expr *e, kj_einfo *ei);
bool kj_frozen_write_error(kj_sema *s, kj_diags *d, const kj_fn *writer, const kj_einfo *arr,
                           const kj_expr *target);
bool kj_script_var_error(kj_sema *s, kj_diags *d, const kj_fn *reader, const kj_expr *e);
/* resolve_modslot.c: a script's module-level value computed when it runs, read from its slot */
bool kj_modslot_ref(kj_sema *s, const kj_fn *reader, const kj_expr *e, kj_einfo *ei);
/* infer_hostglobal.c: `global NAME` rebinding a script's module variable in a host function */
bool kj_host_global(const kj_sema *s, const kj_fn *fn, const char *name); /* fn declares and assigns it */
const kj_funcdef *kj_host_rebinder(const kj_sema *s, const char *name); /* a script function that does */
/* kir_readonly.c: compiled code writing a module-level array (Numba's read-only globals): false after reporting */
bool kj_check_readonly(kj_sema *s, kj_diags *d);
bool kj_resolve(kj_sema *s);
kj_sym *kj_sym_find(kj_sema *s, const char *name);
/* Evaluate a constant expression over literals and module constants. Returns
 * false (without reporting) when `e` is not constant. */
bool kj_const_eval(kj_sema *s, const kj_expr *e, kj_cval *out);
const char *kj_module_attr_hint(kj_sema *s, const char *path, const char *name);
bool kj_path_is_namespace(const char *path);
/* Resolve a NAME/ATTR chain denoting something at module level. Returns
 * false when `e` is not such a chain (e.g. a local variable). */
bool kj_static_ref(kj_sema *s, const kj_expr *e, kj_einfo *out, bool report);
/* The compile-time object a host function's local name is bound to
 * (`k = cuda.jit(f)`), or NULL when the name is not such a binding. */
const kj_static_local *kj_static_local_find(const kj_fn *fn, const char *name);
/* A decorator applied or configured inside an expression of host function
 * `host` (cuda.jit(f)[1, 32](a), njit(sig)(f)(x)): fills `out` with the
 * compiled function (EI_FUNC) or the configured decorator (EI_DECOR), made
 * once per expression. False when `e` is neither (nothing reported). */
bool kj_inline_decorator(kj_sema *s, kj_fn *host, const kj_expr *e, kj_einfo *out);
/* cuda_compile.c: @cuda.require_context on a host function (it stays one). */
void kj_resolve_require_context(kj_sema *s, kj_fn *fn, const kj_decor *dec);
/* resolve.c: arg's function under decorator d, a new function named `name` (NULL after reporting). */
kj_fn *kj_apply_decorator(kj_sema *s, const kj_fn *host, const char *name, kj_span name_span, const kj_decor *d,
                          const kj_expr *arg);
/* fn.py_func: fn's body as an undecorated host helper (fn itself when it is
 * one), made once. */
kj_fn *kj_py_func(kj_sema *s, kj_fn *fn);
/* Is `st` the assignment binding such a name (nothing to run)? */
bool kj_is_static_assign(const kj_fn *fn, const kj_stmt *st);

/* resolve_sig.c: signatures given as Numba type objects or strings */
/* Is `e` (quietly) a Numba type object or signature expression: float32[:],
 * void(int32[:]), types.int64, a list or tuple of them? */
bool kj_is_typeobj_expr(kj_sema *s, const kj_expr *e);
/* The signatures `e` gives (a string, a type-object signature, a tuple of
 * argument types, a list of any of them, or a module-level name holding
 * one). Reports errors and returns false after one; fills *sigs, *spans. */
bool kj_eval_sigs(kj_sema *s, const kj_expr *e, kj_sig **sigs, kj_span **spans, uint32_t *n);
/* numba.types' container and string type objects (types.unicode_type, types.UniTuple, ...): the
 * canonical path, or NULL. */
const char *kj_is_typeobj_path(const char *path);
/* A type object's type (float64, float64[:], types.unicode_type, types.UniTuple(int64, 2)); NULL
 * (after reporting when `report`) when `e` is none. */
const kj_type *kj_eval_type(kj_sema *s, const kj_expr *e, bool report);
/* Report what is wrong with a module-level type object (kj_is_typeobj_expr). */
void kj_check_typeobj(kj_sema *s, const kj_expr *e);

/* versions.c: one variable per live range of a local name. The table by
 * expression id (NULL entries: not a local), or NULL when no name splits. */
const char *const *kj_versions(kj_arena *out, const kj_fn *fn, const kj_type *const *args, uint32_t nargs);

/* The variable name a NAME expression of sp's body denotes: NAME, or
 * NAME.1, ... for a later binding whose live range meets no earlier one. */
static inline const char *kj_local_name(const kj_spec *sp, const kj_expr *e)
{
    return sp->vnames && sp->vnames[e->id] ? sp->vnames[e->id] : e->name;
}

/* infer.c */
/* Report walks over every reachable specialisation not yet reported. */
void kj_report_reachable(kj_sema *s);
kj_spec *kj_spec_get(kj_sema *s, kj_fn *fn, const kj_type *const *args, uint32_t nargs,
                     bool device, kj_span at);
bool kj_infer_spec(kj_sema *s, kj_spec *sp);
bool kj_infer_all(kj_sema *s);

/* unreached.c: unknown names in functions no root reaches */
void kj_check_unreached(kj_sema *s);

/* raise.c: the built-in exception classes (abi/exc.h) a program may name:
 * a class's kind, -1 for none; whether kind is base or derives from it */
int kj_exc_class(const char *name);
bool kj_exc_is_subclass(int kind, int base);
/* `raise exc`: the kind and message (NULL: none) it raises; errors go to d
 * (NULL: none); false after one */
bool kj_raise_eval(kj_sema *s, kj_diags *d, kj_spec *sp, const kj_expr *exc, int *kind, const char **msg);
/* Host code may raise with a message computed at run time, as CPython does:
 * `raise CLASS(x)` with one argument that is not a constant. That argument
 * (a string or a number, whose str() is the message), else NULL. */
const kj_expr *kj_raise_dynamic(kj_sema *s, const kj_spec *sp, const kj_expr *exc);

/* lower.c */
bool kj_lower_all(kj_sema *s, kir_module *m);

/* ---- inference context (infer.c, infer_expr.c, infer_call.c) ---- */

typedef struct kj_ictx {
    kj_sema *s;
    kj_spec *sp;
    kj_diags *d;   /* s->d in the reporting walk, a scratch list in the quiet walks */
    bool report;   /* the final walk: errors are real, callees are marked reachable */
    bool changed;  /* a variable or return type widened during this walk */
    uint32_t loops; /* loop nesting, for break/continue */
    uint32_t try_loops; /* the loop nesting at the innermost enclosing try statement */
    bool try_finally;   /* inside a try statement with a finally clause */
    const struct kj_exc_scope *exc; /* the except clauses around, innermost first (raise.c) */
    uint32_t handlers;  /* except clauses around the statement (a bare raise re-raises: infer_exc.c) */
} kj_ictx;

/* An except clause that binds `as name` in host code, while its body is
 * typed: the name is the exception there only (Python deletes it after). */
typedef struct kj_exc_scope {
    const char *name;
    const struct kj_exc_scope *up;
} kj_exc_scope;

kj_einfo *kj_type_expr(kj_ictx *ic, const kj_expr *e);
/* infer_global.c: `global` in a function body: compiled functions only read */
void kj_check_global(kj_ictx *ic, const kj_stmt *st);
/* A shape argument `e` of cuda.shared/local.array that names a local bound
 * once to an int constant: marks that use constant (infer_local_const.c). */
bool kj_local_const_shape(kj_ictx *ic, const kj_expr *e, struct kj_barg *arg);
/* A local bound once to a constant string (through constant subscripts of a local tuple): *out. */
bool kj_local_const_str(kj_ictx *ic, const kj_expr *e, const char **out);
/* raise.c: try statements: report what is refused (in kernels, device functions and
 * ufuncs; an except clause's classes); kj_check_try is true when st has a
 * finally clause */
bool kj_check_try(kj_ictx *ic, const kj_stmt *st);
void kj_check_except(kj_ictx *ic, const kj_stmt *st);
/* An unknown NAME that an `except ... as NAME` of the function names:
 * reported (the exception object is not a value), true */
bool kj_except_name_error(kj_ictx *ic, const kj_expr *e);
/* Host code: main and undecorated helpers, which CPython runs when the
 * program runs under Numba, so Python's semantics apply where Numba's @jit
 * refuses (`except ... as NAME`, run-time exception messages, reversed()). */
bool kj_host_code(const kj_spec *sp);
/* A use of NAME, a local holding an exception, outside the except clauses
 * that bind it: reported, true */
bool kj_exc_scope_error(kj_ictx *ic, const kj_expr *e);
/* infer_exc.c: exception objects in host code (`except ... as e`): a raise
 * statement's other forms (bare, `raise e`, `from`), type(e) and `type(e)
 * is C`, isinstance(e, C); each true when it typed e (into ei) */
bool kj_check_raise_obj(kj_ictx *ic, const kj_stmt *st);
bool kj_exc_type_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
bool kj_exc_compare(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
bool kj_exc_isinstance(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);


/* The expression's slot in the specialisation's table, cleared for a new
 * typing; and setting it to a value of type t (NULL: no value, after an
 * error or while the fixpoint has not reached it). */
static inline kj_einfo *ei_reset(kj_ictx *ic, const kj_expr *e)
{
    kj_einfo *ei = &ic->sp->ei[e->id];
    memset(ei, 0, sizeof *ei);
    return ei;
}

static inline kj_einfo *ei_value(kj_einfo *ei, const kj_type *t)
{
    ei->kind = t ? EI_VALUE : EI_NONE;
    ei->type = t;
    return ei;
}
/* The type of a function used as a value (a @jit or device function, a
 * built-in function): function(NAME); NULL for anything else. */
const kj_type *kj_func_value_type(kj_ictx *ic, const kj_einfo *ei);
/* infer_operator.c: operator.iadd(a, b) and the other in-place forms on an
 * array or a list (true, the result or NULL after an error in *out); false
 * for the plain operator's typing. */
/* infer_tuple.c: t1 < t2 (and ==, ...), t1 + t2, t[a:b] with constant
 * bounds (kj_tuple_slice_bounds: slice.indices(n) of them), t.index(x) */
const kj_type *kj_tuple_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l,
                                     const kj_type *r);
const kj_type *kj_tuple_concat_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp);
bool kj_tuple_slice_bounds(const kj_einfo *ei, const kj_expr *sl, uint32_t n, int64_t *start, int64_t *step,
                           uint32_t *count);
kj_einfo *kj_tuple_slice_type(kj_ictx *ic, const kj_expr *e, const kj_type *tt, kj_einfo *ei);
/* pyops_dict.c: del d[k]; are lists of a and b compared as promoted numbers? */
kj_einfo *kj_type_dict_del(kj_ictx *ic, const kj_expr *e, const kj_type *dt, kj_einfo *ei);
bool kj_list_mixed_numbers(const kj_type *a, const kj_type *b);
bool kj_infer_pyop_inplace(kj_ictx *ic, kj_einfo *ei, int b, kj_binop op, const kj_type *x, const kj_type *y,
                           kj_span sp, const kj_type **out);
/* infer_objmode.c: is st `with objmode(...)` (checked) */
bool kj_objmode_with(kj_ictx *ic, const kj_stmt *st);
/* infer_optional.c: Numba's Optional (types_optional.c). kj_type_expr's last step: an Optional
 * value reads as its type T everywhere but where kj_ei_raw asks for the Optional itself (an
 * assignment to a name, a return, a tuple display, print, a call of a user function); `x is None`
 * and its relatives of an Optional x (true when e is one, typed); an Optional in a condition (true
 * after reporting it: Numba has no truth value for it). */
kj_einfo *kj_opt_unwrap(kj_einfo *ei);
static inline const kj_type *kj_ei_raw(const kj_einfo *ei) { return ei->opt_type ? ei->opt_type : ei->type; }
const kj_type *kj_value_type_raw(kj_ictx *ic, const kj_expr *e);
bool kj_opt_compare(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
int kj_opt_compare_side(const kj_spec *sp, const kj_expr *e); /* the Optional operand's index, or -1 */
bool kj_opt_cond_error(kj_ictx *ic, const kj_expr *e);
/* infer_pygen.c: generators. Does the block (not a nested def) yield; a
 * yield statement; a generator's return; the reporting walk's checks. */
bool kj_block_yields(const kj_block *b);
void kj_infer_yield(kj_ictx *ic, const kj_stmt *st);
void kj_infer_generator_return(kj_ictx *ic, const kj_stmt *st);
void kj_check_generator(kj_ictx *ic);
/* Type `e` and require a run-time value; NULL after an error. */
const kj_type *kj_value_type(kj_ictx *ic, const kj_expr *e);
/* infer_npshape.c: a.flat[i]; `x in a` (a bool, NULL after an error). */
kj_einfo *kj_type_flat_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *ft, kj_einfo *ei);
const kj_type *kj_array_in_type(kj_ictx *ic, const kj_expr *e, const kj_type *x, const kj_type *a);
/* infer_pybuiltin.c: hasattr(x, 'name') and type(x), decided statically */
bool kj_is_static_builtin_call(const kj_expr *e);
kj_einfo *kj_type_static_builtin(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
bool kj_type_is_compare(kj_ictx *ic, const kj_expr *e, kj_einfo *ei); /* type(x) is C */
/* infer_iter.c: a for loop over an array, a range value, enumerate() or
 * zip() (or an error for a scalar): true, with the type of one step at
 * *elem (NULL after an error); false for what infer.c types itself
 * (range() calls, tuples). */
bool kj_infer_for_iter(kj_ictx *ic, const kj_expr *it, const kj_type **elem);
/* infer_list.c: a list display [a, b, ...] (Numba's reflected list of the
 * elements' unified type; `[]` of a type an append settles), lst[i], and
 * the refinement of an empty list's variable by lst.append(x). */
kj_einfo *kj_type_list_literal(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
kj_einfo *kj_type_list_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *lt, kj_einfo *ei);
kj_einfo *kj_type_list_del(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
const kj_type *kj_list_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l, const kj_type *r,
                                    const kj_type **optype);
void kj_list_setslice_check(kj_ictx *ic, const kj_expr *target, const kj_type *lt, const kj_type *t);
void kj_list_append_refine(kj_ictx *ic, const kj_expr *call);
bool kj_list_elem_ok(const kj_type *t); /* what a list may hold */
/* infer_sortkey.c: sorted(x, key=f), lst.sort(key=f): is kw the key of built-in b; the key argument (a
 * function value); after builtins.c typed the call (t), the key's call on an element (NULL: an error). */
bool kj_sort_key_kw(int b, const char *kw);
bool kj_type_sort_key_arg(kj_ictx *ic, const kj_expr *e, kj_barg *out);
const kj_type *kj_type_sort_key_call(kj_ictx *ic, const kj_expr *e, int b, const kj_type *t, kj_barg *bound,
                                     const int32_t *map, int nb);
/* infer_typed.c: numba.typed.List(...), List.empty_list(t), Dict(), Dict.empty(k, v). */
kj_einfo *kj_type_typed_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, int b);
/* cuda_compile.c: cuda.compile_ptx(f, sig, ...) and its relatives in host code. */
kj_einfo *kj_type_cuda_compile(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, int b);
kj_einfo *kj_type_kernel_overload(kj_ictx *ic, const kj_expr *e, kj_fn *fn, kj_einfo *ei);
/* infer_dict.c: dict and set displays, d[k], d[k] = v (an empty dict's
 * variable refined by its first store), s.add(x) refining set(); a dict or
 * set in a kernel (true after reporting it). */
kj_einfo *kj_type_dict_literal(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
kj_einfo *kj_type_dict_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *dt, kj_einfo *ei);
void kj_dict_store(kj_ictx *ic, const kj_expr *target, const kj_type *vt);
void kj_set_add_refine(kj_ictx *ic, const kj_expr *call);
bool kj_dict_in_kernel(kj_ictx *ic, kj_span sp, const char *what);
bool kj_dict_key_ok(const kj_type *t);   /* what a dict may take as keys */
bool kj_dict_value_ok(const kj_type *t); /* and as values */
/* lst + lst (a new list of both), lst * n and n * lst (repeated): the list type. */
const kj_type *kj_list_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp);
/* strings (infer_str.c) */
bool kj_str_involved(const kj_type *l, const kj_type *r);
bool kj_device_str_refused(kj_ictx *ic, kj_span sp); /* reports a string in a kernel */
const kj_type *kj_str_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp);
const kj_type *kj_str_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l,
                                   const kj_type *r);
kj_einfo *kj_type_str_subscript(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
/* infer_range.c: r.start/stop/step, r[i] and `x in r` of a range value */
kj_einfo *kj_type_range_attr(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei);
kj_einfo *kj_type_range_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei);
const kj_type *kj_range_in_type(kj_ictx *ic, const kj_expr *e, const kj_type *l);
/* bytes, bytearray, memoryview (infer_bytes.c) */
kj_einfo *kj_type_bytes_literal(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
kj_einfo *kj_type_buffer_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei);
bool kj_buffer_store_error(kj_ictx *ic, const kj_expr *target, const kj_type *arr);
/* Numba's literal string key dicts (infer_lsd.c) */
const kj_ntclass *kj_lsd_class(const kj_type *t);
bool kj_lsd_display(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
kj_einfo *kj_type_lsd_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei);
int kj_lsd_field(const kj_spec *sp, const kj_expr *e);
bool kj_lsd_store_error(kj_ictx *ic, const kj_expr *target, const kj_type *t);
/* f(a, b, c) of def f(x, *args): x bound, args the tuple (b, c) (infer_varargs.c) */
bool kj_bind_varargs(kj_ictx *ic, const kj_expr *e, const kj_funcdef *def, const kj_type **types, int32_t *map);
bool kj_buffer_operator_error(kj_ictx *ic, const char *op, const kj_type *l, const kj_type *r, kj_span sp);
/* KJ_B_ENUMERATE, KJ_B_ZIP or KJ_B_REVERSED when e is a call of one, else -1. */
int kj_iter_call(kj_ictx *ic, const kj_expr *e);
/* One step over an array of type at: its element, or a view a[i]. */
const kj_type *kj_iter_array_elem(kj_types *T, const kj_type *at);
kj_var *kj_var_find(kj_spec *sp, const char *name);
/* The variable a NAME expression of sp's body denotes (its version). */
kj_var *kj_var_of(kj_spec *sp, const kj_expr *e);
/* infer_hostglobal.c: `name = value` in a host function that declared it global: the slot's type */
void kj_host_global_assign(kj_ictx *ic, const kj_expr *target, const kj_type *t);
/* Typing of calls (infer_call.c). */
kj_einfo *kj_type_call(kj_ictx *ic, const kj_expr *e);
/* infer_isinstance.c: isinstance(x, T), a constant bool from x's static type */
bool kj_is_isinstance_call(const kj_expr *e);
kj_einfo *kj_type_isinstance(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
/* tuple() and tuple(t) of a tuple t (infer_isinstance.c) */
bool kj_is_tuple_call(const kj_expr *e);
/* resolve_namedtuple.c: Point = namedtuple('Point', ['x', 'y']) at module
 * level (true when st is one; *out the class, NULL after an error); the call of a
 * class, Point(1, y=2), typed. */
bool kj_resolve_namedtuple(kj_sema *s, const kj_stmt *st, const kj_ntclass **out);
kj_einfo *kj_type_nt_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const kj_ntclass *cls);
/* p.x of a namedtuple p: its field's element type; NULL (reported) if it has none. */
const kj_type *kj_nt_attr_type(kj_ictx *ic, const kj_expr *e, const kj_type *t);
kj_einfo *kj_type_tuple_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei);
/* infer_record.c: dt = np.dtype([...]) at module level (true when st is one; *out the record type,
 * NULL after an error); r.x, r['x'], a['x'] typed; r.x = v checked (true when target is a record's). */
bool kj_resolve_record_dtype(kj_sema *s, const kj_stmt *st, const kj_type **out);
/* dtype=[('x', 'f8'), ...] (or a dict of names and formats) written in a call: its record type,
 * packed (NULL after an error). */
const kj_type *kj_record_dtype_display(kj_sema *s, const kj_expr *a);
const kj_type *kj_record_attr_type(kj_ictx *ic, const kj_expr *e, const kj_type *rec);
kj_einfo *kj_type_record_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei);
bool kj_is_record_subscript(const kj_spec *sp, const kj_expr *e);
bool kj_record_store_check(kj_ictx *ic, const kj_expr *target, const kj_type *v);
/* cuda.gpus[i] as a value: the device (infer_launch.c) */
const kj_type *kj_type_gpus_item(kj_ictx *ic, const kj_expr *e);
int kj_record_field(const kj_type *rec, const char *name);
/* The scalar a NumPy dtype string names ('int32', 'f8', ...), or NULL (infer_call.c). */
const kj_type *kj_dtype_by_str(kj_types *T, const char *s);
/* infer_datetime.c: datetime64 / timedelta64 dtype strings, operators (an operand of the kind) */
const kj_type *kj_dt_dtype_by_str(kj_types *T, const char *s);
const kj_type *kj_dt_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r, kj_span sp,
                                const kj_type **optype);
const kj_type *kj_dt_compare_type(kj_ictx *ic, kj_cmpop op, const kj_type *l, const kj_type *r, kj_span sp);
const kj_type *kj_dt_unary_type(kj_ictx *ic, kj_unop op, const kj_type *x, kj_span sp);
static inline bool kj_dt_involved(const kj_type *l, const kj_type *r)
{
    return kj_is_dt(l) || kj_is_dt(r) || (l && l->kind == KJ_T_ARRAY && kj_is_dt(l->elem)) ||
           (r && r->kind == KJ_T_ARRAY && kj_is_dt(r->elem));
}
kj_einfo *kj_type_launch_config(kj_ictx *ic, const kj_expr *e, kj_fn *kernel);
/* kernel.forall(ntasks, tpb=0, stream=0, sharedmem=0) (infer_launch.c): the
 * call's arguments in that order (NULL where absent); false (nothing
 * reported) when they do not bind, which kj_type_forall_config reports. */
enum { KJ_FORALL_NTASKS, KJ_FORALL_TPB, KJ_FORALL_STREAM, KJ_FORALL_SHAREDMEM, KJ_FORALL__N };
bool kj_forall_args(const kj_expr *call, const kj_expr *out[KJ_FORALL__N]);
kj_einfo *kj_type_forall_config(kj_ictx *ic, const kj_expr *e, kj_fn *kernel);
/* false (reported at `launch`) when a forall's kernel indexes a 2-D or 3-D grid */
bool kj_forall_check_1d(kj_ictx *ic, const kj_expr *launch, const kj_spec *kernel);
/* ufunc.nin/nout/nargs/ntypes/types/identity of a @vectorize or @guvectorize
 * function (infer_ufunc_attr.c): a compile-time constant. */
bool kj_is_ufunc_attr(const char *name);
kj_einfo *kj_ufunc_attr(kj_ictx *ic, const kj_expr *e, kj_fn *fn, kj_einfo *ei);
/* NumPy's type character of a scalar (or an array's dtype); 'O' for none */
char kj_type_char(const kj_type *t);
/* infer_call.c: NumPy's safe casting of a value of type `from` to `to` */
bool kj_can_cast_safe(const kj_type *from, const kj_type *to);
/* infer_ufunc_dyn.c: the loops of a lazy @vectorize/@guvectorize, in program order */
void kj_ulog_reset(kj_spec *sp);
void kj_ulog_call(kj_ictx *ic, const kj_expr *e, kj_fn *fn, const kj_type *const *args, uint32_t n,
                  const kj_spec *callee);
const kj_type **kj_ulog_loop(kj_ictx *ic, kj_fn *fn, const kj_type **el, uint32_t n);
void kj_ulog_merge(kj_ictx *ic, kj_spec *callee, kj_span at);
int64_t kj_ulog_read(kj_ictx *ic, kj_fn *fn, kj_span at, const char ***out);
bool kj_ulog_check(kj_sema *s);
/* f.accumulate(a, axis=0), f.outer(a, b) of a @vectorize f (infer_ufunc_meth.c) */
typedef enum { KJ_UM_ACCUMULATE, KJ_UM_OUTER, KJ_UM_AT, KJ_UM_REDUCE } kj_umeth; /* REDUCE: NumPy's ufuncs only */
int kj_ufunc_meth_id(const char *name); /* a kj_umeth, or -1 */
kj_einfo *kj_type_ufunc_meth(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, const kj_einfo *ci);
bool kj_np_ufunc_has_methods(int builtin); /* np.add.reduce etc.: infer_ufunc_meth.c */
/* specialise fn for args (device: for the device context) and type it */
kj_spec *kj_specialise(kj_ictx *ic, kj_fn *fn, const kj_type **args, bool device, kj_span sp);
/* r(arr, size=None, res=None, init=0, stream=0) of a cuda.reduce function r
 * (infer_launch.c); kj_cuda_reduce_args gives the arguments in that order. */
enum { KJ_CRED_ARR, KJ_CRED_SIZE, KJ_CRED_RES, KJ_CRED_INIT, KJ_CRED_STREAM, KJ_CRED__N };
bool kj_cuda_reduce_args(const kj_expr *call, const kj_expr *out[KJ_CRED__N]);
kj_einfo *kj_type_cuda_reduce_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn);
/* `with CTX:` (infer_launch.c): which of Numba's context managers CTX is
 * (by its form; kj_type_with checks and reports). */
typedef enum {
    KJ_WITH_BAD, KJ_WITH_AUTO_SYNC, KJ_WITH_PINNED, KJ_WITH_DEFER_CLEANUP,
    KJ_WITH_MAPPED,    /* cuda.mapped(a, ...) [as m]: m is a (or the tuple of them) */
    KJ_WITH_PROFILING, /* cuda.profiling(): profile_start(), the body, profile_stop() */
    KJ_WITH_DEVICE,    /* cuda.gpus[i]: device i must be kjit's (as cuda.select_device(i)) */
    KJ_WITH_CHUNKSIZE  /* numba.parallel_chunksize(n): set_parallel_chunksize(n), the body, the old size back */
} kj_with_kind;
kj_with_kind kj_with_of(const kj_expr *ctx);
/* Checks CTX; returns the type `as` binds (NULL after an error). */
const kj_type *kj_type_with(kj_ictx *ic, const kj_stmt *st);
/* The block size forall picks when tpb is 0 (docs/cuda.md says why). */
enum { KJ_FORALL_DEFAULT_TPB = 256 };
/* Operators (infer_expr.c), shared with augmented assignment. */
const kj_type *kj_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r,
                             kj_span sp, const kj_type **optype);
bool kj_is_device_ctx(const kj_spec *sp);
/* One comparison of values of types l and r (errors at e), and a unary
 * operator on x: their result types, NULL after an error. */
const kj_type *kj_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l, const kj_type *r,
                               const kj_type **optype);
const kj_type *kj_unary_type(kj_ictx *ic, kj_unop op, const kj_type *x, kj_span sp);
/* NEP 50: an int literal operand x of an operation computed in type opt
 * must fit it (`np.uint8(1) + 300`, `u8 += 300`: NumPy 2's OverflowError,
 * a compile error here) (infer_expr.c). */
void kj_check_literal_fits(kj_ictx *ic, const kj_expr *x, const kj_type *opt);
/* Subscripts (infer_expr.c): type a slice item of a subscript. */
bool kj_type_slice_item(kj_ictx *ic, const kj_expr *it);
/* A subscript of array type `at` with index arrays among its n items
 * (types[i]: item i's type, slices excepted), and the check of a[idx] op= v
 * (res: the operation's type) (infer_index.c). */
kj_einfo *kj_type_index_arrays(kj_ictx *ic, const kj_expr *e, const kj_type *at, const kj_expr *const *items,
                               const kj_type *const *types, uint32_t n, kj_einfo *ei);
bool kj_check_index_aug(kj_ictx *ic, kj_binop op, const kj_type *cur, const kj_type *res, kj_span sp);
/* NumPy's name of the ufunc behind binary operator op ("add"), and its
 * error for a result of type `from` written into an output of type `to`
 * that casting='same_kind' refuses (a op= b, f(..., out=o)). */
const char *kj_ufunc_name(kj_binop op);
kj_diag *kj_ufunc_cast_error(kj_ictx *ic, kj_span sp, const char *ufunc, const kj_type *from, const kj_type *to);

/* infer_ufunc_out.c: the output argument of NumPy's ufuncs, np.add(a, b, c)
 * and np.add(a, b, out=c). _split takes it out of a built-in call's typed
 * arguments (false after an error; *uo NULL when there is none), _fixmap
 * renumbers the bound keywords after it, _finish checks the typed result
 * against it and makes the call's value the output array. */
typedef struct kj_ufout {
    const char *name;      /* the ufunc's NumPy name */
    const kj_expr *out;    /* the output argument */
    const kj_type *type;   /* its type */
    int kwidx;             /* out= as keyword kwidx of the call, -1 positional */
    const kj_type *res;    /* the ufunc's result, as if without the output */
    bool res_const;        /* that result is a compile-time constant (the einfo's cval) */
} kj_ufout;
bool kj_ufunc_out_split(kj_ictx *ic, const kj_expr *e, int b, kj_barg *pos, uint32_t *np, const char **kwn,
                        kj_barg *kw, uint32_t *nk, kj_ufout **uo);
void kj_ufunc_out_fixmap(const kj_ufout *uo, int32_t *map, int nb);
kj_einfo *kj_ufunc_out_finish(kj_ictx *ic, const kj_expr *e, const kj_ufout *uo, kj_einfo *ei);
/* Is subscript e, typed in sp, one with index arrays? (infer_index.c) */
bool kj_is_index_array_subscript(const kj_spec *sp, const kj_expr *e);
uint32_t kj_report_spec(kj_sema *s, kj_spec *sp);
/* Called when the reporting walk reaches a call to `callee`. */
void kj_mark_reachable(kj_sema *s, kj_spec *callee);
/* Type a condition (if/while/assert/and/or): any scalar is truthy. */
const kj_type *kj_cond_type(kj_ictx *ic, const kj_expr *e);
/* Is st an if whose condition is a constant (info ci) and whose taken branch
 * returns on every path? The statements after it are then dead: typing and
 * lowering stop there (Numba prunes them: `if b is None: return ...`). */
bool kj_if_returns_pruned(const kj_stmt *st, const kj_einfo *ci);
/* The type an arithmetic operator computes in, given its operands' promoted
 * type: true division of ints is float64, bool arithmetic is int64. */
const kj_type *kj_arith_type(kj_types *T, kj_binop op, const kj_type *promoted);

#endif
