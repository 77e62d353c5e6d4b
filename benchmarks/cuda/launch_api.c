/* Launch overhead and cold start through the C API, against the raw driver
 * in the same process (benchmarks/cuda/README.md):
 *
 *   cold   source → compiled → loaded → launched once → synchronised, for
 *          the 3x3 stencil kernel, every cache off (the kjit cache by the
 *          context's options, the driver's by CUDA_CACHE_DISABLE=1, which
 *          run.py sets); median of 5 compiles of fresh source text. The GPU
 *          is opened before (cuInit is a cost of the process, measured
 *          apart as "open").
 *   launch a kernel that does nothing launched `reps` times back to back,
 *          then one synchronise: µs per launch (asynchronous submit),
 *          through kjit_launch and through cuLaunchKernel on the same PTX
 *          (what kjit_module_ptx gives) loaded by the driver, same
 *          arguments, and through a prepared launch (kjit_launch_prepare
 *          once, kjit_launch_prepared each time); 11 rounds of each,
 *          alternating, medians.
 *
 * Prints "name value" rows. Build: cc -O2 -I include launch_api.c libkjit.so -ldl */
#include <kjit.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char touch_src[] = "from numba import cuda\n"
                                "\n"
                                "@cuda.jit\n"
                                "def touch(x):\n"
                                "    i = cuda.grid(1)\n"
                                "    if i < 0:\n"
                                "        x[i] = 1.0\n";

static const char stencil_src[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit\n"
    "def smooth(x, out):\n"
    "    j, i = cuda.grid(2)\n"
    "    n, m = x.shape\n"
    "    if 1 <= i < n - 1 and 1 <= j < m - 1:\n"
    "        out[i, j] = (x[i - 1, j - 1] + 2.0 * x[i - 1, j] + x[i - 1, j + 1]\n"
    "                     + 2.0 * x[i, j - 1] + 4.0 * x[i, j] + 2.0 * x[i, j + 1]\n"
    "                     + x[i + 1, j - 1] + 2.0 * x[i + 1, j] + x[i + 1, j + 1]) / 16.0\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what, const kjit_error *e)
{
    fprintf(stderr, "launch_api: %s: %s\n", what, e ? e->message : "");
    exit(1);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The driver, for the raw reference (its primary context is kjit's). */
typedef int (*cu_fn)();
static cu_fn sym(void *lib, const char *name)
{
    cu_fn f = (cu_fn)dlsym(lib, name);
    if (!f) fprintf(stderr, "launch_api: no %s\n", name), exit(1);
    return f;
}

/* The raw reference: the same PTX loaded by the driver itself. */
typedef struct raw {
    void *fn;
    cu_fn launch, sync;
    void *params[3];
    void *dptr;
    int64_t n, stride;
} raw;

static void raw_open(raw *r, const char *ptx)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) fprintf(stderr, "launch_api: no libcuda.so.1\n"), exit(1);
    int dev = 0;
    void *ctx = NULL, *mod = NULL;
    sym(lib, "cuInit")(0);
    sym(lib, "cuDeviceGet")(&dev, 0);
    sym(lib, "cuDevicePrimaryCtxRetain")(&ctx, dev);
    sym(lib, "cuCtxSetCurrent")(ctx);
    if (sym(lib, "cuModuleLoadData")(&mod, ptx)) fprintf(stderr, "launch_api: cuModuleLoadData failed\n"), exit(1);
    char entry[256] = "";
    const char *e = strstr(ptx, ".entry ");
    if (e) sscanf(e + 7, "%255[A-Za-z0-9_$]", entry);
    if (sym(lib, "cuModuleGetFunction")(&r->fn, mod, entry)) fprintf(stderr, "launch_api: no %s\n", entry), exit(1);
    sym(lib, "cuMemAlloc_v2")(&r->dptr, (size_t)128);
    r->n = 32;
    r->stride = 4;
    r->params[0] = &r->dptr;
    r->params[1] = &r->n;
    r->params[2] = &r->stride;
    r->launch = sym(lib, "cuLaunchKernel");
    r->sync = sym(lib, "cuCtxSynchronize");
}

/* The driver's JIT of one PTX text, two ways, ms: through the linker (what
 * kjit does: cuLinkCreate/AddData/Complete gives a cubin it can cache, then
 * cuModuleLoadData of the cubin) and as cuModuleLoadData of the PTX. */
static void jit_times(const char *ptx, double *link_ms, double *load_ms)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    cu_fn create = sym(lib, "cuLinkCreate_v2"), add = sym(lib, "cuLinkAddData_v2"),
          complete = sym(lib, "cuLinkComplete"), destroy = sym(lib, "cuLinkDestroy"),
          load = sym(lib, "cuModuleLoadData"), unload = sym(lib, "cuModuleUnload");
    enum { N = 5 };
    double a[N], b[N];
    for (int k = 0; k < N; k++) {
        void *link = NULL, *cubin = NULL, *mod = NULL;
        size_t size = 0;
        double t0 = now();
        if (create(0u, NULL, NULL, &link) || add(link, 1 /* CU_JIT_INPUT_PTX */, (void *)ptx, strlen(ptx) + 1,
                                                   "k.ptx", 0u, NULL, NULL) ||
            complete(link, &cubin, &size) || load(&mod, cubin))
            fprintf(stderr, "launch_api: the linker failed\n"), exit(1);
        a[k] = (now() - t0) * 1e3;
        unload(mod);
        destroy(link);
        t0 = now();
        if (load(&mod, ptx)) fprintf(stderr, "launch_api: cuModuleLoadData(PTX) failed\n"), exit(1);
        b[k] = (now() - t0) * 1e3;
        unload(mod);
    }
    *link_ms = median(a, N);
    *load_ms = median(b, N);
}

