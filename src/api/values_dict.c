/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.typed.Dict across kjit_call (KJIT_VALUE_DICT, include/kjit.h).
 *
 * Compiled code's dict is the runtime's kj_dict (runtime/dict.h), which
 * lives in the run context and dies when the run ends. So a dict crosses
 * the C API as its entries: an argument's kjit_dict is built into a kj_dict
 * of the run before the code runs, and its entries as the code left them
 * come back in `after` (the caller reflects them, as Numba reflects a
 * list); a result's kj_dict is converted to a kjit_dict of kjit's. Both
 * happen inside the run (a trampoline entry, as str_result.c's), since the
 * run's strings and arrays are gone once the outermost entry returns: the
 * marshalled argument slot holds the caller's kjit_dict pointer until the
 * trampoline replaces it by the kj_dict, and the result slot holds the
 * kj_dict until the trampoline replaces it by the kjit_dict, which
 * kj_api_from_mem then hands back as the value. */
#include "api_int.h"

#include "runtime/dict.h"
#include "runtime/rt.h"

#include <stdlib.h>
#include <string.h>

enum { DICT_HDR = 16, MAX_TUPLE = 64, MAX_DEPTH = 16 }; /* dict.c's entry header: hash u64, live i64 */

/* ---- types ---- */

static bool key_ok(const kj_type *t, int depth)
{
    if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++)
            if (depth >= MAX_DEPTH || !key_ok(t->elems[k], depth + 1)) return false;
        return true;
    }
    return t->kind == KJ_T_STR || (kj_is_scalar(t) && !kj_is_complex(t));
}

static bool value_ok(const kj_type *t)
{
    if (t->kind == KJ_T_ARRAY) return t->ndim <= KJ_ABI_MAX_DIMS;
    if (t->kind != KJ_T_TUPLE) return key_ok(t, 0);
    for (uint32_t k = 0; k < t->n; k++)
        if (!value_ok(t->elems[k])) return false;
    return true;
}

bool kj_api_dict_ok(const kj_type *t)
{
    return t->kind == KJ_T_DICT && t->elem && t->n == 1 && key_ok(t->elem, 0) && value_ok(t->elems[0]);
}

bool kj_api_type_has_dict(const kj_type *t)
{
    if (t->kind == KJ_T_DICT) return true;
    if (t->kind == KJ_T_OPTIONAL) return kj_api_type_has_dict(t->elem);
    if (t->kind != KJ_T_TUPLE) return false;
    for (uint32_t k = 0; k < t->n; k++)
        if (kj_api_type_has_dict(t->elems[k])) return true;
    return false;
}

bool kj_api_kf_has_dict(const kir_func *kf)
{
    if (kj_api_type_has_dict(kf->ret)) return true;
    for (uint32_t k = 0; k < kf->nparams; k++)
        if (kj_api_type_has_dict(kf->params[k])) return true;
    return false;
}

/* The scalar kj type of a public dtype (bool, integers, floats). */
static const kj_type *scalar_type(kj_types *t, kjit_dtype dt)
{
    static const int bits[] = {[KJIT_INT8] = 8,    [KJIT_INT16] = 16,  [KJIT_INT32] = 32,
                               [KJIT_INT64] = 64,  [KJIT_UINT8] = 8,   [KJIT_UINT16] = 16,
                               [KJIT_UINT32] = 32, [KJIT_UINT64] = 64};
    if (dt == KJIT_BOOL) return kj_t_bool(t);
    if (dt == KJIT_FLOAT32 || dt == KJIT_FLOAT64) return kj_t_float(t, dt == KJIT_FLOAT32 ? 32 : 64);
    return kj_t_int(t, bits[dt], dt <= KJIT_INT64);
}

