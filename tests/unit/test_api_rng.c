/* SPDX-License-Identifier: BSD-2-Clause */
/* KJIT_VALUE_RNG (src/api/values_rng.c): a NumPy Generator passed by
 * reference. Compiled code draws from the caller's kjit_rng exactly as
 * NumPy's PCG64 Generator does, and the state it leaves is the one NumPy
 * would (the expected numbers: default_rng(12345) in NumPy 1.24). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "api_fixture.h"

#include <stdlib.h>
#include <string.h>

static const char src[] = "from numba import njit\n"
                          "\n"
                          "@njit\n"
                          "def two(rng):\n"
                          "    return rng.random(), rng.random()\n"
                          "\n"
                          "@njit\n"
                          "def pick(rng, hi):\n"
                          "    return rng.integers(0, hi)\n";

/* np.random.default_rng(12345).bit_generator.state */
static kjit_rng seeded(void)
{
    kjit_rng g = {0};
    g.state_hi = 0x1905e0335aae9634ULL, g.state_lo = 0x9199b0d09775add5ULL;
    g.inc_hi = 0xc9c7353e6e2b1f28ULL, g.inc_lo = 0x7d761f2d4027fae7ULL;
    return g;
}

static kjit_module *compile(kjit_ctx **ctx) { return api_compile_cpu(ctx, src, "rng.py"); }

static void test_rng_stream_continues(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_rng g = seeded();
    kjit_value a = kjit_value_rng(&g), r;
    assert_int_equal(kjit_call(kjit_module_get(m, "two"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    assert_true(r.v.t->items[0].v.f == 0.22733602246716966);
    assert_true(r.v.t->items[1].v.f == 0.31675833970975287);
    kjit_value_release(&r);
    /* the caller's state advanced in place: NumPy's after two draws */
    assert_true(g.state_hi == 0x4afb265a89817b2bULL && g.state_lo == 0x06ac01c99af83f77ULL);
    /* a bounded draw under 2**32 takes half of a 64-bit draw and buffers the other half, as NumPy */
    kjit_value args[2] = {kjit_value_rng(&g), kjit_value_int(1000)};
    assert_int_equal(kjit_call(kjit_module_get(m, "pick"), args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 204);
    assert_true(g.state_hi == 0x5c9c545fe1077fe8ULL && g.state_lo == 0x1d8676280de16ffaULL);
    assert_true(g.has_uint32 && g.uinteger == 3424658562u);
    char buf[64];
    assert_string_equal(kjit_value_type_name(&a, buf, sizeof buf), "NumPyRandomGeneratorType");
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* a prepared call takes another Generator of the same type, and advances that one */
static void test_rng_prepared(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_rng g1 = seeded(), g2 = seeded();
    kjit_value a = kjit_value_rng(&g1), r;
    kjit_call_plan *p = kjit_call_prepare(kjit_module_get(m, "two"), &a, 1, &err);
    assert_non_null(p);
    a = kjit_value_rng(&g2);
    assert_int_equal(kjit_call_prepared(p, &a, &r, &err), KJIT_OK);
    assert_true(r.v.t->items[0].v.f == 0.22733602246716966);
    kjit_value_release(&r);
    assert_true(g2.state_hi == 0x4afb265a89817b2bULL && g1.state_hi == 0x1905e0335aae9634ULL);
    kjit_value i = kjit_value_int(3); /* not a Generator: refused, as any other type */
    assert_int_equal(kjit_call_prepared(p, &i, &r, &err), KJIT_ERR_USAGE);
    kjit_call_plan_free(p);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_rng_bad_input(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_error err;
    kjit_value a = kjit_value_rng(NULL), r;
    assert_int_equal(kjit_call(kjit_module_get(m, "two"), &a, 1, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "NULL"));
    char *mem = aligned_alloc(16, 2 * sizeof(kjit_rng));
    assert_non_null(mem);
    a = kjit_value_rng((kjit_rng *)(void *)(mem + 8)); /* misaligned */
    assert_int_equal(kjit_call(kjit_module_get(m, "two"), &a, 1, &r, &err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "aligned"));
    free(mem);
    /* a Generator where the code wants an int: a typing error, no crash */
    kjit_rng g = seeded();
    kjit_value args[2] = {kjit_value_rng(&g), kjit_value_rng(&g)};
    assert_int_not_equal(kjit_call(kjit_module_get(m, "pick"), args, 2, &r, &err), KJIT_OK);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_stream_continues),
        cmocka_unit_test(test_rng_prepared),
        cmocka_unit_test(test_rng_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
