/* SPDX-License-Identifier: BSD-2-Clause */
/* infer — typing of calls: built-ins, user functions (specialisation),
 * kernel launches and ufunc calls. */
#include "sema_int.h"

#include <stdio.h>
#include <string.h>


/* A list display written as a built-in's argument (np.zeros([n, m]),
 * np.array([[1, 2], [3, 4]])): typed as a tuple, nested displays too. */
static const kj_type *type_list_display(kj_ictx *ic, const kj_expr *e)
{
    kj_einfo *ei = &ic->sp->ei[e->id];
    memset(ei, 0, sizeof *ei);
    uint32_t n = e->seq.n;
    const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        const kj_expr *v = e->seq.v[i];
        if (!(el[i] = v->kind == KJ_E_LIST ? type_list_display(ic, v) : kj_value_type(ic, v))) return NULL;
    }
    ei->kind = EI_VALUE;
    ei->type = kj_t_tuple(ic->s->types, el, n);
    ei->is_const = kj_const_eval(ic->s, e, &ei->cval);
    return ei->type;
}

/* An argument: a value, a dtype (np.float32 passed as dtype=), a list
 * literal standing for a shape (np.zeros([n, m])), or, when `fns` (the
 * argument of a user function), a function (apply(add, x)). */
enum { ARG_FNS = 1, ARG_LISTS = 2, ARG_OPT = 4 }; /* type_arg's modes: functions as values; list displays as lists;
                                                  an Optional as it is (infer_optional.c) */

/* Does built-in b take a list display as a list (print, len, list methods),
 * not as the tuple a NumPy shape or np.array's data is? */
static int list_args(int b)
{
    const char *p = kj_builtin_get((kj_builtin)b)->path;
    /* mpi4py's MPI.Request.Waitall([r1, r2]) takes requests, which no list holds;
     * array methods take shapes (a.reshape([4, 4])) as NumPy's do */
    bool tuples = !strncmp(p, "np.", 3) || !strncmp(p, "cuda.", 5) || !strncmp(p, "array.", 6) ||
                  kj_builtin_has(b, KJ_BF_MPI);
    return tuples ? 0 : ARG_LISTS;
}

static const kj_type *type_arg(kj_ictx *ic, const kj_expr *e, kj_barg *out, int mode)
{
    memset(out, 0, sizeof *out);
    out->span = e->span;
    bool fns = mode & ARG_FNS;
    kj_einfo *ei;
    if (e->kind == KJ_E_LIST && !(mode & ARG_LISTS)) {
        if (!type_list_display(ic, e)) return NULL;
        ei = &ic->sp->ei[e->id];
    } else {
        ei = kj_type_expr(ic, e);
    }
    if (!fns && ei->kind == EI_BUILTIN && (ei->builtin == KJ_B_COMPLEX || ei->builtin == KJ_B_FLOAT ||
                                           ei->builtin == KJ_B_INT || ei->builtin == KJ_B_BOOL)) {
        /* dtype=complex, dtype=float: Python's types as NumPy reads them */
        kj_types *T = ic->s->types;
        ei->dtype = ei->builtin == KJ_B_COMPLEX ? kj_t_complex(T, 128) : ei->builtin == KJ_B_FLOAT ? kj_t_float(T, 64)
                  : ei->builtin == KJ_B_INT ? kj_t_int(T, 64, true) : kj_t_bool(T);
        ei->kind = EI_DTYPE;
    }
    if (ei->kind == EI_DTYPE) {
        out->type = kj_t_dtype(ic->s->types, ei->dtype);
        return out->type;
    }
    if (fns && (out->type = kj_func_value_type(ic, ei))) return out->type; /* apply(add, x): specialised on add */
    if (ei->kind != EI_VALUE) {
        if (ei->kind != EI_NONE) kj_value_type(ic, e); /* reports what it is */
        return NULL;
    }
    out->type = mode & ARG_OPT ? kj_ei_raw(ei) : ei->type;
    out->is_const = ei->is_const;
    if (ei->is_const && ei->cval.type) {
        bool is_float = ei->cval.type->kind == KJ_T_FLOAT;
        double f = ei->cval.f;
        /* ival of a float constant only when it converts (not nan/inf/huge). */
        out->ival = !is_float ? ei->cval.i : (f > -9.2e18 && f < 9.2e18) ? (int64_t)f : 0;
        out->fval = is_float ? f : (double)ei->cval.i;
        if (ei->cval.type->kind == KJ_T_STR) out->sval = ei->cval.s;
    }
    return out->type;
}

static const kj_expr *call_arg_expr(const kj_expr *call, int32_t m);

/* ---- dtypes as values ---- */

/* The scalar a NumPy dtype string names ('int32', 'float64', 'f4', 'i8',
 * 'float', 'bool', ...), or NULL. */
const kj_type *kj_dtype_by_str(kj_types *T, const char *s)
{
    static const struct { const char *code, *name; } codes[] = {
        {"f4", "float32"}, {"f8", "float64"}, {"i1", "int8"}, {"i2", "int16"}, {"i4", "int32"},
        {"i8", "int64"}, {"u1", "uint8"}, {"u2", "uint16"}, {"u4", "uint32"}, {"u8", "uint64"},
        {"b1", "bool_"}, {"?", "bool_"}, {"float", "float64"}, {"int", "int64"}, {"bool", "bool_"},
        {"d", "float64"}, {"f", "float32"}, {"l", "int64"}, {"i", "int32"}, {"B", "uint8"},
        {"complex", "complex128"}, {"D", "complex128"}, {"F", "complex64"}};
    if (*s == '<' || *s == '=' || *s == '|') s++; /* byte order of a little-endian machine */
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (!strcmp(codes[i].code, s)) return kj_scalar_by_name(T, codes[i].name);
    const kj_type *dt = kj_dt_dtype_by_str(T, s); /* 'datetime64[D]', 'm8[s]': infer_datetime.c */
    return dt ? dt : kj_scalar_by_name(T, s);
}

/* A dtype given as a constant string where a dtype is expected: folded into
 * the dtype (the expression then lowers as a dtype constant). NULL after an
 * error (NumPy's TypeError: data type 'x' not understood). */
static const kj_type *fold_dtype_str(kj_ictx *ic, const kj_expr *e)
{
    kj_einfo *ei = &ic->sp->ei[e->id];
    if (!ei->is_const || !ei->cval.type || ei->cval.type->kind != KJ_T_STR) return NULL;
    const kj_type *t = kj_dtype_by_str(ic->s->types, ei->cval.s);
    if (!t) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "data type '%s' not understood", ei->cval.s);
        kj_diag_hint(dg, "name a NumPy dtype such as 'float32', 'int64' or 'f8'");
        return NULL;
    }
    ei->kind = EI_DTYPE;
    ei->dtype = t;
    return kj_t_dtype(ic->s->types, t);
}

/* np.dtype(x): x is a dtype name ('float32'), a type (np.float32) or a dtype
 * (a.dtype). The result is the dtype itself, a compile-time value. */
