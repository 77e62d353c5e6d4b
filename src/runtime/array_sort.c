/* SPDX-License-Identifier: BSD-2-Clause */
/* np.sort, np.argsort, a.sort(), np.searchsorted, np.unique, np.median and
 * np.percentile/quantile (array_sort.h).
 *
 * Every comparison goes through an order-preserving 64-bit key: integers
 * with their sign bit flipped, floats with the usual sign-magnitude flip,
 * -0.0 as +0.0 and every NaN as UINT64_MAX. Equal keys are exactly the
 * elements NumPy's comparison (`a < b || (b != b && a == a)`) calls equal,
 * so an LSD radix sort of the keys (stable, 11 bits a pass: 6 passes over
 * the data, the counts of a pass fit the L2 cache; passes whose digit is
 * the same everywhere skipped) is one of NumPy's valid sorts and
 * its stable one. When the keys are a bijection of the values (no NaN, no
 * -0.0) the sorted values are rebuilt from the keys; otherwise (key, index)
 * pairs are sorted and the values gathered, so NaN payloads and the sign of
 * zero stay where a stable sort leaves them. On CPUs with AVX-512, rows of
 * the 32- and 64-bit types take sort_fast.h's quicksort instead (the same
 * result), and np.unique of few distinct values a hash pass. */
#include "array_sort.h"
#include "array_int.h"
#include "sort_fast.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL_ROW = 48 }; /* rows this short: insertion sort, no radix histograms */
enum { DBITS = 11, NDIG = 6, NBUCKET = 1 << DBITS };

static unsigned digit(uint64_t k, int d) { return (unsigned)(k >> (DBITS * d)) & (NBUCKET - 1); }

typedef struct {
    uint64_t k;
    int64_t i;
} kv;

static uint64_t key_f64(double x)
{
    if (x != x) return UINT64_MAX;
    if (x == 0) x = 0.0; /* -0.0 equals 0.0 */
    uint64_t b;
    memcpy(&b, &x, 8);
    return (b >> 63) ? ~b : b | (UINT64_C(1) << 63);
}

static uint64_t key_f32(float x)
{
    if (x != x) return UINT64_MAX;
    if (x == 0) x = 0.0f;
    uint32_t b;
    memcpy(&b, &x, 4);
    return (b >> 31) ? (uint32_t)~b : b | UINT32_C(0x80000000);
}

/* The key of the element at p; *exact stays true while keys map back to
 * the values (no NaN, no -0.0). */
static uint64_t key_of(const char *p, kj_dtype dt, bool *exact)
{
    switch (dt) {
    case KJ_DT_BOOL: case KJ_DT_UINT8: return *(const uint8_t *)p;
    case KJ_DT_INT8: return (uint8_t)(*(const int8_t *)p) ^ 0x80u;
    case KJ_DT_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case KJ_DT_INT16: { uint16_t v; memcpy(&v, p, 2); return v ^ 0x8000u; }
    case KJ_DT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case KJ_DT_INT32: { uint32_t v; memcpy(&v, p, 4); return v ^ UINT32_C(0x80000000); }
    case KJ_DT_UINT64: { uint64_t v; memcpy(&v, p, 8); return v; }
    case KJ_DT_INT64: { uint64_t v; memcpy(&v, p, 8); return v ^ (UINT64_C(1) << 63); }
    case KJ_DT_FLOAT32: {
        float v;
        memcpy(&v, p, 4);
        if (v != v || (v == 0 && signbit(v))) *exact = false;
        return key_f32(v);
    }
    default: {
        double v;
        memcpy(&v, p, 8);
        if (v != v || (v == 0 && signbit(v))) *exact = false;
        return key_f64(v);
    }
    }
}

