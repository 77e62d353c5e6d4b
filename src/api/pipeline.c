/* SPDX-License-Identifier: BSD-2-Clause */
/* kj_pipeline: THE compile pipeline, whole. Its stages, in order (what each
 * does: src/ir/pipeline.h):
 *
 *   PARSE → ANALYZE → FUSE → VERIFY → PFOR_CHECK → TARGET → POOL → MPI
 *   → INLINE → UFUNCS → LAYOUT → VERIFY_LOWERED → HOST_CODE → GPU_CODE
 *
 * The stages of KIR run through kj_ir_stage; the C API's own (the target,
 * the thread pool, MPI, machine code for the host and the GPU) are here.
 * kjit_compile, the specialisations made at call time and kjit_module_ptx
 * all go through it, each from its stage. */
#include "api_int.h"

#include "runtime/rt_host.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

_Static_assert(KJ_STAGE_END == 14, "a stage was added or removed: update the lists (here, pipeline.h, "
                                    "docs/architecture.md)");

kj_run_target kj_api_run_target(kjit_target t)
{
    switch (t) {
    case KJIT_TARGET_CPU: return KJ_RUN_CPU;
    case KJIT_TARGET_PARALLEL: return KJ_RUN_PARALLEL;
    case KJIT_TARGET_CUDA: return KJ_RUN_CUDA;
    default: return KJ_RUN_DEFAULT; /* auto: resolved by the TARGET stage */
    }
}

/* Host machine code, reported as a COMPILE event: cached when the cache
 * answered and nothing was generated. ctx->lock is held. */
static void machine_code(kjit_ctx *ctx, kjit_module *m, kj_diags *d)
{
    if (!kj_ev_on(&m->events.sink) && !m->stats) {
        kj_api_machine_code(ctx, m, d);
        return;
    }
    double t0 = kj_rt_perf_counter();
    uint64_t hits = ctx->cache ? atomic_load(&ctx->cache->hits) : 0;
    uint64_t misses = ctx->cache ? atomic_load(&ctx->cache->misses) : 0;
    kj_api_machine_code(ctx, m, d); /* makes ctx->cache at the first compile */
    double dt = kj_rt_perf_counter() - t0;
    bool cached = ctx->cache && atomic_load(&ctx->cache->hits) > hits && atomic_load(&ctx->cache->misses) == misses;
    if (kj_has_errors(d)) return;
    kj_ev_emit(&m->events.sink, KJ_EV_COMPILE, m->src.path, 0, dt, cached);
    if (m->stats) kj_api_stats_host_code(m->stats, cached);
}

/* The TARGET stage, then: a module whose kernels run on the host counts
 * their launches for KJIT_STATS (on the GPU, the GPU's counters do; timing
 * each launch there would make it wait for the kernel). */
static bool target(kjit_ctx *ctx, kjit_module *m, kjit_error *err)
{
    if (!kj_api_target(ctx, m, err)) return false;
    if (m->stats && !m->gpu) kj_api_events_count(&m->events, m->stats);
    return true;
}

/* One stage of the C API's. The runtime's stages (TARGET, POOL, MPI) are
 * settled once by kjit_compile: not for check_only, nor for the functions a
 * specialisation adds. Those get their host machine code when first called
 * (kj_api_entry), and only host code's launches need the GPU code made
 * again (a kernel's own is made at its launch, kj_api_kernel_code). False
 * with err set (the TARGET, POOL and MPI stages) or after reporting to d. */
static bool api_stage(kjit_module *m, kj_stage s, const kj_pipeline_opts *o, kj_diags *d, kjit_error *err)
{
    bool settled = m->check_only || o->spec;
    switch (s) {
    case KJ_STAGE_TARGET: return settled || target(o->ctx, m, err);
    case KJ_STAGE_POOL: return settled || kj_api_pool(o->ctx, m, err);
    case KJ_STAGE_MPI: return settled || kj_api_mpi(o->ctx, m, err);
    case KJ_STAGE_HOST_CODE:
        if (!m->check_only && !kj_api_ptx_consts(m, o->spec ? o->first : 0, d)) break; /* cuda.compile_ptx */
        if (!settled) machine_code(o->ctx, m, d);
        break;
    case KJ_STAGE_GPU_CODE:
        if (m->check_only) break;
        if (!o->spec) kj_api_gpu_code(m, d);
        else if (o->spec->kind != KIR_FN_KERNEL) kj_api_gpu_reload(m, o->first, d);
        break;
    default: break;
    }
    return !kj_has_errors(d);
}

