/* SPDX-License-Identifier: BSD-2-Clause */
/* The public C API (include/kjit.h) over the compiler's stages: options,
 * contexts, compiling (the stages themselves in pipeline.c), diagnostics and
 * the texts a module can show (KIR, LLVM IR, assembly). Calls are in call.c, machine code and the
 * cache in machine.c, arrays in array.c (api_int.h has the map).
 *
 * A kjit_ctx holds the options and the diagnostics of its last compile; a
 * kjit_module owns everything one compile made (arena, types, source copy,
 * AST, the analysis, KIR, machine code). There is no global state:
 * contexts are independent, so distinct contexts may compile on different
 * threads at once. */
#include "api_int.h"
#include "threads.h"

#include "frontend/parser.h"
#include "runtime/fault.h"
#include "runtime/npy.h"
#include "runtime/rt_host.h"
#include "util/env.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define STR_(x) #x
#define STR(x) STR_(x)

enum { MAX_SOURCE_BYTES = 64 << 20 }; /* larger .k files are refused, not read */

const char *kjit_version(void)
{
    return STR(KJIT_VERSION_MAJOR) "." STR(KJIT_VERSION_MINOR) "." STR(KJIT_VERSION_PATCH);
}

const char *kjit_suggest(const char *name, const char *const *candidates, size_t n)
{
    return name && candidates ? kj_closest(name, candidates, n) : NULL;
}

/* ---- errors ---- */

static void copy_str(char *dst, size_t cap, const char *s)
{
    snprintf(dst, cap, "%s", s ? s : "");
}

/* Fill `err` (which may be NULL) with an error that has no source location. */
void kj_api_set_error(kjit_error *err, kjit_status code, const char *file, const char *fmt, ...)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->code = code;
    copy_str(err->file, sizeof err->file, file);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

void kj_api_clear_error(kjit_error *err)
{
    /* the fields, not the 780 bytes: a launch from a loop clears it each time */
    if (!err) return;
    err->code = KJIT_OK;
    err->message[0] = err->file[0] = 0;
    err->line = err->col = 0;
}

/* ---- faults in compiled code (runtime/fault.h) ---- */

_Static_assert((int)KJIT_FAULT_EXIT_STATUS == (int)KJ_FAULT_EXIT, "kjit.h and fault.h agree on the exit status");

int kjit_install_fault_handler(kjit_error *err)
{
    char why[200];
    if (!kj_fault_install(why, sizeof why)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "kjit_install_fault_handler: %s", why);
        return KJIT_ERR_USAGE;
    }
    kj_api_clear_error(err);
    return KJIT_OK;
}

void kj_api_error_from_diags(kjit_error *err, kjit_status code, const kj_diags *d, const char *file)
{
    if (!err) return;
    for (uint32_t k = 0; k < d->n; k++) {
        const kj_diag *dg = &d->v[k];
        if (dg->sev != KJ_SEV_ERROR) continue;
        kj_api_set_error(err, code, dg->src ? dg->src->path : file, "%s", dg->msg);
        err->line = (int)dg->span.line;
        err->col = (int)dg->span.col;
        return;
    }
    kj_api_set_error(err, code, file, "%u errors", d->nerrors);
}

/* ---- options and contexts ---- */

void kjit_options_init(kjit_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->target = KJIT_TARGET_AUTO;
    opt->opt_level = kj_api_opt_level_from_env(3); /* KJIT_OPT, NUMBA_OPT: the default, an option wins */
    opt->max_errors = 0;
    opt->boundscheck = -1;
    opt->check_only = 0;
    opt->cache = 1;
    opt->keep = 0;
    opt->out = NULL;
}

/* A GPU architecture as PTX names them: sm_ and 2 or 3 digits, then
 * optionally a or f (sm_90a: the architecture-specific features). The same
 * rule as `kjit --arch` (src/cli/main.c). */
bool kj_api_arch_valid(const char *arch)
{
    size_t d = strncmp(arch, "sm_", 3) ? 0 : strspn(arch + 3, "0123456789");
    const char *rest = arch + 3 + d;
    return (d == 2 || d == 3) && (!*rest || ((*rest == 'a' || *rest == 'f') && !rest[1]));
}

