/* SPDX-License-Identifier: BSD-2-Clause */
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(kj_buf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + extra + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    b->s = s;
    b->cap = cap;
}

void kj_buf_putn(kj_buf *b, const char *s, size_t n)
{
    reserve(b, n);
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

void kj_buf_puts(kj_buf *b, const char *s) { kj_buf_putn(b, s, strlen(s)); }
void kj_buf_putc(kj_buf *b, char c) { kj_buf_putn(b, &c, 1); }

void kj_buf_vprintf(kj_buf *b, const char *fmt, va_list ap)
{
    /* fmt is never NULL; saying so lets gcc prove it under -fsanitize=undefined,
     * whose nonnull check otherwise leaves a path with a NULL format that
     * -Wformat-truncation reports (an error under -Werror). */
    if (!fmt) fmt = "";
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return; /* an encoding error: nothing appended */
    reserve(b, (size_t)n);
    vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
    b->n += (size_t)n;
}

void kj_buf_printf(kj_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kj_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *kj_buf_take(kj_buf *b)
{
    char *s = b->s;
    if (!s) {
        s = malloc(1);
        if (!s) abort();
        s[0] = 0;
    }
    b->s = NULL;
    b->n = b->cap = 0;
    return s;
}

void kj_buf_free(kj_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
}
