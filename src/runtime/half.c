/* SPDX-License-Identifier: BSD-2-Clause */
#include "half.h"

#include <math.h>
#include <string.h>

/* x = m * 2**(e-52) with m < 2**53 counted in units of 2**(ue-10), the
 * spacing of float16 values of exponent ue; rounded to nearest, ties to even. */
static uint64_t units(uint64_t m, int e, int ue)
{
    int s = 42 + ue - e; /* >= 42 */
    if (s > 53) return 0; /* below half a unit */
    uint64_t q = m >> s, r = m & ((UINT64_C(1) << s) - 1), half = UINT64_C(1) << (s - 1);
    if (r > half || (r == half && (q & 1))) q++;
    return q;
}

uint16_t kj_half_from_double(double x)
{
    uint64_t b;
    memcpy(&b, &x, 8);
    uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
    int exp = (int)((b >> 52) & 0x7ff);
    uint64_t mant = b & ((UINT64_C(1) << 52) - 1);
    if (exp == 0x7ff) {
        if (!mant) return sign | 0x7c00;
        uint16_t r = (uint16_t)(0x7c00 + (mant >> 42));
        return sign | (r == 0x7c00 ? 0x7c01 : r);
    }
    if (exp == 0) return sign; /* double subnormals are far below float16's */
    int e = exp - 1023;
    if (e >= 16) return sign | 0x7c00;
    uint64_t m = mant | (UINT64_C(1) << 52);
    if (e < -14) return sign | (uint16_t)units(m, e, -14); /* subnormal; 1024 is the least normal */
    /* q in [1024, 2048]: 2048 carries into the exponent (to inf past 65504) */
    uint64_t q = units(m, e, e);
    return sign | (uint16_t)(((uint64_t)(e + 15) << 10) + (q - 1024));
}

double kj_half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, -24);
    else v = ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}