/* The value of an exact key, stored at p. */
static void value_of(uint64_t k, kj_dtype dt, char *p)
{
    switch (dt) {
    case KJ_DT_BOOL: case KJ_DT_UINT8: *(uint8_t *)p = (uint8_t)k; break;
    case KJ_DT_INT8: *(uint8_t *)p = (uint8_t)(k ^ 0x80u); break;
    case KJ_DT_UINT16: { uint16_t v = (uint16_t)k; memcpy(p, &v, 2); break; }
    case KJ_DT_INT16: { uint16_t v = (uint16_t)(k ^ 0x8000u); memcpy(p, &v, 2); break; }
    case KJ_DT_UINT32: { uint32_t v = (uint32_t)k; memcpy(p, &v, 4); break; }
    case KJ_DT_INT32: { uint32_t v = (uint32_t)k ^ UINT32_C(0x80000000); memcpy(p, &v, 4); break; }
    case KJ_DT_UINT64: memcpy(p, &k, 8); break;
    case KJ_DT_INT64: { uint64_t v = k ^ (UINT64_C(1) << 63); memcpy(p, &v, 8); break; }
    case KJ_DT_FLOAT32: {
        uint32_t b = (uint32_t)k;
        b = (b >> 31) ? b & UINT32_C(0x7fffffff) : ~b;
        memcpy(p, &b, 4);
        break;
    }
    default: {
        uint64_t b = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
        memcpy(p, &b, 8);
        break;
    }
    }
}

/* ---- the radix sorts ---- */

/* Histograms of the NDIG digits; returns a mask of the passes that move
 * anything (a digit that is the same in every key sorts nothing). */
static unsigned digit_counts(const void *base, size_t step, int64_t n, int64_t (*cnt)[NBUCKET])
{
    memset(cnt, 0, NDIG * sizeof *cnt);
    const char *p = base;
    for (int64_t i = 0; i < n; i++, p += step) {
        uint64_t k;
        memcpy(&k, p, 8);
        for (int d = 0; d < NDIG; d++) cnt[d][digit(k, d)]++;
    }
    unsigned mask = 0;
    uint64_t k0 = 0;
    if (n) memcpy(&k0, base, 8);
    for (int d = 0; d < NDIG; d++)
        if (cnt[d][digit(k0, d)] != n) mask |= 1u << d;
    return mask;
}

static void offsets(int64_t *c)
{
    int64_t s = 0;
    for (int b = 0; b < NBUCKET; b++) {
        int64_t t = c[b];
        c[b] = s;
        s += t;
    }
}

typedef int64_t counts[NDIG][NBUCKET];

