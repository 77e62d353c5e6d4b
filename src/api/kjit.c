/* The public C API (include/kjit.h) over the compiler's stages.
 *
 * A kjit_ctx holds the options and the diagnostics of its last compile; a
 * kjit_module owns everything one compile made (arena, types, source copy,
 * KIR). There is no global state: contexts are independent, so distinct
 * contexts may compile on different threads at once. */
#include <kjit.h>

#include "frontend/diag.h"
#include "frontend/parser.h"
#include "ir/kir.h"
#include "ir/sema.h"
#include "ir/types.h"
#include "util/arena.h"
#include "util/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define STR_(x) #x
#define STR(x) STR_(x)

enum { MAX_SOURCE_BYTES = 64 << 20 }; /* larger .k files are refused, not read */

struct kjit_ctx {
    kjit_options opt;
    char *arch, *cache_dir; /* owned copies of the option strings */
    /* The last compile: its diagnostics point at `src`, a copy of its
     * source that outlives the module (which may already be freed). */
    kj_diags diags;
    kj_source src;
};

struct kjit_module {
    kj_arena arena;
    kj_types *types;
    kj_source src; /* text and path in the arena */
    kir_module *kir;
};

const char *kjit_version(void)
{
    return STR(KJIT_VERSION_MAJOR) "." STR(KJIT_VERSION_MINOR) "." STR(KJIT_VERSION_PATCH);
}

/* ---- errors ---- */

static void copy_str(char *dst, size_t cap, const char *s)
{
    snprintf(dst, cap, "%s", s ? s : "");
}

static void set_error(kjit_error *err, kjit_status code, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Fill `err` (which may be NULL) with an error that has no source location. */
static void set_error(kjit_error *err, kjit_status code, const char *file, const char *fmt, ...)
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

static void clear_error(kjit_error *err)
{
    if (err) memset(err, 0, sizeof *err);
}

/* `err` from the first error diagnostic of the last compile. */
static void set_compile_error(kjit_error *err, const kjit_ctx *ctx)
{
    if (!err) return;
    for (uint32_t k = 0; k < ctx->diags.n; k++) {
        const kj_diag *dg = &ctx->diags.v[k];
        if (dg->sev != KJ_SEV_ERROR) continue;
        set_error(err, KJIT_ERR_COMPILE, dg->src ? dg->src->path : NULL, "%s", dg->msg);
        err->line = (int)dg->span.line;
        err->col = (int)dg->span.col;
        return;
    }
    set_error(err, KJIT_ERR_COMPILE, ctx->src.path, "%u errors", ctx->diags.nerrors);
}

/* ---- options and contexts ---- */

void kjit_options_init(kjit_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->target = KJIT_TARGET_AUTO;
    opt->opt_level = 3;
    opt->max_errors = 0;
    opt->boundscheck = -1;
}

/* Options out of range are a usage error naming the field. */
static bool check_options(const kjit_options *o, kjit_error *err)
{
    const char *bad = NULL;
    if (o->target < KJIT_TARGET_AUTO || o->target > KJIT_TARGET_CUDA) bad = "target";
    else if (o->opt_level < 0 || o->opt_level > 3) bad = "opt_level (0..3)";
    else if (o->max_errors < 0) bad = "max_errors (0 or more)";
    else if (o->boundscheck < -1 || o->boundscheck > 1) bad = "boundscheck (-1, 0 or 1)";
    if (!bad) return true;
    set_error(err, KJIT_ERR_USAGE, NULL, "invalid option value: %s", bad);
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
 * does: KJIT_BOUNDSCHECK=0 or 1. */
static int boundscheck_from_env(int opt)
{
    if (opt != -1) return opt;
    const char *e = getenv("KJIT_BOUNDSCHECK");
    if (e && !strcmp(e, "0")) return 0;
    if (e && !strcmp(e, "1")) return 1;
    return -1;
}

kjit_ctx *kjit_ctx_new(const kjit_options *opt, kjit_error *err)
{
    kjit_options o;
    if (opt) o = *opt;
    else kjit_options_init(&o);
    if (!check_options(&o, err)) return NULL;
    kjit_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) abort();
    ctx->arch = dup_or_null(o.arch);
    ctx->cache_dir = dup_or_null(o.cache_dir);
    o.arch = ctx->arch;
    o.cache_dir = ctx->cache_dir;
    o.boundscheck = boundscheck_from_env(o.boundscheck);
    ctx->opt = o;
    clear_error(err);
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
    free(ctx->arch);
    free(ctx->cache_dir);
    free(ctx);
}

int kjit_ctx_error_count(const kjit_ctx *ctx) { return ctx ? (int)ctx->diags.nerrors : 0; }

char *kjit_ctx_diagnostics(kjit_ctx *ctx, kjit_diag_format fmt)
{
    kj_diag_format f = fmt == KJIT_DIAG_JSON    ? KJ_DIAG_JSON
                       : fmt == KJIT_DIAG_SHORT ? KJ_DIAG_SHORT
                                                : KJ_DIAG_HUMAN;
    char *s = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&s, &n);
    if (!mem) abort(); /* only fails for lack of memory */
    if (ctx) kj_diags_print(&ctx->diags, mem, f);
    fclose(mem);
    return s;
}