static kj_einfo *dtype_fn_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (e->call.nargs != 1 || e->call.nkw) {
        kj_error(ic->d, ic->s->src, e->span, "np.dtype() takes one argument here: a dtype name or a type");
        return ei_value(ei, NULL);
    }
    const kj_expr *a = e->call.args[0];
    kj_einfo *ai = kj_type_expr(ic, a);
    const kj_type *t = ai->kind == EI_DTYPE ? ai->dtype
                     : ai->kind == EI_VALUE && ai->type && ai->type->kind == KJ_T_DTYPE ? ai->type->elem
                     : NULL;
    if (!t && ai->kind == EI_VALUE && ai->type && ai->type->kind == KJ_T_STR) {
        const kj_type *d = fold_dtype_str(ic, a);
        if (!d) return ei_value(ei, NULL);
        t = d->elem;
    }
    if (!t) {
        if (ai->kind != EI_NONE)
            kj_error(ic->d, ic->s->src, a->span, "np.dtype() takes a constant dtype name such as "
                     "'float32' or a type such as np.float32");
        return ei_value(ei, NULL);
    }
    ei->kind = EI_DTYPE;
    ei->dtype = t;
    return ei;
}

/* The name of the j-th parameter in a built-in's parameter list. */
static bool param_named(const char *params, int j, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = params; *p;) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == '*') return false; /* after *args, positions do not map */
        if (!j--) return !strncmp(p, name, n) && (p[n] == '=' || p[n] == ',' || !p[n]);
        while (*p && *p != ',') p++;
    }
    return false;
}

/* dtype='int32' in a built-in call: the string becomes the dtype; so does a
 * structured dtype's list or dict of fields. */
static bool fold_dtype_args(kj_ictx *ic, const kj_expr *e, int b, kj_barg *bound, const int32_t *map,
                            int nb)
{
    bool ok = true;
    for (int j = 0; j < nb; j++) {
        if (!bound[j].type || map[j] == INT32_MIN || !param_named(kj_builtin_get(b)->params, j, "dtype")) continue;
        const kj_expr *x = call_arg_expr(e, map[j]);
        if (x->kind == KJ_E_LIST || x->kind == KJ_E_DICT) { /* dtype=[('x', 'f8'), ...]: infer_record.c */
            const kj_type *rec = kj_record_dtype_display(ic->s, x);
            kj_einfo *xi = &ic->sp->ei[x->id];
            if (rec) xi->kind = EI_DTYPE, xi->dtype = rec, bound[j].type = kj_t_dtype(ic->s->types, rec);
            else ok = false;
            continue;
        }
        if (bound[j].type->kind != KJ_T_STR) continue;
        if (!ic->sp->ei[x->id].is_const) continue; /* not a constant: the table reports the str */
        const kj_type *d = fold_dtype_str(ic, x);
        if (d) bound[j].type = d;
        else ok = false;
    }
    return ok;
}

/* ---- built-ins ---- */

/* The expression a bound argument came from (see kj_builtin_bind's argmap). */
static const kj_expr *call_arg_expr(const kj_expr *call, int32_t m)
{
    return m >= 0 ? call->call.args[m] : call->call.kw[-1 - m].value;
}

static bool check_builtin_context(kj_ictx *ic, int b, kj_span sp)
{
    const kj_builtin_info *bi = kj_builtin_get(b);
    bool dev = kj_is_device_ctx(ic->sp);
    if ((bi->flags & KJ_BF_HOST) && dev) {
        kj_error(ic->d, ic->s->src, sp,
                 "%s() is only available in host code, not in kernels, device functions or ufuncs",
                 bi->path);
        return false;
    }
    if ((bi->flags & KJ_BF_DEV) && !dev) {
        kj_error(ic->d, ic->s->src, sp,
                 "%s() can only be used inside a @cuda.jit kernel or device function", bi->path);
        return false;
    }
    return true;
}

/* The constant-argument rules the table cannot express: shapes of shared
 * and local arrays, cuda.grid's dimension count. */
static bool check_const_args(kj_ictx *ic, int b, const kj_barg *args, uint32_t n)
{
    if ((b == KJ_B_SHARED_ARRAY || b == KJ_B_LOCAL_ARRAY) && n >= 1 && args[0].type &&
        !args[0].is_const) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, args[0].span,
                               "%s array shape must be a constant expression",
                               b == KJ_B_SHARED_ARRAY ? "shared" : "local");
        kj_diag_hint(dg, "use literals or module constants such as TPB = 16; "
                         "for a run-time size use shape 0 and the launch's shared-memory size");
        return false;
    }
    if ((b == KJ_B_CUDA_GRID || b == KJ_B_CUDA_GRIDSIZE) && n >= 1 && args[0].type &&
        !args[0].is_const) {
        kj_error(ic->d, ic->s->src, args[0].span, "%s() needs a constant 1, 2 or 3",
                 kj_builtin_get(b)->path);
        return false;
    }
    return true;
}

/* The limits a GPU puts on the arrays of cuda.shared.array (static shared
 * memory per block) and cuda.local.array (local memory per thread, sm_90):
 * checked here, for every target, as the GPU would refuse them. */
enum { MAX_STATIC_SHARED = 48 * 1024, MAX_LOCAL = 512 * 1024 };

/* The bytes of a shared or local array of type t whose constant shape is
 * `shape` (an int or a tuple of ints); saturates at INT64_MAX. */
static int64_t const_array_bytes(const kj_cval *shape, const kj_type *t)
{
    int64_t n = t->elem->kind == KJ_T_BOOL ? 1 : t->elem->bits / 8;
    uint32_t nd = shape->elems ? shape->n : 1;
    for (uint32_t k = 0; k < nd; k++) {
        int64_t d = shape->elems ? shape->elems[k].i : shape->i;
        if (d < 0) return 0; /* a negative dimension is reported elsewhere */
        if (__builtin_mul_overflow(n, d, &n)) return INT64_MAX;
    }
    return n;
}

/* cuda.shared.array / cuda.local.array over the device's limit: an error
 * with the size and the limit. */
static bool check_array_size(kj_ictx *ic, int b, const kj_expr *call, const kj_expr *shape,
                             const kj_type *t)
{
    const kj_einfo *si = &ic->sp->ei[shape->id];
    if (!t || t->kind != KJ_T_ARRAY || !si->is_const) return true;
    int64_t bytes = const_array_bytes(&si->cval, t);
    bool shared = b == KJ_B_SHARED_ARRAY;
    int64_t limit = shared ? MAX_STATIC_SHARED : MAX_LOCAL;
    if (bytes <= limit) return true;
    kj_diag *dg = kj_error(ic->d, ic->s->src, call->span,
                           "cuda.%s.array of %lld bytes exceeds the %lld-byte %s", shared ? "shared" : "local",
                           (long long)bytes, (long long)limit,
                           shared ? "static shared memory limit per block" : "local memory limit per thread");
    kj_diag_hint(dg, "the GPU would refuse it; use a smaller array, or global memory (an array "
                     "passed to the kernel)");
    return false;
}

/* np.load(PATH) with a constant path: the array's type comes from the
 * file's header, read now (relative paths resolve against the working
 * directory, as at run time, which checks the file still matches). */
