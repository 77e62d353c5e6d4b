/* SPDX-License-Identifier: BSD-2-Clause */
/* Lists and sets between the C API and compiled code (KJIT_VALUE_LIST,
 * KJIT_VALUE_SET; kjit.h's kjit_list), as Numba's reflected list and set.
 *
 * In compiled code a list is a pointer to the runtime's kj_list and a set to
 * a kj_dict without values (runtime/list.h, dict.h), both registered in the
 * run context and freed when the outermost entry call returns, with the
 * strings the run made. So everything happens inside the run, in a
 * trampoline around the entry (run_containers):
 *   - an argument's list or set is built there from the caller's items (a
 *     list of arrays takes a reference to each, as generated code's lists do);
 *   - the entry runs as a nested entry call, so that an error it raises comes
 *     back here first: Numba reflects arguments whether the call raised or not;
 *   - each top-level list or set argument is compared with the caller's items
 *     and, where it differs, reflected: the caller's kjit_list gets new items
 *     (copies: strings duplicated, arrays retained, nested lists converted);
 *   - the error is raised again, or the result's lists and sets are converted
 *     into malloc'd kjit_lists (which kj_api_from_mem then hands out).
 * A prepared call has no list arguments; its list results are converted by
 * str_result.c's trampoline through kj_api_own_container. */
#include "api_int.h"

#include "abi/abi.h"
#include "abi/exc_obj.h"
#include "runtime/array.h"
#include "runtime/dict.h"
#include "runtime/list.h"
#include "runtime/rt.h"

#include <stdlib.h>
#include <string.h>

bool kj_api_is_container(const kj_type *t) { return t && (t->kind == KJ_T_LIST || t->kind == KJ_T_SET); }

bool kj_api_type_has_container(const kj_type *t)
{
    if (!t) return false;
    if (kj_api_is_container(t)) return true;
    if (t->kind == KJ_T_OPTIONAL) return kj_api_type_has_container(t->elem);
    if (t->kind != KJ_T_TUPLE) return false;
    for (uint32_t k = 0; k < t->n; k++)
        if (kj_api_type_has_container(t->elems[k])) return true;
    return false;
}

bool kj_api_container_returnable(const kj_type *t, bool (*item_ok)(const kj_type *))
{
    return !t->elem || item_ok(t->elem); /* `[]` that nothing typed: an empty list */
}

/* ---- checking an argument ---- */

static bool c_order(const kjit_array *a) { return (kj_api_arr(a)->flags & KJ_ARR_C_CONTIGUOUS) != 0; }
static bool f_order(const kjit_array *a) { return (kj_api_arr(a)->flags & KJ_ARR_F_CONTIGUOUS) != 0; }

/* Do a and b have one type (kind, dtype, rank, layout, tuple shape)? */
static bool same_type(const kjit_value *a, const kjit_value *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case KJIT_VALUE_INT:
    case KJIT_VALUE_FLOAT: return a->dtype == b->dtype;
    case KJIT_VALUE_ARRAY:
        return a->v.a && b->v.a && kjit_array_dtype(a->v.a) == kjit_array_dtype(b->v.a) &&
               kjit_array_ndim(a->v.a) == kjit_array_ndim(b->v.a) && c_order(a->v.a) == c_order(b->v.a) &&
               (c_order(a->v.a) || f_order(a->v.a) == f_order(b->v.a));
    case KJIT_VALUE_TUPLE:
        if (!a->v.t || !b->v.t || a->v.t->n != b->v.t->n) return false;
        for (int k = 0; k < a->v.t->n; k++)
            if (!same_type(&a->v.t->items[k], &b->v.t->items[k])) return false;
        return true;
    case KJIT_VALUE_LIST:
    case KJIT_VALUE_SET:
        return a->v.l && b->v.l && a->v.l->n > 0 && b->v.l->n > 0 && same_type(&a->v.l->items[0], &b->v.l->items[0]);
    default: return true;
    }
}

