/* SPDX-License-Identifier: BSD-2-Clause */
/* KJIT_STATS=1 on every target (docs/cli.md "Environment"): the compile
 * time of each stage of kj_pipeline, the host code made or loaded from the
 * cache, the thread pool (threads, parallel regions and their time) and the
 * launches of each kernel run on the host (cpu, parallel), printed to
 * stderr when the last of the context and its modules lets go, in the
 * format of the GPU's counters (src/runtime/gpu.c print_stats). The GPU's
 * own counters (copies, launches on the device, PTX, cubin, load) stay
 * where they are. */
#include "api_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kj_api_stats *kj_api_stats_new(void)
{
    if (!kj_api_env_flag("KJIT_STATS", false)) return NULL;
    kj_api_stats *s = calloc(1, sizeof *s);
    if (!s) abort();
    atomic_init(&s->refs, 1);
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

kj_api_stats *kj_api_stats_retain(kj_api_stats *s)
{
    if (s) atomic_fetch_add(&s->refs, 1);
    return s;
}

void kj_api_stats_stage(kj_api_stats *s, kj_stage stage, double seconds)
{
    pthread_mutex_lock(&s->lock);
    s->stage_s[stage] += seconds;
    pthread_mutex_unlock(&s->lock);
}

void kj_api_stats_host_code(kj_api_stats *s, bool cached)
{
    pthread_mutex_lock(&s->lock);
    s->host_modules++;
    s->host_cached += cached;
    pthread_mutex_unlock(&s->lock);
}

void kj_api_stats_remap(kj_api_stats *s, const char *kernel)
{
    pthread_mutex_lock(&s->lock);
    if (s->nremap < KJ_API_MAX_KSTATS) snprintf(s->remap[s->nremap++], sizeof s->remap[0], "%s", kernel);
    pthread_mutex_unlock(&s->lock);
}

void kj_api_stats_pool(kj_api_stats *s, kj_pool *p)
{
    pthread_mutex_lock(&s->lock);
    if (!s->pool) s->pool = kj_pool_retain(p);
    pthread_mutex_unlock(&s->lock);
}

void kj_api_stats_launch(kj_api_stats *s, const char *kernel, double seconds)
{
    pthread_mutex_lock(&s->lock);
    unsigned j = 0;
    while (j < s->nk && strcmp(s->k[j].name, kernel) != 0) j++;
    if (j == s->nk && s->nk < KJ_API_MAX_KSTATS) snprintf(s->k[s->nk++].name, sizeof s->k[0].name, "%s", kernel);
    if (j < s->nk) {
        s->k[j].launches++;
        s->k[j].seconds += seconds;
    }
    pthread_mutex_unlock(&s->lock);
}

/* The sum of the stages [from, to). */
static double stages(const kj_api_stats *s, kj_stage from, kj_stage to)
{
    double t = 0;
    for (kj_stage k = from; k < to; k++) t += s->stage_s[k];
    return t;
}

static void print(const kj_api_stats *s, FILE *f)
{
    /* KIR passes: FUSE..PFOR_CHECK and INLINE..VERIFY_LOWERED; the runtime's
     * stages (TARGET, POOL, MPI) between them open the GPU, the pool, MPI. */
    double kir = stages(s, KJ_STAGE_FUSE, KJ_STAGE_TARGET) + stages(s, KJ_STAGE_INLINE, KJ_STAGE_HOST_CODE);
    fprintf(f, "kjit stats: compile: parse %.1f ms, sema %.1f ms, KIR passes %.1f ms, target/pool/MPI %.1f ms, "
               "host code (LLVM) %.1f ms, GPU code (PTX, cubin, load) %.1f ms\n",
            1e3 * s->stage_s[KJ_STAGE_PARSE], 1e3 * s->stage_s[KJ_STAGE_ANALYZE], 1e3 * kir,
            1e3 * stages(s, KJ_STAGE_TARGET, KJ_STAGE_INLINE), 1e3 * s->stage_s[KJ_STAGE_HOST_CODE],
            1e3 * s->stage_s[KJ_STAGE_GPU_CODE]);
    fprintf(f, "kjit stats: host code: %u modules (%u from the cache)\n", s->host_modules, s->host_cached);
    for (unsigned k = 0; k < s->nremap; k++)
        fprintf(f, "kjit stats: layout: kernel %s remapped: threadIdx.x and .y swapped (its warps walk the "
                   "contiguous dimension; KJIT_NO_SPECIALISE=1 turns it off)\n", s->remap[k]);
    if (s->pool) {
        uint64_t regions = 0;
        double sec = 0;
        kj_pool_stats(s->pool, &regions, &sec);
        fprintf(f, "kjit stats: thread pool: %d threads, %" PRIu64 " parallel regions, %.3f ms\n",
                kj_pool_size(s->pool), regions, 1e3 * sec);
    }
    for (unsigned k = 0; k < s->nk; k++)
        fprintf(f, "kjit stats: launches of %s on the host: %" PRIu64 ", %.3f ms\n", s->k[k].name, s->k[k].launches,
                1e3 * s->k[k].seconds);
}

void kj_api_stats_release(kj_api_stats *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1) return;
    print(s, stderr);
    kj_pool_release(s->pool);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