static const kj_type *npy_file_type(kj_ictx *ic, const kj_expr *path_expr)
{
    kj_einfo *pi = &ic->sp->ei[path_expr->id];
    if (!pi->is_const || !pi->cval.type || pi->cval.type->kind != KJ_T_STR) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, path_expr->span,
                               "np.load needs a constant path: kjit reads the file's dtype and "
                               "shape when it compiles");
        kj_diag_hint(dg, "write np.load(\"data.npy\") or use a module constant");
        return NULL;
    }
    const char *dtype = NULL;
    bool fortran = false;
    int ndim = 0;
    int64_t shape[8];
    char err[512] = "np.load of a constant path needs a .npy reader (none was given to the compiler)";
    kj_npy_info_fn info = ic->s->opt->npy_info;
    if (!info || !info(pi->cval.s, &dtype, &fortran, &ndim, shape, err, sizeof err)) {
        kj_error(ic->d, ic->s->src, path_expr->span, "%s", err);
        return NULL;
    }
    if (ndim < 1 || ndim > 4) {
        kj_error(ic->d, ic->s->src, path_expr->span,
                 "'%s' holds a %d-dimensional array; kjit arrays have 1 to 4 dimensions",
                 pi->cval.s, ndim);
        return NULL;
    }
    const kj_type *el = kj_scalar_by_name(ic->s->types, dtype);
    return kj_t_array(ic->s->types, el, ndim, fortran && ndim > 1 ? KJ_LAYOUT_F : KJ_LAYOUT_C);
}

/* A built-in call's typed einfo: which built-in, its bound arguments and
 * where they came from (lowering reads them). */
static kj_einfo *ei_bound(kj_einfo *ei, int b, kj_barg *bound, int32_t *map, int nb)
{
    ei->builtin = b;
    ei->bound = bound;
    ei->argmap = map;
    ei->nbound = nb;
    return ei;
}

/* np.add(x1, x2) and the other operator ufuncs (kj_builtin_operator): the
 * operator's typing, on the bound arguments; lowering then emits the
 * operator (lower.c lower_operator). */
static kj_einfo *operator_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, int b, const kj_opufunc *o,
                               kj_barg *bound, int32_t *map, int nb)
{
    const kj_type *t = NULL, *opt = NULL;
    const kj_type *x = bound[0].type, *y = nb > 1 ? bound[1].type : x;
    if (kj_infer_pyop_inplace(ic, ei, b, (kj_binop)o->op, x, y, e->span, &t)) /* infer_operator.c */
        o = NULL;
    else switch (o->kind) {
    case KJ_OPU_BINARY: case KJ_OPU_SQUARE: t = kj_binop_type(ic, (kj_binop)o->op, x, y, e->span, &opt); break;
    case KJ_OPU_COMPARE: t = kj_compare_type(ic, e, (kj_cmpop)o->op, x, y, &opt); break;
    case KJ_OPU_UNARY: t = kj_unary_type(ic, (kj_unop)o->op, x, e->span); break;
    case KJ_OPU_LOGICAL: /* bools of the operands' broadcast shape, as a comparison's */
        t = kj_compare_type(ic, e, KJ_CMP_NE, x, y, &opt);
        break;
    }
    ei_value(ei, t);
    if (o) ei->optype = opt;
    return ei_bound(ei, b, bound, map, nb);
}

static kj_einfo *builtin_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, int b,
                              const kj_expr *recv, const kj_type *target)
{
    uint32_t np = e->call.nargs, nk = e->call.nkw;
    kj_barg *pos = KJ_NEWN(ic->s->a, kj_barg, np + 1);
    kj_barg *kw = KJ_NEWN(ic->s->a, kj_barg, nk + 1);
    const char **kwn = KJ_NEWN(ic->s->a, const char *, nk + 1);
    bool ok = true;
    int mode = list_args(b) | (b == KJ_B_PRINT ? ARG_OPT : 0); /* print(x) shows None or x's value */
    for (uint32_t i = 0; i < np; i++) ok = type_arg(ic, e->call.args[i], &pos[i], mode) && ok;
    for (uint32_t i = 0; i < nk; i++) {
        kwn[i] = e->call.kw[i].name;
        if (kj_sort_key_kw(b, kwn[i])) /* a function value: infer_sortkey.c */
            ok = kj_type_sort_key_arg(ic, e->call.kw[i].value, &kw[i]) && ok;
        else
            ok = type_arg(ic, e->call.kw[i].value, &kw[i], list_args(b)) && ok;
    }
    if (!ok || !check_builtin_context(ic, b, e->span)) return ei_value(ei, NULL);
    kj_ufout *uo = NULL; /* np.add(a, b, out): infer_ufunc_out.c */
    if (!kj_ufunc_out_split(ic, e, b, pos, &np, kwn, kw, &nk, &uo)) return ei_value(ei, NULL);
    if (b == KJ_B_NP_WHERE && np == 1 && nk == 0) b = KJ_B_NP_NONZERO; /* np.where(condition) */
    uint32_t max = np + nk + 8;
    kj_barg *bound = KJ_NEWN(ic->s->a, kj_barg, max + 1);
    int32_t *map = KJ_NEWN(ic->s->a, int32_t, max + 1);
    uint32_t off = 0;
    if (recv) { /* the receiver of a method is its first bound argument */
        bound[0].type = ic->sp->ei[recv->id].type;
        bound[0].span = recv->span;
        if (ic->sp->ei[recv->id].is_const && bound[0].type && bound[0].type->kind == KJ_T_STR) /* "{}".format */
            bound[0].is_const = true, bound[0].sval = ic->sp->ei[recv->id].cval.s;
        map[0] = INT32_MAX; /* marks the receiver */
        off = 1;
    }
    int nb = kj_builtin_bind(b, pos, np, kwn, kw, nk, e->span, ic->s->src, ic->d, bound + off,
                             map + off, max - off);
    kj_ufunc_out_fixmap(uo, map + off, nb);
    if (nb >= 1 && (b == KJ_B_SHARED_ARRAY || b == KJ_B_LOCAL_ARRAY) && !bound[off].is_const && map[off] != INT32_MAX)
        kj_local_const_shape(ic, call_arg_expr(e, map[off]), &bound[off]); /* N = 100; shared.array(N, t) */
    if (nb < 0 || !check_const_args(ic, b, bound + off, (uint32_t)nb) ||
        !fold_dtype_args(ic, e, b, bound + off, map + off, nb))
        return ei_value(ei, NULL);
    nb += (int)off;
    if ((b == KJ_B_ARR_TRANSPOSE || b == KJ_B_NP_TRANSPOSE) && nb > 1 && bound[1].type &&
        bound[1].type->kind != KJ_T_NONE && kj_is_device_ctx(ic->sp)) { /* a view made by the runtime */
        kj_error(ic->d, ic->s->src, e->span, "transpose with axes is supported in host code, not in device code");
        return ei_value(ei, NULL);
    }
    kj_opufunc o;
    if (kj_builtin_operator(b, &o)) return kj_ufunc_out_finish(ic, e, uo, operator_call(ic, e, ei, b, &o, bound, map, nb));
    if (b == KJ_B_NP_LOAD && !(target = npy_file_type(ic, call_arg_expr(e, map[0]))))
        return ei_value(ei, NULL);
    const kj_type **conv = KJ_NEWN(ic->s->a, const kj_type *, (uint32_t)nb + 1);
    const kj_type *t = kj_builtin_type(ic->s->types, b, target, bound, (uint32_t)nb, e->span,
                                       ic->s->src, ic->d, conv);
    if (t && (b == KJ_B_SORTED || b == KJ_B_LIST_SORT)) t = kj_type_sort_key_call(ic, e, b, t, bound, map, nb);
    if ((b == KJ_B_SHARED_ARRAY || b == KJ_B_LOCAL_ARRAY) && nb > 0 &&
        !check_array_size(ic, b, e, call_arg_expr(e, map[0]), t))
        t = NULL;
    bool over_array = b == KJ_B_SUM || b == KJ_B_ANY || b == KJ_B_ALL || ((b == KJ_B_MAX || b == KJ_B_MIN) && nb == 1);
    if (t && over_array && bound[0].type && bound[0].type->kind == KJ_T_ARRAY && kj_is_device_ctx(ic->sp)) {
        /* lowered to np.sum / np.max / np.min, which are host reductions */
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span,
                               "%s() of an array is supported in host code and @jit functions, not in device code",
                               kj_builtin_get(b)->path);
        kj_diag_hint(dg, "loop over the elements");
        t = NULL;
    }
    if (t && b == KJ_B_PRINT && kj_is_device_ctx(ic->sp))
        for (int i = 0; i < nb; i++)
            if (bound[i].type && bound[i].type->kind != KJ_T_STR && !kj_is_scalar(bound[i].type)) {
                kj_error(ic->d, ic->s->src, bound[i].span,
                         "print in device code takes numbers and strings, not %s",
                         kj_type_str(bound[i].type));
                t = NULL;
            }
    ei_value(ei, t);
    ei_bound(ei, b, bound, map, nb);
    ei->conv = conv;
    /* For a tuple (cuda.grid(2)), nonneg covers every element. */
    ei->nonneg = t && kj_builtin_has(b, KJ_BF_NONNEG);
    return kj_ufunc_out_finish(ic, e, uo, ei);
}

