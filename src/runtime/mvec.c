/* SPDX-License-Identifier: BSD-2-Clause */
/* libmvec's functions (mvec.h). They are referenced weakly: meson links
 * libmvec, and a glibc without the newer ones (2.35 added tan, erf, ...)
 * leaves their address NULL, so that their loops stay scalar. Their names
 * follow the x86 vector function ABI: _ZGV, ISA, N (unmasked), lanes, one
 * v per argument, _, the scalar name. */
#include "mvec.h"

#include <string.h>

#if defined(KJ_HAVE_LIBMVEC) && defined(__x86_64__)

/* The libm functions libmvec has, and their arguments (v: one, vv: two). */
#define MVEC_FNS(X)                                                                                      \
    X(sin, v) X(cos, v) X(tan, v) X(asin, v) X(acos, v) X(atan, v) X(atan2, vv) X(sinh, v) X(cosh, v)    \
    X(tanh, v) X(asinh, v) X(acosh, v) X(atanh, v) X(exp, v) X(expm1, v) X(exp2, v) X(exp10, v) X(log, v) \
    X(log1p, v) X(log2, v) X(log10, v) X(pow, vv) X(hypot, vv) X(erf, v) X(erfc, v) X(cbrt, v)

/* Each function's forms: SSE double x2, float x4; AVX2 double x4, float x8.
 * Not AVX-512's yet: how a 512-bit argument is passed depends on the
 * caller's "min-legal-vector-width", LLVM prefers 256-bit vectors on
 * Intel's AVX-512 CPUs anyway, and on AMD's (znver4) the vectoriser then
 * picks 8 lanes and the AVX2 forms. */
#define MVEC_FORMS(F, fn, p) \
    F(b, 2, 64, p, fn, fn) F(b, 4, 32, p, fn, fn##f) F(d, 4, 64, p, fn, fn) F(d, 8, 32, p, fn, fn##f)
#define MVEC_SYM(isa, lanes, p, name) _ZGV##isa##N##lanes##p##_##name

/* Declared as void(void): only their addresses are taken here; calls go
 * through a pointer of the right type. */
#define DECLARE(isa, lanes, bits, p, fn, name) extern void MVEC_SYM(isa, lanes, p, name)(void) __attribute__((weak));
#define DECLARE_FN(fn, p) MVEC_FORMS(DECLARE, fn, p)
MVEC_FNS(DECLARE_FN)
#undef DECLARE_FN
#undef DECLARE

#define STR_(x) #x
#define STR(x) STR_(x)
#define ROW(isa, lanes, bits, p, fn, name) \
    {#fn, sizeof #p - 1, STR(isa)[0], lanes, bits, STR(MVEC_SYM(isa, lanes, p, name)), MVEC_SYM(isa, lanes, p, name)},
#define ROWS_FN(fn, p) MVEC_FORMS(ROW, fn, p)
static const kj_mvec table[] = {MVEC_FNS(ROWS_FN)};
#undef ROWS_FN
#undef ROW

const kj_mvec *kj_mvec_table(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

bool kj_mvec_cpu_avx2(void) { return __builtin_cpu_supports("avx2"); }

typedef float v4f __attribute__((vector_size(16)));
typedef double v2d __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));
typedef double v4d __attribute__((vector_size(32)));

/* One loop per form; T the element, V the vector, L its lanes. Unaligned
 * loads and stores through memcpy. */
#define MAP_LOOP(NAME, T, V, L, ATTR)                                              \
    ATTR static void NAME(void (*addr)(void), void *o, const void *a, int64_t n)   \
    {                                                                              \
        V (*f)(V) = (V (*)(V))addr;                                                \
        char *out = o;                                                             \
        const char *in = a;                                                        \
        int64_t i = 0;                                                             \
        for (; i + L <= n; i += L) {                                               \
            V x, y;                                                                \
            memcpy(&x, in + i * sizeof(T), sizeof x);                              \
            y = f(x);                                                              \
            memcpy(out + i * sizeof(T), &y, sizeof y);                             \
        }                                                                          \
        if (i < n) { /* the last elements, padded with ones (in every domain) */   \
            T pad[L];                                                              \
            for (int k = 0; k < L; k++) pad[k] = 1;                                \
            memcpy(pad, in + i * sizeof(T), (size_t)(n - i) * sizeof(T));          \
            V x, y;                                                                \
            memcpy(&x, pad, sizeof x);                                             \
            y = f(x);                                                              \
            memcpy(out + i * sizeof(T), &y, (size_t)(n - i) * sizeof(T));          \
        }                                                                          \
    }
MAP_LOOP(map_b4f, float, v4f, 4, )
MAP_LOOP(map_b2d, double, v2d, 2, )
MAP_LOOP(map_d8f, float, v8f, 8, __attribute__((target("avx2"))))
MAP_LOOP(map_d4d, double, v4d, 4, __attribute__((target("avx2"))))

void kj_mvec_map(const kj_mvec *m, void *o, const void *a, int64_t n)
{
    bool d = m->isa == 'd', f32 = m->bits == 32;
    if (d) (f32 ? map_d8f : map_d4d)(m->addr, o, a, n);
    else (f32 ? map_b4f : map_b2d)(m->addr, o, a, n);
}

#else /* no libmvec */

const kj_mvec *kj_mvec_table(size_t *n)
{
    *n = 0;
    return NULL;
}

bool kj_mvec_cpu_avx2(void) { return false; }

void kj_mvec_map(const kj_mvec *m, void *o, const void *a, int64_t n) { (void)m, (void)o, (void)a, (void)n; }

#endif

const kj_mvec *kj_mvec_find(const char *fn, unsigned bits, bool avx2)
{
    size_t n;
    const kj_mvec *t = kj_mvec_table(&n), *best = NULL;
    for (size_t k = 0; k < n; k++)
        if (t[k].addr && t[k].nargs == 1 && t[k].bits == bits && !strcmp(t[k].fn, fn) && (avx2 || t[k].isa != 'd') &&
            (!best || t[k].lanes > best->lanes))
            best = &t[k];
    return best;
}
