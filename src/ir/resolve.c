/* SPDX-License-Identifier: BSD-2-Clause */
/* resolve — the module level: imports, module constants, functions and
 * their decorators. After this stage every top-level name is a kj_sym and
 * every function a kj_fn with its kind, options and parsed signatures. */
#include "sema_int.h"

#include <math.h>
#include <string.h>

/* ---- symbols ---- */

/* Module-level names are looked up for every name in every function body,
 * so they are hashed (FNV-1a, linear probing). */
uint32_t kj_name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 16777619u;
    return h;
}

kj_sym *kj_sym_find(kj_sema *s, const char *name)
{
    if (!s->symcap) return NULL;
    for (uint32_t i = kj_name_hash(name) & (s->symcap - 1);; i = (i + 1) & (s->symcap - 1)) {
        uint32_t k = s->symtab[i];
        if (!k) return NULL;
        if (!strcmp(s->syms.v[k - 1].name, name)) return &s->syms.v[k - 1];
    }
}

static void symtab_insert(kj_sema *s, uint32_t index)
{
    if (2 * (s->syms.n + 1) > s->symcap) { /* grow and rehash */
        uint32_t cap = s->symcap ? s->symcap * 2 : 64;
        s->symtab = KJ_NEWN(s->a, uint32_t, cap);
        s->symcap = cap;
        for (uint32_t k = 0; k < s->syms.n; k++) {
            if (k == index) continue;
            uint32_t i = kj_name_hash(s->syms.v[k].name) & (cap - 1);
            while (s->symtab[i]) i = (i + 1) & (cap - 1);
            s->symtab[i] = k + 1;
        }
    }
    uint32_t i = kj_name_hash(s->syms.v[index].name) & (s->symcap - 1);
    while (s->symtab[i]) i = (i + 1) & (s->symcap - 1);
    s->symtab[i] = index + 1;
}

static kj_sym *sym_add(kj_sema *s, const char *name, kj_symkind kind, kj_span sp)
{
    kj_sym *old = kj_sym_find(s, name);
    if (old) {
        /* Python rebinds silently; a program that does so at module level is
         * almost always a mistake worth naming. */
        kj_diag *dg = kj_error(s->d, s->src, sp, "'%s' is already defined", name);
        kj_diag_hint(dg, "first defined on line %u", old->span.line);
        return NULL;
    }
    kj_sym sym = {.name = name, .kind = kind, .span = sp, .builtin = -1};
    KJ_PUSH(s->a, s->syms, sym);
    symtab_insert(s, s->syms.n - 1);
    return &s->syms.v[s->syms.n - 1];
}

/* ---- namespaces: which dotted paths name what ---- */

static const char *const DECORATORS[] = {"numba.jit", "numba.njit", "numba.vectorize",
                                         "numba.guvectorize", "cuda.jit", "cuda.reduce",
                                         "cuda.Reduce", "cuda.require_context"};

static const char *const NAMESPACES[] = {"np", "np.random", "np.linalg", "np.polynomial", "np.polynomial.polynomial",
                                         "np.polynomial.polyutils", "math", "cmath", "random", "heapq", "time", "numba", "numba.config", "cuda",
                                         "types", "typed", "core", "mpi4py", "MPI", "MPI.Request", "collections",
                                         "cuda.threadIdx", "cuda.blockIdx", "cuda.blockDim",
                                         "cuda.gridDim", "cuda.shared", "cuda.local", "cuda.const",
                                         "cuda.atomic", "cuda.random", "cuda.cg", "cuda.libdevice", "cuda.fp16"};

static const char *const DTYPE_NAMES[] = {
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "intp", "uintp", "float_", "double", "single", "int_", "boolean",
    "byte", "ubyte", "short", "ushort", "intc", "uintc", "longlong", "ulonglong",
    "complex64", "complex128", "csingle", "cdouble", "complex_", "float16", "half"};

bool kj_path_is_namespace(const char *path)
{
    for (size_t i = 0; i < sizeof NAMESPACES / sizeof *NAMESPACES; i++)
        if (!strcmp(NAMESPACES[i], path)) return true;
    return false;
}

static bool is_dtype_namespace(const char *path)
{
    return !strcmp(path, "np") || !strcmp(path, "numba") || !strcmp(path, "types");
}

/* What `path.name` denotes. Fills `out` (kind + payload) and returns true,
 * or returns false when the name does not exist. */
static bool path_lookup(kj_sema *s, const char *path, const char *name, kj_einfo *out)
{
    /* Built on the stack: this runs for every attribute in every walk. */
    char buf[256];
    size_t lp = strlen(path), ln = strlen(name);
    if (lp + ln + 2 > sizeof buf) return false;
    memcpy(buf, path, lp);
    buf[lp] = '.';
    memcpy(buf + lp + 1, name, ln + 1);
    const char *full = buf;
    memset(out, 0, sizeof *out);
    if (!strcmp(full, "numba.cuda")) full = "cuda";
    if (!strcmp(full, "mpi4py.MPI")) full = "MPI";
    if (!strcmp(full, "numba.types") || !strcmp(full, "core.types")) full = "types";
    if (!strcmp(full, "numba.typed")) full = "typed";
    if (!strcmp(full, "numba.core")) full = "core";
    if (kj_is_typeobj_path(full)) { /* types.unicode_type, types.UniTuple(...): resolve_sig.c */
        out->kind = EI_TYPEOBJ;
        out->path = kj_is_typeobj_path(full);
        return true;
    }
    if (!strcmp(full, "types.Array")) { /* types.Array(types.float32, 2, 'C'): resolve_sig.c */
        out->kind = EI_TYPEOBJ;
        out->path = "types.Array";
        return true;
    }
    if (!strcmp(full, "np.dtype")) { /* np.dtype('float32'): folded where it is called */
        out->kind = EI_DTYPE_FN;
        return true;
    }
    for (size_t i = 0; i < sizeof DECORATORS / sizeof *DECORATORS; i++)
        if (!strcmp(DECORATORS[i], full)) {
            out->kind = EI_DECOR;
            out->path = DECORATORS[i];
            return true;
        }
    for (size_t i = 0; i < sizeof NAMESPACES / sizeof *NAMESPACES; i++)
        if (!strcmp(NAMESPACES[i], full)) {
            out->kind = EI_MODULE;
            out->path = NAMESPACES[i];
            return true;
        }
    if (is_dtype_namespace(path)) {
        const kj_type *t = kj_scalar_by_name(s->types, name);
        /* numba.void (numba.none): the return type of a signature object */
        if (!t && strcmp(path, "np") && (!strcmp(name, "void") || !strcmp(name, "none")))
            t = kj_t_none(s->types);
        if (t) {
            out->kind = EI_DTYPE;
            out->dtype = t;
            return true;
        }
    }
    int b = kj_builtin_lookup(full);
    if (b < 0 && !strcmp(path, "numba")) b = kj_builtin_lookup(name); /* numba.prange */
    if (b >= 0) {
        out->kind = EI_BUILTIN;
        out->builtin = b;
        return true;
    }
    return false;
}

/* "did you mean" for an unknown attribute of a namespace. */
const char *kj_module_attr_hint(kj_sema *s, const char *path, const char *name)
{
    const char *cands[640]; /* np has over 300 names */
    uint32_t n = kj_builtin_children(path, cands, 600, s->a);
    size_t plen = strlen(path);
    for (size_t i = 0; i < sizeof NAMESPACES / sizeof *NAMESPACES && n < 630; i++)
        if (!strncmp(NAMESPACES[i], path, plen) && NAMESPACES[i][plen] == '.' &&
            !strchr(NAMESPACES[i] + plen + 1, '.'))
            cands[n++] = NAMESPACES[i] + plen + 1;
    if (!strcmp(path, "cuda")) cands[n++] = "jit";
    if (!strcmp(path, "numba")) {
        static const char *const nb[] = {"jit", "njit", "vectorize", "guvectorize", "cuda",
                                         "prange"};
        for (size_t i = 0; i < 6; i++) cands[n++] = nb[i];
    }
    if (is_dtype_namespace(path))
        for (size_t i = 0; i < sizeof DTYPE_NAMES / sizeof *DTYPE_NAMES && n < 640; i++)
            cands[n++] = DTYPE_NAMES[i];
    return kj_closest(name, cands, n);
}

