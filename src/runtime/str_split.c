/* SPDX-License-Identifier: BSD-2-Clause */
/* The str methods that make or read lists of strings and the ASCII case
 * maps and classes (Numba's unicode type, reference/pysupported.rst "str"):
 * split/rsplit (whitespace or a separator, maxsplit), splitlines, join,
 * partition/rpartition (a list of three, made a tuple by generated code),
 * title/swapcase/capitalize/casefold, expandtabs and the is* predicates.
 * Results are strings and lists the run owns (str.c, list.c): a list of
 * strings holds pointers to run-owned strings, freed with the run. Case and
 * classes follow CPython on ASCII; other code points are left as they are
 * and count as neither letters nor digits. */
#include "rt.h"

#include "list.h"
#include "str.h"
#include "str_ucase.h"
#include "../util/buf.h"

#include <stdbool.h>
#include <string.h>

static bool py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }
static bool is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static bool is_alpha(unsigned char c) { return is_lower(c) || is_upper(c); }
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static void push(kj_rt *rt, kj_list *l, const char *s, size_t n)
{
    char *p = kj_rt_str_own_n(rt, s, n);
    kj_rt_list_grow(rt, l);
    memcpy(l->data + (l->len - 1) * l->itemsize, &p, sizeof p);
}

static void reverse(kj_list *l)
{
    for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
        char *a, *b;
        memcpy(&a, l->data + i * 8, 8), memcpy(&b, l->data + j * 8, 8);
        memcpy(l->data + i * 8, &b, 8), memcpy(l->data + j * 8, &a, 8);
    }
}

/* Whitespace split: runs of whitespace separate, none at the ends; at most
 * maxsplit splits (< 0: all), the rest one word (its far end kept, as CPython). */
static void split_ws(kj_rt *rt, kj_list *l, const char *s, int64_t maxsplit, bool right)
{
    size_t a = 0, b = strlen(s);
    for (int64_t k = 0;; k++) {
        if (right) while (b > a && py_space((unsigned char)s[b - 1])) b--;
        else while (a < b && py_space((unsigned char)s[a])) a++;
        if (a == b) break;
        if (maxsplit >= 0 && k == maxsplit) {
            push(rt, l, s + a, b - a);
            break;
        }
        size_t e = right ? b : a;
        if (right) { while (e > a && !py_space((unsigned char)s[e - 1])) e--; push(rt, l, s + e, b - e); b = e; }
        else { while (e < b && !py_space((unsigned char)s[e])) e++; push(rt, l, s + a, e - a); a = e; }
    }
}

static const char *rfind_in(const char *s, size_t n, const char *sep, size_t m)
{
    for (size_t i = n >= m ? n - m + 1 : 0; i-- > 0;)
        if (!memcmp(s + i, sep, m)) return s + i;
    return NULL;
}

void *kj_rt_str_split(kj_rt *rt, const char *s, const char *sep, int64_t maxsplit, int32_t right, int32_t line,
                      int32_t col)
{
    kj_list *l = kj_rt_list_new(rt, sizeof(char *), 0, -1);
    if (!sep) {
        split_ws(rt, l, s, maxsplit, right);
        if (right) reverse(l);
        return l;
    }
    size_t m = strlen(sep), n = strlen(s);
    if (!m) kj_rt_raise(rt, KJ_RT_VALUE, "empty separator", line, col);
    for (int64_t k = 0; maxsplit < 0 || k < maxsplit; k++) {
        const char *q = right ? rfind_in(s, n, sep, m) : strstr(s, sep);
        if (!q) break;
        if (right) { push(rt, l, q + m, n - (size_t)(q - s) - m); n = (size_t)(q - s); }
        else { push(rt, l, s, (size_t)(q - s)); n -= (size_t)(q - s) + m; s = q + m; }
    }
    push(rt, l, s, n);
    if (right) reverse(l);
    return l;
}