/* ---- user functions ---- */

/* Bind call arguments to a user function's parameters (defaults filled in
 * from module-level constants). `types` receives one type per parameter,
 * `map` where each came from (k: positional k, -1-k: keyword k, INT32_MIN:
 * the default). */
static bool bind_user_args(kj_ictx *ic, const kj_expr *e, const kj_funcdef *def,
                           const kj_type **types, int32_t *map)
{
    uint32_t np = def->nparams;
    for (uint32_t i = 0; i < np; i++) { types[i] = NULL; map[i] = INT32_MIN; }
    if (def->vararg) return kj_bind_varargs(ic, e, def, types, map); /* infer_varargs.c */
    if (e->call.nargs > np) {
        kj_error(ic->d, ic->s->src, e->span, "%s() takes %u argument%s but %u were given",
                 def->name, np, np == 1 ? "" : "s", e->call.nargs);
        return false;
    }
    bool ok = true;
    for (uint32_t i = 0; i < e->call.nargs; i++) {
        kj_barg a;
        types[i] = type_arg(ic, e->call.args[i], &a, ARG_FNS | ARG_LISTS | ARG_OPT);
        map[i] = (int32_t)i;
        ok = ok && types[i];
    }
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        const kj_keyword *kw = &e->call.kw[k];
        uint32_t i = 0;
        while (i < np && strcmp(def->params[i].name, kw->name)) i++;
        if (i == np) {
            kj_error(ic->d, ic->s->src, kw->span, "%s() got an unexpected keyword argument '%s'",
                     def->name, kw->name);
            ok = false;
            continue;
        }
        if (map[i] != INT32_MIN) {
            kj_error(ic->d, ic->s->src, kw->span, "%s() got multiple values for argument '%s'",
                     def->name, kw->name);
            ok = false;
            continue;
        }
        kj_barg a;
        types[i] = type_arg(ic, kw->value, &a, ARG_FNS | ARG_LISTS | ARG_OPT);
        map[i] = -1 - (int32_t)k;
        ok = ok && types[i];
    }
    for (uint32_t i = 0; i < np && ok; i++) {
        if (map[i] != INT32_MIN) continue;
        kj_cval cv;
        if (!def->params[i].def) {
            kj_error(ic->d, ic->s->src, e->span, "%s() missing required argument '%s'", def->name,
                     def->params[i].name);
            ok = false;
        } else if (kj_const_eval(ic->s, def->params[i].def, &cv)) {
            types[i] = cv.type;
        } else {
            kj_error(ic->d, ic->s->src, def->params[i].def->span,
                     "default value of '%s' must be a constant expression", def->params[i].name);
            ok = false;
        }
    }
    return ok;
}

/* NumPy's "safe" casting between scalars: no value can change. A weak
 * literal fits any type of its kind or wider (NEP 50). */
bool kj_can_cast_safe(const kj_type *from, const kj_type *to)
{
    if (from == to) return true;
    if (!kj_is_scalar(from) || !kj_is_scalar(to)) return false;
    if (from->kind == KJ_T_BOOL) return true;
    if (from->kind == KJ_T_COMPLEX || to->kind == KJ_T_COMPLEX) {
        /* only to a complex; a real goes where its complex part holds it */
        if (to->kind != KJ_T_COMPLEX) return false;
        if (from->kind == KJ_T_COMPLEX || from->weak) return from->kind != KJ_T_COMPLEX || to->bits >= from->bits;
        if (from->kind == KJ_T_FLOAT) return from->bits <= to->bits / 2;
        return to->bits == 128 || from->bits <= 16;
    }
    if (from->weak) return from->kind == KJ_T_INT ? to->kind != KJ_T_BOOL : to->kind == KJ_T_FLOAT;
    if (from->kind == KJ_T_FLOAT)
        return to->kind == KJ_T_FLOAT && to->bits >= from->bits;
    if (to->kind == KJ_T_FLOAT) /* ints: float32 holds int8/16, float64 everything (as NumPy) */
        return to->bits == 64 || from->bits <= 16;
    if (to->kind != KJ_T_INT) return false;
    if (from->is_signed == to->is_signed) return to->bits >= from->bits;
    return !from->is_signed && to->bits > from->bits; /* uint8 → int16, not int8 → uint16 */
}

/* The signature a @vectorize call uses: the first whose parameters every
 * argument casts to safely, as NumPy's (and Numba's) ufunc loop selection.
 * When every input is a Python scalar none is weak (NEP 50: they take
 * NumPy's default types, int64 and float64). */
static const kj_sig *ufunc_sig(kj_types *t, kj_fn *fn, const kj_type *const *args)
{
    bool all_weak = true;
    for (uint32_t i = 0; i < fn->def->nparams; i++) all_weak = all_weak && args[i]->weak;
    for (uint32_t s = 0; s < fn->nsigs; s++) {
        bool ok = true;
        for (uint32_t i = 0; i < fn->sigs[s].nparams && ok; i++)
            ok = kj_can_cast_safe(all_weak ? kj_strong(t, args[i]) : args[i], fn->sigs[s].params[i]);
        if (ok) return &fn->sigs[s];
    }
    return NULL;
}

/* Pick the explicit signature a call uses: NumPy's loop selection for a
 * @vectorize, else Numba's dispatcher's best match (dispatch.c). */
