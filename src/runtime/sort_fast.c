/* SPDX-License-Identifier: BSD-2-Clause */
/* The fast paths of np.sort and np.unique (sort_fast.h).
 *
 * Rows: the AVX-512 quicksorts of sort_simd.c sort values of one type
 * with < as the order, so floats first go through one pass that counts
 * NaNs and looks for -0.0 (np.sort's copy of its argument, when it has
 * one). A -0.0 sends the row to the plain
 * (stable) path; NaNs are moved aside in their order, the rest sorted, the
 * NaNs appended: the same result as the plain path's, bit for bit.
 *
 * np.unique: a hash table of the distinct keys (array_sort.c's keys:
 * -0.0 as 0.0, every NaN one key) with each one's first index, in one pass;
 * it gives up as soon as the distinct keys pass a bound (1/8 of the
 * elements, at most 2^15: then sorting everything is as fast, and the
 * table stays within the L2 cache), and otherwise sorts only the distinct
 * keys. The first occurrence of each is what the plain path's stable sort
 * keeps too. */
#include "sort_fast.h"

#include "sort_simd.h"

#include <stdlib.h>
#include <string.h>

bool kj_sort_plain_forced(void)
{
    const char *e = getenv("KJIT_SORT_PLAIN");
    return e && *e && strcmp(e, "0") != 0;
}

bool kj_sort_fast_enabled(void) { return !kj_sort_plain_forced() && kj_sort_simd_available(); }

/* ---- rows ---- */

/* Move the nnan NaNs of v[0..m-1] to `aside` in order, the rest to the
 * front of v in order. */
#define COMPACT_FN(name, T)                                                \
    static void name(T *v, int64_t m, T *aside)                            \
    {                                                                      \
        int64_t w = 0, k = 0;                                              \
        for (int64_t i = 0; i < m; i++) {                                  \
            T x = v[i];                                                    \
            if (x != x) aside[k++] = x;                                    \
            else v[w++] = x;                                               \
        }                                                                  \
    }
COMPACT_FN(compact_f64, double)
COMPACT_FN(compact_f32, float)

/* A float row: NaNs aside, sort, NaNs back at the end; src (not NULL)
 * is copied to v first, in the pass that looks at every element. */
#define FLOAT_ROW_FN(name, T, SCAN, COMPACT, SORT)                         \
    static bool name(T *v, const T *src, int64_t m)                        \
    {                                                                      \
        int64_t nnan;                                                      \
        if (SCAN(src ? v : NULL, src ? src : v, m, &nnan)) return false;   \
        if (nnan == 0) {                                                   \
            SORT(v, m);                                                    \
            return true;                                                   \
        }                                                                  \
        T *aside = malloc((size_t)nnan * sizeof(T));                       \
        if (!aside) return false;                                          \
        COMPACT(v, m, aside);                                              \
        SORT(v, m - nnan);                                                 \
        memcpy(v + (m - nnan), aside, (size_t)nnan * sizeof(T));           \
        free(aside);                                                       \
        return true;                                                       \
    }
FLOAT_ROW_FN(row_f64, double, kj_sort_simd_scan_f64, compact_f64, kj_sort_simd_f64)
FLOAT_ROW_FN(row_f32, float, kj_sort_simd_scan_f32, compact_f32, kj_sort_simd_f32)

/* Sort row p into p from src (not NULL) with the first partition in the
 * copying pass (sort_simd.h); false when that path does not take it. */
static bool row_from(char *p, const char *src, int64_t m, kj_dtype dt)
{
#define FROM(F, T) kj_sort_simd##F##_from((T *)(void *)p, (const T *)(const void *)src, m)
    switch (dt) {
    case KJ_DT_FLOAT64: return FROM(_f64, double);
    case KJ_DT_FLOAT32: return FROM(_f32, float);
    case KJ_DT_INT64: return FROM(_i64, int64_t);
    case KJ_DT_UINT64: return FROM(_u64, uint64_t);
    case KJ_DT_INT32: return FROM(_i32, int32_t);
    case KJ_DT_UINT32: return FROM(_u32, uint32_t);
    default: return false;
    }
#undef FROM
}

/* Sort row p, first copied from src unless src is NULL. */
static bool fast_row(char *p, const char *src, int64_t m, kj_dtype dt)
{
    if (src && row_from(p, src, m, dt)) return true;
    if (src && dt != KJ_DT_FLOAT64 && dt != KJ_DT_FLOAT32) memcpy(p, src, (size_t)m * kj_dtype_size(dt));
    switch (dt) {
    case KJ_DT_FLOAT64: return row_f64((double *)(void *)p, (const double *)(const void *)src, m);
    case KJ_DT_FLOAT32: return row_f32((float *)(void *)p, (const float *)(const void *)src, m);
    case KJ_DT_INT64: kj_sort_simd_i64((int64_t *)(void *)p, m); return true;
    case KJ_DT_UINT64: kj_sort_simd_u64((uint64_t *)(void *)p, m); return true;
    case KJ_DT_INT32: kj_sort_simd_i32((int32_t *)(void *)p, m); return true;
    case KJ_DT_UINT32: kj_sort_simd_u32((uint32_t *)(void *)p, m); return true;
    default: return false;
    }
}

