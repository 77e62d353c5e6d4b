/* SPDX-License-Identifier: BSD-2-Clause */
/* bytes, bytearray and memoryview in generated code (src/ir/builtins_bytes.c):
 * they are uint8 arrays (a memoryview any array), so these are only what an
 * array has not: a b'...' literal made, an array's bytes copied (tobytes,
 * bytearray(x)), and print's form of them, CPython's repr of bytes. */
#include "rt_host.h"

#include "../util/buf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

void kj_rt_bytes_new(kj_rt *rt, const char *hex, void *out)
{
    int64_t n = (int64_t)(strlen(hex) / 2);
    kj_rt_error err = {0};
    kj_array *a = kj_array_empty(KJ_DT_UINT8, 1, &n, &err);
    for (int64_t i = 0; a && i < n; i++) a->data[i] = (char)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
    kj_rt_result(rt, a, &err, out, 1, 0, 0);
}

void kj_rt_tobytes(kj_rt *rt, const void *src, int32_t ndim, int32_t dtype, void *out, int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, src, ndim, dtype);
    kj_rt_error err = {0};
    kj_array *a = kj_array_copy(&h, &err); /* C order, its own memory: relabelled as its bytes */
    if (a) {
        int64_t n = kj_array_size(a) * (int64_t)kj_array_itemsize(a);
        a->dtype = KJ_DT_UINT8;
        a->ndim = 1;
        a->shape[0] = n;
        a->strides[0] = 1;
        kj_array_update_flags(a);
    }
    kj_rt_result(rt, a, &err, out, 1, line, col);
}

/* repr(bytes) as CPython writes it: ' unless the bytes hold ' and no "; a
 * bytearray's repr escapes ' even inside "..." (CPython's bytearray_repr). */
static void bytes_repr(kj_buf *b, const kj_array *h, bool bytearray)
{
    bool sq = false, dq = false;
    int64_t n = h->shape[0];
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)h->data[i * h->strides[0]];
        sq |= c == '\'';
        dq |= c == '"';
    }
    char q = sq && !dq ? '"' : '\'';
    kj_buf_putc(b, 'b');
    kj_buf_putc(b, q);
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)h->data[i * h->strides[0]];
        if (c == (unsigned char)q || c == '\\' || (bytearray && c == '\'')) {
            kj_buf_putc(b, '\\');
            kj_buf_putc(b, (char)c);
        } else if (c == '\t') kj_buf_puts(b, "\\t");
        else if (c == '\n') kj_buf_puts(b, "\\n");
        else if (c == '\r') kj_buf_puts(b, "\\r");
        else if (c < 0x20 || c >= 0x7f) kj_buf_printf(b, "\\x%02x", c);
        else kj_buf_putc(b, (char)c);
    }
    kj_buf_putc(b, q);
}

void kj_rt_print_bytes(kj_rt *rt, const void *src, int32_t kind)
{
    kj_array h;
    kj_rt_header(&h, src, 1, KJ_DT_UINT8);
    kj_buf b = {0};
    if (kind == 2) kj_buf_printf(&b, "<memory at %p>", (void *)h.data); /* CPython prints the object's address */
    else {
        if (kind == 1) kj_buf_puts(&b, "bytearray(");
        bytes_repr(&b, &h, kind == 1);
        if (kind == 1) kj_buf_putc(&b, ')');
    }
    bool ok = !b.n || fwrite(b.s, 1, b.n, rt->out) == b.n;
    int errnum = errno;
    kj_buf_free(&b);
    if (!ok) {
        char msg[200];
        snprintf(msg, sizeof msg, "cannot write the output: %s", strerror(errnum ? errnum : EIO));
        kj_rt_raise(rt, KJ_RT_OS, msg, 0, 0);
    }
}
