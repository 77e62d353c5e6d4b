/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's datetime64 and timedelta64 in generated code: one arithmetic
 * operation per call (the operation and the units in a code, abi_datetime.h),
 * with NumPy's NaT rules and unit conversions (util/npdatetime.c), and
 * printing as NumPy prints the scalars and arrays. */
#include "rt_host.h"

#include "../abi/abi_datetime.h"
#include "../util/npdatetime.h"
#include "format.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static int64_t compare(int op, int64_t a, int64_t b)
{
    if (a == KJ_NAT || b == KJ_NAT) return op == KJ_DTOP_NE;
    switch (op) {
    case KJ_DTOP_EQ: return a == b;
    case KJ_DTOP_NE: return a != b;
    case KJ_DTOP_LT: return a < b;
    case KJ_DTOP_LE: return a <= b;
    case KJ_DTOP_GT: return a > b;
    default: return a >= b;
    }
}

/* The two-operand operations on values already in the result's unit. */
static int64_t binary(int op, int64_t a, int64_t b)
{
    switch (op) {
    case KJ_DTOP_ADD: return a == KJ_NAT || b == KJ_NAT ? KJ_NAT : wrap_add(a, b);
    case KJ_DTOP_SUB: return a == KJ_NAT || b == KJ_NAT ? KJ_NAT : wrap_sub(a, b);
    case KJ_DTOP_FLOORDIV: return a == KJ_NAT || b == KJ_NAT || b == 0 ? 0 : floordiv(a, b);
    case KJ_DTOP_MOD: return a == KJ_NAT || b == KJ_NAT || b == 0 ? KJ_NAT : a - floordiv(a, b) * b;
    case KJ_DTOP_MAXIMUM: return a == KJ_NAT || b == KJ_NAT ? KJ_NAT : a > b ? a : b;
    case KJ_DTOP_MINIMUM: return a == KJ_NAT || b == KJ_NAT ? KJ_NAT : a < b ? a : b;
    case KJ_DTOP_FMAX: return a == KJ_NAT ? b : b == KJ_NAT ? a : a > b ? a : b;
    case KJ_DTOP_FMIN: return a == KJ_NAT ? b : b == KJ_NAT ? a : a < b ? a : b;
    default: return compare(op, a, b);
    }
}

int64_t kj_rt_dt_binop(int32_t code, int64_t a, int64_t b)
{
    int op = kj_dtc_op(code), ur = kj_dtc_ur(code);
    switch (op) {
    case KJ_DTOP_MUL: return a == KJ_NAT ? KJ_NAT : wrap_mul(a, b);
    case KJ_DTOP_DIV_INT: /* C's truncation, as NumPy's timedelta / int loop */
        return a == KJ_NAT || b == 0 ? KJ_NAT : b == -1 ? wrap_sub(0, a) : a / b;
    case KJ_DTOP_NEG: return a == KJ_NAT ? KJ_NAT : -a;
    case KJ_DTOP_ABS: return a == KJ_NAT ? KJ_NAT : a < 0 ? -a : a;
    case KJ_DTOP_SIGN: return a == KJ_NAT ? KJ_NAT : (a > 0) - (a < 0);
    case KJ_DTOP_ISNAT: return a == KJ_NAT;
    case KJ_DTOP_CONVERT: return kj_npdt_convert(a, kj_dtc_ua(code), ur, code & KJ_DTC_A_DT);
    default: break;
    }
    /* the comparisons and the binary operations run in the common unit */
    int uc = op >= KJ_DTOP_EQ && op <= KJ_DTOP_GE ? kj_dtu_common(kj_dtc_ua(code), code & KJ_DTC_A_DT,
                                                                  kj_dtc_ub(code), code & KJ_DTC_B_DT)
                                                  : ur;
    if (op == KJ_DTOP_FLOORDIV)
        uc = kj_dtu_common(kj_dtc_ua(code), false, kj_dtc_ub(code), false);
    a = kj_npdt_convert(a, kj_dtc_ua(code), uc, code & KJ_DTC_A_DT);
    b = kj_npdt_convert(b, kj_dtc_ub(code), uc, code & KJ_DTC_B_DT);
    return binary(op, a, b);
}