/* What a set may hold: numbers, bools, strings and tuples of them (hashable, as in Python). */
static bool hashable(const kjit_value *v)
{
    if (v->kind == KJIT_VALUE_TUPLE) {
        for (int k = 0; k < v->v.t->n; k++)
            if (!hashable(&v->v.t->items[k])) return false;
        return true;
    }
    return v->kind == KJIT_VALUE_BOOL || v->kind == KJIT_VALUE_INT || v->kind == KJIT_VALUE_FLOAT ||
           v->kind == KJIT_VALUE_STR;
}

int kj_api_check_container(const kjit_fn *f, const kjit_value *v, int k, kjit_error *err)
{
    const char *what = v->kind == KJIT_VALUE_SET ? "set" : "list";
    const kjit_list *l = v->v.l;
    if (!l || l->n < 0 || (l->n > 0 && !l->items))
        return kj_api_usage(err, "argument %d: %s is NULL or has no items", k + 1, what);
    if (f->kind == KJIT_FN_KERNEL || f->kind == KJIT_FN_UFUNC || f->kind == KJIT_FN_DEVICE)
        return kj_api_usage(err, "argument %d: a %s cannot be passed to '%s' (kjit_call of a @jit function takes "
                            "lists and sets)", k + 1, what, f->name);
    if (l->n == 0 && !l->items) /* Numba: "cannot compute fingerprint of empty list" */
        return kj_api_usage(err, "argument %d: cannot type an empty %s (its items' type is unknown)", k + 1, what);
    if (l->n == 0) return KJIT_OK; /* typed by the example items[0] (a typed.List's item type) */
    char a[96], b[96];
    for (int64_t i = 1; i < l->n; i++)
        if (!same_type(&l->items[0], &l->items[i]))
            return kj_api_usage(err, "argument %d: can't unbox heterogeneous %s: %s != %s", k + 1, what,
                                kjit_value_type_name(&l->items[0], a, sizeof a),
                                kjit_value_type_name(&l->items[i], b, sizeof b));
    if (v->kind == KJIT_VALUE_SET && !hashable(&l->items[0]))
        return kj_api_usage(err, "argument %d: a set of %s (sets hold numbers, strings and tuples of them)", k + 1,
                            kjit_value_type_name(&l->items[0], a, sizeof a));
    return KJIT_OK;
}

/* ---- the caller's items into the run ---- */

/* The bytes of a set key as generated code makes them (llvm_dict.c): padding
 * zeroed (the memory is calloc'd), -0.0 made 0.0. */
static void norm_key(const kj_type *t, char *mem)
{
    if (t->kind == KJ_T_FLOAT && t->bits == 64) {
        double d;
        memcpy(&d, mem, sizeof d);
        if (d == 0) memset(mem, 0, sizeof d);
    } else if (t->kind == KJ_T_FLOAT && t->bits == 32) {
        float x;
        memcpy(&x, mem, sizeof x);
        if (x == 0) memset(mem, 0, sizeof x);
    } else if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++) norm_key(t->elems[k], mem + kj_api_item_offset(t, k));
    }
}

static int32_t array_owner_off(const kj_type *et)
{
    return et && et->kind == KJ_T_ARRAY ? (int32_t)kj_abi_array_bytes(et->ndim) - 8 : -1;
}

static void build(kj_rt *rt, const kj_type *t, const kjit_value *v, char *mem);

static void *build_list(kj_rt *rt, const kj_type *t, const kjit_list *l)
{
    size_t isz = kj_api_mem_size(t->elem);
    kj_list *out = kj_rt_list_new(rt, (int64_t)isz, l->n, array_owner_off(t->elem));
    for (int64_t i = 0; i < l->n; i++) {
        build(rt, t->elem, &l->items[i], out->data + i * out->itemsize);
        if (t->elem->kind == KJ_T_ARRAY) kj_array_retain(kj_api_arr(l->items[i].v.a)); /* the list's reference */
    }
    return out;
}

