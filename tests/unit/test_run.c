/* SPDX-License-Identifier: BSD-2-Clause */
/* The `kjit` command's code-running side, tested by spawning the built
 * binary: `kjit run` with NAME=VALUE parameters, its exit codes (0 ok,
 * 1 compile errors, 2 usage, 3 run-time error) and messages, run-time
 * errors printed like diagnostics after the program's output, and
 * `kjit llvm` / `kjit asm`.
 *
 * The binary is found next to the tests' directory (BUILDDIR/kjit for
 * BUILDDIR/tests/test_run). Every test runs in a fresh temporary directory
 * with its own cache directory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char kjit_path[PATH_MAX];

typedef struct result {
    int status; /* exit status, or 128 + signal */
    char *out, *err;
} result;

typedef struct fixture {
    char dir[64];
} fixture;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *s = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&s, &n);
    int c;
    while ((c = fgetc(f)) != EOF) fputc(c, mem);
    fclose(mem);
    fclose(f);
    return s;
}

static void write_file(const fixture *fx, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", fx->dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* `kjit ARGS` run by the shell inside the fixture's directory, with `env`
 * (assignments, may be "") in front. */
static result kjit(const fixture *fx, const char *env, const char *args)
{
    char cmd[PATH_MAX + 1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && env KJIT_CACHE_DIR='%s/cache' %s '%s' %s >out.txt 2>err.txt",
             fx->dir, fx->dir, env, kjit_path, args);
    int st = system(cmd);
    assert_int_not_equal(st, -1);
    result r = {.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)};
    char path[256];
    snprintf(path, sizeof path, "%s/out.txt", fx->dir);
    r.out = slurp(path);
    snprintf(path, sizeof path, "%s/err.txt", fx->dir);
    r.err = slurp(path);
    return r;
}

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

/* Run and check status, stdout and stderr exactly (NULL: not checked). */
static void expect(const fixture *fx, const char *env, const char *args, int status, const char *out,
                   const char *err)
{
    result r = kjit(fx, env, args);
    if (r.status != status || (out && strcmp(r.out, out)) || (err && strcmp(r.err, err)))
        fail_msg("kjit %s: status %d (want %d)\n--- stdout:\n%s--- stderr:\n%s", args, r.status, status,
                 r.out, r.err);
    result_free(&r);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/kjit-test-run-XXXXXX");
    assert_non_null(mkdtemp(fx->dir));
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    int rc = system(cmd);
    free(fx);
    return rc == 0 ? 0 : 1;
}

/* ---- NAME=VALUE ---- */

static const char params_src[] = "def main(n=3, x=0.5, flag=False, name=\"world\"):\n"
                                 "    assert n == 7, \"n\"\n"
                                 "    assert x == 0.25, \"x\"\n"
                                 "    assert flag, \"flag\"\n";

static const char params_list[] = "main's parameters (override with NAME=VALUE):\n"
                                  "  n=3 (int)\n"
                                  "  x=0.5 (float)\n"
                                  "  flag=False (bool)\n"
                                  "  name=\"world\" (str)\n";

static void test_params_ok(void **state)
{
    fixture *fx = *state;
    write_file(fx, "params.k", params_src);
    expect(fx, "", "run params.k n=7 x=0.25 flag=True name=abc", 0, "", "");
    expect(fx, "", "run params.k flag=1 x=2.5e-1 n=+7", 0, "", "");
    expect(fx, "", "run -O0 params.k n=7 --target=cpu flag=True x=.25", 0, "", "");
    expect(fx, "", "run --no-cache --target parallel params.k n=7 flag=1 x=0.25 'name=a b=c'", 0, "", "");
    /* The defaults, then values read per the default's type. */
    expect(fx, "", "run params.k", 1, "",
           "Traceback (most recent call last):\n"
           "  File \"params.k\", line 2, in main\n"
           "    assert n == 7, \"n\"\n"
           "    ^\n"
           "AssertionError: n\n");
    expect(fx, "", "run params.k n=7 x=0.25 flag=0", 1, "", NULL);
    expect(fx, "", "run params.k n=7 x=0.25 flag=False", 1, "", NULL);
    expect(fx, "", "run params.k n=7_0", 1, "", NULL); /* 70: Python's underscores */
    /* The program from standard input. */
    expect(fx, "", "run - n=7 x=0.25 flag=True < params.k", 0, "", "");
}

