/* SPDX-License-Identifier: BSD-2-Clause */
/* Dicts and sets (dict.h): the hash table, KeyError with the key as Python
 * writes it, the key/value/item lists iteration and printing read, and the
 * set algebra. */
#include "dict.h"

#include "array.h"
#include "format.h"
#include "list.h"
#include "rt.h"
#include "../abi/abi.h"
#include "../util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { EMPTY = -1, DELETED = -2, HDR = 16 }; /* index slots; an entry's hash and live flag */

static int64_t round8(int64_t n) { return (n + 7) & ~(int64_t)7; }

static char *entry(const kj_dict *d, int64_t i) { return d->entries + i * d->esz; }
static bool live(const char *e) { return e[8] != 0; }
static char *key_of(char *e) { return e + HDR; }
static char *val_of(const kj_dict *d, char *e) { return e + d->voff; }

/* A key's hash: an integer key is its own hash (sequential keys fill
 * sequential slots, as in CPython; the perturbed probe below copes with
 * strides), other keys mix their bytes (splitmix64's finaliser per word). */
/* The same mix over a string key's text (FNV-1a bytes, then the finaliser). */
static uint64_t hash_text(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) h = (h ^ *p) * 0x100000001b3u;
    h ^= h >> 31;
    h *= 0x94d049bb133111ebu;
    return h ^ (h >> 29);
}

static const char *text_of(const char *k)
{
    const char *s;
    memcpy(&s, k, sizeof s);
    return s;
}

static uint64_t hash_key(const kj_dict *d, const char *k)
{
    if (d->str_key) return hash_text(text_of(k));
    int64_t n = d->ksize;
    if (d->int_key) {
        uint64_t w = 0;
        memcpy(&w, k, (size_t)(n < 8 ? n : 8));
        return w;
    }
    uint64_t h = 0x9e3779b97f4a7c15u ^ (uint64_t)n;
    for (int64_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        memcpy(&w, k + i, (size_t)(n - i < 8 ? n - i : 8));
        h ^= w;
        h *= 0xbf58476d1ce4e5b9u;
        h ^= h >> 31;
    }
    h *= 0x94d049bb133111ebu;
    return h ^ (h >> 29);
}

static void *owner_in(const kj_dict *d, char *v)
{
    void *o;
    memcpy(&o, v + d->owner_off, sizeof o);
    return o;
}

void kj_dict_free(kj_dict *d)
{
    if (!d) return;
    if (d->owner_off >= 0)
        for (int64_t i = 0; i < d->used; i++)
            if (live(entry(d, i))) kj_array_release(owner_in(d, val_of(d, entry(d, i))));
    free(d->entries);
    free(d->index);
    free(d->tmp);
    free(d);
}

void kj_rt_dict_free_all(kj_rt *rt)
{
    for (size_t k = rt->ndicts; k-- > 0;) kj_dict_free(rt->dicts[k]);
    free(rt->dicts);
    rt->dicts = NULL;
    rt->ndicts = rt->cap_dicts = 0;
}

void *kj_rt_dict_new(kj_rt *rt, int64_t ksize, int64_t vsize, int32_t owner_off, int32_t key_kind)
{
    kj_dict *d = xcalloc(1, sizeof *d);
    d->ksize = ksize, d->vsize = vsize, d->owner_off = owner_off;
    d->pydict = (key_kind & KJ_DICT_PYDICT) != 0;
    key_kind &= ~KJ_DICT_PYDICT;
    d->int_key = key_kind == 1, d->str_key = key_kind == 2;
    d->voff = HDR + round8(ksize);
    d->esz = d->voff + round8(vsize);
    d->tmp = xcalloc(1, (size_t)(vsize > 0 ? vsize : 1));
    d->nindex = 8;
    d->index = malloc((size_t)d->nindex * sizeof *d->index);
    if (!d->index) abort(); /* out of memory: the one failure that is not a value */
    memset(d->index, 0xff, (size_t)d->nindex * sizeof *d->index); /* all EMPTY */
    if (rt->ndicts == rt->cap_dicts) {
        rt->cap_dicts = rt->cap_dicts ? 2 * rt->cap_dicts : 16;
        rt->dicts = realloc(rt->dicts, rt->cap_dicts * sizeof *rt->dicts);
        if (!rt->dicts) abort();
    }
    rt->dicts[rt->ndicts++] = d;
    return d;
}

/* The index slot of key k (hash h): where it is, or where it would go
 * (the first DELETED slot met, else the EMPTY that ended the probe).
 * CPython's probe sequence: j = 5j + 1 + perturb, the hash's high bits
 * shifted in 5 at a time, so every slot is reached. */