/* Is d a type value kjit_dict allows (kjit.h)? */
static bool desc_valid(const kjit_value *d, int depth)
{
    switch (d->kind) {
    case KJIT_VALUE_BOOL:
    case KJIT_VALUE_STR: return true;
    case KJIT_VALUE_INT: return d->dtype >= KJIT_INT8 && d->dtype <= KJIT_UINT64;
    case KJIT_VALUE_FLOAT: return d->dtype == KJIT_FLOAT32 || d->dtype == KJIT_FLOAT64;
    case KJIT_VALUE_ARRAY:
        return d->v.i >= 1 && d->v.i <= KJ_ABI_MAX_DIMS && d->dtype >= KJIT_BOOL && d->dtype <= KJIT_FLOAT64;
    case KJIT_VALUE_TUPLE: {
        const kjit_tuple *tp = d->v.t;
        if (!tp || tp->n < 0 || tp->n > MAX_TUPLE || (tp->n && !tp->items) || depth >= MAX_DEPTH) return false;
        for (int k = 0; k < tp->n; k++)
            if (!desc_valid(&tp->items[k], depth + 1) || tp->items[k].kind == KJIT_VALUE_ARRAY) return false;
        return true;
    }
    default: return false;
    }
}

/* The kj type a type value names (kjit.h's kjit_dict), NULL if it names none. */
static const kj_type *desc_type(kj_types *t, const kjit_value *d, int depth)
{
    switch (d->kind) {
    case KJIT_VALUE_BOOL: return kj_t_bool(t);
    case KJIT_VALUE_STR: return kj_t_str(t);
    case KJIT_VALUE_INT:
        if (d->dtype < KJIT_INT8 || d->dtype > KJIT_UINT64) return NULL;
        return scalar_type(t, d->dtype);
    case KJIT_VALUE_FLOAT:
        if (d->dtype != KJIT_FLOAT32 && d->dtype != KJIT_FLOAT64) return NULL;
        return kj_t_float(t, d->dtype == KJIT_FLOAT32 ? 32 : 64);
    case KJIT_VALUE_ARRAY: {
        if (d->v.i < 1 || d->v.i > KJ_ABI_MAX_DIMS || d->dtype < KJIT_BOOL || d->dtype > KJIT_FLOAT64) return NULL;
        return kj_t_array(t, scalar_type(t, d->dtype), (int)d->v.i, KJ_LAYOUT_A);
    }
    case KJIT_VALUE_TUPLE: {
        const kjit_tuple *tp = d->v.t;
        if (!tp || tp->n < 0 || tp->n > MAX_TUPLE || (tp->n && !tp->items) || depth >= MAX_DEPTH) return NULL;
        const kj_type *items[MAX_TUPLE];
        for (int k = 0; k < tp->n; k++)
            if (!(items[k] = desc_type(t, &tp->items[k], depth + 1))) return NULL;
        return kj_t_tuple(t, items, (uint32_t)tp->n);
    }
    default: return NULL;
    }
}

const kj_type *kj_api_dict_type(kj_types *t, const kjit_value *v)
{
    const kj_type *kt = desc_type(t, &v->v.d->key_type, 0), *vt = desc_type(t, &v->v.d->value_type, 0);
    return kt && vt ? kj_t_dict(t, kt, vt) : kj_t_none(t);
}

/* Does value v fit type value d (scalars convert among themselves)? */
static bool fits(const kjit_value *d, const kjit_value *v, int depth)
{
    bool dnum = d->kind == KJIT_VALUE_BOOL || d->kind == KJIT_VALUE_INT || d->kind == KJIT_VALUE_FLOAT;
    bool vnum = v->kind == KJIT_VALUE_BOOL || v->kind == KJIT_VALUE_INT || v->kind == KJIT_VALUE_FLOAT;
    if (dnum || vnum) return dnum && vnum;
    if (d->kind != v->kind || depth >= MAX_DEPTH) return false;
    if (d->kind == KJIT_VALUE_STR) return v->v.s != NULL;
    if (d->kind == KJIT_VALUE_ARRAY)
        return v->v.a && kjit_array_ndim(v->v.a) == d->v.i && kjit_array_dtype(v->v.a) == d->dtype;
    if (d->kind != KJIT_VALUE_TUPLE || !v->v.t || v->v.t->n != d->v.t->n) return false;
    for (int k = 0; k < d->v.t->n; k++)
        if (!fits(&d->v.t->items[k], &v->v.t->items[k], depth + 1)) return false;
    return true;
}