/* List.empty_list, Dict.empty: the members of numba.typed's List and Dict,
 * built-ins of their own ("typed.List.empty_list"). False for an attribute
 * of any other built-in (it is no static reference). */
static bool typed_member(kj_sema *s, const kj_expr *e, int b, kj_einfo *out, bool report)
{
    if (b != KJ_B_TYPED_LIST && b != KJ_B_TYPED_DICT) return false;
    const char *path = kj_builtin_get((kj_builtin)b)->path;
    int m = kj_builtin_lookup(kj_arena_printf(s->a, "%s.%s", path, e->attr.name));
    memset(out, 0, sizeof *out);
    if (m >= 0) {
        out->kind = EI_BUILTIN;
        out->builtin = m;
        return true;
    }
    if (report)
        kj_error(s->d, s->src, e->attr.name_span, "type object '%s' has no attribute '%s'",
                 b == KJ_B_TYPED_LIST ? "List" : "Dict", e->attr.name);
    out->kind = EI_NONE;
    return true;
}

/* Resolve a NAME or ATTR chain that denotes something at module level
 * (module, builtin, dtype, decorator, function, constant). Reports unknown
 * attributes of namespaces; returns false for anything else (e.g. a local). */
static bool static_ref(kj_sema *s, const kj_expr *e, kj_einfo *out, bool report)
{
    memset(out, 0, sizeof *out);
    if (e->kind == KJ_E_NAME) {
        kj_sym *sym = kj_sym_find(s, e->name);
        if (!sym) {
            int b = kj_builtin_lookup(e->name); /* Python built-ins: range, len, ... */
            if (b < 0 || strchr(e->name, '.')) return false;
            out->kind = EI_BUILTIN;
            out->builtin = b;
            return true;
        }
        switch (sym->kind) {
        case SYM_MODULE: out->kind = EI_MODULE; out->path = sym->path; break;
        case SYM_BUILTIN: out->kind = EI_BUILTIN; out->builtin = sym->builtin; break;
        case SYM_DTYPE: out->kind = EI_DTYPE; out->dtype = sym->type; break;
        case SYM_DECOR: out->kind = EI_DECOR; out->path = sym->path; out->decor = sym->decor; break;
        case SYM_TYPEOBJ: out->kind = EI_TYPEOBJ; break;
        case SYM_NTCLASS: out->kind = EI_NTCLASS; out->ntc = sym->ntc; break;
        case SYM_FUNC: out->kind = EI_FUNC; out->fn = sym->fn; break;
        case SYM_CONST:
            out->kind = EI_VALUE;
            out->type = sym->cval.type;
            out->is_const = true;
            out->cval = sym->cval;
            break;
        }
        return true;
    }
    if (e->kind != KJ_E_ATTR) return false;
    kj_einfo base;
    if (!static_ref(s, e->attr.obj, &base, report)) return false;
    if (base.kind == EI_BUILTIN) return typed_member(s, e, base.builtin, out, report);
    if (base.kind != EI_MODULE) return false;
    if (path_lookup(s, base.path, e->attr.name, out)) return true;
    if (report) {
        kj_diag *dg = kj_error(s->d, s->src, e->attr.name_span, "module '%s' has no attribute '%s'",
                               base.path, e->attr.name);
        const char *h = kj_module_attr_hint(s, base.path, e->attr.name);
        if (h) kj_diag_hint(dg, "did you mean '%s.%s'?", base.path, h);
    }
    out->kind = EI_NONE;
    return true;
}

bool kj_static_ref(kj_sema *s, const kj_expr *e, kj_einfo *out, bool report)
{
    return static_ref(s, e, out, report);
}

/* ---- imports ---- */

static const char *canonical_module(const char *mod)
{
    if (!strcmp(mod, "numpy")) return "np";
    if (!strcmp(mod, "numpy.lib.stride_tricks")) return "np.lib.stride_tricks"; /* builtins_npshape.h */
    if (!strcmp(mod, "numpy.polynomial")) return "np.polynomial"; /* builtins_nppoly.h */
    if (!strcmp(mod, "numpy.polynomial.polynomial")) return "np.polynomial.polynomial";
    if (!strcmp(mod, "numpy.polynomial.polyutils")) return "np.polynomial.polyutils";
    if (!strcmp(mod, "math")) return "math";
    if (!strcmp(mod, "cmath")) return "cmath";
    if (!strcmp(mod, "random")) return "random";
    if (!strcmp(mod, "heapq")) return "heapq";
    if (!strcmp(mod, "time")) return "time";
    if (!strcmp(mod, "numba") || !strcmp(mod, "kjit")) return "numba";
    if (!strcmp(mod, "numba.cuda") || !strcmp(mod, "kjit.cuda")) return "cuda";
    if (!strcmp(mod, "numba.cuda.random") || !strcmp(mod, "kjit.cuda.random")) return "cuda.random";
    if (!strcmp(mod, "numba.cuda.libdevice") || !strcmp(mod, "kjit.cuda.libdevice")) return "cuda.libdevice";
    if (!strcmp(mod, "numba.types") || !strcmp(mod, "kjit.types") || !strcmp(mod, "numba.core.types")) return "types";
    if (!strcmp(mod, "numba.typed") || !strcmp(mod, "kjit.typed")) return "typed";
    if (!strcmp(mod, "numba.core")) return "core";
    if (!strcmp(mod, "numba.cuda.fp16") || !strcmp(mod, "kjit.cuda.fp16")) return "cuda.fp16";
    if (!strcmp(mod, "mpi4py")) return "mpi4py";
    if (!strcmp(mod, "collections")) return "collections"; /* namedtuple */
    if (!strcmp(mod, "operator")) return "operator";       /* builtins_operator.h */
    return NULL;
}

static void unsupported_module(kj_sema *s, kj_span sp, const char *mod)
{
    kj_diag *dg = kj_error(s->d, s->src, sp, "module '%s' is not supported", mod);
    kj_diag_hint(dg, "kjit accepts imports from numba, numba.cuda, numpy, math, cmath, random, heapq, operator, time, collections, mpi4py and kjit");
}

/* A second import that binds a name to what it already names (`import math`
 * twice) is allowed, as Python allows it; any other rebinding is reported. */
static bool reimport(kj_sema *s, const char *bind, kj_symkind kind, const char *path, int builtin)
{
    const kj_sym *old = kj_sym_find(s, bind);
    return old && old->kind == kind && old->builtin == builtin &&
           (old->path == path || (old->path && path && !strcmp(old->path, path)));
}

/* import_stmt: 'import' dotted ['as' NAME] (',' dotted ['as' NAME])* */
static void resolve_import(kj_sema *s, const kj_stmt *st)
{
    for (uint32_t i = 0; i < st->import.n; i++) {
        const kj_alias *al = &st->import.names[i];
        const char *canon = canonical_module(al->name);
        if (!canon) {
            unsupported_module(s, al->span, al->name);
            continue;
        }
        const char *bind = al->asname;
        if (!bind) {
            /* `import numba.cuda` binds `numba`, as Python does. */
            const char *dot = strchr(al->name, '.');
            bind = dot ? kj_arena_strndup(s->a, al->name, (size_t)(dot - al->name)) : al->name;
            if (dot) canon = canonical_module(bind);
        }
        if (reimport(s, bind, SYM_MODULE, canon, -1)) continue;
        kj_sym *sym = sym_add(s, bind, SYM_MODULE, al->span);
        if (sym) sym->path = canon;
    }
}

