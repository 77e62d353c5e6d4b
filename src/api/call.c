/* SPDX-License-Identifier: BSD-2-Clause */
/* Calling compiled code: functions of a module (kjit_module_get and their
 * parameters), kjit_call with arguments whose types are known only at run
 * time, kjit_launch (prepared launches: launch_plan.c).
 *
 * A call goes
 *   values → kj types (an int64 value is int64: no weak literal types)
 *   → the fn's specialisation for those types (found by pointer comparison
 *     of interned types; else kj_sema_specialize + code, see machine.c)
 *   → arguments in their ABI memory form (src/abi/abi.h)
 *   → kj_rt_call_entry(entry, args, &ret) → the result as a kjit_value.
 * Every generated function has the entry point `void M.entry(kj_rt*, void
 * **args, void *ret)`, so one C call site serves every signature: no libffi.
 *
 * The module lock covers the first two steps (they change the module); the
 * call itself runs unlocked with its own kj_rt, so threads call compiled
 * code concurrently. */
#include "api_int.h"
#include "exc_args.h"
#include "threads.h"


#include "abi/abi.h"
#include "runtime/rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- functions of a module ---- */

static kjit_fn_kind public_kind(kj_sema_fn_kind k)
{
    switch (k) {
    case KJ_SEMA_FN_MAIN: return KJIT_FN_MAIN;
    case KJ_SEMA_FN_HELPER: return KJIT_FN_HELPER;
    case KJ_SEMA_FN_JIT: return KJIT_FN_JIT;
    case KJ_SEMA_FN_KERNEL: return KJIT_FN_KERNEL;
    case KJ_SEMA_FN_DEVICE: return KJIT_FN_DEVICE;
    case KJ_SEMA_FN_VECTORIZE: return KJIT_FN_UFUNC;
    case KJ_SEMA_FN_GUVECTORIZE: return KJIT_FN_GUFUNC;
    }
    return KJIT_FN_HELPER;
}

/* A new handle for a function sema knows, or NULL. Module lock held. */
static kjit_fn *fn_new(kjit_module *m, const char *name)
{
    kj_sema_fn_kind kind;
    const kj_funcdef *def;
    if (!kj_sema_function(m->sema, name, &kind, &def)) return NULL;
    kjit_fn *f = KJ_NEW(&m->arena, kjit_fn);
    f->m = m;
    f->name = def->name;
    f->kind = public_kind(kind);
    f->def = def;
    f->default_text = KJ_NEWN(&m->arena, const char *, def->nparams + 1);
    for (uint32_t i = 0; i < def->nparams; i++) {
        const kj_expr *e = def->params[i].def;
        if (e) f->default_text[i] = kj_arena_strndup(&m->arena, m->src.text + e->span.off, e->span.len);
    }
    KJ_PUSH(&m->arena, m->fns, f);
    return f;
}

kjit_fn *kjit_module_get(kjit_module *m, const char *name)
{
    if (!m || !name || !m->sema) return NULL;
    pthread_mutex_lock(&m->lock);
    kjit_fn *f = NULL;
    for (uint32_t k = 0; k < m->fns.n && !f; k++)
        if (!strcmp(m->fns.v[k]->name, name)) f = m->fns.v[k];
    if (!f) f = fn_new(m, name);
    pthread_mutex_unlock(&m->lock);
    return f;
}

const char *kjit_fn_name(const kjit_fn *f) { return f ? f->name : NULL; }
kjit_fn_kind kjit_fn_get_kind(const kjit_fn *f) { return f ? f->kind : KJIT_FN_HELPER; }
int kjit_fn_param_count(const kjit_fn *f) { return f ? (int)f->def->nparams : 0; }

static const kj_param *param(const kjit_fn *f, int i)
{
    return f && i >= 0 && (uint32_t)i < f->def->nparams ? &f->def->params[i] : NULL;
}

const char *kjit_fn_param_name(const kjit_fn *f, int i)
{
    const kj_param *p = param(f, i);
    return p ? p->name : NULL;
}

const char *kjit_fn_param_default_text(const kjit_fn *f, int i)
{
    return param(f, i) ? f->default_text[i] : NULL;
}