bool kj_sort_fast_row(char *p, int64_t m, kj_dtype dt) { return fast_row(p, NULL, m, dt); }

bool kj_sort_fast_row_from(char *dst, const char *src, int64_t m, kj_dtype dt) { return fast_row(dst, src, m, dt); }

/* ---- np.unique by hashing ---- */

enum { UNIQ_MIN_N = 1024, UNIQ_MAX_DISTINCT = 1 << 15 };

/* The distinct keys: an open-addressed table of key + 1 (0: empty; the key
 * UINT64_MAX, which has no + 1, kept apart), each with its first index.
 * Slots come in buckets of 8 (one cache line of keys): a key lives in the
 * first bucket from its hash's on that has it or had a free slot when it
 * came, so a lookup reads one line in the common case and, with AVX-512,
 * compares it in one instruction (no branch per slot to mispredict). No
 * key is ever removed, so a bucket with a free slot ends a search. */
enum { BUCKET = 8, BUCKET_BITS = 3 };

typedef struct {
    uint64_t *key; /* 64-byte aligned */
    int64_t *first;
    int bits; /* 2^bits slots */
    int64_t count, limit;
    bool has_top;
    int64_t top_first;
} utable;

static bool utable_init(utable *t, int bits, int64_t limit)
{
    size_t n = (size_t)1 << bits;
    t->key = aligned_alloc(64, n * sizeof *t->key);
    t->first = malloc(n * sizeof *t->first);
    if (t->key) memset(t->key, 0, n * sizeof *t->key);
    t->bits = bits;
    t->count = 0;
    t->limit = limit;
    t->has_top = false;
    t->top_first = 0;
    return t->key && t->first;
}

static void utable_free(utable *t)
{
    free(t->key);
    free(t->first);
}

static size_t bucket_of(uint64_t k1, int bits)
{
    return (size_t)((k1 * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - (bits - BUCKET_BITS)));
}

static size_t next_bucket(size_t b, int bits) { return (b + 1) & (((size_t)1 << (bits - BUCKET_BITS)) - 1); }

static void put_new(utable *t, uint64_t k1, int64_t i)
{
    for (size_t b = bucket_of(k1, t->bits);; b = next_bucket(b, t->bits))
        for (size_t s = b * BUCKET; s < (b + 1) * BUCKET; s++)
            if (!t->key[s]) {
                t->key[s] = k1;
                t->first[s] = i;
                return;
            }
}

/* Double the table (kept at most half full). False: out of memory. */
static bool grow(utable *t)
{
    utable g;
    if (!utable_init(&g, t->bits + 1, t->limit)) {
        utable_free(&g);
        return false;
    }
    for (size_t s = 0; s < (size_t)1 << t->bits; s++)
        if (t->key[s]) put_new(&g, t->key[s], t->first[s]);
    g.count = t->count;
    g.has_top = t->has_top;
    g.top_first = t->top_first;
    utable_free(t);
    *t = g;
    return true;
}

/* Key k of element i, not in the table yet: put it in. False when the
 * table is over its limit or out of memory (*oom). */
static bool insert_key(utable *t, uint64_t k, int64_t i, bool *oom)
{
    if (k == UINT64_MAX) {
        t->has_top = true, t->top_first = i;
    } else {
        put_new(t, k + 1, i);
        if ((size_t)(t->count + 1) * 2 > (size_t)1 << t->bits && !grow(t)) return *oom = true, false;
    }
    return ++t->count <= t->limit;
}

