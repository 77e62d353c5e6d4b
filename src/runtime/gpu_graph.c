/* SPDX-License-Identifier: BSD-2-Clause */
/* CUDA graphs for host loops of launches.
 *
 * The compiler brackets a host `for` loop whose body only launches kernels
 * and does scalar arithmetic (codegen/llvm_graph.c) with kj_gpu_graph_begin
 * and kj_gpu_graph_end. In between, kj_gpu_launch hands each launch it has
 * checked and marshalled to kj_gpu_graph_take, which
 *   - while learning, launches it plainly and remembers its signature (the
 *     function, configuration, stream and the bytes of every parameter);
 *     once the last 2p launches repeat with a period p <= MAX_PERIOD (p = 1
 *     for `k[g, b](x)`, 2 for `k(a, b); a, b = b, a`), it builds a graph of
 *     UNROLL launches (the p signatures repeated, each node after the one
 *     before, as in one stream) and instantiates it;
 *   - with a graph, compares the launch with the graph's next node: equal,
 *     it is only counted (pending); when a whole graph's worth is pending,
 *     one cuGraphLaunch runs them all. A launch that differs first launches
 *     the pending ones plainly, in order, then itself, and learning starts
 *     again.
 * kj_gpu_graph_end (the loop's end) and any error launch what is pending
 * plainly, so every launch runs, once, in program order, with the same
 * parameters, before anything after the loop can look at the device: the
 * only difference is how many driver calls it took. The body cannot read
 * device data or synchronise (the compiler checked), and a kernel that can
 * raise (its module has an error record, read after each launch) or that
 * is cooperative never comes here. A driver without graphs, a graph the
 * driver refuses, KJIT_NO_GRAPHS=1 or KJIT_NO_SPECIALISE=1: plain launches. */
#include "gpu_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PERIOD = 8, HIST = 2 * MAX_PERIOD, UNROLL = 64, MAX_BYTES = 4096 };

/* One launch, its parameters copied (slot[j] points into data). */
typedef struct glaunch {
    CUfunction f;
    unsigned dim[6], shared;
    CUstream s;
    unsigned n;
    void **slot;
    uint32_t *size;
    unsigned char *data;
} glaunch;

struct kj_gpu_graph {
    bool active;
    pthread_t owner;       /* the thread whose loop it is: other threads launch plainly */
    glaunch hist[HIST];    /* the last launches while learning, a ring */
    unsigned nhist;        /* launches in it so far (the ring holds min(nhist, HIST)) */
    glaunch period[MAX_PERIOD];
    unsigned p;            /* the graph's period; 0: no graph */
    CUgraphExec exec;
    unsigned pos;          /* launches taken since the last replay: pending */
    bool refused;          /* the driver would not build one: stay plain */
};

static void glaunch_free(glaunch *l)
{
    free(l->slot);
    free(l->size);
    free(l->data);
    memset(l, 0, sizeof *l);
}

static bool glaunch_set(glaunch *l, CUfunction f, const int64_t *cfg, void **slot, const uint32_t *size, unsigned n)
{
    size_t bytes = 0;
    for (unsigned j = 0; j < n; j++) bytes += size[j];
    glaunch_free(l);
    l->slot = malloc(sizeof *l->slot * (n ? n : 1));
    l->size = malloc(sizeof *l->size * (n ? n : 1));
    l->data = malloc(bytes ? bytes : 1);
    if (!l->slot || !l->size || !l->data) return glaunch_free(l), false;
    size_t off = 0;
    for (unsigned j = 0; j < n; j++) {
        memcpy(l->data + off, slot[j], size[j]);
        l->slot[j] = l->data + off;
        l->size[j] = size[j];
        off += size[j];
    }
    l->f = f;
    for (int k = 0; k < 6; k++) l->dim[k] = (unsigned)cfg[k];
    l->shared = (unsigned)cfg[7];
    l->s = (CUstream)(uintptr_t)cfg[6];
    l->n = n;
    return true;
}