/* ---- compiling ---- */

static void module_free(kjit_module *m)
{
    if (!m) return;
    kj_arena_free(&m->arena);
    free(m);
}

void kjit_module_free(kjit_module *m) { module_free(m); }

/* A new module holding its own copy of the source (NUL-terminated). */
static kjit_module *module_new(const char *source, size_t len, const char *filename)
{
    kjit_module *m = calloc(1, sizeof *m);
    if (!m) abort();
    kj_arena_init(&m->arena);
    m->types = kj_types_new(&m->arena);
    m->src.path = kj_arena_strdup(&m->arena, filename ? filename : "<input>");
    m->src.text = kj_arena_strndup(&m->arena, source ? source : "", len);
    m->src.len = len;
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

/* Verify every function the analysis produced. A failure is a bug in the
 * compiler, not in the program, and is reported as such at the function. */
static void verify_kir(kjit_module *m, kj_diags *d)
{
    for (uint32_t k = 0; k < m->kir->nfuncs; k++) {
        const kir_func *f = m->kir->funcs[k];
        const char *why = kir_verify(&m->arena, f);
        if (why)
            kj_error(d, &m->src, f->span, "internal compiler error: invalid KIR for '%s': %s",
                     f->mangled ? f->mangled : f->name, why);
    }
}

/* THE pipeline, one stage per line:
 *   copy the source → lex + parse → analyze (resolve, infer, lower to KIR)
 *   → verify KIR
 * Later stages (KIR passes, codegen) go here, in order. Each stage runs only
 * when the previous ones reported no error. */
kjit_module *kjit_compile(kjit_ctx *ctx, const char *source, size_t len, const char *filename,
                          kjit_error *err)
{
    if (!ctx || (!source && len)) {
        set_error(err, KJIT_ERR_USAGE, filename, "kjit_compile: %s is NULL", ctx ? "source" : "ctx");
        return NULL;
    }
    reset_last(ctx);
    kj_diags *d = &ctx->diags;
    kjit_module *m = module_new(source, len, filename);

    kj_module *ast = kj_parse(&m->src, &m->arena, d);
    if (!kj_has_errors(d)) {
        kj_sema_options sopt = {.boundscheck = ctx->opt.boundscheck};
        m->kir = kj_analyze(ast, &sopt, m->types, &m->arena, d);
        if (!m->kir && !kj_has_errors(d))
            kj_error(d, &m->src, (kj_span){0}, "internal compiler error: analysis produced no IR");
    }
    if (!kj_has_errors(d)) verify_kir(m, d);

    keep_diagnostics(ctx, m);
    if (kj_has_errors(d)) {
        set_compile_error(err, ctx);
        module_free(m);
        return NULL;
    }
    clear_error(err);
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
        set_error(err, KJIT_ERR_USAGE, path, "kjit_compile_file: %s is NULL", ctx ? "path" : "ctx");
        return NULL;
    }
    reset_last(ctx);
    io_fail why = {0};
    size_t len = 0;
    FILE *f = open_source(path, &why);
    char *text = f ? read_all(f, &len, &why) : NULL;
    if (f) fclose(f);
    if (!text) {
        char buf[128];
        /* GNU strerror_r: thread-safe, returns the message (maybe not buf). */
        const char *reason = why.reason ? why.reason : strerror_r(why.errnum, buf, sizeof buf);
        set_error(err, KJIT_ERR_IO, path, "cannot read '%s': %s", path, reason);
        return NULL;
    }
    kjit_module *m = kjit_compile(ctx, text, len, path, err);
    free(text);
    return m;
}

char *kjit_module_ir(const kjit_module *m)
{
    kj_buf b = {0};
    if (m && m->kir) kir_print_module(m->kir, &b);
    return kj_buf_take(&b);
}
