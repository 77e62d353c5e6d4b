/* SPDX-License-Identifier: BSD-2-Clause */
/* Printing as Python and NumPy do (see format.h).
 *
 * The float digits come from Dragon4 as NumPy implements it
 * (numpy/core/src/multiarray/dragon4.c, after Ryan Juckett's write-up of
 * Steele & White and Burger & Dybvig): exact big-integer arithmetic that
 * generates digits until the value is uniquely identified (or a cutoff is
 * reached), then rounds the last digit. Its "shortest, closest" output is
 * also what Python's repr(float) prints. The array layout follows
 * numpy/core/arrayprint.py (_formatArray, FloatingFormat, IntegerFormat). */
#include "format.h"

#include "../abi/abi_datetime.h"
#include "../util/npdatetime.h"
#include "half.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Big integers: just what Dragon4 needs                                     */
/* ------------------------------------------------------------------------ */

/* 2560 bits: float64 values scaled by at most 10**324 need about 1200. */
enum { BIG_BLOCKS = 80 };

typedef struct {
    int len; /* blocks in use; 0 is zero */
    uint32_t b[BIG_BLOCKS];
} big;

static void big_trim(big *x)
{
    while (x->len > 0 && x->b[x->len - 1] == 0) x->len--;
}

static void big_set(big *x, uint64_t v)
{
    x->b[0] = (uint32_t)v;
    x->b[1] = (uint32_t)(v >> 32);
    x->len = 2;
    big_trim(x);
}

static void big_mul_small(big *x, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < x->len; i++) {
        uint64_t p = (uint64_t)x->b[i] * m + carry;
        x->b[i] = (uint32_t)p;
        carry = p >> 32;
    }
    if (carry && x->len < BIG_BLOCKS) x->b[x->len++] = (uint32_t)carry;
}

static void big_shl(big *x, int n)
{
    if (x->len == 0 || n == 0) return;
    int words = n / 32, bits = n % 32;
    int newlen = x->len + words + 1;
    if (newlen > BIG_BLOCKS) newlen = BIG_BLOCKS;
    for (int i = newlen - 1; i >= 0; i--) {
        int src = i - words;
        uint32_t hi = src >= 0 && src < x->len ? x->b[src] : 0;
        uint32_t lo = src - 1 >= 0 && src - 1 < x->len ? x->b[src - 1] : 0;
        x->b[i] = bits ? (hi << bits | lo >> (32 - bits)) : hi;
    }
    x->len = newlen;
    big_trim(x);
}

static void big_pow2(big *x, int n)
{
    big_set(x, 1);
    big_shl(x, n);
}

static void big_mul_pow10(big *x, int n)
{
    for (; n >= 9; n -= 9) big_mul_small(x, 1000000000u);
    static const uint32_t p10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (n > 0) big_mul_small(x, p10[n]);
}

static int big_cmp(const big *x, const big *y)
{
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    for (int i = x->len - 1; i >= 0; i--)
        if (x->b[i] != y->b[i]) return x->b[i] < y->b[i] ? -1 : 1;
    return 0;
}

static void big_add(big *r, const big *x, const big *y)
{
    int n = x->len > y->len ? x->len : y->len;
    uint64_t carry = 0;
    for (int i = 0; i < n; i++) {
        uint64_t s = carry + (i < x->len ? x->b[i] : 0) + (i < y->len ? y->b[i] : 0);
        r->b[i] = (uint32_t)s;
        carry = s >> 32;
    }
    r->len = n;
    if (carry && n < BIG_BLOCKS) r->b[r->len++] = (uint32_t)carry;
}

static void big_sub(big *x, const big *y) /* x -= y, x >= y */
{
    int64_t borrow = 0;
    for (int i = 0; i < x->len; i++) {
        int64_t d = (int64_t)x->b[i] - (i < y->len ? y->b[i] : 0) - borrow;
        borrow = d < 0;
        x->b[i] = (uint32_t)(d + (borrow ? (INT64_C(1) << 32) : 0));
    }
    big_trim(x);
}

/* The digit floor(x / scale) (known to be < 10); x becomes the remainder. */
static int big_divmod_digit(big *x, const big *scale)
{
    int q = 0;
    while (big_cmp(x, scale) >= 0) {
        big_sub(x, scale);
        q++;
    }
    return q;
}

/* ------------------------------------------------------------------------ */
/* Dragon4                                                                   */
/* ------------------------------------------------------------------------ */

/* A finite float as mantissa * 2**exponent, with the index of the top
 * mantissa bit and whether the gap to the next float down is half the gap
 * up (an exact power of two that is not the smallest normal). */
typedef struct {
    uint64_t mantissa;
    int exponent, mantissa_bit;
    bool unequal_margins, negative;
} fparts;

static int log2_u64(uint64_t v)
{
    int r = -1;
    while (v) v >>= 1, r++;
    return r;
}

/* fbits: 16, 32 or 64, the float type whose digits are wanted (x holds a
 * value of that type). */