static bool glaunch_eq(const glaunch *a, const glaunch *b)
{
    if (!a->slot || !b->slot || a->f != b->f || a->s != b->s || a->shared != b->shared || a->n != b->n ||
        memcmp(a->dim, b->dim, sizeof a->dim))
        return false;
    for (unsigned j = 0; j < a->n; j++)
        if (a->size[j] != b->size[j] || memcmp(a->slot[j], b->slot[j], a->size[j])) return false;
    return true;
}

/* Is the launch (f, cfg, slot) the one recorded in l? */
static bool glaunch_is(const glaunch *l, CUfunction f, const int64_t *cfg, void **slot, const uint32_t *size,
                       unsigned n)
{
    if (l->f != f || l->n != n || l->s != (CUstream)(uintptr_t)cfg[6] || l->shared != (unsigned)cfg[7]) return false;
    for (int k = 0; k < 6; k++)
        if (l->dim[k] != (unsigned)cfg[k]) return false;
    for (unsigned j = 0; j < n; j++)
        if (l->size[j] != size[j] || memcmp(l->slot[j], slot[j], size[j])) return false;
    return true;
}

static CUresult glaunch_run(kj_gpu *g, const glaunch *l)
{
    return g->cu.cuLaunchKernel(l->f, l->dim[0], l->dim[1], l->dim[2], l->dim[3], l->dim[4], l->dim[5], l->shared,
                                l->s, l->slot, NULL);
}

static void drop_graph(kj_gpu *g, struct kj_gpu_graph *gr)
{
    if (gr->exec) g->cu.cuGraphExecDestroy(gr->exec);
    gr->exec = NULL;
    for (unsigned k = 0; k < MAX_PERIOD; k++) glaunch_free(&gr->period[k]);
    gr->p = 0;
    gr->pos = 0;
}

static void drop_history(struct kj_gpu_graph *gr)
{
    for (unsigned k = 0; k < HIST; k++) glaunch_free(&gr->hist[k]);
    gr->nhist = 0;
}

/* The launches taken and not yet run, plainly, in order. */
static bool flush(kj_gpu *g, struct kj_gpu_graph *gr, kj_rt_error *e)
{
    unsigned n = gr->pos;
    gr->pos = 0;
    for (unsigned j = 0; j < n; j++) {
        CUresult r = glaunch_run(g, &gr->period[j % gr->p]);
        if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuLaunchKernel", e);
    }
    return true;
}

/* UNROLL launches (a multiple of p) of the p recorded ones, one after the
 * other; false (and nothing kept) when the driver refuses. */
static bool build(kj_gpu *g, struct kj_gpu_graph *gr)
{
    unsigned p = gr->p, nodes = UNROLL / p * p;
    for (unsigned k = 1; k < p; k++)
        if (gr->period[k].s != gr->period[0].s) return false; /* one stream: one graph launch */
    CUgraph graph = NULL;
    if (g->cu.cuGraphCreate(&graph, 0) != CUDA_SUCCESS) return false;
    CUgraphNode prev = NULL;
    bool ok = true;
    for (unsigned j = 0; j < nodes && ok; j++) {
        const glaunch *l = &gr->period[j % p];
        CUDA_KERNEL_NODE_PARAMS kp = {.func = l->f, .gridDimX = l->dim[0], .gridDimY = l->dim[1],
                                      .gridDimZ = l->dim[2], .blockDimX = l->dim[3], .blockDimY = l->dim[4],
                                      .blockDimZ = l->dim[5], .sharedMemBytes = l->shared,
                                      .kernelParams = l->slot};
        CUgraphNode node = NULL;
        ok = g->cu.cuGraphAddKernelNode(&node, graph, prev ? &prev : NULL, prev ? 1 : 0, &kp) == CUDA_SUCCESS;
        prev = node;
    }
    ok = ok && g->cu.cuGraphInstantiateWithFlags(&gr->exec, graph, 0) == CUDA_SUCCESS;
    g->cu.cuGraphDestroy(graph); /* the instantiated graph keeps its own copy */
    if (!ok) gr->exec = NULL;
    g->graphs.built += ok;
    return ok;
}