/* from_stmt: 'from' dotted 'import' NAME ['as' NAME] (',' ...)* */
static void resolve_from_import(kj_sema *s, const kj_stmt *st)
{
    const char *canon = canonical_module(st->import.module);
    if (!canon) {
        unsupported_module(s, st->span, st->import.module);
        return;
    }
    for (uint32_t i = 0; i < st->import.n; i++) {
        const kj_alias *al = &st->import.names[i];
        kj_einfo ref;
        if (!path_lookup(s, canon, al->name, &ref) || ref.kind > EI_DECOR) {
            kj_diag *dg = kj_error(s->d, s->src, al->span, "cannot import name '%s' from '%s'",
                                   al->name, st->import.module);
            const char *h = kj_module_attr_hint(s, canon, al->name);
            if (h) kj_diag_hint(dg, "did you mean '%s'?", h);
            continue;
        }
        const char *bind = al->asname ? al->asname : al->name;
        static const kj_symkind kinds[] = {[EI_MODULE] = SYM_MODULE, [EI_BUILTIN] = SYM_BUILTIN,
                                           [EI_DTYPE] = SYM_DTYPE, [EI_DECOR] = SYM_DECOR};
        if (reimport(s, bind, kinds[ref.kind], ref.path, ref.builtin)) continue;
        kj_sym *sym = sym_add(s, bind, kinds[ref.kind], al->span);
        if (!sym) continue;
        sym->path = ref.path;
        sym->builtin = ref.builtin;
        sym->type = ref.dtype;
    }
}

/* ---- decorators ---- */

typedef struct {
    const char *name;
    enum { OPT_BOOL, OPT_STR, OPT_INT, OPT_ANY } kind;
} opt_spec;

static const opt_spec JIT_OPTS[] = {{"nopython", OPT_BOOL}, {"nogil", OPT_BOOL},
    {"cache", OPT_BOOL}, {"fastmath", OPT_BOOL}, {"boundscheck", OPT_BOOL}, {"debug", OPT_BOOL},
    {"parallel", OPT_BOOL}, {"inline", OPT_STR}, {"error_model", OPT_STR},
    {"lineinfo", OPT_BOOL}, {"target", OPT_STR}};
static const opt_spec CUDA_OPTS[] = {{"device", OPT_BOOL}, {"fastmath", OPT_BOOL},
    {"debug", OPT_BOOL}, {"lineinfo", OPT_BOOL}, {"max_registers", OPT_INT},
    {"cache", OPT_BOOL}, {"inline", OPT_ANY}, {"opt", OPT_BOOL}, {"boundscheck", OPT_BOOL}};
static const opt_spec UFUNC_OPTS[] = {{"target", OPT_STR}, {"identity", OPT_ANY},
    {"cache", OPT_BOOL}, {"nopython", OPT_BOOL}, {"fastmath", OPT_BOOL},
    {"boundscheck", OPT_BOOL}, {"debug", OPT_BOOL}, {"lineinfo", OPT_BOOL},
    {"writable_args", OPT_ANY}};

/* The options one decorator accepts. */
typedef struct {
    const opt_spec *v;
    size_t n;
} opt_table;
#define OPT_TABLE(a) ((opt_table){(a), sizeof(a) / sizeof *(a)})

static const opt_spec *find_opt(opt_table opts, const char *name)
{
    for (size_t i = 0; i < opts.n; i++)
        if (!strcmp(opts.v[i].name, name)) return &opts.v[i];
    return NULL;
}

static void unknown_option(kj_sema *s, const kj_keyword *kw, const char *decor, opt_table opts)
{
    const char *cands[32];
    size_t n = 0;
    for (size_t i = 0; i < opts.n && n < 32; i++) cands[n++] = opts.v[i].name;
    kj_diag *dg = kj_error(s->d, s->src, kw->span, "unknown option '%s' for @%s", kw->name, decor);
    const char *h = kj_closest(kw->name, cands, n);
    if (h) kj_diag_hint(dg, "did you mean '%s'?", h);
}

/* The one place a decorator's target string is read (target.h). */
static void set_target(kj_sema *s, kj_fn *fn, const kj_expr *e, const char *t)
{
    kj_run_target rt = kj_run_target_parse(t);
    if (rt != KJ_RUN_DEFAULT) {
        fn->target = rt;
        return;
    }
    kj_diag *dg = kj_error(s->d, s->src, e->span, "unknown target '%s'", t);
    kj_diag_hint(dg, "targets are 'cpu', 'parallel' and 'cuda'");
}

/* Numba's two error models: 'python' (the default) and 'numpy'. */
static bool check_error_model(kj_sema *s, const kj_expr *e, const char *m)
{
    if (!strcmp(m, "python") || !strcmp(m, "numpy")) return true;
    kj_diag *dg = kj_error(s->d, s->src, e->span, "unknown error_model '%s'", m);
    kj_diag_hint(dg, "error models are 'python' and 'numpy'");
    return false;
}

/* identity=: a number, None (the default: no identity, not reorderable) or
 * 'reorderable' (NumPy's PyUFunc_ReorderableNone), as Numba takes it. */
static void set_identity(kj_sema *s, kj_fn *fn, const kj_keyword *kw, const kj_cval *v)
{
    const kj_type *t = v->type;
    fn->identity_span = kw->value->span;
    if (t && (t->kind == KJ_T_INT || t->kind == KJ_T_BOOL)) {
        fn->identity = (kir_identity){.has = true, .reorderable = true, .integral = true, .i = v->i, .f = (double)v->i};
    } else if (t && t->kind == KJ_T_FLOAT) {
        /* whole and within int64 (converting any other to int64 is undefined) */
        bool whole = isfinite(v->f) && v->f == trunc(v->f) && v->f >= -0x1p63 && v->f < 0x1p63;
        fn->identity = (kir_identity){.has = true, .reorderable = true, .integral = whole,
                                      .i = whole ? (int64_t)v->f : 0, .f = v->f};
    } else if (t && t->kind == KJ_T_STR && !strcmp(v->s, "reorderable")) {
        fn->identity = (kir_identity){.reorderable = true};
    } else if (!t || t->kind != KJ_T_NONE) {
        kj_error(s->d, s->src, kw->value->span, "identity must be a number, None or 'reorderable'");
        fn->bad = true;
    }
}

/* Apply one keyword option of a decorator to `fn`. */
static void apply_option(kj_sema *s, kj_fn *fn, const kj_keyword *kw, opt_table opts)
{
    const opt_spec *o = find_opt(opts, kw->name);
    if (!o) {
        unknown_option(s, kw, fn->decorator, opts);
        fn->bad = true;
        return;
    }
    kj_cval v = {0};
    if (!kj_const_eval(s, kw->value, &v) && o->kind != OPT_ANY) {
        kj_error(s->d, s->src, kw->value->span, "option '%s' must be a constant", kw->name);
        return;
    }
    if (!strcmp(kw->name, "identity")) {
        set_identity(s, fn, kw, &v);
        return;
    }
    if (o->kind == OPT_ANY) return;
    static const char *const kind_names[] = {"True or False", "a string", "an integer"};
    bool ok = o->kind == OPT_BOOL ? v.type->kind == KJ_T_BOOL
            : o->kind == OPT_STR ? v.type->kind == KJ_T_STR
            : v.type->kind == KJ_T_INT;
    if (!ok) {
        kj_error(s->d, s->src, kw->value->span, "option '%s' must be %s", kw->name,
                 kind_names[o->kind]);
        return;
    }
    if (!strcmp(kw->name, "fastmath")) fn->fastmath = v.i;
    else if (!strcmp(kw->name, "boundscheck")) fn->boundscheck = v.i;
    else if (!strcmp(kw->name, "lineinfo") || !strcmp(kw->name, "debug")) fn->lineinfo |= v.i;
    else if (!strcmp(kw->name, "device") && v.i) fn->kind = FK_DEVICE;
    else if (!strcmp(kw->name, "target")) set_target(s, fn, kw->value, v.s);
    /* @jit(parallel=True): its prange loops (and ufunc calls) run on the thread pool */
    else if (!strcmp(kw->name, "parallel") && v.i) fn->target = KJ_RUN_PARALLEL;
    else if (!strcmp(kw->name, "error_model") && check_error_model(s, kw->value, v.s))
        fn->numpy_errors = !strcmp(v.s, "numpy");
}