static fparts decompose(double x, int fbits)
{
    fparts f;
    int mbits = fbits == 16 ? 10 : fbits == 32 ? 23 : 52, bias = fbits == 16 ? 15 : fbits == 32 ? 127 : 1023;
    uint64_t bits, m, e;
    if (fbits == 16) {
        bits = kj_half_from_double(x);
        f.negative = bits >> 15;
        e = (bits >> 10) & 0x1f;
    } else if (fbits == 32) {
        float v = (float)x;
        uint32_t b32;
        memcpy(&b32, &v, 4);
        bits = b32;
        f.negative = b32 >> 31;
        e = (bits >> 23) & 0xff;
    } else {
        memcpy(&bits, &x, 8);
        f.negative = bits >> 63;
        e = (bits >> 52) & 0x7ff;
    }
    m = bits & ((UINT64_C(1) << mbits) - 1);
    if (e != 0) {
        f.mantissa = (UINT64_C(1) << mbits) | m;
        f.exponent = (int)e - bias - mbits;
        f.mantissa_bit = mbits;
        f.unequal_margins = e != 1 && m == 0;
    } else {
        f.mantissa = m;
        f.exponent = 1 - bias - mbits;
        f.mantissa_bit = log2_u64(m);
        f.unequal_margins = false;
    }
    return f;
}

enum { D4_BUFSIZE = 64 }; /* most digits we ever generate */

typedef struct {
    bool fraction_cutoff; /* cutoffs count digits after the point, else total */
    int cutoff_max;       /* -1: none */
    int cutoff_min;       /* -1: none */
} d4_cutoff;

/* Scale value and margins so that value/scale is in [0.1, 1) ... [1, 10)
 * before the first digit; returns the exponent estimate (NumPy's
 * ceil((mantissaBit + exponent) * log10(2) - 0.69), corrected). */
static int d4_scale(const fparts *f, const d4_cutoff *c, big *value, big *scale, big *mlow,
                    big *mhigh)
{
    int e = f->exponent, shift = f->unequal_margins ? 2 : 1;
    big_set(value, f->mantissa);
    if (e > 0) {
        big_shl(value, e + shift);
        big_set(scale, (uint64_t)1 << shift);
        big_pow2(mlow, e);
    } else {
        big_shl(value, shift);
        big_pow2(scale, -e + shift);
        big_set(mlow, 1);
    }
    int dexp = (int)ceil((double)(f->mantissa_bit + e) * 0.30102999566398119521 - 0.69);
    /* a fractional cutoff below the first digit: start at the cutoff, and
     * the digits generated round there */
    if (c->cutoff_max >= 0 && c->fraction_cutoff && dexp <= -c->cutoff_max)
        dexp = -c->cutoff_max + 1;
    if (dexp > 0) big_mul_pow10(scale, dexp);
    else if (dexp < 0) big_mul_pow10(value, -dexp), big_mul_pow10(mlow, -dexp);
    if (big_cmp(value, scale) >= 0) {
        dexp++;
    } else {
        big_mul_small(value, 10);
        big_mul_small(mlow, 10);
    }
    *mhigh = *mlow;
    if (f->unequal_margins) big_mul_small(mhigh, 2);
    return dexp;
}

/* Generate the digits of |x| into buf; *out_exp is the decimal exponent of
 * the first digit. Digits stop once the value is unambiguous (low: the
 * remainder is within the lower margin, high: within the upper one), but
 * not before cutoff_min and no later than cutoff_max; the last digit is
 * rounded toward the side that keeps it unique, or to nearest (ties even)
 * when both or neither do. */
static int dragon4(const fparts *f, const d4_cutoff *c, char *buf, int *out_exp)
{
    if (f->mantissa == 0) {
        buf[0] = '0';
        *out_exp = 0;
        return 1;
    }
    big value, scale, mlow, mhigh, high_val;
    int dexp = d4_scale(f, c, &value, &scale, &mlow, &mhigh);
    bool is_even = (f->mantissa & 1) == 0;
    int cut_max = dexp - D4_BUFSIZE, cut_min = dexp;
    if (c->cutoff_max >= 0) {
        int want = c->fraction_cutoff ? -c->cutoff_max : dexp - c->cutoff_max;
        if (want > cut_max) cut_max = want;
    }
    if (c->cutoff_min >= 0) {
        int want = c->fraction_cutoff ? -c->cutoff_min : dexp - c->cutoff_min;
        if (want < cut_min) cut_min = want;
    }
    *out_exp = dexp - 1;
    int n = 0, digit;
    bool low, high;
    for (;;) {
        dexp--;
        digit = big_divmod_digit(&value, &scale);
        big_add(&high_val, &value, &mhigh);
        int cl = big_cmp(&value, &mlow), ch = big_cmp(&high_val, &scale);
        low = is_even ? cl <= 0 : cl < 0;
        high = is_even ? ch >= 0 : ch > 0;
        if (((low || high) && dexp <= cut_min) || dexp == cut_max) break;
        buf[n++] = (char)('0' + digit);
        big_mul_small(&value, 10);
        big_mul_small(&mlow, 10);
        mhigh = mlow;
        if (f->unequal_margins) big_mul_small(&mhigh, 2);
    }
    bool round_down = low;
    if (low == high) { /* compare the remainder with one half */
        big_mul_small(&value, 2);
        int cmp = big_cmp(&value, &scale);
        round_down = cmp < 0 || (cmp == 0 && (digit & 1) == 0);
    }
    if (round_down) {
        buf[n++] = (char)('0' + digit);
    } else if (digit < 9) {
        buf[n++] = (char)('0' + digit + 1);
    } else { /* carry through the nines */
        while (n > 0 && buf[n - 1] == '9') n--;
        if (n == 0) buf[n++] = '1', (*out_exp)++;
        else buf[n - 1]++;
    }
    return n;
}

int kj_dragon4_shortest(double x, bool is_f32, char *digits, int *exp10)
{
    fparts f = decompose(x, is_f32 ? 32 : 64);
    d4_cutoff c = {false, -1, -1};
    int n = dragon4(&f, &c, digits, exp10);
    digits[n] = 0;
    return n;
}

