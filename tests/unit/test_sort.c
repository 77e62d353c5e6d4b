/* SPDX-License-Identifier: BSD-2-Clause */
/* The AVX-512 quicksorts (src/runtime/sort_simd.c) against qsort, and
 * np.sort / np.argsort / np.unique's fast paths (sort_fast.c) against the plain radix
 * path (KJIT_SORT_PLAIN=1), bit for bit: every dtype of the fast path,
 * random, sorted, reversed, all-equal, few-distinct and NaN/inf/-0.0- (or
 * extreme-integer-) laden inputs, every size 0..300, more to ~1100, and
 * 10^6. On a CPU without AVX-512 the kernel tests skip and the array tests
 * compare the plain path with itself and with qsort. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/array.h"
#include "runtime/array_sort.h"
#include "runtime/sort_fast.h"
#include "runtime/sort_simd.h"

enum { PAT_RANDOM, PAT_SORTED, PAT_REVERSED, PAT_EQUAL, PAT_FEW, PAT_SPECIAL, NPAT };

/* xorshift64*: the tests' own reproducible stream. */
static uint64_t next_u64(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

/* Element i of n of pattern pat as a double in [-1e6, 1e6] (before the
 * conversion to each dtype; PAT_SPECIAL's specials are added per dtype). */
static double pattern(int pat, int64_t i, int64_t n, uint64_t *s)
{
    switch (pat) {
    case PAT_SORTED: return (double)i - (double)n / 2;
    case PAT_REVERSED: return (double)(n - i);
    case PAT_EQUAL: return 3;
    case PAT_FEW: return (double)(next_u64(s) % 5) - 2;
    default: return (double)(int64_t)(next_u64(s) % 2000001) - 1e6 + (double)(next_u64(s) % 8) / 8;
    }
}

static double special_f(uint64_t r)
{
    static const double sp[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0, -NAN, 1e308, -1e-310};
    return sp[r % 8];
}

/* Fill v (dtype dt) with n elements of pattern pat. */
static void fill(void *v, kj_dtype dt, int pat, int64_t n, uint64_t seed)
{
    uint64_t s = seed | 1;
    for (int64_t i = 0; i < n; i++) {
        double x = pattern(pat, i, n, &s);
        bool sp = pat == PAT_SPECIAL && next_u64(&s) % 3 == 0;
        uint64_t r = next_u64(&s);
        switch (dt) {
        case KJ_DT_FLOAT64: ((double *)v)[i] = sp ? special_f(r) : x; break;
        case KJ_DT_FLOAT32: ((float *)v)[i] = sp ? (float)special_f(r) : (float)x; break;
        case KJ_DT_INT64: ((int64_t *)v)[i] = sp ? (r & 1 ? INT64_MIN : INT64_MAX) : (int64_t)x * 1000003; break;
        case KJ_DT_UINT64: ((uint64_t *)v)[i] = sp ? (r & 1 ? 0 : UINT64_MAX) : (uint64_t)(int64_t)x * 1000003; break;
        case KJ_DT_INT32: ((int32_t *)v)[i] = sp ? (r & 1 ? INT32_MIN : INT32_MAX) : (int32_t)x; break;
        default: ((uint32_t *)v)[i] = sp ? (r & 1 ? 0 : UINT32_MAX) : (uint32_t)(int32_t)x; break;
        }
    }
}

#define CMP_FN(name, T)                                                    \
    static int name(const void *x, const void *y)                          \
    {                                                                      \
        T a = *(const T *)x, b = *(const T *)y;                            \
        if (a != a || b != b) return (a != a) - (b != b); /* NaN last */   \
        return (a > b) - (a < b);                                          \
    }
CMP_FN(cmp_f64, double)
CMP_FN(cmp_f32, float)
CMP_FN(cmp_i64, int64_t)
CMP_FN(cmp_u64, uint64_t)
CMP_FN(cmp_i32, int32_t)
CMP_FN(cmp_u32, uint32_t)

static const kj_dtype dtypes[] = {KJ_DT_FLOAT64, KJ_DT_FLOAT32, KJ_DT_INT64, KJ_DT_UINT64, KJ_DT_INT32, KJ_DT_UINT32};

static int (*cmp_of(kj_dtype dt))(const void *, const void *)
{
    switch (dt) {
    case KJ_DT_FLOAT64: return cmp_f64;
    case KJ_DT_FLOAT32: return cmp_f32;
    case KJ_DT_INT64: return cmp_i64;
    case KJ_DT_UINT64: return cmp_u64;
    case KJ_DT_INT32: return cmp_i32;
    default: return cmp_u32;
    }
}

/* The kernel of dt on n elements of v (no NaN), its partitions of form
 * `how`. */
static void simd_sort(void *v, kj_dtype dt, int64_t n, kj_sort_part how)
{
    switch (dt) {
    case KJ_DT_FLOAT64: kj_sort_simd_f64_by(v, n, how); break;
    case KJ_DT_FLOAT32: kj_sort_simd_f32_by(v, n, how); break;
    case KJ_DT_INT64: kj_sort_simd_i64_by(v, n, how); break;
    case KJ_DT_UINT64: kj_sort_simd_u64_by(v, n, how); break;
    case KJ_DT_INT32: kj_sort_simd_i32_by(v, n, how); break;
    default: kj_sort_simd_u32_by(v, n, how); break;
    }
}

/* The copying kernel of dt: src's n elements sorted into dst, the first
 * partition in the copy (false: n too small for it). */
static bool simd_sort_from(void *dst, const void *src, kj_dtype dt, int64_t n, kj_sort_part how)
{
    switch (dt) {
    case KJ_DT_FLOAT64: return kj_sort_simd_f64_from_by(dst, src, n, how);
    case KJ_DT_FLOAT32: return kj_sort_simd_f32_from_by(dst, src, n, how);
    case KJ_DT_INT64: return kj_sort_simd_i64_from_by(dst, src, n, how);
    case KJ_DT_UINT64: return kj_sort_simd_u64_from_by(dst, src, n, how);
    case KJ_DT_INT32: return kj_sort_simd_i32_from_by(dst, src, n, how);
    default: return kj_sort_simd_u32_from_by(dst, src, n, how);
    }
}

/* Drop NaNs and make -0.0 +0.0 (the kernels' contract: no NaN; qsort's
 * order of -0.0 and 0.0 is not theirs). */
static int64_t kernel_input(void *v, kj_dtype dt, int64_t n)
{
    int64_t w = n;
    if (dt == KJ_DT_FLOAT64) {
        double *d = v;
        w = 0;
        for (int64_t i = 0; i < n; i++)
            if (d[i] == d[i]) d[w++] = d[i] == 0 ? 0.0 : d[i];
    } else if (dt == KJ_DT_FLOAT32) {
        float *f = v;
        w = 0;
        for (int64_t i = 0; i < n; i++)
            if (f[i] == f[i]) f[w++] = f[i] == 0 ? 0.0f : f[i];
    }
    return w;
}

static void check_kernel(kj_dtype dt, int pat, int64_t n, uint64_t seed)
{
    size_t isz = kj_dtype_size(dt), sz = (size_t)(n ? n : 1) * isz;
    char *a = malloc(sz), *b = malloc(sz), *c = malloc(sz);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    fill(a, dt, pat, n, seed);
    int64_t m = kernel_input(a, dt, n);
    memcpy(b, a, (size_t)m * isz);
    qsort(b, (size_t)m, isz, cmp_of(dt));
    for (kj_sort_part how = KJ_SORT_PART_REGISTER; how <= KJ_SORT_PART_CSTORE; how++) {
        memcpy(c, a, (size_t)m * isz);
        simd_sort(c, dt, m, how);
        if (memcmp(c, b, (size_t)m * isz) != 0)
            fail_msg("dtype %d, pattern %d, n %lld, partition form %d: the kernel's order differs from qsort's",
                     (int)dt, pat, (long long)n, (int)how);
        memset(c, 0xa5, (size_t)m * isz); /* poisoned: every element must be written */
        if (simd_sort_from(c, a, dt, m, how) && memcmp(c, b, (size_t)m * isz) != 0)
            fail_msg("dtype %d, pattern %d, n %lld, partition form %d: the copying kernel's order differs from "
                     "qsort's", (int)dt, pat, (long long)n, (int)how);
    }
    free(a);
    free(b);
    free(c);
}

static void each_size(void (*check)(kj_dtype, int, int64_t, uint64_t))
{
    for (size_t d = 0; d < sizeof dtypes / sizeof *dtypes; d++)
        for (int pat = 0; pat < NPAT; pat++) {
            for (int64_t n = 0; n <= 530; n++) check(dtypes[d], pat, n, (uint64_t)n * 7919 + (uint64_t)pat);
            for (int64_t n = 531; n <= 1100; n += 37) check(dtypes[d], pat, n, (uint64_t)n);
        }
}

static void kernels_small(void **state)
{
    (void)state;
    if (!kj_sort_simd_available()) skip();
    each_size(check_kernel);
}

static void kernels_large(void **state)
{
    (void)state;
    if (!kj_sort_simd_available()) skip();
    for (size_t d = 0; d < sizeof dtypes / sizeof *dtypes; d++)
        for (int pat = PAT_RANDOM; pat <= PAT_FEW; pat += PAT_FEW - PAT_RANDOM)
            check_kernel(dtypes[d], pat, 1000000, 42 + (uint64_t)pat);
}

/* An array of shape (rows, n) of dt holding pattern pat. */
static kj_array *pattern_array(kj_dtype dt, int pat, int64_t rows, int64_t n, uint64_t seed)
{
    kj_rt_error err = {0};
    int64_t shape[2] = {rows, n};
    kj_array *a = kj_array_empty(dt, 2, shape, &err);
    assert_non_null(a);
    for (int64_t r = 0; r < rows; r++) fill(a->data + r * n * (int64_t)kj_dtype_size(dt), dt, pat, n, seed + (uint64_t)r);
    return a;
}

static void set_plain(bool plain)
{
    if (plain) setenv("KJIT_SORT_PLAIN", "1", 1);
    else unsetenv("KJIT_SORT_PLAIN");
}

/* np.sort of a (rows, n) array: the fast and the plain path agree bit for
 * bit, and each row equals qsort's by value (-0.0 == 0.0, NaNs last). */
static void check_rows(kj_dtype dt, int pat, int64_t n, uint64_t seed)
{
    kj_rt_error err = {0};
    int64_t rows = n < 40 ? 3 : 1;
    kj_array *a = pattern_array(dt, pat, rows, n, seed);
    size_t isz = kj_dtype_size(dt), bytes = (size_t)(rows * n) * isz;
    char *before = malloc(bytes ? bytes : 1);
    assert_non_null(before);
    memcpy(before, a->data, bytes);
    set_plain(false);
    kj_array *fast = kj_array_sorted(a, &err); /* the fast path copies a as it scans it */
    set_plain(true);
    kj_array *plain = kj_array_sorted(a, &err);
    set_plain(false);
    assert_non_null(fast);
    assert_non_null(plain);
    if (memcmp(before, a->data, bytes) != 0)
        fail_msg("dtype %d, pattern %d, n %lld: np.sort changed its argument", (int)dt, pat, (long long)n);
    free(before);
    if (memcmp(fast->data, plain->data, bytes) != 0)
        fail_msg("dtype %d, pattern %d, n %lld: the fast path differs from the plain one", (int)dt, pat, (long long)n);
    for (int64_t r = 0; r < rows; r++) {
        char *want = a->data + r * n * (int64_t)isz, *got = fast->data + r * n * (int64_t)isz;
        qsort(want, (size_t)n, isz, cmp_of(dt));
        for (int64_t i = 0; i < n; i++)
            if (cmp_of(dt)(got + i * (int64_t)isz, want + i * (int64_t)isz) != 0)
                fail_msg("dtype %d, pattern %d, n %lld: row %lld, element %lld is out of order", (int)dt, pat,
                         (long long)n, (long long)r, (long long)i);
    }
    kj_array_release(a);
    kj_array_release(fast);
    kj_array_release(plain);
}

static void sort_paths_small(void **state)
{
    (void)state;
    each_size(check_rows);
}

static void sort_paths_large(void **state)
{
    (void)state;
    for (size_t d = 0; d < sizeof dtypes / sizeof *dtypes; d++)
        check_rows(dtypes[d], PAT_SPECIAL, 1000000, 7); /* random, with NaN/inf/-0.0 or extremes */
}

/* np.argsort of a (rows, n) array: the fast path's indices are the plain
 * (stable) path's, and they order each row. */
static void check_argsort(kj_dtype dt, int pat, int64_t n, uint64_t seed)
{
    kj_rt_error err = {0};
    int64_t rows = n < 40 ? 3 : 1;
    kj_array *a = pattern_array(dt, pat, rows, n, seed);
    set_plain(false);
    kj_array *fast = kj_array_argsort(a, &err);
    set_plain(true);
    kj_array *plain = kj_array_argsort(a, &err);
    set_plain(false);
    assert_non_null(fast);
    assert_non_null(plain);
    if (memcmp(fast->data, plain->data, (size_t)(rows * n) * 8) != 0)
        fail_msg("dtype %d, pattern %d, n %lld: argsort's fast path differs from the plain one", (int)dt, pat,
                 (long long)n);
    size_t isz = kj_dtype_size(dt);
    const int64_t *ix = (const int64_t *)(void *)fast->data;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t i = 1; i < n; i++) {
            const char *row = a->data + r * n * (int64_t)isz;
            int64_t p = ix[r * n + i - 1], q = ix[r * n + i];
            int c = cmp_of(dt)(row + p * (int64_t)isz, row + q * (int64_t)isz);
            if (c > 0 || (c == 0 && p > q))
                fail_msg("dtype %d, pattern %d, n %lld: argsort %lld, %lld not in stable order", (int)dt, pat,
                         (long long)n, (long long)p, (long long)q);
        }
    kj_array_release(a);
    kj_array_release(fast);
    kj_array_release(plain);
}