/* One stage, timed for KJIT_STATS when it is on. */
static bool stage(kjit_module *m, kj_ir_unit *u, kj_stage s, const kj_pipeline_opts *o, kj_diags *d,
                  kjit_error *err)
{
    double t0 = m->stats ? kj_rt_perf_counter() : 0;
    bool ok;
    if (!kj_stage_is_ir(s)) {
        ok = api_stage(m, s, o, d, err);
    } else {
        u->target = o->target ? o->target : m->cg.target; /* as the TARGET stage left it */
        ok = kj_ir_stage(u, s, d);
        m->ast = u->ast, m->sema = u->sema, m->kir = u->kir;
        if (ok && s == KJ_STAGE_LAYOUT && m->stats)
            for (uint32_t k = u->first; k < u->kir->nfuncs; k++)
                if (u->kir->funcs[k]->layout_perm) kj_api_stats_remap(m->stats, u->kir->funcs[k]->name);
    }
    if (m->stats) kj_api_stats_stage(m->stats, s, kj_rt_perf_counter() - t0);
    return ok;
}

/* What a stage does, for the progress line. */
static const char *stage_doing(kj_stage s)
{
    switch (s) {
    case KJ_STAGE_PARSE: return "parsing";
    case KJ_STAGE_ANALYZE: return "type inference";
    case KJ_STAGE_TARGET: return "opening the target";
    case KJ_STAGE_POOL: return "starting the thread pool";
    case KJ_STAGE_MPI: return "opening MPI";
    case KJ_STAGE_HOST_CODE: return "host code (LLVM)";
    case KJ_STAGE_GPU_CODE: return "GPU code (PTX, cubin, load)";
    default: return "KIR passes";
    }
}

/* kjit_options.progress: a compile still running after a second says which
 * file and stage it is at, then again at most once a second at the
 * boundaries of its stages, and "compiled FILE in T s" at the end. A single
 * long stage (LLVM, mostly) has no boundary for a second: a watcher thread,
 * made only when progress is asked for (a terminal), speaks for it once
 * the second has passed. The stage runs on the compiling thread as ever;
 * the watcher only reads `stage` and prints, under `lock`. */
typedef struct progress {
    FILE *f;
    const kjit_module *m;
    double start, said;
    kj_stage stage; /* the stage running now (under lock) */
    bool done, watching;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t watcher;
} progress;

/* Say where the compile is, at time t (p->lock held). */
static void progress_say(progress *p, double t)
{
    p->said = t;
    fprintf(p->f, "kjit: compiling %s: %s (%.1f s so far)\n", p->m->src.path, stage_doing(p->stage), t - p->start);
    fflush(p->f);
}

/* The watcher: one line when the compile passes its first second inside a
 * stage that has not said anything yet. */
static void *progress_watch(void *arg)
{
    progress *p = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    pthread_mutex_lock(&p->lock);
    int rc = 0;
    while (!p->done && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&p->cond, &p->lock, &until);
    double t = kj_rt_perf_counter();
    if (!p->done && t - p->said >= 1.0) progress_say(p, t);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void progress_start(progress *p)
{
    p->start = kj_rt_perf_counter();
    p->said = p->start - 1.0;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->watching = pthread_create(&p->watcher, NULL, progress_watch, p) == 0; /* none: boundaries only */
}

/* The compile enters stage `next` (KJ_STAGE_END: it is over; `ok`: it
 * compiled, else its errors say the rest). */
static void progress_check(progress *p, kj_stage next, bool ok)
{
    pthread_mutex_lock(&p->lock);
    double t = kj_rt_perf_counter();
    bool done = next == KJ_STAGE_END; /* said once the compile took a second, whatever was said before */
    p->stage = next;
    p->done = done;
    bool gpu_idle = next == KJ_STAGE_GPU_CODE && !p->m->gpu; /* nothing to do there */
    if (t - p->start >= 1.0 && !gpu_idle) {
        if (done && ok) {
            fprintf(p->f, "kjit: compiled %s in %.1f s\n", p->m->src.path, t - p->start);
            fflush(p->f);
        } else if (!done && t - p->said >= 1.0) {
            progress_say(p, t);
        }
    }
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
}

static void progress_end(progress *p)
{
    if (p->watching) pthread_join(p->watcher, NULL);
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->lock);
}

bool kj_pipeline(kjit_module *m, kj_stage from, const kj_pipeline_opts *o, kj_diags *d, kjit_error *err)
{
    kj_ir_unit u = {.a = &m->arena, .types = m->types, .src = &m->src, .sopt = &m->sopt, .ast = m->ast,
                    .sema = m->sema, .kir = m->kir, .first = o->first, .fuse_all = m->fuse,
                    .specialise = m->specialise, .index32 = m->index32, .regroup = m->regroup};
    kj_stage to = o->to ? o->to : KJ_STAGE_END;
    progress p = {.f = o->ctx ? o->ctx->opt.progress : NULL, .m = m, .stage = from};
    if (p.f) progress_start(&p);
    bool ok = true;
    for (kj_stage s = from; s < to && ok; s++) {
        if (s > from && p.f) progress_check(&p, s, true);
        ok = stage(m, &u, s, o, d, err);
    }
    if (p.f) {
        progress_check(&p, KJ_STAGE_END, ok);
        progress_end(&p);
    }
    return ok;
}