/* Options out of range are a usage error naming the field. */
static bool check_options(const kjit_options *o, kjit_error *err)
{
    const char *bad = NULL;
    if (o->target < KJIT_TARGET_AUTO || o->target > KJIT_TARGET_CUDA) bad = "target";
    else if (o->opt_level < 0 || o->opt_level > 3) bad = "opt_level (0..3)";
    else if (o->max_errors < 0) bad = "max_errors (0 or more)";
    else if (o->boundscheck < -1 || o->boundscheck > 1) bad = "boundscheck (-1, 0 or 1)";
    else if (o->check_only < 0 || o->check_only > 1) bad = "check_only (0 or 1)";
    else if (o->cache < 0 || o->cache > 1) bad = "cache (0 or 1)";
    else if (o->keep & ~(unsigned)(KJIT_KEEP_LLVM_IR | KJIT_KEEP_ASM)) bad = "keep (KJIT_KEEP_* flags)";
    else if (o->arch && !kj_api_arch_valid(o->arch)) bad = "arch (sm_XY: sm_ and 2 or 3 digits, then a or f, e.g. sm_90)";
    if (!bad) return true;
    kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "invalid option value: %s", bad);
    return false;
}

static char *dup_or_null(const char *s)
{
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) abort(); /* out of memory */
    return d;
}

/* With boundscheck -1 the environment may force it, as NUMBA_BOUNDSCHECK
 * does: KJIT_BOUNDSCHECK (else NUMBA_BOUNDSCHECK) =1/yes/true/on or
 * 0/no/false/off (any case); unset or empty leaves it to the decorators.
 * Any other value is refused by kj_api_check_env, even where the option
 * overrides it. */
static void boundscheck_from_env(int *opt)
{
    bool on;
    char why[160];
    const char *name = kj_env_either("KJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK");
    if (*opt == -1 && kj_env_flag(name, &on, why, sizeof why) == KJ_ENV_SET) *opt = on;
}

/* KJIT_NO_CACHE=1 (or yes/true/on) turns the cache off. */
static int cache_from_env(int opt) { return kj_api_env_flag("KJIT_NO_CACHE", false) ? 0 : opt; }

kjit_ctx *kjit_ctx_new(const kjit_options *opt, kjit_error *err)
{
    kjit_options o;
    if (opt) o = *opt;
    else kjit_options_init(&o);
    if (!check_options(&o, err) || !kj_api_check_env(err)) return NULL;
    boundscheck_from_env(&o.boundscheck);
    kjit_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) abort();
    ctx->arch = dup_or_null(o.arch);
    ctx->cache_dir = dup_or_null(o.cache_dir);
    o.arch = ctx->arch;
    o.cache_dir = ctx->cache_dir;
    o.cache = cache_from_env(o.cache);
    ctx->opt = o;
    kj_api_events_init(&ctx->events, &o);
    ctx->stats = kj_api_stats_new();
    ctx->threads = kj_api_threads_new();
    pthread_mutex_init(&ctx->lock, NULL);
    kj_api_clear_error(err);
    return ctx;
}

/* Forget the last compile's diagnostics and source. */
static void reset_last(kjit_ctx *ctx)
{
    kj_diags_free(&ctx->diags);
    ctx->diags.max_errors = (uint32_t)ctx->opt.max_errors;
    free((char *)ctx->src.text);
    free((char *)ctx->src.path);
    ctx->src = (kj_source){0};
}

void kjit_ctx_free(kjit_ctx *ctx)
{
    if (!ctx) return;
    reset_last(ctx);
    kj_api_cache_release(ctx->cache);
    kj_gpu_release(ctx->gpu);
    kj_mpi_release(ctx->mpi); /* after the modules: MPI_Finalize, when kjit initialised MPI */
    kj_pool_release(ctx->pool); /* joins its threads unless a module still holds it */
    kj_api_stats_release(ctx->stats);
    kj_api_threads_release(ctx->threads);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->arch);
    free(ctx->cache_dir);
    free(ctx);
}

int kjit_ctx_error_count(const kjit_ctx *ctx)
{
    if (!ctx) return 0;
    kjit_ctx *c = (kjit_ctx *)(uintptr_t)ctx; /* the lock is not part of its value */
    pthread_mutex_lock(&c->lock);
    int n = (int)c->diags.nerrors;
    pthread_mutex_unlock(&c->lock);
    return n;
}

static kj_diag_format diag_format(kjit_diag_format fmt)
{
    return fmt == KJIT_DIAG_JSON ? KJ_DIAG_JSON : fmt == KJIT_DIAG_SHORT ? KJ_DIAG_SHORT : KJ_DIAG_HUMAN;
}

