/* SPDX-License-Identifier: BSD-2-Clause */
/* print() in host code: Python's formatting of scalars and strings, NumPy's
 * str() of arrays (format.c), written to the context's FILE* (rt->out).
 * Generated code prints one value per call and the separators itself, so
 * that `print(a, b, sep=..., end=...)` needs no argument packing. */
#include "rt_host.h"

#include "../util/buf.h"
#include "format.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A write to rt->out failed (a full disk, /dev/full): an OSError where the
 * program is, since output that is lost must not look like success. */
static _Noreturn void write_failed(kj_rt *rt, int errnum)
{
    char msg[200];
    snprintf(msg, sizeof msg, "cannot write the output: %s", strerror(errnum ? errnum : EIO));
    kj_rt_raise(rt, KJ_RT_OS, msg, 0, 0);
}

static void put(kj_rt *rt, kj_buf *b)
{
    bool ok = !b->n || fwrite(b->s, 1, b->n, rt->out) == b->n;
    int errnum = errno;
    kj_buf_free(b);
    if (!ok) write_failed(rt, errnum);
}

static void put_str(kj_rt *rt, const char *s)
{
    if (fputs(s, rt->out) == EOF) write_failed(rt, errno);
}

void kj_rt_print_str(kj_rt *rt, const char *s) { put_str(rt, s); }

/* repr(str), as CPython writes it (str.c). */
void kj_rt_print_repr_str(kj_rt *rt, const char *s)
{
    kj_buf b = {0};
    kj_fmt_str_repr(&b, s, false);
    put(rt, &b);
}

void kj_rt_print_int(kj_rt *rt, int64_t v)
{
    if (fprintf(rt->out, "%lld", (long long)v) < 0) write_failed(rt, errno);
}

void kj_rt_print_uint(kj_rt *rt, int64_t v)
{
    if (fprintf(rt->out, "%llu", (unsigned long long)v) < 0) write_failed(rt, errno);
}

void kj_rt_print_bool(kj_rt *rt, int32_t v) { put_str(rt, v ? "True" : "False"); }

void kj_rt_print_f64(kj_rt *rt, double v)
{
    kj_buf b = {0};
    kj_fmt_f64(&b, v);
    put(rt, &b);
}

void kj_rt_print_complex(kj_rt *rt, double re, double im, int32_t is_f32)
{
    kj_buf b = {0};
    kj_fmt_complex(&b, re, im, is_f32 != 0);
    put(rt, &b);
}

void kj_rt_print_f32(kj_rt *rt, float v)
{
    kj_buf b = {0};
    kj_fmt_f32(&b, v);
    put(rt, &b);
}

void kj_rt_print_f16(kj_rt *rt, float v)
{
    kj_buf b = {0};
    kj_fmt_f16(&b, v);
    put(rt, &b);
}

void kj_rt_print_array(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t repr)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_buf b = {0};
    if (repr) kj_fmt_array_repr(&b, &h);
    else kj_fmt_array(&b, &h);
    put(rt, &b);
}
