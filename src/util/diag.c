/* SPDX-License-Identifier: BSD-2-Clause */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_MAX_ERRORS = 20 };

static char *vformat(const char *fmt, va_list ap)
{
    /* fmt is never NULL; saying so lets gcc prove it under -fsanitize=undefined,
     * whose nonnull check otherwise leaves a path with a NULL format that
     * -Wformat-truncation reports (an error under -Werror). */
    if (!fmt) fmt = "";
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0; /* an encoding error: an empty message, not a huge malloc */
    char *s = malloc((size_t)n + 1);
    if (!s) abort();
    s[0] = 0;
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

/* The same message at the same place again (an expression re-examined by a
 * later stage) is one error, not two. */
static bool is_repeat(const kj_diags *d, kj_severity sev, kj_span sp, const char *msg)
{
    for (uint32_t i = 0; i < d->n; i++)
        if (d->v[i].sev == sev && d->v[i].span.off == sp.off && d->v[i].span.line == sp.line &&
            !strcmp(d->v[i].msg, msg))
            return true;
    return false;
}

static kj_diag *add(kj_diags *d, kj_severity sev, const kj_source *src, kj_span sp,
                    const char *fmt, va_list ap)
{
    char *msg = vformat(fmt, ap);
    if (is_repeat(d, sev, sp, msg)) {
        free(msg);
        return NULL;
    }
    uint32_t max = d->max_errors ? d->max_errors : DEFAULT_MAX_ERRORS;
    if (sev == KJ_SEV_ERROR) {
        if (d->nerrors >= max) {
            d->nerrors++;
            d->dropped++;
            free(msg);
            return NULL;
        }
        d->nerrors++;
    }
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 8;
        kj_diag *v = realloc(d->v, cap * sizeof *v);
        if (!v) abort();
        d->v = v;
        d->cap = cap;
    }
    kj_diag *dg = &d->v[d->n++];
    dg->sev = sev;
    dg->src = src;
    dg->span = sp;
    dg->msg = msg;
    dg->hint = NULL;
    return dg;
}

kj_diag *kj_error(kj_diags *d, const kj_source *src, kj_span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kj_diag *dg = add(d, KJ_SEV_ERROR, src, sp, fmt, ap);
    va_end(ap);
    return dg;
}

kj_diag *kj_warning(kj_diags *d, const kj_source *src, kj_span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kj_diag *dg = add(d, KJ_SEV_WARNING, src, sp, fmt, ap);
    va_end(ap);
    return dg;
}

void kj_diag_hint(kj_diag *dg, const char *fmt, ...)
{
    if (!dg) return;
    va_list ap;
    va_start(ap, fmt);
    free(dg->hint);
    dg->hint = vformat(fmt, ap);
    va_end(ap);
}

bool kj_has_errors(const kj_diags *d) { return d->nerrors > 0; }

static const char *sev_name(kj_severity s)
{
    return s == KJ_SEV_ERROR ? "error" : s == KJ_SEV_WARNING ? "warning" : "note";
}

/* The line of `src` containing byte offset `off`, as [start, end). */
static void line_bounds(const kj_source *src, uint32_t off, size_t *start, size_t *end)
{
    size_t s = off > src->len ? src->len : off;
    while (s > 0 && src->text[s - 1] != '\n') s--;
    size_t e = s;
    while (e < src->len && src->text[e] != '\n' && src->text[e] != '\r') e++;
    *start = s;
    *end = e;
}

/* Print the source line with control bytes and invalid UTF-8 shown as '?',
 * so that binary input cannot garble the terminal; the caret column counts
 * one cell per character. */