/* Stable sort of n keys; tmp holds n, cnt the passes' counts. */
static void radix_keys(uint64_t *k, uint64_t *tmp, int64_t n, counts *cp)
{
    static_assert(DBITS * NDIG >= 64, "the digits cover the key");
    int64_t(*cnt)[NBUCKET] = *cp;
    unsigned mask = digit_counts(k, 8, n, cnt);
    uint64_t *src = k, *dst = tmp;
    for (int d = 0; d < NDIG; d++) {
        if (!(mask >> d & 1)) continue;
        offsets(cnt[d]);
        for (int64_t i = 0; i < n; i++) dst[cnt[d][digit(src[i], d)]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != k) memcpy(k, src, (size_t)n * 8);
}

static void radix_pairs(kv *k, kv *tmp, int64_t n, counts *cp)
{
    int64_t(*cnt)[NBUCKET] = *cp;
    unsigned mask = digit_counts(k, sizeof(kv), n, cnt);
    kv *src = k, *dst = tmp;
    for (int d = 0; d < NDIG; d++) {
        if (!(mask >> d & 1)) continue;
        offsets(cnt[d]);
        for (int64_t i = 0; i < n; i++) dst[cnt[d][digit(src[i].k, d)]++] = src[i];
        kv *t = src;
        src = dst;
        dst = t;
    }
    if (src != k) memcpy(k, src, (size_t)n * sizeof(kv));
}

static void insertion_pairs(kv *k, int64_t n)
{
    for (int64_t i = 1; i < n; i++) {
        kv x = k[i];
        int64_t j = i;
        for (; j > 0 && k[j - 1].k > x.k; j--) k[j] = k[j - 1];
        k[j] = x;
    }
}

static void sort_pairs(kv *k, kv *tmp, int64_t n, counts *cnt)
{
    if (n < SMALL_ROW) insertion_pairs(k, n);
    else radix_pairs(k, tmp, n, cnt);
}

/* Scratch for one row of m elements. */
typedef struct {
    uint64_t *keys, *ktmp;
    kv *pairs, *ptmp;
    char *row;
    counts *cnt;
} scratch;

static void scratch_free(scratch *s)
{
    free(s->cnt);
    free(s->keys);
    free(s->ktmp);
    free(s->pairs);
    free(s->ptmp);
    free(s->row);
}

static bool scratch_init(scratch *s, int64_t m, size_t isz, bool want_keys, kj_rt_error *err)
{
    memset(s, 0, sizeof *s);
    size_t n = (size_t)(m ? m : 1);
    s->pairs = malloc(n * sizeof(kv));
    s->ptmp = malloc(n * sizeof(kv));
    s->row = malloc(n * isz);
    s->cnt = malloc(sizeof *s->cnt);
    if (want_keys) {
        s->keys = malloc(n * 8);
        s->ktmp = malloc(n * 8);
    }
    if (s->pairs && s->ptmp && s->row && s->cnt && (!want_keys || (s->keys && s->ktmp))) return true;
    scratch_free(s);
    return kj_rt_errorf(err, "MemoryError", "Unable to allocate memory for a sort of %lld elements",
                        (long long)m);
}

/* Sort the contiguous row p of m elements in place. */
static void sort_row(char *p, int64_t m, kj_dtype dt, size_t isz, scratch *s)
{
    bool exact = true;
    if (m >= SMALL_ROW) {
        for (int64_t i = 0; i < m; i++) s->keys[i] = key_of(p + i * (int64_t)isz, dt, &exact);
        if (exact) {
            radix_keys(s->keys, s->ktmp, m, s->cnt);
            for (int64_t i = 0; i < m; i++) value_of(s->keys[i], dt, p + i * (int64_t)isz);
            return;
        }
    }
    for (int64_t i = 0; i < m; i++) s->pairs[i] = (kv){key_of(p + i * (int64_t)isz, dt, &exact), i};
    sort_pairs(s->pairs, s->ptmp, m, s->cnt);
    memcpy(s->row, p, (size_t)m * isz);
    for (int64_t i = 0; i < m; i++) memcpy(p + i * (int64_t)isz, s->row + s->pairs[i].i * (int64_t)isz, isz);
}

/* Sort every row (last axis) of the C-contiguous array r in place; or,
 * src not NULL (the contiguous data of an array of r's shape and dtype,
 * and the fast path enabled), copy src to r as the rows are sorted. */
static bool sort_rows(kj_array *r, const char *src, kj_rt_error *err)
{
    if (kj_dtype_info[r->dtype].kind == 'c') return kj_array_cpx_sort_rows(r, err); /* array_sort_cpx.c */
    int64_t m = r->ndim ? r->shape[r->ndim - 1] : 1, n = kj_array_size(r);
    size_t isz = kj_array_itemsize(r);
    if (src && (n == 0 || m <= 1)) memcpy(r->data, src, (size_t)n * isz);
    if (n == 0 || m <= 1) return true;
    scratch s;
    bool fast = kj_sort_fast_enabled(), have = false; /* sort_fast.h; the plain path's scratch when needed */
    for (int64_t off = 0; off < n; off += m) {
        char *row = r->data + off * (int64_t)isz;
        if (src ? kj_sort_fast_row_from(row, src + off * (int64_t)isz, m, r->dtype) /* copies the row */
                : fast && kj_sort_fast_row(row, m, r->dtype))
            continue;
        if (!have && !scratch_init(&s, m, isz, true, err)) return false;
        have = true;
        sort_row(row, m, r->dtype, isz, &s);
    }
    if (have) scratch_free(&s);
    return true;
}

bool kj_array_sorted_into(kj_array *r, const kj_array *a, kj_rt_error *err)
{
    if (kj_array_is_c_contiguous(a) && kj_dtype_info[a->dtype].kind != 'c' && kj_sort_fast_enabled())
        return sort_rows(r, a->data, err);
    return kj_array_assign(r, a, err) && sort_rows(r, NULL, err);
}

kj_array *kj_array_sorted(const kj_array *a, kj_rt_error *err)
{
    kj_array *r = kj_array_empty(a->dtype, a->ndim, a->shape, err);
    if (r && !kj_array_sorted_into(r, a, err)) {
        kj_array_release(r);
        return NULL;
    }
    return r;
}

bool kj_array_sort_inplace(kj_array *a, kj_rt_error *err)
{
    if (kj_array_is_c_contiguous(a)) return sort_rows(a, NULL, err);
    kj_array *r = kj_array_sorted(a, err);
    bool ok = r && kj_array_assign(a, r, err);
    kj_array_release(r);
    return ok;
}

bool kj_array_argsort_into(kj_array *r, const kj_array *a, kj_rt_error *err)
{
    kj_array *copy = kj_array_is_c_contiguous(a) ? NULL : kj_array_copy(a, err); /* read a itself when it can */
    if (!copy && !kj_array_is_c_contiguous(a)) return false;
    const kj_array *c = copy ? copy : a;
    int64_t m = c->ndim ? c->shape[c->ndim - 1] : 1, n = kj_array_size(c);
    size_t isz = kj_array_itemsize(c);
    scratch s;
    bool fast = kj_sort_fast_enabled(), ok = true;
    bool have = false; /* the plain path's scratch, made when needed */
    int64_t *out = (int64_t *)(void *)r->data;
    bool exact = true;
    for (int64_t off = 0; off < n; off += m) {
        if (fast && kj_argsort_fast_row(c->data + off * (int64_t)isz, m, c->dtype, out + off)) continue;
        if (!have && !scratch_init(&s, m, isz, false, err)) {
            ok = false;
            break;
        }
        have = true;
        for (int64_t i = 0; i < m; i++) s.pairs[i] = (kv){key_of(c->data + (off + i) * (int64_t)isz, c->dtype, &exact), i};
        sort_pairs(s.pairs, s.ptmp, m, s.cnt);
        for (int64_t i = 0; i < m; i++) out[off + i] = s.pairs[i].i;
    }
    if (have) scratch_free(&s);
    kj_array_release(copy);
    return ok;
}

kj_array *kj_array_argsort(const kj_array *a, kj_rt_error *err)
{
    if (kj_dtype_info[a->dtype].kind == 'c') return kj_array_cpx_argsort(a, err); /* array_sort_cpx.c */
    kj_array *r = kj_array_empty(KJ_DT_INT64, a->ndim, a->shape, err);
    if (r && !kj_array_argsort_into(r, a, err)) {
        kj_array_release(r);
        return NULL;
    }
    return r;
}

/* ---- searching and sets ---- */

/* a's elements as keys, in C order (a copy of dtype dt first when a's
 * differs); NULL after a MemoryError. */
static uint64_t *keys_as(const kj_array *a, kj_dtype dt, int64_t *n, kj_rt_error *err)
{
    kj_array *c = kj_array_astype(a, dt, err);
    if (!c) return NULL;
    *n = kj_array_size(c);
    uint64_t *k = malloc((size_t)(*n ? *n : 1) * 8);
    bool exact = true;
    size_t isz = kj_array_itemsize(c);
    if (k)
        for (int64_t i = 0; i < *n; i++) k[i] = key_of(c->data + i * (int64_t)isz, dt, &exact);
    else
        kj_rt_errorf(err, "MemoryError", "Unable to allocate %lld keys", (long long)*n);
    kj_array_release(c);
    return k;
}

/* NumPy compares in the common dtype of a and v. */
static kj_dtype search_dtype(kj_dtype a, kj_dtype b)
{
    kj_dtype d = kj_dtype_promote(a, b);
    return d == KJ_DT_BOOL ? KJ_DT_UINT8 : d;
}

kj_array *kj_array_searchsorted(const kj_array *a, const kj_array *v, bool right, kj_rt_error *err)
{
    kj_dtype dt = search_dtype(a->dtype, v->dtype);
    int64_t na, nv;
    uint64_t *ka = keys_as(a, dt, &na, err);
    uint64_t *kv_ = ka ? keys_as(v, dt, &nv, err) : NULL;
    kj_array *r = kv_ ? kj_array_empty(KJ_DT_INT64, v->ndim, v->shape, err) : NULL;
    if (r) {
        int64_t *out = (int64_t *)(void *)r->data;
        for (int64_t j = 0; j < nv; j++) {
            int64_t lo = 0, hi = na;
            uint64_t x = kv_[j];
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                if (right ? ka[mid] <= x : ka[mid] < x) lo = mid + 1;
                else hi = mid;
            }
            out[j] = lo;
        }
    }
    free(ka);
    free(kv_);
    return r;
}

