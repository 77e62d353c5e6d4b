/* SPDX-License-Identifier: BSD-2-Clause */
/* Records across the C API (src/api/values_record.c): arrays of dtype
 * KJIT_RECORD over the caller's memory (packed and aligned layouts, C and
 * strided), their public rank, shape and size; KJIT_VALUE_RECORD arguments
 * passed by reference (field writes reach the caller's bytes, as Numba's);
 * record results as copies; bad layouts refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "api_fixture.h"

#include <string.h>

static const char src[] = "from numba import njit\n"
                          "\n"
                          "@njit\n"
                          "def bump(r, k):\n"
                          "    r.x = r.x + k\n"
                          "    r['y'] += 1\n"
                          "    return r.x\n"
                          "\n"
                          "@njit\n"
                          "def fill(a):\n"
                          "    for i in range(a.shape[0]):\n"
                          "        a[i].x = i * 1.5\n"
                          "        a[i]['y'] = i - 2\n"
                          "    return a[1]\n"
                          "\n"
                          "@njit\n"
                          "def tail(a):\n"
                          "    return a[1:]\n"
                          "\n"
                          "@njit\n"
                          "def total(a):\n"
                          "    s = 0.0\n"
                          "    for i in range(len(a)):\n"
                          "        s += a[i].x * a[i].y\n"
                          "    return s\n";

static const char *const names[] = {"x", "y"};
static const kjit_dtype dtypes[] = {KJIT_FLOAT64, KJIT_INT32};
static const int64_t offsets[] = {0, 8};

static kjit_module *compile(kjit_ctx **ctx) { return api_compile_cpu(ctx, src, "rec.py"); }

static double field_x(const char *item)
{
    double x;
    memcpy(&x, item, sizeof x);
    return x;
}

static int32_t field_y(const char *item)
{
    int32_t y;
    memcpy(&y, item + 8, sizeof y);
    return y;
}

/* fill then total over 4 records of `itemsize` bytes (12 packed as NumPy's [('x','f8'),('y','i4')], 16 with
 * align=True), every `step`-th record of the caller's buffer */