/* timedelta * float and timedelta / float (// too): the product or quotient as a double, truncated
 * to int64 as NumPy's loops cast it; NaT when it is nan or out of range. */
int64_t kj_rt_dt_mulf(int32_t code, int64_t a, double b)
{
    if (a == KJ_NAT) return KJ_NAT;
    double r = kj_dtc_op(code) == KJ_DTOP_MULF ? (double)a * b : (double)a / b;
    if (isnan(r) || r >= 9.2233720368547758e18 || r < -9.2233720368547758e18) return KJ_NAT;
    return (int64_t)r;
}

/* timedelta / timedelta in their common unit. */
double kj_rt_dt_ratio(int32_t code, int64_t a, int64_t b)
{
    int uc = kj_dtu_common(kj_dtc_ua(code), false, kj_dtc_ub(code), false);
    if (a == KJ_NAT || b == KJ_NAT) return NAN;
    a = kj_npdt_convert(a, kj_dtc_ua(code), uc, false);
    b = kj_npdt_convert(b, kj_dtc_ub(code), uc, false);
    return (double)a / (double)b;
}

/* ---- printing ---- */

static void put(kj_rt *rt, kj_buf *b)
{
    bool ok = !b->n || fwrite(b->s, 1, b->n, rt->out) == b->n;
    int errnum = errno;
    kj_buf_free(b);
    if (!ok) {
        char msg[200];
        snprintf(msg, sizeof msg, "cannot write the output: %s", strerror(errnum ? errnum : EIO));
        kj_rt_raise(rt, KJ_RT_OS, msg, 0, 0);
    }
}

/* repr(): numpy.datetime64('2020-01-01'), numpy.datetime64('1970-01-01T05','h'),
 * numpy.timedelta64(3,'h'), numpy.timedelta64('NaT'), numpy.timedelta64(7). */
void kj_fmt_dt_repr(kj_buf *b, int64_t v, int unit, bool is_datetime)
{
    if (is_datetime) {
        kj_buf_puts(b, "numpy.datetime64('");
        kj_npdt_format(b, v, unit, true);
        kj_buf_putc(b, '\'');
        if (unit == KJ_DTU_h && v != KJ_NAT) kj_buf_puts(b, ",'h'");
        kj_buf_putc(b, ')');
        return;
    }
    kj_buf_puts(b, "numpy.timedelta64(");
    if (v == KJ_NAT) kj_buf_puts(b, "'NaT'");
    else kj_buf_printf(b, "%" PRId64, v);
    if (unit != KJ_DTU_GENERIC) kj_buf_printf(b, ",'%s'", kj_dtu_name(unit));
    kj_buf_putc(b, ')');
}

void kj_rt_print_dt(kj_rt *rt, int64_t v, int32_t code, int32_t repr)
{
    kj_buf b = {0};
    int unit = code & 0xff;
    bool is_datetime = code & KJ_DTP_DATETIME;
    if (repr) kj_fmt_dt_repr(&b, v, unit, is_datetime);
    else kj_npdt_format(&b, v, unit, is_datetime);
    put(rt, &b);
}

/* An element of an array as NumPy's DatetimeFormat / TimedeltaFormat writes it: "'2020-01-01'", the
 * timedelta's integer, "'NaT'", right-aligned in `width` (0: unpadded, to measure). */
void kj_fmt_dt_elem(kj_buf *b, int64_t v, int code, int width)
{
    kj_buf s = {0};
    if (v == KJ_NAT) {
        kj_buf_puts(&s, "'NaT'");
    } else if (code & KJ_DTP_DATETIME) {
        kj_buf_putc(&s, '\'');
        kj_npdt_format(&s, v, code & 0xff, true);
        kj_buf_putc(&s, '\'');
    } else {
        kj_buf_printf(&s, "%" PRId64, v);
    }
    kj_buf_printf(b, "%*s", width, s.s);
    kj_buf_free(&s);
}

void kj_rt_print_dt_array(kj_rt *rt, const void *a, int32_t ndim, int32_t code, int32_t repr)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, KJ_DT_INT64);
    kj_buf b = {0};
    kj_fmt_dt_array(&b, &h, code, repr);
    put(rt, &b);
}
