/* SPDX-License-Identifier: BSD-2-Clause */
/* MPI without the library (docs/scale-out.md): kjit runs where MPI is
 * absent, and only a program that imports mpi4py fails, with a clear error,
 * when it is compiled to run (checking it needs no MPI). The library is
 * "absent" through KJIT_MPI_LIBRARY naming one that does not exist, so the
 * test is the same on machines with and without Open MPI; tests/mpi/run.sh
 * runs MPI programs for real. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kjit.h>

#include "runtime/mpi.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char mpi_src[] = "from mpi4py import MPI\n"
                              "\n"
                              "def main():\n"
                              "    print(MPI.COMM_WORLD.Get_rank())\n";

static const char plain_src[] = "def main():\n"
                                "    print(1)\n";

static int no_library(void **state)
{
    (void)state;
    return setenv("KJIT_MPI_LIBRARY", "libkjit-test-no-such-mpi.so", 1);
}

static void test_open_missing(void **state)
{
    (void)state;
    char err[256] = "";
    kj_mpi *m = kj_mpi_open(NULL, err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "mpi4py: no MPI library found"));
    assert_non_null(strstr(err, "libkjit-test-no-such-mpi.so"));
}

/* Compile src (check_only: type-check only); returns whether it compiled. */
static bool compiles(int check_only, const char *src, kjit_error *err)
{
    kjit_options o;
    kjit_options_init(&o);
    o.check_only = check_only;
    o.target = KJIT_TARGET_CPU;
    kjit_ctx *ctx = kjit_ctx_new(&o, err);
    assert_non_null(ctx);
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "prog.k", err);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    return m != NULL;
}

static void test_compile_without_mpi(void **state)
{
    (void)state;
    kjit_error err;
    assert_true(compiles(1, mpi_src, &err)); /* checking needs no MPI */
    /* compiling to run opens it: a run-time error naming the cause */
    assert_false(compiles(0, mpi_src, &err));
    assert_int_equal(err.code, KJIT_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "mpi4py: no MPI library found"));
    /* a program without mpi4py never asks for it */
    assert_true(compiles(0, plain_src, &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_missing),
        cmocka_unit_test(test_compile_without_mpi),
    };
    return cmocka_run_group_tests(tests, no_library, NULL);
}
