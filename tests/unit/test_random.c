/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's legacy random stream: every expected value below was computed
 * once with numpy 1.24's global RandomState (the Python one-liner is next
 * to it) and must match bit for bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "runtime/random.h"

static void seed(kj_mt19937 *st, int64_t s)
{
    kj_rt_error err = {0};
    assert_true(kj_mt19937_seed(st, s, &err));
}

/* np.random.seed(s); v = np.random.rand(1000)
 * → [v[i].hex() for i in (0, 1, 2, 500, 999)] and the sequential sum
 *   (acc = 0.0; for x in v.tolist(): acc += x), as hex. */
static void test_rand_streams(void **state)
{
    (void)state;
    static const struct {
        int64_t seed;
        double at[5], sum;
    } cases[] = {
        {0, {0x1.18fe1565f12a8p-1, 0x1.6e2d4cf608733p-1, 0x1.349d66b6e894bp-1,
             0x1.3dd478a38e166p-2, 0x1.5ab23e79781c2p-1}, 0x1.efebe9ad34f28p+8},
        {1, {0x1.ab07d0ffa3c06p-2, 0x1.70ce5f3baf051p-1, 0x1.dfb906661c000p-14,
             0x1.6653bed03b5b8p-4, 0x1.8c8848c20f7e2p-1}, 0x1.f49ac707aa4a9p+8},
        {42, {0x1.7f8771e5f51ecp-2, 0x1.e6c4068bbd654p-1, 0x1.76c7e8f1e6751p-1,
              0x1.657573c21176ep-1, 0x1.c8b5bcc2b9faep-2}, 0x1.ea41ad7a77a76p+8},
        {4294967295, {0x1.8fe69a3924820p-4, 0x1.d323d824032b1p-1, 0x1.93fc6f61af3f9p-1,
                      0x1.8c101cbaed8acp-2, 0x1.1cfe321a42891p-1}, 0x1.f63f87efd9574p+8},
    };
    static const int pos[5] = {0, 1, 2, 500, 999};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        kj_mt19937 st;
        seed(&st, cases[c].seed);
        double v[1000], acc = 0.0;
        kj_random_fill(&st, v, 1000);
        for (int i = 0; i < 1000; i++) acc += v[i];
        for (int k = 0; k < 5; k++) assert_true(v[pos[k]] == cases[c].at[k]);
        assert_true(acc == cases[c].sum);
    }
}

/* np.random.seed(2**32+5) and np.random.seed(12345678901) raise
 * "ValueError: Seed must be between 0 and 2**32 - 1" (legacy seeding takes
 * 32-bit integers only); so does a negative seed. */
static void test_seed_range(void **state)
{
    (void)state;
    kj_mt19937 st;
    kj_rt_error err = {0};
    static const int64_t bad[] = {INT64_C(4294967301), INT64_C(12345678901), -1};
    for (size_t i = 0; i < 3; i++) {
        assert_false(kj_mt19937_seed(&st, bad[i], &err));
        assert_string_equal(err.message, "Seed must be between 0 and 2**32 - 1");
        assert_string_equal(err.exc, "ValueError");
    }
}

/* np.random.seed(0); np.random.randint(0, 10, 20).tolist() */
static void test_randint_small(void **state)
{
    (void)state;
    kj_mt19937 st;
    kj_rt_error err = {0};
    int64_t out[20];
    static const int64_t want[20] = {5, 0, 3, 3, 7, 9, 3, 5, 2, 4, 7, 6, 8, 8, 1, 6, 7, 7, 8, 1};
    seed(&st, 0);
    assert_true(kj_random_randint(&st, 0, 10, out, 20, &err));
    assert_memory_equal(out, want, sizeof want);

    /* np.random.seed(0); np.random.randint(-5, 5, 10).tolist() */
    static const int64_t want2[10] = {0, -5, -2, -2, 2, 4, -2, 0, -3, -1};
    seed(&st, 0);
    assert_true(kj_random_randint(&st, -5, 5, out, 10, &err));
    assert_memory_equal(out, want2, sizeof want2);

    /* np.random.seed(7); np.random.randint(10**12, 10**12+3, 8).tolist() */
    static const int64_t want3[8] = {1000000000000, 1000000000001, 1000000000002, 1000000000000,
                                     1000000000001, 1000000000002, 1000000000000, 1000000000001};
    seed(&st, 7);
    assert_true(kj_random_randint(&st, 1000000000000, 1000000000003, out, 8, &err));
    assert_memory_equal(out, want3, sizeof want3);
}

/* Ranges beyond 32 bits draw 64-bit values (two words each). */
static void test_randint_64bit(void **state)
{
    (void)state;
    kj_mt19937 st;
    kj_rt_error err = {0};
    int64_t out[5];
    /* np.random.seed(0); np.random.randint(0, 2**40, 5).tolist() */
    static const int64_t want[5] = {741280623151, 506137267392, 291447657211, 841157541223,
                                    41332891347};
    seed(&st, 0);
    assert_true(kj_random_randint(&st, 0, INT64_C(1) << 40, out, 5, &err));
    assert_memory_equal(out, want, sizeof want);

    /* np.random.seed(42); np.random.randint(-2**63, 2**63-1, 4).tolist() */
    static const int64_t want2[4] = {-2314326399425823309, 8314211556539077902,
                                     4279532810384561223, 1819927849474927636};
    seed(&st, 42);
    assert_true(kj_random_randint(&st, INT64_MIN, INT64_MAX, out, 4, &err));
    assert_memory_equal(out, want2, sizeof want2);

    /* the full 32-bit range takes the word unmasked:
     * np.random.seed(42); np.random.randint(0, 2**32, 4).tolist() */
    static const int64_t want3[4] = {1608637542, 3421126067, 4083286876, 787846414};
    seed(&st, 42);
    assert_true(kj_random_randint(&st, 0, INT64_C(1) << 32, out, 4, &err));
    assert_memory_equal(out, want3, sizeof want3);
}

