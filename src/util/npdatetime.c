/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's datetime64 / timedelta64 values (npdatetime.h): units, NumPy's
 * unit rules, conversion, ISO 8601 parsing and printing, as NumPy 1.24's
 * datetime.c and datetime_strings.c do them. */
#include "npdatetime.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const UNIT_NAMES[KJ_DTU_COUNT] = {"Y", "M", "W", "B", "D", "h", "m", "s",
                                                     "ms", "us", "ns", "ps", "fs", "as", ""};

const char *kj_dtu_name(int unit) { return unit >= 0 && unit < KJ_DTU_COUNT ? UNIT_NAMES[unit] : "?"; }

int kj_dtu_parse(const char *s, size_t n)
{
    if (n == 0) return -1;
    for (int u = 0; u < KJ_DTU_GENERIC; u++)
        if (u != 3 && strlen(UNIT_NAMES[u]) == n && !memcmp(UNIT_NAMES[u], s, n)) return u;
    return -1;
}

int kj_dtu_common(int ua, bool dt_a, int ub, bool dt_b)
{
    if (ua == KJ_DTU_GENERIC) return ub;
    if (ub == KJ_DTU_GENERIC) return ua;
    if (ua == ub) return ua;
    /* a timedelta in years or months has no length in days */
    bool bad_a = !dt_a && kj_dtu_nonlinear(ua) && !kj_dtu_nonlinear(ub);
    bool bad_b = !dt_b && kj_dtu_nonlinear(ub) && !kj_dtu_nonlinear(ua);
    if (bad_a || bad_b) return -1;
    return ua > ub ? ua : ub;
}

/* ---- the calendar (proleptic Gregorian, days since 1970-01-01) ---- */

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = floordiv(y, 400);
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = floordiv(z, 146097);
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* ---- conversion ---- */

/* How many of unit u+1 make one u, for the linear units W .. as (B, 3, is skipped). */
static int64_t step_to_finer(int u)
{
    switch (u) {
    case KJ_DTU_W: return 7; /* to D */
    case KJ_DTU_D: return 24;
    case KJ_DTU_h: case KJ_DTU_m: return 60;
    default: return 1000; /* s .. fs */
    }
}

static int next_finer(int u) { return u == KJ_DTU_W ? KJ_DTU_D : u + 1; }

/* v of a linear unit `from` in the linear unit `to` (wrapping on overflow, as NumPy). */
static int64_t convert_linear(int64_t v, int from, int to)
{
    if (from < to) {
        for (int u = from; u < to; u = next_finer(u)) v = (int64_t)((uint64_t)v * (uint64_t)step_to_finer(u));
        return v;
    }
    int64_t div = 1;
    for (int u = to; u < from; u = next_finer(u)) div *= step_to_finer(u);
    return floordiv(v, div);
}

int64_t kj_npdt_convert(int64_t v, int from, int to, bool is_datetime)
{
    if (v == KJ_NAT || from == to || from == KJ_DTU_GENERIC || to == KJ_DTU_GENERIC) return v;
    if (kj_dtu_nonlinear(from) && kj_dtu_nonlinear(to)) return from == KJ_DTU_Y ? v * 12 : floordiv(v, 12);
    if (!is_datetime) return convert_linear(v, from, to); /* Y/M with linear units: refused at compile time */
    if (kj_dtu_nonlinear(from)) { /* the first day of the year or month */
        int64_t y = from == KJ_DTU_Y ? 1970 + v : 1970 + floordiv(v, 12);
        int m = from == KJ_DTU_Y ? 1 : (int)(v - floordiv(v, 12) * 12) + 1;
        return convert_linear(days_from_civil(y, m, 1), KJ_DTU_D, to);
    }
    if (kj_dtu_nonlinear(to)) {
        int64_t y;
        int m, d;
        civil_from_days(convert_linear(v, from, KJ_DTU_D), &y, &m, &d);
        return to == KJ_DTU_Y ? y - 1970 : (y - 1970) * 12 + m - 1;
    }
    return convert_linear(v, from, to);
}

/* ---- parsing ---- */

static bool digits(const char **p, int n, int64_t *out)
{
    int64_t v = 0;
    for (int i = 0; i < n; i++) {
        if ((*p)[i] < '0' || (*p)[i] > '9') return false;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return true;
}

static bool parse_fail(const char *s, const char *p, char *err, size_t errlen)
{
    snprintf(err, errlen, "Error parsing datetime string \"%s\" at position %d", s, (int)(p - s));
    return false;
}

static bool range_fail(const char *s, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s out of range in datetime string \"%s\"", what, s);
    return false;
}

static int days_in_month(int64_t y, int m)
{
    static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : dm[m - 1];
}

