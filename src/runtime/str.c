/* SPDX-License-Identifier: BSD-2-Clause */
/* Python strings at run time (Numba's unicode type, reference/
 * pysupported.rst "str"): a string value in generated code is a pointer to
 * NUL-terminated UTF-8 text. A literal is a constant in the module; every
 * string the runtime makes here is registered in the run context and freed
 * with its arrays and lists when the outermost entry call returns
 * (kj_rt_str_free_all), as lists are (list.c). Indexing, slicing, len and
 * find count code points, as CPython does; ASCII text takes the byte path. */
#include "rt.h"

#include "format.h"
#include "pyslice.h"
#include "str.h"
#include "str_ucase.h"
#include "../util/alloc.h"
#include "../util/buf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Register a malloc'ed string with the run; returns it. */
static char *own(kj_rt *rt, char *s)
{
    if (rt->nstrs == rt->cap_strs) {
        rt->cap_strs = rt->cap_strs ? 2 * rt->cap_strs : 16;
        rt->strs = realloc(rt->strs, rt->cap_strs * sizeof *rt->strs);
        if (!rt->strs) abort(); /* out of memory: the one failure that is not a value */
    }
    rt->strs[rt->nstrs++] = s;
    return s;
}

static char *own_buf(kj_rt *rt, kj_buf *b)
{
    if (!b->s) kj_buf_puts(b, "");
    return own(rt, kj_buf_take(b));
}

static char *own_n(kj_rt *rt, const char *s, size_t n)
{
    kj_buf b = {0};
    kj_buf_putn(&b, s, n);
    return own_buf(rt, &b);
}

char *kj_rt_str_own_n(kj_rt *rt, const char *s, size_t n) { return own_n(rt, s, n); }
char *kj_rt_str_adopt(kj_rt *rt, char *s) { return own(rt, s); }

void kj_rt_str_free_all(kj_rt *rt)
{
    for (size_t k = 0; k < rt->nstrs; k++) free(rt->strs[k]);
    free(rt->strs);
    rt->strs = NULL;
    rt->nstrs = rt->cap_strs = 0;
}

static bool is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

static int64_t cp_count(const char *s, size_t n)
{
    int64_t k = 0;
    for (size_t i = 0; i < n; i++) k += !is_cont((unsigned char)s[i]);
    return k;
}

/* The byte offset of code point i (0 <= i <= count) of s. */
static size_t cp_offset(const char *s, int64_t i)
{
    size_t o = 0;
    for (; i > 0 && s[o]; i--)
        for (o++; s[o] && is_cont((unsigned char)s[o]); o++) {}
    return o;
}

int64_t kj_rt_str_len(kj_rt *rt, const char *s)
{
    (void)rt;
    return cp_count(s, strlen(s));
}

void *kj_rt_str_cat(kj_rt *rt, const char *a, const char *b)
{
    kj_buf o = {0};
    kj_buf_puts(&o, a);
    kj_buf_puts(&o, b);
    return own_buf(rt, &o);
}

void *kj_rt_str_repeat(kj_rt *rt, const char *s, int64_t n)
{
    kj_buf o = {0};
    for (int64_t k = 0; k < n; k++) kj_buf_puts(&o, s);
    return own_buf(rt, &o);
}

/* <0, 0, >0 as a and b order: UTF-8 byte order is code-point order. */
int64_t kj_rt_str_cmp(kj_rt *rt, const char *a, const char *b)
{
    (void)rt;
    int c = strcmp(a, b);
    return c < 0 ? -1 : c > 0;
}

void *kj_rt_str_get(kj_rt *rt, const char *s, int64_t i, int32_t line, int32_t col)
{
    int64_t n = kj_rt_str_len(rt, s);
    if (i < 0) i += n;
    if (i < 0 || i >= n) kj_rt_raise(rt, KJ_RT_INDEX, "string index out of range", line, col);
    size_t a = cp_offset(s, i), b = a + cp_offset(s + a, 1);
    return own_n(rt, s + a, b - a);
}

