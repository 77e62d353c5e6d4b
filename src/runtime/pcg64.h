/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's default bit generator: PCG64 (O'Neill's XSL-RR 128/64) seeded
 * through SeedSequence, as np.random.default_rng(seed) does, bit for bit
 * (numpy/random/_pcg64.pyx, src/pcg64, bit_generator.pyx). */
#ifndef KJ_PCG64_H
#define KJ_PCG64_H

#include <stdbool.h>
#include <stdint.h>

typedef struct kj_pcg64 {
    unsigned __int128 state, inc;
    bool has_uint32; /* next32's cached high half */
    uint32_t uinteger;
} kj_pcg64;

/* SeedSequence(seed).generate_state(4, uint64) into PCG64's seed and
 * increment; seed >= 0 (NumPy takes any non-negative int). */
void kj_pcg64_seed(kj_pcg64 *g, uint64_t seed);
uint64_t kj_pcg64_next64(kj_pcg64 *g);
uint32_t kj_pcg64_next32(kj_pcg64 *g); /* the low half of a draw, then its high half */
double kj_pcg64_double(kj_pcg64 *g);   /* (next64 >> 11) * 2**-53 */

#endif