/* Python's line boundaries on ASCII: \n \r \r\n \v \f \x1c \x1d \x1e. */
void *kj_rt_str_splitlines(kj_rt *rt, const char *s, int32_t keepends)
{
    kj_list *l = kj_rt_list_new(rt, sizeof(char *), 0, -1);
    for (size_t a = 0, i = 0; s[i]; a = i) {
        while (s[i] && !strchr("\n\r\v\f\x1c\x1d\x1e", s[i])) i++;
        size_t e = i;
        if (s[i]) i += s[i] == '\r' && s[i + 1] == '\n' ? 2 : 1;
        push(rt, l, s + a, (keepends ? i : e) - a);
    }
    return l;
}

void *kj_rt_str_join(kj_rt *rt, const char *sep, void *list)
{
    kj_list *l = list;
    kj_buf o = {0};
    for (int64_t i = 0; i < l->len; i++) {
        const char *p;
        memcpy(&p, l->data + i * l->itemsize, sizeof p);
        if (i) kj_buf_puts(&o, sep);
        kj_buf_puts(&o, p);
    }
    char *r = kj_rt_str_own_n(rt, o.s ? o.s : "", o.s ? o.n : 0);
    kj_buf_free(&o);
    return r;
}

/* s.partition(sep) / rpartition: [head, sep, tail] (empty parts where sep is
 * missing: (s, '', '') or ('', '', s)). */
void *kj_rt_str_partition(kj_rt *rt, const char *s, const char *sep, int32_t right, int32_t line, int32_t col)
{
    size_t m = strlen(sep), n = strlen(s);
    if (!m) kj_rt_raise(rt, KJ_RT_VALUE, "empty separator", line, col);
    const char *q = right ? rfind_in(s, n, sep, m) : strstr(s, sep);
    kj_list *l = kj_rt_list_new(rt, sizeof(char *), 0, -1);
    if (!q) {
        push(rt, l, right ? "" : s, right ? 0 : n);
        push(rt, l, "", 0);
        push(rt, l, right ? s : "", right ? n : 0);
        return l;
    }
    push(rt, l, s, (size_t)(q - s));
    push(rt, l, sep, m);
    push(rt, l, q + m, n - (size_t)(q - s) - m);
    return l;
}

static char *copy(kj_rt *rt, const char *s) { return kj_rt_str_own_n(rt, s, strlen(s)); }

/* which: 0 title, 1 swapcase, 2 capitalize, 3 casefold. */
void *kj_rt_str_case(kj_rt *rt, const char *s, int32_t which)
{
    static const kj_ucase map[] = {KJ_UC_TITLE, KJ_UC_SWAPCASE, KJ_UC_CAPITALIZE, KJ_UC_CASEFOLD};
    char *u = kj_str_is_ascii(s) || which < 0 || which > 3 ? NULL : kj_str_ucase(rt, s, map[which]);
    if (u) return u; /* beyond ASCII: str_ucase.c */
    char *o = copy(rt, s);
    bool prev_cased = false;
    for (unsigned char *p = (unsigned char *)o; *p; p++) {
        bool up = which == 0 ? !prev_cased : which == 1 ? is_lower(*p) : which == 2 && p == (unsigned char *)o;
        prev_cased = is_alpha(*p);
        if (up && is_lower(*p)) *p = (unsigned char)(*p - 32);
        else if (!up && is_upper(*p)) *p = (unsigned char)(*p + 32);
    }
    return o;
}

void *kj_rt_str_expandtabs(kj_rt *rt, const char *s, int64_t tabsize)
{
    kj_buf o = {0};
    int64_t colno = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\t') {
            int64_t n = tabsize > 0 ? tabsize - colno % tabsize : 0;
            for (int64_t k = 0; k < n; k++) kj_buf_putc(&o, ' ');
            colno += n;
            continue;
        }
        kj_buf_putc(&o, (char)*p);
        colno = *p == '\n' || *p == '\r' ? 0 : colno + ((*p & 0xC0) != 0x80);
    }
    char *r = kj_rt_str_own_n(rt, o.s ? o.s : "", o.s ? o.n : 0);
    kj_buf_free(&o);
    return r;
}