static void *build_set(kj_rt *rt, const kj_type *t, const kjit_list *l)
{
    const kj_type *et = t->elem;
    size_t ksz = kj_api_mem_size(et);
    int32_t key_kind = et->kind == KJ_T_INT || et->kind == KJ_T_BOOL ? 1 : et->kind == KJ_T_STR ? 2 : 0;
    void *d = kj_rt_dict_new(rt, (int64_t)ksz, 0, -1, key_kind);
    char *key = malloc(ksz + 16);
    if (!key) abort();
    for (int64_t i = 0; i < l->n; i++) {
        memset(key, 0, ksz + 16);
        build(rt, et, &l->items[i], key);
        norm_key(et, key);
        kj_rt_dict_set(rt, d, key, NULL);
    }
    free(key);
    return d;
}

/* v (checked: of type t) in its memory form at mem, lists and sets made in the run. */
static void build(kj_rt *rt, const kj_type *t, const kjit_value *v, char *mem)
{
    void *p = NULL;
    if (t->kind == KJ_T_LIST) p = build_list(rt, t, v->v.l);
    else if (t->kind == KJ_T_SET) p = build_set(rt, t, v->v.l);
    else if (t->kind == KJ_T_TUPLE && v->kind == KJIT_VALUE_TUPLE) {
        for (uint32_t k = 0; k < t->n && k < (uint32_t)v->v.t->n; k++)
            build(rt, t->elems[k], &v->v.t->items[k], mem + kj_api_item_offset(t, k));
        return;
    } else {
        kj_api_to_mem(t, v, mem);
        return;
    }
    memcpy(mem, &p, sizeof p);
}

/* ---- run values out of the run ---- */

static void own(const kj_type *t, char *mem, bool held, void *const *args, int nargs);

static kjit_list *list_new(int64_t n)
{
    kjit_list *l = calloc(1, sizeof *l);
    if (!l || !(l->items = calloc((size_t)n + 1, sizeof *l->items))) abort();
    l->n = n;
    l->owned = true;
    return l;
}

/* An item of a container at `mem` as a kjit_value of its own (the container keeps its references). */
static kjit_value item_value(const kj_type *t, const char *mem)
{
    size_t size = kj_api_mem_size(t);
    _Alignas(16) char small[256];
    char *tmp = size <= sizeof small ? small : malloc(size);
    if (!tmp) abort();
    memcpy(tmp, mem, size);
    own(t, tmp, true, NULL, 0);
    kjit_value v = kj_api_from_mem(t, tmp);
    if (tmp != small) free(tmp);
    return v;
}

static kjit_list *list_out(const kj_type *t, const kj_list *src)
{
    kjit_list *l = list_new(src ? src->len : 0);
    for (int64_t i = 0; i < l->n; i++) l->items[i] = item_value(t->elem, src->data + i * src->itemsize);
    return l;
}

enum { DICT_HDR = 16 }; /* an entry's hash and live flag (dict.c) */

static kjit_list *set_out(const kj_type *t, const kj_dict *d)
{
    kjit_list *l = list_new(d ? d->len : 0);
    int64_t n = 0;
    for (int64_t i = 0; d && i < d->used && n < l->n; i++) {
        const char *e = d->entries + i * d->esz;
        if (e[8]) l->items[n++] = item_value(t->elem, e + DICT_HDR);
    }
    l->n = n;
    return l;
}

/* The value of type t at mem made the caller's, in place: strings copied,
 * lists and sets replaced by kjit_lists; arrays retained when `held` (an item
 * of a container, which keeps its own reference; a result's arrays carry the
 * reference the entry handed over). A list that is argument k's own (args[k])
 * is marked from_arg. */
