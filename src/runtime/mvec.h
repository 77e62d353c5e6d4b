/* SPDX-License-Identifier: BSD-2-Clause */
/* glibc's vector math library, libmvec (x86-64): its functions, for the
 * JIT (src/codegen/vecmath.c offers them to LLVM's loop vectoriser) and
 * for the runtime's own elementwise loops (rt_elementwise.c). */
#ifndef KJ_MVEC_H
#define KJ_MVEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One vector form of a libm function. */
typedef struct kj_mvec {
    const char *fn;     /* libm's name for double: "sin" */
    unsigned nargs;     /* 1 or 2 (atan2, pow, hypot) */
    char isa;           /* 'b': SSE (128-bit), 'd': AVX2 (256-bit) */
    unsigned lanes;     /* elements per call */
    unsigned bits;      /* 32: float, 64: double */
    const char *sym;    /* _ZGVdN8v_sinf */
    void (*addr)(void); /* NULL where this glibc lacks it (2.35 added tan, erf, ...) */
} kj_mvec;

/* Every vector form (an empty table without libmvec). */
const kj_mvec *kj_mvec_table(size_t *n);

/* The widest vector form of `fn` for `bits` this process may call (AVX2
 * ones when avx2), with one argument; NULL for none. */
const kj_mvec *kj_mvec_find(const char *fn, unsigned bits, bool avx2);

/* Whether the CPU running this process has AVX2. */
bool kj_mvec_cpu_avx2(void);

/* o[i] = m(a[i]) for i < n (one-argument forms): whole vectors, then the
 * last partial one through a padded copy, so that every element comes from
 * the vector function. */
void kj_mvec_map(const kj_mvec *m, void *o, const void *a, int64_t n);

#endif
