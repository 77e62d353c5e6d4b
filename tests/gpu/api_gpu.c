/* The C API on a GPU (part of the GPU suite, tests/gpu/run.sh):
 *   1. a kernel launched with kjit_launch on the application's arrays;
 *   2. 1000 compile/launch/free cycles leave the device's free memory
 *      (cuMemGetInfo) within 1 MiB of where it started;
 *   3. an error a kernel raises (boundscheck) names the kernel and its line,
 *      and the context keeps working;
 *   4. a @jit function specialised at call time (kjit_call) whose ufunc call
 *      runs on the GPU as a kernel made then;
 *   5. a fault (an illegal address) names the kernel; CUDA cannot recover
 *      from such a "sticky" error in the same process (NVIDIA's driver
 *      documentation: the process must be restarted), so a new context
 *      must fail cleanly, with the error, not crash.
 * Prints "api_gpu: ok" and exits 0, or says what failed and exits 1. */
#include <kjit.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char src[] = "from numba import cuda, jit, vectorize\n"
                          "import numpy as np\n"
                          "\n"
                          "@cuda.jit\n"
                          "def scale(x, a):\n"
                          "    i = cuda.grid(1)\n"
                          "    if i < x.size:\n"
                          "        x[i] = a * x[i]\n"
                          "\n"
                          "@cuda.jit\n"
                          "def poke(x):\n"
                          "    x[1 << 40] = 1.0\n"
                          "\n"
                          "@cuda.jit(boundscheck=True)\n"
                          "def past_end(x):\n"
                          "    x[cuda.grid(1)] = 1.0\n"
                          "\n"
                          "@vectorize(['float32(float32)'])\n"
                          "def twice(v):\n"
                          "    return v * np.float32(2.0)\n"
                          "\n"
                          "@jit\n"
                          "def doubled(x):\n"
                          "    return twice(x)\n";

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "api_gpu: line %d: ", __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* Free device memory, through the driver directly: its primary context,
 * the one kjit uses, retained only for the question. */
static size_t device_free(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) return 0;
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(lib, "cuInit");
    int (*get)(int *, int) = (int (*)(int *, int))dlsym(lib, "cuDeviceGet");
    int (*retain)(void **, int) = (int (*)(void **, int))dlsym(lib, "cuDevicePrimaryCtxRetain");
    int (*release)(int) = (int (*)(int))dlsym(lib, "cuDevicePrimaryCtxRelease_v2");
    int (*set)(void *) = (int (*)(void *))dlsym(lib, "cuCtxSetCurrent");
    int (*mem_info)(size_t *, size_t *) = (int (*)(size_t *, size_t *))dlsym(lib, "cuMemGetInfo_v2");
    int dev = 0;
    void *ctx = NULL;
    size_t fb = 0, tb = 0;
    if (init && get && retain && release && set && mem_info && !init(0) && !get(&dev, 0) && !retain(&ctx, dev)) {
        if (!set(ctx)) mem_info(&fb, &tb);
        release(dev);
    }
    dlclose(lib);
    return fb;
}

/* One cycle: compile, launch scale(x, 2) on the caller's array, check, free. */
static void cycle(kjit_ctx *ctx, int n)
{
    kjit_error err = {0};
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "api_gpu.k", &err);
    CHECK(m, "compile: %s", err.message);
    if (!m) return;
    float *x = malloc((size_t)n * sizeof *x);
    for (int k = 0; k < n; k++) x[k] = (float)k;
    int64_t shape[1] = {n};
    kjit_array *a = kjit_array_wrap(ctx, x, KJIT_FLOAT32, 1, shape, NULL, &err);
    kjit_value args[2] = {kjit_value_array(a), kjit_value_float32(2.0f)};
    kjit_dim3 grid = {(uint32_t)(n + 127) / 128, 1, 1}, block = {128, 1, 1};
    int rc = kjit_launch(kjit_module_get(m, "scale"), grid, block, args, 2, &err);
    CHECK(rc == KJIT_OK, "launch: %s", err.message);
    float *back = kjit_array_data(a); /* brings the GPU's copy back */
    CHECK(back == x && x[n - 1] == 2.0f * (float)(n - 1) && x[1] == 2.0f, "scale: x[1] = %g", x[1]);
    kjit_array_free(a);
    free(x);
    kjit_module_free(m);
}

