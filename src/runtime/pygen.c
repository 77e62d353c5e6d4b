/* SPDX-License-Identifier: BSD-2-Clause */
/* Generators' coroutine frames (src/codegen/llvm_pygen.c): the memory LLVM's
 * coroutine lowering asks for (the live locals, the resume index, the last
 * yielded value), zeroed, after a header of the generators the frame holds.
 *
 * A frame dies with its generator, by the rule of arrays (docs/codegen.md,
 * "Array lifetime"): registered with the run when made, it is freed where a
 * scope that made generators ends — a function's return, an iteration of a
 * loop (llvm_genlife.c) — unless the values the scope keeps (its result,
 * the function's variables) reach it. A frame reaches the generators passed
 * to it as arguments (kj_rt_gen_ref): `outer(inner(3))` keeps inner's frame
 * while outer's lives. Frames made before a scope's mark are an outer
 * scope's: they reach no later frame (arguments come first). A generator's
 * own body may hold the generators it makes in its locals across yields,
 * which no scope sees: those are pinned (kj_rt_gen_pin), kept until the run
 * ends, as everything the run holds. */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

typedef struct kj_gen_hdr {
    struct kj_gen_hdr **refs; /* the generators passed to it */
    uint32_t nrefs, cap;
    uint32_t seen; /* rt->gen_epoch when a collection reached it */
} kj_gen_hdr;

enum { HDR = 64 }; /* the frame's offset: the header, keeping the frame's 64-byte alignment */
_Static_assert(sizeof(kj_gen_hdr) <= HDR, "the header fits before the frame");

static kj_gen_hdr *hdr_of(void *frame) { return (kj_gen_hdr *)((char *)frame - HDR); }

static void push(kj_gen_hdr ***v, size_t *n, size_t *cap, kj_gen_hdr *h)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *v = realloc(*v, *cap * sizeof **v);
        if (!*v) abort(); /* out of memory: the one failure that is not a value */
    }
    (*v)[(*n)++] = h;
}

static void free_hdr(kj_gen_hdr *h)
{
    free(h->refs);
    free(h);
}

void *kj_rt_gen_frame(kj_rt *rt, int64_t size)
{
    size_t n = HDR + (size_t)(size > 0 ? size : 1);
    void *mem = NULL;
    if (posix_memalign(&mem, HDR, n)) abort();
    memset(mem, 0, n);
    push(&rt->gens, &rt->ngens, &rt->cap_gens, mem);
    if (rt->ngens > rt->peak_gens) rt->peak_gens = rt->ngens;
    return (char *)mem + HDR;
}

void kj_rt_gen_ref(kj_rt *rt, void *frame, void *arg)
{
    (void)rt;
    if (!frame || !arg) return;
    kj_gen_hdr *h = hdr_of(frame), *a = hdr_of(arg);
    if (h->nrefs == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 4;
        h->refs = realloc(h->refs, h->cap * sizeof *h->refs);
        if (!h->refs) abort();
    }
    h->refs[h->nrefs++] = a;
}

int64_t kj_rt_gen_mark(kj_rt *rt) { return (int64_t)rt->ngens; }

static void reach(kj_gen_hdr *h, uint32_t epoch)
{
    if (h->seen == epoch) return;
    h->seen = epoch;
    for (uint32_t k = 0; k < h->nrefs; k++) reach(h->refs[k], epoch);
}

void kj_rt_gen_collect(kj_rt *rt, int64_t mark, void *const *keep, int32_t nkeep)
{
    size_t m = (size_t)mark, out = m;
    if (mark < 0 || m >= rt->ngens) return;
    uint32_t epoch = ++rt->gen_epoch ? rt->gen_epoch : ++rt->gen_epoch; /* never 0, a new frame's */
    for (int32_t k = 0; k < nkeep; k++)
        if (keep[k]) reach(hdr_of(keep[k]), epoch);
    for (size_t k = m; k < rt->ngens; k++) {
        kj_gen_hdr *h = rt->gens[k];
        if (h->seen == epoch) rt->gens[out++] = h;
        else free_hdr(h);
    }
    rt->ngens = out;
}

void kj_rt_gen_pin(kj_rt *rt, int64_t mark)
{
    size_t m = (size_t)mark;
    if (mark < 0 || m >= rt->ngens) return;
    for (size_t k = m; k < rt->ngens; k++) push(&rt->pinned, &rt->npinned, &rt->cap_pinned, rt->gens[k]);
    rt->ngens = m;
}

void kj_rt_gen_free_all(kj_rt *rt)
{
    for (size_t k = 0; k < rt->ngens; k++) free_hdr(rt->gens[k]);
    for (size_t k = 0; k < rt->npinned; k++) free_hdr(rt->pinned[k]);
    free(rt->gens);
    free(rt->pinned);
    rt->gens = rt->pinned = NULL;
    rt->ngens = rt->cap_gens = rt->npinned = rt->cap_pinned = 0;
}