static int64_t probe(const kj_dict *d, const char *k, uint64_t h, bool *found)
{
    uint64_t mask = (uint64_t)d->nindex - 1, perturb = h;
    int64_t free_at = -1;
    for (uint64_t j = h & mask;; perturb >>= 5, j = (j * 5 + perturb + 1) & mask) {
        int64_t ix = d->index[j];
        if (ix == EMPTY) {
            *found = false;
            return free_at >= 0 ? free_at : (int64_t)j;
        }
        if (ix == DELETED) {
            if (free_at < 0) free_at = (int64_t)j;
            continue;
        }
        char *e = entry(d, ix);
        uint64_t eh;
        memcpy(&eh, e, sizeof eh);
        bool same = d->str_key ? !strcmp(text_of(key_of(e)), text_of(k)) : !memcmp(key_of(e), k, (size_t)d->ksize);
        if (eh == h && same) {
            *found = true;
            return (int64_t)j;
        }
    }
}

/* Rebuild the index for at least `need` live entries, compacting the entry
 * array (insertion order kept). */
static void rebuild(kj_dict *d, int64_t need)
{
    int64_t n = 8;
    while (n < need * 3 / 2 + 1) n *= 2;
    int64_t live_n = 0;
    for (int64_t i = 0; i < d->used; i++)
        if (live(entry(d, i))) {
            if (i != live_n) memcpy(entry(d, live_n), entry(d, i), (size_t)d->esz);
            live_n++;
        }
    d->used = live_n;
    free(d->index);
    d->nindex = n;
    d->index = malloc((size_t)n * sizeof *d->index);
    if (!d->index) abort();
    memset(d->index, 0xff, (size_t)n * sizeof *d->index);
    for (int64_t i = 0; i < d->used; i++) {
        uint64_t h;
        memcpy(&h, entry(d, i), sizeof h);
        bool f;
        d->index[probe(d, key_of(entry(d, i)), h, &f)] = i;
    }
    if (d->cap < need) {
        d->cap = need;
        d->entries = realloc(d->entries, (size_t)(d->cap * d->esz));
        if (!d->entries) abort();
    }
}

static char *lookup(const kj_dict *d, const char *k)
{
    bool f;
    int64_t j = probe(d, k, hash_key(d, k), &f);
    return f ? entry(d, d->index[j]) : NULL;
}

/* The entry of k, inserted (value zeroed) when missing (*added). */
static char *insert(kj_dict *d, const char *k, bool *added)
{
    uint64_t h = hash_key(d, k);
    bool f;
    int64_t j = probe(d, k, h, &f);
    *added = !f;
    if (f) return entry(d, d->index[j]);
    if (d->used == d->cap || (d->used + 1) * 3 > d->nindex * 2) {
        int64_t grow = d->len < 4 ? 8 : d->len * 2;
        rebuild(d, grow > d->used + 1 ? grow : d->used + 1);
        j = probe(d, k, h, &f);
    }
    char *e = entry(d, d->used);
    memset(e, 0, (size_t)d->esz);
    memcpy(e, &h, sizeof h);
    e[8] = 1;
    memcpy(key_of(e), k, (size_t)d->ksize);
    d->index[j] = d->used++;
    d->len++;
    return e;
}

static void store_value(kj_rt *rt, kj_dict *d, char *e, const void *v, bool added)
{
    if (!d->vsize) return;
    char *dst = val_of(d, e);
    if (d->owner_off >= 0) {
        void *old = added ? NULL : owner_in(d, dst);
        memcpy(dst, v, (size_t)d->vsize);
        kj_array_retain(owner_in(d, dst));
        if (old) kj_rt_own(rt, old); /* the dict's reference to the replaced array goes to the run */
        return;
    }
    memcpy(dst, v, (size_t)d->vsize);
}

void kj_rt_dict_set(kj_rt *rt, void *dict, const void *key, const void *val)
{
    bool added;
    char *e = insert(dict, key, &added);
    store_value(rt, dict, e, val, added);
}

void *kj_rt_dict_setdefault(kj_rt *rt, void *dict, const void *key, const void *val)
{
    bool added;
    char *e = insert(dict, key, &added);
    if (added) store_value(rt, dict, e, val, true);
    return val_of(dict, e);
}

void *kj_rt_dict_find(kj_rt *rt, void *dict, const void *key)
{
    (void)rt;
    char *e = lookup(dict, key);
    return e ? val_of(dict, e) : NULL;
}

/* KeyError's message: the key as Python's repr writes it. kinds packs each
 * element's kj_dtype in 4 bits; n is 0 for a scalar key, -1 for a string
 * key, else the tuple's length (elements at their natural alignment, as LLVM
 * lays a struct). */