/* Print `d` into a malloc'd string. */
static char *format_diags(const kj_diags *d, kjit_diag_format fmt)
{
    char *s = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&s, &n);
    if (!mem) abort(); /* only fails for lack of memory */
    if (d) kj_diags_print(d, mem, diag_format(fmt));
    fclose(mem);
    return s;
}

char *kjit_ctx_diagnostics(kjit_ctx *ctx, kjit_diag_format fmt)
{
    if (!ctx) return format_diags(NULL, fmt);
    pthread_mutex_lock(&ctx->lock);
    char *s = format_diags(&ctx->diags, fmt);
    pthread_mutex_unlock(&ctx->lock);
    return s;
}

/* ---- compiling ---- */

void kjit_module_free(kjit_module *m)
{
    if (!m) return;
    kj_api_launch_plans_free(m);
    kj_api_free_code(m);
    kj_pool_release(m->pool);
    kj_api_stats_release(m->stats);
    kj_api_threads_release(m->threads);
    pthread_mutex_destroy(&m->lock);
    kj_arena_free(&m->arena);
    free(m);
}

/* A new module holding its own copy of the source (NUL-terminated) and the
 * context's options that later code generation needs. */
static kjit_module *module_new(const kjit_ctx *ctx, const char *source, size_t len, const char *filename)
{
    kjit_module *m = calloc(1, sizeof *m);
    if (!m) abort();
    kj_arena_init(&m->arena);
    pthread_mutex_init(&m->lock, NULL);
    m->types = kj_types_new(&m->arena);
    m->src.path = kj_arena_strdup(&m->arena, filename ? filename : "<input>");
    m->src.text = kj_arena_strndup(&m->arena, source ? source : "", len);
    m->src.len = len;
    m->sopt = (kj_sema_options){.boundscheck = ctx->opt.boundscheck, .npy_info = kj_npy_header_info};
    m->cg = (kj_codegen_opts){
        .opt_level = ctx->opt.opt_level,
        .keep_ir = (ctx->opt.keep & KJIT_KEEP_LLVM_IR) != 0,
        .keep_asm = (ctx->opt.keep & KJIT_KEEP_ASM) != 0,
    };
    m->target = ctx->opt.target;
    m->cg.target = kj_api_run_target(m->target); /* auto stays DEFAULT until the TARGET stage */
    if (ctx->opt.arch) snprintf(m->arch, sizeof m->arch, "%s", ctx->opt.arch);
    m->out = ctx->opt.out;
    kj_api_events_init(&m->events, &ctx->opt);
    m->stats = kj_api_stats_retain(ctx->stats);
    m->threads = kj_api_threads_retain(ctx->threads);
    m->check_only = ctx->opt.check_only != 0;
    m->fuse = !kj_api_env_flag("KJIT_NO_FUSE", false);
    m->specialise = !kj_api_env_flag("KJIT_NO_SPECIALISE", false);
    /* off unless asked: on an H100 the 32-bit entries gained under 1 % (stencil
     * 0.4508 against 0.4535 ms) and cost 13 ms more in a cold compile (40 against
     * 26.5 ms), docs/performance.md "Issue 28" */
    m->index32 = m->specialise && kj_api_env_flag("KJIT_INDEX32", false);
    m->regroup = m->specialise && !kj_api_env_flag("KJIT_NO_REGROUP", false);
    return m;
}

/* Keep the diagnostics of this compile readable after the module is gone:
 * the context takes its own copy of the source and they point at that. */
static void keep_diagnostics(kjit_ctx *ctx, const kjit_module *m)
{
    char *text = malloc(m->src.len + 1);
    char *path = strdup(m->src.path);
    if (!text || !path) abort();
    memcpy(text, m->src.text, m->src.len + 1);
    ctx->src = (kj_source){.path = path, .text = text, .len = m->src.len};
    for (uint32_t k = 0; k < ctx->diags.n; k++)
        if (ctx->diags.v[k].src == &m->src) ctx->diags.v[k].src = &ctx->src;
}

/* Does the module have functions that run in parallel on any target? */
static bool has_parallel_fns(const kir_module *km)
{
    for (uint32_t k = 0; k < km->nfuncs; k++)
        if (km->funcs[k]->target == KJ_RUN_PARALLEL) return true;
    return false;
}

bool kj_api_pool(kjit_ctx *ctx, kjit_module *m, kjit_error *err)
{
    if (m->cg.target != KJ_RUN_PARALLEL && !has_parallel_fns(m->kir)) return true;
    if (!ctx->pool) {
        int n = 1;
        char why[200];
        if (!kj_pool_threads_from_env(&n, why, sizeof why)) {
            kj_api_set_error(err, KJIT_ERR_USAGE, m->src.path, "%s", why);
            return false;
        }
        ctx->pool = kj_pool_new(n);
    }
    m->pool = kj_pool_retain(ctx->pool);
    if (ctx->stats) kj_api_stats_pool(ctx->stats, ctx->pool);
    return true;
}

