/* SPDX-License-Identifier: BSD-2-Clause */
/* Values between the C API and compiled code: a kjit_value in the memory
 * form of a kj type (src/abi/abi.h) and back.
 *
 * The memory form is what the entry points read their arguments from and
 * store their results to: scalars as NumPy stores them (bool one byte),
 * str a pointer, an array its descriptor, a tuple a C struct of its items'
 * memory forms with natural alignment (LLVM's layout of the same literal
 * struct on the hosts kjit supports), none nothing. */
#include "api_int.h"

#include "abi/abi.h"

#include <stdlib.h>
#include <string.h>

/* ---- layout ---- */

size_t kj_api_mem_align(const kj_type *t)
{
    switch (t->kind) {
    case KJ_T_BOOL: return 1;
    case KJ_T_INT: return t->bits ? (size_t)t->bits / 8 : 8;
    case KJ_T_FLOAT: return (size_t)t->bits / 8;
    case KJ_T_COMPLEX: return kj_api_cplx_mem_align(t);
    case KJ_T_TUPLE: {
        size_t a = 1;
        for (uint32_t k = 0; k < t->n; k++) {
            size_t e = kj_api_mem_align(t->elems[k]);
            if (e > a) a = e;
        }
        return a;
    }
    case KJ_T_NONE:
    case KJ_T_FUNC:
    case KJ_T_DTYPE: return 1;
    case KJ_T_OPTIONAL: return kj_api_mem_align(t->elem); /* { valid byte, value } */
    default: return sizeof(void *); /* str, array descriptors */
    }
}

static size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* Offset of item k of a tuple (k == t->n: the end of the last item). */
static size_t item_offset(const kj_type *t, uint32_t k)
{
    size_t at = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        at = round_up(at, kj_api_mem_align(t->elems[i]));
        if (i == k) return at;
        at += kj_api_mem_size(t->elems[i]);
    }
    return at;
}

size_t kj_api_item_offset(const kj_type *t, uint32_t k) { return item_offset(t, k); }

size_t kj_api_mem_size(const kj_type *t)
{
    switch (t->kind) {
    case KJ_T_BOOL:
    case KJ_T_INT:
    case KJ_T_FLOAT: return kj_api_mem_align(t);
    case KJ_T_COMPLEX: return kj_api_cplx_mem_size(t);
    case KJ_T_TUPLE: return round_up(item_offset(t, t->n), kj_api_mem_align(t));
    case KJ_T_OPTIONAL: return round_up(kj_api_mem_align(t) + kj_api_mem_size(t->elem), kj_api_mem_align(t));
    case KJ_T_ARRAY: return kj_abi_array_bytes(t->ndim);
    case KJ_T_NONE:
    case KJ_T_FUNC: /* folded when compiled, as a dtype */
    case KJ_T_DTYPE: return 0;
    default: return sizeof(void *);
    }
}

/* ---- kjit_value → memory ---- */

static kj_scalar value_scalar(const kjit_value *v)
{
    kj_scalar s = {.dtype = KJ_DT_INT64};
    if (v->kind == KJIT_VALUE_FLOAT) {
        s.dtype = kj_api_dtype(v->dtype);
        s.v.f = v->v.f;
    } else if (v->kind == KJIT_VALUE_BOOL) {
        s.dtype = KJ_DT_BOOL;
        s.v.i = v->v.b;
    } else {
        s.dtype = kj_api_dtype(v->dtype);
        s.v.i = v->v.i;
    }
    return s;
}

void kj_api_store_scalar(void *out, kj_dtype dt, const kjit_value *v) { kj_elem_store(out, dt, value_scalar(v)); }