/* After a plain launch while learning: do the last 2p launches repeat? */
static void learn(kj_gpu *g, struct kj_gpu_graph *gr)
{
    unsigned h = gr->nhist;
    for (unsigned p = 1; p <= MAX_PERIOD && 2 * p <= h; p++) {
        bool same = true;
        for (unsigned i = 0; i < p && same; i++)
            same = glaunch_eq(&gr->hist[(h - 1 - i) % HIST], &gr->hist[(h - 1 - i - p) % HIST]);
        if (!same) continue;
        /* the graph starts with the launch that follows: the one p back */
        for (unsigned k = 0; k < p; k++) {
            gr->period[k] = gr->hist[(h - p + k) % HIST];
            memset(&gr->hist[(h - p + k) % HIST], 0, sizeof(glaunch));
        }
        gr->p = p;
        drop_history(gr);
        if (!build(g, gr)) {
            drop_graph(g, gr);
            gr->refused = true;
        }
        return;
    }
}

bool kj_gpu_graph_begin(kj_gpu *g)
{
    if (g->no_graphs || !kj_cu_has_graphs(&g->cu)) return false;
    if (!g->graph && !(g->graph = calloc(1, sizeof *g->graph))) return false;
    struct kj_gpu_graph *gr = g->graph;
    if (gr->active || gr->refused) return false; /* a loop in a loop: the inner one is graphed */
    gr->active = true;
    gr->owner = pthread_self();
    return true;
}

bool kj_gpu_graph_end(kj_gpu *g, kj_rt_error *e)
{
    struct kj_gpu_graph *gr = g->graph;
    if (!gr || !gr->active || !pthread_equal(gr->owner, pthread_self())) return true;
    gr->active = false;
    drop_history(gr); /* the next loop's launches need not follow this one's */
    return !gr->p || (kj_gpu_current(g, e) && flush(g, gr, e));
}

bool kj_gpu_graph_take(kj_gpu *g, CUfunction f, const int64_t *cfg, void **slot, const uint32_t *size, unsigned n,
                       bool *taken, kj_rt_error *e)
{
    struct kj_gpu_graph *gr = g->graph;
    *taken = false;
    if (!gr || !gr->active || !pthread_equal(gr->owner, pthread_self())) return true;
    size_t bytes = 0;
    for (unsigned j = 0; j < n; j++) bytes += size[j];
    if (bytes > MAX_BYTES) return kj_gpu_graph_end(g, e); /* not worth recording: plain from here */
    if (gr->p) {
        if (glaunch_is(&gr->period[gr->pos % gr->p], f, cfg, slot, size, n)) {
            *taken = true;
            if (++gr->pos < UNROLL / gr->p * gr->p) return true;
            gr->pos = 0;
            g->graphs.replays++;
            g->graphs.launches += UNROLL / gr->p * gr->p;
            CUresult r = g->cu.cuGraphLaunch(gr->exec, gr->period[0].s);
            if (r == CUDA_SUCCESS) return true;
            gr->active = false;
            return kj_gpu_fail(g, r, "cuGraphLaunch", e);
        }
        bool ok = flush(g, gr, e);
        drop_graph(g, gr);
        if (!ok) return gr->active = false;
    }
    if (gr->refused) return true;
    /* learning: the caller launches it plainly */
    glaunch *l = &gr->hist[gr->nhist % HIST];
    if (!glaunch_set(l, f, cfg, slot, size, n)) return true;
    gr->nhist++;
    learn(g, gr);
    if (!gr->p) return true;
    /* the graph was built from launches already made: this one is made
     * plainly too, and the next is the graph's node 1 (mod p) */
    gr->pos = 0;
    return true;
}

bool kj_gpu_graph_settle(kj_gpu *g, kj_rt_error *e)
{
    struct kj_gpu_graph *gr = g->graph;
    if (!gr || !gr->active || !pthread_equal(gr->owner, pthread_self()) || !gr->p || !gr->pos) return true;
    return kj_gpu_graph_end(g, e);
}

void kj_gpu_graph_free(kj_gpu *g)
{
    struct kj_gpu_graph *gr = g->graph;
    if (!gr) return;
    drop_graph(g, gr);
    drop_history(gr);
    free(gr);
    g->graph = NULL;
}