static _Noreturn void key_error(kj_rt *rt, const char *k, int64_t kinds, int32_t n, int32_t line, int32_t col)
{
    kj_buf b = {0};
    if (n < 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "'%s'", text_of(k));
        kj_rt_raise(rt, KJ_RT_KEY, msg, line, col);
    }
    int32_t m = n ? n : 1;
    size_t off = 0;
    if (n) kj_buf_putc(&b, '(');
    for (int32_t i = 0; i < m; i++) {
        kj_dtype dt = (kj_dtype)((kinds >> (4 * i)) & 15);
        size_t sz = kj_dtype_size(dt);
        off = (off + sz - 1) / sz * sz;
        if (i) kj_buf_puts(&b, ", ");
        kj_scalar s = kj_elem_load(k + off, dt);
        if (dt == KJ_DT_BOOL) kj_fmt_bool(&b, s.v.i != 0);
        else kj_fmt_scalar(&b, s);
        off += sz;
    }
    if (n == 1) kj_buf_putc(&b, ',');
    if (n) kj_buf_putc(&b, ')');
    char msg[256];
    snprintf(msg, sizeof msg, "%s", b.s ? b.s : "");
    kj_buf_free(&b);
    kj_rt_raise(rt, KJ_RT_KEY, msg, line, col);
}

void *kj_rt_dict_get(kj_rt *rt, void *dict, const void *key, int64_t kinds, int32_t n, int32_t line, int32_t col)
{
    char *e = lookup(dict, key);
    if (!e) key_error(rt, key, kinds, n, line, col);
    return val_of(dict, e);
}

/* d.pop(k), s.discard(x), s.remove(x): the value's copy (the entry's array
 * reference handed to the run), or NULL when missing and !must; KeyError
 * when missing and must. */
void *kj_rt_dict_pop(kj_rt *rt, void *dict, const void *key, int32_t must, int64_t kinds, int32_t n, int32_t line,
                     int32_t col)
{
    kj_dict *d = dict;
    uint64_t h = hash_key(d, key);
    bool f;
    int64_t j = probe(d, key, h, &f);
    if (!f) {
        if (must) key_error(rt, key, kinds, n, line, col);
        return NULL;
    }
    char *e = entry(d, d->index[j]);
    if (d->vsize) memcpy(d->tmp, val_of(d, e), (size_t)d->vsize);
    if (d->owner_off >= 0) kj_rt_own(rt, owner_in(d, val_of(d, e)));
    e[8] = 0;
    d->index[j] = DELETED;
    d->len--;
    return d->tmp;
}

/* keys() (which 0), values() (1) or items() (2: key at 0, value at voff of
 * an itemsize-byte tuple) as a new list, in insertion order. */
void *kj_rt_dict_list(kj_rt *rt, void *dict, int32_t which, int64_t itemsize, int64_t voff)
{
    kj_dict *d = dict;
    int64_t isz = which == 0 ? d->ksize : which == 1 ? d->vsize : itemsize;
    kj_list *l = kj_rt_list_new(rt, isz, d->len, which == 1 ? d->owner_off : -1);
    int64_t k = 0;
    for (int64_t i = 0; i < d->used; i++) {
        char *e = entry(d, i), *dst = l->data + k * isz;
        if (!live(e)) continue;
        if (which != 1) memcpy(dst, key_of(e), (size_t)d->ksize);
        if (which == 1) memcpy(dst, val_of(d, e), (size_t)d->vsize);
        if (which == 2) memcpy(dst + voff, val_of(d, e), (size_t)d->vsize);
        if (which == 1 && d->owner_off >= 0) kj_array_retain(owner_in(d, dst));
        k++;
    }
    return l;
}

/* a.union(b) (op 0), a.intersection(b) (1), a.difference(b) (2): a new set,
 * in a's order then b's. */
void *kj_rt_set_op(kj_rt *rt, void *a, void *b, int32_t op)
{
    kj_dict *x = a, *y = b;
    kj_dict *r = kj_rt_dict_new(rt, x->ksize, 0, -1, x->str_key ? 2 : x->int_key);
    bool added;
    for (int64_t i = 0; i < x->used; i++) {
        char *e = entry(x, i);
        if (!live(e)) continue;
        bool in_b = lookup(y, key_of(e)) != NULL;
        if (op == 0 || (op == 1) == in_b) insert(r, key_of(e), &added);
    }
    for (int64_t i = 0; op == 0 && i < y->used; i++)
        if (live(entry(y, i))) insert(r, key_of(entry(y, i)), &added);
    return r;
}

int32_t kj_rt_dict_pydict(const void *dict) { return ((const kj_dict *)dict)->pydict; }