kj_array *kj_array_unique(const kj_array *a, kj_rt_error *err)
{
    if (kj_dtype_info[a->dtype].kind == 'c') return kj_array_cpx_unique(a, err); /* array_sort_cpx.c */
    bool hashed = false;
    kj_array *h = kj_sort_plain_forced() ? NULL : kj_unique_hash(a, &hashed, err); /* few distinct values */
    if (hashed) return h;
    int64_t n = kj_array_size(a);
    kj_array *s = kj_array_astype(a, a->dtype, err); /* a C-ordered copy */
    if (!s) return NULL;
    s->ndim = 1;
    s->shape[0] = n;
    s->strides[0] = (int64_t)kj_array_itemsize(s);
    kj_array_update_flags(s);
    if (!sort_rows(s, NULL, err)) {
        kj_array_release(s);
        return NULL;
    }
    size_t isz = kj_array_itemsize(s);
    int64_t w = 0;
    uint64_t prev = 0;
    bool exact = true;
    for (int64_t i = 0; i < n; i++) {
        uint64_t k = key_of(s->data + i * (int64_t)isz, s->dtype, &exact);
        if (i && k == prev) continue;
        memmove(s->data + w * (int64_t)isz, s->data + i * (int64_t)isz, isz);
        w++;
        prev = k;
    }
    kj_array *r = kj_array_empty(s->dtype, 1, &w, err);
    if (r) memcpy(r->data, s->data, (size_t)w * isz);
    kj_array_release(s);
    return r;
}

