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

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    kjit_ctx *ctx = new_ctx(NULL);
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
        snprintf(want, sizeof want, "cannot read '%s': Permission denied", p);
        assert_string_equal(err.message, want);
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
    kjit_ctx *ctx = kjit_ctx_new(NULL, NULL);
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

static void test_threads(void **state)
{
    (void)state;
    kjit_ctx *ctx = new_ctx(NULL);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_options_defaults_and_validation),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_empty_program),
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