static const kj_sig *match_sig(kj_ictx *ic, kj_fn *fn, const kj_type *const *args, kj_span sp)
{
    if (fn->kind == FK_VECTORIZE) {
        const kj_sig *u = ufunc_sig(ic->s->types, fn, args);
        if (u) return u;
        kj_buf b = {0};
        for (uint32_t i = 0; i < fn->def->nparams; i++)
            kj_buf_printf(&b, "%s%s", i ? ", " : "", kj_type_str(args[i]));
        kj_diag *dg = kj_error(ic->d, ic->s->src, sp,
                               "ufunc '%s' not supported for the input types (%s)", fn->def->name,
                               b.s ? b.s : "");
        kj_buf_free(&b);
        kj_diag_hint(dg, "NumPy picks the first signature the inputs cast to safely; add one, or "
                         "convert the inputs with .astype()");
        return NULL;
    }
    kj_dispatch r = kj_dispatch_sig(ic->s->types, fn, args, fn->def->nparams);
    if (r.sig && !r.tie) return r.sig;
    kj_dispatch_error(ic->d, ic->s->src, sp, ic->s->types, fn, args, fn->def->nparams, r);
    return NULL;
}

static kj_spec *specialise(kj_ictx *ic, kj_fn *fn, const kj_type **args, bool device, kj_span sp)
{
    uint32_t n = fn->def->nparams;
    if (fn->nsigs) {
        const kj_sig *sig = match_sig(ic, fn, args, sp);
        if (!sig) return NULL;
        args = sig->params;
    }
    /* Without signatures, weak literal types stay in the key: inside the
     * function the parameter is a Python scalar, as under NEP 50 in CPython
     * (f(x, 0.5) with float32 x computes x * b in float32). */
    kj_spec *callee = kj_spec_get(ic->s, fn, args, n, device, sp);
    if (!callee) return NULL;
    if (callee->state == SPEC_NEW) kj_infer_spec(ic->s, callee);
    if (ic->report) kj_mark_reachable(ic->s, callee);
    kj_ulog_merge(ic, callee, sp);
    return callee;
}

kj_spec *kj_specialise(kj_ictx *ic, kj_fn *fn, const kj_type **args, bool device, kj_span sp)
{
    return specialise(ic, fn, args, device, sp);
}

static const char *fn_kind_name(kj_fkind k)
{
    switch (k) {
    case FK_KERNEL: return "kernel";
    case FK_DEVICE: return "device function";
    case FK_VECTORIZE: return "@vectorize ufunc";
    case FK_GUVECTORIZE: return "@guvectorize gufunc";
    case FK_JIT: return "@jit function";
    case FK_REDUCE: return "cuda.reduce function";
    default: return "host function";
    }
}

static kj_einfo *ufunc_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn);

static kj_einfo *user_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn)
{
    bool dev = kj_is_device_ctx(ic->sp);
    const char *name = fn->def->name;
    if (fn->bad) return ei_value(ei, NULL);
    switch (fn->kind) {
    case FK_KERNEL: {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span,
                               "kernel '%s' must be launched with a configuration", name);
        kj_diag_hint(dg, "write %s[blocks, threads](...)", name);
        return ei_value(ei, NULL);
    }
    case FK_VECTORIZE: case FK_GUVECTORIZE:
        if (dev) {
            kj_error(ic->d, ic->s->src, e->span,
                     "%s '%s' cannot be called from device code; call a device function instead",
                     fn_kind_name(fn->kind), name);
            return ei_value(ei, NULL);
        }
        return ufunc_call(ic, e, ei, fn);
    case FK_DEVICE:
        if (!dev) {
            kj_error(ic->d, ic->s->src, e->span,
                     "device function '%s' can only be called from kernels and device functions",
                     name);
            return ei_value(ei, NULL);
        }
        break;
    case FK_HELPER: case FK_MAIN:
        if (dev) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, e->span,
                                   "host function '%s' cannot be called from device code", name);
            kj_diag_hint(dg, "decorate it with @cuda.jit(device=True) or @jit");
            return ei_value(ei, NULL);
        }
        break;
    case FK_JIT: break;
    case FK_REDUCE:
        if (dev) {
            kj_error(ic->d, ic->s->src, e->span, "a cuda.reduce reduction is called from host code");
            return ei_value(ei, NULL);
        }
        return kj_type_cuda_reduce_call(ic, e, ei, fn);
    }
    uint32_t n = fn->def->nparams;
    const kj_type **args = KJ_NEWN(ic->s->a, const kj_type *, n + 1);
    int32_t *map = KJ_NEWN(ic->s->a, int32_t, n + 1);
    if (!bind_user_args(ic, e, fn->def, args, map)) return ei_value(ei, NULL);
    kj_spec *callee = specialise(ic, fn, args, dev, e->span);
    if (!callee) return ei_value(ei, NULL);
    ei->callee = callee;
    ei->argmap = map;
    ei->nbound = (int)n;
    if (callee->state == SPEC_FAILED) return ei_value(ei, NULL);
    if (!callee->ret) {
        /* Recursion reached before any return was typed: the fixpoint will
         * come back once a base case has given the return type. */
        /* A callee whose own errors left its return type unknown reports
         * those; only a genuinely unresolved recursion is reported here. */
        if (ic->report && callee->state != SPEC_INFERRING && !callee->reported &&
            kj_report_spec(ic->s, callee) > 0)
            return ei->kind = EI_NONE, ei;
        if (ic->report && !kj_has_errors(ic->d))
            kj_error(ic->d, ic->s->src, e->span,
                     "cannot infer the return type of '%s': its recursion has no base case "
                     "that returns first", name);
        ei->kind = EI_NONE;
        return ei;
    }
    ei->kind = EI_VALUE;
    ei->type = callee->ret;
    return ei;
}

/* ---- kernel launches ---- */

/* blocks or threads: an int or a tuple of 1..3 ints. */
static bool launch_dims_ok(kj_ictx *ic, const kj_expr *e, const char *what)
{
    const kj_type *t = kj_value_type(ic, e);
    if (!t) return false;
    if (t->kind == KJ_T_INT) return true;
    if (t->kind == KJ_T_TUPLE && t->n >= 1 && t->n <= 3) {
        bool ok = true;
        for (uint32_t i = 0; i < t->n; i++) ok = ok && t->elems[i]->kind == KJ_T_INT;
        if (ok) return true;
    }
    kj_error(ic->d, ic->s->src, e->span, "%s must be an int or a tuple of 1 to 3 ints, not %s",
             what, kj_type_str(t));
    return false;
}

/* kernel[blocks, threads] / kernel[blocks, threads, stream, shared_bytes] */
kj_einfo *kj_type_launch_config(kj_ictx *ic, const kj_expr *e, kj_fn *fn)
{
    kj_einfo *ei = &ic->sp->ei[e->id];
    memset(ei, 0, sizeof *ei);
    if (fn->kind != FK_KERNEL) {
        kj_error(ic->d, ic->s->src, e->span,
                 "'%s' is not a @cuda.jit kernel; only kernels are launched with [blocks, threads]",
                 fn->def->name);
        return ei;
    }
    const kj_expr *ix = e->sub.index;
    uint32_t n = ix->kind == KJ_E_TUPLE ? ix->seq.n : 1;
    if (n < 2 || n > 4) {
        kj_error(ic->d, ic->s->src, ix->span,
                 "a launch configuration is [blocks, threads] or [blocks, threads, stream, "
                 "shared_bytes]");
        return ei;
    }
    kj_expr *const *it = ix->seq.v;
    /* Both are checked, so both report. */
    bool blocks_ok = launch_dims_ok(ic, it[0], "the block count");
    bool ok = launch_dims_ok(ic, it[1], "the threads per block") && blocks_ok;
    if (n >= 3) {
        const kj_type *t = kj_value_type(ic, it[2]);
        if (t && !(t->kind == KJ_T_OPAQUE && !strcmp(t->name, "stream")) &&
            t->kind != KJ_T_INT && t->kind != KJ_T_NONE) {
            kj_error(ic->d, ic->s->src, it[2]->span, "the launch stream must be a cuda.stream(), "
                     "not %s", kj_type_str(t));
            ok = false;
        }
    }
    if (n == 4) {
        const kj_type *t = kj_value_type(ic, it[3]);
        if (t && t->kind != KJ_T_INT) {
            kj_error(ic->d, ic->s->src, it[3]->span, "dynamic shared memory size must be an int");
            ok = false;
        }
    }
    if (ok) {
        ei->kind = EI_LAUNCH;
        ei->fn = fn;
    }
    return ei;
}