bool kjit_fn_param_default(kjit_fn *f, int i, kjit_value *out)
{
    if (out) *out = (kjit_value){0};
    if (!param(f, i) || !out) return false;
    kj_sema_const c;
    pthread_mutex_lock(&f->m->lock);
    bool ok = kj_sema_param_default(f->m->sema, f->def, (uint32_t)i, &c);
    pthread_mutex_unlock(&f->m->lock);
    if (!ok) return false;
    switch (c.type->kind) {
    case KJ_T_BOOL: *out = kjit_value_bool(c.i != 0); break;
    case KJ_T_INT: *out = kjit_value_int_as(c.i, kj_api_public_dtype(kj_api_type_dtype(c.type))); break;
    case KJ_T_FLOAT:
        *out = c.type->bits == 32 ? kjit_value_float32((float)c.f) : kjit_value_float(c.f);
        break;
    case KJ_T_STR: *out = kjit_value_str(c.s); break;
    default: return false;
    }
    return true;
}

/* ---- checking the call ---- */

int kj_api_usage(kjit_error *err, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s", msg);
    return KJIT_ERR_USAGE;
}

/* Can kjit_call call this kind of function at all? */
static int check_callable(const kjit_fn *f, kjit_error *err)
{
    switch (f->kind) {
    case KJIT_FN_KERNEL: return kj_api_usage(err, "'%s' is a CUDA kernel: launch it with kjit_launch", f->name);
    case KJIT_FN_DEVICE:
        return kj_api_usage(err, "'%s' is a CUDA device function: only kernels can call it", f->name);
    case KJIT_FN_GUFUNC:
        return kj_api_usage(err, "calling the @guvectorize function '%s' through kjit_call is not supported yet",
                     f->name);
    default: return KJIT_OK;
    }
}

/* The most items a tuple argument may have (its type is built on the
 * stack), and how deeply tuples may nest (a tuple that contains itself is
 * refused, not followed forever). */
enum { KJ_API_MAX_TUPLE = 64, KJ_API_MAX_NESTING = 16 };

static bool int_dtype(kjit_dtype dt) { return dt >= KJIT_INT8 && dt <= KJIT_UINT64; }

/* One argument (or an item of tuple argument `k`, `depth` tuples down): a
 * valid value of a kind compiled code can take. */
static int check_value(const kjit_fn *f, const kjit_value *v, int k, int depth, kjit_error *err)
{
    int ext = kj_api_ext_check(v, k, err); /* Generators, records (values_record.c) */
    if (ext >= 0) return ext;
    int mine = kj_api_cplx_check(v, k, err); /* complex, datetime, buffers */
    if (mine >= 0) return mine;
    switch (v->kind) {
    case KJIT_VALUE_BOOL: return KJIT_OK;
    case KJIT_VALUE_STR: return v->v.s ? KJIT_OK : kj_api_usage(err, "argument %d: string is NULL", k + 1);
    case KJIT_VALUE_INT:
        return int_dtype(v->dtype) ? KJIT_OK
                                   : kj_api_usage(err, "argument %d: an int value needs an integer dtype", k + 1);
    case KJIT_VALUE_FLOAT:
        return v->dtype == KJIT_FLOAT32 || v->dtype == KJIT_FLOAT64
                   ? KJIT_OK
                   : kj_api_usage(err, "argument %d: a float value needs dtype float32 or float64", k + 1);
    case KJIT_VALUE_ARRAY: {
        if (!v->v.a) return kj_api_usage(err, "argument %d: array is NULL", k + 1);
        int nd = kjit_array_ndim(v->v.a);
        if (nd < 1 || nd > KJ_ABI_MAX_DIMS)
            return kj_api_usage(err, "argument %d: compiled code takes arrays of 1 to %d dimensions, not %d", k + 1,
                         KJ_ABI_MAX_DIMS, nd);
        if (f->kind == KJIT_FN_UFUNC)
            return kj_api_usage(err, "calling the ufunc '%s' on arrays through kjit_call is not supported yet "
                              "(scalars are)", f->name);
        return KJIT_OK;
    }
    case KJIT_VALUE_TUPLE: {
        const kjit_tuple *t = v->v.t;
        int poly = kj_api_poly_check(v, k, err); /* a Polynomial's items (values_poly.c) */
        if (poly >= 0) return poly;
        if (!t || t->n < 0 || (t->n > 0 && !t->items))
            return kj_api_usage(err, "argument %d: tuple is NULL or has no items", k + 1);
        if (t->n > KJ_API_MAX_TUPLE)
            return kj_api_usage(err, "argument %d: a tuple of %d items (at most %d)", k + 1, t->n, KJ_API_MAX_TUPLE);
        if (depth >= KJ_API_MAX_NESTING)
            return kj_api_usage(err, "argument %d: tuples nested more than %d deep", k + 1, KJ_API_MAX_NESTING);
        for (int i = 0; i < t->n; i++) {
            int rc = check_value(f, &t->items[i], k, depth + 1, err);
            if (rc) return rc;
        }
        return KJIT_OK;
    }
    case KJIT_VALUE_NONE: return KJIT_OK; /* Numba's `none` type (an omitted optional argument) */
    case KJIT_VALUE_LIST:
    case KJIT_VALUE_SET: { /* values_list.c */
        int rc = depth >= KJ_API_MAX_NESTING ? kj_api_usage(err, "argument %d: nested too deep", k + 1)
                                             : kj_api_check_container(f, v, k, err);
        for (int64_t i = 0; !rc && i < v->v.l->n; i++) rc = check_value(f, &v->v.l->items[i], k, depth + 1, err);
        return rc;
    }
    case KJIT_VALUE_DTYPE:
        return kj_api_dtype_value_ok(v->dtype) ? KJIT_OK : kj_api_usage(err, "argument %d: an invalid dtype", k + 1);
    case KJIT_VALUE_FUNCTION: return kj_api_function_check(f, v, k, err); /* values_function.c */
    case KJIT_VALUE_RNG: case KJIT_VALUE_RECORD: break; /* kj_api_ext_check took them */
    case KJIT_VALUE_DICT: return kj_api_dict_check(v, k, err);
    case KJIT_VALUE_GENERATOR:
        return kj_api_usage(err, "argument %d: a generator cannot be passed to compiled code", k + 1);
    case KJIT_VALUE_COMPLEX:
    case KJIT_VALUE_BYTES: break; /* kj_api_cplx_check */
    }
    return kj_api_usage(err, "argument %d: invalid value kind %d", k + 1, (int)v->kind);
}

