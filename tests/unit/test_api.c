/* SPDX-License-Identifier: BSD-2-Clause */
/* The public C API (include/kjit.h): contexts and options, compiling from
 * memory and from files, error values, formatted diagnostics, IR text, and
 * independent contexts on several threads. Only <kjit.h> is used, as an
 * embedding application would. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "util/asan.h" /* KJ_ASAN: the fault test defers to ASan's handler */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A valid typed program: a host helper and main. */
static const char valid_src[] = "def add(a, b):\n"
                                "    return a + b\n"
                                "\n"
                                "def main():\n"
                                "    x = add(1, 2)\n"
                                "    print(x)\n";

/* One syntax-level error per line, five lines. */
static const char five_errors_src[] = "del a\ndel b\ndel c\ndel d\ndel e\n";

static kjit_ctx *new_ctx(const kjit_options *opt)
{
    kjit_error err;
    memset(&err, 0x55, sizeof err);
    kjit_ctx *ctx = kjit_ctx_new(opt, &err);
    assert_non_null(ctx);
    assert_int_equal(err.code, KJIT_OK);
    assert_string_equal(err.message, "");
    return ctx;
}

/* A context that stops after type checking: for front-end tests whose
 * programs use built-ins the host code generator may not have. */
static kjit_ctx *check_ctx(void)
{
    kjit_options o;
    kjit_options_init(&o);
    o.check_only = 1;
    return new_ctx(&o);
}

static kjit_module *compile_str(kjit_ctx *ctx, const char *src, const char *name, kjit_error *err)
{
    return kjit_compile(ctx, src, strlen(src), name, err);
}

/* A temporary directory for file tests, and a file in it. */
static char *temp_dir(void)
{
    char tmpl[] = "/tmp/kjit-test-api-XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return strdup(d);
}

static char *write_file(const char *dir, const char *name, const char *text)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) abort();
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* ---- version, options, contexts ---- */

static void test_version(void **state)
{
    (void)state;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", KJIT_VERSION_MAJOR, KJIT_VERSION_MINOR, KJIT_VERSION_PATCH);
    assert_string_equal(kjit_version(), want);
}

