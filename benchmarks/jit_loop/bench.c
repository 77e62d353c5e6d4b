/* benchmarks/jit_loop: a @jit loop over 10^7 float32 elements computing
 * out = a*b + sin(a) + cos(b), against the same loop in C (loop.c).
 *
 * Both run on the same arrays in this process: one warm-up call each (for
 * kjit it also compiles the specialisation), then 11 timed calls each,
 * alternating, and the medians are compared. The outputs must agree to
 * 1e-5. Prints the timings and `kjit/C ratio: R`.
 *
 *   bench LOOP.K [N]      (N defaults to 10000000)
 *
 * Built by benchmarks/jit_loop.sh against a build tree's libkjit. */
#define _POSIX_C_SOURCE 200809L
#include <kjit.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void loop_c(const float *a, const float *b, float *out, int64_t n);

enum { RUNS = 11 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* Deterministic inputs in [0, 1): a 64-bit LCG's top 24 bits. */
static void fill(float *v, int64_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        v[i] = (float)(s >> 40) * (1.0f / 16777216.0f);
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(s);
        return NULL;
    }
    fclose(f);
    s[n] = 0;
    *len = (size_t)n;
    return s;
}

static int fail(const char *what, const kjit_error *err)
{
    fprintf(stderr, "bench: %s: %s", what, err->message);
    if (err->line) fprintf(stderr, " (%s:%d:%d)", err->file, err->line, err->col);
    fputc('\n', stderr);
    return 1;
}

typedef struct arrays {
    float *a, *b, *out_c, *out_k;
    int64_t n;
} arrays;

static double time_c(const arrays *x)
{
    double t = now_s();
    loop_c(x->a, x->b, x->out_c, x->n);
    return now_s() - t;
}

static double time_kjit(kjit_fn *f, const kjit_value *args, kjit_error *err, int *rc)
{
    double t = now_s();
    *rc = kjit_call(f, args, 3, NULL, err);
    return now_s() - t;
}

static int bench(kjit_fn *kernel, kjit_value *args, const arrays *x)
{
    kjit_error err;
    int rc;
    double tc[RUNS], tk[RUNS];
    double compile = time_kjit(kernel, args, &err, &rc); /* warm-up: compiles the specialisation */
    if (rc) return fail("kjit_call(kernel)", &err);
    time_c(x);
    for (int r = 0; r < RUNS; r++) {
        tc[r] = time_c(x);
        tk[r] = time_kjit(kernel, args, &err, &rc);
        if (rc) return fail("kjit_call(kernel)", &err);
    }
    double maxdiff = 0;
    for (int64_t i = 0; i < x->n; i++) {
        double d = fabs((double)x->out_c[i] - (double)x->out_k[i]);
        if (!(d <= maxdiff)) maxdiff = d; /* a NaN counts as a difference */
    }
    double mc = median(tc, RUNS), mk = median(tk, RUNS);
    printf("elements:        %lld float32\n", (long long)x->n);
    printf("kjit first call: %.1f ms (compile + run)\n", compile * 1e3);
    printf("C (clang):       %.2f ms median of %d (min %.2f)\n", mc * 1e3, RUNS, tc[0] * 1e3);
    printf("kjit:            %.2f ms median of %d (min %.2f)\n", mk * 1e3, RUNS, tk[0] * 1e3);
    printf("max |kjit - C|:  %.3g\n", maxdiff);
    printf("kjit/C ratio:    %.3f\n", mk / mc);
    if (!(maxdiff < 1e-5)) {
        fprintf(stderr, "bench: outputs differ by %g (limit 1e-5)\n", maxdiff);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench LOOP.K [N]\n");
        return 2;
    }
    arrays x = {.n = argc > 2 ? atoll(argv[2]) : 10000000};
    size_t bytes = (size_t)x.n * sizeof(float);
    x.a = malloc(bytes), x.b = malloc(bytes), x.out_c = malloc(bytes), x.out_k = malloc(bytes);
    if (!x.a || !x.b || !x.out_c || !x.out_k) return fprintf(stderr, "bench: out of memory\n"), 1;
    fill(x.a, x.n, 1);
    fill(x.b, x.n, 2);
    memset(x.out_c, 0, bytes);
    memset(x.out_k, 0, bytes);

    size_t len;
    char *src = read_file(argv[1], &len);
    if (!src) return fprintf(stderr, "bench: cannot read %s\n", argv[1]), 1;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
    if (!ctx) return fail("kjit_ctx_new", &err);
    kjit_module *m = kjit_compile(ctx, src, len, argv[1], &err);
    if (!m) {
        char *d = kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
        fputs(d, stderr);
        free(d);
        return 1;
    }
    int64_t shape[1] = {x.n};
    kjit_array *ka = kjit_array_wrap(ctx, x.a, KJIT_FLOAT32, 1, shape, NULL, &err);
    kjit_array *kb = ka ? kjit_array_wrap(ctx, x.b, KJIT_FLOAT32, 1, shape, NULL, &err) : NULL;
    kjit_array *ko = kb ? kjit_array_wrap(ctx, x.out_k, KJIT_FLOAT32, 1, shape, NULL, &err) : NULL;
    if (!ko) return fail("kjit_array_wrap", &err);
    kjit_fn *kernel = kjit_module_get(m, "kernel");
    if (!kernel) return fprintf(stderr, "bench: %s has no function 'kernel'\n", argv[1]), 1;
    kjit_value args[3] = {kjit_value_array(ka), kjit_value_array(kb), kjit_value_array(ko)};
    int rc = bench(kernel, args, &x);

    kjit_array_free(ka);
    kjit_array_free(kb);
    kjit_array_free(ko);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    free(src);
    free(x.a), free(x.b), free(x.out_c), free(x.out_k);
    return rc;
}
