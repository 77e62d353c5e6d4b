/* embed.c: a host application that uses kjit as a library.
 *
 * It compiles a program held in a string, wraps its own arrays without
 * copying them, calls two @jit functions with them and checks the results.
 * Build it against an installed kjit with
 *
 *     cc -std=c17 -o embed embed.c $(pkg-config --cflags --libs kjit)
 *
 * (docs/embedding.md; the tests build it against the build tree with
 * meson's uninstalled pkg-config file, see run.sh next to it). */
#include <kjit.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char program[] =
    "from numba import jit\n"
    "\n"
    "\n"
    "@jit\n"
    "def saxpy(a, x, y):\n"
    "    # y <- a*x + y, in place: y is the caller's memory\n"
    "    for i in range(x.shape[0]):\n"
    "        y[i] = a * x[i] + y[i]\n"
    "\n"
    "\n"
    "@jit\n"
    "def dot(x, y):\n"
    "    s = 0.0\n"
    "    for i in range(x.shape[0]):\n"
    "        s += x[i] * y[i]\n"
    "    return s\n";

enum { N = 1000 };

/* Report a failed call and give up. */
static int fail(const char *what, const kjit_error *err)
{
    fprintf(stderr, "embed: %s failed: %s", what, err->message);
    if (err->line) fprintf(stderr, " (%s:%d:%d)", err->file, err->line, err->col);
    fputc('\n', stderr);
    return 1;
}

static int run(kjit_ctx *ctx, kjit_module *m)
{
    static double x[N], y[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = i * 0.5;
        y[i] = 1.0 + i;
        want[i] = 2.0 * x[i] + y[i];
    }
    kjit_error err;
    int64_t shape[1] = {N};
    kjit_array *ax = kjit_array_wrap(ctx, x, KJIT_FLOAT64, 1, shape, NULL, &err);
    kjit_array *ay = kjit_array_wrap(ctx, y, KJIT_FLOAT64, 1, shape, NULL, &err);
    if (!ax || !ay) return fail("kjit_array_wrap", &err);

    /* saxpy(2.0, x, y): the first call compiles saxpy for (float64, array(float64, 1d, C), ...). */
    kjit_fn *saxpy = kjit_module_get(m, "saxpy");
    kjit_value args[3] = {kjit_value_float(2.0), kjit_value_array(ax), kjit_value_array(ay)};
    if (kjit_call(saxpy, args, 3, NULL, &err)) return fail("saxpy", &err);
    for (int i = 0; i < N; i++) {
        if (y[i] != want[i]) {
            fprintf(stderr, "embed: y[%d] = %g, expected %g\n", i, y[i], want[i]);
            return 1;
        }
    }

    /* dot(x, y) returns a float64. */
    kjit_value dargs[2] = {kjit_value_array(ax), kjit_value_array(ay)}, result;
    if (kjit_call(kjit_module_get(m, "dot"), dargs, 2, &result, &err)) return fail("dot", &err);
    double expect = 0;
    for (int i = 0; i < N; i++) expect += x[i] * y[i];
    if (result.kind != KJIT_VALUE_FLOAT || fabs(result.v.f - expect) > 1e-9 * fabs(expect)) {
        fprintf(stderr, "embed: dot = %.17g, expected %.17g\n", result.v.f, expect);
        return 1;
    }
    printf("saxpy: y[0..3] = %g %g %g %g\n", y[0], y[1], y[2], y[3]);
    printf("dot(x, y) = %.1f\n", result.v.f);

    /* A run-time error comes back as a value with its location. */
    kjit_value bad[2] = {kjit_value_array(ax), kjit_value_int(3)};
    if (kjit_call(kjit_module_get(m, "dot"), bad, 2, &result, &err) != KJIT_ERR_COMPILE) {
        fprintf(stderr, "embed: dot(array, int) should not compile\n");
        return 1;
    }
    printf("dot(x, 3): %s\n", err.message);

    kjit_array_free(ax);
    kjit_array_free(ay);
    return 0;
}

int main(void)
{
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
    if (!ctx) return fail("kjit_ctx_new", &err);
    kjit_module *m = kjit_compile(ctx, program, strlen(program), "embedded.k", &err);
    if (!m) {
        char *diags = kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
        fputs(diags, stderr);
        free(diags);
        kjit_ctx_free(ctx);
        return 1;
    }
    int rc = run(ctx, m);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    if (rc == 0) printf("ok (kjit %s)\n", kjit_version());
    return rc;
}