/* The arguments: their number and values. */
static int check_args(const kjit_fn *f, const kjit_value *args, int nargs, kjit_error *err)
{
    int rc;
    uint32_t want = f->def->nparams;
    if ((uint32_t)nargs != want)
        return kj_api_usage(err, "%s() takes %u positional argument%s but %d %s given", f->name, want,
                     want == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
    for (int k = 0; k < nargs; k++)
        if ((rc = check_value(f, &args[k], k, 0, err))) return rc;
    return KJIT_OK;
}

static int check_call(const kjit_fn *f, const kjit_value *args, int nargs, kjit_error *err)
{
    if (nargs < 0) return kj_api_usage(err, "kjit_call: nargs is %d (a count of arguments, at least 0)", nargs);
    if (nargs > 0 && !args) return kj_api_usage(err, "kjit_call: %d arguments but args is NULL", nargs);
    int rc = check_callable(f, err);
    return rc ? rc : check_args(f, args, nargs, err);
}

/* ---- finding the specialisation ---- */

/* The kj type of a value (Numba's typeof): arrays are C, F or A by their
 * strides. Module lock held (types are interned in the module). */
static const kj_type *value_type(kj_types *t, const kjit_value *v)
{
    const kj_type *ext = kj_api_ext_type(t, v); /* Generators, records, arrays of records */
    if (ext) return ext;
    const kj_type *mine = kj_api_cplx_value_type(t, v); /* complex, datetime, buffers, float16 arrays */
    if (mine) return mine;
    switch (v->kind) {
    case KJIT_VALUE_BOOL: return kj_t_bool(t);
    case KJIT_VALUE_STR: return kj_t_str(t);
    case KJIT_VALUE_INT: {
        static const int bits[] = {[KJIT_INT8] = 8,   [KJIT_INT16] = 16,  [KJIT_INT32] = 32,
                                   [KJIT_INT64] = 64, [KJIT_UINT8] = 8,   [KJIT_UINT16] = 16,
                                   [KJIT_UINT32] = 32, [KJIT_UINT64] = 64};
        return kj_t_int(t, bits[v->dtype], v->dtype <= KJIT_INT64);
    }
    case KJIT_VALUE_FLOAT: return kj_t_float(t, v->dtype == KJIT_FLOAT32 ? 32 : 64);
    case KJIT_VALUE_ARRAY: {
        const kj_array *a = kj_api_arr(v->v.a);
        if (a->dtype == KJ_DT_COMPLEX64 || a->dtype == KJ_DT_COMPLEX128) { /* complex arrays: no scalar kjit_value */
            kj_layout lay = a->flags & KJ_ARR_C_CONTIGUOUS ? KJ_LAYOUT_C : a->flags & KJ_ARR_F_CONTIGUOUS ? KJ_LAYOUT_F
                                                                                                    : KJ_LAYOUT_A;
            return kj_t_array(t, kj_t_complex(t, a->dtype == KJ_DT_COMPLEX64 ? 64 : 128), a->ndim, lay);
        }
        kjit_value elem = {.kind = KJIT_VALUE_FLOAT, .dtype = kj_api_public_dtype(a->dtype)};
        if (a->dtype == KJ_DT_BOOL) elem.kind = KJIT_VALUE_BOOL;
        else if (kj_dtype_is_int(a->dtype)) elem.kind = KJIT_VALUE_INT;
        kj_layout lay = a->flags & KJ_ARR_C_CONTIGUOUS   ? KJ_LAYOUT_C
                        : a->flags & KJ_ARR_F_CONTIGUOUS ? KJ_LAYOUT_F
                                                         : KJ_LAYOUT_A;
        return kj_t_array(t, value_type(t, &elem), a->ndim, lay);
    }
    case KJIT_VALUE_TUPLE: {
        const kj_type *items[KJ_API_MAX_TUPLE];
        uint32_t n = (uint32_t)v->v.t->n;
        if (n > KJ_API_MAX_TUPLE) break; /* check_call refused it */
        for (uint32_t k = 0; k < n; k++) items[k] = value_type(t, &v->v.t->items[k]);
        const kj_type *poly = kj_api_poly_type(t, v, items);
        return poly ? poly : kj_t_tuple(t, items, n);
    }
    case KJIT_VALUE_LIST: return kj_t_list(t, value_type(t, &v->v.l->items[0])); /* checked: not empty */
    case KJIT_VALUE_SET: return kj_t_set(t, value_type(t, &v->v.l->items[0]));
    case KJIT_VALUE_DICT: return kj_api_dict_type(t, v);
    case KJIT_VALUE_GENERATOR: /* check_value refused it */
    case KJIT_VALUE_NONE: case KJIT_VALUE_RNG: case KJIT_VALUE_RECORD:
    case KJIT_VALUE_COMPLEX: case KJIT_VALUE_BYTES: break; /* kj_api_ext_type, kj_api_cplx_value_type */
    case KJIT_VALUE_DTYPE: return kj_api_dtype_value_type(t, v->dtype);
    case KJIT_VALUE_FUNCTION: return kj_api_function_type(t, v);
    }
    return kj_t_none(t);
}

static bool same_types(const kj_type *const *a, const kj_type *const *b, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (a[k] != b[k]) return false;
    return true;
}

static const kj_api_spec *find_spec(const kjit_fn *f, const kj_type *const *types, uint32_t n)
{
    for (uint32_t k = 0; k < f->specs.n; k++)
        if (f->specs.v[k].nargs == n && same_types(f->specs.v[k].args, types, n)) return &f->specs.v[k];
    return NULL;
}

/* Result types kjit_call can hand back. */
static bool returnable(const kj_type *t)
{
    if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++)
            if (!returnable(t->elems[k])) return false;
        return true;
    }
    if (t->kind == KJ_T_OPTIONAL) return returnable(t->elem); /* None or the value (values.c) */
    if (kj_api_is_container(t)) return kj_api_container_returnable(t, returnable); /* values_list.c */
    if (t->kind == KJ_T_DTYPE) return kj_api_dtype_returnable(t); /* values_dtype.c */
    if (t->kind == KJ_T_DICT) return kj_api_dict_ok(t);
    if (t->kind == KJ_T_GENERATOR) return false; /* only as the whole result: returnable_result */
    return t->kind == KJ_T_NONE || kj_is_scalar(t) || kj_is_dt(t) || t->kind == KJ_T_STR ||
           kj_record_of(t) || /* a copy (values_record.c) */
           (t->kind == KJ_T_ARRAY && t->ndim <= KJ_ABI_MAX_DIMS);
}