/* reps raw launches, then one sync: µs per launch. */
static double raw_round(raw *r, int reps)
{
    double t0 = now();
    for (int k = 0; k < reps; k++) r->launch(r->fn, 1u, 1u, 1u, 32u, 1u, 1u, 0u, NULL, r->params, NULL);
    r->sync();
    return (now() - t0) / reps * 1e6;
}

/* reps launches through kjit_launch, then kjit_sync: µs per launch. */
static double kjit_round(kjit_ctx *ctx, kjit_fn *f, kjit_value *arg, int reps)
{
    kjit_error err;
    kjit_dim3 g1 = {1, 1, 1}, b32 = {32, 1, 1};
    double t0 = now();
    for (int k = 0; k < reps; k++)
        if (kjit_launch(f, g1, b32, arg, 1, &err)) die("kjit_launch", &err);
    if (kjit_sync(ctx, &err)) die("kjit_sync", &err);
    return (now() - t0) / reps * 1e6;
}

/* the same through a prepared launch (kjit_launch_prepare once) */
static double plan_round(kjit_ctx *ctx, kjit_launch_plan *p, kjit_value *arg, int reps)
{
    kjit_error err;
    kjit_dim3 g1 = {1, 1, 1}, b32 = {32, 1, 1};
    double t0 = now();
    for (int k = 0; k < reps; k++)
        if (kjit_launch_prepared(p, g1, b32, arg, &err)) die("kjit_launch_prepared", &err);
    if (kjit_sync(ctx, &err)) die("kjit_sync", &err);
    return (now() - t0) / reps * 1e6;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 10000;
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CUDA;
    o.cache = 0;
    kjit_error err;
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    if (!ctx) die("kjit_ctx_new", &err);

    double t0 = now();
    kjit_module *m = kjit_compile(ctx, touch_src, sizeof touch_src - 1, "touch.k", &err);
    if (!m) die("compile", &err);
    printf("open+compile-ms %.3f\n", (now() - t0) * 1e3);
    kjit_fn *touch = kjit_module_get(m, "touch");
    int64_t shape[1] = {32};
    kjit_array *x = kjit_array_new(ctx, KJIT_FLOAT32, 1, shape, &err);
    kjit_value arg = kjit_value_array(x);
    kjit_dim3 g1 = {1, 1, 1}, b32 = {32, 1, 1};
    if (kjit_launch(touch, g1, b32, &arg, 1, &err) || kjit_sync(ctx, &err)) die("kjit_launch", &err);

    /* cold start of the stencil: fresh source text each time (a comment) */
    double cold[5];
    int64_t sq[2] = {16, 16};
    for (int r = 0; r < 5; r++) {
        char src[2048];
        snprintf(src, sizeof src, "%s# %d\n", stencil_src, r);
        kjit_array *a = kjit_array_new(ctx, KJIT_FLOAT32, 2, sq, &err), *b = kjit_array_new(ctx, KJIT_FLOAT32, 2, sq, &err);
        kjit_value args[2] = {kjit_value_array(a), kjit_value_array(b)};
        double c0 = now();
        kjit_module *s = kjit_compile(ctx, src, strlen(src), "stencil.k", &err);
        if (!s) die("compile stencil", &err);
        kjit_dim3 blk = {32, 8, 1};
        if (kjit_launch(kjit_module_get(s, "smooth"), g1, blk, args, 2, &err) || kjit_sync(ctx, &err))
            die("launch stencil", &err);
        cold[r] = (now() - c0) * 1e3;
        kjit_array_free(a), kjit_array_free(b);
        kjit_module_free(s);
    }
    printf("cold-stencil-ms %.3f\n", median(cold, 5));

    /* launch overhead: rounds of kjit_launch and of the raw driver on the
     * same PTX, alternating (the driver's cost drifts over a run); medians */
    char *ptx = kjit_module_ptx(m, "touch", &err);
    if (!ptx) die("kjit_module_ptx", &err);
    raw r;
    raw_open(&r, ptx);
    enum { ROUNDS = 11 };
    double tk[ROUNDS], tr[ROUNDS], tp[ROUNDS];
    kjit_launch_plan *plan = kjit_launch_prepare(touch, &arg, 1, &err);
    if (!plan) die("kjit_launch_prepare", &err);
    raw_round(&r, reps / 10);
    for (int k = 0; k < ROUNDS; k++) {
        tk[k] = kjit_round(ctx, touch, &arg, reps);
        tr[k] = raw_round(&r, reps);
        tp[k] = plan_round(ctx, plan, &arg, reps);
    }
    kjit_launch_plan_free(plan);
    double best = median(tk, ROUNDS), rawv = median(tr, ROUNDS), prep = median(tp, ROUNDS);
    printf("kjit_launch-us %.3f\n", best);
    printf("kjit_launch_prepared-us %.3f\n", prep);
    printf("cuLaunchKernel-us %.3f\n", rawv);
    printf("kjit_launch/raw %.3f\n", best / rawv);
    printf("kjit_launch_prepared/raw %.3f\n", prep / rawv);
    /* the driver's JIT of the stencil's PTX (specialised by a main that
     * launches it), through the linker and loaded directly */
    static const char with_main[] = "import numpy as np\n\n"
                                    "def main():\n"
                                    "    x = np.zeros((16, 16), dtype=np.float32)\n"
                                    "    smooth[(1, 1), (16, 16)](x, x.copy())\n";
    char src2[4096];
    snprintf(src2, sizeof src2, "%s%s", stencil_src, with_main);
    kjit_module *s2 = kjit_compile(ctx, src2, strlen(src2), "stencil_main.k", &err);
    char *sptx = s2 ? kjit_module_ptx(s2, "smooth", &err) : NULL;
    if (!sptx) die("the stencil's PTX", &err);
    double link_ms, load_ms;
    jit_times(sptx, &link_ms, &load_ms);
    free(sptx);
    kjit_module_free(s2);
    printf("driver-jit-link-ms %.3f\n", link_ms);
    printf("driver-jit-load-ptx-ms %.3f\n", load_ms);
    free(ptx);
    kjit_array_free(x);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    return 0;
}
