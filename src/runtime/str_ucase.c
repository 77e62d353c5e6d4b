/* SPDX-License-Identifier: BSD-2-Clause */
/* str case maps beyond ASCII (Numba's unicode type follows CPython's
 * str.upper/lower/title/swapcase/capitalize/casefold and islower/isupper/
 * istitle over all of Unicode). The per-character maps and classes are the
 * C library's for the C.UTF-8 locale (towupper_l, iswupper_l: glibc has
 * Unicode's simple case mappings there), asked through a locale object of
 * the call's own, so no process-wide setting changes. CPython's full
 * mappings add multi-character results and context; handled: ß (U+00DF)
 * uppercases to "SS", titlecases to "Ss" and casefolds to "ss", final sigma
 * casefolds to sigma, a capital sigma ending a word lowercases to ς (the
 * final-sigma rule), and the Latin digraphs titlecase to their titlecase
 * letters. Not handled: the rarer multi-letter mappings of
 * SpecialCasing.txt (ŉ, ǰ, ligatures like ﬁ).
 * ASCII strings never come here (the callers' loops are exact for them). */
#include "str_ucase.h"

#include "str.h"
#include "../util/buf.h"

#include <locale.h>
#include <string.h>
#include <wctype.h>

enum { SHARP_S = 0xDF, CAPITAL_SIGMA = 0x3A3, FINAL_SIGMA = 0x3C2 };

bool kj_str_is_ascii(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p >= 0x80) return false;
    return true;
}

/* The code point at *p (UTF-8, as kjit's strings are), *p moved past it;
 * a malformed byte stands for itself. */
static uint32_t next_cp(const unsigned char **p)
{
    const unsigned char *s = *p;
    int n = s[0] < 0x80 ? 0 : s[0] >= 0xF0 ? 3 : s[0] >= 0xE0 ? 2 : s[0] >= 0xC0 ? 1 : 0;
    uint32_t c = n ? (uint32_t)(s[0] & (0x3F >> n)) : s[0];
    for (int k = 1; k <= n; k++) {
        if ((s[k] & 0xC0) != 0x80) { /* truncated: the lead byte alone */
            *p = s + 1;
            return s[0];
        }
        c = c << 6 | (s[k] & 0x3F);
    }
    *p = s + n + 1;
    return c;
}

static void put_cp(kj_buf *o, uint32_t c)
{
    char b[4];
    int n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (n == 1) b[0] = (char)c;
    else {
        for (int k = n - 1; k > 0; k--, c >>= 6) b[k] = (char)(0x80 | (c & 0x3F));
        b[0] = (char)((0xF00 >> n) | c);
    }
    kj_buf_putn(o, b, (size_t)n);
}

static bool cased(uint32_t c, locale_t l)
{
    return iswupper_l((wint_t)c, l) || iswlower_l((wint_t)c, l) || towupper_l((wint_t)c, l) != (wint_t)c ||
           towlower_l((wint_t)c, l) != (wint_t)c;
}

/* The titlecase letter of the Latin digraphs (DŽ Dž dž, LJ Lj lj, NJ Nj nj, DZ Dz dz): the middle one of
 * each triple; 0 for any other c (its titlecase is its uppercase). */
static uint32_t digraph_title(uint32_t c)
{
    if (c >= 0x1C4 && c <= 0x1CC) return 0x1C5 + 3 * ((c - 0x1C4) / 3);
    return c >= 0x1F1 && c <= 0x1F3 ? 0x1F2 : 0;
}

/* c uppercased (title: titlecased) into o. */
static void put_upper(kj_buf *o, uint32_t c, bool title, locale_t l)
{
    if (c == SHARP_S) kj_buf_puts(o, title ? "Ss" : "SS");
    else if (title && digraph_title(c)) put_cp(o, digraph_title(c));
    else put_cp(o, (uint32_t)towupper_l((wint_t)c, l));
}

/* c lowercased (fold: casefolded, where final sigma is sigma) into o. */
static void put_lower(kj_buf *o, uint32_t c, bool fold, locale_t l)
{
    if (c == SHARP_S && fold) kj_buf_puts(o, "ss");
    else if (c == 0x3C2 && fold) put_cp(o, 0x3C3);
    else put_cp(o, (uint32_t)towlower_l((wint_t)c, l));
}

/* CPython's final sigma: a capital sigma after a cased letter and before no cased letter lowercases to
 * ς (U+03C2), elsewhere to σ. next: the text after the sigma. (CPython also skips case-ignorable
 * characters, apostrophes and combining marks, on both sides; here the neighbours themselves count.) */
static bool final_sigma(bool prev_cased, const unsigned char *next, locale_t l)
{
    if (!prev_cased) return false;
    if (!*next) return true;
    return !cased(next_cp(&next), l);
}

char *kj_str_ucase(struct kj_rt *rt, const char *s, kj_ucase which)
{
    locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (!l) return NULL;
    kj_buf o = {0};
    bool prev_cased = false, first = true;
    for (const unsigned char *p = (const unsigned char *)s; *p; first = false) {
        uint32_t c = next_cp(&p);
        bool up;
        switch (which) {
        case KJ_UC_UPPER: up = true; break;
        case KJ_UC_TITLE: up = !prev_cased; break;
        case KJ_UC_SWAPCASE: /* a titlecase letter (Dž) is neither: kept */
            up = (iswlower_l((wint_t)c, l) || c == SHARP_S) && digraph_title(c) != c;
            break;
        case KJ_UC_CAPITALIZE: up = first; break;
        default: up = false; break; /* lower, casefold */
        }
        if (which == KJ_UC_SWAPCASE && !up && (!iswupper_l((wint_t)c, l) || digraph_title(c) == c))
            put_cp(&o, c); /* uncased: kept */
        else if (up) put_upper(&o, c, which == KJ_UC_TITLE || which == KJ_UC_CAPITALIZE, l);
        else if (c == CAPITAL_SIGMA && which != KJ_UC_CASEFOLD && final_sigma(prev_cased, p, l))
            put_cp(&o, FINAL_SIGMA);
        else put_lower(&o, c, which == KJ_UC_CASEFOLD, l);
        prev_cased = cased(c, l);
    }
    freelocale(l);
    char *r = kj_rt_str_own_n(rt, o.s ? o.s : "", o.s ? o.n : 0);
    kj_buf_free(&o);
    return r;
}

int kj_str_ucased(const char *s, int which)
{
    locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (!l) return -1;
    bool any = false, prev = false, ok = true;
    for (const unsigned char *p = (const unsigned char *)s; *p && ok;) {
        uint32_t c = next_cp(&p);
        bool upper = iswupper_l((wint_t)c, l), lower = iswlower_l((wint_t)c, l), cs = cased(c, l);
        if (digraph_title(c) == c) upper = true, lower = which == 2 ? false : true; /* titlecase: istitle's upper,
                                                                                      isupper's and islower's other */
        if (which == 2) { /* istitle: upper only after uncased, lower only after cased */
            ok = !(upper && prev) && !(lower && !prev);
            prev = cs;
        } else {
            ok = which == 0 ? !upper : !lower;
        }
        any |= cs;
    }
    freelocale(l);
    return ok && any;
}