/* A whole result: also a generator of returnable values (values_gen.c), not one inside a tuple. */
static bool returnable_result(const kj_type *t)
{
    if (t->kind == KJ_T_GENERATOR) return t->elem && returnable(t->elem) && !kj_api_type_has_dict(t->elem);
    return returnable(t);
}

/* The kir_func for these argument types. main called with the types of its
 * defaults is the main compiled with the program (its parameters were typed
 * from the defaults, as Python literals); anything else is specialised with
 * exactly the values' types. */
static const kir_func *specialise(kjit_fn *f, const kj_type *const *types, uint32_t n, kj_diags *d)
{
    kjit_module *m = f->m;
    const kir_func *main = m->kir->main;
    if (f->kind == KJIT_FN_MAIN && main && main->nparams == n && same_types(main->params, types, n))
        return main;
    uint32_t before = m->kir->nfuncs;
    const kir_func *kf = kj_sema_specialize(m->sema, f->name, types, n, d);
    /* the rest of the pipeline on the functions it added, as kjit_compile
     * ran it on the first ones */
    kj_pipeline_opts po = {.first = before, .spec = kf};
    if (!kf || !kj_pipeline(m, KJ_STAGE_FUSE, &po, d, NULL)) return NULL;
    return kf;
}

static int make_spec(kjit_fn *f, const kj_type *const *types, uint32_t n, kj_api_spec *spec_out,
                     kjit_error *err);