/* What a kernel may take: an array, a number, or a tuple (nested) of them,
 * which passes as its leaves (codegen/llvm_kargs.c). */
static bool kernel_arg_ok(const kj_type *t)
{
    if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++)
            if (!kernel_arg_ok(t->elems[k])) return false;
        return true;
    }
    return t->kind == KJ_T_ARRAY || kj_is_scalar(t);
}

static kj_einfo *launch_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn, bool forall)
{
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->span,
                 "kernels cannot be launched from device code (dynamic parallelism is not supported)");
        return ei_value(ei, NULL);
    }
    if (fn->bad) return ei_value(ei, NULL);
    uint32_t n = fn->def->nparams;
    const kj_type **args = KJ_NEWN(ic->s->a, const kj_type *, n + 1);
    int32_t *map = KJ_NEWN(ic->s->a, int32_t, n + 1);
    if (!bind_user_args(ic, e, fn->def, args, map)) return ei_value(ei, NULL);
    for (uint32_t i = 0; i < n; i++)
        if (!kernel_arg_ok(args[i])) {
            kj_error(ic->d, ic->s->src, e->span, "kernel argument '%s' must be an array, a "
                     "number or a tuple of them, not %s", fn->def->params[i].name, kj_type_str(args[i]));
            return ei_value(ei, NULL);
        }
    kj_spec *callee = specialise(ic, fn, args, true, e->span);
    if (!callee) return ei_value(ei, NULL);
    if (forall && !kj_forall_check_1d(ic, e, callee)) return ei_value(ei, NULL);
    ei->callee = callee;
    ei->argmap = map;
    ei->nbound = (int)n;
    return ei_value(ei, kj_t_none(ic->s->types));
}

/* ---- ufuncs ---- */

static const kj_type *elem_of(const kj_type *t) { return t->kind == KJ_T_ARRAY ? t->elem : t; }

/* f(a, b[, out=o]) for a @vectorize: scalar kernel per element, broadcast. */
static kj_einfo *vectorize_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn,
                                const kj_type **args, uint32_t n, const kj_type *out, kj_span out_sp)
{
    const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, n + 1);
    int nd = 0;
    for (uint32_t i = 0; i < n; i++) {
        el[i] = elem_of(args[i]);
        if (args[i]->kind == KJ_T_ARRAY && args[i]->ndim > nd) nd = args[i]->ndim;
    }
    if (!fn->nsigs) el = kj_ulog_loop(ic, fn, el, n); /* lazy: the loop Numba's DUFunc runs */
    kj_spec *callee = specialise(ic, fn, el, true, e->span);
    if (!callee) return ei_value(ei, NULL);
    ei->callee = callee;
    if (!callee->ret) return ei_value(ei, NULL);
    if (!kj_is_scalar(callee->ret)) {
        kj_error(ic->d, ic->s->src, e->span, "ufunc '%s' must return a scalar, not %s",
                 fn->def->name, kj_type_str(callee->ret));
        return ei_value(ei, NULL);
    }
    if (out) {
        /* NumPy casts the loop's result into out= under casting='same_kind' */
        const kj_type *r = kj_strong(ic->s->types, callee->ret);
        if (!kj_can_convert(r, out->elem)) {
            kj_diag *dg = kj_ufunc_cast_error(ic, out_sp, fn->def->name, r, out->elem);
            kj_diag_hint(dg, "pass an out= array of dtype %s, or assign the result: o[:] = %s(...)",
                         kj_type_str(r), fn->def->name);
            return ei_value(ei, NULL);
        }
        return ei_value(ei, out);
    }
    if (nd == 0) return ei_value(ei, callee->ret);
    return ei_value(ei, kj_t_array(ic->s->types, callee->ret, nd, KJ_LAYOUT_C));
}

/* g(a, b) or g(a, b, out) for a @guvectorize with layout (n),()->(n). */
static kj_einfo *guvectorize_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn,
                                  const kj_type **args, uint32_t n)
{
    const kj_gu_layout *L = &fn->layout;
    if (n != L->nin && n != L->nin + L->nout) {
        kj_error(ic->d, ic->s->src, e->span, "%s() takes %u inputs (and optionally %u output%s) "
                 "but %u arguments were given", fn->def->name, L->nin, L->nout,
                 L->nout == 1 ? "" : "s", n);
        return ei_value(ei, NULL);
    }
    int loop_nd = 0;
    const kj_type **core = KJ_NEWN(ic->s->a, const kj_type *, L->nin + L->nout + 1);
    for (uint32_t i = 0; i < n; i++) {
        int nd = args[i]->kind == KJ_T_ARRAY ? args[i]->ndim : 0;
        int cd = (int)L->args[i].ndims;
        if (nd < cd) {
            kj_error(ic->d, ic->s->src, e->call.args[i]->span,
                     "argument %u needs at least %d dimension%s for layout '%s'", i + 1, cd,
                     cd == 1 ? "" : "s", fn->layout_str);
            return ei_value(ei, NULL);
        }
        if (nd - cd > loop_nd) loop_nd = nd - cd;
        /* without signatures, a '()' output is Numba's 1-element array (out[0] = v) */
        if (!cd && i >= L->nin && !fn->nsigs) cd = 1;
        core[i] = cd ? kj_t_array(ic->s->types, elem_of(args[i]), cd, KJ_LAYOUT_A) : elem_of(args[i]);
    }
    /* Outputs not passed: take the signature's (there must be one). */
    if (!fn->nsigs && n < L->nin + L->nout) {
        kj_error(ic->d, ic->s->src, e->span,
                 "a @guvectorize without signatures needs its output arguments passed");
        return ei_value(ei, NULL);
    }
    const kj_sig *sig = NULL;
    /* Generalized ufuncs take an exact match first (NumPy's gufunc loop
     * selection, as Numba shows: int64 inputs pick an int64 loop listed after
     * a float64 one), then the first signature every argument casts to
     * safely, then the first it converts to at all. */
    for (int pass = 0; pass < 3 && !sig; pass++)
        for (uint32_t s = 0; s < fn->nsigs && !sig; s++) {
            bool ok = true;
            for (uint32_t i = 0; i < n && ok; i++) {
                const kj_type *f = elem_of(core[i]), *t = elem_of(fn->sigs[s].params[i]);
                ok = pass == 0 ? kj_strong(ic->s->types, f) == t
                   : pass == 1 ? kj_can_cast_safe(f, t) : kj_can_convert(f, t);
            }
            if (ok) sig = &fn->sigs[s];
        }
    if (fn->nsigs && !sig) {
        kj_error(ic->d, ic->s->src, e->span, "no signature of '%s' matches these argument types",
                 fn->def->name);
        return ei_value(ei, NULL);
    }
    for (uint32_t i = n; i < L->nin + L->nout; i++) core[i] = sig->params[i];
    if (!fn->nsigs) { /* lazy: the loop Numba's dynamic gufunc runs */
        const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, n + 1);
        for (uint32_t i = 0; i < n; i++) el[i] = elem_of(core[i]);
        el = kj_ulog_loop(ic, fn, el, n);
        for (uint32_t i = 0; i < n; i++)
            core[i] = core[i]->kind == KJ_T_ARRAY ? kj_t_array(ic->s->types, el[i], core[i]->ndim,
                                                               core[i]->layout)
                                                  : el[i];
    }
    kj_spec *callee = sig ? kj_spec_get(ic->s, fn, sig->params, sig->nparams, true, e->span)
                          : specialise(ic, fn, core, true, e->span);
    if (!callee) return ei_value(ei, NULL);
    if (callee->state == SPEC_NEW) kj_infer_spec(ic->s, callee);
    if (ic->report) kj_mark_reachable(ic->s, callee);
    ei->callee = callee;
    if (n == L->nin + L->nout) return ei_value(ei, kj_t_none(ic->s->types));
    if (L->nout != 1) {
        kj_error(ic->d, ic->s->src, e->span, "pass the %u output arrays of '%s' explicitly",
                 L->nout, fn->def->name);
        return ei_value(ei, NULL);
    }
    const kj_type *o = callee->args[L->nin];
    int ond = loop_nd + (int)L->args[L->nin].ndims;
    if (ond == 0) return ei_value(ei, elem_of(o));
    if (ond > 4) {
        kj_error(ic->d, ic->s->src, e->span, "the result would have %d dimensions (at most 4)", ond);
        return ei_value(ei, NULL);
    }
    return ei_value(ei, kj_t_array(ic->s->types, elem_of(o), ond, KJ_LAYOUT_C));
}