static void own(const kj_type *t, char *mem, bool held, void *const *args, int nargs)
{
    switch (t->kind) {
    case KJ_T_STR: {
        const char *s;
        memcpy(&s, mem, sizeof s);
        char *copy = strdup(s ? s : "");
        if (!copy) abort();
        memcpy(mem, &copy, sizeof copy);
        break;
    }
    case KJ_T_ARRAY: {
        kj_abi_array d;
        memcpy(&d, mem, kj_abi_array_bytes(t->ndim));
        kj_array *owner = kj_abi_array_owner(&d, t->ndim);
        if (held && owner) kj_array_retain(owner);
        break;
    }
    case KJ_T_TUPLE:
        for (uint32_t k = 0; k < t->n; k++) own(t->elems[k], mem + kj_api_item_offset(t, k), held, args, nargs);
        break;
    case KJ_T_OPTIONAL:
        if (*(const unsigned char *)mem) own(t->elem, mem + kj_api_mem_align(t), held, args, nargs);
        break;
    case KJ_T_DICT: kj_api_result_own(t, mem); break; /* a kjit_dict of its entries (values_dict.c) */
    case KJ_T_LIST:
    case KJ_T_SET: {
        void *p;
        memcpy(&p, mem, sizeof p);
        kjit_list *l = !t->elem ? list_new(0) : t->kind == KJ_T_LIST ? list_out(t, p) : set_out(t, p);
        for (int k = 0; k < nargs && p; k++)
            if (args[k] == p) l->from_arg = k + 1;
        memcpy(mem, &l, sizeof l);
        break;
    }
    default: break;
    }
}

void kj_api_own_container(const kj_type *t, void *mem) { own(t, mem, false, NULL, 0); }

/* ---- reflection ---- */

static bool same_value(kj_rt *rt, const kj_type *t, const char *mem, const kjit_value *v);

static bool same_list(kj_rt *rt, const kj_type *t, const kj_list *l, const kjit_list *v)
{
    if (l->len != v->n) return false;
    for (int64_t i = 0; i < l->len; i++)
        if (!same_value(rt, t->elem, l->data + i * l->itemsize, &v->items[i])) return false;
    return true;
}

static bool same_set(kj_rt *rt, const kj_type *t, kj_dict *d, const kjit_list *v)
{
    if (d->len != v->n) return false; /* the caller's items are distinct: a set's */
    size_t ksz = kj_api_mem_size(t->elem);
    char *key = malloc(ksz + 16);
    if (!key) abort();
    bool same = true;
    for (int64_t i = 0; i < v->n && same; i++) {
        memset(key, 0, ksz + 16);
        build(rt, t->elem, &v->items[i], key);
        norm_key(t->elem, key);
        same = kj_rt_dict_find(rt, d, key) != NULL;
    }
    free(key);
    return same;
}

static bool same_array(const kj_type *t, const char *mem, const kjit_array *pa)
{
    const kj_array *a = kj_api_arr(pa);
    kj_abi_array d;
    memcpy(&d, mem, kj_abi_array_bytes(t->ndim));
    if (kj_abi_array_data(&d) != a->data) return false;
    for (int k = 0; k < t->ndim; k++)
        if (kj_abi_array_shape(&d, t->ndim, k) != a->shape[k] || kj_abi_array_stride(&d, t->ndim, k) != a->strides[k])
            return false;
    return true;
}

/* Is the value of type t at mem (in the run) the caller's v? */
static bool same_value(kj_rt *rt, const kj_type *t, const char *mem, const kjit_value *v)
{
    switch (t->kind) {
    case KJ_T_STR: {
        const char *s;
        memcpy(&s, mem, sizeof s);
        return s == v->v.s || (s && v->v.s && !strcmp(s, v->v.s));
    }
    case KJ_T_ARRAY: return same_array(t, mem, v->v.a);
    case KJ_T_TUPLE:
        for (uint32_t k = 0; k < t->n; k++)
            if (!same_value(rt, t->elems[k], mem + kj_api_item_offset(t, k), &v->v.t->items[k])) return false;
        return true;
    case KJ_T_LIST:
    case KJ_T_SET: {
        void *p;
        memcpy(&p, mem, sizeof p);
        return t->kind == KJ_T_LIST ? same_list(rt, t, p, v->v.l) : same_set(rt, t, p, v->v.l);
    }
    default: {
        _Alignas(16) char tmp[64] = {0};
        size_t size = kj_api_mem_size(t);
        if (size > sizeof tmp || !kj_api_to_mem(t, v, tmp)) return false;
        return !memcmp(tmp, mem, size);
    }
    }
}