/* ---- order statistics ---- */

static void swap_d(double *v, int64_t i, int64_t j)
{
    double t = v[i];
    v[i] = v[j];
    v[j] = t;
}

/* Where the partitions of fr_select left v around k: v[below] (below < k,
 * or -1) is the largest of v[0..below] and v[above] (above > k, or n) the
 * smallest of v[above..n-1], so the neighbours of the k-th (the max of
 * v[0..k-1], the min of v[k+1..n-1]) are found by scanning the few elements
 * between below and above, not a half of v. */
typedef struct {
    int64_t below, above;
} sel_bounds;

/* Rearrange v[left..right] so that v[k] is the k-th smallest, smaller
 * before, larger after (no NaN in v): Floyd and Rivest's SELECT, which
 * first narrows the range around k by selecting in a sample (about 1.5 n
 * comparisons, fewer than a quickselect's 2 to 3 n). The outermost call
 * records its partition points in *b (NULL in the recursive calls, whose
 * pivots bound only their sample). */
static void fr_select(double *v, int64_t left, int64_t right, int64_t k, sel_bounds *b)
{
    while (right > left) {
        if (right - left > 600) {
            double n = (double)(right - left + 1), i = (double)(k - left + 1), z = log(n);
            double s = 0.5 * exp(2 * z / 3), sd = 0.5 * sqrt(z * s * (n - s) / n) * (i - n / 2 < 0 ? -1 : 1);
            int64_t nl = (int64_t)((double)k - i * s / n + sd), nr = (int64_t)((double)k + (n - i) * s / n + sd);
            fr_select(v, nl > left ? nl : left, nr < right ? nr : right, k, NULL);
        }
        double t = v[k];
        int64_t i = left, j = right;
        swap_d(v, left, k);
        if (v[right] > t) swap_d(v, right, left);
        while (i < j) {
            swap_d(v, i, j);
            i++, j--;
            while (v[i] < t) i++;
            while (v[j] > t) j--;
        }
        if (v[left] == t) {
            swap_d(v, left, j);
        } else {
            j++;
            swap_d(v, j, right);
        }
        /* v[j] == t now: v[left..j-1] <= t <= v[j+1..right] */
        if (b && j < k) b->below = j;
        if (b && j > k) b->above = j;
        if (j <= k) left = j + 1;
        if (k <= j) right = j - 1;
    }
}

static sel_bounds select_kth(double *v, int64_t n, int64_t k)
{
    sel_bounds b = {-1, n};
    fr_select(v, 0, n - 1, k, &b);
    return b;
}