/* ------------------------------------------------------------------------ */
/* Positional and scientific layout (NumPy's FormatPositional/Scientific)    */
/* ------------------------------------------------------------------------ */

typedef enum {
    TRIM_NONE,      /* 'k': keep trailing zeros and the point */
    TRIM_ONE_ZERO,  /* '0': trim zeros but keep one after the point */
    TRIM_ZEROS,     /* '.': trim zeros, keep the point */
    TRIM_DPT_ZEROS, /* '-': trim zeros and the point */
} trim_mode;

typedef struct {
    bool scientific, is_f32;
    bool fraction_cutoff; /* positional: precision counts fractional digits */
    int precision;        /* -1: unique digits only */
    int min_digits;       /* -1: none */
    trim_mode trim;
    int pad_left, pad_right, exp_digits; /* -1: none / default */
    bool plus;            /* a '+' before non-negative values (NumPy's sign='+', complex imaginary parts) */
    bool is_f16;          /* float16's digits (is_f32 is then false) */
} fmt_opts;

/* Trailing-zero and point trimming shared by both layouts; `s` holds the
 * number, *nfrac its fractional digit count. */
static void trim_tail(char *s, int *len, int *nfrac, trim_mode trim, bool positional)
{
    if (trim == TRIM_NONE || *nfrac == 0) return;
    while (s[*len - 1] == '0') (*len)--, (*nfrac)--;
    if (s[*len - 1] == '.') {
        if (trim == TRIM_ONE_ZERO) s[(*len)++] = '0', (*nfrac)++;
        else if (trim == TRIM_DPT_ZEROS && positional) (*len)--;
    }
}

/* Append `count` copies of c. */
static int fill(char *s, int len, char c, int count)
{
    for (int i = 0; i < count; i++) s[len++] = c;
    return len;
}

static int format_positional(char *s, const fparts *f, const fmt_opts *o)
{
    char d[D4_BUFSIZE + 8];
    d4_cutoff c = {o->fraction_cutoff, o->precision, o->min_digits};
    int pexp, n = dragon4(f, &c, d, &pexp);
    int len = 0, whole, nfrac = 0;
    if (f->negative || o->plus) s[len++] = f->negative ? '-' : '+';
    if (pexp >= 0) {
        whole = pexp + 1;
        if (n <= whole) {
            memcpy(s + len, d, (size_t)n);
            len = fill(s, len + n, '0', whole - n);
        } else {
            memcpy(s + len, d, (size_t)whole);
            len += whole;
            s[len++] = '.';
            memcpy(s + len, d + whole, (size_t)(n - whole));
            len += nfrac = n - whole;
        }
    } else {
        whole = 1;
        s[len++] = '0';
        s[len++] = '.';
        len = fill(s, len, '0', -(pexp + 1));
        memcpy(s + len, d, (size_t)n);
        len += n;
        nfrac = -(pexp + 1) + n;
    }
    if (o->trim != TRIM_DPT_ZEROS && nfrac == 0) s[len++] = '.';
    int want = o->min_digits < 0 ? 0 : o->min_digits;
    if (!o->fraction_cutoff) want = o->min_digits - whole;
    if (o->trim == TRIM_ONE_ZERO && nfrac == 0) s[len++] = '0', nfrac++;
    else if (o->trim == TRIM_NONE && want > nfrac)
        len = fill(s, len, '0', want - nfrac), nfrac = want;
    trim_tail(s, &len, &nfrac, o->trim, true);
    if (o->pad_right >= nfrac) {
        if (o->trim == TRIM_DPT_ZEROS && nfrac == 0) s[len++] = ' ';
        len = fill(s, len, ' ', o->pad_right - nfrac);
    }
    int left = whole + (f->negative || o->plus ? 1 : 0);
    if (o->pad_left > left) {
        int shift = o->pad_left - left;
        memmove(s + shift, s, (size_t)len);
        memset(s, ' ', (size_t)shift);
        len += shift;
    }
    return len;
}

static int format_scientific(char *s, const fparts *f, const fmt_opts *o)
{
    int len = 0, left = 1 + (f->negative || o->plus ? 1 : 0);
    if (o->pad_left > left) len = fill(s, len, ' ', o->pad_left - left);
    if (f->negative || o->plus) s[len++] = f->negative ? '-' : '+';
    char d[D4_BUFSIZE + 8];
    d4_cutoff c = {false, o->precision < 0 ? -1 : o->precision + 1,
                   o->min_digits < 0 ? -1 : o->min_digits + 1};
    int pexp, n = dragon4(f, &c, d, &pexp);
    s[len++] = d[0];
    int nfrac = n - 1;
    if (nfrac > 0) {
        s[len++] = '.';
        memcpy(s + len, d + 1, (size_t)nfrac);
        len += nfrac;
    }
    if (o->trim != TRIM_DPT_ZEROS && nfrac == 0) s[len++] = '.';
    int want = o->min_digits < 0 ? 0 : o->min_digits;
    if (o->trim == TRIM_ONE_ZERO && nfrac == 0) s[len++] = '0', nfrac++;
    else if (o->trim == TRIM_NONE && want > nfrac)
        len = fill(s, len, '0', want - nfrac), nfrac = want;
    trim_tail(s, &len, &nfrac, o->trim, false);
    int ex = pexp < 0 ? -pexp : pexp, width = o->exp_digits < 0 ? 2 : o->exp_digits;
    if (width > 5) width = 5;
    len += sprintf(s + len, "e%c%0*d", pexp < 0 ? '-' : '+', width, ex);
    return len;
}

