/* SPDX-License-Identifier: BSD-2-Clause */
/* repr(complex) as CPython writes it (Objects/complexobject.c, complex_repr):
 * each part with repr's shortest digits but no ".0" added ("1", "2.5",
 * "1e+16"), the imaginary part always signed; a real part of +0.0 is left
 * out and so are the parentheses: 1j, (1+2j), (-0-1j), (nan+infj). A
 * complex64 part uses float32's shortest digits, as NumPy's str does. */
#include "format.h"

#include <math.h>
#include <string.h>

static void part(kj_buf *b, double x, bool is_f32)
{
    kj_buf t = {0};
    if (is_f32) kj_fmt_f32(&t, (float)x);
    else kj_fmt_f64(&t, x);
    size_t n = t.s ? strlen(t.s) : 0;
    if (n >= 2 && !strcmp(t.s + n - 2, ".0")) t.s[n - 2] = '\0';
    kj_buf_puts(b, t.s ? t.s : "");
    kj_buf_free(&t);
}

void kj_fmt_complex(kj_buf *b, double re, double im, bool is_f32)
{
    if (re == 0 && !signbit(re)) {
        part(b, im, is_f32);
        kj_buf_putc(b, 'j');
        return;
    }
    kj_buf_putc(b, '(');
    part(b, re, is_f32);
    kj_buf_putc(b, !isnan(im) && signbit(im) ? '-' : '+');
    part(b, fabs(im), is_f32);
    kj_buf_puts(b, "j)");
}