/* Find or make the specialisation of `f` for `args`: *spec_out is a copy
 * (the vector may grow under other threads once the lock is released). */
static int prepare(kjit_fn *f, const kjit_value *args, uint32_t n, kj_api_spec *spec_out, kjit_error *err)
{
    kjit_module *m = f->m;
    const kj_type *small[16], **types = n <= 16 ? small : malloc(n * sizeof *types);
    if (!types) abort();
    for (uint32_t k = 0; k < n; k++) types[k] = value_type(m->types, &args[k]);
    const kj_api_spec *sp = find_spec(f, types, n);
    int rc = KJIT_OK;
    if (!sp) rc = make_spec(f, types, n, spec_out, err);
    else if (sp->failure) rc = sp->failure->code;
    else *spec_out = *sp;
    if (sp && sp->failure && err) *err = *sp->failure;
    if (types != small) free(types);
    return rc;
}

/* The kernel descriptor (abi.h) of specialisation kf, made once with its
 * code (a launch only reads it). */
static kj_abi_kernel describe(kjit_module *m, const kir_func *kf, void *block_fn)
{
    const kj_type **leaf; /* a tuple parameter passes as its leaves (launch_tuple.c) */
    uint32_t *owner, nleaf = kj_api_kernel_leaves(&m->arena, kf, &leaf, &owner);
    kj_abi_param *p = KJ_NEWN(&m->arena, kj_abi_param, nleaf + 1);
    for (uint32_t k = 0; k < nleaf; k++) {
        const kj_type *t = leaf[k];
        bool ro = t == kf->params[owner[k]] && kir_param_read_only(kf, owner[k]); /* in a tuple: written */
        p[k] = t->kind == KJ_T_ARRAY
                   ? (kj_abi_param){ro ? KJ_ABI_PARAM_ARRAY_READ : KJ_ABI_PARAM_ARRAY, (int32_t)t->ndim, 0,
                                    kj_record_of(t->elem) ? KJ_DT_UINT8 : (int32_t)kj_api_type_dtype(t->elem)}
                   : (kj_abi_param){KJ_ABI_PARAM_SCALAR, 0, (int32_t)kj_api_mem_size(t), (int32_t)kj_api_type_dtype(t)};
    }
    const kir_inst **get;
    uint32_t nslots = kir_slot_reads(kf, &m->arena, &get);
    kj_abi_slot *slots = KJ_NEWN(&m->arena, kj_abi_slot, nslots + 1);
    for (uint32_t k = 0; k < nslots; k++) {
        const kj_type *t = get[k]->type;
        slots[k] = (kj_abi_slot){get[k]->frozen->name, (int32_t)get[k]->frozen->slot_index,
                                 t->kind == KJ_T_ARRAY ? (int32_t)t->ndim : 0, (int32_t)kj_api_mem_size(t), 0};
    }
    kj_abi_block_fn block;
    memcpy(&block, &block_fn, sizeof block); /* object pointer → function pointer */
    return (kj_abi_kernel){kf->name, kj_ptx_symbol(&m->arena, kf->mangled), block_fn ? block : NULL,
                           (int32_t)nleaf, kj_codegen_parallel_blocks(m->cg.target), p,
                           block_fn ? kj_codegen_kernel_static_shared(kf) : 0, kj_cg_uses_grid_sync(kf),
                           kf->layout_perm, (int32_t)nslots, slots,
                           kf->index32 && !block_fn ? kj_ptx_symbol32(&m->arena, kf->mangled) : NULL,
                           kf->regroup && block_fn};
}

/* A kernel's code for kj_rt_launch: its GPU code on cuda, else its block
 * function; and its descriptor. */
static bool kernel_code(kjit_module *m, const kir_func *kf, kj_api_spec *spec, kj_diags *d)
{
    if (m->gpu) spec->code = kj_api_kernel_code(m, kf, d);
    else spec->block = kj_api_block_entry(m, kf, d);
    if (!spec->code && !spec->block) return false;
    spec->kernel = describe(m, kf, spec->block);
    return true;
}