/* Signatures: strings, Numba type objects, lists of them (resolve_sig.c). */
static void parse_sigs(kj_sema *s, kj_fn *fn, const kj_expr *e)
{
    if (!kj_eval_sigs(s, e, &fn->sigs, &fn->sig_spans, &fn->nsigs)) fn->bad = true;
}

static uint32_t sig_ndim(const kj_type *t) { return t->kind == KJ_T_ARRAY ? t->ndim : 0; }

/* Check a parsed signature against what the kind of function allows. */
static void check_sig(kj_sema *s, kj_fn *fn, const kj_sig *sig, kj_span sp)
{
    const kj_funcdef *def = fn->def;
    if (sig->nparams != def->nparams) {
        kj_error(s->d, s->src, sp, "signature has %u parameter%s but '%s' takes %u", sig->nparams,
                 sig->nparams == 1 ? "" : "s", def->name, def->nparams);
        fn->bad = true;
        return;
    }
    bool void_ret = !sig->ret || sig->ret->kind == KJ_T_NONE;
    if ((fn->kind == FK_KERNEL || fn->kind == FK_GUVECTORIZE) && !void_ret) {
        kj_error(s->d, s->src, sp, "%s signatures must return void",
                 fn->kind == FK_KERNEL ? "kernel" : "gufunc");
        fn->bad = true;
    }
    if (fn->kind == FK_VECTORIZE) {
        if (void_ret || !kj_is_scalar(sig->ret)) {
            kj_error(s->d, s->src, sp, "a @vectorize signature must return a scalar type");
            fn->bad = true;
        }
        for (uint32_t i = 0; i < sig->nparams; i++)
            if (!kj_is_scalar(sig->params[i])) {
                kj_error(s->d, s->src, sp, "@vectorize parameters must be scalars, not %s",
                         kj_type_str(sig->params[i]));
                fn->bad = true;
                break;
            }
    }
    if (fn->kind == FK_GUVECTORIZE && fn->layout_str) {
        if (fn->layout.nin + fn->layout.nout != sig->nparams) {
            kj_error(s->d, s->src, sp, "layout '%s' has %u arguments but the signature has %u",
                     fn->layout_str, fn->layout.nin + fn->layout.nout, sig->nparams);
            fn->bad = true;
            return;
        }
        for (uint32_t i = 0; i < sig->nparams; i++) {
            /* Numba declares a scalar '()' as a 1-element array, an output
             * always, an input where the function reads it as w[0]. */
            bool scalar_1d = fn->layout.args[i].ndims == 0 && sig_ndim(sig->params[i]) == 1;
            if (sig_ndim(sig->params[i]) != fn->layout.args[i].ndims && !scalar_1d) {
                kj_error(s->d, s->src, sp,
                         "argument %u has %u dimension%s in the signature but %u in layout '%s'",
                         i + 1, sig_ndim(sig->params[i]), sig_ndim(sig->params[i]) == 1 ? "" : "s",
                         fn->layout.args[i].ndims, fn->layout_str);
                fn->bad = true;
                return;
            }
        }
    }
}

static opt_table opts_for(kj_fkind k)
{
    return k == FK_JIT ? OPT_TABLE(JIT_OPTS)
         : (k == FK_KERNEL || k == FK_DEVICE) ? OPT_TABLE(CUDA_OPTS) : OPT_TABLE(UFUNC_OPTS);
}

/* What a NAME/ATTR chain denotes for a decorator: in a host function's body
 * (host != NULL) first the names it binds to compiled functions and
 * decorators, then the module's names. */
static bool decor_ref(kj_sema *s, const kj_fn *host, const kj_expr *e, kj_einfo *ref, bool report)
{
    const kj_static_local *l = host && e->kind == KJ_E_NAME ? kj_static_local_find(host, e->name) : NULL;
    if (!l || (!l->fn && !l->decor)) return static_ref(s, e, ref, report); /* a signature local: a string */
    memset(ref, 0, sizeof *ref);
    ref->kind = l->fn ? EI_FUNC : EI_DECOR;
    ref->fn = l->fn;
    ref->decor = l->decor;
    ref->path = l->decor ? l->decor->path : NULL;
    return true;
}

/* The decorator `e` denotes, when it is one: a decorator name
 * (cuda.jit, njit), a name bound to a configured decorator (dec =
 * cuda.jit(sig)), or a call of a decorator name with its signatures and
 * options. Reports unknown attributes of namespaces (returns false then, with
 * *bad set). */
static bool decor_of(kj_sema *s, const kj_fn *host, const kj_expr *e, kj_decor *out, bool *bad)
{
    memset(out, 0, sizeof *out);
    out->span = e->span;
    const kj_expr *callee = e->kind == KJ_E_CALL ? e->call.fn : e;
    kj_einfo ref;
    bool known = decor_ref(s, host, callee, &ref, true);
    if (known && ref.kind == EI_NONE) *bad = true; /* unknown attribute, already reported */
    if (!known || ref.kind != EI_DECOR) return false;
    if (ref.decor && ref.decor->called) {
        if (e->kind == KJ_E_CALL) return false; /* dec(...) applies it: see decor_apply */
        *out = *ref.decor;
        return true;
    }
    out->path = ref.path;
    if (e->kind == KJ_E_CALL) {
        out->called = true;
        out->args = e->call.args;
        out->nargs = e->call.nargs;
        out->kw = e->call.kw;
        out->nkw = e->call.nkw;
    }
    return true;
}

/* k.py_func (Numba's dispatcher attribute): k's body as the plain Python
 * function it was before decoration — here an undecorated host helper named
 * k.py_func, made once. */
kj_fn *kj_py_func(kj_sema *s, kj_fn *fn)
{
    if (fn->kind == FK_MAIN || fn->kind == FK_HELPER) return fn;
    if (fn->py_func) return fn->py_func;
    kj_funcdef *def = KJ_NEW(s->a, kj_funcdef);
    *def = *fn->def;
    def->name = kj_arena_printf(s->a, "%s.py_func", fn->def->name);
    def->decorators = NULL;
    def->ndecorators = 0;
    kj_fn *p = KJ_NEW(s->a, kj_fn);
    p->def = def;
    p->kind = FK_HELPER;
    p->decorator = "";
    fn->py_func = p;
    return p;
}

/* The function `e` names where a decorator takes one: f, a name a host
 * function bound to a compiled function, k.py_func. NULL otherwise. */
static kj_fn *function_arg(kj_sema *s, const kj_fn *host, const kj_expr *e)
{
    if (e->kind == KJ_E_ATTR && !strcmp(e->attr.name, "py_func")) {
        kj_fn *f = function_arg(s, host, e->attr.obj);
        return f ? kj_py_func(s, f) : NULL;
    }
    if (e->kind != KJ_E_NAME) return NULL;
    const kj_static_local *l = host ? kj_static_local_find(host, e->name) : NULL;
    if (l) return l->fn;
    const kj_sym *sym = kj_sym_find(s, e->name);
    return sym && sym->kind == SYM_FUNC ? sym->fn : NULL;
}