/* kj_pipeline (pipeline.c) from the source, under ctx->lock. The analysis
 * stays alive in the module, so that kjit_call can specialise functions for
 * new argument types later. check_only (kjit check, kjit ir, kjit ptx) stops
 * before UFUNCS and leaves out the runtime's stages. */
static kjit_module *compile_locked(kjit_ctx *ctx, const char *source, size_t len, const char *filename,
                                   const kjit_global *globals, int nglobals, kjit_error *err)
{
    reset_last(ctx);
    kj_diags *d = &ctx->diags;
    kjit_module *m = module_new(ctx, source, len, filename);
    if (!kj_api_globals_copy(m, globals, nglobals, err)) {
        kjit_module_free(m);
        return NULL;
    }
    kj_pipeline_opts po = {.ctx = ctx, .to = m->check_only ? KJ_STAGE_UFUNCS : KJ_STAGE_END};
    bool ok = kj_pipeline(m, KJ_STAGE_PARSE, &po, d, err);
    keep_diagnostics(ctx, m);
    if (!ok) {
        if (kj_has_errors(d)) kj_api_error_from_diags(err, KJIT_ERR_COMPILE, &ctx->diags, ctx->src.path);
        kjit_module_free(m);
        return NULL;
    }
    kj_api_clear_error(err);
    return m;
}

kjit_module *kjit_compile(kjit_ctx *ctx, const char *source, size_t len, const char *filename,
                          kjit_error *err)
{
    return kjit_compile_globals(ctx, source, len, filename, NULL, 0, err);
}

kjit_module *kjit_compile_globals(kjit_ctx *ctx, const char *source, size_t len, const char *filename,
                                  const kjit_global *globals, int nglobals, kjit_error *err)
{
    if (!ctx || (!source && len)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, filename, "kjit_compile: %s is NULL", ctx ? "source" : "ctx");
        return NULL;
    }
    /* the limit files have: a huge len (a negative one cast, say) must not
     * reach the copy, whose allocation fails and aborts the process */
    if (len > MAX_SOURCE_BYTES) {
        kj_api_set_error(err, KJIT_ERR_USAGE, filename,
                         "kjit_compile: len is %zu bytes; a program has at most 64 MB of source", len);
        return NULL;
    }
    pthread_mutex_lock(&ctx->lock);
    kjit_module *m = compile_locked(ctx, source, len, filename, globals, nglobals, err);
    pthread_mutex_unlock(&ctx->lock);
    return m;
}

/* Why reading failed: an errno, or a reason of our own when errnum is 0. */
typedef struct io_fail {
    int errnum;
    const char *reason;
} io_fail;

/* Read all of `f` (a file, pipe or terminal) up to MAX_SOURCE_BYTES.
 * Returns the malloc'd text, or NULL with the reason in *why. */
static char *read_all(FILE *f, size_t *len, io_fail *why)
{
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    if (!buf) abort();
    /* Read at most one byte past the limit: enough to know it is exceeded. */
    while (n <= MAX_SOURCE_BYTES) {
        if (n == cap) {
            cap = cap * 2 > (size_t)MAX_SOURCE_BYTES + 1 ? (size_t)MAX_SOURCE_BYTES + 1 : cap * 2;
            char *nb = realloc(buf, cap);
            if (!nb) abort();
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) *why = (io_fail){.errnum = errno ? errno : EIO};
    else if (n > MAX_SOURCE_BYTES) *why = (io_fail){.reason = "file is larger than 64 MB"};
    else {
        *len = n;
        return buf;
    }
    free(buf);
    return NULL;
}

/* Open `path` for reading (directories are refused with EISDIR: fopen
 * accepts them on Linux and fails only on the first read). */
static FILE *open_source(const char *path, io_fail *why)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        *why = (io_fail){.errnum = errno};
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        *why = (io_fail){.errnum = EISDIR};
        return NULL;
    }
    if (S_ISREG(st.st_mode) && st.st_size > MAX_SOURCE_BYTES) {
        *why = (io_fail){.reason = "file is larger than 64 MB"};
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) *why = (io_fail){.errnum = errno};
    return f;
}