/* Compile the specialisation; its code or *err. */

static const kir_func *compile_spec(kjit_fn *f, const kj_type *const *types, uint32_t n, kj_api_spec *spec,
                                    kjit_error *err)
{
    kj_entry_fn *entry = &spec->entry;
    kjit_module *m = f->m;
    kj_diags d = {0};
    const kir_func *kf = specialise(f, types, n, &d);
    if (kf && f->kind == KJIT_FN_KERNEL && m->gpu && kj_api_ext_gpu_refused(kf, f->name, err)) {
        kf = NULL;
    } else if (kf && f->kind == KJIT_FN_KERNEL) {
        if (!kernel_code(m, kf, spec, &d)) kf = NULL;
    } else if (kf && !returnable_result(kf->ret)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "'%s' returns %s, which kjit_call cannot return yet",
                         f->name, kj_type_str(kf->ret));
        kf = NULL;
    } else if (kf && !(*entry = kj_api_entry(m, kf, &d))) {
        kf = NULL;
    }
    if (!kf && kj_has_errors(&d)) kj_api_error_from_diags(err, KJIT_ERR_COMPILE, &d, m->src.path);
    kj_diags_free(&d);
    return kf;
}

/* A new specialisation, remembered with a copy of `types` whether it
 * compiled or not: a failure is not retried (the answer would not change). */
static int make_spec(kjit_fn *f, const kj_type *const *types, uint32_t n, kj_api_spec *spec_out,
                     kjit_error *err)
{
    kjit_module *m = f->m;
    kjit_error local;
    if (!err) err = &local;
    kj_api_spec s = {.nargs = n};
    s.kf = compile_spec(f, types, n, &s, err);
    s.has_dict = s.kf && kj_api_kf_has_dict(s.kf);
    if (s.kf && f->kind != KJIT_FN_KERNEL && !kj_api_gen_spec(m, f->name, &s, err)) s.kf = NULL; /* values_gen.c */
    if (!s.kf) {
        kjit_error *e = KJ_NEW(&m->arena, kjit_error);
        *e = *err;
        s.failure = e;
    }
    const kj_type **copy = KJ_NEWN(&m->arena, const kj_type *, n + 1);
    memcpy(copy, types, n * sizeof *copy);
    s.args = copy;
    KJ_PUSH(&m->arena, f->specs, s);
    *spec_out = s;
    return s.failure ? s.failure->code : KJIT_OK;
}

/* ---- marshalling ---- */

/* Argument `v` in the memory form of parameter k's type (which sema
 * chose: the value's own type, or an explicit signature's that it converts
 * to). */
static int marshal(const kir_func *kf, uint32_t k, const kjit_value *v, void *out, kjit_error *err)
{
    if (kj_api_to_mem(kf->params[k], v, out)) return KJIT_OK;
    char buf[64];
    return kj_api_usage(err, "argument %u of '%s': cannot pass %s as %s", k + 1, kf->name,
                 kjit_value_type_name(v, buf, sizeof buf), kj_type_str(kf->params[k]));
}

/* Storage for a value of type t in its memory form (16-byte aligned, as
 * malloc's is: enough for every kjit type). */
static void *mem_for(const kj_type *t)
{
    void *p = calloc(1, kj_api_mem_size(t) + 1);
    if (!p) abort();
    return p;
}

/* A run-time error: "IndexError: message" at the location the code gave. */
static int runtime_failed(const kj_rt *rt, kjit_error *err)
{
    const char *name = kj_rt_kind_name(rt->kind);
    if (rt->message[0]) kj_api_set_error(err, KJIT_ERR_RUNTIME, rt->file, "%s: %s", name, rt->message);
    else kj_api_set_error(err, KJIT_ERR_RUNTIME, rt->file, "%s", name);
    kj_api_error_set_exc_args(err, (int)rt->kind, rt->exc_form, rt->message);
    if (err) {
        err->line = rt->line;
        err->col = rt->col;
    }
    return KJIT_ERR_RUNTIME;
}

/* Run specialisation sp on marshalled arguments, its result in `ret`
 * (kj_api_mem_size of its type), converted into *result (may be NULL). */
