/* SPDX-License-Identifier: BSD-2-Clause */
/* KJIT_VALUE_DICT and KJIT_VALUE_GENERATOR (src/api/values_dict.c,
 * values_gen.c): a typed.Dict returned (entries in insertion order, strings
 * and arrays owned by the result), passed (the code's changes in `after`),
 * and refused when its entries do not fit its types; a generator returned
 * by kjit_call and advanced with kjit_generator_next to its end, one whose
 * body raises, one over an argument array that the caller frees before
 * iterating, and one released before its end. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "api_fixture.h"

#include <string.h>

static const char src[] = "import numpy as np\n"
                          "from numba import njit\n"
                          "\n"
                          "@njit\n"
                          "def squares(n):\n"
                          "    d = {}\n"
                          "    for i in range(n):\n"
                          "        d[i] = i * 0.5\n"
                          "    return d\n"
                          "\n"
                          "@njit\n"
                          "def names():\n"
                          "    d = {'a': 'x' + str(1)}\n"
                          "    d['b' + 'c'] = 'y'\n"
                          "    return d\n"
                          "\n"
                          "@njit\n"
                          "def rows():\n"
                          "    d = {}\n"
                          "    d[1] = np.arange(3) * 2.0\n"
                          "    return d\n"
                          "\n"
                          "@njit\n"
                          "def edit(d, k):\n"
                          "    s = d[k]\n"
                          "    d[k] = s * 10.0\n"
                          "    d.pop(0)\n"
                          "    d[99] = -1.0\n"
                          "    return s, len(d)\n"
                          "\n"
                          "@njit\n"
                          "def count(n):\n"
                          "    for i in range(n):\n"
                          "        yield i * i\n"
                          "\n"
                          "@njit\n"
                          "def words(n):\n"
                          "    for i in range(n):\n"
                          "        yield 'w' + str(i)\n"
                          "\n"
                          "@njit\n"
                          "def scaled(a, f):\n"
                          "    for x in a:\n"
                          "        yield x * f\n"
                          "\n"
                          "@njit\n"
                          "def pair(n):\n"
                          "    return count(n), n\n"
                          "\n"
                          "@njit\n"
                          "def tally(ws, d):\n"
                          "    c = {}\n"
                          "    for w in ws:\n"
                          "        c[w] = len(w) + len(c)\n"
                          "        d[len(w)] = 1.0\n"
                          "    ws.append('end')\n"
                          "    return c\n"
                          "\n"
                          "@njit\n"
                          "def bad(n):\n"
                          "    yield 1\n"
                          "    if n > 0:\n"
                          "        raise ValueError('bad n')\n"
                          "    yield 2\n";

static kjit_module *compile(kjit_ctx **ctx) { return api_compile_cpu(ctx, src, "dictgen.py"); }

static void test_dict_results(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r, a = kjit_value_int(4);
    assert_int_equal(kjit_call(kjit_module_get(m, "squares"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_DICT);
    kjit_dict *d = r.v.d;
    assert_int_equal(d->n, 4);
    assert_int_equal(d->key_type.kind, KJIT_VALUE_INT);
    assert_int_equal(d->key_type.dtype, KJIT_INT64);
    assert_int_equal(d->value_type.kind, KJIT_VALUE_FLOAT);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(d->keys[i].v.i, i);
        assert_true(d->values[i].v.f == i * 0.5);
    }
    kjit_value_release(&r);

    assert_int_equal(kjit_call(kjit_module_get(m, "names"), NULL, 0, &r, &err), KJIT_OK);
    assert_int_equal(r.v.d->n, 2);
    assert_int_equal(r.v.d->key_type.kind, KJIT_VALUE_STR);
    assert_string_equal(r.v.d->keys[1].v.s, "bc"); /* made at run time: a copy, intact after the run */
    assert_string_equal(r.v.d->values[0].v.s, "x1");
    kjit_value_release(&r);

    assert_int_equal(kjit_call(kjit_module_get(m, "rows"), NULL, 0, &r, &err), KJIT_OK);
    assert_int_equal(r.v.d->value_type.kind, KJIT_VALUE_ARRAY);
    assert_int_equal(r.v.d->value_type.v.i, 1);
    kjit_array *arr = r.v.d->values[0].v.a;
    assert_int_equal(kjit_array_shape(arr)[0], 3);
    assert_true(((const double *)kjit_array_data(arr))[2] == 4.0); /* the array outlives the run */
    kjit_value_release(&r);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_dict_args(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value keys[3] = {kjit_value_int(0), kjit_value_int(5), kjit_value_int(7)};
    kjit_value vals[3] = {kjit_value_float(1.5), kjit_value_float(2.5), kjit_value_float(3.5)};
    kjit_dict d = {3, keys, vals, kjit_value_int(0), kjit_value_float(0), NULL};
    kjit_value args[2] = {kjit_value_dict(&d), kjit_value_int(5)}, r;
    assert_int_equal(kjit_call(kjit_module_get(m, "edit"), args, 2, &r, &err), KJIT_OK);
    assert_true(r.v.t->items[0].v.f == 2.5);
    assert_int_equal(r.v.t->items[1].v.i, 3);
    kjit_value_release(&r);
    assert_non_null(d.after); /* 5: 25.0, 7: 3.5, 99: -1.0 (0 popped) */
    assert_int_equal(d.after->n, 3);
    assert_int_equal(d.after->keys[0].v.i, 5);
    assert_true(d.after->values[0].v.f == 25.0);
    assert_int_equal(d.after->keys[2].v.i, 99);
    kjit_dict_free(d.after);
    d.after = NULL;
    assert_int_equal(d.n, 3); /* the caller's entries are left as they were */

    args[1] = kjit_value_int(6); /* a missing key: KeyError with the key, no `after` */
    assert_int_equal(kjit_call(kjit_module_get(m, "edit"), args, 2, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "KeyError: 6");
    assert_null(d.after);

    vals[1] = kjit_value_str("no"); /* an entry that does not fit the value type */
    assert_int_equal(kjit_call(kjit_module_get(m, "edit"), args, 2, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "entry 1 of the dict"));
    d.value_type.kind = (kjit_value_kind)99; /* not a type value */
    assert_int_equal(kjit_call(kjit_module_get(m, "edit"), args, 2, &r, &err), KJIT_ERR_USAGE);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* The values of generator g, to its end: their number. */
static int drain(kjit_value *g, int64_t *out, int cap)
{
    int n = 0;
    for (;;) {
        kjit_value v;
        bool done;
        kjit_error err;
        assert_int_equal(kjit_generator_next(g, &v, &done, &err), KJIT_OK);
        if (done) return n;
        assert_true(n < cap);
        out[n++] = v.kind == KJIT_VALUE_FLOAT ? (int64_t)v.v.f : v.v.i;
        kjit_value_release(&v);
    }
}

static void test_generators(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value g, a = kjit_value_int(5), v;
    bool done;
    assert_int_equal(kjit_call(kjit_module_get(m, "count"), &a, 1, &g, &err), KJIT_OK);
    assert_int_equal(g.kind, KJIT_VALUE_GENERATOR);
    int64_t got[8];
    assert_int_equal(drain(&g, got, 8), 5);
    assert_int_equal(got[4], 16);
    assert_int_equal(kjit_generator_next(&g, &v, &done, &err), KJIT_OK); /* stays done */
    assert_true(done);
    kjit_value_release(&g);

    assert_int_equal(kjit_call(kjit_module_get(m, "words"), &a, 1, &g, &err), KJIT_OK);
    assert_int_equal(kjit_generator_next(&g, &v, &done, &err), KJIT_OK);
    assert_string_equal(v.v.s, "w0");
    kjit_value_release(&v);
    assert_int_equal(kjit_generator_next(&g, &v, &done, &err), KJIT_OK);
    assert_false(done);
    assert_string_equal(v.v.s, "w1");
    kjit_value_release(&v);
    kjit_value_release(&g); /* before its end: its frame and run go */

    double xs[3] = {1, 2, 3};
    int64_t shape = 3;
    kjit_array *arr = kjit_array_wrap(ctx, xs, KJIT_FLOAT64, 1, &shape, NULL, &err);
    kjit_value args[2] = {kjit_value_array(arr), kjit_value_float(10)};
    assert_int_equal(kjit_call(kjit_module_get(m, "scaled"), args, 2, &g, &err), KJIT_OK);
    kjit_array_free(arr); /* the generator holds its own reference */
    assert_int_equal(drain(&g, got, 8), 3);
    assert_int_equal(got[2], 30);
    kjit_value_release(&g);

    assert_int_equal(kjit_call(kjit_module_get(m, "bad"), &a, 1, &g, &err), KJIT_OK);
    assert_int_equal(kjit_generator_next(&g, &v, &done, &err), KJIT_OK);
    assert_int_equal(v.v.i, 1);
    assert_int_equal(kjit_generator_next(&g, &v, &done, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "ValueError: bad n");
    assert_true(err.line > 0);
    assert_int_equal(kjit_generator_next(&g, &v, &done, &err), KJIT_OK); /* done after an exception */
    assert_true(done);
    kjit_value_release(&g);

    assert_int_equal(kjit_call(kjit_module_get(m, "count"), &a, 1, &g, &err), KJIT_OK);
    assert_int_equal(kjit_call(kjit_module_get(m, "count"), &g, 1, &v, &err), KJIT_ERR_USAGE); /* not an argument */
    assert_non_null(strstr(err.message, "a generator cannot be passed"));
    kjit_value_release(&g);
    assert_int_equal(kjit_generator_next(&a, &v, &done, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_call(kjit_module_get(m, "pair"), &a, 1, &v, &err), KJIT_ERR_USAGE); /* only whole */
    assert_non_null(strstr(err.message, "cannot return yet"));
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* A list argument and dicts in one call (values_list.c's trampoline builds the dict arguments, writes them
 * back and converts the dict result): the list reflected, the dict argument's `after`, a dict result. */
static void test_lists_and_dicts(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value words[3] = {kjit_value_str("to"), kjit_value_str("be"), kjit_value_str("to")};
    kjit_list ws = {3, words, false, 0};
    kjit_value keys[1] = {kjit_value_int(7)}, vals[1] = {kjit_value_float(0.5)};
    kjit_dict d = {1, keys, vals, kjit_value_int(0), kjit_value_float(0), NULL};
    kjit_value args[2] = {kjit_value_list(&ws), kjit_value_dict(&d)}, r;
    assert_int_equal(kjit_call(kjit_module_get(m, "tally"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_DICT);
    assert_int_equal(r.v.d->n, 2); /* to: 2 + 2, be: 2 + 1 */
    assert_string_equal(r.v.d->keys[0].v.s, "to");
    assert_int_equal(r.v.d->values[0].v.i, 4);
    assert_int_equal(r.v.d->values[1].v.i, 3);
    kjit_value_release(&r);
    assert_true(ws.owned && ws.n == 4);
    assert_string_equal(ws.items[3].v.s, "end");
    kjit_list_release(&ws);
    assert_non_null(d.after); /* 7: 0.5, 2: 1.0 */
    assert_int_equal(d.after->n, 2);
    assert_int_equal(d.after->keys[1].v.i, 2);
    kjit_dict_free(d.after);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dict_results),
        cmocka_unit_test(test_dict_args),
        cmocka_unit_test(test_lists_and_dicts),
        cmocka_unit_test(test_generators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
