/* SPDX-License-Identifier: BSD-2-Clause */
/* The GPU for the C API (docs/cuda.md): a context's device, opened at the
 * first compile that may use it; the target a module runs on; its kernels
 * as PTX (kjit_module_ptx) and as a cubin loaded on the device, through the
 * compile cache under the module's key extended by the GPU architecture and
 * the driver's version (a new driver may assemble PTX differently). */
#include "api_int.h"

#include "runtime/rt_host.h"

#include <stdlib.h>
#include <string.h>

/* KJIT_STATS=1: the GPU's counters go to stderr when it is closed. */
static FILE *stats_stream(void)
{
    return kj_api_env_flag("KJIT_STATS", false) ? stderr : NULL;
}

bool kj_api_open_gpu(kjit_ctx *ctx, const char *file, kjit_error *err)
{
    if (ctx->gpu_tried) return true;
    /* KJIT_DEVICE=N picks the device; else, under mpirun (or srun), local
     * rank r of the node gets device r % count; else 0. A bad value (set
     * since kjit_ctx_new checked it) is the usage error it was there. */
    int ordinal = 0;
    if (!kj_api_device_ordinal(&ordinal, ctx->gpu_err, sizeof ctx->gpu_err)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, file, "%s", ctx->gpu_err);
        return false;
    }
    ctx->gpu_tried = true;
    ctx->gpu = kj_gpu_open(ordinal, stats_stream(), ctx->gpu_err, sizeof ctx->gpu_err);
    if (ctx->gpu && kj_ev_on(&ctx->events.sink)) kj_gpu_set_sink(ctx->gpu, &ctx->events.sink);
    return true;
}

bool kj_api_target(kjit_ctx *ctx, kjit_module *m, kjit_error *err)
{
    kjit_target t = m->target;
    /* auto: a program without kernels has no use for the GPU, and opening
     * one costs a few hundred ms (cuInit, the primary context) */
    if (t == KJIT_TARGET_AUTO && !ctx->gpu && !kj_sema_has_kernels(m->sema)) t = KJIT_TARGET_CPU;
    if (t == KJIT_TARGET_AUTO || t == KJIT_TARGET_CUDA) {
        if (!kj_api_open_gpu(ctx, m->src.path, err)) return false;
        if (ctx->gpu) t = KJIT_TARGET_CUDA;
        else if (t == KJIT_TARGET_AUTO) t = KJIT_TARGET_CPU;
        else {
            kj_api_set_error(err, KJIT_ERR_RUNTIME, m->src.path, "%s", ctx->gpu_err);
            return false;
        }
    }
    m->target = t;
    /* the one translation from the API's enum to the compiler's (target.h) */
    m->cg.target = kj_api_run_target(t);
    if (t == KJIT_TARGET_CUDA) m->gpu = kj_gpu_retain(ctx->gpu);
    if (ctx->opt.arch) snprintf(m->arch, sizeof m->arch, "%s", ctx->opt.arch);
    else if (m->gpu) kj_gpu_arch(m->gpu, m->arch, sizeof m->arch);
    else snprintf(m->arch, sizeof m->arch, "sm_90");
    return true;
}

/* libdevice: $KJIT_LIBDEVICE, else under $CUDA_HOME, else /usr/local/cuda. */
const char *kj_api_libdevice_path(char *buf, size_t cap)
{
    const char *e = getenv("KJIT_LIBDEVICE");
    if (e && *e) return e;
    const char *home = getenv("CUDA_HOME");
    snprintf(buf, cap, "%s/nvvm/libdevice/libdevice.10.bc", home && *home ? home : "/usr/local/cuda");
    return buf;
}

static char *ptx_of(const kjit_module *m, const char *kernel, const kir_func *only, double *phases, kj_diags *d)
{
    char path[512];
    kj_ptx_opts o = {.arch = m->arch[0] ? m->arch : "sm_90", .opt_level = m->cg.opt_level,
                     /* as the host pipeline: invalid IR is a reported internal error, not an llc crash */
                     .verify = true, .libdevice = kj_api_libdevice_path(path, sizeof path),
                     .kernel = kernel, .only = only, .phases = phases};
    return kj_codegen_ptx(m->kir, &o, d);
}

char *kjit_module_ptx(kjit_module *m, const char *kernel, kjit_error *err)
{
    if (!m || !m->kir) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "kjit_module_ptx: module is NULL");
        return NULL;
    }
    if (!m->arch[0]) snprintf(m->arch, sizeof m->arch, "sm_90"); /* no device, no --arch */
    kj_diags d = {0};
    pthread_mutex_lock(&m->lock);
    /* kjit ptx: the program's ufunc calls as they would run on the GPU */
    kj_pipeline_opts po = {.to = KJ_STAGE_HOST_CODE, .target = KJ_RUN_CUDA};
    bool ok = !m->check_only || kj_pipeline(m, KJ_STAGE_UFUNCS, &po, &d, NULL);
    char *ptx = ok ? ptx_of(m, kernel, NULL, NULL, &d) : NULL;
    pthread_mutex_unlock(&m->lock);
    if (!ptx) kj_api_error_from_diags(err, KJIT_ERR_COMPILE, &d, m->src.path);
    else kj_api_clear_error(err);
    kj_diags_free(&d);
    return ptx;
}