/* After select_kth(v, n, k) returned b: the largest of v[0..k-1] (k > 0). */
static double max_below(const double *v, int64_t k, sel_bounds b)
{
    int64_t i = b.below >= 0 ? b.below : 0;
    double m = v[i];
    for (i++; i < k; i++) m = v[i] > m ? v[i] : m;
    return m;
}

/* After select_kth(v, n, k) returned b: the smallest of v[k+1..n-1] (k < n-1). */
static double min_above(const double *v, int64_t n, int64_t k, sel_bounds b)
{
    int64_t i = b.above < n ? b.above : n - 1;
    double m = v[i];
    for (i--; i > k; i--) m = v[i] < m ? v[i] : m;
    return m;
}

/* Copy m float64 from s to d; whether one was NaN. One pass, no branch in
 * the loop (it vectorises: the copy runs at memory speed). */
static bool copy_f64_nan(double *restrict d, const double *restrict s, int64_t m)
{
    unsigned nan = 0;
    for (int64_t i = 0; i < m; i++) {
        double x = s[i];
        d[i] = x;
        nan |= x != x;
    }
    return nan != 0;
}

static bool any_nan(const double *v, int64_t m)
{
    unsigned nan = 0;
    for (int64_t i = 0; i < m; i++) nan |= v[i] != v[i];
    return nan != 0;
}

/* The elements of a as a fresh float64 array to select in (huge pages, as
 * every large kj_array: NumPy's copy has them too), read in one pass when a
 * is float64 C-ordered; NaNs dropped (skip_nan, then *n counts the rest) or
 * reported in *has_nan. */
static kj_array *f64_scratch(const kj_array *a, bool skip_nan, int64_t *n, bool *has_nan, kj_rt_error *err)
{
    int64_t m = kj_array_size(a);
    kj_array *c;
    if (a->dtype == KJ_DT_FLOAT64 && kj_array_is_c_contiguous(a)) {
        c = kj_array_empty(KJ_DT_FLOAT64, 1, &m, err);
        if (!c) return NULL;
        *has_nan = copy_f64_nan((double *)(void *)c->data, (const double *)(const void *)a->data, m);
    } else {
        c = kj_array_astype(a, KJ_DT_FLOAT64, err); /* a C-ordered copy */
        if (!c) return NULL;
        *has_nan = any_nan((const double *)(void *)c->data, m);
    }
    double *v = (double *)(void *)c->data;
    int64_t w = m;
    if (*has_nan && skip_nan) {
        w = 0;
        for (int64_t i = 0; i < m; i++)
            if (v[i] == v[i]) v[w++] = v[i];
    }
    *n = w;
    return c;
}

static kj_dtype stat_dtype(kj_dtype dt) { return dt == KJ_DT_FLOAT32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64; }

static kj_array *scalar_result(double x, kj_dtype dt)
{
    return kj_array_from_scalar(kj_scalar_cast(kj_scalar_f64(x), dt));
}

/* NumPy's median: the mean of the one or two middle elements, computed in
 * the result's float type; NaN when one element is NaN (not skip_nan). */
kj_array *kj_array_median(const kj_array *a, bool skip_nan, kj_rt_error *err)
{
    int64_t n;
    bool nan;
    kj_array *c = f64_scratch(a, skip_nan, &n, &nan, err);
    if (!c) return NULL;
    double *v = (double *)(void *)c->data;
    kj_dtype rt = stat_dtype(a->dtype);
    double r = NAN;
    if (n && !(nan && !skip_nan)) {
        int64_t h = n / 2;
        sel_bounds b = select_kth(v, n, h);
        if (n % 2) {
            r = v[h];
        } else {
            double lo = max_below(v, h, b);
            r = rt == KJ_DT_FLOAT32 ? (double)(((float)lo + (float)v[h]) / 2.0f) : (lo + v[h]) / 2.0;
        }
    }
    kj_array_release(c);
    return scalar_result(r, rt);
}

/* NumPy 1.24's 'linear' quantile of the n values v (partially ordered
 * here) at q: virtual index (n-1)q, its floor and the next one clipped to
 * the ends, and _lerp's two formulas either side of gamma 0.5. */