int kj_api_call_entry(kjit_module *m, const kj_api_spec *sp, const kjit_value *args, void **argv, void *ret,
                      kjit_value *result, kjit_error *err)
{
    if (sp->gen_next) return kj_api_call_gen(m, sp, argv, ret, result, err); /* values_gen.c */
    int rc = KJIT_OK;
    {
        const kj_type *ret_type = sp->kf->ret;
        kj_rt rt;
        kj_rt_init(&rt, m->src.path);
        rt.fn_name = sp->kf->name; /* for the fault handler's message */
        if (m->out) rt.out = m->out;
        rt.gpu = m->gpu;
        rt.mpi = m->mpi;
        rt.pool = m->pool;
        rt.sink = &m->events.sink;
        rt.code = m->gpu_code;
        kj_api_threads_seen seen;
        kj_api_threads_enter(m->threads, &rt, &seen);
        kj_rt_kind kind = args && kj_api_spec_has_containers(sp) /* lists, sets: values_list.c */
                              ? kj_api_run_containers(&rt, sp, args, argv, ret)
                          : sp->has_dict ? kj_api_run_dict_entry(&rt, sp, argv, ret) /* dicts: values_dict.c */
                                         : kj_api_run_entry(&rt, sp->entry, ret_type, argv, ret); /* str results: copied */
        kj_api_threads_leave(m->threads, &rt, &seen);
        if (kind != KJ_RT_OK) {
            kj_mpi_note_failure(m->mpi); /* the other ranks must not wait for this one */
            rc = runtime_failed(&rt, err);
        } else {
            kjit_value r;
            kj_api_from_mem_to(ret_type, ret, result ? result : &r);
            if (!result) kjit_value_release(&r); /* arrays hold references */
        }
        kj_rt_dispose(&rt);
    }
    if (!rc) kj_api_clear_error(err);
    return rc;
}

/* Marshal, call, convert the result. */
static int invoke(kjit_module *m, const kj_api_spec *sp, const kjit_value *args, uint32_t n,
                  kjit_value *result, kjit_error *err)
{
    void **argv = calloc(n + 1, sizeof *argv);
    if (!argv) abort();
    int rc = KJIT_OK;
    for (uint32_t k = 0; k < n && !rc; k++) {
        argv[k] = mem_for(sp->kf->params[k]);
        rc = marshal(sp->kf, k, &args[k], argv[k], err);
    }
    if (!rc) {
        void *ret = mem_for(sp->kf->ret);
        rc = kj_api_call_entry(m, sp, args, argv, ret, result, err);
        free(ret);
    }
    for (uint32_t k = 0; k < n; k++) free(argv[k]);
    free(argv);
    return rc;
}

int kj_api_call_spec(kjit_fn *f, const kjit_value *args, int nargs, kj_api_spec *sp, kjit_error *err)
{
    if (!f) return kj_api_usage(err, "kjit_call_prepare: fn is NULL");
    int rc = check_call(f, args, nargs, err);
    if (rc) return rc;
    pthread_mutex_lock(&f->m->lock);
    rc = prepare(f, args, (uint32_t)nargs, sp, err);
    pthread_mutex_unlock(&f->m->lock);
    return rc;
}

int kjit_call(kjit_fn *f, const kjit_value *args, int nargs, kjit_value *result, kjit_error *err)
{
    if (result) *result = (kjit_value){0};
    if (!f) return kj_api_usage(err, "kjit_call: fn is NULL");
    int rc = check_call(f, args, nargs, err);
    if (rc) return rc;
    kj_api_spec sp;
    pthread_mutex_lock(&f->m->lock);
    rc = prepare(f, args, (uint32_t)nargs, &sp, err);
    pthread_mutex_unlock(&f->m->lock);
    return rc ? rc : invoke(f->m, &sp, args, (uint32_t)nargs, result, err);
}

/* ---- kernels ---- */

/* A launch inside kj_rt_call_entry, which catches the errors it raises. */
typedef struct launch_call {
    const kj_abi_kernel *k;
    int64_t cfg[8];
    void **args;
} launch_call;

static void launch_entry(kj_rt *rt, void **args, void *ret)
{
    (void)ret;
    const launch_call *l = (const launch_call *)args;
    kj_rt_launch(rt, l->k, l->cfg, l->args, 0, 0);
}