/* randint(0, 1) is always 0 and draws nothing:
 * np.random.seed(0); np.random.randint(0, 1), np.random.rand().hex()
 * → 0 0x1.18fe1565f12a8p-1 (the same as the first rand after seed(0)). */
static void test_randint_empty_range(void **state)
{
    (void)state;
    kj_mt19937 st;
    kj_rt_error err = {0};
    int64_t out[3] = {9, 9, 9};
    seed(&st, 0);
    assert_true(kj_random_randint(&st, 0, 1, out, 3, &err));
    assert_int_equal(out[0], 0);
    assert_int_equal(out[2], 0);
    assert_true(kj_mt19937_double(&st) == 0x1.18fe1565f12a8p-1);
    /* high <= low: NumPy's "ValueError: low >= high" */
    assert_false(kj_random_randint(&st, 5, 5, out, 1, &err));
    assert_string_equal(err.message, "low >= high");
}

/* Interleaved calls share one stream:
 * np.random.seed(1); a = np.random.rand(3); b = np.random.randint(0, 100, 3);
 * c = np.random.rand(2) */
static void test_interleaved(void **state)
{
    (void)state;
    kj_mt19937 st;
    kj_rt_error err = {0};
    seed(&st, 1);
    double a[3], c[2];
    int64_t b[3];
    kj_random_fill(&st, a, 3);
    assert_true(kj_random_randint(&st, 0, 100, b, 3, &err));
    kj_random_fill(&st, c, 2);
    assert_true(a[2] == 0x1.dfb906661c000p-14);
    assert_int_equal(b[0], 75);
    assert_int_equal(b[1], 5);
    assert_int_equal(b[2], 79);
    assert_true(c[0] == 0x1.e3829e17a3808p-3);
    assert_true(c[1] == 0x1.96194217d75fep-2);
}

/* np.random.seed([1, 2, 3]); np.random.seed([0]); np.random.seed(range(700)):
 * init_by_array, including a key longer than the state. */
static void test_seed_array(void **state)
{
    (void)state;
    kj_mt19937 st;
    kj_rt_error err = {0};
    double v[3];
    assert_true(kj_mt19937_seed_array(&st, (int64_t[]){1, 2, 3}, 3, &err));
    kj_random_fill(&st, v, 3);
    assert_true(v[0] == 0x1.383fbc97230c2p-1);
    assert_true(v[1] == 0x1.c5fd27a5da181p-1);
    assert_true(v[2] == 0x1.e7c4d155e5af8p-2);
    assert_true(kj_mt19937_seed_array(&st, (int64_t[]){0}, 1, &err));
    kj_random_fill(&st, v, 2);
    assert_true(v[0] == 0x1.b0580f98a7dbep-1);
    assert_true(v[1] == 0x1.84129978f9c1ap-1);
    int64_t keys[700];
    for (int i = 0; i < 700; i++) keys[i] = i;
    assert_true(kj_mt19937_seed_array(&st, keys, 700, &err));
    kj_random_fill(&st, v, 2);
    assert_true(v[0] == 0x1.bc5d2d9c885aep-1);
    assert_true(v[1] == 0x1.d46ba8b5b281dp-1);
    assert_false(kj_mt19937_seed_array(&st, (int64_t[]){1, -2}, 2, &err));
    assert_string_equal(err.message, "Seed must be between 0 and 2**32 - 1");
}

/* The array forms: np.random.seed(5); np.random.random((2, 2)).tolist() and
 * np.random.seed(3); x = np.random.randint(-1000, 1000, 10000);
 * int(x.sum()), x[9999] → 3739, 607 */
static void test_array_forms(void **state)
{
    (void)state;
    kj_mt19937 st;
    kj_rt_error err = {0};
    seed(&st, 5);
    kj_array *a = kj_random_rand_array(&st, 2, (int64_t[]){2, 2}, &err);
    assert_int_equal(a->dtype, KJ_DT_FLOAT64);
    assert_true(kj_array_get_f64(a, (int64_t[]){0, 0}) == 0.22199317108973948);
    assert_true(kj_array_get_f64(a, (int64_t[]){1, 1}) == 0.9186109079379216);
    kj_array_release(a);
    seed(&st, 3);
    a = kj_random_randint_array(&st, -1000, 1000, 1, (int64_t[]){10000}, &err);
    assert_int_equal(a->dtype, KJ_DT_INT64);
    assert_int_equal(kj_array_sum(a).v.i, 3739);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){9999}), 607);
    kj_array_release(a);
    assert_null(kj_random_randint_array(&st, 3, 1, 1, (int64_t[]){2}, &err));
    assert_string_equal(err.message, "low >= high");
}

/* Entropy seeding gives a usable, different state each time. */
static void test_seed_entropy(void **state)
{
    (void)state;
    kj_mt19937 a, b;
    kj_mt19937_seed_entropy(&a);
    kj_mt19937_seed_entropy(&b);
    double x = kj_mt19937_double(&a), y = kj_mt19937_double(&b);
    assert_true(x >= 0 && x < 1 && y >= 0 && y < 1);
    assert_true(memcmp(a.key, b.key, sizeof a.key) != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rand_streams),     cmocka_unit_test(test_seed_range),
        cmocka_unit_test(test_randint_small),    cmocka_unit_test(test_randint_64bit),
        cmocka_unit_test(test_randint_empty_range), cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_seed_array),       cmocka_unit_test(test_array_forms),
        cmocka_unit_test(test_seed_entropy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