/* Is `e` a decorator applied to a function, as a call: cuda.jit(f),
 * njit(f, cache=True), cuda.jit(sig)(f), dec(f)? Fills the decorator and
 * the function's argument expression. A decorator name called with a
 * function first is the function form; anything else called with one
 * argument by a configured decorator is an application. */
static bool decor_apply(kj_sema *s, const kj_fn *host, const kj_expr *e, kj_decor *d, const kj_expr **arg,
                        bool *bad)
{
    if (e->kind != KJ_E_CALL) return false;
    const kj_expr *callee = e->call.fn;
    if (e->call.nargs >= 1 && function_arg(s, host, e->call.args[0])) {
        if (decor_of(s, host, callee, d, bad) && !d->called) {
            *arg = e->call.args[0];
            d->span = e->span;
            d->args = e->call.args + 1;
            d->nargs = e->call.nargs - 1;
            d->kw = e->call.kw;
            d->nkw = e->call.nkw;
            d->called = e->call.nargs > 1 || e->call.nkw > 0;
            return true;
        }
    }
    kj_einfo ref;
    bool configured = callee->kind == KJ_E_CALL ||
                      (decor_ref(s, host, callee, &ref, false) && ref.kind == EI_DECOR && ref.decor &&
                       ref.decor->called);
    if (!configured || !decor_of(s, host, callee, d, bad)) return false;
    if (e->call.nargs != 1 || e->call.nkw) {
        kj_error(s->d, s->src, e->span, "a decorator is applied to exactly one function");
        *bad = true;
        return false;
    }
    *arg = e->call.args[0];
    return true;
}

/* @cuda.reduce, cuda.Reduce(f) (numba-cuda's reduction.rst): f is the
 * reduction's binary function; the decorator takes nothing else. */
static void resolve_reduce(kj_sema *s, kj_fn *fn, const kj_decor *dec)
{
    fn->kind = FK_REDUCE;
    fn->decorator = dec->path;
    if (dec->called) {
        kj_error(s->d, s->src, dec->span, "%s takes the reduction's function and nothing else", dec->path);
        fn->bad = true;
        return;
    }
    if (fn->def->nparams != 2) {
        kj_diag *dg = kj_error(s->d, s->src, dec->span, "%s needs a binary function, but '%s' takes %u "
                               "argument%s", dec->path, fn->def->name, fn->def->nparams,
                               fn->def->nparams == 1 ? "" : "s");
        kj_diag_hint(dg, "a reduction combines two values: def f(a, b): return a + b");
        fn->bad = true;
    }
}

/* decorator: '@' (jit|njit|cuda.jit|vectorize|guvectorize) ['(' sigs [, layout] options ')'] */
static void resolve_decorator(kj_sema *s, kj_fn *fn, const kj_decor *dec)
{
    const char *p = dec->path;
    if (!strcmp(p, "cuda.require_context")) { /* cuda_context.c */
        kj_resolve_require_context(s, fn, dec);
        return;
    }
    if (!strncmp(p, "cuda.", 5) && strcmp(p, "cuda.jit")) {
        resolve_reduce(s, fn, dec);
        return;
    }
    fn->decorator = !strcmp(p, "cuda.jit") ? "cuda.jit" : p + strlen("numba.");
    fn->kind = !strcmp(p, "cuda.jit") ? FK_KERNEL
             : !strcmp(p, "numba.vectorize") ? FK_VECTORIZE
             : !strcmp(p, "numba.guvectorize") ? FK_GUVECTORIZE : FK_JIT;
    if (!dec->called) {
        if (fn->kind == FK_GUVECTORIZE) {
            kj_error(s->d, s->src, dec->span, "@guvectorize needs signatures and a layout string");
            fn->bad = true;
        }
        return;
    }
    uint32_t maxpos = fn->kind == FK_GUVECTORIZE ? 2 : 1;
    if (dec->nargs > maxpos) {
        kj_error(s->d, s->src, dec->args[maxpos]->span, "too many arguments to @%s", fn->decorator);
        fn->bad = true;
    }
    for (uint32_t i = 0; i < dec->nkw; i++) apply_option(s, fn, &dec->kw[i], opts_for(fn->kind));
    /* Numba's guvectorize(layout) alone (one argument) is lazy: compiled for
     * the argument types of each call, outputs passed (numba/np/ufunc/decorators.py). */
    bool lazy_gu = fn->kind == FK_GUVECTORIZE && dec->nargs == 1;
    if (fn->kind == FK_GUVECTORIZE) {
        const kj_expr *lay = dec->nargs >= 1 ? dec->args[dec->nargs >= 2 ? 1 : 0] : NULL;
        if (lay && lay->kind == KJ_E_NAME) { /* a layout held in a module constant */
            const kj_sym *ls = kj_sym_find(s, lay->name);
            if (ls && ls->kind == SYM_CONST && ls->expr && ls->expr->kind == KJ_E_STR) lay = ls->expr;
        }
        if (!lay || lay->kind != KJ_E_STR) {
            kj_error(s->d, s->src, lay ? lay->span : dec->span,
                     "@guvectorize needs a layout string such as '(n),()->(n)'");
            fn->bad = true;
        } else if (kj_parse_layout(s->a, lay->str.s, lay->str.len, s->src, lay->span, s->d,
                                   &fn->layout)) {
            fn->layout_str = lay->str.s;
        } else {
            fn->bad = true;
        }
    }
    if (dec->nargs >= 1 && !lazy_gu) parse_sigs(s, fn, dec->args[0]);
    for (uint32_t i = 0; i < fn->nsigs; i++) check_sig(s, fn, &fn->sigs[i], fn->sig_spans[i]);
}

/* The `@decorator` line of a def. */
static void resolve_def_decorator(kj_sema *s, kj_fn *fn, const kj_expr *e)
{
    kj_decor d;
    bool bad = false;
    if (decor_of(s, NULL, e, &d, &bad)) {
        resolve_decorator(s, fn, &d);
        return;
    }
    if (!bad)
        kj_error(s->d, s->src, e->span,
                 "unsupported decorator: kjit knows @jit, @njit, @cuda.jit, @vectorize, @guvectorize and @cuda.reduce");
    fn->bad = true;
}

/* A lambda or undecorated def written in a decorated function
 * (parser_lambda.c) is compiled as Numba inlines it there: a @jit function in a @jit function (or a ufunc's
 * body), a device function in a kernel or device function, with the
 * enclosing decorator's fastmath and boundscheck. */
static void lambda_kind(kj_sema *s, kj_fn *fn)
{
    const kj_funcdef *encl = fn->def->encl;
    kj_decor d;
    bool bad = false;
    if (!encl || fn->def->ndecorators || encl->ndecorators != 1 ||
        !decor_of(s, NULL, encl->decorators[0], &d, &bad))
        return;
    kj_fn e = {.def = encl};
    resolve_decorator(s, &e, &d);
    bool dev = e.kind == FK_KERNEL || e.kind == FK_DEVICE || e.kind == FK_REDUCE;
    fn->kind = dev ? FK_DEVICE : FK_JIT;
    fn->decorator = dev ? "cuda.jit" : "njit";
    fn->fastmath = e.fastmath;
    fn->boundscheck = e.boundscheck;
    fn->lineinfo = e.lineinfo;
}

/* A generator expression (parser_comp.c: the list comprehension "<genexpr>")
 * inside a decorated function: Numba 0.56 refuses it there; host code has it. */
