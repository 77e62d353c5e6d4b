/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's datetime64 / timedelta64 values, shared by the compiler (constants,
 * unit rules: src/ir/infer_datetime.c) and the runtime (arithmetic, printing:
 * src/runtime/datetime.c). A value is an int64 count of its unit since
 * 1970-01-01 (datetime64) or a duration (timedelta64); INT64_MIN is NaT.
 * Units are numbered as NumPy's NPY_DATETIMEUNIT (3, the business day, is
 * not a unit NumPy still accepts). */
#ifndef KJ_NPDATETIME_H
#define KJ_NPDATETIME_H

#include "buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    KJ_DTU_Y = 0, KJ_DTU_M = 1, KJ_DTU_W = 2, KJ_DTU_D = 4, KJ_DTU_h = 5, KJ_DTU_m = 6, KJ_DTU_s = 7,
    KJ_DTU_ms = 8, KJ_DTU_us = 9, KJ_DTU_ns = 10, KJ_DTU_ps = 11, KJ_DTU_fs = 12, KJ_DTU_as = 13,
    KJ_DTU_GENERIC = 14, /* np.timedelta64(7), np.datetime64('NaT'): no unit yet */
    KJ_DTU_COUNT = 15
};

#define KJ_NAT INT64_MIN

/* "D", "h", "us", ...; "" for the generic unit. */
const char *kj_dtu_name(int unit);
/* The unit a name spells ("D", "ms", ...), or -1. */
int kj_dtu_parse(const char *s, size_t n);
/* Y and M: years and months are no fixed number of days. */
static inline bool kj_dtu_nonlinear(int unit) { return unit == KJ_DTU_Y || unit == KJ_DTU_M; }

/* NumPy's common unit of two operands (the finer one; generic takes the other's), or -1 when a
 * timedelta in Y or M meets one in a linear unit (NumPy's "incompatible nonlinear base time units").
 * `dt_a`/`dt_b`: the operand is a datetime64 (whose Y/M values convert to days on the calendar). */
int kj_dtu_common(int ua, bool dt_a, int ub, bool dt_b);

/* A value of unit `from` in unit `to` (NaT stays NaT): finer by multiplying, coarser by flooring;
 * datetimes in Y or M through the calendar. */
int64_t kj_npdt_convert(int64_t v, int from, int to, bool is_datetime);

/* Parse NumPy's ISO 8601 forms "YYYY", "YYYY-MM", "YYYY-MM-DD", "...Thh", "...Thh:mm",
 * "...Thh:mm:ss", "...Thh:mm:ss.fff..." (an optional trailing 'Z'), "NaT": its value in the unit
 * the text has (*unit). False with a message in err (NumPy's) when it is no date. */
bool kj_npdt_parse(const char *s, int64_t *v, int *unit, char *err, size_t errlen);

/* str() of a datetime64 / timedelta64 value: "2020-01-01T12:00", "NaT", "3 days". */
void kj_npdt_format(kj_buf *b, int64_t v, int unit, bool is_datetime);

#endif
