/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit_compile_globals' module-level arrays: copied into the module (the
 * sema may read them again when it specialises a function at call time,
 * long after the caller's array is gone) as the frozen value the source's
 * constant arrays make (resolve_frozen.c), and hashed into the module's
 * cache key, since the code embeds the elements. */
#include "api_int.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_FROZEN_DIMS = 4 };

static bool valid_name(const char *s)
{
    if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* Element k (C order) of `a` as a double or an int64 (the bits for uint64). */
static void read_element(const char *p, kjit_dtype dt, double *f, int64_t *i)
{
    switch (dt) {
    case KJIT_BOOL: *i = *(const uint8_t *)p != 0; break;
    case KJIT_INT8: *i = *(const int8_t *)p; break;
    case KJIT_INT16: *i = *(const int16_t *)p; break;
    case KJIT_INT32: *i = *(const int32_t *)p; break;
    case KJIT_INT64: *i = *(const int64_t *)p; break;
    case KJIT_UINT8: *i = *(const uint8_t *)p; break;
    case KJIT_UINT16: *i = *(const uint16_t *)p; break;
    case KJIT_UINT32: *i = *(const uint32_t *)p; break;
    case KJIT_UINT64: *i = (int64_t) * (const uint64_t *)p; break;
    case KJIT_FLOAT32: *f = *(const float *)p; break;
    default: *f = *(const double *)p; break;
    }
}

/* The elements of `a`, in C order, into fz (allocated in the arena). */
static void copy_elements(kj_arena *ar, const kjit_array *a, kir_frozen *fz)
{
    kjit_dtype dt = kjit_array_dtype(a);
    bool is_float = dt == KJIT_FLOAT32 || dt == KJIT_FLOAT64;
    const char *base = kjit_array_data(a);
    const int64_t *strides = kjit_array_strides(a);
    uint64_t n = fz->n;
    double *fv = is_float ? KJ_NEWN(ar, double, n ? n : 1) : NULL;
    int64_t *iv = is_float ? NULL : KJ_NEWN(ar, int64_t, n ? n : 1);
    int64_t idx[MAX_FROZEN_DIMS] = {0};
    for (uint64_t k = 0; k < n; k++) {
        const char *p = base;
        for (uint32_t d = 0; d < fz->ndim; d++) p += idx[d] * strides[d];
        read_element(p, dt, is_float ? &fv[k] : NULL, is_float ? NULL : &iv[k]);
        for (int d = (int)fz->ndim - 1; d >= 0; d--) { /* the next index, last dimension fastest */
            if (++idx[d] < fz->shape[d]) break;
            idx[d] = 0;
        }
    }
    fz->f = fv;
    fz->i = iv;
}

/* Global k checked: NULL, or why kjit cannot take it. */
static const char *refusal(const kjit_global *g, const kjit_global *all, int k)
{
    if (!valid_name(g->name)) return "its name is not an identifier";
    for (int j = 0; j < k; j++)
        if (!strcmp(all[j].name, g->name)) return "the name is given twice";
    if (g->value.kind != KJIT_VALUE_ARRAY || !g->value.v.a) return "only arrays can be given (numbers go in the source)";
    const kjit_array *a = g->value.v.a;
    if (kjit_array_ndim(a) < 1 || kjit_array_ndim(a) > MAX_FROZEN_DIMS) return "a frozen array has 1 to 4 dimensions";
    if (kjit_array_dtype(a) > KJIT_FLOAT64) return "a frozen array's elements are bool, integers or floats";
    return NULL;
}

bool kj_api_globals_copy(kjit_module *m, const kjit_global *globals, int n, kjit_error *err)
{
    if (n < 0 || (n > 0 && !globals)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, m->src.path, "kjit_compile_globals: %d globals at %p", n,
                         (const void *)globals);
        return false;
    }
    kj_sema_global *out = KJ_NEWN(&m->arena, kj_sema_global, n ? n : 1);
    for (int k = 0; k < n; k++) {
        const kjit_global *g = &globals[k];
        const char *why = refusal(g, globals, k);
        if (why) {
            kj_api_set_error(err, KJIT_ERR_USAGE, m->src.path, "kjit_compile_globals: global %d ('%s'): %s", k,
                             g->name ? g->name : "(null)", why);
            return false;
        }
        const kjit_array *a = g->value.v.a;
        kj_sema_global *h = &out[k];
        memset(h, 0, sizeof *h);
        h->dtype = kjit_dtype_name(kjit_array_dtype(a));
        h->fz.name = kj_arena_strdup(&m->arena, g->name);
        h->fz.ndim = (uint32_t)kjit_array_ndim(a);
        memcpy(h->fz.shape, kjit_array_shape(a), h->fz.ndim * sizeof(int64_t));
        h->fz.n = (uint64_t)kjit_array_size(a);
        copy_elements(&m->arena, a, &h->fz);
    }
    m->sopt.globals = out;
    m->sopt.nglobals = (uint32_t)n;
    return true;
}

void kj_api_globals_hash(kj_hasher *h, const kjit_module *m)
{
    for (uint32_t k = 0; k < m->sopt.nglobals; k++) {
        const kj_sema_global *g = &m->sopt.globals[k];
        kj_hash_str(h, "global", g->fz.name);
        kj_hash_str(h, "global-dtype", g->dtype);
        kj_hash_part(h, "global-shape", g->fz.shape, g->fz.ndim * sizeof(int64_t));
        size_t n = (size_t)(g->fz.n ? g->fz.n : 0);
        if (g->fz.f) kj_hash_part(h, "global-f", g->fz.f, n * sizeof(double));
        else kj_hash_part(h, "global-i", g->fz.i, n * sizeof(int64_t));
    }
}