static void genexpr_check(kj_sema *s, kj_fn *fn)
{
    if (strncmp(fn->def->name, "<genexpr", 8)) return;
    for (const kj_funcdef *e = fn->def->encl; e; e = e->encl)
        if (e->ndecorators) {
            kj_diag *dg = kj_error(s->d, s->src, fn->def->span, "The use of yield in a closure is unsupported.");
            kj_diag_hint(dg, "Numba 0.56 has no generator expressions in compiled functions (host code has them): "
                             "build a list with a list comprehension, or use a for loop");
            fn->bad = true;
            return;
        }
}

static void resolve_def(kj_sema *s, const kj_stmt *st)
{
    const kj_funcdef *def = st->def;
    kj_fn *fn = KJ_NEW(s->a, kj_fn);
    fn->def = def;
    fn->kind = !strcmp(def->name, "main") ? FK_MAIN : FK_HELPER;
    fn->decorator = "";
    if (def->ndecorators > 1) {
        kj_error(s->d, s->src, def->decorators[1]->span, "a function takes at most one decorator");
        fn->bad = true;
    }
    if (def->ndecorators >= 1) resolve_def_decorator(s, fn, def->decorators[0]);
    lambda_kind(s, fn);
    genexpr_check(s, fn);
    kj_strtab params = {0}; /* hashed: a function may have thousands of parameters */
    for (uint32_t i = 0; i < def->nparams; i++)
        if (!kj_strtab_put(s->a, &params, def->params[i].name, i)) {
            kj_error(s->d, s->src, def->params[i].span, "duplicate parameter '%s'",
                     def->params[i].name);
            fn->bad = true;
        }
    kj_sym *sym = sym_add(s, def->name, SYM_FUNC, def->name_span);
    if (!sym) return;
    sym->fn = fn;
    KJ_PUSH(s->a, s->fns, fn);
    if (fn->kind == FK_MAIN && !fn->bad) s->main = fn;
}

/* NAME = decorator(...)(f): a new function — f's definition under the
 * decorator, named NAME (messages and compiled symbols use that name) —
 * while f stays the plain function it was, as in Python. */
static kj_fn *apply_decorator(kj_sema *s, const kj_fn *host, const char *name, kj_span name_span,
                              const kj_decor *d, const kj_expr *arg)
{
    kj_fn *src = function_arg(s, host, arg);
    const kj_sym *f = arg->kind == KJ_E_NAME ? kj_sym_find(s, arg->name) : NULL;
    if (!src) {
        const char *dn = !strncmp(d->path, "cuda.", 5) ? d->path : d->path + strlen("numba.");
        kj_diag *dg = arg->kind == KJ_E_NAME && !f
            ? kj_error(s->d, s->src, arg->span, "%s() is applied to '%s', which is not a function "
                       "defined above", dn, arg->name)
            : kj_error(s->d, s->src, arg->span, "%s() is applied to something that is not a "
                       "function", dn);
        kj_diag_hint(dg, "a decorator applies to a function defined with def at module level: "
                         "k = %s(f)", dn);
        return NULL;
    }
    kj_funcdef *def = KJ_NEW(s->a, kj_funcdef);
    *def = *src->def;
    def->name = name;
    def->name_span = name_span;
    def->decorators = NULL;
    def->ndecorators = 0;
    kj_fn *fn = KJ_NEW(s->a, kj_fn);
    fn->def = def;
    fn->kind = FK_HELPER;
    fn->decorator = "";
    resolve_decorator(s, fn, d);
    KJ_PUSH(s->a, s->fns, fn);
    return fn;
}

kj_fn *kj_apply_decorator(kj_sema *s, const kj_fn *host, const char *name, kj_span name_span, const kj_decor *d,
                          const kj_expr *arg)
{
    return apply_decorator(s, host, name, name_span, d, arg);
}

/* f = njit(f): the name now means the compiled function, as in Python; the
 * undecorated one is left unreachable (nothing else can name it). */
static void rebind_function(kj_sema *s, kj_sym *sym, kj_fn *fn)
{
    kj_fn *old = sym->fn;
    sym->fn = fn;
    for (uint32_t i = 0; i < s->fns.n; i++)
        if (s->fns.v[i] == old) {
            memmove(&s->fns.v[i], &s->fns.v[i + 1], (s->fns.n - i - 1) * sizeof *s->fns.v);
            s->fns.n--;
            break;
        }
}

/* A configured decorator kept for later applications; its signatures are
 * checked now, where they are written. */
static const kj_decor *keep_decor(kj_sema *s, const kj_decor *d)
{
    kj_decor *k = KJ_NEW(s->a, kj_decor);
    *k = *d;
    if (k->nargs >= 1) {
        kj_sig *sigs;
        kj_span *spans;
        uint32_t n;
        kj_eval_sigs(s, k->args[0], &sigs, &spans, &n);
    }
    return k;
}

/* The decorator forms of an assignment NAME = value: an application
 * (bound to a new function) or a decorator object (dec = cuda.jit(sig)).
 * Returns true when `value` was one (handled, errors included). */
static bool decorator_assign(kj_sema *s, const kj_fn *host, const char *name, const kj_expr *t,
                             const kj_expr *value, kj_fn **fn, const kj_decor **decor)
{
    kj_decor d;
    const kj_expr *arg;
    bool bad = false;
    *fn = NULL;
    *decor = NULL;
    if (decor_apply(s, host, value, &d, &arg, &bad)) {
        if (host && arg->kind == KJ_E_NAME && !strcmp(arg->name, t->name)) {
            /* f = njit(f) in a function: f is local there, so unbound (Python's UnboundLocalError) */
            kj_diag *dg = kj_error(s->d, s->src, arg->span, "local variable '%s' is used before any value "
                                   "is assigned to it", arg->name);
            kj_diag_hint(dg, "assigning '%s' makes it local to the function; use another name for the "
                             "compiled function", arg->name);
            return true;
        }
        *fn = apply_decorator(s, host, name, t->span, &d, arg);
        return true;
    }
    if (!bad && decor_of(s, host, value, &d, &bad)) {
        *decor = keep_decor(s, &d); /* called == false: jit2 = njit, another name */
        return true;
    }
    return bad;
}

/* bpg, tpb = 2, 8: each name a module constant. Returns false (without
 * reporting) when the value is not a constant tuple of the targets' length. */
static bool resolve_unpack(kj_sema *s, const kj_expr *t, const kj_expr *value)
{
    kj_cval v;
    if (!kj_const_eval(s, value, &v) || v.type->kind != KJ_T_TUPLE || v.n != t->seq.n) return false;
    for (uint32_t i = 0; i < t->seq.n; i++)
        if (t->seq.v[i]->kind != KJ_E_NAME) return false;
    for (uint32_t i = 0; i < t->seq.n; i++) {
        kj_sym *sym = sym_add(s, t->seq.v[i]->name, SYM_CONST, t->seq.v[i]->span);
        if (!sym) continue;
        sym->cval = v.elems[i];
        /* the element's own expression where written in place (a layout string) */
        sym->expr = value->kind == KJ_E_TUPLE ? value->seq.v[i] : NULL;
    }
    return true;
}

/* A module-level assignment binding compile-time objects: constants,
 * decorators, compiled functions, type objects, dtypes. Returns true when it
 * did (or reported why it cannot); false, without reporting, for a value
 * known only when the program runs if `script` (a file without main, whose
 * statements then run in <module>: resolve_script.c). */