static void argsort_paths(void **state)
{
    (void)state;
    each_size(check_argsort);
    for (size_t d = 0; d < sizeof dtypes / sizeof *dtypes; d++) {
        check_argsort(dtypes[d], PAT_SPECIAL, 1000000, 11);
        check_argsort(dtypes[d], PAT_FEW, 1000000, 12);
    }
}

/* np.unique: the hash pass and the sort agree bit for bit (first
 * occurrences of equal values: -0.0 or 0.0, which NaN). */
static void check_unique(kj_dtype dt, int pat, int64_t n, uint64_t seed)
{
    kj_rt_error err = {0};
    kj_array *a = pattern_array(dt, pat, 1, n, seed);
    set_plain(false);
    kj_array *fast = kj_array_unique(a, &err);
    set_plain(true);
    kj_array *plain = kj_array_unique(a, &err);
    set_plain(false);
    assert_non_null(fast);
    assert_non_null(plain);
    assert_int_equal(kj_array_size(fast), kj_array_size(plain));
    if (memcmp(fast->data, plain->data, (size_t)kj_array_size(fast) * kj_dtype_size(dt)) != 0)
        fail_msg("dtype %d, pattern %d, n %lld: unique differs between the paths", (int)dt, pat, (long long)n);
    kj_array_release(a);
    kj_array_release(fast);
    kj_array_release(plain);
}

