/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda.libdevice on the cpu targets (docs/cuda.md § libdevice): a
 * function without a cpu equivalent is a located compile error naming it
 * (the golden programs cover those that run; the PTX check all 317). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "jit_fixture.h"

#include <stdio.h>

static const char *const PROG = "import numpy as np\n"
                                "from numba import cuda\n"
                                "from numba.cuda import libdevice\n\n"
                                "@cuda.jit\n"
                                "def k(x):\n"
                                "    x[0] = libdevice.%s(x[1])\n\n"
                                "def main():\n"
                                "    x = np.ones(4)\n"
                                "    k[1, 1](x)\n";

/* The diagnostics of compiling PROG with `fn` for the cpu ("" when it compiles). */
static char *diags_of(fx *x, const char *fn)
{
    free(x->text);
    size_t cap = strlen(PROG) + 64;
    x->text = malloc(cap);
    snprintf(x->text, cap, PROG, fn);
    x->src = (kj_source){.path = "ld.k", .text = x->text, .len = strlen(x->text)};
    x->m = fx_pipeline(x, NULL);
    kj_codegen_opts o = {.opt_level = 1, .verify = true};
    kj_jit_free(x->jit);
    x->jit = x->m ? kj_codegen_host(x->m, &o, &x->d) : NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    kj_diags_print(&x->d, f, KJ_DIAG_SHORT);
    fclose(f);
    return buf;
}

static void test_no_cpu_equivalent(void **state)
{
    fx *x = *state;
    char *err = diags_of(x, "sinpi");
    assert_null(x->jit);
    assert_non_null(strstr(err, "ld.k:7:12: error: libdevice.sinpi has no equivalent on the cpu targets"));
    free(err);
}

static void test_cpu_equivalent(void **state)
{
    fx *x = *state;
    char *err = diags_of(x, "expm1");
    assert_non_null(x->jit);
    assert_string_equal(err, "");
    free(err);
}

/* A function with one: it compiles and runs, also with a tuple result. */
static void test_runs(void **state)
{
    fx *x = *state;
    x->text = strdup("import numpy as np\n"
                     "from numba import cuda\n"
                     "from numba.cuda import libdevice\n\n"
                     "@cuda.jit\n"
                     "def k(x, e):\n"
                     "    x[0], e[0] = libdevice.frexp(x[1])\n"
                     "    e[1] = libdevice.popcll(e[2])\n\n"
                     "def main():\n"
                     "    x = np.array([0.0, 12.0])\n"
                     "    e = np.array([0, 0, 1023], dtype=np.int32)\n"
                     "    k[1, 1](x, e)\n"
                     "    print(x[0], e[0], e[1])\n");
    expect_output(x, x->text, "0.75 4 10\n");
}

int main(void)
{
    (void)expect_error; /* (the fixture's, unused here) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_no_cpu_equivalent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpu_equivalent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runs, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