bool kj_api_to_mem(const kj_type *t, const kjit_value *v, void *out)
{
    int ext = kj_api_ext_to_mem(t, v, out); /* Generators, records (values_record.c) */
    if (ext >= 0) return ext;
    if (t && (t->kind == KJ_T_COMPLEX || kj_api_cplx_value(v))) {
        int mine = kj_api_cplx_to_mem(t, v, out);
        if (mine >= 0) return mine;
    }
    bool scalar = v->kind == KJIT_VALUE_BOOL || v->kind == KJIT_VALUE_INT || v->kind == KJIT_VALUE_FLOAT;
    if (kj_is_scalar(t) && scalar) {
        kj_elem_store(out, kj_api_type_dtype(t), value_scalar(v));
        return true;
    }
    if (t->kind == KJ_T_STR && v->kind == KJIT_VALUE_STR) {
        memcpy(out, &v->v.s, sizeof v->v.s);
        return true;
    }
    if (t->kind == KJ_T_ARRAY && v->kind == KJIT_VALUE_ARRAY) {
        kj_array *a = kj_api_arr(v->v.a);
        if (a->ndim != t->ndim || a->dtype != kj_api_type_dtype(t->elem)) return false;
        /* The array is the owner: views made by the code keep it alive. */
        kj_abi_array d;
        kj_abi_array_pack(&d, a->ndim, a->data, a->shape, a->strides, a);
        memcpy(out, &d, kj_abi_array_bytes(a->ndim));
        return true;
    }
    if (t->kind == KJ_T_TUPLE && v->kind == KJIT_VALUE_TUPLE) {
        if ((uint32_t)v->v.t->n != t->n) return false;
        for (uint32_t k = 0; k < t->n; k++)
            if (!kj_api_to_mem(t->elems[k], &v->v.t->items[k], (char *)out + item_offset(t, k))) return false;
        return true;
    }
    if (kj_api_is_container(t)) /* made in the run (values_list.c) */
        return v->kind == (t->kind == KJ_T_LIST ? KJIT_VALUE_LIST : KJIT_VALUE_SET);
    if (t && t->kind == KJ_T_DTYPE) return v->kind == KJIT_VALUE_DTYPE && kj_api_dtype_to_mem(t, v);
    if (t && t->kind == KJ_T_FUNC) return v->kind == KJIT_VALUE_FUNCTION; /* values_function.c */
    if (t && t->kind == KJ_T_DICT && v->kind == KJIT_VALUE_DICT) { /* values_dict.c makes the run's dict of it */
        memcpy(out, &v->v.d, sizeof v->v.d);
        return true;
    }
    return !t || t->kind == KJ_T_NONE; /* nothing to store */
}

/* ---- memory → kjit_value ---- */

/* A returned array descriptor as a kjit_array. The entry point handed over
 * one reference to `owner` (rt.h), which the result takes: it is the owner
 * itself when the descriptor covers it exactly, else a view holding it. */
static kjit_array *array_result(const kj_type *t, const void *mem)
{
    kj_abi_array d;
    memcpy(&d, mem, kj_abi_array_bytes(t->ndim));
    int nd = t->ndim;
    kj_array *owner = kj_abi_array_owner(&d, nd);
    int64_t shape[KJ_ABI_MAX_DIMS], strides[KJ_ABI_MAX_DIMS];
    for (int k = 0; k < nd; k++) {
        shape[k] = kj_abi_array_shape(&d, nd, k);
        strides[k] = kj_abi_array_stride(&d, nd, k);
    }
    void *data = kj_abi_array_data(&d);
    if (owner && owner->ndim == nd && owner->data == data && !memcmp(owner->shape, shape, 8 * (size_t)nd) &&
        !memcmp(owner->strides, strides, 8 * (size_t)nd))
        return kj_api_pub(owner);
    kj_array *v = kj_array_wrap(data, kj_api_type_dtype(t->elem), nd, shape, strides, NULL);
    if (!v) abort(); /* the shape came from a valid array: only memory can fail */
    v->base = owner;
    return kj_api_pub(v);
}

static kjit_tuple *tuple_result(const kj_type *t, const char *mem)
{
    kj_api_tuple_result *res = malloc(sizeof *res); /* the tuple and its class name (values_namedtuple.c) */
    kjit_value *items = calloc(t->n + 1, sizeof *items);
    if (!res || !items) abort();
    res->name = kj_api_tuple_name(t);
    kjit_tuple *tup = &res->tuple;
    for (uint32_t k = 0; k < t->n; k++) items[k] = kj_api_from_mem(t->elems[k], mem + item_offset(t, k));
    tup->n = (int)t->n;
    tup->items = items;
    return tup;
}