static void fill_and_total(kjit_module *m, int64_t itemsize, bool aligned, int64_t step)
{
    kjit_record_desc d = {2, names, offsets, dtypes, itemsize, aligned};
    _Alignas(16) char mem[8 * 16] = {0};
    int64_t shape[1] = {4}, strides[1] = {itemsize * step};
    kjit_error err;
    kjit_array *a = kjit_array_wrap_record(NULL, mem, &d, 1, shape, strides, &err);
    assert_non_null(a);
    assert_int_equal(kjit_array_ndim(a), 1);
    assert_int_equal(kjit_array_shape(a)[0], 4);
    assert_int_equal(kjit_array_strides(a)[0], itemsize * step);
    assert_int_equal(kjit_array_size(a), 4);
    assert_int_equal(kjit_array_dtype(a), KJIT_RECORD);
    const kjit_record_desc *got = kjit_array_record(a);
    assert_non_null(got);
    assert_int_equal(got->itemsize, itemsize);
    assert_string_equal(got->names[1], "y");
    kjit_value v = kjit_value_array(a), r;
    assert_int_equal(kjit_call(kjit_module_get(m, "fill"), &v, 1, &r, &err), KJIT_OK);
    /* the returned record: a copy of a[1], with its layout */
    assert_int_equal(r.kind, KJIT_VALUE_RECORD);
    assert_int_equal(r.v.rec->desc->itemsize, itemsize);
    assert_true(r.v.rec->desc->aligned == aligned);
    assert_true(field_x(r.v.rec->data) == 1.5 && field_y(r.v.rec->data) == -1);
    kjit_value_release(&r);
    /* writes reached the caller's memory, at its strides */
    for (int i = 0; i < 4; i++) {
        assert_true(field_x(mem + i * itemsize * step) == i * 1.5);
        assert_int_equal(field_y(mem + i * itemsize * step), i - 2);
    }
    assert_int_equal(kjit_call(kjit_module_get(m, "total"), &v, 1, &r, &err), KJIT_OK);
    assert_true(r.v.f == 0 * -2 + 1.5 * -1 + 3.0 * 0 + 4.5 * 1);
    /* an array of records returned: a view of the caller's memory with its layout */
    assert_int_equal(kjit_call(kjit_module_get(m, "tail"), &v, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_ARRAY);
    assert_int_equal(kjit_array_dtype(r.v.a), KJIT_RECORD);
    assert_int_equal(kjit_array_ndim(r.v.a), 1);
    assert_int_equal(kjit_array_shape(r.v.a)[0], 3);
    assert_int_equal(kjit_array_strides(r.v.a)[0], itemsize * step);
    assert_ptr_equal(kjit_array_data(r.v.a), mem + itemsize * step);
    assert_int_equal(kjit_array_record(r.v.a)->itemsize, itemsize);
    kjit_value_release(&r);
    kjit_array_free(a);
}

static void test_record_arrays(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    fill_and_total(m, 12, false, 1);
    fill_and_total(m, 16, true, 1);
    fill_and_total(m, 12, false, 2);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* a prepared call takes another array of the same layout, not one of another */
static void test_record_prepared(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_record_desc d = {2, names, offsets, dtypes, 12, false}, d16 = {2, names, offsets, dtypes, 16, true};
    _Alignas(16) char m1[48] = {0}, m2[48] = {0};
    int64_t shape[1] = {4};
    kjit_error err;
    kjit_array *a1 = kjit_array_wrap_record(NULL, m1, &d, 1, shape, NULL, &err);
    kjit_array *a2 = kjit_array_wrap_record(NULL, m2, &d, 1, shape, NULL, &err);
    kjit_array *a3 = kjit_array_wrap_record(NULL, m2, &d16, 1, (int64_t[]){3}, NULL, &err);
    kjit_value v = kjit_value_array(a1), r;
    kjit_call_plan *p = kjit_call_prepare(kjit_module_get(m, "fill"), &v, 1, &err);
    assert_non_null(p);
    v = kjit_value_array(a2);
    assert_int_equal(kjit_call_prepared(p, &v, &r, &err), KJIT_OK);
    kjit_value_release(&r);
    assert_true(field_x(m2 + 3 * 12) == 4.5 && field_x(m1 + 3 * 12) == 0.0);
    v = kjit_value_array(a3);
    assert_int_equal(kjit_call_prepared(p, &v, &r, &err), KJIT_ERR_USAGE);
    kjit_call_plan_free(p);
    kjit_array_free(a1);
    kjit_array_free(a2);
    kjit_array_free(a3);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_record_by_reference(void **state)
{
    (void)state;
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_record_desc d = {2, names, offsets, dtypes, 12, false};
    char item[12] = {0};
    double x = 2.0;
    memcpy(item, &x, sizeof x);
    kjit_record rec = {&d, item};
    kjit_value args[2] = {kjit_value_record(&rec), kjit_value_float(0.25)}, r;
    kjit_error err;
    assert_int_equal(kjit_call(kjit_module_get(m, "bump"), args, 2, &r, &err), KJIT_OK);
    assert_true(r.v.f == 2.25);
    assert_true(field_x(item) == 2.25 && field_y(item) == 1);
    char buf[32];
    assert_string_equal(kjit_value_type_name(&args[0], buf, sizeof buf), "record");
    /* a new zero-filled array of records */
    int64_t shape[2] = {2, 3};
    kjit_array *a = kjit_array_new_record(NULL, &d, 2, shape, &err);
    assert_non_null(a);
    assert_int_equal(kjit_array_ndim(a), 2);
    assert_int_equal(kjit_array_size(a), 6);
    assert_int_equal(kjit_array_strides(a)[0], 36);
    assert_int_equal(kjit_array_strides(a)[1], 12);
    kjit_array_free(a);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_record_bad_layouts(void **state)
{
    (void)state;
    kjit_error err;
    char mem[64] = {0};
    int64_t shape[1] = {2};
    const int64_t overlap[] = {0, 4};
    kjit_record_desc d = {2, names, overlap, dtypes, 12, false};
    assert_null(kjit_array_wrap_record(NULL, mem, &d, 1, shape, NULL, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "overlap"));
    kjit_record_desc small = {2, names, offsets, dtypes, 10, false}; /* y ends past the item */
    assert_null(kjit_array_wrap_record(NULL, mem, &small, 1, shape, NULL, &err));
    assert_non_null(strstr(err.message, "outside"));
    assert_null(kjit_array_wrap_record(NULL, mem, NULL, 1, shape, NULL, &err));
    kjit_ctx *ctx;
    kjit_module *m = compile(&ctx);
    kjit_record rec = {&small, mem};
    kjit_value args[2] = {kjit_value_record(&rec), kjit_value_float(1.0)}, r;
    assert_int_equal(kjit_call(kjit_module_get(m, "bump"), args, 2, &r, &err), KJIT_ERR_USAGE);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_arrays),
        cmocka_unit_test(test_record_prepared),
        cmocka_unit_test(test_record_by_reference),
        cmocka_unit_test(test_record_bad_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
