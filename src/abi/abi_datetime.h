/* SPDX-License-Identifier: BSD-2-Clause */
/* What generated code and the runtime share for NumPy's datetime64 and
 * timedelta64 (src/ir/lower_datetime.c writes the codes, src/runtime/datetime.c
 * reads them): one operation per call, its operands' and result's units
 * packed with it in an int32 code. */
#ifndef KJ_ABI_DATETIME_H
#define KJ_ABI_DATETIME_H

typedef enum {
    KJ_DTOP_ADD,      /* a + b in the result's unit (NaT if either is NaT) */
    KJ_DTOP_SUB,      /* a - b: timedelta - timedelta, datetime - timedelta, datetime - datetime */
    KJ_DTOP_MUL,      /* timedelta * int64 */
    KJ_DTOP_DIV_INT,  /* timedelta / int64 and timedelta // int64: truncated, NaT for 0 (NumPy) */
    KJ_DTOP_FLOORDIV, /* timedelta // timedelta: an int64, floored; 0 for a 0 divisor or NaT */
    KJ_DTOP_MOD,      /* timedelta % timedelta: floored remainder, NaT for a 0 divisor */
    KJ_DTOP_NEG,
    KJ_DTOP_ABS,
    KJ_DTOP_SIGN,     /* np.sign of a timedelta: -1, 0, 1 in its unit */
    KJ_DTOP_EQ,       /* comparisons: 0 or 1; false with a NaT, except != */
    KJ_DTOP_NE,
    KJ_DTOP_LT,
    KJ_DTOP_LE,
    KJ_DTOP_GT,
    KJ_DTOP_GE,
    KJ_DTOP_CONVERT,  /* a from its unit to the result's */
    KJ_DTOP_MAXIMUM,  /* np.maximum / np.minimum: NaT if either is NaT */
    KJ_DTOP_MINIMUM,
    KJ_DTOP_FMAX,     /* np.fmax / np.fmin: NaT only if both are */
    KJ_DTOP_FMIN,
    KJ_DTOP_ISNAT,    /* 0 or 1 */
    KJ_DTOP_MULF,     /* timedelta * float64 (kj_rt_dt_mulf): NaT for nan or inf */
    KJ_DTOP_DIVF,     /* timedelta / float64, timedelta // float64 (kj_rt_dt_mulf) */
    KJ_DTOP_RATIO,    /* timedelta / timedelta: a float64 (kj_rt_dt_ratio), nan with a NaT */
} kj_dtop;

/* The code of an operation: op | flags | units (KJ_DTU_*, util/npdatetime.h). A flag says an
 * operand is a datetime64 (its Y/M values convert through the calendar). */
enum { KJ_DTC_A_DT = 1 << 6, KJ_DTC_B_DT = 1 << 7 };
/* Printing: the unit, | KJ_DTP_DATETIME for a datetime64. */
enum { KJ_DTP_DATETIME = 1 << 8 };
static inline int kj_dtc_make(int op, int ua, int ub, int ur, int flags)
{
    return op | flags | ua << 8 | ub << 16 | ur << 24;
}
static inline int kj_dtc_op(int c) { return c & 63; }
static inline int kj_dtc_ua(int c) { return (c >> 8) & 0xff; }
static inline int kj_dtc_ub(int c) { return (c >> 16) & 0xff; }
static inline int kj_dtc_ur(int c) { return (c >> 24) & 0xff; }

#endif
