/* SPDX-License-Identifier: BSD-2-Clause */
/* Lists and sets through kjit_call (KJIT_VALUE_LIST, KJIT_VALUE_SET; src/api/values_list.c), as Numba's
 * reflected list and set: arguments of ints, floats, strings, tuples, arrays and lists; reflection of what
 * the call changed into the caller's kjit_list (also when the call raised), nothing for a list only read;
 * results (new lists, lists in tuples, nested lists, sets, run-made strings, an argument returned); the
 * errors for an empty list, mixed items and a kernel. Under ASan this checks the ownership rules too. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "api_fixture.h"

#include <string.h>

static const char src[] = "from numba import njit, cuda\n"
                          "\n"
                          "@njit\n"
                          "def total(xs):\n"
                          "    s = 0\n"
                          "    for x in xs:\n"
                          "        s += x\n"
                          "    return s\n"
                          "\n"
                          "@njit\n"
                          "def grow(xs, n):\n"
                          "    for i in range(n):\n"
                          "        xs.append(i * 10)\n"
                          "    xs.sort()\n"
                          "    return len(xs)\n"
                          "\n"
                          "@njit\n"
                          "def shout(ws):\n"
                          "    ws.append(ws[0].upper() + '!')\n"
                          "    return ws\n"
                          "\n"
                          "@njit\n"
                          "def squares(n):\n"
                          "    return [i * i for i in range(n)], [[i] * i for i in range(n)]\n"
                          "\n"
                          "@njit\n"
                          "def pop_then_fail(xs):\n"
                          "    xs.pop()\n"
                          "    return xs[10]\n"
                          "\n"
                          "@njit\n"
                          "def arrs(xs):\n"
                          "    xs.append(xs[0] * 2.0)\n"
                          "    return xs[-1].sum()\n"
                          "\n"
                          "@njit\n"
                          "def pairs(ps):\n"
                          "    ps.append((ps[0][0] + 1, 0.5))\n"
                          "    return len(ps)\n"
                          "\n"
                          "@njit\n"
                          "def add_to(s, x):\n"
                          "    s.add(x)\n"
                          "    return {x, x + 1}\n"
                          "\n"
                          "@cuda.jit\n"
                          "def k(xs):\n"
                          "    pass\n";

static kjit_module *compile(kjit_ctx **ctx) { return api_compile_cpu(ctx, src, "lists.py"); }

static void test_list_arguments(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r, items[3] = {kjit_value_int(1), kjit_value_int(2), kjit_value_int(3)};
    kjit_list l = {3, items, false, 0};
    kjit_value a = kjit_value_list(&l);
    assert_int_equal(kjit_call(kjit_module_get(m, "total"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 6);
    assert_true(l.items == items && l.n == 3 && !l.owned); /* only read: not reflected */
    /* reflection: append and sort, seen in the caller's struct; a second call replaces kjit's items */
    kjit_value args[2] = {a, kjit_value_int(2)};
    assert_int_equal(kjit_call(kjit_module_get(m, "grow"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 5);
    assert_true(l.owned && l.items != items && l.n == 5);
    int64_t want[] = {0, 1, 2, 3, 10};
    for (int i = 0; i < 5; i++) assert_int_equal(l.items[i].v.i, want[i]);
    assert_int_equal(items[2].v.i, 3); /* the caller's own items untouched */
    assert_int_equal(kjit_call(kjit_module_get(m, "grow"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(l.n, 7);
    assert_int_equal(l.items[6].v.i, 10);
    kjit_list_release(&l);
    assert_true(l.n == 0 && !l.items && !l.owned);
    /* an empty list typed by its example item (a typed.List's item type): grown, reflected */
    kjit_value example = kjit_value_int(0);
    kjit_list typed_empty = {0, &example, false, 0};
    kjit_value te[2] = {kjit_value_list(&typed_empty), kjit_value_int(3)};
    assert_int_equal(kjit_call(kjit_module_get(m, "grow"), te, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 3);
    assert_true(typed_empty.owned && typed_empty.n == 3 && typed_empty.items[2].v.i == 20);
    kjit_list_release(&typed_empty);
    /* errors: an empty list, mixed items, a kernel */
    kjit_list empty = {0, NULL, false, 0};
    kjit_value e = kjit_value_list(&empty);
    assert_int_equal(kjit_call(kjit_module_get(m, "total"), &e, 1, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "empty list"));
    kjit_value mixed[2] = {kjit_value_int(1), kjit_value_float(2.5)};
    kjit_list ml = {2, mixed, false, 0};
    kjit_value mv = kjit_value_list(&ml);
    assert_int_equal(kjit_call(kjit_module_get(m, "total"), &mv, 1, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "can't unbox heterogeneous list: int64 != float64"));
    assert_int_equal(kjit_launch(kjit_module_get(m, "k"), (kjit_dim3){1, 1, 1}, (kjit_dim3){1, 1, 1}, &a, 1, &err),
                     KJIT_ERR_USAGE);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_reflection_strings_arrays_tuples(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r, ws[2] = {kjit_value_str("ab"), kjit_value_str("c")};
    kjit_list wl = {2, ws, false, 0};
    kjit_value w = kjit_value_list(&wl);
    assert_int_equal(kjit_call(kjit_module_get(m, "shout"), &w, 1, &r, &err), KJIT_OK);
    /* a run-made string, copied out of the run, in the reflected list and in the result (the same list) */
    assert_true(wl.owned && wl.n == 3);
    assert_string_equal(wl.items[2].v.s, "AB!");
    assert_int_equal(r.kind, KJIT_VALUE_LIST);
    assert_int_equal(r.v.l->from_arg, 1);
    assert_string_equal(r.v.l->items[2].v.s, "AB!");
    kjit_value_release(&r);
    kjit_list_release(&wl);
    /* arrays: the list holds references; the reflected items are kjit_arrays to free (kjit_list_release) */
    double d0[2] = {1, 2};
    int64_t shape[1] = {2};
    kjit_array *x = kjit_array_wrap(ctx, d0, KJIT_FLOAT64, 1, shape, NULL, &err);
    kjit_value ai[1] = {kjit_value_array(x)};
    kjit_list al = {1, ai, false, 0};
    kjit_value av = kjit_value_list(&al);
    assert_int_equal(kjit_call(kjit_module_get(m, "arrs"), &av, 1, &r, &err), KJIT_OK);
    assert_true(r.v.f == 6.0);
    assert_true(al.owned && al.n == 2);
    assert_ptr_equal(al.items[0].v.a, x); /* the caller's array itself, one more reference */
    assert_true(((double *)kjit_array_data(al.items[1].v.a))[1] == 4.0);
    kjit_list_release(&al);
    kjit_array_free(x);
    /* tuples */
    kjit_value t0[2] = {kjit_value_int(4), kjit_value_float(1.5)};
    kjit_tuple tt = {2, t0};
    kjit_value pi[1] = {kjit_value_tuple(&tt)};
    kjit_list pl = {1, pi, false, 0};
    kjit_value pv = kjit_value_list(&pl);
    assert_int_equal(kjit_call(kjit_module_get(m, "pairs"), &pv, 1, &r, &err), KJIT_OK);
    assert_true(pl.owned && pl.n == 2 && pl.items[1].kind == KJIT_VALUE_TUPLE);
    assert_int_equal(pl.items[1].v.t->items[0].v.i, 5);
    kjit_list_release(&pl);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_reflection_when_raising(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r, items[2] = {kjit_value_int(1), kjit_value_int(2)};
    kjit_list l = {2, items, false, 0};
    kjit_value a = kjit_value_list(&l);
    assert_int_equal(kjit_call(kjit_module_get(m, "pop_then_fail"), &a, 1, &r, &err), KJIT_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "IndexError"));
    assert_true(l.owned && l.n == 1 && l.items[0].v.i == 1); /* reflected, as Numba does when the call raised */
    kjit_list_release(&l);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_list_and_set_results(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value r, n = kjit_value_int(4);
    assert_int_equal(kjit_call(kjit_module_get(m, "squares"), &n, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    const kjit_list *sq = r.v.t->items[0].v.l, *nest = r.v.t->items[1].v.l;
    assert_int_equal(sq->n, 4);
    assert_int_equal(sq->items[3].v.i, 9);
    assert_true(sq->owned && sq->from_arg == 0);
    assert_int_equal(nest->n, 4);
    assert_int_equal(nest->items[3].kind, KJIT_VALUE_LIST);
    assert_int_equal(nest->items[3].v.l->n, 3);
    assert_int_equal(nest->items[0].v.l->n, 0);
    kjit_value_release(&r);
    /* sets: an argument reflected (items in no particular order), a set result */
    kjit_value si[2] = {kjit_value_int(1), kjit_value_int(2)};
    kjit_list sl = {2, si, false, 0};
    kjit_value args[2] = {kjit_value_set(&sl), kjit_value_int(2)};
    assert_int_equal(kjit_call(kjit_module_get(m, "add_to"), args, 2, &r, &err), KJIT_OK);
    assert_false(sl.owned); /* 2 was there already: unchanged */
    assert_int_equal(r.kind, KJIT_VALUE_SET);
    assert_int_equal(r.v.l->n, 2);
    kjit_value_release(&r);
    args[1] = kjit_value_int(7);
    assert_int_equal(kjit_call(kjit_module_get(m, "add_to"), args, 2, &r, &err), KJIT_OK);
    assert_true(sl.owned && sl.n == 3);
    int64_t sum = 0;
    for (int i = 0; i < 3; i++) sum += sl.items[i].v.i;
    assert_int_equal(sum, 10);
    kjit_value_release(&r);
    kjit_list_release(&sl);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_arguments),
        cmocka_unit_test(test_reflection_strings_arrays_tuples),
        cmocka_unit_test(test_reflection_when_raising),
        cmocka_unit_test(test_list_and_set_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