static kj_einfo *ufunc_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn)
{
    uint32_t n = e->call.nargs;
    const kj_type **args = KJ_NEWN(ic->s->a, const kj_type *, n + 1);
    const kj_type *out = NULL;
    kj_span out_sp = e->span;
    for (uint32_t i = 0; i < n; i++) {
        kj_barg a;
        if (!(args[i] = type_arg(ic, e->call.args[i], &a, 0))) return ei_value(ei, NULL);
        if (args[i]->kind != KJ_T_ARRAY && !kj_is_scalar(args[i])) {
            kj_error(ic->d, ic->s->src, e->call.args[i]->span,
                     "ufunc arguments must be arrays or numbers, not %s", kj_type_str(args[i]));
            return ei_value(ei, NULL);
        }
    }
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        const kj_keyword *kw = &e->call.kw[k];
        kj_barg a;
        const kj_type *t = type_arg(ic, kw->value, &a, 0);
        if (strcmp(kw->name, "out") || fn->kind != FK_VECTORIZE) {
            kj_error(ic->d, ic->s->src, kw->span, "%s() got an unexpected keyword argument '%s'",
                     fn->def->name, kw->name);
            return ei_value(ei, NULL);
        }
        if (t && t->kind != KJ_T_ARRAY) {
            kj_error(ic->d, ic->s->src, kw->value->span, "out= must be an array, not %s",
                     kj_type_str(t));
            return ei_value(ei, NULL);
        }
        out = t;
        out_sp = kw->value->span;
    }
    if (fn->kind == FK_VECTORIZE && !out && n == fn->def->nparams + 1 && args[n - 1]->kind == KJ_T_ARRAY) {
        n--; /* f(a, b, out): the output after the inputs, as NumPy's ufuncs and Numba's DUFunc take it */
        out = args[n];
        out_sp = e->call.args[n]->span;
    }
    if (fn->kind != FK_GUVECTORIZE && n != fn->def->nparams) {
        kj_error(ic->d, ic->s->src, e->span, "%s() takes %u argument%s but %u were given",
                 fn->def->name, fn->def->nparams, fn->def->nparams == 1 ? "" : "s", n);
        return ei_value(ei, NULL);
    }
    kj_einfo *r = fn->kind == FK_GUVECTORIZE ? guvectorize_call(ic, e, ei, fn, args, n)
                                              : vectorize_call(ic, e, ei, fn, args, n, out, out_sp);
    if (!fn->nsigs && r->type && r->callee) kj_ulog_call(ic, e, fn, args, n, r->callee);
    return r;
}

/* The reduction starts from the identity in the ufunc's result type r,
 * which must hold it (NumPy refuses identity=1000 for an int8 loop rather
 * than wrap it to -24): an error at the identity=, noting the reduction. */
static bool identity_fits(kj_ictx *ic, const kj_fn *fn, const kj_type *r, const kj_expr *call)
{
    const kir_identity *id = &fn->identity;
    if (!id->has || r->kind == KJ_T_FLOAT) return true;
    int64_t lo = 0, hi = 1; /* bool */
    if (r->kind == KJ_T_INT) {
        lo = r->is_signed ? (r->bits >= 64 ? INT64_MIN : -(INT64_C(1) << (r->bits - 1))) : 0;
        hi = r->is_signed ? (r->bits >= 64 ? INT64_MAX : (INT64_C(1) << (r->bits - 1)) - 1)
                          : (r->bits >= 63 ? INT64_MAX : (INT64_C(1) << r->bits) - 1);
    }
    /* an int identity above INT64_MAX cannot be written; a uint64 holds every non-negative one */
    if (id->integral && id->i >= lo && id->i <= hi) return true;
    char val[64];
    if (id->integral) snprintf(val, sizeof val, "%lld", (long long)id->i);
    else snprintf(val, sizeof val, "%.17g", id->f);
    kj_diag *dg = kj_error(ic->d, ic->s->src, fn->identity_span,
                           "identity=%s of '%s' is %s %s, the type its reduction computes in", val,
                           fn->def->name, id->integral ? "out of bounds for" : "not a whole number, as needed for",
                           kj_type_str(r));
    kj_diag_hint(dg, "the reduction is at line %u; give an identity %s holds", call->span.line, kj_type_str(r));
    return false;
}

/* The axis= of f.reduce: a constant integer (negative counts from the end)
 * or None (-1); false after reporting. */
static bool reduce_axis(kj_ictx *ic, const kj_expr *ax, int ndim, int32_t *axis)
{
    if (ax->kind == KJ_E_NONE) {
        *axis = -1;
        return true;
    }
    kj_cval v;
    if (!kj_const_eval(ic->s, ax, &v) || v.type->kind != KJ_T_INT) {
        kj_error(ic->d, ic->s->src, ax->span, "axis must be a constant integer or None");
        return false;
    }
    if (v.i < -ndim || v.i >= ndim) { /* NumPy's AxisError */
        kj_error(ic->d, ic->s->src, ax->span, "axis %lld is out of bounds for array of dimension %d",
                 (long long)v.i, ndim);
        return false;
    }
    *axis = (int32_t)(v.i < 0 ? v.i + ndim : v.i);
    return true;
}

