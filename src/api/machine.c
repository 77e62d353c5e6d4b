/* SPDX-License-Identifier: BSD-2-Clause */
/* Machine code for a module: the last stage of kjit_compile, the code of
 * specialisations made at call time, and the LLVM IR / assembly texts.
 *
 * Compile time. The host functions of the module's KIR go through the host
 * code generator into one LLJIT (m->jit). With the cache on, the object
 * file is kept in the context's compile cache (src/cache/cache.h) under a
 * BLAKE3 key of everything that decides the code: the source text, the
 * options that change code generation, the kjit build and LLVM versions,
 * and the host's target triple, CPU name and features. A hit loads the
 * object instead of generating it. The front end still runs on a hit: the
 * KIR is needed anyway (entry point names, parameter types, later
 * specialisations), and parsing plus type checking costs far less than
 * LLVM's -O3 (docs/embedding.md has figures).
 *
 * Call time. kjit_call may specialise a function for argument types the
 * program never used; sema appends the new kir_funcs to the module's KIR.
 * Their code is generated as a small KIR module of the new function and
 * everything it calls, loaded into an LLJIT of its own that the module
 * keeps (m->extra). Callees already compiled into m->jit are compiled again
 * into the new JIT: simpler and safer than linking JITs to each other, and
 * the copies are small (only what the new function reaches). That object
 * is cached too, under the module's key extended by the specialisation's
 * name, so the next process calling with the same types loads it. */
#include "api_int.h"

#include "ir/builtins.h"
#include "util/alloc.h"

#include <llvm-c/Core.h> /* host triple and CPU of cache keys */
#include <llvm-c/TargetMachine.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the compile cache ---- */

/* The context's cache and counters, made at the first compile; the cache
 * itself (->c) is NULL when caching is off. */
static kj_api_cache *ctx_cache(kjit_ctx *ctx)
{
    if (!ctx->cache) {
        kj_cache_options co = {.dir = ctx->cache_dir};
        char why[256];
        (void)kj_api_cache_max(&co.disk_max, why, sizeof why); /* checked by kjit_ctx_new */
        ctx->cache = calloc(1, sizeof *ctx->cache);
        if (!ctx->cache) abort();
        ctx->cache->c = ctx->opt.cache ? kj_cache_open(&co) : NULL;
        atomic_init(&ctx->cache->refs, 1);
    }
    return ctx->cache;
}

static kj_api_cache *cache_retain(kj_api_cache *ac)
{
    if (ac) atomic_fetch_add(&ac->refs, 1);
    return ac;
}

void kj_api_cache_release(kj_api_cache *ac)
{
    if (!ac || atomic_fetch_sub(&ac->refs, 1) != 1) return;
    kj_cache_close(ac->c);
    free(ac);
}

/* Which kjit built this code: the version alone is not enough while kjit is
 * developed (the code generator changes without a version bump), so the
 * identity of the library file itself (size, time, inode) is added. */