int kj_api_dict_check(const kjit_value *v, int k, kjit_error *err)
{
    const kjit_dict *d = v->v.d;
    if (!d || d->n < 0 || (d->n && (!d->keys || !d->values)))
        return kj_api_usage(err, "argument %d: dict is NULL or has no entries", k + 1);
    if (!desc_valid(&d->key_type, 0) || !desc_valid(&d->value_type, 0) || d->key_type.kind == KJIT_VALUE_ARRAY) return kj_api_usage(err, "argument %d: the dict's key or value type is not one kjit passes", k + 1);
    for (int64_t i = 0; i < d->n; i++)
        if (!fits(&d->key_type, &d->keys[i], 0) || !fits(&d->value_type, &d->values[i], 0)) {
            char buf[64];
            return kj_api_usage(err, "argument %d: entry %lld of the dict: a %s does not fit its type", k + 1,
                                (long long)i,
                                kjit_value_type_name(fits(&d->key_type, &d->keys[i], 0) ? &d->values[i] : &d->keys[i],
                                                     buf, sizeof buf));
        }
    return KJIT_OK;
}

/* ---- kjit_dict → the run's kj_dict ---- */

/* -0.0 keys as 0.0 (dict.c compares keys as bytes), as generated code stores them. */
static void normalize(const kj_type *t, char *mem)
{
    if (t->kind == KJ_T_FLOAT && t->bits == 64) {
        double x;
        memcpy(&x, mem, sizeof x);
        if (x == 0) memset(mem, 0, sizeof x);
    } else if (t->kind == KJ_T_FLOAT && t->bits == 32) {
        float x;
        memcpy(&x, mem, sizeof x);
        if (x == 0) memset(mem, 0, sizeof x);
    } else if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++) normalize(t->elems[k], mem + kj_api_item_offset(t, k));
    }
}

static kj_dict *build(kj_rt *rt, const kj_type *dt, const kjit_dict *src)
{
    const kj_type *kt = dt->elem, *vt = dt->elems[0];
    int64_t ks = (int64_t)kj_api_mem_size(kt), vs = (int64_t)kj_api_mem_size(vt);
    int32_t owner = vt->kind == KJ_T_ARRAY ? (int32_t)kj_abi_array_bytes(vt->ndim) - 8 : -1;
    int32_t kind = kt->kind == KJ_T_INT || kt->kind == KJ_T_BOOL ? 1 : kt->kind == KJ_T_STR ? 2 : 0;
    kj_dict *d = kj_rt_dict_new(rt, ks, vs, owner, kind);
    _Alignas(16) char kbuf[1024], vbuf[1024];
    char *km = (size_t)ks < sizeof kbuf ? kbuf : calloc(1, (size_t)ks + 1);
    char *vm = (size_t)vs < sizeof vbuf ? vbuf : calloc(1, (size_t)vs + 1);
    if (!km || !vm) abort();
    for (int64_t i = 0; i < src->n; i++) {
        memset(km, 0, (size_t)ks); /* padding: keys compare as bytes */
        memset(vm, 0, (size_t)vs);
        kj_api_to_mem(kt, &src->keys[i], km); /* kj_api_dict_check made sure they fit */
        kj_api_to_mem(vt, &src->values[i], vm);
        normalize(kt, km);
        kj_rt_dict_set(rt, d, km, vm);
    }
    if (km != kbuf) free(km);
    if (vm != vbuf) free(vm);
    return d;
}

/* A tuple of kjit's for t's items (zeroed), laid out as a result's (values.c: its class name after it, which
 * kjit_tuple_name reads); free()d as a kjit_tuple. */
static kjit_tuple *new_tuple(const kj_type *t)
{
    kj_api_tuple_result *res = malloc(sizeof *res);
    kjit_value *items = calloc(t->n + 1, sizeof *items);
    if (!res || !items) abort();
    res->tuple = (kjit_tuple){(int)t->n, items};
    res->name = kj_api_tuple_name(t);
    return &res->tuple;
}