static bool resolve_const(kj_sema *s, const kj_stmt *st, bool script)
{
    if (st->assign.ntargets == 1 && st->assign.targets[0]->kind == KJ_E_TUPLE &&
        resolve_unpack(s, st->assign.targets[0], st->assign.value))
        return true;
    if (st->assign.ntargets != 1 || st->assign.targets[0]->kind != KJ_E_NAME) {
        if (script) return false;
        kj_error(s->d, s->src, st->span,
                 "module-level assignments must bind one name (or a tuple of names) to a constant");
        return true;
    }
    const kj_expr *t = st->assign.targets[0];
    kj_fn *fn;
    const kj_decor *dec;
    kj_sym *old = kj_sym_find(s, t->name);
    if (old && old->kind == SYM_FUNC && old->fn->kind != FK_MAIN &&
        decorator_assign(s, NULL, t->name, t, st->assign.value, &fn, &dec)) {
        if (fn) rebind_function(s, old, fn); /* f = njit(f) */
        else if (dec) sym_add(s, t->name, SYM_DECOR, t->span); /* reports the redefinition */
        return true;
    }
    if (decorator_assign(s, NULL, t->name, t, st->assign.value, &fn, &dec)) {
        kj_sym *sym = fn || dec ? sym_add(s, t->name, fn ? SYM_FUNC : SYM_DECOR, t->span) : NULL;
        if (sym && fn) sym->fn = fn;
        if (sym && dec) {
            sym->path = dec->path;
            sym->decor = dec->called ? dec : NULL;
        }
        return true;
    }
    const kj_ntclass *ntc;
    if (kj_resolve_namedtuple(s, st, &ntc)) { /* Point = namedtuple('Point', 'x y'): resolve_namedtuple.c */
        kj_sym *sym = ntc ? sym_add(s, t->name, SYM_NTCLASS, t->span) : NULL;
        if (sym) sym->ntc = ntc;
        return true;
    }
    if (kj_is_typeobj_expr(s, st->assign.value)) { /* sig = void(float64[:]) */
        kj_check_typeobj(s, st->assign.value);
        kj_sym *sym = sym_add(s, t->name, SYM_TYPEOBJ, t->span);
        if (sym) sym->expr = st->assign.value;
        return true;
    }
    const kj_type *rec;
    if (kj_resolve_record_dtype(s, st, &rec)) { /* dt = np.dtype([('x', np.float64), ...]): infer_record.c */
        kj_sym *sym = rec ? sym_add(s, t->name, SYM_DTYPE, t->span) : NULL;
        if (sym) sym->type = rec;
        return true;
    }
    kj_einfo ref;
    if (static_ref(s, st->assign.value, &ref, !script) && ref.kind == EI_DTYPE) {
        kj_sym *sym = sym_add(s, t->name, SYM_DTYPE, t->span);
        if (sym) sym->type = ref.dtype;
        return true;
    }
    kj_cval v;
    bool is_const = kj_const_eval(s, st->assign.value, &v);
    if (!is_const && static_ref(s, st->assign.value, &ref, false) && ref.kind == EI_BUILTIN &&
        (kj_builtin_get(ref.builtin)->flags & KJ_BF_ATTR)) {
        /* comm = MPI.COMM_WORLD: another name for the value */
        kj_sym *sym = sym_add(s, t->name, SYM_BUILTIN, t->span);
        if (sym) sym->builtin = ref.builtin;
        return true;
    }
    if (!is_const && script) return false;
    /* an array frozen into the functions that read it (resolve_frozen.c) */
    if (!is_const && kj_frozen_module_value(s, t->name, st->assign.value)) return true;
    if (!is_const) {
        kj_diag *dg = kj_error(s->d, s->src, st->assign.value->span,
                               "module-level value of '%s' is not a constant expression", t->name);
        kj_diag_hint(dg, "module constants are int, float or bool literals, or expressions of them; "
                         "create arrays inside main (a file without main runs its module-level "
                         "statements instead)");
        return true;
    }
    kj_sym *sym = sym_add(s, t->name, SYM_CONST, t->span);
    if (!sym) return true;
    sym->cval = v;
    sym->expr = st->assign.value;
    return true;
}

/* ---- names host functions bind to compiled functions ---- */

bool kj_inline_decorator(kj_sema *s, kj_fn *host, const kj_expr *e, kj_einfo *out)
{
    const kj_inline_decor *l = NULL;
    for (uint32_t i = 0; i < host->inline_decors.n && !l; i++)
        if (host->inline_decors.v[i].at == e) l = &host->inline_decors.v[i];
    if (!l) {
        kj_decor d;
        const kj_expr *arg;
        bool bad = false;
        kj_inline_decor n = {.at = e};
        s->host = host;
        if (decor_apply(s, host, e, &d, &arg, &bad)) {
            kj_fn *src = function_arg(s, host, arg);
            const char *name = kj_arena_printf(s->a, "%s@%u:%u", src ? src->def->name : "?", e->span.line,
                                               e->span.col);
            n.fn = apply_decorator(s, host, name, e->span, &d, arg);
        } else if (!bad && decor_of(s, host, e, &d, &bad) && d.called) {
            n.decor = keep_decor(s, &d);
        } else if (!bad) {
            s->host = NULL;
            return false;
        }
        s->host = NULL;
        KJ_PUSH(s->a, host->inline_decors, n);
        l = &host->inline_decors.v[host->inline_decors.n - 1];
    }
    memset(out, 0, sizeof *out);
    out->kind = l->fn ? EI_FUNC : l->decor ? EI_DECOR : EI_NONE;
    out->fn = l->fn;
    out->decor = l->decor;
    out->path = l->decor ? l->decor->path : NULL;
    return true;
}

const kj_static_local *kj_static_local_find(const kj_fn *fn, const char *name)
{
    uint32_t k;
    return fn->statics.n && kj_strtab_get(&fn->static_tab, name, &k) ? &fn->statics.v[k] : NULL;
}

bool kj_is_static_assign(const kj_fn *fn, const kj_stmt *st)
{
    if (st->kind != KJ_S_ASSIGN || st->assign.ntargets != 1 || st->assign.targets[0]->kind != KJ_E_NAME)
        return false;
    const kj_static_local *l = kj_static_local_find(fn, st->assign.targets[0]->name);
    return l && l->st == st;
}

/* `k = cuda.jit(f)`, `dec = cuda.jit(sig)`, `k = dec(f)` in the body of an
 * undecorated host function (the numba-cuda test suite declares kernels so):
 * resolved here like their module-level forms, the compiled function named
 * HOST.k. */
/* How many times the block assigns `name` (targets of =, op=, for). */

static uint32_t count_target(const kj_expr *t, const char *name)
{
    if (t->kind == KJ_E_TUPLE || t->kind == KJ_E_LIST) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < t->seq.n; i++) n += count_target(t->seq.v[i], name);
        return n;
    }
    return t->kind == KJ_E_NAME && !strcmp(t->name, name);
}

uint32_t kj_count_assigns(const kj_block *b, const char *name)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        kj_expr *const *t;
        const kj_block *in[2];
        for (uint32_t k = 0, nt = kj_stmt_targets(b->v[i], &t); k < nt; k++) n += count_target(t[k], name);
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++) n += kj_count_assigns(in[k], name);
    }
    return n;
}

/* sig = 'void(int64[:], float64[:])', sig = (float32[::1], float32): a name a
 * host function assigns once to a string or a Numba type object (how
 * numba-cuda's tests hold signatures). It stands for that value in the whole
 * body: a decorator may take it, and a string reads as the constant. */
static void scan_sig_locals(kj_sema *s, kj_fn *host, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++) scan_sig_locals(s, host, in[k]);
        switch (st->kind) {
        case KJ_S_ASSIGN: {
            const kj_expr *t = st->assign.targets[0], *v = st->assign.value;
            if (st->assign.ntargets != 1 || t->kind != KJ_E_NAME) break;
            bool strs = v->kind == KJ_E_LIST && v->seq.n;
            for (uint32_t k = 0; strs && k < v->seq.n; k++) /* signatures, not a list of words: ['a', 'b'] */
                strs = v->seq.v[k]->kind == KJ_E_STR && strchr(v->seq.v[k]->str.s, '(');
            if (v->kind == KJ_E_STR && v->str.bytes) break; /* b'...': a value (lower_bytes.c) */
            if (v->kind != KJ_E_STR && !strs && !kj_is_typeobj_expr(s, v)) break;
            if (kj_count_assigns(&host->def->body, t->name) != 1 ||
                !kj_strtab_put(s->a, &host->static_tab, t->name, host->statics.n))
                break;
            kj_static_local l = {.name = t->name, .st = st, .expr = v};
            KJ_PUSH(s->a, host->statics, l);
            break;
        }
        default: break;
        }
    }
}