static bool cased_check(const unsigned char *p, int which)
{
    bool cased = false, prev = false;
    for (; *p; p++) {
        if (which == 2) { /* istitle: upper only after uncased, lower only after cased */
            if (is_upper(*p) && prev) return false;
            if (is_lower(*p) && !prev) return false;
            if (is_alpha(*p)) cased = true;
            prev = is_alpha(*p);
            continue;
        }
        if (which == 0 ? is_upper(*p) : is_lower(*p)) return false;
        cased |= is_alpha(*p);
    }
    return cased;
}

/* which: 0 islower, 1 isupper, 2 istitle, 3 isalnum, 4 isdecimal/isdigit/isnumeric, 5 isidentifier,
 * 6 isprintable. Returns 1 or 0. */
int64_t kj_rt_str_is(kj_rt *rt, const char *s, int32_t which)
{
    (void)rt;
    const unsigned char *p = (const unsigned char *)s;
    int u = which <= 2 && !kj_str_is_ascii(s) ? kj_str_ucased(s, which) : -1; /* str_ucase.c */
    if (u >= 0) return u;
    if (which <= 2) return cased_check(p, which);
    if (which == 6) {
        for (; *p; p++)
            if (*p < 0x20 || *p == 0x7f) return 0;
        return 1;
    }
    if (!*p) return 0;
    if (which == 5 && is_digit(*p)) return 0;
    for (; *p; p++) {
        bool ok = which == 3 ? is_alpha(*p) || is_digit(*p) : which == 4 ? is_digit(*p)
                : is_alpha(*p) || is_digit(*p) || *p == '_' || *p >= 0x80;
        if (!ok) return 0;
    }
    return 1;
}

/* s.index(sub) / s.rindex(sub): find's position, ValueError when missing. */
int64_t kj_rt_str_index(kj_rt *rt, const char *s, const char *sub, int32_t right, int32_t line, int32_t col)
{
    int64_t i = kj_rt_str_find(rt, s, sub, right ? 1 : 0);
    if (i < 0) kj_rt_raise(rt, KJ_RT_VALUE, "substring not found", line, col);
    return i;
}

static size_t cp_len(const char *p)
{
    size_t n = 1;
    while (p[n] && (p[n] & 0xC0) == 0x80) n++;
    return n;
}

/* Whether the code point p[0:n] is one of those in chars. */
static bool in_chars(const char *chars, const char *p, size_t n)
{
    for (const char *c = chars; *c; c += cp_len(c))
        if (cp_len(c) == n && !memcmp(c, p, n)) return true;
    return false;
}

/* s.strip(chars) (which 0), lstrip (1), rstrip (2): code points in chars removed from the ends. */
void *kj_rt_str_strip_chars(kj_rt *rt, const char *s, const char *chars, int32_t which)
{
    size_t a = 0, b = strlen(s);
    while (which != 2 && a < b && in_chars(chars, s + a, cp_len(s + a))) a += cp_len(s + a);
    while (which != 1 && b > a) {
        size_t c = b - 1;
        while (c > a && (s[c] & 0xC0) == 0x80) c--;
        if (!in_chars(chars, s + c, b - c)) break;
        b = c;
    }
    return kj_rt_str_own_n(rt, s + a, b - a);
}

/* s.center/ljust/rjust(width, fillchar): which as kj_rt_str_pad (1 center, 2 ljust, 3 rjust). */
void *kj_rt_str_pad_fill(kj_rt *rt, const char *s, int64_t width, int32_t which, const char *fill, int32_t line,
                         int32_t col)
{
    if (!*fill || fill[cp_len(fill)])
        kj_rt_raise(rt, KJ_RT_TYPE, "The fill character must be exactly one character long", line, col);
    int64_t n = kj_rt_str_len(rt, s), pad = width > n ? width - n : 0;
    int64_t left = which == 3 ? pad : which == 2 ? 0 : pad / 2 + (pad & width & 1);
    kj_buf o = {0};
    for (int64_t k = 0; k < left; k++) kj_buf_puts(&o, fill);
    kj_buf_puts(&o, s);
    for (int64_t k = left; k < pad; k++) kj_buf_puts(&o, fill);
    char *r = kj_rt_str_own_n(rt, o.s ? o.s : "", o.s ? o.n : 0);
    kj_buf_free(&o);
    return r;
}