/* The time of day after 'T': hours, minutes, seconds, a fraction; *v holds the days on entry. */
static bool parse_time(const char *s, const char *p, int64_t *v, int *unit, char *err, size_t errlen)
{
    int64_t hh, mm = 0, ss = 0;
    if (!digits(&p, 2, &hh)) return parse_fail(s, p, err, errlen);
    if (hh > 23) return range_fail(s, "Hours", err, errlen);
    *unit = KJ_DTU_h;
    if (*p == ':') {
        p++;
        if (!digits(&p, 2, &mm)) return parse_fail(s, p, err, errlen);
        if (mm > 59) return range_fail(s, "Minutes", err, errlen);
        *unit = KJ_DTU_m;
        if (*p == ':') {
            p++;
            if (!digits(&p, 2, &ss)) return parse_fail(s, p, err, errlen);
            if (ss > 59) return range_fail(s, "Seconds", err, errlen);
            *unit = KJ_DTU_s;
        }
    }
    int64_t secs = ((*v * 24 + hh) * 60 + mm) * 60 + ss;
    *v = *unit == KJ_DTU_h ? *v * 24 + hh : *unit == KJ_DTU_m ? (*v * 24 + hh) * 60 + mm : secs;
    if (*unit == KJ_DTU_s && *p == '.') {
        p++;
        int n = 0;
        int64_t frac = 0;
        while (p[n] >= '0' && p[n] <= '9' && n < 18) frac = frac * 10 + (p[n++] - '0');
        if (n == 0) return parse_fail(s, p, err, errlen);
        p += n;
        int groups = (n + 2) / 3; /* ms, us, ns, ... */
        for (int k = n; k < groups * 3; k++) frac *= 10;
        *unit = KJ_DTU_s + groups;
        *v = convert_linear(secs, KJ_DTU_s, *unit) + frac;
    }
    if (*p == 'Z') p++;
    return *p ? parse_fail(s, p, err, errlen) : true;
}

bool kj_npdt_parse(const char *s, int64_t *v, int *unit, char *err, size_t errlen)
{
    if (!strcmp(s, "NaT") || !strcmp(s, "nat") || !strcmp(s, "NAT") || !*s) {
        *v = KJ_NAT;
        *unit = KJ_DTU_GENERIC;
        return true;
    }
    const char *p = s;
    bool neg = *p == '-';
    if (neg) p++;
    int64_t y, mo = 1, d = 1;
    if (!digits(&p, 4, &y)) return parse_fail(s, p, err, errlen);
    if (neg) y = -y;
    *unit = KJ_DTU_Y;
    *v = y - 1970;
    if (!*p) return true;
    if (*p != '-') return parse_fail(s, p, err, errlen);
    p++;
    if (!digits(&p, 2, &mo)) return parse_fail(s, p, err, errlen);
    if (mo < 1 || mo > 12) return range_fail(s, "Month", err, errlen);
    *unit = KJ_DTU_M;
    *v = (y - 1970) * 12 + mo - 1;
    if (!*p) return true;
    if (*p != '-') return parse_fail(s, p, err, errlen);
    p++;
    if (!digits(&p, 2, &d)) return parse_fail(s, p, err, errlen);
    if (d < 1 || d > days_in_month(y, (int)mo)) return range_fail(s, "Day", err, errlen);
    *unit = KJ_DTU_D;
    *v = days_from_civil(y, (int)mo, (int)d);
    if (!*p) return true;
    if (*p != 'T' && *p != ' ') return parse_fail(s, p, err, errlen);
    return parse_time(s, p + 1, v, unit, err, errlen);
}

/* ---- printing ---- */

static void put_date(kj_buf *b, int64_t days, int unit)
{
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    kj_buf_printf(b, "%04" PRId64, y); /* NumPy's: -044 for 44 BC's year -44 */
    if (unit >= KJ_DTU_M) kj_buf_printf(b, "-%02d", m);
    if (unit >= KJ_DTU_W) kj_buf_printf(b, "-%02d", d);
}

static void format_datetime(kj_buf *b, int64_t v, int unit)
{
    if (unit == KJ_DTU_Y) {
        put_date(b, days_from_civil(1970 + v, 1, 1), unit);
        return;
    }
    if (unit == KJ_DTU_M) {
        put_date(b, days_from_civil(1970 + floordiv(v, 12), (int)(v - floordiv(v, 12) * 12) + 1, 1), unit);
        return;
    }
    if (unit <= KJ_DTU_D) {
        put_date(b, convert_linear(v, unit, KJ_DTU_D), unit);
        return;
    }
    int64_t frac = 0, secs = v;
    if (unit > KJ_DTU_s) { /* the fraction first: a day of attoseconds does not fit an int64 */
        secs = convert_linear(v, unit, KJ_DTU_s);
        frac = v - convert_linear(secs, KJ_DTU_s, unit);
    }
    int64_t per_day = unit == KJ_DTU_h ? 24 : unit == KJ_DTU_m ? 1440 : 86400;
    int64_t whole = unit > KJ_DTU_s ? secs : v;
    int64_t days = floordiv(whole, per_day), rest = whole - days * per_day;
    put_date(b, days, KJ_DTU_D);
    if (unit == KJ_DTU_h) kj_buf_printf(b, "T%02d", (int)rest);
    else if (unit == KJ_DTU_m) kj_buf_printf(b, "T%02d:%02d", (int)(rest / 60), (int)(rest % 60));
    else kj_buf_printf(b, "T%02d:%02d:%02d", (int)(rest / 3600), (int)(rest / 60 % 60), (int)(rest % 60));
    if (unit > KJ_DTU_s) kj_buf_printf(b, ".%0*" PRId64, 3 * (unit - KJ_DTU_s), frac);
}

void kj_npdt_format(kj_buf *b, int64_t v, int unit, bool is_datetime)
{
    static const char *const LONG[KJ_DTU_COUNT] = {
        "years", "months", "weeks", "business days", "days", "hours", "minutes", "seconds", "milliseconds",
        "microseconds", "nanoseconds", "picoseconds", "femtoseconds", "attoseconds", "generic time units"};
    if (v == KJ_NAT) {
        kj_buf_puts(b, "NaT");
        return;
    }
    if (is_datetime) format_datetime(b, v, unit);
    else kj_buf_printf(b, "%" PRId64 " %s", v, LONG[unit]);
}