static double lerp_quantile(double *v, int64_t n, double q)
{
    double vi = (double)(n - 1) * q;
    int64_t prev, next;
    double prevf;
    if (vi >= (double)(n - 1)) {
        prev = next = n - 1;
        prevf = -1.0; /* NumPy's index -1 enters gamma */
    } else if (vi < 0) {
        prev = next = 0;
        prevf = 0.0;
    } else {
        prevf = floor(vi);
        prev = (int64_t)prevf;
        next = prev + 1;
    }
    double t = vi - prevf;
    sel_bounds b = select_kth(v, n, prev);
    double lo = v[prev];
    double hi = next != prev ? min_above(v, n, prev, b) : lo;
    double d = hi - lo;
    return t >= 0.5 ? hi - d * (1 - t) : lo + d * t;
}

kj_array *kj_array_quantile(const kj_array *a, const kj_array *q, bool skip_nan, const char *what,
                            kj_rt_error *err)
{
    kj_array *qc = kj_array_astype(q, KJ_DT_FLOAT64, err);
    if (!qc) return NULL;
    const double *qs = (const double *)(const void *)qc->data;
    int64_t nq = kj_array_size(qc);
    for (int64_t j = 0; j < nq; j++)
        if (!(qs[j] >= 0 && qs[j] <= 1)) {
            kj_array_release(qc);
            return kj_rt_errorf(err, "ValueError", "%s must be in the range [0, %s]", what,
                                what[0] == 'P' ? "100" : "1"), NULL;
        }
    int64_t n;
    bool nan;
    kj_array *c = f64_scratch(a, skip_nan, &n, &nan, err);
    double *v = c ? (double *)(void *)c->data : NULL;
    kj_dtype rt = stat_dtype(a->dtype);
    kj_array *r = v ? kj_array_empty(rt, qc->ndim, qc->shape, err) : NULL;
    if (r && n == 0 && !skip_nan) {
        kj_array_release(r);
        r = NULL;
        kj_rt_errorf(err, "IndexError", "index -1 is out of bounds for axis 0 with size 0");
    }
    for (int64_t j = 0; r && j < nq; j++) {
        double x = n == 0 || (nan && !skip_nan) ? NAN : lerp_quantile(v, n, qs[j]);
        kj_elem_store(r->data + j * (int64_t)kj_array_itemsize(r), rt, kj_scalar_cast(kj_scalar_f64(x), rt));
    }
    if (c) kj_array_release(c);
    kj_array_release(qc);
    return r;
}

/* ---- partitions and sets ---- */

/* np.partition(a, kth) / np.argpartition: a full (stable) sort along the
 * last axis is one of the valid partitions for every kth; kth is checked
 * as NumPy does. */
kj_array *kj_array_partition(const kj_array *a, int64_t kth, bool arg, kj_rt_error *err)
{
    int64_t m = a->ndim ? a->shape[a->ndim - 1] : 1;
    if (kth < -m || kth >= m)
        return kj_rt_errorf(err, "ValueError", "kth(=%lld) out of bounds (%lld)", (long long)kth, (long long)m), NULL;
    return arg ? kj_array_argsort(a, err) : kj_array_sorted(a, err);
}

static bool is_nan_key(uint64_t k, kj_dtype dt) { return k == UINT64_MAX && kj_dtype_is_float(dt); }

/* The sorted distinct keys of a in dtype dt, and their values (a 1-d array
 * of dt). */
static kj_array *unique_as(const kj_array *a, kj_dtype dt, kj_rt_error *err)
{
    kj_array *c = kj_array_astype(a, dt, err);
    kj_array *u = c ? kj_array_unique(c, err) : NULL;
    kj_array_release(c);
    return u;
}

static uint64_t key_at(const kj_array *a, int64_t i)
{
    bool exact = true;
    return key_of(a->data + i * (int64_t)kj_array_itemsize(a), a->dtype, &exact);
}

/* Is key k among the n sorted keys of u (NaN never is: NaN != NaN)? */
static bool contains(const kj_array *u, int64_t n, uint64_t k)
{
    if (is_nan_key(k, u->dtype)) return false;
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (key_at(u, mid) < k) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && key_at(u, lo) == k;
}