/* ---- kj_dict → kjit_dict ---- */

static kjit_value type_value(const kj_type *t)
{
    kjit_value v = {0};
    switch (t->kind) {
    case KJ_T_BOOL: v = kjit_value_bool(false); break;
    case KJ_T_INT: v = kjit_value_int_as(0, kj_api_public_dtype(kj_api_type_dtype(t))); break;
    case KJ_T_FLOAT: v = t->bits == 32 ? kjit_value_float32(0) : kjit_value_float(0); break;
    case KJ_T_STR: v.kind = KJIT_VALUE_STR; break;
    case KJ_T_ARRAY:
        v.kind = KJIT_VALUE_ARRAY;
        v.dtype = kj_api_public_dtype(kj_api_type_dtype(t->elem));
        v.v.i = t->ndim;
        break;
    case KJ_T_TUPLE: {
        kjit_tuple *tp = new_tuple(t);
        for (uint32_t k = 0; k < t->n; k++) tp->items[k] = type_value(t->elems[k]);
        v = kjit_value_tuple(tp);
        break;
    }
    default: break;
    }
    return v;
}

static void type_value_free(kjit_value *v)
{
    if (v->kind == KJIT_VALUE_TUPLE && v->v.t) {
        for (int k = 0; k < v->v.t->n; k++) type_value_free(&v->v.t->items[k]);
        free(v->v.t->items);
        free(v->v.t);
    }
    *v = (kjit_value){0};
}

/* The value of type t at mem, owning copies of its strings and references to its arrays. */
static kjit_value own_value(const kj_type *t, const char *mem)
{
    if (t->kind == KJ_T_STR) {
        const char *s;
        memcpy(&s, mem, sizeof s);
        kjit_value v = kjit_value_str(strdup(s ? s : ""));
        if (!v.v.s) abort();
        v.dtype = KJ_API_STR_OWNED;
        return v;
    }
    if (t->kind == KJ_T_ARRAY) { /* kj_api_from_mem takes a reference: the dict keeps its own */
        kj_abi_array d;
        memcpy(&d, mem, kj_abi_array_bytes(t->ndim));
        kj_array_retain(kj_abi_array_owner(&d, t->ndim));
        return kj_api_from_mem(t, mem);
    }
    if (t->kind == KJ_T_TUPLE) {
        kjit_tuple *tp = new_tuple(t);
        for (uint32_t k = 0; k < t->n; k++) tp->items[k] = own_value(t->elems[k], mem + kj_api_item_offset(t, k));
        return kjit_value_tuple(tp);
    }
    return kj_api_from_mem(t, mem);
}

static kjit_dict *to_public(const kj_type *dt, const kj_dict *d)
{
    const kj_type *kt = dt->elem, *vt = dt->elems[0];
    kjit_dict *out = calloc(1, sizeof *out);
    if (!out) abort();
    out->keys = calloc((size_t)d->len + 1, sizeof *out->keys);
    out->values = calloc((size_t)d->len + 1, sizeof *out->values);
    if (!out->keys || !out->values) abort();
    for (int64_t i = 0; i < d->used; i++) {
        const char *e = d->entries + i * d->esz;
        if (!e[8]) continue; /* deleted */
        out->keys[out->n] = own_value(kt, e + DICT_HDR);
        out->values[out->n++] = own_value(vt, e + d->voff);
    }
    out->key_type = type_value(kt);
    out->value_type = type_value(vt);
    return out;
}

void kjit_dict_free(kjit_dict *d)
{
    if (!d) return;
    for (int64_t i = 0; i < d->n; i++) {
        kjit_value_release(&d->keys[i]);
        kjit_value_release(&d->values[i]);
    }
    free(d->keys);
    free(d->values);
    type_value_free(&d->key_type);
    type_value_free(&d->value_type);
    kjit_dict_free(d->after);
    free(d);
}

/* ---- the trampoline ---- */

typedef struct pending {
    kjit_dict *src;
    kj_dict *d;
    const kj_type *t;
} pending;