/* Format a finite value; returns the length written to s (>= 160 bytes). */
static int format_float(char *s, double x, const fmt_opts *o)
{
    fparts f = decompose(x, o->is_f16 ? 16 : o->is_f32 ? 32 : 64);
    int n = o->scientific ? format_scientific(s, &f, o) : format_positional(s, &f, o);
    s[n] = 0;
    return n;
}

/* ------------------------------------------------------------------------ */
/* Scalars                                                                   */
/* ------------------------------------------------------------------------ */

static bool put_nonfinite(kj_buf *b, double x)
{
    if (isnan(x)) kj_buf_puts(b, "nan");
    else if (isinf(x)) kj_buf_puts(b, x < 0 ? "-inf" : "inf");
    else return false;
    return true;
}

/* Python's float_repr_style 'r': positional iff -4 <= exponent < 16, with
 * at least one fractional digit; scientific drops a bare point ("1e+16"). */
void kj_fmt_f64(kj_buf *b, double x)
{
    if (put_nonfinite(b, x)) return;
    char digits[D4_BUFSIZE];
    int e10;
    kj_dragon4_shortest(x, false, digits, &e10);
    bool positional = x == 0 || (e10 >= -4 && e10 < 16);
    fmt_opts o = {!positional, false, false, -1, -1, positional ? TRIM_ONE_ZERO : TRIM_DPT_ZEROS,
                  -1, -1, -1, false, false};
    char s[512];
    format_float(s, x, &o);
    kj_buf_puts(b, s);
}

/* NumPy's floattype_str: positional when x == 0 or 1e-4 <= |x| < 1e16
 * (compared in long double, as NumPy does), else scientific. */
void kj_fmt_f32(kj_buf *b, float x)
{
    if (put_nonfinite(b, x)) return;
    long double ax = fabsl((long double)x);
    bool positional = x == 0 || (ax >= 1.e-4L && ax < 1.e16L);
    fmt_opts o = {!positional, true, false, -1, -1, positional ? TRIM_ONE_ZERO : TRIM_DPT_ZEROS,
                  -1, -1, -1, false, false};
    char s[512];
    format_float(s, x, &o);
    kj_buf_puts(b, s);
}

/* NumPy's halftype_str: floattype_str's rule with float16's digits. */
void kj_fmt_f16(kj_buf *b, float x)
{
    if (put_nonfinite(b, x)) return;
    float ax = fabsf(x);
    bool positional = x == 0 || (ax >= 1.e-4f && ax < 1.e16f);
    fmt_opts o = {!positional, false, false, -1, -1, positional ? TRIM_ONE_ZERO : TRIM_DPT_ZEROS,
                  -1, -1, -1, false, true};
    char s[512];
    format_float(s, x, &o);
    kj_buf_puts(b, s);
}

void kj_fmt_i64(kj_buf *b, int64_t x) { kj_buf_printf(b, "%" PRId64, x); }
void kj_fmt_u64(kj_buf *b, uint64_t x) { kj_buf_printf(b, "%" PRIu64, x); }
void kj_fmt_bool(kj_buf *b, bool x) { kj_buf_puts(b, x ? "True" : "False"); }