static void print_excerpt(FILE *out, const kj_diag *dg)
{
    const kj_source *src = dg->src;
    if (!src || !src->text || dg->span.line == 0) return;
    size_t s, e;
    line_bounds(src, dg->span.off, &s, &e);
    if (e - s > 400) return; /* minified or binary: the location is enough */
    fputs("    ", out);
    size_t caret_cells = 0, cells = 0;
    for (size_t i = s; i < e; i++) {
        unsigned char c = (unsigned char)src->text[i];
        if (i == dg->span.off) caret_cells = cells;
        if ((c & 0xC0) == 0x80) continue; /* UTF-8 continuation: same cell */
        cells++;
        if (c == '\t') fputc(' ', out);
        else if (c < 0x20 || c == 0x7f) fputc('?', out);
        else if (c < 0x80) fputc(c, out);
        else {
            size_t n = 1;
            while (i + n < e && ((unsigned char)src->text[i + n] & 0xC0) == 0x80) n++;
            fwrite(src->text + i, 1, n, out);
        }
    }
    if (dg->span.off >= e) caret_cells = cells;
    fputs("\n    ", out);
    for (size_t i = 0; i < caret_cells; i++) fputc(' ', out);
    fputc('^', out);
    /* Underline the rest of the span when it stays on this line. */
    size_t len = dg->span.len;
    if (dg->span.off + len > e) len = dg->span.off < e ? e - dg->span.off : 1;
    for (size_t i = 1; i < len && i < 80; i++) fputc('~', out);
    fputc('\n', out);
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void kj_diags_print(const kj_diags *d, FILE *out, kj_diag_format fmt)
{
    for (uint32_t i = 0; i < d->n; i++) {
        const kj_diag *dg = &d->v[i];
        const char *path = dg->src && dg->src->path ? dg->src->path : "<input>";
        if (fmt == KJ_DIAG_JSON) {
            fputs("{\"file\":", out);
            json_str(out, path);
            fprintf(out, ",\"line\":%u,\"col\":%u,\"severity\":\"%s\",\"message\":", dg->span.line,
                    dg->span.col, sev_name(dg->sev));
            json_str(out, dg->msg);
            if (dg->hint) {
                fputs(",\"hint\":", out);
                json_str(out, dg->hint);
            }
            fputs("}\n", out);
            continue;
        }
        fprintf(out, "%s:%u:%u: %s: %s\n", path, dg->span.line, dg->span.col, sev_name(dg->sev),
                dg->msg);
        if (fmt == KJ_DIAG_HUMAN) print_excerpt(out, dg);
        if (dg->hint) fprintf(out, "    hint: %s\n", dg->hint);
    }
    if (d->dropped && fmt != KJ_DIAG_JSON)
        fprintf(out, "note: %u more error%s not shown\n", d->dropped, d->dropped == 1 ? "" : "s");
}

void kj_diags_free(kj_diags *d)
{
    for (uint32_t i = 0; i < d->n; i++) {
        free(d->v[i].msg);
        free(d->v[i].hint);
    }
    free(d->v);
    d->v = NULL;
    d->n = d->cap = d->nerrors = d->dropped = 0;
}

/* Levenshtein distance, or (size_t)-1 once it must exceed `bound`: the
 * distance is at least the length difference, and never below the smallest
 * entry of a row, so most candidates are dismissed early. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t bound)
{
    size_t lb = strlen(b);
    if (la > 64 || lb > 64) return (size_t)-1;
    if ((la > lb ? la - lb : lb - la) > bound) return (size_t)-1;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0], lo = i;
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = diag + cost;
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
            if (best < lo) lo = best;
        }
        if (lo > bound) return (size_t)-1;
    }
    return row[lb] <= bound ? row[lb] : (size_t)-1;
}

const char *kj_closest(const char *name, const char *const *cands, size_t n)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    size_t len = strlen(name);
    size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i] || !strcmp(cands[i], name)) continue;
        /* only a strictly closer candidate can replace the best one (the
         * best is never 0: the name itself is skipped) */
        size_t bound = best_d <= limit ? best_d - 1 : limit;
        size_t dist = edit_distance(name, len, cands[i], bound);
        if (dist < best_d) {
            best_d = dist;
            best = cands[i];
        }
    }
    return best_d <= limit ? best : NULL;
}

kj_span kj_span_join(kj_span a, kj_span b)
{
    if (b.off < a.off) return a;
    kj_span s = a;
    s.len = b.off + b.len - a.off;
    return s;
}
