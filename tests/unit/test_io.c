/* SPDX-License-Identifier: BSD-2-Clause */
/* The C API at its edges with the system (issue 22): a source length no
 * program has, an options.arch that is no GPU architecture, print output
 * lost to a full device, environment variables that are garbage. Only
 * <kjit.h> is used, as an embedding application would. tests/io/run.sh
 * covers the same points through the `kjit` command. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *cache_dir;

static int setup(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/kjit-test-io-XXXXXX";
    cache_dir = strdup(mkdtemp(tmpl));
    setenv("KJIT_CACHE_DIR", cache_dir, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    int rc = system(cmd);
    free(cache_dir);
    return rc;
}

/* A huge len is a usage error before any byte is read (it aborted the
 * process: the copy's allocation failed); the limit is the files' 64 MB. */
static void test_compile_len(void **state)
{
    (void)state;
    kjit_ctx *ctx = kjit_ctx_new(NULL, NULL);
    assert_non_null(ctx);
    const char text[] = "def main():\n    print(1)\n";
    const size_t lens[] = {SIZE_MAX, (size_t)-1 / 2, (size_t)(64 << 20) + 1};
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
        kjit_error err;
        memset(&err, 0x55, sizeof err);
        assert_null(kjit_compile(ctx, text, lens[k], "huge.k", &err));
        assert_int_equal(err.code, KJIT_ERR_USAGE);
        assert_non_null(strstr(err.message, "kjit_compile: len is "));
        assert_non_null(strstr(err.message, "at most 64 MB"));
    }
    kjit_error err;
    kjit_module *m = kjit_compile(ctx, text, strlen(text), "ok.k", &err);
    assert_non_null(m);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

/* options.arch is checked as --arch is: sm_, 2 or 3 digits, a or f. */
static void test_options_arch(void **state)
{
    (void)state;
    static const char *const good[] = {"sm_90", "sm_90a", "sm_80", "sm_100f", "sm_120"};
    static const char *const bad[] = {"", "90", "sm_9", "sm_", "sm_9000", "sm_90x", "sm_90aa", "compute_90",
                                      "SM_90", " sm_90", "sm_90 "};
    kjit_options o;
    kjit_error err;
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
        kjit_options_init(&o);
        o.arch = good[k];
        kjit_ctx *ctx = kjit_ctx_new(&o, &err);
        if (!ctx) fail_msg("arch '%s' refused: %s", good[k], err.message);
        kjit_ctx_free(ctx);
    }
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        kjit_options_init(&o);
        o.arch = bad[k];
        kjit_ctx *ctx = kjit_ctx_new(&o, &err);
        if (ctx) fail_msg("arch '%s' accepted", bad[k]);
        assert_int_equal(err.code, KJIT_ERR_USAGE);
        assert_non_null(strstr(err.message, "invalid option value: arch"));
    }
}

/* Compile `src` with print() going to `out`; call main. */
static int call_main_into(FILE *out, const char *src, kjit_error *err)
{
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    o.out = out;
    kjit_ctx *ctx = kjit_ctx_new(&o, err);
    assert_non_null(ctx);
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "out.k", err);
    assert_non_null(m);
    int rc = kjit_call(kjit_module_get(m, "main"), NULL, 0, NULL, err);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    return rc;
}

/* opt.out on a full device: the call fails with the OS error, whether the
 * output is lost at the final flush or while main runs (it was KJIT_OK). */
static void test_output_to_full_device(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full) skip();
    kjit_error err;
    /* a little: lost at the flush when the call returns */
    assert_int_equal(call_main_into(full, "def main():\n    print('hello')\n", &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "OSError: cannot write the output: No space left on device");
    /* much more than stdio's buffer: lost while main runs, which stops there */
    const char *loud = "def main():\n"
                       "    for i in range(100000):\n"
                       "        print(i, 'abcdefghij')\n"
                       "    assert False\n";
    assert_int_equal(call_main_into(full, loud, &err), KJIT_ERR_RUNTIME);
    assert_string_equal(err.message, "OSError: cannot write the output: No space left on device");
    fclose(full);
    /* a stream that takes it: no error */
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    assert_int_equal(call_main_into(tmp, "def main():\n    print('hello')\n", &err), KJIT_OK);
    assert_int_equal(ftell(tmp), 6);
    fclose(tmp);
}

/* Every variable kjit reads refuses garbage at kjit_ctx_new, naming it;
 * KJIT_MPI_TIMEOUT=abc meant no timeout and KJIT_DEVICE=abc device 0. */
static void test_env_garbage(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"KJIT_MPI_TIMEOUT", "abc"}, {"KJIT_MPI_TIMEOUT", "-3"},  {"KJIT_MPI_TIMEOUT", "inf"},
        {"KJIT_MPI_TIMEOUT", "0x10"}, {"KJIT_DEVICE", "abc"},     {"KJIT_DEVICE", "-1"},
        {"KJIT_DEVICE", "+1"},        {"KJIT_DEVICE", " 1"},      {"KJIT_DEVICE", "99999999999"},
        {"KJIT_NO_CACHE", "abc"},     {"KJIT_NO_FUSE", "2"},      {"KJIT_STATS", "verbose"},
        {"KJIT_NUM_THREADS", "abc"},  {"NUMBA_NUM_THREADS", "0"}, {"KJIT_MPI_CUDA_AWARE", "yes"},
        {"MPI_LOCALRANKID", "one"},   {"SLURM_LOCALID", "-1"},    {"KJIT_BOUNDSCHECK", "2"},
        {"KJIT_MPI_IPC", "yes"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        setenv(bad[k][0], bad[k][1], 1);
        kjit_error err;
        kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
        unsetenv(bad[k][0]);
        if (ctx) fail_msg("%s=%s accepted", bad[k][0], bad[k][1]);
        assert_int_equal(err.code, KJIT_ERR_USAGE);
        char want[64];
        snprintf(want, sizeof want, "%s=", bad[k][0]);
        if (strncmp(err.message, want, strlen(want))) fail_msg("%s=%s: %s", bad[k][0], bad[k][1], err.message);
    }
    static const char *const good[][2] = {
        {"KJIT_MPI_TIMEOUT", "2.5"}, {"KJIT_MPI_TIMEOUT", "1e3"}, {"KJIT_DEVICE", "3"},  {"KJIT_NO_CACHE", "Yes"},
        {"KJIT_NO_FUSE", "off"},     {"KJIT_STATS", "0"},         {"KJIT_DEVICE", ""},   {"SLURM_LOCALID", "7"},
    };
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
        setenv(good[k][0], good[k][1], 1);
        kjit_error err;
        kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
        unsetenv(good[k][0]);
        if (!ctx) fail_msg("%s=%s refused: %s", good[k][0], good[k][1], err.message);
        kjit_ctx_free(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_len),
        cmocka_unit_test(test_options_arch),
        cmocka_unit_test(test_output_to_full_device),
        cmocka_unit_test(test_env_garbage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
