/* SPDX-License-Identifier: BSD-2-Clause */
/* Printing values as Python and NumPy print them (print(x), print(a)).
 *
 * Floats go through Dragon4 (Steele & White / Burger & Dybvig, with
 * NumPy's cutoff and rounding rules), so every digit matches: Python's
 * repr(float), str(np.float32(x)), and NumPy's array printing with its
 * default options (precision 8, floatmode 'maxprec', threshold 1000,
 * edgeitems 3, linewidth 75). */
#ifndef KJ_FORMAT_H
#define KJ_FORMAT_H

#include "../util/buf.h"
#include "array.h"

#include <stdbool.h>
#include <stdint.h>

/* repr(x) / str(x) of a Python float: the shortest digits that round-trip;
 * positional when the decimal exponent is in [-4, 16) ("0.0001",
 * "123456789.0"), else scientific ("1e-05", "1e+16", "1.5e+300"); "inf",
 * "-inf", "nan", "-0.0". */
void kj_fmt_f64(kj_buf *b, double x);
/* str(np.float32(x)): the shortest digits that round-trip through float32;
 * positional when 1e-4 <= |x| < 1e16 or x == 0 ("0.1", "16777216.0"), else
 * scientific with at least two exponent digits ("1e-05"). */
void kj_fmt_f32(kj_buf *b, float x);
/* str(np.float16(x)): x holds a float16 value. */
void kj_fmt_f16(kj_buf *b, float x);
/* repr(complex(re, im)): "1j", "(1+2j)", "(-0-1j)" (format_complex.c);
 * is_f32: the parts are complex64's, with float32's shortest digits. */
void kj_fmt_complex(kj_buf *b, double re, double im, bool is_f32);
void kj_fmt_i64(kj_buf *b, int64_t x);
void kj_fmt_u64(kj_buf *b, uint64_t x);
void kj_fmt_bool(kj_buf *b, bool x); /* "True" / "False" */
/* repr(s) of a str, or ascii(s) (non-ASCII escaped) (str.c) */
void kj_fmt_str_repr(kj_buf *b, const char *s, bool ascii);
/* str() of a NumPy scalar of the scalar's dtype (float64 prints as Python). */
void kj_fmt_scalar(kj_buf *b, kj_scalar s);

/* str(a) (what print(a) shows) with NumPy's default print options: "[]"
 * when empty, the scalar's str for 0-d arrays. */
void kj_fmt_array(kj_buf *b, const kj_array *a);
/* repr(a): "array([1, 2])", "array([1., 2.], dtype=float32)", as NumPy
 * writes it with the default print options (print shows a tuple's items
 * this way). */
void kj_fmt_array_repr(kj_buf *b, const kj_array *a);

/* A structured dtype as printing needs it: each field's dtype and byte
 * offset, and NumPy's descr list ("[('x', '<f8'), ('y', '<i4')]") for repr. */
typedef struct kj_recfmt {
    int n;
    kj_dtype dt[64];
    int64_t off[64];
    const char *descr;
} kj_recfmt;
/* str(a) (repr(a) when `repr`) of an array of records, a's dtype ignored;
 * a 0-d `a` is one record: str(np.void), "(1.5, 2)" (format.c). */
void kj_fmt_records(kj_buf *b, const kj_array *a, const kj_recfmt *rf, bool repr);

/* datetime64 / timedelta64 (datetime.c): repr() of a scalar; an array element of print code `code`
 * (unit | KJ_DTP_DATETIME, abi_datetime.h) right-aligned in `width`; str(a) or repr(a) of an
 * int64 array `a` holding them (format.c, NumPy's DatetimeFormat / TimedeltaFormat). */
void kj_fmt_dt_repr(kj_buf *b, int64_t v, int unit, bool is_datetime);
void kj_fmt_dt_elem(kj_buf *b, int64_t v, int code, int width);
void kj_fmt_dt_array(kj_buf *b, const kj_array *a, int code, bool repr);
/* Dragon4 itself, for tests and other printers: the shortest digits of
 * |x| (as float32 when `is_f32`) that identify it, in `digits` (NUL-
 * terminated, at most 40), with *exp10 the decimal exponent of the first
 * digit. Returns the digit count. */
int kj_dragon4_shortest(double x, bool is_f32, char *digits, int *exp10);

#endif
