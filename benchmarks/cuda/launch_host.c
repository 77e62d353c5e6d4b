/* SPDX-License-Identifier: BSD-2-Clause */
/* The host side of a launch, without a GPU: kjit on the fake driver
 * (tests/unit/fake_libcuda.c, whose cuLaunchKernel does nothing), so what
 * is timed is kjit's own work per launch. Prints ns per launch for
 *
 *   raw       the fake driver's cuLaunchKernel called directly (the floor:
 *             one call through a pointer)
 *   launch    kjit_launch (type dispatch, marshalling, the launch path)
 *   prepared  kjit_launch_prepared on a plan made once
 *   k-loop    a `.k` host loop of launches (generated code → kj_rt_launch)
 *
 * for a kernel of one array and a kernel of three arrays and two scalars;
 * medians of 7 rounds of the thread's CPU time (a loaded machine's other
 * processes do not count; their cache traffic still does). With Linux's
 * perf events allowed it also prints the user-space instructions per
 * launch, which load does not move. `launch_host REPS [PATH]` times only PATH (for a
 * profiler). Run it with benchmarks/cuda/launch_host.sh, which
 * points KJIT_LIBCUDA at the fake driver. */
#include <kjit.h>

#include <dlfcn.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char src[] = "from numba import cuda\n"
                          "import numpy as np\n"
                          "\n"
                          "@cuda.jit\n"
                          "def touch(x):\n"
                          "    i = cuda.grid(1)\n"
                          "    if i < 0:\n"
                          "        x[i] = 1.0\n"
                          "\n"
                          "@cuda.jit\n"
                          "def axpy(a, x, y, out, n):\n"
                          "    i = cuda.grid(1)\n"
                          "    if i < n:\n"
                          "        out[i] = a * x[i] + y[i]\n"
                          "\n"
                          "def loop1(reps=1):\n"
                          "    x = np.zeros(32)\n"
                          "    for r in range(reps):\n"
                          "        touch[1, 32](x)\n"
                          "    cuda.synchronize()\n"
                          "\n"
                          "def loop5(reps=1):\n"
                          "    x = np.zeros(32)\n"
                          "    y = np.zeros(32)\n"
                          "    out = np.zeros(32)\n"
                          "    for r in range(reps):\n"
                          "        axpy[1, 32](2.0, x, y, out, 32)\n"
                          "    cuda.synchronize()\n";

