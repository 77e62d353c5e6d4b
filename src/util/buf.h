/* SPDX-License-Identifier: BSD-2-Clause */
/* A malloc-backed growable string, for output that outlives an arena
 * (printed IR, formatted diagnostics). */
#ifndef KJ_BUF_H
#define KJ_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct kj_buf {
    char *s; /* always NUL-terminated once anything was written */
    size_t n, cap;
} kj_buf;

void kj_buf_puts(kj_buf *b, const char *s);
void kj_buf_putn(kj_buf *b, const char *s, size_t n);
void kj_buf_putc(kj_buf *b, char c);
void kj_buf_printf(kj_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kj_buf_vprintf(kj_buf *b, const char *fmt, va_list ap);
/* Hand the string to the caller (who frees it); the buffer is reset. */
char *kj_buf_take(kj_buf *b);
void kj_buf_free(kj_buf *b);

#endif