static void hash_build(kj_hasher *h)
{
    Dl_info info;
    struct stat st;
    void *self = (void *)(uintptr_t)&kjit_version;
    if (dladdr(self, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0) {
        kj_hash_u64(h, "lib-size", (uint64_t)st.st_size);
        kj_hash_u64(h, "lib-mtime", (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec);
        kj_hash_u64(h, "lib-inode", (uint64_t)st.st_ino);
    }
}

/* The host LLVM generates code for. */
static void hash_host(kj_hasher *h)
{
    char *triple = LLVMGetDefaultTargetTriple();
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    kj_hash_str(h, "triple", triple);
    kj_hash_str(h, "cpu", cpu);
    kj_hash_str(h, "features", features);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
}

/* The array type of each np.load of a constant path in km: read from the
 * file's header at compile time and built into the code, so one source
 * compiles to other code once the file holds another dtype, ndim or order
 * (without it the cache served code that refused the new file). */
static void hash_loads(kj_hasher *h, const kir_module *km)
{
    for (uint32_t k = 0; km && k < km->nfuncs; k++) {
        const kir_func *f = km->funcs[k];
        for (uint32_t r = 1; r < f->ninsts; r++)
            if (f->insts[r].op == KIR_BUILTIN && f->insts[r].aux == KJ_B_NP_LOAD)
                kj_hash_str(h, "np.load", kj_type_str(f->insts[r].type));
    }
}

/* The key of a module's object file. The file name is left out: it is not
 * in the code (run-time errors get it from the kj_rt), so a program compiled
 * from two paths shares one entry. */
kj_hash kj_api_module_key(const kjit_module *m)
{
    kj_hasher h;
    kj_cache_key_init(&h, kjit_version());
    hash_build(&h);
    hash_host(&h);
    kj_hash_part(&h, "source", m->src.text, m->src.len);
    kj_api_globals_hash(&h, m);
    kj_hash_u64(&h, "opt-level", (uint64_t)m->cg.opt_level);
    kj_hash_u64(&h, "boundscheck", (uint64_t)(m->sopt.boundscheck + 1));
    kj_hash_u64(&h, "target", (uint64_t)m->target);
    kj_hash_str(&h, "arch", m->arch); /* cuda.compile_ptx_for_current_device's PTX is in the host code */
    kj_hash_u64(&h, "fuse", (uint64_t)m->fuse);
    kj_hash_u64(&h, "specialise", (uint64_t)m->specialise);
    kj_hash_u64(&h, "index32", (uint64_t)m->index32);
    kj_hash_u64(&h, "regroup", (uint64_t)m->regroup);
    hash_loads(&h, m->kir);
    return kj_hash_final(&h);
}

/* The first host function of `km`, or NULL. */
static const kir_func *first_host(const kir_module *km)
{
    for (uint32_t k = 0; k < km->nfuncs; k++)
        if (km->funcs[k]->kind != KIR_FN_KERNEL && km->funcs[k]->kind != KIR_FN_DEVICE) return km->funcs[k];
    return NULL;
}

/* Load the cached object of `key`, linking it now (as a fresh compile
 * does) by looking up the entry point of `probe` (a function it must
 * define). Entries are checked by the cache (hashes, lengths); an object
 * LLVM cannot load or link anyway counts as a miss, and is replaced by the
 * next put. */
static kj_jit *load_cached(kj_api_cache *ac, kj_hash key, const kir_func *probe)
{
    void *obj = NULL;
    size_t len = 0;
    uint64_t disk_before = kj_cache_get_stats(ac->c).disk_hits;
    if (!kj_cache_get(ac->c, key, &obj, &len)) return NULL;
    char why[256];
    kj_jit *j = kj_jit_from_object(obj, len, why, sizeof why);
    free(obj);
    if (j && probe && !kj_jit_lookup(j, probe->mangled)) {
        kj_jit_free(j);
        j = NULL;
    }
    if (!j) return NULL;
    atomic_fetch_add(&ac->hits, 1);
    if (kj_cache_get_stats(ac->c).disk_hits > disk_before) atomic_fetch_add(&ac->disk_hits, 1);
    return j;
}

/* Generate the code of `km`, counting a miss, and store its object under
 * `key` when `cached`. */
static kj_jit *generate(kj_api_cache *ac, bool cached, kj_hash key, const kir_module *km, kj_codegen_opts o,
                        kj_diags *d)
{
    o.keep_object = cached;
    kj_jit *j = kj_codegen_host(km, &o, d);
    if (!j) return NULL;
    atomic_fetch_add(&ac->misses, 1);
    size_t n = 0;
    const void *obj = cached ? kj_jit_object(j, &n) : NULL;
    if (obj) kj_cache_put(ac->c, key, obj, n);
    return j;
}

bool kj_api_machine_code(kjit_ctx *ctx, kjit_module *m, kj_diags *d)
{
    m->cache = cache_retain(ctx_cache(ctx));
    /* Kept texts come only from a fresh generation: no cache then. */
    bool cached = m->cache->c && !m->cg.keep_ir && !m->cg.keep_asm;
    if (cached) {
        m->key = kj_api_module_key(m);
        if ((m->jit = load_cached(m->cache, m->key, first_host(m->kir)))) return true;
    }
    m->jit = generate(m->cache, cached, m->key, m->kir, m->cg, d);
    return m->jit != NULL;
}

kjit_cache_stats kjit_ctx_cache_stats(kjit_ctx *ctx, const char **dir)
{
    kjit_cache_stats s = {0};
    if (dir) *dir = NULL;
    if (!ctx) return s;
    pthread_mutex_lock(&ctx->lock);
    kj_api_cache *ac = ctx->cache;
    if (ac) {
        s.hits = atomic_load(&ac->hits);
        s.disk_hits = atomic_load(&ac->disk_hits);
        s.misses = atomic_load(&ac->misses);
    }
    if (ac && ac->c) {
        s.corrupt = kj_cache_get_stats(ac->c).corrupt;
        if (dir) *dir = kj_cache_dir(ac->c);
    }
    pthread_mutex_unlock(&ctx->lock);
    return s;
}

/* ---- code for specialisations made at call time ---- */

static bool has_func(const kir_module *km, const kir_func *f)
{
    for (uint32_t k = 0; k < km->nfuncs; k++)
        if (km->funcs[k] == f) return true;
    return false;
}

static void add_func(kj_arena *a, kir_module *km, kir_func *f)
{
    if (km->nfuncs == km->cap_funcs) {
        uint32_t cap = km->cap_funcs ? km->cap_funcs * 2 : 8;
        km->funcs = kj_arena_grow(a, km->funcs, km->nfuncs, cap, sizeof *km->funcs);
        km->cap_funcs = cap;
    }
    km->funcs[km->nfuncs++] = f;
}

/* `f` and every function it reaches through calls, launches and ufunc
 * applications, each once. */
static void add_closure(kj_arena *a, kir_module *km, kir_func *f)
{
    if (has_func(km, f)) return;
    add_func(a, km, f);
    for (uint32_t r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if ((in->op == KIR_CALL || in->op == KIR_LAUNCH || in->op == KIR_UFUNC_CALL || in->op == KIR_UFUNC_REDUCE) &&
            in->fn)
            add_closure(a, km, in->fn);
    }
}

/* The entry point of `kf` in code already loaded, or NULL. */
static kj_entry_fn find_loaded(kjit_module *m, const kir_func *kf)
{
    kj_entry_fn e = m->jit ? kj_jit_lookup(m->jit, kf->mangled) : NULL;
    for (uint32_t k = 0; !e && k < m->extra.n; k++) e = kj_jit_lookup(m->extra.v[k], kf->mangled);
    return e;
}

/* The key of a specialisation's code: the module's key (source, options,
 * build, host), the specialisation's name, which spells its argument types,
 * and the files its np.loads read (km: it and its callees); its code, and
 * its callees', follow from these. */
static kj_hash spec_key(const kjit_module *m, const kir_func *kf, const kir_module *km)
{
    kj_hasher h;
    kj_cache_key_init(&h, kjit_version());
    kj_hash_part(&h, "module", m->key.b, sizeof m->key.b);
    kj_hash_str(&h, "specialisation", kf->mangled);
    hash_loads(&h, km);
    return kj_hash_final(&h);
}

kj_entry_fn kj_api_entry(kjit_module *m, const kir_func *kf, kj_diags *d)
{
    kj_entry_fn e = find_loaded(m, kf);
    if (e) return e;
    /* m->key is set when the module's own code went through the cache */
    bool cached = m->cache && m->cache->c && !m->cg.keep_ir && !m->cg.keep_asm;
    kir_module *km = kir_module_new(&m->arena, &m->src);
    add_closure(&m->arena, km, (kir_func *)(uintptr_t)kf);
    kj_hash key = cached ? spec_key(m, kf, km) : (kj_hash){{0}};
    kj_jit *j = cached ? load_cached(m->cache, key, kf) : NULL;
    if (!j) {
        kj_codegen_opts o = m->cg;
        o.keep_ir = o.keep_asm = false;
        j = m->cache ? generate(m->cache, cached, key, km, o, d) : kj_codegen_host(km, &o, d);
    }
    if (!j) return NULL;
    KJ_PUSH(&m->arena, m->extra, j);
    e = kj_jit_lookup(j, kf->mangled);
    if (!e) kj_error(d, &m->src, kf->span, "internal compiler error: no entry point for '%s'", kf->mangled);
    return e;
}

void *kj_api_block_entry(kjit_module *m, const kir_func *kf, kj_diags *d)
{
    const char *name = kj_arena_printf(&m->arena, "%s.block_entry", kf->mangled);
    void *p = kj_jit_address(m->jit, name);
    for (uint32_t k = 0; !p && k < m->extra.n; k++) p = kj_jit_address(m->extra.v[k], name);
    if (p) return p;
    kir_module *km = kir_module_new(&m->arena, &m->src);
    add_closure(&m->arena, km, (kir_func *)(uintptr_t)kf);
    kj_codegen_opts o = m->cg;
    o.keep_ir = o.keep_asm = o.keep_object = false;
    kj_jit *j = kj_codegen_host(km, &o, d);
    if (!j) return NULL;
    KJ_PUSH(&m->arena, m->extra, j);
    p = kj_jit_address(j, name);
    if (!p) kj_error(d, &m->src, kf->span, "internal compiler error: no block entry for '%s'", kf->mangled);
    return p;
}

/* ---- texts ---- */

/* Generate the module's code again, keeping both texts. */
static bool regenerate_texts(kjit_module *m, kjit_error *err)
{
    kj_codegen_opts o = m->cg;
    o.keep_ir = o.keep_asm = true;
    o.keep_object = false;
    kj_diags d = {0};
    kj_jit *j = kj_codegen_host(m->kir, &o, &d);
    if (j) {
        m->llvm_ir = xstrdup(kj_jit_ir(j));
        m->asm_text = xstrdup(kj_jit_asm(j));
        kj_jit_free(j);
    } else {
        kj_api_error_from_diags(err, KJIT_ERR_COMPILE, &d, m->src.path);
    }
    kj_diags_free(&d);
    return j != NULL;
}

char *kj_api_code_text(kjit_module *m, bool llvm, kjit_error *err)
{
    if (!m || !m->kir) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "kjit_module_%s: module is NULL",
                         llvm ? "llvm_ir" : "asm");
        return NULL;
    }
    pthread_mutex_lock(&m->lock);
    const char *kept = llvm ? kj_jit_ir(m->jit) : kj_jit_asm(m->jit);
    if (!kept && !m->llvm_ir && !regenerate_texts(m, err)) {
        pthread_mutex_unlock(&m->lock);
        return NULL;
    }
    char *s = xstrdup(kept ? kept : llvm ? m->llvm_ir : m->asm_text);
    pthread_mutex_unlock(&m->lock);
    kj_api_clear_error(err);
    return s;
}

void kj_api_free_code(kjit_module *m)
{
    kj_jit_free(m->jit);
    for (uint32_t k = 0; k < m->extra.n; k++) kj_jit_free(m->extra.v[k]);
    kj_gpu_unload(m->gpu_code);
    for (uint32_t k = 0; k < m->gpu_extra.n; k++) kj_gpu_unload(m->gpu_extra.v[k]);
    kj_gpu_release(m->gpu);
    kj_mpi_release(m->mpi);
    m->mpi = NULL;
    free(m->llvm_ir);
    free(m->asm_text);
    kj_api_cache_release(m->cache);
}