void *kj_rt_str_slice(kj_rt *rt, const char *s, int64_t start, int64_t stop, int64_t step, int32_t has,
                      int32_t line, int32_t col)
{
    if (step == 0) kj_rt_raise(rt, KJ_RT_VALUE, "slice step cannot be zero", line, col);
    int64_t n = kj_rt_str_len(rt, s);
    kj_slice_indices(n, &start, &stop, step, has);
    kj_buf o = {0};
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        size_t a = cp_offset(s, i), b = a + cp_offset(s + a, 1);
        kj_buf_putn(&o, s + a, b - a);
    }
    return own_buf(rt, &o);
}

/* str(x) of a number: kind 0 int64, 1 bool, 2 float64, 3 float32, 4 uint64, 6 float16. */
void *kj_rt_str_of_num(kj_rt *rt, int64_t i, double f, int32_t kind)
{
    kj_buf o = {0};
    switch (kind) {
    case 1: kj_fmt_bool(&o, i != 0); break;
    case 2: kj_fmt_f64(&o, f); break;
    case 3: kj_fmt_f32(&o, (float)f); break;
    case 6: kj_fmt_f16(&o, (float)f); break;
    case 4: kj_fmt_u64(&o, (uint64_t)i); break;
    default: kj_fmt_i64(&o, i); break;
    }
    return own_buf(rt, &o);
}

static bool py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

/* find/rfind/count/in/startswith/endswith of sub in s; positions in code points. */
int64_t kj_rt_str_find(kj_rt *rt, const char *s, const char *sub, int32_t which)
{
    (void)rt;
    size_t n = strlen(s), m = strlen(sub);
    switch (which) {
    case 4: return m <= n && !memcmp(s, sub, m);
    case 5: return m <= n && !memcmp(s + n - m, sub, m);
    case 3: return strstr(s, sub) != NULL;
    case 2: { /* non-overlapping; an empty sub matches between every code point */
        if (!m) return cp_count(s, n) + 1;
        int64_t k = 0;
        for (const char *p = strstr(s, sub); p; p = strstr(p + m, sub)) k++;
        return k;
    }
    case 1: {
        if (m > n) return -1;
        for (size_t i = n - m + 1; i-- > 0;)
            if (!memcmp(s + i, sub, m)) return cp_count(s, i);
        return -1;
    }
    default: {
        const char *p = strstr(s, sub);
        return p ? cp_count(s, (size_t)(p - s)) : -1;
    }
    }
}

static void *strip(kj_rt *rt, const char *s, bool left, bool right)
{
    size_t a = 0, b = strlen(s);
    while (left && a < b && py_space((unsigned char)s[a])) a++;
    while (right && b > a && py_space((unsigned char)s[b - 1])) b--;
    return own_n(rt, s + a, b - a);
}

/* Python's str.isdigit/isalpha/isspace on ASCII: false for an empty string. */
static bool all_of(const char *s, int which)
{
    if (!*s) return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        bool ok = which == 5 ? (*p >= '0' && *p <= '9')
                : which == 6 ? ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')
                             : py_space(*p);
        if (!ok) return false;
    }
    return true;
}

