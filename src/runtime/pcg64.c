/* SPDX-License-Identifier: BSD-2-Clause */
/* PCG64 with SeedSequence seeding (pcg64.h), written after the published
 * algorithms (O'Neill's PCG paper; NumPy's SeedSequence, NEP 19). */
#include "pcg64.h"

#define PCG_MULT (((unsigned __int128)2549297995355413924ULL << 64) | 4865540595714422341ULL)

/* SeedSequence's hash constants */
enum { POOL = 4 };
#define INIT_A 0x43b0d7e5u
#define MULT_A 0x931e8875u
#define INIT_B 0x8b51f9ddu
#define MULT_B 0x58f38dedu
#define MIX_MULT_L 0xca01f9ddu
#define MIX_MULT_R 0x4973f715u

static uint32_t hashmix(uint32_t v, uint32_t *h)
{
    v ^= *h;
    *h *= MULT_A;
    v *= *h;
    return v ^ (v >> 16);
}

static uint32_t mix(uint32_t x, uint32_t y)
{
    uint32_t r = MIX_MULT_L * x - MIX_MULT_R * y;
    return r ^ (r >> 16);
}

/* The pool of SeedSequence(seed): the seed's 32-bit words, least
 * significant first (0 is one word), hashed and mixed. */
static void seed_pool(uint64_t seed, uint32_t pool[POOL])
{
    uint32_t ent[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int n = seed >> 32 ? 2 : 1;
    uint32_t h = INIT_A;
    for (int i = 0; i < POOL; i++) pool[i] = hashmix(i < n ? ent[i] : 0, &h);
    for (int s = 0; s < POOL; s++)
        for (int d = 0; d < POOL; d++)
            if (s != d) pool[d] = mix(pool[d], hashmix(pool[s], &h));
}

static void step(kj_pcg64 *g) { g->state = g->state * PCG_MULT + g->inc; }

void kj_pcg64_seed(kj_pcg64 *g, uint64_t seed)
{
    uint32_t pool[POOL], w[8], h = INIT_B;
    seed_pool(seed, pool);
    for (int i = 0; i < 8; i++) { /* generate_state(4, uint64) */
        uint32_t v = pool[i % POOL] ^ h;
        h *= MULT_B;
        v *= h;
        w[i] = v ^ (v >> 16);
    }
    uint64_t s[4];
    for (int i = 0; i < 4; i++) s[i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32; /* little-endian view */
    unsigned __int128 init = (unsigned __int128)s[0] << 64 | s[1], seq = (unsigned __int128)s[2] << 64 | s[3];
    g->state = 0; /* pcg_setseq_128_srandom_r */
    g->inc = seq << 1 | 1;
    step(g);
    g->state += init;
    step(g);
    g->has_uint32 = false;
    g->uinteger = 0;
}

uint64_t kj_pcg64_next64(kj_pcg64 *g)
{
    step(g);
    uint64_t x = (uint64_t)(g->state >> 64) ^ (uint64_t)g->state;
    unsigned rot = (unsigned)(g->state >> 122);
    return (x >> rot) | (x << ((64 - rot) & 63));
}

uint32_t kj_pcg64_next32(kj_pcg64 *g)
{
    if (g->has_uint32) {
        g->has_uint32 = false;
        return g->uinteger;
    }
    uint64_t n = kj_pcg64_next64(g);
    g->has_uint32 = true;
    g->uinteger = (uint32_t)(n >> 32);
    return (uint32_t)n;
}

double kj_pcg64_double(kj_pcg64 *g) { return (double)(kj_pcg64_next64(g) >> 11) * (1.0 / 9007199254740992.0); }