void kj_fmt_scalar(kj_buf *b, kj_scalar s)
{
    switch (s.dtype) {
    case KJ_DT_BOOL: kj_fmt_bool(b, s.v.i != 0); break;
    case KJ_DT_FLOAT32: kj_fmt_f32(b, (float)s.v.f); break;
    case KJ_DT_FLOAT16: kj_fmt_f16(b, (float)s.v.f); break;
    case KJ_DT_FLOAT64: kj_fmt_f64(b, s.v.f); break;
    default:
        if (kj_dtype_is_signed(s.dtype)) kj_fmt_i64(b, s.v.i);
        else kj_fmt_u64(b, s.v.u);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Arrays (numpy/core/arrayprint.py with the default print options)         */
/* ------------------------------------------------------------------------ */

enum { LINEWIDTH = 75, THRESHOLD = 1000, EDGEITEMS = 3, PRECISION = 8 };

/* An element formatter: FloatingFormat, IntegerFormat or BoolFormat. */
typedef struct {
    kj_dtype dt;
    fmt_opts fo;    /* floats: the options every finite element uses */
    int pad_left, pad_right;
    int int_width;  /* ints: '%{width}d' */
    int dt_code;    /* datetime64 / timedelta64 elements: their print code + 1 (kj_fmt_dt_array), else 0 */
} elem_fmt;

typedef struct {
    const kj_array *a;
    bool summarise;
    elem_fmt ef;
    elem_fmt ef_im;  /* complex: the imaginary parts' FloatingFormat (sign='+'); ef is the real parts' */
    const char *sep; /* between elements: " " for str, ", " for repr */
    const kj_recfmt *rec; /* structured elements: their fields' formats in fields[] (else NULL) */
    elem_fmt *fields;
} print_ctx;

/* Visit the elements printing shows: all of them, or with summarisation
 * only the first and last EDGEITEMS along each longer axis
 * (_leading_trailing). */
typedef void (*visit_fn)(void *ctx, const char *elem);

static void visit_shown(const kj_array *a, bool summarise, int axis, const char *p, visit_fn fn,
                        void *ctx)
{
    if (axis == a->ndim) {
        fn(ctx, p);
        return;
    }
    int64_t len = a->shape[axis];
    for (int64_t i = 0; i < len; i++) {
        if (summarise && len > 2 * EDGEITEMS && i == EDGEITEMS) i = len - EDGEITEMS;
        visit_shown(a, summarise, axis + 1, p + i * a->strides[axis], fn, ctx);
    }
}

/* What FloatingFormat.fillFormat learns from the shown elements. */
typedef struct {
    kj_dtype dt;
    bool any_finite, any_nonfinite, neg_inf;
    double max_abs, min_abs; /* over finite non-zero values; min_abs 0 = none */
    fmt_opts probe;          /* the first-pass options */
    int pad_left, pad_right, exp_size, precision;
    int64_t imin, imax;
    uint64_t umax;
} scan_ctx;

static void scan_range(void *vctx, const char *p)
{
    scan_ctx *c = vctx;
    kj_scalar s = kj_elem_load(p, c->dt);
    if (!kj_dtype_is_float(c->dt)) {
        if (kj_dtype_is_signed(c->dt) || c->dt == KJ_DT_BOOL) {
            if (s.v.i < c->imin) c->imin = s.v.i;
            if (s.v.i > c->imax) c->imax = s.v.i;
        } else if (s.v.u > c->umax) {
            c->umax = s.v.u;
        }
        return;
    }
    double x = s.v.f;
    if (!isfinite(x)) {
        c->any_nonfinite = true;
        if (isinf(x) && x < 0) c->neg_inf = true;
        return;
    }
    c->any_finite = true;
    double ax = fabs(x);
    if (ax == 0) return;
    if (ax > c->max_abs) c->max_abs = ax;
    if (c->min_abs == 0 || ax < c->min_abs) c->min_abs = ax;
}

/* First pass: format each finite value with precision 8 and trim '.' and
 * measure the integer, fraction and exponent parts. */
static void scan_widths(void *vctx, const char *p)
{
    scan_ctx *c = vctx;
    double x = kj_elem_load(p, c->dt).v.f;
    if (!isfinite(x)) return;
    char s[512];
    format_float(s, x, &c->probe);
    char *e = strchr(s, 'e'), *dot = strchr(s, '.');
    int int_len = (int)(dot - s);
    int frac_len = (int)((e ? e : s + strlen(s)) - dot - 1);
    if (int_len > c->pad_left) c->pad_left = int_len;
    if (frac_len > c->precision) c->precision = frac_len;
    if (e && (int)strlen(e + 1) - 1 > c->exp_size) c->exp_size = (int)strlen(e + 1) - 1;
}

/* FloatingFormat(data, precision=8, floatmode='maxprec', suppress=False,
 * sign='+' when `plus`). */
static void float_format_init(const kj_array *a, bool summarise, elem_fmt *ef, bool plus)
{
    scan_ctx c = {.dt = a->dtype};
    visit_shown(a, summarise, 0, a->data, scan_range, &c);
    bool is_f32 = a->dtype == KJ_DT_FLOAT32, is_f16 = a->dtype == KJ_DT_FLOAT16;
    bool exp_format = false;
    if (c.min_abs != 0) {
        /* the ratio is computed in the array's type */
        double ratio = is_f32 ? (double)((float)c.max_abs / (float)c.min_abs)
                       : is_f16 ? kj_half_to_double(kj_half_from_double(c.max_abs / c.min_abs))
                                : c.max_abs / c.min_abs;
        exp_format = c.max_abs >= 1e8 || c.min_abs < 0.0001 || ratio > 1000.0;
    }
    fmt_opts o = {exp_format, is_f32, true, PRECISION, -1, TRIM_ZEROS, -1, -1, -1, plus, is_f16};
    c.probe = o;
    c.exp_size = -1;
    c.precision = 0;
    visit_shown(a, summarise, 0, a->data, scan_widths, &c);
    if (!c.any_finite) {
        c.pad_left = c.pad_right = 0;
    } else if (exp_format) {
        o.trim = TRIM_NONE;
        o.precision = o.min_digits = c.precision;
        o.exp_digits = c.exp_size;
        c.pad_right = c.exp_size + 2 + c.precision;
    } else {
        c.pad_right = c.precision; /* the longest fraction */
        o.min_digits = 0;
    }
    if (c.any_nonfinite) { /* room for nan / inf / -inf */
        int offset = c.pad_right + 1, inflen = 3 + (c.neg_inf || plus ? 1 : 0);
        if (3 - offset > c.pad_left) c.pad_left = 3 - offset;
        if (inflen - offset > c.pad_left) c.pad_left = inflen - offset;
    }
    o.pad_left = c.pad_left;
    o.pad_right = exp_format ? -1 : c.pad_right;
    ef->fo = o;
    ef->dt = a->dtype;
    ef->pad_left = c.pad_left;
    ef->pad_right = c.pad_right;
}

/* IntegerFormat: the width of the longer of str(max) and str(min). */
static void int_format_init(const kj_array *a, bool summarise, elem_fmt *ef)
{
    scan_ctx c = {.dt = a->dtype, .imin = INT64_MAX, .imax = INT64_MIN};
    visit_shown(a, summarise, 0, a->data, scan_range, &c);
    char s[32];
    int w;
    if (kj_dtype_is_signed(a->dtype)) {
        w = snprintf(s, sizeof s, "%" PRId64, c.imax);
        int w2 = snprintf(s, sizeof s, "%" PRId64, c.imin);
        ef->int_width = w > w2 ? w : w2;
    } else {
        ef->int_width = snprintf(s, sizeof s, "%" PRIu64, c.umax);
    }
}

/* One float with its FloatingFormat; nan and inf right-aligned in the
 * field, signed when the format is (sign='+'). */
static void format_part(const elem_fmt *ef, double x, kj_buf *out)
{
    if (!isfinite(x)) {
        const char *r = isnan(x) ? (ef->fo.plus ? "+nan" : "nan") : x < 0 ? "-inf" : ef->fo.plus ? "+inf" : "inf";
        kj_buf_printf(out, "%*s", ef->pad_left + ef->pad_right + 1, r);
        return;
    }
    char str[512];
    format_float(str, x, &ef->fo);
    kj_buf_puts(out, str);
}

/* ComplexFloatingFormat: the real part, then the imaginary part with 'j'
 * before its trailing padding. */
static void format_complex_elem(const print_ctx *c, const char *p, kj_buf *out)
{
    bool f32 = c->a->dtype == KJ_DT_COMPLEX64;
    double re = f32 ? ((const float *)(const void *)p)[0] : ((const double *)(const void *)p)[0];
    double im = f32 ? ((const float *)(const void *)p)[1] : ((const double *)(const void *)p)[1];
    format_part(&c->ef, re, out);
    kj_buf b = {0};
    format_part(&c->ef_im, im, &b);
    size_t n = b.n;
    while (n > 0 && b.s[n - 1] == ' ') n--;
    kj_buf_putn(out, b.s, n);
    kj_buf_putc(out, 'j');
    kj_buf_putn(out, b.s + n, b.n - n);
    kj_buf_free(&b);
}

static void format_record_elem(const print_ctx *c, const char *p, kj_buf *out);

static void format_elem(const print_ctx *c, const char *p, kj_buf *out)
{
    if (c->rec) {
        format_record_elem(c, p, out);
        return;
    }
    if (c->ef.dt_code) { /* datetime.c */
        kj_fmt_dt_elem(out, kj_elem_load(p, KJ_DT_INT64).v.i, c->ef.dt_code - 1, c->ef.int_width);
        return;
    }
    if (c->a->dtype == KJ_DT_COMPLEX64 || c->a->dtype == KJ_DT_COMPLEX128) {
        format_complex_elem(c, p, out);
        return;
    }
    const elem_fmt *ef = &c->ef;
    kj_scalar s = kj_elem_load(p, ef->dt);
    if (ef->dt == KJ_DT_BOOL) {
        kj_buf_puts(out, s.v.i ? " True" : "False");
    } else if (kj_dtype_is_int(ef->dt)) {
        if (kj_dtype_is_signed(ef->dt)) kj_buf_printf(out, "%*" PRId64, ef->int_width, s.v.i);
        else kj_buf_printf(out, "%*" PRIu64, ef->int_width, s.v.u);
    } else if (!isfinite(s.v.f)) {
        const char *r = isnan(s.v.f) ? "nan" : s.v.f < 0 ? "-inf" : "inf";
        kj_buf_printf(out, "%*s", ef->pad_left + ef->pad_right + 1, r);
    } else {
        char str[512];
        format_float(str, s.v.f, &ef->fo);
        kj_buf_puts(out, str);
    }
}

/* _extendLine: start a new line (at the hanging indent) when the word does
 * not fit, unless the line holds nothing but the indent. */
static void extend_line(kj_buf *s, kj_buf *line, const char *word, int width, int indent)
{
    size_t wl = strlen(word);
    if (line->n + wl > (size_t)width && line->n > (size_t)indent) {
        size_t n = line->n;
        while (n > 0 && line->s[n - 1] == ' ') n--;
        kj_buf_putn(s, line->s, n);
        kj_buf_putc(s, '\n');
        line->n = 0;
        for (int i = 0; i < indent; i++) kj_buf_putc(line, ' ');
    }
    kj_buf_puts(line, word);
}

static void recurse(const print_ctx *c, int axis, const char *p, int indent, int width,
                    kj_buf *out);

/* The last axis: elements separated by spaces, wrapped at the width. */
static void format_row(const print_ctx *c, int axis, const char *p, int indent, int width,
                       kj_buf *s)
{
    int64_t len = c->a->shape[axis], st = c->a->strides[axis];
    bool summary = c->summarise && 2 * EDGEITEMS < len;
    int elem_width = width - 1; /* room for the ']' */
    kj_buf line = {0}, word = {0};
    for (int i = 0; i < indent; i++) kj_buf_putc(&line, ' ');
    for (int64_t i = 0; i < len; i++) {
        if (summary && i == EDGEITEMS) {
            extend_line(s, &line, "...", elem_width, indent);
            kj_buf_puts(&line, c->sep);
            i = len - EDGEITEMS;
        }
        word.n = 0;
        recurse(c, axis + 1, p + i * st, indent + 1, width - 1, &word);
        extend_line(s, &line, word.s, elem_width, indent);
        if (i < len - 1) kj_buf_puts(&line, c->sep);
    }
    kj_buf_putn(s, line.s, line.n);
    kj_buf_free(&line);
    kj_buf_free(&word);
}

/* Outer axes: nested blocks, one per line, separated by the separator
 * without its space (repr's ",") and ndim-1-axis blank lines' worth of
 * newlines; "..." replaces the middle when summarising. */
static void format_block(const print_ctx *c, int axis, const char *p, int indent, int width,
                         kj_buf *s)
{
    int64_t len = c->a->shape[axis], st = c->a->strides[axis];
    bool summary = c->summarise && 2 * EDGEITEMS < len;
    int newlines = c->a->ndim - axis - 1;
    size_t seplen = strlen(c->sep);
    while (seplen && c->sep[seplen - 1] == ' ') seplen--;
    kj_buf nested = {0};
    for (int64_t i = 0; i < len; i++) {
        if (summary && i == EDGEITEMS) {
            for (int k = 0; k < indent; k++) kj_buf_putc(s, ' ');
            kj_buf_puts(s, "...");
            kj_buf_putn(s, c->sep, seplen);
            for (int k = 0; k < newlines; k++) kj_buf_putc(s, '\n');
            i = len - EDGEITEMS;
        }
        nested.n = 0;
        recurse(c, axis + 1, p + i * st, indent + 1, width - 1, &nested);
        for (int k = 0; k < indent; k++) kj_buf_putc(s, ' ');
        kj_buf_putn(s, nested.s, nested.n);
        if (i < len - 1) {
            kj_buf_putn(s, c->sep, seplen);
            for (int k = 0; k < newlines; k++) kj_buf_putc(s, '\n');
        }
    }
    kj_buf_free(&nested);
}

/* _formatArray's recurser: the text of the sub-array at `p` from `axis`,
 * "[" + body without its first hanging indent + "]". */
static void recurse(const print_ctx *c, int axis, const char *p, int indent, int width,
                    kj_buf *out)
{
    if (axis == c->a->ndim) {
        format_elem(c, p, out);
        return;
    }
    kj_buf s = {0};
    if (axis == c->a->ndim - 1) format_row(c, axis, p, indent, width, &s);
    else format_block(c, axis, p, indent, width, &s);
    kj_buf_putc(out, '[');
    kj_buf_putn(out, s.s + indent, s.n - (size_t)indent);
    kj_buf_putc(out, ']');
    kj_buf_free(&s);
}

/* array2string(a, separator=sep, prefix=...) of a non-empty array with at
 * least one dimension: `indent` is the hanging indent of continuation lines
 * (1 for "[", plus the prefix's length), `width` the line width. */
static void array2string(kj_buf *b, const kj_array *a, const char *sep, int indent, int width)
{
    print_ctx c = {a, kj_array_size(a) > THRESHOLD, {.dt = a->dtype}, {.dt = a->dtype}, sep, NULL, NULL};
    if (kj_dtype_is_float(a->dtype)) float_format_init(a, c.summarise, &c.ef, false);
    else if (kj_dtype_is_int(a->dtype)) int_format_init(a, c.summarise, &c.ef);
    else if (a->dtype == KJ_DT_COMPLEX64 || a->dtype == KJ_DT_COMPLEX128) {
        /* the real and the imaginary parts as float arrays of the same strides */
        kj_array part = {.data = a->data, .ndim = a->ndim,
                         .dtype = a->dtype == KJ_DT_COMPLEX64 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64};
        memcpy(part.shape, a->shape, sizeof part.shape);
        memcpy(part.strides, a->strides, sizeof part.strides);
        float_format_init(&part, c.summarise, &c.ef, false);
        part.data += kj_dtype_size(part.dtype);
        float_format_init(&part, c.summarise, &c.ef_im, true);
    }
    recurse(&c, 0, a->data, indent, width, b);
}

void kj_fmt_array(kj_buf *b, const kj_array *a)
{
    if (a->ndim == 0) {
        kj_fmt_scalar(b, kj_elem_load(a->data, a->dtype));
        return;
    }
    if (kj_array_size(a) == 0) {
        kj_buf_puts(b, "[]");
        return;
    }
    array2string(b, a, " ", 1, LINEWIDTH);
}

/* NumPy's array_repr: "array(" + array2string with ", " between elements
 * (continuation lines indented under the "[", the line width less the
 * closing suffix) + ")", and ", dtype=T)" unless T is implied (float64,
 * int64, bool) for a non-empty array; the dtype goes on a line of its own
 * when it would pass the line width. complex128 is implied too. */
void kj_fmt_array_repr(kj_buf *b, const kj_array *a)
{
    static const char prefix[] = "array(";
    int plen = (int)sizeof prefix - 1;
    int64_t size = kj_array_size(a);
    bool implied = size > 0 && (a->dtype == KJ_DT_FLOAT64 || a->dtype == KJ_DT_INT64 || a->dtype == KJ_DT_BOOL ||
                                a->dtype == KJ_DT_COMPLEX128);
    size_t start = b->n;
    kj_buf_puts(b, prefix);
    if (a->ndim == 0) {
        kj_fmt_scalar(b, kj_elem_load(a->data, a->dtype));
    } else if (size > 0) {
        array2string(b, a, ", ", 1 + plen, LINEWIDTH - 1); /* the suffix: ")" or "," */
    } else {
        kj_buf_puts(b, "[]");
        if (a->ndim != 1 || a->shape[0] != 0) {
            kj_buf_puts(b, ", shape=(");
            for (int k = 0; k < a->ndim; k++) kj_buf_printf(b, "%s%" PRId64, k ? ", " : "", a->shape[k]);
            kj_buf_puts(b, a->ndim == 1 ? ",)" : ")");
        }
    }
    if (implied) {
        kj_buf_putc(b, ')');
        return;
    }
    kj_buf_putc(b, ',');
    size_t line_start = start;
    for (size_t k = start; k < b->n; k++)
        if (b->s[k] == '\n') line_start = k + 1;
    const char *dt = kj_dtype_name(a->dtype);
    size_t dtype_len = strlen("dtype=)") + strlen(dt);
    if (b->n - line_start + dtype_len + 1 > LINEWIDTH) kj_buf_printf(b, "\n%*s", plen, "");
    else kj_buf_putc(b, ' ');
    kj_buf_printf(b, "dtype=%s)", dt);
}

/* _TimelikeFormat's width: the longest shown element's text (NaT's "'NaT'" included). */
static void scan_dt_width(void *vctx, const char *p)
{
    print_ctx *c = vctx;
    kj_buf s = {0};
    kj_fmt_dt_elem(&s, kj_elem_load(p, KJ_DT_INT64).v.i, c->ef.dt_code - 1, 0);
    if ((int)s.n > c->ef.int_width) c->ef.int_width = (int)s.n;
    kj_buf_free(&s);
}

/* str(a) / repr(a) of datetime64 or timedelta64 elements (int64 `a`), as kj_fmt_array and
 * kj_fmt_array_repr, the dtype always named: dtype='datetime64[D]'. */
void kj_fmt_dt_array(kj_buf *b, const kj_array *a, int code, bool repr)
{
    print_ctx c = {a, kj_array_size(a) > THRESHOLD, {.dt = KJ_DT_INT64, .dt_code = code + 1}, {0},
                   repr ? ", " : " ", NULL, NULL};
    visit_shown(a, c.summarise, 0, a->data, scan_dt_width, &c);
    int plen = repr ? 6 : 0; /* "array(" */
    size_t start = b->n;
    if (repr) kj_buf_puts(b, "array(");
    if (a->ndim == 0) format_elem(&c, a->data, b);
    else if (kj_array_size(a) == 0) kj_buf_puts(b, "[]");
    else recurse(&c, 0, a->data, 1 + plen, LINEWIDTH - (repr ? 1 : 0), b);
    if (!repr) return;
    size_t line_start = start;
    for (size_t k = start; k < b->n; k++)
        if (b->s[k] == '\n') line_start = k + 1;
    char dt[40];
    snprintf(dt, sizeof dt, "'%s64[%s]'", code & KJ_DTP_DATETIME ? "datetime" : "timedelta",
             kj_dtu_name(code & 0xff));
    bool wrap = b->n - line_start + strlen("dtype=)") + strlen(dt) + 2 > LINEWIDTH;
    kj_buf_printf(b, ",%s%*sdtype=%s)", wrap ? "\n" : " ", wrap ? plen : 0, "", dt);
}

/* ---- structured (record) elements: StructuredVoidFormat ----------------- */

/* Each field's formatter is made from that field's column of the shown
 * elements (a view of the same shape and strides), as NumPy's
 * StructuredVoidFormat.from_data does; an element prints as "(f0, f1)",
 * "(f0,)" for one field. A 0-d record (np.void) prints its bools unpadded. */
static void format_record_elem(const print_ctx *c, const char *p, kj_buf *out)
{
    kj_buf_putc(out, '(');
    for (int f = 0; f < c->rec->n; f++) {
        print_ctx fc = {c->a, c->summarise, c->fields[f], {0}, c->sep, NULL, NULL};
        if (f) kj_buf_puts(out, ", ");
        const char *q = p + c->rec->off[f];
        if (c->rec->dt[f] == KJ_DT_BOOL && c->a->ndim == 0) kj_fmt_bool(out, *q != 0);
        else format_elem(&fc, q, out);
    }
    kj_buf_puts(out, c->rec->n == 1 ? ",)" : ")");
}

static void record_formats(print_ctx *c, const kj_array *a, const kj_recfmt *rf)
{
    c->rec = rf;
    c->fields = calloc((size_t)rf->n + 1, sizeof *c->fields);
    if (!c->fields) abort(); /* out of memory: the one failure that is not a value */
    for (int f = 0; f < rf->n; f++) {
        kj_array col = *a;
        col.data = a->data + rf->off[f];
        col.dtype = rf->dt[f];
        c->fields[f].dt = rf->dt[f];
        if (kj_dtype_is_float(rf->dt[f])) float_format_init(&col, c->summarise, &c->fields[f], false);
        else if (kj_dtype_is_int(rf->dt[f])) int_format_init(&col, c->summarise, &c->fields[f]);
    }
}

void kj_fmt_records(kj_buf *b, const kj_array *a, const kj_recfmt *rf, bool repr)
{
    print_ctx c = {a, kj_array_size(a) > THRESHOLD, {.dt = KJ_DT_UINT8}, {0}, repr ? ", " : " ", NULL, NULL};
    record_formats(&c, a, rf);
    static const char prefix[] = "array(";
    int plen = repr ? (int)sizeof prefix - 1 : 0;
    size_t start = b->n;
    if (repr && a->ndim) kj_buf_puts(b, prefix);
    if (a->ndim == 0) format_record_elem(&c, a->data, b);
    else if (kj_array_size(a) == 0) kj_buf_puts(b, "[]");
    else recurse(&c, 0, a->data, 1 + plen, LINEWIDTH - (repr ? 1 : 0), b);
    free(c.fields);
    if (!repr || !a->ndim) return;
    size_t line_start = start; /* the dtype on a line of its own when it would pass the width */
    for (size_t k = start; k < b->n; k++)
        if (b->s[k] == '\n') line_start = k + 1;
    bool wrap = b->n - line_start + strlen("dtype=)") + strlen(rf->descr) + 2 > LINEWIDTH;
    kj_buf_printf(b, ",%s%*sdtype=%s)", wrap ? "\n" : " ", wrap ? plen : 0, "", rf->descr);
}