static void test_params_usage_errors(void **state)
{
    fixture *fx = *state;
    write_file(fx, "params.k", params_src);
    char want[1024];
    struct {
        const char *args, *msg;
    } cases[] = {
        {"m=1", "main() has no parameter 'm'"},
        {"n=1.5", "invalid value '1.5' for parameter 'n' (int: expected an integer)"},
        {"n=", "invalid value '' for parameter 'n' (int: expected an integer)"},
        {"n=99999999999999999999",
         "invalid value '99999999999999999999' for parameter 'n' (int: expected an integer)"},
        {"n=0x10", "invalid value '0x10' for parameter 'n' (int: expected an integer)"},
        {"x=abc", "invalid value 'abc' for parameter 'x' (float: expected a number)"},
        /* 1e999 is inf, as for float(); these are not numbers for it */
        {"x=0x1p3", "invalid value '0x1p3' for parameter 'x' (float: expected a number)"},
        {"x=1__0", "invalid value '1__0' for parameter 'x' (float: expected a number)"},
        {"flag=yes", "invalid value 'yes' for parameter 'flag' (bool: expected True, False, 1 or 0)"},
        {"flag=true", "invalid value 'true' for parameter 'flag' (bool: expected True, False, 1 or 0)"},
        {"n", "expected NAME=VALUE, got 'n'"},
        {"=3", "expected NAME=VALUE, got '=3'"},
        {"n=1 n=2", "parameter 'n' given twice"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        snprintf(want, sizeof want, "kjit: error: %s\n%s", cases[k].msg, params_list);
        char args[256];
        snprintf(args, sizeof args, "run params.k %s", cases[k].args);
        expect(fx, "", args, 2, "", want);
    }
    /* A main without parameters says so. */
    write_file(fx, "noparams.k", "def main():\n    pass\n");
    expect(fx, "", "run noparams.k k=1", 2, "",
           "kjit: error: main() has no parameter 'k'\nmain() takes no parameters\n");
    /* NAME=VALUE belongs to run only. */
    expect(fx, "", "check params.k n=1", 2, "", NULL);
    /* --arch is checked */
    expect(fx, "", "ptx --arch=90 params.k", 2, "", NULL);
}

/* ---- exit status 3 ---- */

/* No CUDA driver: --target=cuda stops with status 3 and says so; kjit ptx
 * still works. */
static void test_no_driver(void **state)
{
    fixture *fx = *state;
    write_file(fx, "k.k", "from numba import cuda\nimport numpy as np\n\n@cuda.jit\ndef k(x):\n    x[0] = 1.0\n\n"
                          "def main():\n    x = np.zeros(4)\n    k[1, 1](x)\n    print(x)\n");
    const char *env = "KJIT_LIBCUDA=/nonexistent/libcuda.so.1";
    result r = kjit(fx, env, "run --target=cuda k.k");
    assert_int_equal(r.status, 3);
    assert_true(!strncmp(r.err, "kjit: error: no CUDA driver found (", 35));
    result_free(&r);
    expect(fx, env, "run k.k", 0, "[1. 0. 0. 0.]\n", ""); /* auto: the cpu */
    r = kjit(fx, env, "ptx --arch=sm_80 --kernel=k k.k");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ".target sm_80"));
    result_free(&r);
    expect(fx, env, "ptx --kernel=nope k.k", 1, "", NULL);
}

/* ---- exit status 1 ---- */

static void test_compile_errors(void **state)
{
    fixture *fx = *state;
    write_file(fx, "bad.k", "def main():\n    total = qqqq + 1\n");
    expect(fx, "", "run --diag-format=short bad.k", 1, "", "bad.k:2:13: error: unknown name 'qqqq'\n");
    write_file(fx, "nomain.k", "def f(x):\n    return x\n");
    /* only definitions: nothing to run, as python3 runs nothing */
    expect(fx, "", "run nomain.k", 0, "", "");
    expect(fx, "", "run nomain.k n=1", 2, "",
           "kjit: error: 'n=1': a program without main() takes no NAME=VALUE parameters\n");
    /* a script (no main) runs its module-level statements, and takes no parameters */
    write_file(fx, "script.k", "import numpy as np\nk = 3\nk = k + 1\nprint(np.arange(k))\n");
    expect(fx, "", "run script.k", 0, "[0 1 2 3]\n", "");
    expect(fx, "", "run script.k n=1", 2, "",
           "kjit: error: 'n=1': a program without main() takes no NAME=VALUE parameters\n");
    expect(fx, "", "run missing.k", 1, "",
           "kjit: error: cannot read 'missing.k': No such file or directory\n");
}