void *kj_rt_str_map(kj_rt *rt, const char *s, int32_t which)
{
    if (which >= 2 && which <= 4) return strip(rt, s, which != 4, which != 3);
    if (which >= 5) return all_of(s, which) ? (void *)"1" : (void *)"";
    char *u = kj_str_is_ascii(s) ? NULL : kj_str_ucase(rt, s, which == 0 ? KJ_UC_UPPER : KJ_UC_LOWER);
    if (u) return u; /* beyond ASCII: str_ucase.c */
    char *o = own_n(rt, s, strlen(s));
    for (char *p = o; *p; p++)
        if (which == 0 && *p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
        else if (which == 1 && *p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    return o;
}

void *kj_rt_str_replace(kj_rt *rt, const char *s, const char *old, const char *new_)
{
    size_t m = strlen(old);
    kj_buf o = {0};
    if (!m) { /* "ab".replace("", "-") is "-a-b-" */
        kj_buf_puts(&o, new_);
        for (const char *p = s; *p;) {
            size_t c = cp_offset(p, 1);
            kj_buf_putn(&o, p, c);
            kj_buf_puts(&o, new_);
            p += c;
        }
        return own_buf(rt, &o);
    }
    const char *p = s;
    for (const char *q = strstr(p, old); q; q = strstr(p, old)) {
        kj_buf_putn(&o, p, (size_t)(q - p));
        kj_buf_puts(&o, new_);
        p = q + m;
    }
    kj_buf_puts(&o, p);
    return own_buf(rt, &o);
}

static void fill(kj_buf *o, char c, int64_t n)
{
    for (int64_t k = 0; k < n; k++) kj_buf_putc(o, c);
}

void *kj_rt_str_pad(kj_rt *rt, const char *s, int64_t width, int32_t which)
{
    int64_t n = kj_rt_str_len(rt, s), pad = width > n ? width - n : 0;
    kj_buf o = {0};
    if (which == 0) { /* zfill: zeros after a leading sign */
        bool sign = *s == '+' || *s == '-';
        if (sign) kj_buf_putc(&o, *s);
        fill(&o, '0', pad);
        kj_buf_puts(&o, s + sign);
        return own_buf(rt, &o);
    }
    /* CPython's center puts the odd space on the left when the width is odd */
    int64_t left = which == 3 ? pad : which == 2 ? 0 : pad / 2 + (pad & width & 1);
    fill(&o, ' ', left);
    kj_buf_puts(&o, s);
    fill(&o, ' ', pad - left);
    return own_buf(rt, &o);
}

/* format(x, spec) of one value (kind as kj_rt_str_of_num; 5: the string s)
 * with the common part of Python's format-spec mini-language:
 * [[fill]align][sign][0][width][.precision][type], types d x X o b f F e E g G s %. */
typedef struct spec {
    char fill, align, sign, type;
    bool alt; /* '#': 0x / 0o / 0b before the digits */
    int64_t width, prec;
} spec;

static const char *parse_spec(const char *p, spec *o)
{
    *o = (spec){.fill = ' ', .prec = -1};
    if (p[0] && (p[1] == '<' || p[1] == '>' || p[1] == '^' || p[1] == '=')) o->fill = p[0], o->align = p[1], p += 2;
    else if (*p == '<' || *p == '>' || *p == '^' || *p == '=') o->align = *p++;
    if (*p == '+' || *p == '-' || *p == ' ') o->sign = *p++;
    if (*p == '#') o->alt = true, p++;
    if (*p == '0' && !o->align) o->fill = '0', o->align = '=', p++;
    while (*p >= '0' && *p <= '9') o->width = o->width * 10 + (*p++ - '0');
    if (*p == '.')
        for (o->prec = 0, p++; *p >= '0' && *p <= '9';) o->prec = o->prec * 10 + (*p++ - '0');
    if (*p) o->type = *p++;
    return p;
}

static void digits_of(kj_buf *o, const spec *sp, int64_t i, double f, int32_t kind)
{
    char t = sp->type, cf[16];
    if (kind == 2 || kind == 3 || t == 'f' || t == 'F' || t == 'e' || t == 'E' || t == 'g' || t == 'G' || t == '%') {
        double x = kind == 2 || kind == 3 ? f : (double)i;
        if (!t || (t == 'g' && sp->prec < 0)) { /* no type: str(x); a precision: 'g' with it */
            if (sp->prec < 0) {
                if (kind == 3) kj_fmt_f32(o, (float)x); else kj_fmt_f64(o, x);
                return;
            }
            t = 'g';
        }
        if (t == '%') x *= 100, t = 'f';
        snprintf(cf, sizeof cf, "%%.%d%c", (int)(sp->prec < 0 ? 6 : sp->prec), t);
        kj_buf_printf(o, cf, x);
        if (sp->type == '%') kj_buf_putc(o, '%');
        return;
    }
    if (kind == 1 && !t) { kj_fmt_bool(o, i != 0); return; }
    if (t == 'x' || t == 'X' || t == 'o' || t == 'b') {
        uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
        char tmp[72];
        int n = 0, base = t == 'o' ? 8 : t == 'b' ? 2 : 16;
        do tmp[n++] = "0123456789abcdef0123456789ABCDEF"[u % (unsigned)base + (t == 'X' ? 16 : 0)];
        while ((u /= (unsigned)base) > 0);
        if (i < 0) kj_buf_putc(o, '-');
        if (sp->alt) kj_buf_putc(o, '0'), kj_buf_putc(o, t == 'X' ? 'X' : t);
        while (n > 0) kj_buf_putc(o, tmp[--n]);
        return;
    }
    if (kind == 4) kj_fmt_u64(o, (uint64_t)i); else kj_fmt_i64(o, i);
}

static uint32_t utf8_cp(const unsigned char *p, int *len)
{
    int n = *p < 0xE0 ? 2 : *p < 0xF0 ? 3 : 4;
    uint32_t c = *p & (0x7F >> n);
    for (int k = 1; k < n && is_cont(p[k]); k++) c = c << 6 | (p[k] & 0x3F);
    *len = n;
    return c;
}

/* repr(s) (ascii: ascii(s)): single quotes unless the text holds ' and no ",
 * backslash escapes for the quote, backslash and control characters. */
void kj_fmt_str_repr(kj_buf *b, const char *s, bool ascii)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    kj_buf_putc(b, q);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\') kj_buf_puts(b, "\\\\");
        else if (*p == '\n') kj_buf_puts(b, "\\n");
        else if (*p == '\r') kj_buf_puts(b, "\\r");
        else if (*p == '\t') kj_buf_puts(b, "\\t");
        else if (*p == (unsigned char)q) kj_buf_printf(b, "\\%c", q);
        else if (*p < 0x20 || *p == 0x7f) kj_buf_printf(b, "\\x%02x", *p);
        else if (*p >= 0x80 && ascii) {
            int n;
            uint32_t c = utf8_cp(p, &n);
            kj_buf_printf(b, c < 0x100 ? "\\x%02x" : c < 0x10000 ? "\\u%04x" : "\\U%08x", c);
            for (int k = 1; k < n && p[1]; k++) p++;
        } else kj_buf_putc(b, (char)*p);
    }
    kj_buf_putc(b, q);
}