static void unique_paths(void **state)
{
    (void)state;
    static const int64_t sizes[] = {0, 1, 5, 1023, 1024, 1025, 5000, 200000};
    for (size_t d = 0; d < sizeof dtypes / sizeof *dtypes; d++)
        for (int pat = 0; pat < NPAT; pat++)
            for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) check_unique(dtypes[d], pat, sizes[k], 3 + k);
}

/* The hash pass really runs (few distinct values of a large array) and
 * keeps the first of -0.0 / 0.0 and of the NaNs, as the stable sort does;
 * a non-contiguous view too. */
static void unique_first_occurrence(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    int64_t n = 4096;
    kj_array *a = kj_array_empty(KJ_DT_FLOAT64, 1, &n, &err);
    assert_non_null(a);
    double *v = (double *)(void *)a->data;
    for (int64_t i = 0; i < n; i++) v[i] = (double)(i % 7);
    v[100] = -0.0; /* before every 0.0 but v[0], v[7], ... : v[0] is 0.0 */
    v[0] = -0.0;
    v[9] = -NAN;
    v[10] = NAN;
    bool hashed = false;
    kj_array *u = kj_unique_hash(a, &hashed, &err);
    assert_true(hashed);
    assert_non_null(u);
    assert_int_equal(kj_array_size(u), 8);
    const double *r = (const double *)(void *)u->data;
    assert_true(r[0] == 0 && signbit(r[0]));
    assert_true(isnan(r[7]) && signbit(r[7]));
    for (int k = 1; k < 7; k++) assert_true(r[k] == k);
    kj_array_release(u);
    kj_array_release(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_small),
        cmocka_unit_test(kernels_large),
        cmocka_unit_test(sort_paths_small),
        cmocka_unit_test(sort_paths_large),
        cmocka_unit_test(argsort_paths),
        cmocka_unit_test(unique_paths),
        cmocka_unit_test(unique_first_occurrence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