int kj_api_launch_spec(kjit_fn *f, const kjit_value *args, int nargs, kj_api_spec *sp, kjit_error *err)
{
    if (!f) return kj_api_usage(err, "kjit_launch: fn is NULL");
    if (f->kind != KJIT_FN_KERNEL)
        return kj_api_usage(err, "'%s' is not a CUDA kernel: call it with kjit_call", f->name);
    if (nargs < 0)
        return kj_api_usage(err, "kjit_launch: nargs is %d (a count of arguments, at least 0)", nargs);
    if (nargs > 0 && !args) return kj_api_usage(err, "kjit_launch: %d arguments but args is NULL", nargs);
    int rc = check_args(f, args, nargs, err);
    for (int k = 0; k < nargs && !rc; k++)
        if (args[k].kind == KJIT_VALUE_DICT)
            rc = kj_api_usage(err, "kernel '%s': argument %d: a dict cannot be passed to a kernel", f->name, k + 1);
    if (rc) return rc;
    pthread_mutex_lock(&f->m->lock);
    rc = prepare(f, args, (uint32_t)nargs, sp, err);
    pthread_mutex_unlock(&f->m->lock);
    return rc;
}

size_t kj_api_args_bytes(const kj_api_spec *sp)
{
    size_t bytes = 0;
    for (uint32_t j = 0; j < sp->nargs; j++) bytes += (kj_api_mem_size(sp->kf->params[j]) + 16) & ~(size_t)15;
    return bytes;
}

int kj_api_marshal_all(const kj_api_spec *sp, const kjit_value *args, void **argv, char *mem, kjit_error *err)
{
    int rc = KJIT_OK;
    for (uint32_t j = 0, off = 0; j < sp->nargs && !rc; j++) {
        argv[j] = mem + off;
        off += (uint32_t)((kj_api_mem_size(sp->kf->params[j]) + 16) & ~(size_t)15);
        rc = marshal(sp->kf, j, &args[j], argv[j], err);
    }
    return rc;
}

int kj_api_launch_run(kjit_module *m, const kj_api_spec *sp, kjit_dim3 grid, kjit_dim3 block, void **argv,
                      kjit_error *err)
{
    launch_call l = {&sp->kernel, {grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, 0}, argv};
    kj_rt rt;
    kj_rt_init(&rt, m->src.path);
    if (m->out) rt.out = m->out;
    rt.gpu = m->gpu;
    rt.mpi = m->mpi;
    rt.pool = m->pool;
    rt.sink = &m->events.sink;
    rt.code = sp->code;
    rt.launch_only = m->gpu != NULL;
    int rc = KJIT_OK;
    if (kj_rt_call_entry(&rt, launch_entry, (void **)&l, NULL) != KJ_RT_OK) rc = runtime_failed(&rt, err);
    kj_rt_dispose(&rt);
    if (!rc) kj_api_clear_error(err);
    return rc;
}

int kjit_launch(kjit_fn *f, kjit_dim3 grid, kjit_dim3 block, const kjit_value *args, int nargs,
                kjit_error *err)
{
    int rc;
    if (kj_api_launch_planned(f, grid, block, args, nargs, &rc, err)) return rc;
    kj_api_spec sp;
    rc = kj_api_launch_spec(f, args, nargs, &sp, err);
    if (rc) return rc;
    if (kj_api_has_tuple_arg(args, nargs)) return kj_api_launch_tuples(f->m, &sp, grid, block, args, err);
    /* the arguments in their memory form: on the stack when they fit (a
     * launch from a loop allocates nothing) */
    enum { SMALL_ARGS = 16, SMALL_BYTES = 2048 };
    _Alignas(16) char small[SMALL_BYTES];
    void *small_argv[SMALL_ARGS];
    size_t bytes = kj_api_args_bytes(&sp);
    bool heap = sp.nargs > SMALL_ARGS || bytes > SMALL_BYTES;
    void **argv = heap ? calloc(sp.nargs + 1, sizeof *argv) : small_argv;
    char *mem = heap ? calloc(1, bytes) : small;
    if (!argv || !mem) abort();
    if (!heap) memset(mem, 0, bytes);
    rc = kj_api_marshal_all(&sp, args, argv, mem, err);
    if (!rc) rc = kj_api_launch_run(f->m, &sp, grid, block, argv, err);
    if (heap) free(argv), free(mem);
    if (!rc) kj_api_launch_plan_make(f, args, nargs); /* the next launch of these types goes through it */
    return rc;
}

int kjit_sync(kjit_ctx *ctx, kjit_error *err)
{
    kj_rt_error e = {0};
    if (ctx && ctx->gpu && !kj_gpu_synchronize(ctx->gpu, &e)) {
        kj_api_set_error(err, KJIT_ERR_RUNTIME, NULL, "%s: %s", e.exc, e.message);
        return KJIT_ERR_RUNTIME;
    }
    kj_api_clear_error(err);
    return KJIT_OK;
}
