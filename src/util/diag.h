/* SPDX-License-Identifier: BSD-2-Clause */
/* Diagnostics: collected, not exit-on-first. Every error carries the source
 * span it is about; printing adds the source line and a caret (c3c style). */
#ifndef KJ_DIAG_H
#define KJ_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A source file held in memory. `text` need not be NUL-terminated. */
typedef struct kj_source {
    const char *path;
    const char *text;
    size_t len;
} kj_source;

/* A region of a source: byte offset and length, plus the 1-based line and
 * column (in bytes) of its first byte. */
typedef struct kj_span {
    uint32_t off, len;
    uint32_t line, col;
} kj_span;

typedef enum { KJ_SEV_ERROR, KJ_SEV_WARNING, KJ_SEV_NOTE } kj_severity;

typedef struct kj_diag {
    kj_severity sev;
    const kj_source *src;
    kj_span span;
    char *msg;  /* malloc-owned */
    char *hint; /* malloc-owned, may be NULL */
} kj_diag;

typedef struct kj_diags {
    kj_diag *v;
    uint32_t n, cap;
    uint32_t nerrors;
    uint32_t max_errors; /* 0 = default (20); later errors are counted, not kept */
    uint32_t dropped;
} kj_diags;

typedef enum {
    KJ_DIAG_HUMAN, /* file:line:col: error: msg, source line, caret, hint */
    KJ_DIAG_SHORT, /* file:line:col: error: msg  (+ "  hint: ..." lines) */
    KJ_DIAG_JSON,  /* one JSON object per line */
} kj_diag_format;

/* Record an error. Returns the diagnostic so a hint can be attached, or NULL
 * when the error limit was reached (kj_diag_hint accepts NULL). */
kj_diag *kj_error(kj_diags *d, const kj_source *src, kj_span sp, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
kj_diag *kj_warning(kj_diags *d, const kj_source *src, kj_span sp, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void kj_diag_hint(kj_diag *dg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool kj_has_errors(const kj_diags *d);
void kj_diags_print(const kj_diags *d, FILE *out, kj_diag_format fmt);
void kj_diags_free(kj_diags *d);

/* Spelling suggestions: the candidate closest to `name` by edit distance,
 * or NULL when none is close enough to be a plausible typo. */
const char *kj_closest(const char *name, const char *const *cands, size_t n);

/* A span covering from the start of a to the end of b. */
kj_span kj_span_join(kj_span a, kj_span b);

#endif