/* f = lambda x: ... or def f(x): ... in a host function (parser_lambda.c
 * made it a module-level function): f stands for it, as k = cuda.jit(g)
 * does. */
static bool lambda_local(kj_sema *s, kj_fn *host, const kj_expr *t, const kj_stmt *st)
{
    const kj_expr *v = st->assign.value;
    const kj_sym *sym = v->kind == KJ_E_NAME ? kj_sym_find(s, v->name) : NULL;
    if (!sym || sym->kind != SYM_FUNC || !sym->fn->def->encl) return false;
    if (kj_count_assigns(&host->def->body, t->name) != 1 ||
        !kj_strtab_put(s->a, &host->static_tab, t->name, host->statics.n))
        return false;
    kj_static_local l = {.name = t->name, .st = st, .fn = sym->fn};
    KJ_PUSH(s->a, host->statics, l);
    return true;
}

static void scan_statics(kj_sema *s, kj_fn *host, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++) scan_statics(s, host, in[k]);
        switch (st->kind) {
        case KJ_S_ASSIGN: {
            const kj_expr *t = st->assign.targets[0];
            if (st->assign.ntargets != 1 || t->kind != KJ_E_NAME) break;
            const char *name = kj_arena_printf(s->a, "%s.%s", host->def->name, t->name);
            kj_fn *fn;
            const kj_decor *dec;
            if (kj_is_static_assign(host, st)) break; /* a signature local */
            if (lambda_local(s, host, t, st)) break;
            if (!decorator_assign(s, host, name, t, st->assign.value, &fn, &dec) || (!fn && !dec)) break;
            kj_static_local l = {.name = t->name, .st = st, .fn = fn, .decor = dec};
            if (!kj_strtab_put(s->a, &host->static_tab, t->name, host->statics.n)) {
                kj_diag *dg = kj_error(s->d, s->src, t->span, "'%s' is bound to a %s twice", t->name,
                                       fn ? "compiled function" : "decorator");
                kj_diag_hint(dg, "use a new name for each compiled function");
                break;
            }
            KJ_PUSH(s->a, host->statics, l);
            break;
        }
        default: break;
        }
    }
}

static void check_rebind(kj_sema *s, const kj_fn *host, const kj_expr *t, const kj_stmt *st)
{
    if (t->kind == KJ_E_TUPLE || t->kind == KJ_E_LIST) {
        for (uint32_t i = 0; i < t->seq.n; i++) check_rebind(s, host, t->seq.v[i], st);
        return;
    }
    const kj_static_local *l = t->kind == KJ_E_NAME ? kj_static_local_find(host, t->name) : NULL;
    if (!l || l->st == st) return;
    kj_diag *dg = kj_error(s->d, s->src, t->span, "'%s' names a compiled %s (line %u) and cannot be "
                           "assigned another value", t->name, l->fn ? "function" : "decorator",
                           l->st->span.line);
    kj_diag_hint(dg, "use another name for the value");
}

/* A name bound to a compiled function is that function in the whole body:
 * another assignment to it is an error (kjit has no function values yet). */
static void check_rebinds(kj_sema *s, const kj_fn *host, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_expr *const *t;
        const kj_block *in[2];
        for (uint32_t k = 0, nt = kj_stmt_targets(b->v[i], &t); k < nt; k++) check_rebind(s, host, t[k], b->v[i]);
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++) check_rebinds(s, host, in[k]);
    }
}

static void resolve_host_statics(kj_sema *s)
{
    uint32_t n = s->fns.n; /* the scan adds functions */
    for (uint32_t i = 0; i < n; i++) {
        kj_fn *fn = s->fns.v[i];
        if (fn->kind != FK_MAIN && fn->kind != FK_HELPER) continue;
        s->host = fn;
        scan_sig_locals(s, fn, &fn->def->body);
        scan_statics(s, fn, &fn->def->body);
        s->host = NULL;
        if (!fn->statics.n) continue;
        check_rebinds(s, fn, &fn->def->body);
        for (uint32_t k = 0; k < fn->def->nparams; k++)
            if (kj_static_local_find(fn, fn->def->params[k].name))
                kj_error(s->d, s->src, fn->def->params[k].span,
                         "parameter '%s' is also bound to a compiled function in the body",
                         fn->def->params[k].name);
    }
}

/* `if __name__ == "__main__":` — accepted and ignored: kjit calls main. */
bool kj_is_main_guard(const kj_stmt *st)
{
    const kj_expr *c = st->if_.cond;
    if (c->kind != KJ_E_COMPARE || c->cmp.n != 2 || c->cmp.ops[0] != KJ_CMP_EQ) return false;
    const kj_expr *l = c->cmp.operands[0], *r = c->cmp.operands[1];
    if (l->kind == KJ_E_STR) { const kj_expr *x = l; l = r; r = x; }
    return l->kind == KJ_E_NAME && !strcmp(l->name, "__name__") && r->kind == KJ_E_STR &&
           !strcmp(r->str.s, "__main__") && st->if_.els.n == 0;
}

bool kj_resolve(kj_sema *s)
{
    const kj_block *body = &s->mod->body;
    /* Imports first, wherever they stand, so decorators can see them. */
    for (uint32_t i = 0; i < body->n; i++) {
        const kj_stmt *st = body->v[i];
        if (st->kind == KJ_S_IMPORT) resolve_import(s, st);
        else if (st->kind == KJ_S_FROM_IMPORT) resolve_from_import(s, st);
    }
    kj_script sc;
    bool script = kj_script_begin(s, &sc);
    for (uint32_t i = 0; i < body->n; i++) {
        const kj_stmt *st = body->v[i];
        switch (st->kind) {
        case KJ_S_IMPORT: case KJ_S_FROM_IMPORT: case KJ_S_PASS: case KJ_S_GLOBAL: break; /* global: no-op here */
        case KJ_S_ASSIGN:
            if (!script) resolve_const(s, st, false);
            else {
                s->module_scope = true;
                if (!kj_script_binds_once(s, st) || !resolve_const(s, st, true)) kj_script_add(s, &sc, st);
                s->module_scope = false;
            }
            break;
        case KJ_S_DEF: resolve_def(s, st); break;
        case KJ_S_EXPR:
            if (st->expr->kind == KJ_E_STR) break; /* docstring */
            /* fallthrough */
        default:
            if (script) kj_script_add(s, &sc, st);
            else if (st->kind == KJ_S_IF && kj_is_main_guard(st)) break;
            else
                kj_diag_hint(kj_error(s->d, s->src, st->span,
                                      "only imports, constants, functions and the `if __name__ == "
                                      "\"__main__\":` block are allowed at module level"),
                             "this file defines main(), which kjit runs; a file without main runs its "
                             "module-level statements as a script");
            break;
        }
    }
    if (script && sc.body.n) { /* a library of functions alone has nothing to run */
        kj_fn *fn = kj_script_end(s, &sc);
        kj_sym *sym = sym_add(s, KJ_SCRIPT_NAME, SYM_FUNC, fn->def->name_span);
        if (sym) sym->fn = fn;
        KJ_PUSH(s->a, s->fns, fn);
        s->main = fn;
    }
    resolve_host_statics(s);
    return !kj_has_errors(s->d);
}