/* Into *out (not returned: a kjit_value is 24 bytes, which a return passes through memory, twice). */
void kj_api_from_mem_to(const kj_type *t, const void *mem, kjit_value *out)
{
    *out = (kjit_value){0};
    if (kj_api_ext_from_mem(t, mem, out)) return;
    if (kj_api_cplx_result_type(t)) { /* values_cplx.c */
        *out = kj_api_cplx_result(t, mem, array_result);
    } else if (kj_is_scalar(t)) {
        kj_scalar s = kj_elem_load(mem, kj_api_type_dtype(t));
        if (t->kind == KJ_T_BOOL) *out = kjit_value_bool(s.v.i != 0);
        else if (t->kind == KJ_T_FLOAT)
            *out = t->bits == 32 ? kjit_value_float32((float)s.v.f) : kjit_value_float(s.v.f);
        else *out = kjit_value_int_as(s.v.i, kj_api_public_dtype(s.dtype));
    } else if (t->kind == KJ_T_STR) {
        const char *s;
        memcpy(&s, mem, sizeof s);
        *out = kjit_value_str(s);
        out->dtype = KJ_API_STR_OWNED; /* a copy (str_result.c): kjit_value_release frees it */
    } else if (t->kind == KJ_T_ARRAY) {
        *out = kjit_value_array(array_result(t, mem));
        out->dtype = kj_api_public_dtype(kj_api_type_dtype(t->elem));
    } else if (t->kind == KJ_T_TUPLE) {
        *out = kjit_value_tuple(tuple_result(t, mem));
        kj_api_poly_tag(t, out); /* a numpy.polynomial.Polynomial (values_poly.c) */
    } else if (kj_api_is_container(t)) { /* a kjit_list the run's trampoline made (values_list.c) */
        out->kind = t->kind == KJ_T_LIST ? KJIT_VALUE_LIST : KJIT_VALUE_SET;
        memcpy(&out->v.l, mem, sizeof out->v.l);
    } else if (t->kind == KJ_T_DTYPE) {
        *out = kj_api_dtype_result(t); /* values_dtype.c */
    } else if (t->kind == KJ_T_DICT) { /* values_dict.c's trampoline left the kjit_dict there */
        out->kind = KJIT_VALUE_DICT;
        memcpy(&out->v.d, mem, sizeof out->v.d);
    } else if (t->kind == KJ_T_OPTIONAL && *(const unsigned char *)mem) { /* Numba's Optional: None or the value */
        kj_api_from_mem_to(t->elem, (const char *)mem + kj_api_mem_align(t), out);
    } else {
        *out = (kjit_value){0};
    }
}

kjit_value kj_api_from_mem(const kj_type *t, const void *mem)
{
    kjit_value r;
    kj_api_from_mem_to(t, mem, &r);
    return r;
}

void kjit_value_release(kjit_value *v)
{
    if (!v || kj_api_ext_release(v)) return;
    if (v->kind == KJIT_VALUE_ARRAY || v->kind == KJIT_VALUE_BYTES) kjit_array_free(v->v.a);
    if (v->kind == KJIT_VALUE_DICT) kjit_dict_free(v->v.d);
    if (v->kind == KJIT_VALUE_GENERATOR) kjit_generator_free(v->v.g);
    if (v->kind == KJIT_VALUE_STR && v->dtype == KJ_API_STR_OWNED) free((char *)v->v.s);
    if (v->kind == KJIT_VALUE_LIST || v->kind == KJIT_VALUE_SET) kj_api_list_value_release(v);
    if (v->kind == KJIT_VALUE_TUPLE && v->v.t) {
        for (int k = 0; k < v->v.t->n; k++) kjit_value_release(&v->v.t->items[k]);
        free(v->v.t->items);
        free(v->v.t);
    }
    *v = (kjit_value){0};
}
