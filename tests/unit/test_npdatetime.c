/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's datetime64 values (util/npdatetime.c): ISO 8601 parsing, the
 * calendar, unit conversion and printing. Every expected value was produced
 * once with NumPy 1.24: np.datetime64(s).astype('i8'), its dtype's unit,
 * str(), and .astype('M8[U]') / .astype('m8[U]') for conversions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/npdatetime.h"

static void check_parse(const char *s, int64_t want, int want_unit)
{
    int64_t v;
    int u;
    char err[256];
    assert_true(kj_npdt_parse(s, &v, &u, err, sizeof err));
    assert_int_equal(v, want);
    assert_int_equal(u, want_unit);
    kj_buf b = {0};
    kj_npdt_format(&b, v, u, true);
    if (strcmp(s, "2020-01-01T12:00:00.5") != 0 && s[0] != '-') assert_string_equal(b.s, s); /* round trip */
    kj_buf_free(&b);
}

static void test_parse_and_print(void **state)
{
    (void)state;
    check_parse("2000-02-29", 11016, KJ_DTU_D);
    check_parse("1900-03-01", -25508, KJ_DTU_D);
    check_parse("-0044-03-15", -735525, KJ_DTU_D);
    check_parse("0001-01-01", -719162, KJ_DTU_D);
    check_parse("2020-01-01T12:00:00.5", 1577880000500, KJ_DTU_ms);
    check_parse("1969-12-31T23:59:59.999", -1, KJ_DTU_ms);
    check_parse("2262-04-11T23:47:16.854775807", INT64_MAX, KJ_DTU_ns);
    check_parse("2021-07", 618, KJ_DTU_M);
    check_parse("1970-01-01T05", 5, KJ_DTU_h);
    kj_buf b = {0};
    kj_npdt_format(&b, 1577880000500, KJ_DTU_ms, true);
    assert_string_equal(b.s, "2020-01-01T12:00:00.500");
    kj_buf_free(&b);
    kj_npdt_format(&b, -735525, KJ_DTU_D, true); /* NumPy's str: a 3-digit year after the sign */
    assert_string_equal(b.s, "-044-03-15");
    kj_buf_free(&b);
    kj_npdt_format(&b, -3, KJ_DTU_D, false);
    kj_npdt_format(&b, KJ_NAT, KJ_DTU_s, true);
    assert_string_equal(b.s, "-3 daysNaT");
    kj_buf_free(&b);
}

static void test_bad_strings(void **state)
{
    (void)state;
    int64_t v;
    int u;
    char err[256];
    assert_false(kj_npdt_parse("2020-1-1", &v, &u, err, sizeof err));
    assert_string_equal(err, "Error parsing datetime string \"2020-1-1\" at position 5");
    assert_false(kj_npdt_parse("2019-02-29", &v, &u, err, sizeof err));
    assert_string_equal(err, "Day out of range in datetime string \"2019-02-29\"");
    assert_true(kj_npdt_parse("NaT", &v, &u, err, sizeof err));
    assert_true(v == KJ_NAT && u == KJ_DTU_GENERIC);
}

static void test_units(void **state)
{
    (void)state;
    assert_int_equal(kj_npdt_convert(18717, KJ_DTU_D, KJ_DTU_M, true), 614);  /* 2021-03-31 */
    assert_int_equal(kj_npdt_convert(-1, KJ_DTU_D, KJ_DTU_Y, true), -1);
    assert_int_equal(kj_npdt_convert(-1, KJ_DTU_h, KJ_DTU_D, false), -1);      /* floored */
    assert_int_equal(kj_npdt_convert(-1, KJ_DTU_M, KJ_DTU_D, true), -31);
    assert_int_equal(kj_npdt_convert(2, KJ_DTU_W, KJ_DTU_h, false), 336);
    assert_true(kj_npdt_convert(KJ_NAT, KJ_DTU_D, KJ_DTU_s, true) == KJ_NAT);
    assert_int_equal(kj_dtu_common(KJ_DTU_D, true, KJ_DTU_h, false), KJ_DTU_h);
    assert_int_equal(kj_dtu_common(KJ_DTU_Y, false, KJ_DTU_D, false), -1);     /* no common divisor */
    assert_int_equal(kj_dtu_common(KJ_DTU_M, true, KJ_DTU_D, false), KJ_DTU_D);
    assert_int_equal(kj_dtu_common(KJ_DTU_GENERIC, false, KJ_DTU_ms, false), KJ_DTU_ms);
    assert_int_equal(kj_dtu_parse("us", 2), KJ_DTU_us);
    assert_int_equal(kj_dtu_parse("B", 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_print),
        cmocka_unit_test(test_bad_strings),
        cmocka_unit_test(test_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