kjit_module *kjit_compile_file(kjit_ctx *ctx, const char *path, kjit_error *err)
{
    if (!ctx || !path) {
        kj_api_set_error(err, KJIT_ERR_USAGE, path, "kjit_compile_file: %s is NULL", ctx ? "path" : "ctx");
        return NULL;
    }
    io_fail why = {0};
    size_t len = 0;
    FILE *f = open_source(path, &why);
    char *text = f ? read_all(f, &len, &why) : NULL;
    if (f) fclose(f);
    if (!text) {
        pthread_mutex_lock(&ctx->lock);
        reset_last(ctx); /* no compile happened: no diagnostics */
        pthread_mutex_unlock(&ctx->lock);
        char buf[128];
        /* GNU strerror_r: thread-safe, returns the message (maybe not buf). */
        const char *reason = why.reason ? why.reason : strerror_r(why.errnum, buf, sizeof buf);
        kj_api_set_error(err, KJIT_ERR_IO, path, "cannot read '%s': %s", path, reason);
        return NULL;
    }
    kjit_module *m = kjit_compile(ctx, text, len, path, err);
    free(text);
    return m;
}

/* ---- texts ---- */

char *kjit_module_ir(const kjit_module *m)
{
    kj_buf b = {0};
    if (m && m->kir) {
        kjit_module *mm = (kjit_module *)(uintptr_t)m; /* kjit_call may add functions meanwhile */
        pthread_mutex_lock(&mm->lock);
        kir_print_module(m->kir, &b);
        pthread_mutex_unlock(&mm->lock);
    }
    return kj_buf_take(&b);
}

char *kjit_module_llvm_ir(kjit_module *m, kjit_error *err) { return kj_api_code_text(m, true, err); }
char *kjit_module_asm(kjit_module *m, kjit_error *err) { return kj_api_code_text(m, false, err); }

/* The span of line:col in `src` (one byte long: a run-time error knows its
 * position, not the extent of the expression). */
static kj_span locate(const kj_source *src, int line, int col)
{
    kj_span sp = {.len = 1, .line = (uint32_t)line, .col = (uint32_t)col};
    size_t off = 0;
    for (int l = 1; l < line && off < src->len; off++)
        if (src->text[off] == '\n') l++;
    size_t end = off;
    while (end < src->len && src->text[end] != '\n') end++;
    off += col > 0 ? (size_t)col - 1 : 0;
    sp.off = (uint32_t)(off < end ? off : end);
    return sp;
}

/* Drop the first "error: " after "path:line:col: ": a run-time error
 * prints its exception's name there instead, as Python does. */
static void drop_severity(char *s, const char *path, int line, int col)
{
    char prefix[300];
    int n = snprintf(prefix, sizeof prefix, "%s:%d:%d: error: ", path, line, col);
    if (n <= 0 || (size_t)n >= sizeof prefix || strncmp(s, prefix, (size_t)n)) return;
    size_t keep = (size_t)n - strlen("error: ");
    memmove(s + keep, s + n, strlen(s + n) + 1);
}

char *kjit_error_format(const kjit_module *m, const kjit_error *err, kjit_diag_format fmt)
{
    if (!err) return format_diags(NULL, fmt);
    bool runtime = err->code == KJIT_ERR_RUNTIME;
    if (err->line <= 0 && fmt != KJIT_DIAG_JSON) {
        kj_buf b = {0};
        if (err->file[0]) kj_buf_printf(&b, "%s: ", err->file);
        kj_buf_printf(&b, "%s%s\n", runtime ? "" : "error: ", err->message);
        return kj_buf_take(&b);
    }
    /* The diagnostics printer, for the same excerpt and caret as compile
     * errors (no excerpt without the module's source: `text` NULL). */
    kj_source nosrc = {.path = err->file};
    bool have = m && !strcmp(m->src.path, err->file);
    kj_span sp = {.line = (uint32_t)(err->line > 0 ? err->line : 0),
                  .col = (uint32_t)(err->col > 0 ? err->col : 0)};
    if (have && err->line > 0) sp = locate(&m->src, err->line, err->col);
    kj_diags d = {0};
    kj_error(&d, have ? &m->src : &nosrc, sp, "%s", err->message);
    char *s = format_diags(&d, fmt);
    kj_diags_free(&d);
    if (runtime && fmt != KJIT_DIAG_JSON) drop_severity(s, err->file, err->line, err->col);
    return s;
}

kjit_target kjit_module_target(const kjit_module *m) { return m ? m->target : KJIT_TARGET_AUTO; }