int main(void)
{
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CUDA;
    kjit_error err = {0};
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    cycle(ctx, 1000); /* warm: the cache, the primary context, staging */
    size_t before = device_free();
    for (int k = 0; k < 1000; k++) cycle(ctx, 1000 + k);
    size_t after = device_free();
    /* a leak leaves less free memory; more is another process on the GPU
     * (the suite's shards run side by side) freeing its own */
    long long drift = (long long)before - (long long)after;
    CHECK(before && drift <= (1 << 20), "device memory: %zu free before, %zu after", before, after);
    printf("api_gpu: 1000 cycles: free device memory %zu -> %zu bytes\n", before, after);

    /* an error raised in a kernel: reported, and the context goes on */
    kjit_module *m = kjit_compile(ctx, src, strlen(src), "api_gpu.k", &err);
    double v[4] = {0};
    int64_t shape[1] = {4};
    kjit_array *a = kjit_array_wrap(ctx, v, KJIT_FLOAT64, 1, shape, NULL, &err);
    kjit_value arg = kjit_value_array(a);
    kjit_dim3 one = {1, 1, 1}, eight = {8, 1, 1};
    int rc = kjit_launch(kjit_module_get(m, "past_end"), one, eight, &arg, 1, &err);
    CHECK(rc == KJIT_ERR_RUNTIME && strstr(err.message, "IndexError: index ") &&
              strstr(err.message, "in kernel 'past_end'") && err.line == 16,
          "boundscheck: %d %s (line %d)", rc, err.message, err.line);
    printf("api_gpu: IndexError reported as: %s (line %d)\n", err.message, err.line);
    cycle(ctx, 100);

    /* kjit_call of a @jit function nothing called before: its ufunc call
     * makes a kernel at call time, which its launch must find */
    float y[1000];
    for (int k = 0; k < 1000; k++) y[k] = (float)k;
    int64_t s1[1] = {1000};
    kjit_array *ya = kjit_array_wrap(ctx, y, KJIT_FLOAT32, 1, s1, NULL, &err);
    kjit_value yv = kjit_value_array(ya), res = {0};
    rc = kjit_call(kjit_module_get(m, "doubled"), &yv, 1, &res, &err);
    CHECK(rc == KJIT_OK && res.kind == KJIT_VALUE_ARRAY, "doubled: %d %s", rc, err.message);
    if (rc == KJIT_OK && res.kind == KJIT_VALUE_ARRAY) {
        const float *r = kjit_array_data(res.v.a);
        CHECK(r && r[1] == 2.0f && r[999] == 1998.0f, "doubled: r[999] = %g", r ? r[999] : -1.0);
        printf("api_gpu: a ufunc call in a @jit function specialised at call time: r[999] = %g\n", r[999]);
        kjit_value_release(&res);
    }
    kjit_array_free(ya);

    /* a fault: the error names the kernel; the process cannot go on. A
     * launch is asynchronous: the fault is found by kjit_sync. */
    rc = kjit_launch(kjit_module_get(m, "poke"), one, one, &arg, 1, &err);
    CHECK(rc == KJIT_OK, "the launch of poke: %d %s", rc, err.message);
    rc = kjit_sync(ctx, &err);
    CHECK(rc == KJIT_ERR_RUNTIME && strstr(err.message, "in kernel 'poke'"), "fault: %d %s", rc, err.message);
    printf("api_gpu: fault reported as: %s\n", err.message);
    kjit_array_free(a);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    ctx = kjit_ctx_new(&o, &err);
    m = kjit_compile(ctx, src, strlen(src), "api_gpu.k", &err);
    CHECK(!m && err.code == KJIT_ERR_RUNTIME && strstr(err.message, "CUDA_ERROR_ILLEGAL_ADDRESS"),
          "after a fault: %s", err.message);
    printf("api_gpu: a new context after the fault: %s\n", err.message);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    if (failures) return 1;
    puts("api_gpu: ok");
    return 0;
}