static void release_items(kjit_list *l)
{
    for (int64_t i = 0; i < l->n; i++) kjit_value_release(&l->items[i]);
    free(l->items);
}

void kjit_list_release(kjit_list *l)
{
    if (!l || !l->owned) return;
    release_items(l);
    l->items = NULL;
    l->n = 0;
    l->owned = false;
}

void kj_api_list_value_release(kjit_value *v)
{
    if (!v->v.l) return;
    release_items(v->v.l);
    free(v->v.l);
}

/* Argument v of type t, which the run holds at p: its new items written into the caller's kjit_list when changed. */
static void reflect(kj_rt *rt, const kj_type *t, void *p, const kjit_value *v)
{
    bool same = t->kind == KJ_T_LIST ? same_list(rt, t, p, v->v.l) : same_set(rt, t, p, v->v.l);
    if (same) return;
    kjit_list *now = t->kind == KJ_T_LIST ? list_out(t, p) : set_out(t, p);
    kjit_list *l = v->v.l;
    if (l->owned) release_items(l); /* after the copies: the run's items may be the old ones */
    l->n = now->n;
    l->items = now->items;
    l->owned = true;
    free(now);
}

/* ---- the trampoline ---- */

typedef struct container_run {
    const kj_api_spec *sp;
    const kjit_value *args;
    void **argv;
    void **made; /* argument k's list or set in the run (NULL for other arguments) */
} container_run;

KJ_CALLS_JIT static void run_containers(kj_rt *rt, void **a, void *ret)
{
    const container_run *r = (const container_run *)(void *)a;
    const kir_func *kf = r->sp->kf;
    for (uint32_t k = 0; k < r->sp->nargs; k++) {
        if (!kj_api_type_has_container(kf->params[k])) continue;
        build(rt, kf->params[k], &r->args[k], r->argv[k]);
        if (kj_api_is_container(kf->params[k])) memcpy(&r->made[k], r->argv[k], sizeof(void *));
    }
    void *dicts = r->sp->has_dict ? kj_api_dicts_in(rt, r->sp, r->argv) : NULL; /* values_dict.c */
    kj_rt_kind kind = kj_rt_call_entry(rt, r->sp->entry, r->argv, ret); /* nested: the run's values stay */
    if (dicts) kj_api_dicts_out(dicts, kind == KJ_RT_OK);
    for (uint32_t k = 0; k < r->sp->nargs; k++)
        if (r->made[k]) reflect(rt, kf->params[k], r->made[k], &r->args[k]);
    if (kind != KJ_RT_OK) {
        char msg[sizeof rt->message];
        memcpy(msg, rt->message, sizeof msg);
        kj_rt_raise(rt, (int32_t)kind | rt->exc_form << KJ_EXC_FORM_SHIFT, msg, rt->line, rt->col);
    }
    own(kf->ret, ret, false, r->made, (int)r->sp->nargs);
}

bool kj_api_spec_has_containers(const kj_api_spec *sp)
{
    for (uint32_t k = 0; k < sp->nargs; k++)
        if (kj_api_type_has_container(sp->kf->params[k])) return true;
    return kj_api_type_has_container(sp->kf->ret);
}

kj_rt_kind kj_api_run_containers(kj_rt *rt, const kj_api_spec *sp, const kjit_value *args, void **argv, void *ret)
{
    void *small[16];
    void **made = sp->nargs <= 16 ? small : calloc(sp->nargs, sizeof *made);
    if (!made) abort();
    memset(made, 0, sp->nargs * sizeof *made);
    container_run r = {sp, args, argv, made};
    kj_rt_kind kind = kj_rt_call_entry(rt, run_containers, (void **)(void *)&r, ret);
    if (made != small) free(made);
    return kind;
}