/* The thread's CPU time: the fake driver never waits, so this is the host
 * cost, and the time other processes take the CPU is not counted. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what, const kjit_error *e)
{
    fprintf(stderr, "launch_host: %s: %s\n", what, e ? e->message : "");
    exit(1);
}

/* A counter of this thread's user-space instructions, or -1. */
static int instr_counter(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static double instructions(int fd)
{
    uint64_t v = 0;
    return fd >= 0 && read(fd, &v, sizeof v) == (ssize_t)sizeof v ? (double)v : 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { ROUNDS = 7 };

static double median(double *v)
{
    qsort(v, ROUNDS, sizeof *v, cmp);
    return v[ROUNDS / 2];
}

typedef int (*launch_fn)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                         void **, void **);

/* The fake driver's cuLaunchKernel, as kjit finds it. */
static launch_fn raw_launch(void)
{
    const char *path = getenv("KJIT_LIBCUDA");
    void *lib = path ? dlopen(path, RTLD_NOW) : NULL;
    typedef int (*proc_fn)(const char *, void **, int, uint64_t, void *);
    proc_fn proc = lib ? (proc_fn)(uintptr_t)dlsym(lib, "cuGetProcAddress_v2") : NULL;
    void *f = NULL;
    if (!proc || proc("cuLaunchKernel", &f, 12000, 0, NULL) || !f) {
        fprintf(stderr, "launch_host: KJIT_LIBCUDA must name the fake driver\n");
        exit(1);
    }
    return (launch_fn)(uintptr_t)f;
}

typedef struct bench {
    int counter; /* instr_counter() */
    kjit_ctx *ctx;
    kjit_fn *k;
    kjit_fn *loop;
    kjit_launch_plan *plan;
    const kjit_value *args;
    int nargs;
    long reps;
} bench;

static double ns_raw(const bench *b, launch_fn launch)
{
    void *dptr = NULL;
    int64_t n = 32, stride = 8;
    void *params[5] = {&dptr, &n, &stride, &n, &n};
    double t0 = now();
    for (long r = 0; r < b->reps; r++) launch((void *)1, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
    return (now() - t0) / (double)b->reps * 1e9;
}

static double ns_launch(const bench *b)
{
    kjit_error err;
    kjit_dim3 g = {1, 1, 1}, blk = {32, 1, 1};
    double t0 = now();
    for (long r = 0; r < b->reps; r++)
        if (kjit_launch(b->k, g, blk, b->args, b->nargs, &err)) die("kjit_launch", &err);
    if (kjit_sync(b->ctx, &err)) die("kjit_sync", &err);
    return (now() - t0) / (double)b->reps * 1e9;
}

static double ns_prepared(const bench *b)
{
    kjit_error err;
    kjit_dim3 g = {1, 1, 1}, blk = {32, 1, 1};
    double t0 = now();
    for (long r = 0; r < b->reps; r++)
        if (kjit_launch_prepared(b->plan, g, blk, b->args, &err)) die("kjit_launch_prepared", &err);
    if (kjit_sync(b->ctx, &err)) die("kjit_sync", &err);
    return (now() - t0) / (double)b->reps * 1e9;
}

/* main-like function `loop` of the source: `reps` launches in a .k loop */
static double ns_loop(const bench *b)
{
    kjit_error err;
    kjit_value reps = kjit_value_int(b->reps);
    double t0 = now();
    if (kjit_call(b->loop, &reps, 1, NULL, &err)) die("kjit_call", &err);
    return (now() - t0) / (double)b->reps * 1e9;
}

/* only: NULL, or the one path to time (for a profiler) */
static void run(const char *name, bench *b, launch_fn raw, const char *only)
{
    double t[4][ROUNDS];
    kjit_error err;
    kjit_value one = kjit_value_int(1);
    if (kjit_call(b->loop, &one, 1, NULL, &err)) die("kjit_call", &err); /* compiled before timing */
    static const char *const what[4] = {"raw", "launch", "prepared", "k-loop"};
    bool on[4];
    for (int w = 0; w < 4; w++) on[w] = !only || !strcmp(only, what[w]);
    double ins[4][ROUNDS];
    for (int k = 0; k < ROUNDS; k++)
        for (int w = 0; w < 4; w++) {
            if (!on[w]) continue;
            double i0 = instructions(b->counter);
            t[w][k] = w == 0 ? ns_raw(b, raw) : w == 1 ? ns_launch(b) : w == 2 ? ns_prepared(b) : ns_loop(b);
            ins[w][k] = (instructions(b->counter) - i0) / (double)b->reps;
        }
    for (int w = 0; w < 4; w++) {
        if (!on[w]) continue;
        printf("%-10s %-8s %8.1f ns", name, what[w], median(t[w]));
        if (b->counter >= 0) printf(" %8.0f instructions", median(ins[w]));
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    long reps = argc > 1 ? atol(argv[1]) : 200000;
    const char *only = argc > 2 && argv[2][0] ? argv[2] : NULL;
    launch_fn raw = raw_launch();
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CUDA;
    o.cache = 0;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    if (!ctx) die("kjit_ctx_new", &err);
    kjit_module *m = kjit_compile(ctx, src, sizeof src - 1, "launch_host.k", &err);
    if (!m) die("compile", &err);
    int64_t shape[1] = {32};
    kjit_array *x = kjit_array_new(ctx, KJIT_FLOAT64, 1, shape, &err);
    kjit_array *y = kjit_array_new(ctx, KJIT_FLOAT64, 1, shape, &err);
    kjit_array *out = kjit_array_new(ctx, KJIT_FLOAT64, 1, shape, &err);
    if (!x || !y || !out) die("kjit_array_new", &err);
    kjit_value a1[1] = {kjit_value_array(x)};
    kjit_value a5[5] = {kjit_value_float(2.0), kjit_value_array(x), kjit_value_array(y), kjit_value_array(out),
                        kjit_value_int(32)};
    int counter = instr_counter();
    bench b1 = {counter, ctx, kjit_module_get(m, "touch"), kjit_module_get(m, "loop1"), NULL, a1, 1, reps};
    bench b5 = {counter, ctx, kjit_module_get(m, "axpy"), kjit_module_get(m, "loop5"), NULL, a5, 5, reps};
    if (!(b1.plan = kjit_launch_prepare(b1.k, a1, 1, &err))) die("kjit_launch_prepare", &err);
    if (!(b5.plan = kjit_launch_prepare(b5.k, a5, 5, &err))) die("kjit_launch_prepare", &err);
    run("1-array", &b1, raw, only);
    run("3-arrays+2", &b5, raw, only);
    kjit_launch_plan_free(b1.plan);
    kjit_launch_plan_free(b5.plan);
    kjit_array_free(x), kjit_array_free(y), kjit_array_free(out);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    if (counter >= 0) close(counter);
    return 0;
}