/* Elements i of x (1-d) with keep[i], as a new 1-d array. */
static kj_array *select_where(const kj_array *x, const bool *keep, kj_rt_error *err)
{
    int64_t n = kj_array_size(x), w = 0;
    for (int64_t i = 0; i < n; i++) w += keep[i];
    kj_array *r = kj_array_empty(x->dtype, 1, &w, err);
    size_t isz = kj_array_itemsize(x);
    for (int64_t i = 0, j = 0; r && i < n; i++)
        if (keep[i]) memcpy(r->data + j++ * (int64_t)isz, x->data + i * (int64_t)isz, isz);
    return r;
}

/* a's elements in b (equal values; NaN never), a bool array of a's shape. */
static kj_array *isin(const kj_array *a, const kj_array *b, kj_rt_error *err)
{
    kj_dtype dt = search_dtype(a->dtype, b->dtype);
    kj_array *ub = unique_as(b, dt, err), *ac = ub ? kj_array_astype(a, dt, err) : NULL;
    kj_array *r = ac ? kj_array_empty(KJ_DT_BOOL, a->ndim, a->shape, err) : NULL;
    int64_t n = kj_array_size(a), nb = ub ? kj_array_size(ub) : 0;
    for (int64_t i = 0; r && i < n; i++) r->data[i] = contains(ub, nb, key_at(ac, i));
    kj_array_release(ub);
    kj_array_release(ac);
    return r;
}

/* union1d, intersect1d, setxor1d over the unique elements of both, in the
 * common dtype, sorted together: union keeps the first of equal keys (its
 * NaNs collapse, as NumPy's unique of the concatenation), intersect1d a
 * value both have, setxor1d a value one has; NaN equals nothing there (NumPy
 * compares with ==): never in an intersection, twice in a setxor1d. */
static kj_array *merge_sets(const kj_array *a, const kj_array *b, kj_setop op, kj_rt_error *err)
{
    kj_dtype dt = kj_dtype_promote(a->dtype, b->dtype);
    kj_array *ua = unique_as(a, dt, err), *ub = ua ? unique_as(b, dt, err) : NULL;
    if (!ub) {
        kj_array_release(ua);
        return NULL;
    }
    int64_t na = kj_array_size(ua), nb = kj_array_size(ub), n = na + nb;
    kj_array *all = kj_array_empty(dt, 1, &n, err);
    bool *keep = all ? malloc((size_t)(n ? n : 1)) : NULL;
    kj_array *r = NULL;
    if (keep) {
        size_t isz = kj_array_itemsize(all);
        memcpy(all->data, ua->data, (size_t)na * isz);
        memcpy(all->data + na * (int64_t)isz, ub->data, (size_t)nb * isz);
        if (sort_rows(all, NULL, err)) {
            for (int64_t i = 0; i < n; i++) {
                uint64_t k = key_at(all, i);
                bool nan = is_nan_key(k, dt);
                bool prev = i > 0 && !nan && key_at(all, i - 1) == k, next = i + 1 < n && !nan && key_at(all, i + 1) == k;
                if (op == KJ_SET_UNION) keep[i] = !(i > 0 && key_at(all, i - 1) == k);
                else if (op == KJ_SET_INTERSECT) keep[i] = next;
                else keep[i] = !prev && !next;
            }
            r = select_where(all, keep, err);
        }
    }
    free(keep);
    kj_array_release(all);
    kj_array_release(ua);
    kj_array_release(ub);
    return r;
}

kj_array *kj_array_setop(const kj_array *a, const kj_array *b, kj_setop op, kj_rt_error *err)
{
    switch (op) {
    case KJ_SET_IN1D: {
        kj_array *r = isin(a, b, err);
        if (r) r->ndim = 1, r->shape[0] = kj_array_size(a), r->strides[0] = 1, kj_array_update_flags(r);
        return r;
    }
    case KJ_SET_ISIN: return isin(a, b, err);
    case KJ_SET_DIFF: { /* unique(a)[~in1d(unique(a), b)] */
        kj_array *ua = kj_array_unique(a, err), *in = ua ? isin(ua, b, err) : NULL, *r = NULL;
        if (in) {
            int64_t n = kj_array_size(in);
            for (int64_t i = 0; i < n; i++) in->data[i] = !in->data[i];
            r = select_where(ua, (const bool *)(void *)in->data, err);
        }
        kj_array_release(ua);
        kj_array_release(in);
        return r;
    }
    default: return merge_sets(a, b, op, err);
    }
}
