/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's thread-pool settings through the C API (kjit_ctx_threads_get /
 * _set, since 0.5): a call starts with the context's settings, and what
 * compiled code sets stays set for the context; values out of range are
 * Numba's ValueError messages as usage errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include <stdlib.h>
#include <string.h>

static const char src[] = "import numpy as np\n"
                          "from numba import njit, prange, get_num_threads, get_thread_id\n"
                          "from numba import set_parallel_chunksize, get_parallel_chunksize\n"
                          "\n"
                          "\n"
                          "@njit\n"
                          "def chunk():\n"
                          "    return get_parallel_chunksize()\n"
                          "\n"
                          "\n"
                          "@njit\n"
                          "def setchunk(n):\n"
                          "    return set_parallel_chunksize(n)\n"
                          "\n"
                          "\n"
                          "@njit(parallel=True)\n"
                          "def most_id(n):\n"
                          "    out = np.zeros(n, dtype=np.int64)\n"
                          "    for i in prange(n):\n"
                          "        out[i] = get_thread_id()\n"
                          "    return out.max() * 1000 + get_num_threads()\n";

typedef struct fixture {
    kjit_ctx *ctx;
    kjit_module *m;
} fixture;

static int setup(void **state)
{
    setenv("KJIT_NUM_THREADS", "4", 1);
    fixture *f = calloc(1, sizeof *f);
    kjit_error err;
    kjit_options opt;
    kjit_options_init(&opt);
    opt.target = KJIT_TARGET_PARALLEL; /* most_id's loop on the context's pool */
    f->ctx = kjit_ctx_new(&opt, &err);
    if (!f->ctx) return -1;
    f->m = kjit_compile(f->ctx, src, strlen(src), "threads.k", &err);
    if (!f->m) return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    kjit_module_free(f->m);
    kjit_ctx_free(f->ctx);
    free(f);
    return 0;
}

static int64_t call(fixture *f, const char *fn, const kjit_value *args, int n)
{
    kjit_value r;
    kjit_error err;
    kjit_fn *g = kjit_module_get(f->m, fn);
    assert_non_null(g);
    assert_int_equal(kjit_call(g, args, n, &r, &err), KJIT_OK);
    return r.v.i;
}

static void test_config(void **state)
{
    fixture *f = *state;
    assert_int_equal(kjit_ctx_threads_get(f->ctx, KJIT_THREADS_MAX), 4);
    assert_true(kjit_ctx_threads_get(NULL, KJIT_THREADS_CPUS) >= 1);
    assert_int_equal(kjit_ctx_threads_get(f->ctx, KJIT_THREADS_NUM), 4);
    assert_int_equal(kjit_ctx_threads_get(f->ctx, KJIT_THREADS_CHUNKSIZE), 0);
    assert_int_equal(kjit_ctx_threads_get(NULL, KJIT_THREADS_NUM), -1);
    assert_int_equal(kjit_ctx_threads_get(f->ctx, (kjit_threads_setting)9), -1);
}

static void test_chunksize_both_ways(void **state)
{
    fixture *f = *state;
    kjit_error err;
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_CHUNKSIZE, 5, &err), KJIT_OK);
    assert_int_equal(call(f, "chunk", NULL, 0), 5);
    kjit_value a = kjit_value_int(9);
    assert_int_equal(call(f, "setchunk", &a, 1), 5); /* the previous size */
    assert_int_equal(kjit_ctx_threads_get(f->ctx, KJIT_THREADS_CHUNKSIZE), 9);
    assert_int_equal(call(f, "chunk", NULL, 0), 9);
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_CHUNKSIZE, -1, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "chunksize must be greater than or equal to zero");
    assert_int_equal(kjit_ctx_threads_get(f->ctx, KJIT_THREADS_CHUNKSIZE), 9);
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_CHUNKSIZE, 0, &err), KJIT_OK);
}

static void test_num_threads(void **state)
{
    fixture *f = *state;
    kjit_error err;
    kjit_value a = kjit_value_int(1000);
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_NUM, 1, &err), KJIT_OK);
    assert_int_equal(call(f, "most_id", &a, 1), 1); /* one thread: every id 0 */
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_NUM, 2, &err), KJIT_OK);
    int64_t r = call(f, "most_id", &a, 1);
    assert_int_equal(r % 1000, 2);
    assert_true(r / 1000 <= 1);
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_NUM, 0, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "The number of threads must be between 1 and 4");
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_NUM, 5, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_ctx_threads_set(f->ctx, KJIT_THREADS_MAX, 2, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_ctx_threads_set(NULL, KJIT_THREADS_NUM, 2, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_ctx_threads_get(f->ctx, KJIT_THREADS_NUM), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_chunksize_both_ways),
        cmocka_unit_test(test_num_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