/* f.reduce(a, axis=0) of a binary @vectorize f, as NumPy's ufunc.reduce:
 * a scalar when no axis remains, else an array of the other axes. */
static kj_einfo *ufunc_reduce_call(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, kj_fn *fn)
{
    const char *name = fn->def->name;
    if (fn->def->nparams != 2) {
        kj_error(ic->d, ic->s->src, e->span, "reduce only supported for binary functions ('%s' takes %u)", name,
                 fn->def->nparams);
        return ei_value(ei, NULL);
    }
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->span, "%s.reduce() is only available in host code", name);
        return ei_value(ei, NULL);
    }
    const kj_expr *ax = e->call.nargs > 1 ? e->call.args[1] : NULL;
    for (uint32_t k = 0; k < e->call.nkw; k++) {
        if (strcmp(e->call.kw[k].name, "axis") || ax) {
            kj_error(ic->d, ic->s->src, e->call.kw[k].span, "%s.reduce() got an unexpected keyword argument '%s'",
                     name, e->call.kw[k].name);
            return ei_value(ei, NULL);
        }
        ax = e->call.kw[k].value;
    }
    if (e->call.nargs < 1 || e->call.nargs > 2) {
        kj_error(ic->d, ic->s->src, e->span, "%s.reduce() takes an array and an axis", name);
        return ei_value(ei, NULL);
    }
    kj_barg b;
    const kj_type *a = type_arg(ic, e->call.args[0], &b, 0);
    if (!a) return ei_value(ei, NULL);
    if (a->kind != KJ_T_ARRAY) {
        kj_error(ic->d, ic->s->src, e->call.args[0]->span, "%s.reduce() takes an array, not %s", name,
                 kj_type_str(a));
        return ei_value(ei, NULL);
    }
    ei->axis = 0;
    if (ax) kj_type_expr(ic, ax);
    if (ax && !reduce_axis(ic, ax, a->ndim, &ei->axis)) return ei_value(ei, NULL);
    if (ei->axis < 0 && a->ndim > 1 && !fn->identity.reorderable) {
        kj_error(ic->d, ic->s->src, ax->span,
                 "reduction operation '%s' is not reorderable, so at most one axis may be specified", name);
        return ei_value(ei, NULL);
    }
    const kj_type *el[2] = {a->elem, a->elem};
    kj_spec *callee = specialise(ic, fn, el, true, e->span);
    if (!callee || !callee->ret) return ei_value(ei, NULL);
    ei->callee = callee;
    if (!kj_is_scalar(callee->ret)) {
        kj_error(ic->d, ic->s->src, e->span, "ufunc '%s' must return a scalar, not %s", name,
                 kj_type_str(callee->ret));
        return ei_value(ei, NULL);
    }
    if (!identity_fits(ic, fn, kj_strong(ic->s->types, callee->ret), e)) return ei_value(ei, NULL);
    if (ei->axis < 0 || a->ndim == 1) return ei_value(ei, callee->ret);
    return ei_value(ei, kj_t_array(ic->s->types, callee->ret, a->ndim - 1, KJ_LAYOUT_C));
}

/* ---- dispatch ---- */

kj_einfo *kj_type_call(kj_ictx *ic, const kj_expr *e)
{
    const kj_expr *callee = e->call.fn;
    if (kj_is_isinstance_call(e)) return kj_type_isinstance(ic, e, ei_reset(ic, e));
    if (kj_is_tuple_call(e)) return kj_type_tuple_call(ic, e, ei_reset(ic, e));
    if (kj_is_static_builtin_call(e)) return kj_type_static_builtin(ic, e, ei_reset(ic, e)); /* infer_pybuiltin.c */
    if (callee->kind == KJ_E_ATTR && !strcmp(callee->attr.name, "<del>")) /* del x[i]: infer_list.c */
        return kj_type_list_del(ic, e, ei_reset(ic, e));
    kj_einfo *ci = kj_type_expr(ic, callee);
    kj_einfo *ei = ei_reset(ic, e);
    switch (ci->kind) {
    case EI_BUILTIN: {
        const kj_builtin_info *bi = kj_builtin_get(ci->builtin);
        if (bi->flags & KJ_BF_ATTR) break;
        if (ci->builtin == KJ_B_NAMEDTUPLE) {
            kj_error(ic->d, ic->s->src, e->span, "namedtuple classes are made at module level in kjit");
            return ei_value(ei, NULL);
        }
        if (ci->builtin >= KJ_B_TYPED_LIST && ci->builtin <= KJ_B_TYPED_DICT_EMPTY)
            return kj_type_typed_call(ic, e, ei, ci->builtin); /* infer_typed.c */
        if (kj_builtin_cuda_compile((unsigned)ci->builtin)) return kj_type_cuda_compile(ic, e, ei, ci->builtin);
        return builtin_call(ic, e, ei, ci->builtin, NULL, NULL);
    }
    case EI_METHOD:
        if (ci->builtin == KJ_B_LIST_APPEND) kj_list_append_refine(ic, e); /* `[]` then append: infer_list.c */
        if (ci->builtin == KJ_B_SET_ADD) kj_set_add_refine(ic, e); /* set() then add: infer_dict.c */
        return builtin_call(ic, e, ei, ci->builtin, callee->attr.obj, NULL);
    case EI_DTYPE: {
        const kj_type *target = ci->dtype;
        kj_einfo *r = builtin_call(ic, e, ei, KJ_B_CONVERT, NULL, target);
        return r;
    }
    case EI_FUNC: return user_call(ic, e, ei, ci->fn);
    case EI_LAUNCH: return launch_call(ic, e, ei, ci->fn, ci->forall);
    case EI_FORALL: return kj_type_forall_config(ic, e, ci->fn);
    case EI_UREDUCE: return ufunc_reduce_call(ic, e, ei, ci->fn);
    case EI_UMETH: return kj_type_ufunc_meth(ic, e, ei, ci);
    case EI_DTYPE_FN: return dtype_fn_call(ic, e, ei);
    case EI_NTCLASS: return kj_type_nt_call(ic, e, ei, ci->ntc); /* resolve_namedtuple.c */
    case EI_NONE: return ei_value(ei, NULL);
    default: break;
    }
    bool host = ic->sp->fn->kind == FK_MAIN || ic->sp->fn->kind == FK_HELPER;
    if (ci->kind == EI_DECOR && host && kj_inline_decorator(ic->s, ic->sp->fn, e, ei)) return ei;
    if (ci->kind == EI_DECOR) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "a decorator is applied here inside an expression");
        kj_diag_hint(dg, host ? "apply it in an assignment of its own, k = cuda.jit(f), then use k"
                              : "decorators are applied at module level or in host code (main and "
                                "undecorated functions), not in compiled functions");
        return ei_value(ei, NULL);
    }
    kj_error(ic->d, ic->s->src, callee->span, "%s is not callable",
             ci->kind == EI_VALUE ? kj_arena_printf(ic->s->a, "a value of type %s",
                                                    kj_type_str(ci->type))
             : ci->kind == EI_MODULE ? kj_arena_printf(ic->s->a, "module '%s'", ci->path)
             : ci->kind == EI_TYPEOBJ ? "a Numba type object" : "this built-in value");
    return ei_value(ei, NULL);
}
