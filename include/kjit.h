/* kjit — a JIT compiler for a Numba-style array language.
 *
 * The public C API. Everything the `kjit` command does goes through this
 * header, so an embedding application can do the same.
 *
 *   kjit_error err = {0};
 *   kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
 *   kjit_module *m = kjit_compile(ctx, source, "prog.k", &err);
 *   if (!m) { fprintf(stderr, "%s\n", err.message); ... }
 *
 * Errors are values: every call that can fail takes a kjit_error* and
 * returns NULL / a non-zero code; the library never exits the process.
 * Distinct contexts may be used from different threads at once. */
#ifndef KJIT_H
#define KJIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KJIT_VERSION_MAJOR 0
#define KJIT_VERSION_MINOR 1
#define KJIT_VERSION_PATCH 0

/* Version of the library actually linked, as "MAJOR.MINOR.PATCH". */
const char *kjit_version(void);

typedef enum kjit_status {
    KJIT_OK = 0,
    KJIT_ERR_COMPILE = 1, /* the program has errors: see kjit_error and kjit_diagnostics */
    KJIT_ERR_USAGE = 2,   /* bad arguments to an API call or command */
    KJIT_ERR_RUNTIME = 3, /* an error while running compiled code */
    KJIT_ERR_IO = 4,      /* a file could not be read or written */
} kjit_status;

/* The first error of a failed call. `message` is a NUL-terminated copy owned
 * by the struct (no allocation needed to read it). `file`/`line`/`col` locate
 * it in the source when it has a location (line 0 otherwise). */
typedef struct kjit_error {
    kjit_status code;
    char message[512];
    char file[256];
    int line, col;
} kjit_error;

typedef enum kjit_target {
    KJIT_TARGET_AUTO = 0,
    KJIT_TARGET_CPU,
    KJIT_TARGET_PARALLEL,
    KJIT_TARGET_CUDA,
} kjit_target;

typedef enum kjit_diag_format {
    KJIT_DIAG_HUMAN = 0, /* file:line:col: error: msg, the source line, a caret, a hint */
    KJIT_DIAG_SHORT,     /* one line per diagnostic (and its hint): for scripts and tests */
    KJIT_DIAG_JSON,      /* one JSON object per line */
} kjit_diag_format;

typedef struct kjit_options {
    kjit_target target;
    int opt_level;       /* 0..3, default 3 */
    int max_errors;      /* diagnostics kept per compile; 0 = 20 */
    const char *arch;    /* e.g. "sm_90" for PTX without a device; NULL = the device's */
    const char *cache_dir; /* NULL = $KJIT_CACHE_DIR, else $XDG_CACHE_HOME/kjit */
    int boundscheck;     /* -1 = from the decorators / $KJIT_BOUNDSCHECK, 0 off, 1 on */
} kjit_options;

/* Defaults for every field: target auto, -O3, decorators decide boundscheck. */
void kjit_options_init(kjit_options *opt);

typedef struct kjit_ctx kjit_ctx;
typedef struct kjit_module kjit_module;

/* `opt` may be NULL for the defaults. */
kjit_ctx *kjit_ctx_new(const kjit_options *opt, kjit_error *err);
void kjit_ctx_free(kjit_ctx *ctx);

/* Compile a program held in memory (`source` of `len` bytes; the text need
 * not be NUL-terminated). `filename` is used in diagnostics. Returns NULL on
 * error with `err` set to the first error; all diagnostics can be formatted
 * with kjit_ctx_diagnostics(). */
kjit_module *kjit_compile(kjit_ctx *ctx, const char *source, size_t len, const char *filename,
                          kjit_error *err);
/* Read and compile a file. */
kjit_module *kjit_compile_file(kjit_ctx *ctx, const char *path, kjit_error *err);
void kjit_module_free(kjit_module *m);

/* The diagnostics of the context's last compile, formatted. Returned string
 * is malloc'd (free it); empty when there were none. */
char *kjit_ctx_diagnostics(kjit_ctx *ctx, kjit_diag_format fmt);
/* Number of errors in the context's last compile. */
int kjit_ctx_error_count(const kjit_ctx *ctx);

/* The typed IR (KIR) of every specialisation in the module, as text
 * (malloc'd; free it). */
char *kjit_module_ir(const kjit_module *m);

#ifdef __cplusplus
}
#endif

#endif
