/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit_tuple_name (src/api/values_namedtuple.c): a tuple result of a
 * collections.namedtuple class names its class, nested ones too; a plain
 * tuple result names none; the tuples are released as before. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include <string.h>

static const char src[] = "from collections import namedtuple\n"
                          "from numba import njit\n"
                          "\n"
                          "Point = namedtuple('Point', ['x', 'y'])\n"
                          "Seg = namedtuple('Seg', 'a b')\n"
                          "\n"
                          "@njit\n"
                          "def seg(n):\n"
                          "    return Seg(Point(n, 2 * n), Point(0.5, n)), (n, n)\n";

static void test_namedtuple_results(void **state)
{
    (void)state;
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    assert_non_null(ctx);
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "nt.py", &err);
    assert_non_null(m);
    kjit_value r, a = kjit_value_int(3);
    assert_int_equal(kjit_call(kjit_module_get(m, "seg"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    assert_null(kjit_tuple_name(r.v.t)); /* the outer tuple is a plain one */
    const kjit_tuple *s = r.v.t->items[0].v.t, *plain = r.v.t->items[1].v.t;
    assert_string_equal(kjit_tuple_name(s), "Seg");
    assert_null(kjit_tuple_name(plain));
    assert_int_equal(s->n, 2);
    const kjit_tuple *p = s->items[0].v.t, *q = s->items[1].v.t;
    assert_string_equal(kjit_tuple_name(p), "Point");
    assert_string_equal(kjit_tuple_name(q), "Point");
    assert_int_equal(p->items[1].v.i, 6);
    assert_true(q->items[0].kind == KJIT_VALUE_FLOAT && q->items[0].v.f == 0.5);
    kjit_value_release(&r);
    assert_null(kjit_tuple_name(NULL));
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_namedtuple_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