/* The cubin of the module's kernels (or of `only`) for its GPU: from the
 * cache, else LLVM → PTX → the driver's assembler. */
static void *cubin_of(kjit_module *m, const kir_func *only, bool *hit, kj_diags *d)
{
    const kj_cu_props *p = kj_gpu_props(m->gpu);
    bool cached = m->cache && m->cache->c;
    kj_hasher h;
    kj_cache_key_init(&h, kjit_version());
    kj_hash mk = kj_api_module_key(m);
    kj_hash_part(&h, "module", mk.b, sizeof mk.b);
    kj_hash_str(&h, "gpu-arch", m->arch);
    kj_hash_u64(&h, "cuda-driver", (uint64_t)p->driver_version);
    kj_hash_str(&h, "kernel", only ? only->mangled : NULL);
    /* all of the module's kernels: functions specialised at call time may
     * have added some since its first compile (kj_api_gpu_reload) */
    for (uint32_t k = 0; !only && k < m->kir->nfuncs; k++)
        if (m->kir->funcs[k]->kind == KIR_FN_KERNEL) kj_hash_str(&h, "with", m->kir->funcs[k]->mangled);
    kj_hash key = kj_hash_final(&h);
    void *cubin = NULL;
    size_t n = 0;
    if (cached && kj_cache_get(m->cache->c, key, &cubin, &n)) {
        kj_gpu_note_compile(m->gpu, NULL, 0, true);
        *hit = true;
        return cubin;
    }
    double phases[KJ_PTX_PHASES] = {0};
    char *ptx = ptx_of(m, NULL, only, phases, d);
    if (!ptx) return NULL;
    double t1 = kj_rt_perf_counter();
    char err[4096];
    bool ok = kj_gpu_link(m->gpu, ptx, &cubin, &n, err, sizeof err);
    free(ptx);
    if (!ok) {
        kj_error(d, &m->src, m->kir->main ? m->kir->main->span : (kj_span){0}, "%s", err);
        return NULL;
    }
    kj_gpu_note_compile(m->gpu, phases, kj_rt_perf_counter() - t1, false);
    if (cached) kj_cache_put(m->cache->c, key, cubin, n);
    return cubin;
}

/* Reported as a GPU_COMPILE event (making or finding the cubin, loading it). */
static kj_gpu_code *load(kjit_module *m, const kir_func *only, kj_diags *d)
{
    double t0 = kj_rt_perf_counter();
    bool hit = false;
    void *cubin = cubin_of(m, only, &hit, d);
    if (!cubin) return NULL;
    char err[4096];
    kj_gpu_code *c = kj_gpu_load(m->gpu, cubin, err, sizeof err);
    free(cubin);
    if (!c) kj_error(d, &m->src, (kj_span){0}, "%s", err);
    else kj_ev_emit(&m->events.sink, KJ_EV_GPU_COMPILE, m->src.path, 0, kj_rt_perf_counter() - t0, hit);
    return c;
}

bool kj_api_gpu_code(kjit_module *m, kj_diags *d)
{
    if (!m->gpu || !kj_nvptx_has_kernels(m->kir)) return true;
    m->gpu_code = load(m, NULL, d);
    return m->gpu_code != NULL;
}

/* Does m->gpu_code lack a kernel of the module? Kernels that a launch
 * through the C API specialised went into their own modules (gpu_extra),
 * and host code launches them from m->gpu_code. */
static bool code_lacks_kernel(kjit_module *m)
{
    for (uint32_t k = 0; k < m->kir->nfuncs; k++) {
        const kir_func *f = m->kir->funcs[k];
        if (f->kind != KIR_FN_KERNEL) continue;
        if (!m->gpu_code || !kj_gpu_has(m->gpu_code, kj_ptx_symbol(&m->arena, f->mangled))) return true;
    }
    return false;
}

bool kj_api_gpu_reload(kjit_module *m, uint32_t from, kj_diags *d)
{
    bool any = false;
    for (uint32_t k = from; k < m->kir->nfuncs; k++) any |= m->kir->funcs[k]->kind == KIR_FN_KERNEL;
    if (!m->gpu) return true;
    if (!any) any = code_lacks_kernel(m);
    if (!any) return true;
    kj_gpu_code *c = load(m, NULL, d);
    if (!c) return false;
    /* a call running now may still use the old code: it goes when the module does */
    if (m->gpu_code) KJ_PUSH(&m->arena, m->gpu_extra, m->gpu_code);
    m->gpu_code = c;
    return true;
}

kj_gpu_code *kj_api_kernel_code(kjit_module *m, const kir_func *kf, kj_diags *d)
{
    if (m->gpu_code && kj_gpu_has(m->gpu_code, kj_ptx_symbol(&m->arena, kf->mangled))) return m->gpu_code;
    for (uint32_t k = 0; k < m->gpu_extra.n; k++)
        if (kj_gpu_has(m->gpu_extra.v[k], kj_ptx_symbol(&m->arena, kf->mangled))) return m->gpu_extra.v[k];
    kj_gpu_code *c = load(m, kf, d);
    if (c) KJ_PUSH(&m->arena, m->gpu_extra, c);
    return c;
}