typedef struct dict_run {
    const kj_api_spec *sp;
    void **argv;
    pending *p;
    size_t np;
} dict_run;

/* Each dict of an argument of type t at mem: the caller's kjit_dict replaced by the run's kj_dict. */
static void args_in(kj_rt *rt, dict_run *r, const kj_type *t, char *mem)
{
    if (t->kind == KJ_T_DICT) {
        kjit_dict *src;
        memcpy(&src, mem, sizeof src);
        kj_dict *d = build(rt, t, src);
        memcpy(mem, &d, sizeof d);
        r->p[r->np++] = (pending){src, d, t};
    } else if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++) args_in(rt, r, t->elems[k], mem + kj_api_item_offset(t, k));
    }
}

/* The result of type t at mem made the caller's: dicts converted, strings copied (as str_result.c). */
void kj_api_result_own(const kj_type *t, char *mem)
{
    if (t->kind == KJ_T_DICT) {
        kj_dict *d;
        memcpy(&d, mem, sizeof d);
        kjit_dict *pub = to_public(t, d);
        memcpy(mem, &pub, sizeof pub);
    } else if (t->kind == KJ_T_STR) {
        const char *s;
        memcpy(&s, mem, sizeof s);
        char *copy = strdup(s ? s : "");
        if (!copy) abort();
        memcpy(mem, &copy, sizeof copy);
    } else if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++) kj_api_result_own(t->elems[k], mem + kj_api_item_offset(t, k));
    } else if (t->kind == KJ_T_OPTIONAL && *(const unsigned char *)mem) {
        kj_api_result_own(t->elem, mem + kj_api_mem_align(t));
    }
}

static size_t count_dicts(const kj_type *t)
{
    if (t->kind == KJ_T_DICT) return 1;
    size_t n = 0;
    if (t->kind == KJ_T_TUPLE)
        for (uint32_t k = 0; k < t->n; k++) n += count_dicts(t->elems[k]);
    return n;
}

void *kj_api_dicts_in(kj_rt *rt, const kj_api_spec *sp, void **argv)
{
    size_t n = 0;
    for (uint32_t k = 0; k < sp->kf->nparams; k++) n += count_dicts(sp->kf->params[k]);
    dict_run *r = malloc(sizeof *r);
    if (!r) abort();
    *r = (dict_run){sp, argv, calloc(n + 1, sizeof(pending)), 0};
    if (!r->p) abort();
    for (uint32_t k = 0; k < sp->kf->nparams; k++) args_in(rt, r, sp->kf->params[k], argv[k]);
    return r;
}

void kj_api_dicts_out(void *state, bool returned)
{
    dict_run *r = state;
    for (size_t k = 0; returned && k < r->np; k++) { /* the arguments' entries as the code left them */
        kjit_dict_free(r->p[k].src->after);
        r->p[k].src->after = to_public(r->p[k].t, r->p[k].d);
    }
    free(r->p);
    free(r);
}

typedef struct dict_call {
    const kj_api_spec *sp;
    void **argv;
    void *dicts; /* kj_api_dicts_in's, freed by the caller (the entry may not return here) */
} dict_call;

KJ_CALLS_JIT static void run_dicts(kj_rt *rt, void **args, void *ret)
{
    dict_call *c = (dict_call *)(void *)args;
    c->dicts = kj_api_dicts_in(rt, c->sp, c->argv);
    c->sp->entry(rt, c->argv, ret);
    kj_api_dicts_out(c->dicts, true);
    c->dicts = NULL;
    kj_api_result_own(c->sp->kf->ret, ret);
}

kj_rt_kind kj_api_run_dict_entry(kj_rt *rt, const kj_api_spec *sp, void **argv, void *ret)
{
    dict_call c = {sp, argv, NULL};
    kj_rt_kind kind = kj_rt_call_entry(rt, run_dicts, (void **)(void *)&c, ret);
    if (c.dicts) kj_api_dicts_out(c.dicts, false); /* the code raised: the dicts stay as they were */
    return kind;
}