static void test_options_defaults_and_validation(void **state)
{
    (void)state;
    kjit_options o;
    memset(&o, 0x7f, sizeof o);
    kjit_options_init(&o);
    assert_int_equal(o.target, KJIT_TARGET_AUTO);
    assert_int_equal(o.opt_level, 3);
    assert_int_equal(o.max_errors, 0);
    assert_int_equal(o.boundscheck, -1);
    assert_null(o.arch);
    assert_null(o.cache_dir);
    assert_int_equal(o.check_only, 0);
    assert_int_equal(o.cache, 1);
    assert_int_equal(o.keep, 0);
    assert_null(o.out);

    kjit_ctx_free(new_ctx(NULL));
    kjit_ctx_free(new_ctx(&o));

    kjit_error err;
    kjit_options bad = o;
    bad.opt_level = 4;
    assert_null(kjit_ctx_new(&bad, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_string_equal(err.message, "invalid option value: opt_level (0..3)");
    bad = o;
    bad.max_errors = -1;
    assert_null(kjit_ctx_new(&bad, &err));
    assert_string_equal(err.message, "invalid option value: max_errors (0 or more)");
    bad = o;
    bad.target = (kjit_target)9;
    assert_null(kjit_ctx_new(&bad, NULL)); /* err may be NULL */
    bad = o;
    bad.cache = 2;
    assert_null(kjit_ctx_new(&bad, &err));
    assert_string_equal(err.message, "invalid option value: cache (0 or 1)");
    bad = o;
    bad.keep = 4;
    assert_null(kjit_ctx_new(&bad, &err));
    assert_string_equal(err.message, "invalid option value: keep (KJIT_KEEP_* flags)");
    bad = o;
    bad.check_only = -1;
    assert_null(kjit_ctx_new(&bad, &err));
    assert_string_equal(err.message, "invalid option value: check_only (0 or 1)");

    /* Option strings are copied: the caller's may go away. */
    char arch[] = "sm_90";
    o.arch = arch;
    kjit_ctx *ctx = new_ctx(&o);
    arch[0] = 'X';
    kjit_ctx_free(ctx);
    kjit_ctx_free(NULL);
}

static void test_null_arguments(void **state)
{
    (void)state;
    kjit_error err;
    assert_null(kjit_compile(NULL, "x = 1\n", 6, "a.k", &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    kjit_ctx *ctx = new_ctx(NULL);
    assert_null(kjit_compile(ctx, NULL, 3, "a.k", &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_null(kjit_compile_file(ctx, NULL, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_int_equal(kjit_ctx_error_count(NULL), 0);
    char *d = kjit_ctx_diagnostics(NULL, KJIT_DIAG_HUMAN);
    assert_string_equal(d, "");
    free(d);
    char *ir = kjit_module_ir(NULL);
    assert_string_equal(ir, "");
    free(ir);
    kjit_module_free(NULL);
    kjit_ctx_free(ctx);
}

/* ---- compiling from memory ---- */

static void test_empty_program(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    memset(&err, 0x55, sizeof err);
    kjit_module *m = kjit_compile(ctx, "", 0, "empty.k", &err);
    assert_non_null(m);
    assert_int_equal(err.code, KJIT_OK);
    assert_int_equal(kjit_ctx_error_count(ctx), 0);
    char *d = kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
    assert_string_equal(d, "");
    free(d);
    char *ir = kjit_module_ir(m);
    assert_string_equal(ir, "");
    free(ir);
    kjit_module_free(m);
    /* NULL source with length 0 is the empty program too. */
    m = kjit_compile(ctx, NULL, 0, NULL, &err);
    assert_non_null(m);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_syntax_error_fields(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    kjit_module *m = compile_str(ctx, "import math\n\nclass A:\n    pass\n", "prog.k", &err);
    assert_null(m);
    assert_int_equal(err.code, KJIT_ERR_COMPILE);
    assert_string_equal(err.message, "classes are not supported");
    assert_string_equal(err.file, "prog.k");
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 1);
    assert_int_equal(kjit_ctx_error_count(ctx), 1);
    kjit_ctx_free(ctx);
}

static void test_diagnostic_formats(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    assert_null(compile_str(ctx, "x = 1\nclass A:\n    pass\n", "fmt.k", &err));
    char *h = kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
    assert_string_equal(h, "fmt.k:2:1: error: classes are not supported\n"
                           "    class A:\n"
                           "    ^~~~~\n");
    free(h);
    char *s = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
    assert_string_equal(s, "fmt.k:2:1: error: classes are not supported\n");
    free(s);
    char *j = kjit_ctx_diagnostics(ctx, KJIT_DIAG_JSON);
    assert_string_equal(j, "{\"file\":\"fmt.k\",\"line\":2,\"col\":1,\"severity\":\"error\","
                           "\"message\":\"classes are not supported\"}\n");
    free(j);
    kjit_ctx_free(ctx);
}

/* The diagnostics outlive the failed module and are replaced by the next
 * compile; the caller's source buffer may change in between. */
static void test_diagnostics_lifetime(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    char *src = strdup("class B:\n    pass\n");
    assert_null(compile_str(ctx, src, "life.k", &err));
    memset(src, '#', strlen(src));
    free(src);
    char *h = kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
    assert_string_equal(h, "life.k:1:1: error: classes are not supported\n"
                           "    class B:\n"
                           "    ^~~~~\n");
    free(h);
    kjit_module *m = kjit_compile(ctx, "", 0, "ok.k", &err);
    assert_non_null(m);
    assert_int_equal(kjit_ctx_error_count(ctx), 0);
    h = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
    assert_string_equal(h, "");
    free(h);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* The source need not be NUL-terminated: only `len` bytes are read. */
static void test_length_bounded_source(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    const char text[] = "x = 1\nclass C:\n    pass\n";
    kjit_module *m = kjit_compile(ctx, text, 6, "part.k", &err); /* just "x = 1\n" */
    assert_non_null(m);
    kjit_module_free(m);
    char buf[6];
    memcpy(buf, "del q\n", 6); /* no NUL anywhere */
    assert_null(kjit_compile(ctx, buf, sizeof buf, "nonul.k", &err));
    assert_int_equal(err.line, 1);
    kjit_ctx_free(ctx);
}

static void test_max_errors(void **state)
{
    (void)state;
    kjit_options o;
    kjit_options_init(&o);
    o.max_errors = 2;
    kjit_ctx *ctx = new_ctx(&o);
    kjit_error err;
    assert_null(compile_str(ctx, five_errors_src, "many.k", &err));
    assert_int_equal(kjit_ctx_error_count(ctx), 5);
    assert_int_equal(err.line, 1);
    char *s = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
    assert_string_equal(s, "many.k:1:1: error: 'del' is not supported\n"
                           "many.k:2:1: error: 'del' is not supported\n"
                           "note: 3 more errors not shown\n");
    free(s);
    kjit_ctx_free(ctx);

    /* The default keeps 20. */
    ctx = new_ctx(NULL);
    assert_null(compile_str(ctx, five_errors_src, "many.k", &err));
    assert_int_equal(kjit_ctx_error_count(ctx), 5);
    s = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
    assert_null(strstr(s, "not shown"));
    assert_non_null(strstr(s, "many.k:5:1: error:"));
    free(s);
    kjit_ctx_free(ctx);
}

/* ---- typed programs (need the whole front end and sema) ---- */

static void test_valid_program_and_ir(void **state)
{
    (void)state;
    kjit_ctx *ctx = check_ctx();
    kjit_error err;
    kjit_module *m = compile_str(ctx, valid_src, "add.k", &err);
    if (!m) {
        char *d = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
        fail_msg("valid program rejected: %s", d);
    }
    assert_int_equal(err.code, KJIT_OK);
    char *ir = kjit_module_ir(m);
    /* The specialisations' mangled names are sema's business; check the rest. */
    assert_int_equal(strncmp(ir, "main main", 9), 0);
    assert_non_null(strstr(ir, "() -> none\n  locals: x: int64\n"));
    assert_non_null(strstr(ir, "\n\nhost add["));
    assert_non_null(strstr(ir, "](a: int64, b: int64) -> int64\n"));
    assert_non_null(strstr(ir, " = add %"));
    assert_non_null(strstr(ir, " = call add["));
    assert_non_null(strstr(ir, "builtin print(%"));
    free(ir);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_type_error_fields(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    const char *src = "def main():\n"
                      "    food = 1\n"
                      "    print(foo)\n";
    assert_null(compile_str(ctx, src, "name.k", &err));
    assert_int_equal(err.code, KJIT_ERR_COMPILE);
    assert_string_equal(err.message, "unknown name 'foo'");
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 11);
    char *s = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
    assert_string_equal(s, "name.k:3:11: error: unknown name 'foo'\n"
                           "    hint: did you mean 'food'?\n");
    free(s);
    kjit_ctx_free(ctx);
}

/* ---- files ---- */

static void test_compile_file(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char *ok = write_file(dir, "ok.k", "x = 1\n");
    char *bad = write_file(dir, "bad.k", "\n\ndel z\n");
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    kjit_module *m = kjit_compile_file(ctx, ok, &err);
    assert_non_null(m);
    assert_int_equal(err.code, KJIT_OK);
    kjit_module_free(m);

    assert_null(kjit_compile_file(ctx, bad, &err));
    assert_int_equal(err.code, KJIT_ERR_COMPILE);
    assert_string_equal(err.file, bad);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 1);
    char *s = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
    char want[512];
    snprintf(want, sizeof want, "%s:3:1: error: 'del' is not supported\n", bad);
    assert_string_equal(s, want);
    free(s);

    kjit_ctx_free(ctx);
    unlink(ok);
    unlink(bad);
    rmdir(dir);
    free(ok);
    free(bad);
    free(dir);
}

static void test_io_errors(void **state)
{
    (void)state;
    char *dir = temp_dir();
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    char want[512];

    /* A file that does not exist; the previous compile's diagnostics are gone. */
    assert_null(compile_str(ctx, "del x\n", "x.k", &err));
    assert_int_equal(kjit_ctx_error_count(ctx), 1);
    char path[300];
    snprintf(path, sizeof path, "%s/missing.k", dir);
    assert_null(kjit_compile_file(ctx, path, &err));
    assert_int_equal(err.code, KJIT_ERR_IO);
    snprintf(want, sizeof want, "cannot read '%s': No such file or directory", path);
    assert_string_equal(err.message, want);
    assert_string_equal(err.file, path);
    assert_int_equal(err.line, 0);
    assert_int_equal(kjit_ctx_error_count(ctx), 0);
    char *d = kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
    assert_string_equal(d, "");
    free(d);

    /* A directory. */
    assert_null(kjit_compile_file(ctx, dir, &err));
    assert_int_equal(err.code, KJIT_ERR_IO);
    snprintf(want, sizeof want, "cannot read '%s': Is a directory", dir);
    assert_string_equal(err.message, want);

    /* Over 64 MB (sparse: no disk space used). */
    snprintf(path, sizeof path, "%s/huge.k", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), (off_t)65 << 20), 0);
    fclose(f);
    assert_null(kjit_compile_file(ctx, path, &err));
    assert_int_equal(err.code, KJIT_ERR_IO);
    snprintf(want, sizeof want, "cannot read '%s': file is larger than 64 MB", path);
    assert_string_equal(err.message, want);
    unlink(path);

    /* Unreadable (not testable as root, who reads everything). */
    if (geteuid() != 0) {
        char *p = write_file(dir, "secret.k", "x = 1\n");
        chmod(p, 0);
        assert_null(kjit_compile_file(ctx, p, &err));
        assert_int_equal(err.code, KJIT_ERR_IO);
        /* "cannot read 'P': Permission denied", checked piecewise: gcc's
         * UBSan build warns (falsely) that p may be NULL in a snprintf */
        size_t len = strlen(p);
        assert_int_equal(strncmp(err.message, "cannot read '", 13), 0);
        assert_memory_equal(err.message + 13, p, len);
        assert_string_equal(err.message + 13 + len, "': Permission denied");
        unlink(p);
        free(p);
    }

    kjit_ctx_free(ctx);
    rmdir(dir);
    free(dir);
}

/* ---- threads ---- */

enum { NTHREADS = 4, ROUNDS = 25 };

typedef struct job {
    int id;
    int failures;
    const char *want_ir; /* valid_src's IR, compiled on the main thread */
} job;

/* Each thread has its own context and alternates good and bad programs,
 * checking every result: the same IR as a compile on the main thread, the
 * same errors. */
static void *compile_loop(void *arg)
{
    job *j = arg;
    kjit_options o;
    kjit_options_init(&o);
    o.check_only = 1;
    kjit_ctx *ctx = kjit_ctx_new(&o, NULL);
    if (!ctx) {
        j->failures++;
        return NULL;
    }
    char name[32];
    snprintf(name, sizeof name, "t%d.k", j->id);
    for (int r = 0; r < ROUNDS; r++) {
        kjit_error err;
        kjit_module *m = kjit_compile(ctx, valid_src, strlen(valid_src), name, &err);
        if (!m || err.code != KJIT_OK || kjit_ctx_error_count(ctx) != 0) j->failures++;
        char *ir = kjit_module_ir(m);
        if (strcmp(ir, j->want_ir)) j->failures++;
        free(ir);
        kjit_module_free(m);
        m = kjit_compile(ctx, five_errors_src, strlen(five_errors_src), name, &err);
        if (m || err.code != KJIT_ERR_COMPILE || err.line != 1 || strcmp(err.file, name) ||
            kjit_ctx_error_count(ctx) != 5)
            j->failures++;
        char *s = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
        char want[64];
        snprintf(want, sizeof want, "%s:5:1: error:", name);
        if (!strstr(s, want)) j->failures++;
        free(s);
        kjit_module_free(m);
    }
    kjit_ctx_free(ctx);
    return NULL;
}

/* A check for the cpu target (kjit check --target cpu) reports what only the
 * cpu refuses: recursion through a device function that the cpu inlines
 * into its kernel. A check for cuda accepts the program. */
static void test_check_cpu_inliner(void **state)
{
    (void)state;
    static const char src[] = "from numba import cuda\n"
                              "import numpy as np\n"
                              "@cuda.jit(device=True)\n"
                              "def tree(v, d):\n"
                              "    if d == 0:\n"
                              "        return v\n"
                              "    return tree(v + cuda.shfl_xor_sync(0xffffffff, v, d), d // 2)\n"
                              "@cuda.jit\n"
                              "def k(a):\n"
                              "    a[0] = tree(a[1], 16)\n"
                              "def main():\n"
                              "    a = np.zeros(4)\n"
                              "    k[1, 32](a)\n";
    for (int t = 0; t < 2; t++) {
        kjit_options o;
        kjit_options_init(&o);
        o.check_only = 1;
        o.target = t ? KJIT_TARGET_CUDA : KJIT_TARGET_CPU;
        kjit_ctx *ctx = new_ctx(&o);
        kjit_error err;
        kjit_module *m = compile_str(ctx, src, "rec.k", &err);
        if (t) {
            assert_non_null(m);
        } else {
            assert_null(m);
            assert_int_equal(err.code, KJIT_ERR_COMPILE);
            assert_int_equal(err.line, 7);
            assert_non_null(strstr(err.message, "recursion through device function 'tree'"));
        }
        kjit_module_free(m);
        kjit_ctx_free(ctx);
    }
}

static void test_threads(void **state)
{
    (void)state;
    kjit_ctx *ctx = check_ctx();
    kjit_module *m = compile_str(ctx, valid_src, "main.k", NULL);
    assert_non_null(m);
    char *want = kjit_module_ir(m);
    assert_true(strlen(want) > 100);
    kjit_module_free(m);
    kjit_ctx_free(ctx);

    pthread_t th[NTHREADS];
    job jobs[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (job){.id = i, .want_ir = want};
        assert_int_equal(pthread_create(&th[i], NULL, compile_loop, &jobs[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_int_equal(jobs[i].failures, 0);
    }
    free(want);
}

/* ---- calling compiled code ---- */

/* Every test that runs code keeps the cache out of the user's home. */
static char *cache_dir_for_tests;

static int setup_cache_dir(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/kjit-test-api-cache-XXXXXX";
    cache_dir_for_tests = strdup(mkdtemp(tmpl));
    setenv("KJIT_CACHE_DIR", cache_dir_for_tests, 1);
    return 0;
}

static int teardown_cache_dir(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir_for_tests);
    if (system(cmd) != 0) return 1;
    free(cache_dir_for_tests);
    return 0;
}

static const char calls_src[] = "from numba import jit, cuda\n"
                                "import numpy as np\n"
                                "\n"
                                "N = 4\n"
                                "\n"
                                "@jit\n"
                                "def add(a, b):\n"
                                "    return a + b\n"
                                "\n"
                                "@jit\n"
                                "def saxpy(a, x, y):\n"
                                "    for i in range(x.shape[0]):\n"
                                "        y[i] = a * x[i] + y[i]\n"
                                "\n"
                                "@jit\n"
                                "def total(x):\n"
                                "    s = 0\n"
                                "    for i in range(x.shape[0]):\n"
                                "        for j in range(x.shape[1]):\n"
                                "            s += x[i, j]\n"
                                "    return s\n"
                                "\n"
                                "@jit(boundscheck=True)\n"
                                "def get(x, i):\n"
                                "    return x[i]\n"
                                "\n"
                                "@jit\n"
                                "def div(a, b):\n"
                                "    return a // b\n"
                                "\n"
                                "@jit\n"
                                "def tail(x):\n"
                                "    return x[1:]\n"
                                "\n"
                                "@jit\n"
                                "def is_pos(x):\n"
                                "    return x > 0\n"
                                "\n"
                                "@jit\n"
                                "def pair(x):\n"
                                "    return x, x\n"
                                "\n"
                                "@jit('int32(int32)')\n"
                                "def twice32(x):\n"
                                "    return x * 2\n"
                                "\n"
                                "@cuda.jit\n"
                                "def kern(x):\n"
                                "    x[0] = 1.0\n"
                                "\n"
                                "def main(n=N * 2, x=-1.5, flag=not True, name='hi'):\n"
                                "    assert n == 8 and x < 0\n"
                                "\n"
                                "@jit\n"
                                "def rng(n):\n"
                                "    return range(n)\n"
                                "\n"
                                "@jit(['float32(float32)', 'float64(float64)'])\n"
                                "def ident(x):\n"
                                "    return x\n"
                                "\n"
                                "@jit(['int32(int32)', 'int64(int64)'])\n"
                                "def ident_i(x):\n"
                                "    return x\n"
                                "\n"
                                "@cuda.jit(['void(int32[:], uint32)', 'void(int32[:], uint64)'])\n"
                                "def popc(r, c):\n"
                                "    r[0] = cuda.popc(c)\n";

static kjit_module *compile_calls(kjit_ctx *ctx)
{
    kjit_error err;
    kjit_module *m = compile_str(ctx, calls_src, "calls.k", &err);
    if (!m) {
        char *d = kjit_ctx_diagnostics(ctx, KJIT_DIAG_SHORT);
        fail_msg("calls.k rejected: %s", d);
    }
    return m;
}

/* How many specialisations of `name` the module's KIR holds. */
static int count_specs(kjit_module *m, const char *name)
{
    char *ir = kjit_module_ir(m);
    char pat[64];
    snprintf(pat, sizeof pat, "\nhost %s[", name);
    int n = strncmp(ir, pat + 1, strlen(pat + 1)) == 0;
    for (const char *p = ir; (p = strstr(p, pat)); p++) n++;
    free(ir);
    return n;
}

static void test_call_scalars(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_fn *add = kjit_module_get(m, "add");
    assert_non_null(add);
    assert_ptr_equal(kjit_module_get(m, "add"), add); /* one handle per name */
    assert_string_equal(kjit_fn_name(add), "add");
    assert_int_equal(kjit_fn_get_kind(add), KJIT_FN_JIT);
    assert_int_equal(count_specs(m, "add"), 0); /* not reached from main: compiled on demand */

    kjit_error err;
    kjit_value r;
    kjit_value ii[2] = {kjit_value_int(40), kjit_value_int(2)};
    assert_int_equal(kjit_call(add, ii, 2, &r, &err), KJIT_OK);
    assert_int_equal(err.code, KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_INT);
    assert_int_equal(r.dtype, KJIT_INT64);
    assert_int_equal(r.v.i, 42);
    /* The same types again reuse the specialisation. */
    ii[0] = kjit_value_int(-5);
    assert_int_equal(kjit_call(add, ii, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, -3);
    assert_int_equal(count_specs(m, "add"), 1);

    /* float32 + float32 stays float32; int64 + float64 is float64 (NumPy). */
    kjit_value ff[2] = {kjit_value_float32(1.25f), kjit_value_float32(2.5f)};
    assert_int_equal(kjit_call(add, ff, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_FLOAT);
    assert_int_equal(r.dtype, KJIT_FLOAT32);
    assert_true(r.v.f == 3.75);
    kjit_value mix[2] = {kjit_value_int(1), kjit_value_float(0.5)};
    assert_int_equal(kjit_call(add, mix, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_FLOAT64);
    assert_true(r.v.f == 1.5);
    /* int8 arithmetic wraps as in NumPy. */
    kjit_value i8[2] = {kjit_value_int_as(100, KJIT_INT8), kjit_value_int_as(100, KJIT_INT8)};
    assert_int_equal(kjit_call(add, i8, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_INT8);
    assert_int_equal(r.v.i, -56);
    /* bool results; uint64 beyond int64. */
    kjit_fn *is_pos = kjit_module_get(m, "is_pos");
    kjit_value one = kjit_value_float(-0.5);
    assert_int_equal(kjit_call(is_pos, &one, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_BOOL);
    assert_false(r.v.b);
    kjit_value big[2] = {kjit_value_int_as((int64_t)UINT64_MAX, KJIT_UINT64),
                         kjit_value_int_as(0, KJIT_UINT64)};
    assert_int_equal(kjit_call(add, big, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_UINT64);
    assert_true((uint64_t)r.v.i == UINT64_MAX);
    assert_int_equal(count_specs(m, "add"), 5);

    /* A result may be ignored. */
    assert_int_equal(kjit_call(add, ii, 2, NULL, &err), KJIT_OK);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* A function specialised at call time goes through the compile pipeline's
 * stages as kjit_compile's functions do (kj_pipeline from FUSE): a prange
 * loop that races is refused there too (PFOR_CHECK), not run. */
static void test_call_checks_prange(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    const char *src = "from numba import jit, prange\n"
                      "@jit(parallel=True)\n"
                      "def last(n):\n"
                      "    x = 0\n"
                      "    for i in prange(n):\n"
                      "        x = i\n"
                      "    return x\n"
                      "def main():\n"
                      "    pass\n";
    kjit_error err;
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "t.k", &err);
    assert_non_null(m);
    kjit_value n = kjit_value_int(10), r;
    assert_int_equal(kjit_call(kjit_module_get(m, "last"), &n, 1, &r, &err), KJIT_ERR_COMPILE);
    assert_string_equal(err.message,
                        "variable 'x' is assigned in a prange loop and used after it, but is not a reduction");
    assert_int_equal(err.line, 6);
    assert_int_equal(err.col, 9);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* An explicit signature converts the arguments to its types. */
static void test_call_signature(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_fn *f = kjit_module_get(m, "twice32");
    kjit_error err;
    kjit_value r, a = kjit_value_int_as(21, KJIT_INT16);
    assert_int_equal(kjit_call(f, &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_INT32);
    assert_int_equal(r.v.i, 42);
    a = kjit_value_float(1.5); /* the only signature: an unsafe conversion, as Numba's int32(1.5) */
    assert_int_equal(kjit_call(f, &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_INT32);
    assert_int_equal(r.v.i, 2);
    a = kjit_value_str("x"); /* nothing converts a str to a number */
    assert_int_equal(kjit_call(f, &a, 1, &r, &err), KJIT_ERR_COMPILE);
    assert_string_equal(err.message, "No matching definition for argument type(s) str of 'twice32'");
    assert_string_equal(err.file, "calls.k");
    assert_int_equal(err.line, 44);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* Several signatures: Numba's dispatcher picks the exact one, else the best
 * conversion, and refuses an ambiguity (issue 23 point 3). */
static void test_call_dispatch(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_error err;
    kjit_value r, a = kjit_value_float(0.1);
    kjit_fn *ident = kjit_module_get(m, "ident");
    assert_int_equal(kjit_call(ident, &a, 1, &r, &err), KJIT_OK); /* float64, not the first: float32 */
    assert_int_equal(r.dtype, KJIT_FLOAT64);
    assert_true(r.v.f == 0.1);
    a = kjit_value_float32(0.5f);
    assert_int_equal(kjit_call(ident, &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_FLOAT32);
    a = kjit_value_int(3); /* int64 → float64 is safe, → float32 unsafe */
    assert_int_equal(kjit_call(ident, &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_FLOAT64);
    assert_true(r.v.f == 3.0);
    a = kjit_value_int_as(7, KJIT_INT8); /* promotes to int32 and to int64 alike */
    assert_int_equal(kjit_call(kjit_module_get(m, "ident_i"), &a, 1, &r, &err), KJIT_ERR_COMPILE);
    assert_string_equal(err.message, "Ambiguous overloading for 'ident_i' (int8): (int32) -> int32 and "
                                     "(int64) -> int64 convert equally well");
    double xs[2] = {0, 5};
    int64_t shape[1] = {2};
    kjit_array *xa = kjit_array_wrap(ctx, xs, KJIT_FLOAT64, 1, shape, NULL, &err);
    assert_non_null(xa);
    a = kjit_value_array(xa);
    assert_int_equal(kjit_call(ident, &a, 1, &r, &err), KJIT_ERR_COMPILE);
    assert_string_equal(err.message, "No matching definition for argument type(s) array(float64, 1d, C) of 'ident'");
    kjit_array_free(xa);

    /* a kernel at kjit_launch: the uint64 signature for a uint64, not the first */
    int32_t out[1] = {0};
    kjit_array *oa = kjit_array_wrap(ctx, out, KJIT_INT32, 1, (int64_t[]){1}, NULL, &err);
    assert_non_null(oa);
    kjit_value args[2] = {kjit_value_array(oa), kjit_value_int_as((int64_t)0xF00000000000, KJIT_UINT64)};
    kjit_dim3 one = {1, 1, 1};
    kjit_fn *popc = kjit_module_get(m, "popc");
    assert_int_equal(kjit_launch(popc, one, one, args, 2, &err), KJIT_OK);
    assert_int_equal(kjit_sync(ctx, &err), KJIT_OK);
    assert_int_equal(out[0], 4);
    args[1] = kjit_value_int_as(0xF0, KJIT_UINT32);
    assert_int_equal(kjit_launch(popc, one, one, args, 2, &err), KJIT_OK);
    assert_int_equal(kjit_sync(ctx, &err), KJIT_OK);
    assert_int_equal(out[0], 4);
    args[1] = kjit_value_float(1.0); /* float64 → either unsigned width: unsafe alike */
    assert_int_equal(kjit_launch(popc, one, one, args, 2, &err), KJIT_ERR_COMPILE);
    assert_non_null(strstr(err.message, "Ambiguous overloading for 'popc'"));
    kjit_array_free(oa);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_call_arrays_zero_copy(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_error err;
    float x[5] = {1, 2, 3, 4, 5}, y[5] = {10, 20, 30, 40, 50};
    int64_t shape[1] = {5};
    kjit_array *ax = kjit_array_wrap(ctx, x, KJIT_FLOAT32, 1, shape, NULL, &err);
    kjit_array *ay = kjit_array_wrap(ctx, y, KJIT_FLOAT32, 1, shape, NULL, &err);
    assert_non_null(ax);
    assert_ptr_equal(kjit_array_data(ay), y);
    kjit_value args[3] = {kjit_value_float32(2.0f), kjit_value_array(ax), kjit_value_array(ay)};
    kjit_value r;
    assert_int_equal(kjit_call(kjit_module_get(m, "saxpy"), args, 3, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_NONE);
    for (int i = 0; i < 5; i++) assert_true(y[i] == 2.0f * x[i] + 10.0f * (float)(i + 1));

    /* A strided view of the caller's memory: every other element of a 2x6
     * int32 matrix, i.e. columns 0, 2, 4. */
    int32_t mat[2][6] = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
    int64_t mshape[2] = {2, 3}, mstrides[2] = {6 * 4, 2 * 4};
    kjit_array *am = kjit_array_wrap(ctx, mat, KJIT_INT32, 2, mshape, mstrides, &err);
    assert_non_null(am);
    kjit_value a = kjit_value_array(am);
    assert_int_equal(kjit_call(kjit_module_get(m, "total"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_INT);
    assert_int_equal(r.v.i, 1 + 3 + 5 + 7 + 9 + 11);
    /* The contiguous whole is another specialisation (layout C). */
    int64_t full[2] = {2, 6};
    kjit_array *ac = kjit_array_wrap(ctx, mat, KJIT_INT32, 2, full, NULL, &err);
    a = kjit_value_array(ac);
    assert_int_equal(kjit_call(kjit_module_get(m, "total"), &a, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 78);
    assert_int_equal(count_specs(m, "total"), 2);

    kjit_array_free(am);
    kjit_array_free(ac);
    kjit_array_free(ax);
    kjit_array_free(ay);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* A returned view of an argument shares the caller's memory and outlives
 * both the argument's handle and the module. */
static void test_call_returns_array(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_error err;
    double d[4] = {1, 2, 3, 4};
    int64_t shape[1] = {4};
    kjit_array *a = kjit_array_new(ctx, KJIT_FLOAT64, 1, shape, &err);
    assert_non_null(a);
    memcpy(kjit_array_data(a), d, sizeof d);
    kjit_value arg = kjit_value_array(a), r;
    assert_int_equal(kjit_call(kjit_module_get(m, "tail"), &arg, 1, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_ARRAY);
    assert_int_equal(r.dtype, KJIT_FLOAT64);
    kjit_array *t = r.v.a;
    assert_int_equal(kjit_array_ndim(t), 1);
    assert_int_equal(kjit_array_shape(t)[0], 3);
    assert_int_equal(kjit_array_strides(t)[0], 8);
    assert_ptr_equal(kjit_array_data(t), (double *)kjit_array_data(a) + 1);
    kjit_array_free(a);
    kjit_module_free(m);
    assert_true(((double *)kjit_array_data(t))[2] == 4.0); /* still alive */
    kjit_array_free(t);
    kjit_ctx_free(ctx);
}

static void test_call_usage_errors(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_error err;
    kjit_value r, args[3] = {kjit_value_int(1), kjit_value_int(2), kjit_value_int(3)};
    kjit_fn *add = kjit_module_get(m, "add");
    assert_null(kjit_module_get(m, "nope"));
    assert_null(kjit_module_get(m, "N")); /* a constant, not a function */
    assert_null(kjit_module_get(NULL, "add"));

    assert_int_equal(kjit_call(add, args, 3, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "add() takes 2 positional arguments but 3 were given");
    assert_int_equal(kjit_call(add, args, 1, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "add() takes 2 positional arguments but 1 was given");
    assert_int_equal(kjit_call(NULL, args, 2, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "kjit_call: fn is NULL");
    assert_int_equal(kjit_call(add, NULL, 2, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "kjit_call: 2 arguments but args is NULL");
    /* a negative count is its own mistake, whether args is NULL or not */
    assert_int_equal(kjit_call(add, args, -1, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "kjit_call: nargs is -1 (a count of arguments, at least 0)");
    assert_int_equal(kjit_call(add, NULL, -1, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "kjit_call: nargs is -1 (a count of arguments, at least 0)");
    kjit_value bad[2] = {kjit_value_int_as(1, KJIT_FLOAT32), kjit_value_int(1)};
    assert_int_equal(kjit_call(add, bad, 2, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "argument 1: an int value needs an integer dtype");
    bad[0] = kjit_value_array(NULL);
    assert_int_equal(kjit_call(add, bad, 2, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "argument 1: array is NULL");
    /* None is Numba's `none` type since 0.5: `None + 1` does not type, a compile error located in add */
    bad[0] = (kjit_value){0};
    assert_int_equal(kjit_call(add, bad, 2, &r, &err), KJIT_ERR_COMPILE);
    assert_string_equal(err.file, "calls.k");

    /* Types the function cannot take: a compile error located in it. */
    kjit_value sa[2] = {kjit_value_str("a"), kjit_value_int(1)};
    assert_int_equal(kjit_call(add, sa, 2, &r, &err), KJIT_ERR_COMPILE);
    assert_string_equal(err.file, "calls.k");
    assert_int_equal(err.line, 8);
    assert_true(strlen(err.message) > 0);
    assert_int_equal(r.kind, KJIT_VALUE_NONE);
    kjit_error again;
    assert_int_equal(kjit_call(add, sa, 2, &r, &again), KJIT_ERR_COMPILE); /* the same error again */
    assert_memory_equal(&again, &err, sizeof err);
    /* ...which does not spoil later calls. */
    assert_int_equal(kjit_call(add, args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 3);

    /* Results kjit_call cannot return yet. */
    assert_int_equal(kjit_call(kjit_module_get(m, "rng"), args, 1, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "'rng' returns range(int64), which kjit_call cannot return yet");

    /* Tuples that are not well formed. */
    kjit_tuple null_items = {2, NULL}, loop = {1, NULL};
    kjit_value self = kjit_value_tuple(&loop);
    loop.items = &self; /* a tuple that contains itself */
    kjit_value malformed[2] = {kjit_value_tuple(&null_items), self};
    assert_int_equal(kjit_call(kjit_module_get(m, "pair"), malformed, 1, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "argument 1: tuple is NULL or has no items");
    assert_int_equal(kjit_call(kjit_module_get(m, "pair"), malformed + 1, 1, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "argument 1: tuples nested more than 16 deep");
    char name[64];
    assert_string_equal(kjit_value_type_name(&self, name, sizeof name), "((((((((((((((((((...),),),),),),),),),),),),),),),),),)");

    /* Kernels are launched, not called. */
    kjit_fn *kern = kjit_module_get(m, "kern");
    assert_int_equal(kjit_fn_get_kind(kern), KJIT_FN_KERNEL);
    assert_int_equal(kjit_call(kern, args, 1, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "'kern' is a CUDA kernel: launch it with kjit_launch");
    kjit_dim3 one = {1, 1, 1}, none = {0, 1, 1};
    /* ...on the caller's arrays (the cpu target here: the context's default
     * is auto, and CI has no GPU) */
    double xs[2] = {0, 5};
    int64_t xshape[1] = {2};
    kjit_array *xa = kjit_array_wrap(ctx, xs, KJIT_FLOAT64, 1, xshape, NULL, &err);
    assert_non_null(xa);
    kjit_value xv = kjit_value_array(xa);
    assert_int_equal(kjit_launch(kern, one, one, &xv, 1, &err), KJIT_OK);
    assert_true(xs[0] == 1.0 && xs[1] == 5.0);
    assert_int_equal(kjit_launch(kern, none, one, &xv, 1, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "RuntimeError: CUDA_ERROR_INVALID_VALUE: kernel 'kern' launched with grid "
                                     "(0, 1, 1): every dimension must be at least 1");
    assert_int_equal(kjit_launch(kern, one, one, args, 1, &err), KJIT_ERR_COMPILE); /* x[0] of a scalar */
    kjit_array_free(xa);
    assert_int_equal(kjit_launch(add, one, one, args, 2, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "'add' is not a CUDA kernel: call it with kjit_call");
    assert_int_equal(kjit_sync(ctx, &err), KJIT_OK);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* A prepared launch: types fixed once, values free; another type refused. */
static void test_launch_prepared(void **state)
{
    (void)state;
    const char *src = "from numba import cuda\n"
                      "@cuda.jit\n"
                      "def axpy(a, x, y):\n"
                      "    i = cuda.grid(1)\n"
                      "    if i < x.size:\n"
                      "        y[i] += a * x[i]\n";
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    kjit_module *m = compile_str(ctx, src, "p.k", &err);
    assert_non_null(m);
    double xs[8], ys[8] = {0}, zs[4] = {0}, *strided = calloc(16, sizeof *strided);
    for (int k = 0; k < 8; k++) xs[k] = k;
    int64_t n8[1] = {8}, n4[1] = {4}, every_other[1] = {16};
    kjit_array *x = kjit_array_wrap(ctx, xs, KJIT_FLOAT64, 1, n8, NULL, &err);
    kjit_array *y = kjit_array_wrap(ctx, ys, KJIT_FLOAT64, 1, n8, NULL, &err);
    kjit_array *z = kjit_array_wrap(ctx, zs, KJIT_FLOAT64, 1, n4, NULL, &err);
    kjit_array *s = kjit_array_wrap(ctx, strided, KJIT_FLOAT64, 1, n4, every_other, &err);
    assert_true(x && y && z && s);
    kjit_value args[3] = {kjit_value_float(2.0), kjit_value_array(x), kjit_value_array(y)};
    kjit_launch_plan *p = kjit_launch_prepare(kjit_module_get(m, "axpy"), args, 3, &err);
    assert_non_null(p);
    kjit_dim3 grid = {1, 1, 1}, block = {8, 1, 1};
    for (int rep = 0; rep < 3; rep++) assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_OK);
    assert_true(ys[0] == 0 && ys[7] == 42.0);
    args[0] = kjit_value_float(-1.0); /* other values, other arrays of the same type */
    args[2] = kjit_value_array(z);
    assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_OK);
    assert_true(zs[3] == -3.0);
    args[0] = kjit_value_int(1);
    assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "argument 1 of 'axpy': not of the type the launch was prepared for (prepare "
                                     "another plan, or use kjit_launch)");
    args[0] = kjit_value_float(1.0);
    args[2] = kjit_value_array(s); /* compiled for a contiguous y */
    assert_int_equal(kjit_launch_prepared(p, grid, block, args, &err), KJIT_ERR_USAGE);
    assert_int_equal(kjit_launch_prepared(NULL, grid, block, args, &err), KJIT_ERR_USAGE);
    kjit_launch_plan_free(p);
    assert_null(kjit_launch_prepare(kjit_module_get(m, "axpy"), args, 2, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    kjit_array_free(x), kjit_array_free(y), kjit_array_free(z), kjit_array_free(s);
    free(strided);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* A @vectorize function called with scalars runs its scalar kernel. */
static void test_call_ufunc_scalars(void **state)
{
    (void)state;
    const char *src = "from numba import vectorize\n"
                      "@vectorize(['float32(float32, float32)'])\n"
                      "def vadd(a, b):\n"
                      "    return a + b\n";
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    kjit_module *m = compile_str(ctx, src, "v.k", &err);
    assert_non_null(m);
    kjit_fn *f = kjit_module_get(m, "vadd");
    assert_int_equal(kjit_fn_get_kind(f), KJIT_FN_UFUNC);
    kjit_value a[2] = {kjit_value_float32(1.5f), kjit_value_float32(2.0f)}, r;
    assert_int_equal(kjit_call(f, a, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.dtype, KJIT_FLOAT32);
    assert_true(r.v.f == 3.5);
    float x[2] = {1, 2};
    int64_t shape[1] = {2};
    kjit_array *ax = kjit_array_wrap(ctx, x, KJIT_FLOAT32, 1, shape, NULL, &err);
    a[0] = kjit_value_array(ax);
    assert_int_equal(kjit_call(f, a, 2, &r, &err), KJIT_ERR_USAGE);
    assert_string_equal(
        err.message,
        "calling the ufunc 'vadd' on arrays through kjit_call is not supported yet (scalars are)");
    kjit_array_free(ax);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_runtime_errors(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_error err;
    int64_t v[10] = {0};
    int64_t shape[1] = {10};
    kjit_array *a = kjit_array_wrap(ctx, v, KJIT_INT64, 1, shape, NULL, &err);
    kjit_value args[2] = {kjit_value_array(a), kjit_value_int(10)}, r;
    kjit_fn *get = kjit_module_get(m, "get");
    assert_int_equal(kjit_call(get, args, 2, &r, &err), KJIT_ERR_RUNTIME);
    assert_int_equal(err.code, KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "IndexError: index 10 is out of bounds for axis 0 with size 10");
    assert_string_equal(err.file, "calls.k");
    assert_int_equal(err.line, 25);
    assert_int_equal(err.col, 14);
    char *h = kjit_error_format(m, &err, KJIT_DIAG_HUMAN);
    assert_string_equal(h, "calls.k:25:14: IndexError: index 10 is out of bounds for axis 0 with size 10\n"
                           "        return x[i]\n"
                           "                 ^\n");
    free(h);
    char *s = kjit_error_format(m, &err, KJIT_DIAG_SHORT);
    assert_string_equal(s, "calls.k:25:14: IndexError: index 10 is out of bounds for axis 0 with size 10\n");
    free(s);
    char *j = kjit_error_format(m, &err, KJIT_DIAG_JSON);
    assert_non_null(
        strstr(j, "\"line\":25,\"col\":14,\"severity\":\"error\",\"message\":\"IndexError: index 10"));
    free(j);
    char *n = kjit_error_format(NULL, &err, KJIT_DIAG_HUMAN); /* no source: no excerpt */
    assert_string_equal(n, "calls.k:25:14: IndexError: index 10 is out of bounds for axis 0 with size 10\n");
    free(n);
    /* Negative indices count from the end; -11 is out of bounds. */
    args[1] = kjit_value_int(-1);
    v[9] = 99;
    assert_int_equal(kjit_call(get, args, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 99);
    args[1] = kjit_value_int(-11);
    assert_int_equal(kjit_call(get, args, 2, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "IndexError: index -11 is out of bounds for axis 0 with size 10");

    /* Integer division by zero: Python's ZeroDivisionError, no SIGFPE. */
    kjit_value dz[2] = {kjit_value_int(7), kjit_value_int(0)};
    assert_int_equal(kjit_call(kjit_module_get(m, "div"), dz, 2, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "ZeroDivisionError: integer division or modulo by zero");
    assert_int_equal(err.line, 29);
    dz[1] = kjit_value_int(-2);
    assert_int_equal(kjit_call(kjit_module_get(m, "div"), dz, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, -4);

    /* Errors of other kinds format with "error:". */
    kjit_error ce = {.code = KJIT_ERR_COMPILE, .file = "calls.k", .line = 8, .col = 12, .message = "bad"};
    h = kjit_error_format(m, &ce, KJIT_DIAG_SHORT);
    assert_string_equal(h, "calls.k:8:12: error: bad\n");
    free(h);
    kjit_error nl = {.code = KJIT_ERR_USAGE, .message = "no location"};
    h = kjit_error_format(m, &nl, KJIT_DIAG_HUMAN);
    assert_string_equal(h, "error: no location\n");
    free(h);
    kjit_array_free(a);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* boundscheck from the options (and so from KJIT_BOUNDSCHECK): on for a
 * function whose decorator does not ask for it. */
static void test_boundscheck_option(void **state)
{
    (void)state;
    const char *src = "from numba import jit\n"
                      "@jit\n"
                      "def put(x, i):\n"
                      "    x[i] = 1\n";
    kjit_options o;
    kjit_options_init(&o);
    o.boundscheck = 1;
    kjit_error err;
    for (int pass = 0; pass < 3; pass++) {
        if (pass >= 1) {
            kjit_options_init(&o);
            setenv("KJIT_BOUNDSCHECK", pass == 1 ? "1" : "Yes", 1); /* any documented spelling */
        }
        kjit_ctx *ctx = new_ctx(&o);
        unsetenv("KJIT_BOUNDSCHECK");
        kjit_module *m = compile_str(ctx, src, "put.k", &err);
        assert_non_null(m);
        int32_t v[3];
        int64_t shape[1] = {3};
        kjit_array *a = kjit_array_wrap(ctx, v, KJIT_INT32, 1, shape, NULL, &err);
        kjit_value args[2] = {kjit_value_array(a), kjit_value_int(3)};
        assert_int_equal(kjit_call(kjit_module_get(m, "put"), args, 2, NULL, &err), KJIT_ERR_RUNTIME);
        assert_string_equal(err.message, "IndexError: index 3 is out of bounds for axis 0 with size 3");
        assert_int_equal(err.line, 4);
        kjit_array_free(a);
        kjit_module_free(m);
        kjit_ctx_free(ctx);
    }
}

/* KJIT_BOUNDSCHECK takes 1/0, yes/no, true/false, on/off in any case; any
 * other value fails kjit_ctx_new with a usage error naming it. */
static void test_boundscheck_env_values(void **state)
{
    (void)state;
    static const char *const good[] = {"1", "0", "yes", "No", "TRUE", "false", "on", "OFF", ""};
    kjit_error err;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        setenv("KJIT_BOUNDSCHECK", good[i], 1);
        kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
        unsetenv("KJIT_BOUNDSCHECK");
        assert_non_null(ctx);
        assert_int_equal(err.code, KJIT_OK);
        kjit_ctx_free(ctx);
    }
    static const char *const bad[] = {"2", "maybe", "yes please", " 1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setenv("KJIT_BOUNDSCHECK", bad[i], 1);
        kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
        unsetenv("KJIT_BOUNDSCHECK");
        assert_null(ctx);
        assert_int_equal(err.code, KJIT_ERR_USAGE);
        char want[160];
        snprintf(want, sizeof want,
                 "KJIT_BOUNDSCHECK=%s is not a known value (use 1/0, yes/no, true/false or on/off)", bad[i]);
        assert_string_equal(err.message, want);
    }
}

/* A file without main: its module-level statements are the function
 * "<module>" (no parameters, kind MAIN), run by kjit_call as a script. */
static void test_script_module(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    const char *src = "import numpy as np\n"
                      "from numba import njit\n"
                      "bpg, tpb = 2, 8\n"
                      "@njit\n"
                      "def tot(a):\n"
                      "    return a.sum() + tpb\n"
                      "a = np.arange(bpg * tpb)\n"
                      "n = 0\n"
                      "n = n + 1\n"
                      "assert tot(a) == 128 + n, 'sum'\n";
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "script.k", &err);
    assert_non_null(m);
    assert_null(kjit_module_get(m, "main"));
    kjit_fn *f = kjit_module_get(m, "<module>");
    assert_non_null(f);
    assert_int_equal(kjit_fn_get_kind(f), KJIT_FN_MAIN);
    assert_int_equal(kjit_fn_param_count(f), 0);
    /* 120 + 8 != 129: the assert of line 10 fails, located */
    assert_int_equal(kjit_call(f, NULL, 0, NULL, &err), KJIT_ERR_RUNTIME);
    assert_int_equal(err.line, 10);
    assert_non_null(strstr(err.message, "sum"));
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_main_params(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    kjit_fn *f = kjit_module_get(m, "main");
    assert_int_equal(kjit_fn_get_kind(f), KJIT_FN_MAIN);
    assert_int_equal(kjit_fn_param_count(f), 4);
    assert_string_equal(kjit_fn_param_name(f, 0), "n");
    assert_string_equal(kjit_fn_param_name(f, 3), "name");
    assert_null(kjit_fn_param_name(f, 4));
    assert_null(kjit_fn_param_name(f, -1));
    assert_string_equal(kjit_fn_param_default_text(f, 0), "N * 2");
    assert_string_equal(kjit_fn_param_default_text(f, 1), "-1.5");
    assert_string_equal(kjit_fn_param_default_text(f, 2), "not True");
    assert_string_equal(kjit_fn_param_default_text(f, 3), "'hi'");
    kjit_value v[4];
    for (int i = 0; i < 4; i++) assert_true(kjit_fn_param_default(f, i, &v[i]));
    kjit_value none;
    assert_false(kjit_fn_param_default(f, 4, &none));
    assert_int_equal(none.kind, KJIT_VALUE_NONE);
    assert_int_equal(v[0].kind, KJIT_VALUE_INT);
    assert_int_equal(v[0].dtype, KJIT_INT64);
    assert_int_equal(v[0].v.i, 8);
    assert_int_equal(v[1].kind, KJIT_VALUE_FLOAT);
    assert_true(v[1].v.f == -1.5);
    assert_int_equal(v[2].kind, KJIT_VALUE_BOOL);
    assert_false(v[2].v.b);
    assert_int_equal(v[3].kind, KJIT_VALUE_STR);
    assert_string_equal(v[3].v.s, "hi");
    char buf[32];
    assert_string_equal(kjit_value_type_name(&v[0], buf, sizeof buf), "int64");
    assert_string_equal(kjit_value_type_name(&v[3], buf, sizeof buf), "str");

    /* main with its defaults' types is the main compiled with the program. */
    char *before = kjit_module_ir(m);
    kjit_error err;
    kjit_value r;
    assert_int_equal(kjit_call(f, v, 4, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_NONE);
    char *after = kjit_module_ir(m);
    assert_string_equal(before, after);
    free(before);
    free(after);
    v[0].v.i = 7; /* the assertion in main fails */
    assert_int_equal(kjit_call(f, v, 4, &r, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "AssertionError");
    assert_int_equal(err.line, 52);

    /* Parameters without defaults. */
    kjit_fn *add = kjit_module_get(m, "add");
    assert_int_equal(kjit_fn_param_count(add), 2);
    assert_null(kjit_fn_param_default_text(add, 0));
    assert_false(kjit_fn_param_default(add, 0, &r));
    assert_int_equal(r.kind, KJIT_VALUE_NONE);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* check_only and the cuda target. */
static void test_targets_and_check_only(void **state)
{
    (void)state;
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CUDA;
    /* no driver (as in CI): a run-time error, and no diagnostics */
    setenv("KJIT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    kjit_ctx *ctx = new_ctx(&o);
    kjit_error err;
    assert_null(compile_str(ctx, calls_src, "calls.k", &err));
    assert_int_equal(err.code, KJIT_ERR_RUNTIME);
    assert_true(!strncmp(err.message, "no CUDA driver found (", 22));
    assert_int_equal(kjit_ctx_error_count(ctx), 0);
    kjit_ctx_free(ctx);

    o.check_only = 1; /* checking needs no code, and PTX no GPU */
    ctx = new_ctx(&o);
    static const char launch_src[] = "from numba import cuda\nimport numpy as np\n\n@cuda.jit\ndef kern(x):\n"
                                     "    x[0] = 1.0\n\ndef main():\n    x = np.zeros(2)\n    kern[1, 1](x)\n";
    kjit_module *m = compile_str(ctx, launch_src, "launch.k", &err);
    assert_non_null(m);
    char *ptx = kjit_module_ptx(m, NULL, &err);
    assert_non_null(ptx);
    assert_non_null(strstr(ptx, ".target sm_90"));
    assert_non_null(strstr(ptx, ".entry kern_"));
    free(ptx);
    assert_null(kjit_module_ptx(m, "nokernel", &err));
    assert_int_equal(err.code, KJIT_ERR_COMPILE);
    assert_string_equal(err.message, "no kernel named 'nokernel' is launched by the program");
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    unsetenv("KJIT_LIBCUDA");

    /* A check_only module can still be called: code is made on demand. */
    o.target = KJIT_TARGET_PARALLEL;
    ctx = new_ctx(&o);
    m = compile_str(ctx, calls_src, "calls.k", &err);
    kjit_value ii[2] = {kjit_value_int(2), kjit_value_int(3)}, r;
    assert_int_equal(kjit_call(kjit_module_get(m, "add"), ii, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.v.i, 5);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

static void test_llvm_and_asm(void **state)
{
    (void)state;
    kjit_options o;
    kjit_options_init(&o);
    for (int keep = 0; keep < 2; keep++) {
        o.keep = keep ? KJIT_KEEP_LLVM_IR | KJIT_KEEP_ASM : 0;
        kjit_ctx *ctx = new_ctx(&o);
        kjit_error err;
        kjit_module *m = compile_calls(ctx);
        char *ll = kjit_module_llvm_ir(m, &err);
        assert_non_null(ll);
        assert_int_equal(err.code, KJIT_OK);
        assert_non_null(strstr(ll, "target triple"));
        assert_non_null(strstr(ll, "define void @\"main[int, float, bool, str].entry\"(ptr"));
        char *as = kjit_module_asm(m, &err);
        assert_non_null(as);
        assert_non_null(strstr(as, "\"main[int, float, bool, str].entry\":"));
        assert_non_null(strstr(as, ".text"));
        free(ll);
        free(as);
        kjit_module_free(m);
        kjit_ctx_free(ctx);
    }
    kjit_error err;
    assert_null(kjit_module_llvm_ir(NULL, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
}

/* print() writes to kjit_options.out. Needs the host print built-in. */
static void test_output_capture(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    kjit_options o;
    kjit_options_init(&o);
    o.out = mem;
    kjit_ctx *ctx = new_ctx(&o);
    kjit_error err;
    kjit_module *m = compile_str(ctx, "def main(n=3):\n    print('n =', n, n * 0.5)\n", "p.k", &err);
    if (!m && strstr(err.message, "not supported by the host code generator")) {
        fclose(mem);
        free(text);
        kjit_ctx_free(ctx);
        skip();
    }
    assert_non_null(m);
    kjit_value n = kjit_value_int(3);
    assert_int_equal(kjit_call(kjit_module_get(m, "main"), &n, 1, NULL, &err), KJIT_OK);
    fflush(mem);
    assert_string_equal(text, "n = 3 1.5\n");
    fclose(mem);
    free(text);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* Tuples in and out: a @jit function's tuple result (nested, with a bool,
 * a float32 and an array view that keeps its base alive), and tuple
 * arguments of mixed item types, each specialised for its item types. */
static const char TUPLE_SRC[] = "from numba import jit\n"
                                "import numpy as np\n"
                                "@jit\n"
                                "def stats(a):\n"
                                "    lo = a[0]\n"
                                "    hi = a[0]\n"
                                "    for i in range(a.shape[0]):\n"
                                "        lo = min(lo, a[i])\n"
                                "        hi = max(hi, a[i])\n"
                                "    return lo, hi, (hi > 2, np.float32(lo) / 2), a[1:]\n"
                                "@jit\n"
                                "def dot(p, q):\n"
                                "    return p[0] * q[0] + p[1] * q[1]\n"
                                "@jit\n"
                                "def scale(t):\n"
                                "    k, a = t\n"
                                "    for i in range(a.shape[0]):\n"
                                "        a[i] *= k\n"
                                "    return t\n"
                                "def main():\n"
                                "    pass\n";

static void test_call_tuples(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_error err;
    kjit_module *m = compile_str(ctx, TUPLE_SRC, "tuples.k", &err);
    assert_non_null(m);
    double data[4] = {3.5, -1.0, 2.0, 0.5};
    int64_t shape = 4;
    kjit_array *a = kjit_array_wrap(ctx, data, KJIT_FLOAT64, 1, &shape, NULL, &err);
    assert_non_null(a);
    kjit_value arg = kjit_value_array(a), r;
    assert_int_equal(kjit_call(kjit_module_get(m, "stats"), &arg, 1, &r, &err), KJIT_OK);
    char name[128];
    assert_string_equal(kjit_value_type_name(&r, name, sizeof name),
                        "(float64, float64, (bool, float32), array(float64, 1d))");
    assert_int_equal(r.kind, KJIT_VALUE_TUPLE);
    assert_int_equal(r.v.t->n, 4);
    kjit_value *it = r.v.t->items;
    assert_true(it[0].v.f == -1.0 && it[1].v.f == 3.5);
    assert_int_equal(it[2].v.t->n, 2);
    assert_true(it[2].v.t->items[0].v.b);
    assert_int_equal(it[2].v.t->items[1].dtype, KJIT_FLOAT32);
    assert_true(it[2].v.t->items[1].v.f == -0.5);
    kjit_array *tail = it[3].v.a;
    assert_int_equal(kjit_array_shape(tail)[0], 3);
    assert_ptr_equal(kjit_array_data(tail), &data[1]); /* a view of the caller's memory */
    kjit_array_free(a);
    kjit_value_release(&r); /* frees the items, the view and the tuples */
    assert_int_equal(r.kind, KJIT_VALUE_NONE);

    /* Tuple arguments: (int64, float64) . (float32, int8) */
    kjit_value p_items[2] = {kjit_value_int(3), kjit_value_float(0.5)};
    kjit_value q_items[2] = {kjit_value_float32(2.0f), kjit_value_int_as(-4, KJIT_INT8)};
    kjit_tuple p = {2, p_items}, q = {2, q_items};
    kjit_value pq[2] = {kjit_value_tuple(&p), kjit_value_tuple(&q)};
    assert_int_equal(kjit_call(kjit_module_get(m, "dot"), pq, 2, &r, &err), KJIT_OK);
    assert_int_equal(r.kind, KJIT_VALUE_FLOAT);
    assert_true(r.v.f == 3 * 2.0 + 0.5 * -4);
    /* A tuple holding an array: the code writes through it, and returns it. */
    double xs[3] = {1, 2, 3};
    int64_t n3 = 3;
    kjit_array *x = kjit_array_wrap(ctx, xs, KJIT_FLOAT64, 1, &n3, NULL, &err);
    kjit_value t_items[2] = {kjit_value_float(2.0), kjit_value_array(x)};
    kjit_tuple t = {2, t_items};
    kjit_value targ = kjit_value_tuple(&t);
    assert_int_equal(kjit_call(kjit_module_get(m, "scale"), &targ, 1, &r, &err), KJIT_OK);
    assert_true(xs[0] == 2 && xs[1] == 4 && xs[2] == 6);
    assert_int_equal(r.v.t->n, 2);
    assert_ptr_equal(kjit_array_data(r.v.t->items[1].v.a), xs);
    kjit_value_release(&r);
    /* A tuple of the wrong arity for the parameter's use: a compile error. */
    kjit_tuple one = {1, p_items};
    pq[0] = kjit_value_tuple(&one);
    assert_int_equal(kjit_call(kjit_module_get(m, "dot"), pq, 2, &r, &err), KJIT_ERR_COMPILE);
    /* The result may be dropped: what it owns is released. */
    assert_int_equal(kjit_call(kjit_module_get(m, "scale"), &targ, 1, NULL, &err), KJIT_OK);
    assert_true(xs[2] == 12);
    kjit_array_free(x);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* Default options with the cache in `dir`. */
static kjit_options cache_options(const char *dir)
{
    kjit_options o;
    kjit_options_init(&o);
    o.cache_dir = dir;
    return o;
}

/* The second compile of a source, in a new context, loads the cached
 * object instead of generating code; so does the second process's first
 * call of a specialisation made at call time (add(int, int) here, which
 * main does not call). */
static void test_cache(void **state)
{
    (void)state;
    char *dir = temp_dir();
    kjit_options o = cache_options(dir);
    kjit_error err;
    kjit_value ii[2] = {kjit_value_int(20), kjit_value_int(22)}, r;
    for (int round = 0; round < 3; round++) {
        if (round == 2) o.opt_level = 1; /* other options: another entry */
        kjit_ctx *ctx = new_ctx(&o);
        kjit_module *m = compile_calls(ctx);
        const char *used = NULL;
        kjit_cache_stats st = kjit_ctx_cache_stats(ctx, &used);
        assert_non_null(used);
        assert_string_equal(used, dir);
        assert_int_equal(st.hits, round == 1);
        assert_int_equal(st.disk_hits, round == 1);
        assert_int_equal(st.misses, round != 1);
        assert_int_equal(st.corrupt, 0);
        /* The cached code runs, and so does code made after it. */
        kjit_value f[4];
        kjit_fn *mainf = kjit_module_get(m, "main");
        for (int i = 0; i < 4; i++) kjit_fn_param_default(mainf, i, &f[i]);
        assert_int_equal(kjit_call(mainf, f, 4, NULL, &err), KJIT_OK);
        assert_int_equal(kjit_call(kjit_module_get(m, "add"), ii, 2, &r, &err), KJIT_OK);
        assert_int_equal(r.v.i, 42);
        st = kjit_ctx_cache_stats(ctx, NULL);
        assert_int_equal(st.hits, 2 * (round == 1));
        assert_int_equal(st.disk_hits, 2 * (round == 1));
        assert_int_equal(st.misses, 2 * (round != 1));
        /* A second compile in the same context: a memory hit; its call of
         * add(int, int) too. */
        kjit_module *m2 = compile_calls(ctx);
        assert_int_equal(kjit_call(kjit_module_get(m2, "add"), ii, 2, &r, &err), KJIT_OK);
        assert_int_equal(r.v.i, 42);
        st = kjit_ctx_cache_stats(ctx, NULL);
        assert_int_equal(st.hits, 2 * (round == 1) + 2);
        assert_int_equal(st.disk_hits, 2 * (round == 1));
        kjit_module_free(m2);
        kjit_module_free(m);
        kjit_ctx_free(ctx);
    }
    /* cache = 0: nothing is looked up. */
    o.cache = 0;
    kjit_ctx *ctx = new_ctx(&o);
    kjit_module_free(compile_calls(ctx));
    const char *used = "x";
    kjit_cache_stats st = kjit_ctx_cache_stats(ctx, &used);
    assert_null(used);
    assert_int_equal(st.hits, 0);
    assert_int_equal(st.misses, 1);
    kjit_ctx_free(ctx);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* A module may outlive its context: specialisations made at call time
 * afterwards still compile, and still go through the (shared) cache. */
static void test_cache_module_outlives_ctx(void **state)
{
    (void)state;
    char *dir = temp_dir();
    kjit_options o = cache_options(dir);
    kjit_error err;
    kjit_value ff[2] = {kjit_value_float(1.25), kjit_value_float(2.5)}, r;
    for (int round = 0; round < 2; round++) {
        kjit_ctx *ctx = new_ctx(&o);
        kjit_module *m = compile_calls(ctx);
        kjit_ctx_free(ctx);
        assert_int_equal(kjit_call(kjit_module_get(m, "add"), ff, 2, &r, &err), KJIT_OK);
        assert_int_equal(r.kind, KJIT_VALUE_FLOAT);
        assert_true(r.v.f == 3.75);
        kjit_module_free(m);
    }
    char cmd[600];
    /* module + add(float, float), in their fan-out directories (which may be one);
     * DIR/usage (the entries' total size and hits) is not an entry */
    snprintf(cmd, sizeof cmd, "test $(find '%s' -type f ! -name 'tmp*' ! -name usage | wc -l) -eq 2", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* A program compiled as two objects on two threads is cached as a bundle of
 * both, and runs the same from the cache. */
static const char SPLIT_SRC[] =
    "import numpy as np\n"
    "import math\n"
    "from numba import jit\n"
    "@jit\n"
    "def wave(n):\n"
    "    a = np.zeros(n)\n"
    "    for i in range(n):\n"
    "        a[i] = math.sin(i * 0.1) * math.exp(-i * 0.01) + math.cos(i * 0.2)\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(3):\n"
    "            s += a[i] * j\n"
    "    return s\n"
    "@jit\n"
    "def grid(n):\n"
    "    m = np.zeros((n, n))\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            m[i, j] = math.sqrt(i * j + 1.0) / (1 + math.log1p(i + j))\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            t += m[i, j] * m[j, i]\n"
    "    return t\n"
    "def main(n=40):\n"
    "    print(round(wave(n), 6), round(grid(n), 6))\n";

static bool dir_has_bundle(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "grep -rqs KJOBJS1 '%s'", dir);
    return system(cmd) == 0;
}

static void test_cache_split_program(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char *outs[2] = {NULL, NULL};
    for (int round = 0; round < 2; round++) {
        size_t len = 0;
        FILE *mem = open_memstream(&outs[round], &len);
        kjit_options o;
        kjit_options_init(&o);
        o.cache_dir = dir;
        o.out = mem;
        kjit_ctx *ctx = new_ctx(&o);
        kjit_error err;
        kjit_module *m = kjit_compile(ctx, SPLIT_SRC, sizeof SPLIT_SRC - 1, "split.k", &err);
        assert_non_null(m);
        kjit_cache_stats st = kjit_ctx_cache_stats(ctx, NULL);
        assert_int_equal(st.disk_hits, round);
        kjit_value n = kjit_value_int(40);
        assert_int_equal(kjit_call(kjit_module_get(m, "main"), &n, 1, NULL, &err), KJIT_OK);
        fclose(mem);
        kjit_module_free(m);
        kjit_ctx_free(ctx);
        if (round == 0) assert_true(dir_has_bundle(dir));
    }
    assert_true(strlen(outs[0]) > 3);
    assert_string_equal(outs[0], outs[1]);
    free(outs[0]);
    free(outs[1]);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* With KJIT_NUM_THREADS=4 a program of six independent functions is
 * compiled as four modules (one per thread), cached as a bundle of four
 * objects; with KJIT_NUM_THREADS=1, as one object. Both print the same. */
static const char SPLIT_MANY_SRC[] =
    "import numpy as np\n"
    "import math\n"
    "from numba import jit\n"
    "@jit\n"
    "def f1(n):\n"
    "    m = np.zeros((n, n))\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            m[i, j] = math.sqrt(i * j + 1.0) / (1 + math.log1p(i + j)) + math.sin(j * 0.1)\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            t += m[i, j] * m[j, i]\n"
    "    return t\n"
    "@jit\n"
    "def f2(n):\n"
    "    m = np.zeros((n, n))\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            m[i, j] = math.sqrt(i * j + 2.0) / (1 + math.log1p(i + j)) + math.sin(j * 0.2)\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            t += m[i, j] * m[j, i]\n"
    "    return t\n"
    "@jit\n"
    "def f3(n):\n"
    "    m = np.zeros((n, n))\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            m[i, j] = math.sqrt(i * j + 3.0) / (1 + math.log1p(i + j)) + math.sin(j * 0.3)\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            t += m[i, j] * m[j, i]\n"
    "    return t\n"
    "@jit\n"
    "def f4(n):\n"
    "    m = np.zeros((n, n))\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            m[i, j] = math.sqrt(i * j + 4.0) / (1 + math.log1p(i + j)) + math.sin(j * 0.4)\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            t += m[i, j] * m[j, i]\n"
    "    return t\n"
    "@jit\n"
    "def f5(n):\n"
    "    m = np.zeros((n, n))\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            m[i, j] = math.sqrt(i * j + 5.0) / (1 + math.log1p(i + j)) + math.sin(j * 0.5)\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            t += m[i, j] * m[j, i]\n"
    "    return t\n"
    "@jit\n"
    "def f6(n):\n"
    "    m = np.zeros((n, n))\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            m[i, j] = math.sqrt(i * j + 6.0) / (1 + math.log1p(i + j)) + math.sin(j * 0.6)\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            t += m[i, j] * m[j, i]\n"
    "    return t\n"
    "def main(n=30):\n"
    "    print(round(f1(n) + f2(n) + f3(n) + f4(n) + f5(n) + f6(n), 6))\n";

/* The number of objects in the bundle cached in `dir`; 1 for a plain object. */
static uint64_t cached_objects(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cat '%s'/*/* 2>/dev/null", dir);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char *bytes = NULL;
    size_t n = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (n + got > cap) bytes = realloc(bytes, cap = 2 * (n + got));
        memcpy(bytes + n, chunk, got);
        n += got;
    }
    pclose(f);
    uint64_t count = 1;
    for (size_t k = 0; k + 16 <= n; k++)
        if (!memcmp(bytes + k, "KJOBJS1", 8)) {
            memcpy(&count, bytes + k + 8, 8);
            break;
        }
    free(bytes);
    return count;
}

static char *run_split_many(const char *threads, uint64_t *objects)
{
    char *dir = temp_dir(), *out = NULL;
    size_t len = 0;
    setenv("KJIT_NUM_THREADS", threads, 1);
    FILE *mem = open_memstream(&out, &len);
    kjit_options o;
    kjit_options_init(&o);
    o.cache_dir = dir;
    o.out = mem;
    kjit_ctx *ctx = new_ctx(&o);
    kjit_error err;
    kjit_module *m = kjit_compile(ctx, SPLIT_MANY_SRC, sizeof SPLIT_MANY_SRC - 1, "many.k", &err);
    unsetenv("KJIT_NUM_THREADS");
    assert_non_null(m);
    kjit_value n = kjit_value_int(30);
    assert_int_equal(kjit_call(kjit_module_get(m, "main"), &n, 1, NULL, &err), KJIT_OK);
    fclose(mem);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    *objects = cached_objects(dir);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
    return out;
}

static void test_cache_split_threads(void **state)
{
    (void)state;
    uint64_t four = 0, one = 0;
    char *a = run_split_many("4", &four), *b = run_split_many("1", &one);
    assert_int_equal(four, 4);
    assert_int_equal(one, 1);
    assert_true(strlen(a) > 3);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* ---- arrays ---- */

static void test_arrays(void **state)
{
    (void)state;
    kjit_error err;
    uint16_t buf[12];
    int64_t shape[2] = {3, 4};
    kjit_array *a = kjit_array_wrap(NULL, buf, KJIT_UINT16, 2, shape, NULL, &err);
    assert_non_null(a);
    assert_int_equal(err.code, KJIT_OK);
    assert_ptr_equal(kjit_array_data(a), buf);
    assert_int_equal(kjit_array_ndim(a), 2);
    assert_int_equal(kjit_array_shape(a)[1], 4);
    assert_int_equal(kjit_array_strides(a)[0], 8);
    assert_int_equal(kjit_array_strides(a)[1], 2);
    assert_int_equal(kjit_array_dtype(a), KJIT_UINT16);
    assert_int_equal(kjit_array_size(a), 12);
    kjit_array_free(a);

    kjit_array *z = kjit_array_new(NULL, KJIT_FLOAT32, 2, shape, &err);
    assert_non_null(z);
    for (int i = 0; i < 12; i++) assert_true(((float *)kjit_array_data(z))[i] == 0.0f);
    kjit_array_free(z);
    kjit_array *s = kjit_array_new(NULL, KJIT_INT8, 0, NULL, &err); /* 0-d */
    assert_non_null(s);
    assert_int_equal(kjit_array_size(s), 1);
    kjit_array_free(s);
    kjit_array_free(NULL);

    assert_int_equal(kjit_dtype_size(KJIT_FLOAT64), 8);
    assert_int_equal(kjit_dtype_size(KJIT_BOOL), 1);
    assert_string_equal(kjit_dtype_name(KJIT_UINT32), "uint32");

    int64_t odd[2] = {8, 3};
    assert_null(kjit_array_wrap(NULL, buf, KJIT_UINT16, 2, shape, odd, &err));
    assert_int_equal(err.code, KJIT_ERR_USAGE);
    assert_string_equal(err.message,
                        "kjit_array_wrap: stride 3 of axis 1 is not a multiple of the item size 2");
    assert_null(kjit_array_wrap(NULL, NULL, KJIT_UINT16, 2, shape, NULL, &err));
    assert_string_equal(err.message, "kjit_array_wrap: data is NULL");
    assert_null(kjit_array_new(NULL, (kjit_dtype)99, 2, shape, &err));
    assert_string_equal(err.message, "kjit_array_new: invalid dtype 99");
    assert_null(kjit_array_new(NULL, KJIT_INT8, 9, shape, &err));
    assert_string_equal(err.message, "kjit_array_new: ndim must be 0..8 with a shape, got 9");
    int64_t neg[1] = {-2};
    assert_null(kjit_array_new(NULL, KJIT_INT8, 1, neg, &err));
    assert_string_equal(err.message, "kjit_array_new: negative dimension -2 in axis 0");

    /* Compiled code takes 1 to 4 dimensions. */
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    int64_t s5[5] = {1, 1, 1, 1, 1};
    kjit_array *a5 = kjit_array_new(ctx, KJIT_INT8, 5, s5, &err);
    kjit_value v = kjit_value_array(a5);
    assert_int_equal(kjit_call(kjit_module_get(m, "tail"), &v, 1, NULL, &err), KJIT_ERR_USAGE);
    assert_string_equal(err.message, "argument 1: compiled code takes arrays of 1 to 4 dimensions, not 5");
    kjit_array_free(a5);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* ---- one context and module shared by threads ---- */

typedef struct shared_job {
    kjit_module *m;
    int id;
    int failures;
} shared_job;

/* Each thread calls `add` with its own argument types (so the threads
 * specialise and compile concurrently) and with shared ones (so they race
 * for the same specialisation), checking every result. */
static void *call_loop(void *arg)
{
    shared_job *j = arg;
    kjit_fn *add = kjit_module_get(j->m, "add");
    for (int r = 0; r < 50; r++) {
        kjit_error err;
        kjit_value res;
        kjit_value own[2] = {kjit_value_int_as(r, (kjit_dtype)(KJIT_INT8 + j->id)),
                             kjit_value_int_as(1, (kjit_dtype)(KJIT_INT8 + j->id))};
        if (kjit_call(add, own, 2, &res, &err) || res.v.i != r + 1 ||
            res.dtype != (kjit_dtype)(KJIT_INT8 + j->id))
            j->failures++;
        kjit_value f[2] = {kjit_value_float(r), kjit_value_float(0.5)};
        if (kjit_call(add, f, 2, &res, &err) || res.v.f != r + 0.5) j->failures++;
    }
    return NULL;
}

static void test_threads_shared_module(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
    kjit_module *m = compile_calls(ctx);
    pthread_t th[NTHREADS];
    shared_job jobs[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (shared_job){.m = m, .id = i};
        assert_int_equal(pthread_create(&th[i], NULL, call_loop, &jobs[i]), 0);
    }
    /* Meanwhile this thread compiles on the same context. */
    for (int r = 0; r < 3; r++) kjit_module_free(compile_calls(ctx));
    for (int i = 0; i < NTHREADS; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_int_equal(jobs[i].failures, 0);
    }
    assert_int_equal(count_specs(m, "add"), NTHREADS + 1);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* Distinct contexts on several threads, each compiling and calling. */
static void *own_context(void *arg)
{
    shared_job *j = arg;
    kjit_ctx *ctx = kjit_ctx_new(NULL, NULL);
    for (int r = 0; r < 3; r++) {
        kjit_error err;
        kjit_module *m = kjit_compile(ctx, calls_src, strlen(calls_src), "calls.k", &err);
        kjit_value a[2] = {kjit_value_int(j->id), kjit_value_int(r)}, res;
        if (!m || kjit_call(kjit_module_get(m, "add"), a, 2, &res, &err) || res.v.i != j->id + r)
            j->failures++;
        kjit_module_free(m);
    }
    kjit_ctx_free(ctx);
    return NULL;
}

static void test_threads_own_contexts(void **state)
{
    (void)state;
    pthread_t th[NTHREADS];
    shared_job jobs[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (shared_job){.id = i};
        assert_int_equal(pthread_create(&th[i], NULL, own_context, &jobs[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_int_equal(jobs[i].failures, 0);
    }
}

/* ---- the fault handler opt-in (kjit_install_fault_handler) ---- */

static const char fault_src[] = "from numba import jit\n"
                                "\n"
                                "@jit\n"
                                "def poke(a, i):\n"
                                "    a[i] = 1.0\n"
                                "    return 0\n";

static void app_handler(int sig)
{
    (void)sig;
    _exit(42);
}

/* In a child process: the application's own SIGSEGV handler (exit 42),
 * then, when opt_in, kjit's; then `what`: 'c' a far out-of-bounds write in
 * compiled code, 'r' a SIGSEGV raised outside it. No cmocka here: the
 * child reports through its exit status only. */
static void fault_child(bool opt_in, char what)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = app_handler;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0) _exit(10);
    if (opt_in && kjit_install_fault_handler(NULL) != KJIT_OK) _exit(11);
    if (what == 'r') {
        raise(SIGSEGV);
        _exit(12);
    }
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
    kjit_module *m = ctx ? kjit_compile(ctx, fault_src, strlen(fault_src), "fault.k", &err) : NULL;
    if (!m) _exit(13);
    double v[4] = {0};
    int64_t shape[1] = {4};
    kjit_array *a = kjit_array_wrap(ctx, v, KJIT_FLOAT64, 1, shape, NULL, &err);
    kjit_value args[2] = {kjit_value_array(a), kjit_value_int(INT64_C(1) << 40)};
    kjit_call(kjit_module_get(m, "poke"), args, 2, NULL, &err);
    _exit(14); /* the write did not fault: the test cannot tell anything */
}

/* Run fault_child in a child process: its exit status, its stderr in buf. */
static int run_fault_child(bool opt_in, char what, char *buf, size_t cap)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], STDERR_FILENO);
        fault_child(opt_in, what);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fd[0], buf + n, cap - 1 - n)) > 0) n += (size_t)r;
    buf[n] = 0;
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_fault_handler_opt_in(void **state)
{
    (void)state;
#if KJ_ASAN
    (void)run_fault_child; /* used by the other builds */
    kjit_error err;
    assert_int_equal(kjit_install_fault_handler(&err), KJIT_ERR_USAGE);
    assert_non_null(strstr(err.message, "AddressSanitizer"));
    skip(); /* ASan's handler reports faults in this build */
#else
    char out[1024];
    /* no opt-in: the application's handler gets the fault in compiled code */
    assert_int_equal(run_fault_child(false, 'c', out, sizeof out), 42);
    assert_string_equal(out, "");
    /* opt-in: kjit's message and status */
    assert_int_equal(run_fault_child(true, 'c', out, sizeof out), KJIT_FAULT_EXIT_STATUS);
    assert_string_equal(out, "kjit: fatal: SIGSEGV in compiled function poke (fault.k); rerun with --boundscheck\n");
    /* opt-in: a fault outside compiled code still goes to the application */
    assert_int_equal(run_fault_child(true, 'r', out, sizeof out), 42);
    assert_string_equal(out, "");
#endif
}

/* ---- events (kjit_options.on_event) ---- */

typedef struct seen_events {
    int compiles, cached, launches, copies;
    double launch_s;
    char kernel[64];
} seen_events;

static void count_event(const kjit_event *e, void *user)
{
    seen_events *s = user;
    assert_true(e->seconds >= 0);
    if (e->kind == KJIT_EVENT_COMPILE) {
        s->compiles++;
        s->cached += e->cached;
        assert_non_null(e->name);
    } else if (e->kind == KJIT_EVENT_LAUNCH) {
        s->launches++;
        s->launch_s += e->seconds;
        snprintf(s->kernel, sizeof s->kernel, "%s", e->name);
    } else {
        s->copies++; /* none without a GPU */
    }
}

static const char events_src[] = "from numba import cuda\n"
                                 "import numpy as np\n"
                                 "@cuda.jit\n"
                                 "def twice(a):\n"
                                 "    i = cuda.grid(1)\n"
                                 "    if i < a.size:\n"
                                 "        a[i] *= 2.0\n"
                                 "def main(n=1000):\n"
                                 "    a = np.ones(n)\n"
                                 "    twice[(n + 63) // 64, 64](a)\n"
                                 "    twice[(n + 63) // 64, 64](a)\n"
                                 "    print(a[0])\n";

/* Each compile is reported (cold, then cached in a new context) and each
 * launch, with its kernel's name, from generated code and kjit_launch. */
static void test_events(void **state)
{
    (void)state;
    char *dir = temp_dir();
    for (int round = 0; round < 2; round++) {
        seen_events seen = {0};
        kjit_options o = cache_options(dir);
        o.target = KJIT_TARGET_CPU;
        o.on_event = count_event;
        o.event_user = &seen;
        FILE *out = tmpfile();
        o.out = out;
        kjit_ctx *ctx = new_ctx(&o);
        kjit_error err;
        kjit_module *m = compile_str(ctx, events_src, "events.k", &err);
        assert_non_null(m);
        assert_int_equal(seen.compiles, 1);
        assert_int_equal(seen.cached, round); /* the second context finds the code cached */
        kjit_value n = kjit_value_int(1000);
        assert_int_equal(kjit_call(kjit_module_get(m, "main"), &n, 1, NULL, &err), KJIT_OK);
        assert_int_equal(seen.launches, 2);
        assert_string_equal(seen.kernel, "twice");
        assert_int_equal(seen.copies, 0);
        kjit_module_free(m);
        kjit_ctx_free(ctx);
        fclose(out);
    }
    /* without a hook, nothing is reported (and nothing breaks) */
    kjit_options o = cache_options(dir);
    o.target = KJIT_TARGET_CPU;
    FILE *out = tmpfile();
    o.out = out;
    kjit_ctx *ctx = new_ctx(&o);
    kjit_error err;
    kjit_module *m = compile_str(ctx, events_src, "events.k", &err);
    kjit_value n = kjit_value_int(1000);
    assert_int_equal(kjit_call(kjit_module_get(m, "main"), &n, 1, NULL, &err), KJIT_OK);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    fclose(out);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_check_cpu_inliner),
        cmocka_unit_test(test_options_defaults_and_validation),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_empty_program),
        cmocka_unit_test(test_script_module),
        cmocka_unit_test(test_syntax_error_fields),
        cmocka_unit_test(test_diagnostic_formats),
        cmocka_unit_test(test_diagnostics_lifetime),
        cmocka_unit_test(test_length_bounded_source),
        cmocka_unit_test(test_max_errors),
        cmocka_unit_test(test_valid_program_and_ir),
        cmocka_unit_test(test_type_error_fields),
        cmocka_unit_test(test_compile_file),
        cmocka_unit_test(test_io_errors),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_call_scalars),
        cmocka_unit_test(test_call_checks_prange),
        cmocka_unit_test(test_call_signature),
        cmocka_unit_test(test_call_dispatch),
        cmocka_unit_test(test_call_arrays_zero_copy),
        cmocka_unit_test(test_call_returns_array),
        cmocka_unit_test(test_call_usage_errors),
        cmocka_unit_test(test_call_ufunc_scalars),
        cmocka_unit_test(test_runtime_errors),
        cmocka_unit_test(test_boundscheck_option),
        cmocka_unit_test(test_boundscheck_env_values),
        cmocka_unit_test(test_main_params),
        cmocka_unit_test(test_targets_and_check_only),
        cmocka_unit_test(test_llvm_and_asm),
        cmocka_unit_test(test_output_capture),
        cmocka_unit_test(test_call_tuples),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_cache_module_outlives_ctx),
        cmocka_unit_test(test_cache_split_program),
        cmocka_unit_test(test_cache_split_threads),
        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_threads_shared_module),
        cmocka_unit_test(test_threads_own_contexts),
        cmocka_unit_test(test_fault_handler_opt_in),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_launch_prepared),
    };
    return cmocka_run_group_tests(tests, setup_cache_dir, teardown_cache_dir);
}