/* format(x, spec); a spec led by "!r", "!s" or "!a" (an f-string's or a
 * format field's conversion) formats repr(x), str(x) or ascii(x) instead. */
void *kj_rt_str_format(kj_rt *rt, int64_t i, double f, const char *s, int32_t kind, const char *fmt)
{
    if (fmt[0] == '!' && fmt[1]) {
        kj_buf cv = {0};
        if (kind == 5 && fmt[1] != 's') kj_fmt_str_repr(&cv, s, fmt[1] == 'a');
        else if (kind == 5) kj_buf_puts(&cv, s);
        else kj_buf_puts(&cv, kj_rt_str_format(rt, i, f, s, kind, ""));
        char *c = own_buf(rt, &cv);
        return kj_rt_str_format(rt, 0, 0, c, 5, fmt + 2);
    }
    spec sp;
    parse_spec(fmt, &sp);
    kj_buf body = {0};
    if (kind == 5) kj_buf_putn(&body, s, sp.prec >= 0 ? cp_offset(s, sp.prec) : strlen(s));
    else digits_of(&body, &sp, i, f, kind);
    if (!body.s) kj_buf_puts(&body, "");
    const char *b = body.s;
    bool neg = kind != 5 && b[0] == '-';
    kj_buf o = {0};
    char sign = neg ? '-' : sp.sign == '+' ? '+' : sp.sign == ' ' ? ' ' : 0;
    int64_t n = cp_count(b, strlen(b)) - neg + (sign != 0), pad = sp.width > n ? sp.width - n : 0;
    char align = sp.align ? sp.align : kind == 5 ? '<' : '>';
    int64_t left = align == '<' ? 0 : align == '^' ? pad / 2 : pad;
    if (align != '=') fill(&o, sp.fill, left);
    if (sign) kj_buf_putc(&o, sign);
    if (align == '=') fill(&o, sp.fill, pad);
    kj_buf_puts(&o, b + neg);
    if (align != '=') fill(&o, sp.fill, pad - left);
    kj_buf_free(&body);
    return own_buf(rt, &o);
}
