/* SPDX-License-Identifier: BSD-2-Clause */
/* chr, ord and repr of a string (issue 24; Numba's pysupported.rst,
 * "Built-in functions"): strings are NUL-terminated UTF-8 (str.c), owned by
 * the run. */
#include "rt.h"

#include "format.h"
#include "str.h"

#include <stdio.h>
#include <string.h>

/* chr(i): the code point as UTF-8; ValueError outside range(0x110000), as
 * CPython. A surrogate (which UTF-8 cannot hold) is refused with
 * UnicodeError, kjit's strings being UTF-8. */
void *kj_rt_str_chr(kj_rt *rt, int64_t i, int32_t line, int32_t col)
{
    if (i < 0 || i >= 0x110000) kj_rt_raise(rt, KJ_RT_VALUE, "chr() arg not in range(0x110000)", line, col);
    if (i >= 0xd800 && i < 0xe000)
        kj_rt_raise(rt, KJ_RT_UNICODE, "chr() of a surrogate code point: kjit's strings are UTF-8", line, col);
    unsigned char u[4];
    size_t n;
    uint32_t c = (uint32_t)i;
    if (c < 0x80) {
        u[0] = (unsigned char)c;
        n = 1;
    } else if (c < 0x800) {
        u[0] = (unsigned char)(0xc0 | c >> 6), u[1] = (unsigned char)(0x80 | (c & 0x3f));
        n = 2;
    } else if (c < 0x10000) {
        u[0] = (unsigned char)(0xe0 | c >> 12), u[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        u[2] = (unsigned char)(0x80 | (c & 0x3f));
        n = 3;
    } else {
        u[0] = (unsigned char)(0xf0 | c >> 18), u[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
        u[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f)), u[3] = (unsigned char)(0x80 | (c & 0x3f));
        n = 4;
    }
    return kj_rt_str_own_n(rt, (const char *)u, n);
}

/* ord(s): the code point of a one-character string; CPython's TypeError
 * for any other length. */
int64_t kj_rt_str_ord(kj_rt *rt, const char *s, int32_t line, int32_t col)
{
    int64_t n = kj_rt_str_len(rt, s);
    if (n != 1) {
        char msg[96];
        snprintf(msg, sizeof msg, "ord() expected a character, but string of length %lld found", (long long)n);
        kj_rt_raise(rt, KJ_RT_TYPE, msg, line, col);
    }
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80) return u[0];
    if (u[0] < 0xe0) return (int64_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f);
    if (u[0] < 0xf0) return (int64_t)(u[0] & 0x0f) << 12 | (int64_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
    return (int64_t)(u[0] & 0x07) << 18 | (int64_t)(u[1] & 0x3f) << 12 | (int64_t)(u[2] & 0x3f) << 6 | (u[3] & 0x3f);
}

/* repr(s): CPython's quoting ('...' unless the text holds ' and no ") */
void *kj_rt_str_repr(kj_rt *rt, const char *s)
{
    kj_buf b = {0};
    kj_fmt_str_repr(&b, s, false);
    char *r = kj_rt_str_own_n(rt, b.s ? b.s : "", b.n);
    kj_buf_free(&b);
    return r;
}