/* Whether key k is in the table. */
static inline bool has_key(const utable *t, uint64_t k)
{
    if (k == UINT64_MAX) return t->has_top;
    uint64_t k1 = k + 1;
    for (size_t b = bucket_of(k1, t->bits);; b = next_bucket(b, t->bits)) {
        const uint64_t *s = t->key + b * BUCKET;
        bool free = false;
        for (int j = 0; j < BUCKET; j++) {
            if (s[j] == k1) return true;
            free |= !s[j];
        }
        if (free) return false;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define KJ_UNIQ_SIMD 1
/* has_key() comparing a bucket in one instruction; only called after
 * kj_sort_simd_available(). */
static inline __attribute__((always_inline, target("avx512f"))) bool has_key_simd(const utable *t, uint64_t k)
{
    if (k == UINT64_MAX) return t->has_top;
    uint64_t k1 = k + 1;
    __m512i kv = _mm512_set1_epi64((long long)k1);
    for (size_t b = bucket_of(k1, t->bits);; b = next_bucket(b, t->bits)) {
        __m512i s = _mm512_load_si512((const void *)(t->key + b * BUCKET));
        if (_mm512_cmpeq_epi64_mask(s, kv)) return true;
        if (_mm512_cmpeq_epi64_mask(s, _mm512_setzero_si512())) return false;
    }
}
#else
#define KJ_UNIQ_SIMD 0
#endif

/* The keys of array_sort.c, branch-free: floats sign-flipped, -0.0 as
 * 0.0, NaN as UINT64_MAX; integers with the sign bit flipped. */
static inline uint64_t fkey64(double x)
{
    if (x == 0) x = 0.0;
    uint64_t b;
    memcpy(&b, &x, 8);
    uint64_t k = (b >> 63) ? ~b : b | (UINT64_C(1) << 63);
    return x != x ? UINT64_MAX : k;
}

static inline uint64_t fkey32(float x)
{
    if (x == 0) x = 0.0f;
    uint32_t b;
    memcpy(&b, &x, 4);
    uint64_t k = (b >> 31) ? (uint32_t)~b : b | UINT32_C(0x80000000);
    return x != x ? UINT64_MAX : k;
}

#define KEY_F64(p) fkey64(*(const double *)(p))
#define KEY_F32(p) fkey32(*(const float *)(p))
#define KEY_I64(p) ((uint64_t)*(const int64_t *)(p) ^ (UINT64_C(1) << 63))
#define KEY_U64(p) (*(const uint64_t *)(p))
#define KEY_I32(p) ((uint64_t)((uint32_t)*(const int32_t *)(p) ^ UINT32_C(0x80000000)))
#define KEY_U32(p) ((uint64_t)*(const uint32_t *)(p))

/* One pass over the n elements of d; false as insert_key() says. */
#define FILL_FN(name, T, KEY, HAS, ATTR)                                   \
    static ATTR bool name(utable *t, const char *d, int64_t n, bool *oom)  \
    {                                                                      \
        const T *v = (const T *)(const void *)d;                           \
        for (int64_t i = 0; i < n; i++) {                                  \
            uint64_t k = KEY(v + i);                                       \
            if (!HAS(t, k) && !insert_key(t, k, i, oom)) return false;     \
        }                                                                  \
        return true;                                                       \
    }
#define FILL_FNS(suffix, ...)                                              \
    FILL_FN(fill_f64##suffix, double, KEY_F64, __VA_ARGS__)                \
    FILL_FN(fill_f32##suffix, float, KEY_F32, __VA_ARGS__)                 \
    FILL_FN(fill_i64##suffix, int64_t, KEY_I64, __VA_ARGS__)               \
    FILL_FN(fill_u64##suffix, uint64_t, KEY_U64, __VA_ARGS__)              \
    FILL_FN(fill_i32##suffix, int32_t, KEY_I32, __VA_ARGS__)               \
    FILL_FN(fill_u32##suffix, uint32_t, KEY_U32, __VA_ARGS__)
FILL_FNS(, has_key, )
#if KJ_UNIQ_SIMD
FILL_FNS(_simd, has_key_simd, __attribute__((target("avx512f"))))
#endif

/* ---- argsort ---- */

/* The keys of v[0..m-1] to k and their indices to out, in order, less the
 * elements of key UINT64_MAX (NaN, or uint64's largest), whose indices go
 * to the end of out in order; returns how many are left. */
#define KEYS_FN(name, T, KEY)                                              \
    static int64_t name(const char *d, int64_t m, uint64_t *k, int64_t *out) \
    {                                                                      \
        const T *v = (const T *)(const void *)d;                           \
        int64_t w = 0, top = 0;                                            \
        for (int64_t i = 0; i < m; i++) {                                  \
            uint64_t x = KEY(v + i);                                       \
            if (x == UINT64_MAX) {                                         \
                out[m - 1 - top++] = i;                                    \
                continue;                                                  \
            }                                                              \
            k[w] = x;                                                      \
            out[w++] = i;                                                  \
        }                                                                  \
        for (int64_t a = w, b = m - 1; a < b; a++, b--) {                  \
            int64_t t = out[a];                                            \
            out[a] = out[b];                                               \
            out[b] = t;                                                    \
        }                                                                  \
        return w;                                                          \
    }
KEYS_FN(keys_f64, double, KEY_F64)
KEYS_FN(keys_f32, float, KEY_F32)
KEYS_FN(keys_i64, int64_t, KEY_I64)
KEYS_FN(keys_u64, uint64_t, KEY_U64)
KEYS_FN(keys_i32, int32_t, KEY_I32)
KEYS_FN(keys_u32, uint32_t, KEY_U32)

bool kj_argsort_fast_row(const char *p, int64_t m, kj_dtype dt, int64_t *out)
{
    int64_t (*keys)(const char *, int64_t, uint64_t *, int64_t *);
    switch (dt) {
    case KJ_DT_FLOAT64: keys = keys_f64; break;
    case KJ_DT_FLOAT32: keys = keys_f32; break;
    case KJ_DT_INT64: keys = keys_i64; break;
    case KJ_DT_UINT64: keys = keys_u64; break;
    case KJ_DT_INT32: keys = keys_i32; break;
    case KJ_DT_UINT32: keys = keys_u32; break;
    default: return false;
    }
    uint64_t *k = malloc((size_t)(m ? m : 1) * sizeof *k);
    if (!k) return false;
    int64_t w = keys(p, m, k, out);
    kj_sort_simd_kv(k, out, w);
    free(k);
    return true;
}

/* ---- np.unique's table, sorted ---- */

typedef struct {
    uint64_t k;
    int64_t first;
} ukey;

static int ukey_cmp(const void *x, const void *y)
{
    uint64_t a = ((const ukey *)x)->k, b = ((const ukey *)y)->k;
    return (a > b) - (a < b);
}

/* The table's distinct values, sorted, as a new 1-d array (elements of
 * the C-ordered data d). */
static kj_array *utable_values(const utable *t, const char *d, kj_dtype dt, kj_rt_error *err)
{
    ukey *u = malloc((size_t)(t->count ? t->count : 1) * sizeof *u);
    if (!u) return kj_rt_errorf(err, "MemoryError", "Unable to allocate memory for np.unique"), NULL;
    int64_t w = 0;
    for (size_t s = 0; s < (size_t)1 << t->bits; s++)
        if (t->key[s]) u[w++] = (ukey){t->key[s] - 1, t->first[s]};
    if (t->has_top) u[w++] = (ukey){UINT64_MAX, t->top_first};
    qsort(u, (size_t)w, sizeof *u, ukey_cmp);
    kj_array *r = kj_array_empty(dt, 1, &w, err);
    size_t isz = kj_dtype_size(dt);
    for (int64_t j = 0; r && j < w; j++) memcpy(r->data + j * (int64_t)isz, d + u[j].first * (int64_t)isz, isz);
    free(u);
    return r;
}

typedef bool (*fill_fn)(utable *, const char *, int64_t, bool *);

static fill_fn fill_of(kj_dtype dt)
{
#if KJ_UNIQ_SIMD
    if (kj_sort_simd_available()) switch (dt) {
        case KJ_DT_FLOAT64: return fill_f64_simd;
        case KJ_DT_FLOAT32: return fill_f32_simd;
        case KJ_DT_INT64: return fill_i64_simd;
        case KJ_DT_UINT64: return fill_u64_simd;
        case KJ_DT_INT32: return fill_i32_simd;
        case KJ_DT_UINT32: return fill_u32_simd;
        default: return NULL;
        }
#endif
    switch (dt) {
    case KJ_DT_FLOAT64: return fill_f64;
    case KJ_DT_FLOAT32: return fill_f32;
    case KJ_DT_INT64: return fill_i64;
    case KJ_DT_UINT64: return fill_u64;
    case KJ_DT_INT32: return fill_i32;
    case KJ_DT_UINT32: return fill_u32;
    default: return NULL;
    }
}

kj_array *kj_unique_hash(const kj_array *a, bool *done, kj_rt_error *err)
{
    *done = false;
    int64_t n = kj_array_size(a);
    fill_fn fill = fill_of(a->dtype);
    if (!fill || n < UNIQ_MIN_N) return NULL;
    kj_array *c = kj_array_is_c_contiguous(a) ? NULL : kj_array_astype(a, a->dtype, err);
    if (!kj_array_is_c_contiguous(a) && !c) return *done = true, NULL;
    const char *d = c ? c->data : a->data;
    utable t;
    bool oom = false;
    kj_array *r = NULL;
    if (!utable_init(&t, 10, n / 8 < UNIQ_MAX_DISTINCT ? n / 8 : UNIQ_MAX_DISTINCT)) oom = true;
    else if (fill(&t, d, n, &oom)) r = utable_values(&t, d, a->dtype, err), *done = true;
    if (oom) *done = true, kj_rt_errorf(err, "MemoryError", "Unable to allocate memory for np.unique");
    utable_free(&t);
    kj_array_release(c);
    return r;
}