/* ---- uncaught exceptions: Python's traceback, exit status 1 ---- */

static const char index_src[] = "import numpy as np\n"
                                "\n"
                                "def main(n=10, i=10, d=0):\n"
                                "    a = np.zeros(n)\n"
                                "    print(\"before\", n)\n"
                                "    a[i] = 1.0\n"
                                "    print(10 // d)\n";

/* Programs that need the host built-ins (np.zeros, print). */
static bool have_host_builtins(const fixture *fx)
{
    result r = kjit(fx, "", "run index.k i=0 d=1");
    bool ok = r.status == 0;
    if (!ok && !strstr(r.err, "not supported by the host code generator")) fail_msg("index.k: %s", r.err);
    result_free(&r);
    return ok;
}

static void test_runtime_errors(void **state)
{
    fixture *fx = *state;
    write_file(fx, "index.k", index_src);
    if (!have_host_builtins(fx)) skip();
    const char *index_err = "Traceback (most recent call last):\n"
                            "  File \"index.k\", line 6, in main\n"
                            "    a[i] = 1.0\n"
                            "      ^\n"
                            "IndexError: index 10 is out of bounds for axis 0 with size 10\n";
    /* The program's output comes first (flushed), then the error. */
    expect(fx, "", "run --boundscheck index.k", 1, "before 10\n", index_err);
    expect(fx, "KJIT_BOUNDSCHECK=1", "run index.k", 1, "before 10\n", index_err);
    expect(fx, "", "run --boundscheck --diag-format=short index.k i=-11", 1, "before 10\n",
           "index.k:6:7: IndexError: index -11 is out of bounds for axis 0 with size 10\n");
    /* Integer division by zero is Python's error, not a signal. */
    expect(fx, "", "run index.k i=0", 1, "before 10\n",
           "Traceback (most recent call last):\n"
           "  File \"index.k\", line 7, in main\n"
           "    print(10 // d)\n"
           "          ^\n"
           "ZeroDivisionError: integer division or modulo by zero\n");
    expect(fx, "", "run index.k i=-1 d=3", 0, "before 10\n3\n", "");
    /* JSON diagnostics for tools. */
    result r = kjit(fx, "KJIT_DIAG_FORMAT=json", "run --boundscheck index.k");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err,
                        "{\"file\":\"index.k\",\"line\":6,\"col\":7,\"severity\":\"error\",\"message\":"
                        "\"IndexError: index 10 is out of bounds for axis 0 with size 10\"}\n");
    result_free(&r);
}

/* ---- llvm / asm ---- */

static void test_llvm_asm(void **state)
{
    fixture *fx = *state;
    write_file(fx, "sq.k", "def sq(x):\n    return x * x\n\ndef main(n=3):\n    assert sq(n) == 9\n");
    result r = kjit(fx, "", "llvm sq.k");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "target triple = \"x86_64"));
    assert_non_null(strstr(r.out, "define void @\"main[int].entry\"(ptr"));
    result_free(&r);
    r = kjit(fx, "", "asm -O1 sq.k");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"main[int].entry\":"));
    assert_non_null(strstr(r.out, ".text"));
    result_free(&r);
    write_file(fx, "bad.k", "def main():\n    total = qqqq + 1\n");
    expect(fx, "", "llvm --diag-format=short bad.k", 1, "", "bad.k:2:13: error: unknown name 'qqqq'\n");
    expect(fx, "", "asm", 2, "", NULL);
}

static void test_help_mentions_run(void **state)
{
    fixture *fx = *state;
    result r = kjit(fx, "", "help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  run FILE.k [NAME=VALUE ...]\n"));
    assert_non_null(strstr(r.out, "  llvm FILE.k "));
    assert_non_null(strstr(r.out, "3 the program stopped with a run-time error"));
    result_free(&r);
}

/* The binary next to the tests' directory. */
static void find_kjit(void)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) abort();
    self[n] = 0;
    char *tests = dirname(self);
    snprintf(kjit_path, sizeof kjit_path, "%s/../kjit", tests);
}

int main(void)
{
    find_kjit();
    /* The environment must not change what the tests expect. */
    unsetenv("KJIT_DIAG_FORMAT");
    unsetenv("KJIT_BOUNDSCHECK");
    unsetenv("KJIT_NO_CACHE");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_params_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_params_usage_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_driver, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compile_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runtime_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_llvm_asm, setup, teardown),
        cmocka_unit_test_setup_teardown(test_help_mentions_run, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
