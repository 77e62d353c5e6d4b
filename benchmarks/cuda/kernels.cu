// CUDA C twins of the .k benchmarks in this folder: the same kernels, launch
// configurations and timing (CUDA events, one warm-up, median of `reps`),
// plus the reference figures the table needs from the same run: device copy
// bandwidth, pinned and pageable host<->device copies, raw launch overhead.
// run.py builds it three times: -fmad=false (the reference of kjit's default
// mode), nvcc's default (of kjit's fastmath) and --use_fast_math (context).
//   nvcc -O3 -arch=sm_90 kernels.cu -o kernels && ./kernels all|saxpy|...|bandwidth|init [reps]
// Each row: "name ms" (the names run.py pairs with the .k rows).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static int reps = 20;

static float median(std::vector<float> t)
{
    std::sort(t.begin(), t.end());
    size_t h = t.size() / 2;
    return t.size() % 2 ? t[h] : (t[h - 1] + t[h]) / 2;
}

// Times `launch` reps times after one warm-up; the median in ms.
template <class F> static float timed(F launch)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r <= reps; r++) {
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r > 0) t.push_back(ms);
    }
    CK(cudaGetLastError());
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return median(t);
}

static float *device_random(size_t n)
{
    std::vector<float> h(n);
    for (size_t k = 0; k < n; k++) h[k] = (float)rand() / RAND_MAX;
    float *d;
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

// ---- kernels (as in the .k files) ----

__global__ void saxpy(float a, const float *x, const float *y, float *out, long n)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}

__global__ void smooth(const float *x, float *out, long n, long m)
{
    long j = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long i = blockIdx.y * (long)blockDim.y + threadIdx.y;
    if (1 <= i && i < n - 1 && 1 <= j && j < m - 1)
        out[i * m + j] = (x[(i - 1) * m + j - 1] + 2.0f * x[(i - 1) * m + j] + x[(i - 1) * m + j + 1]
                          + 2.0f * x[i * m + j - 1] + 4.0f * x[i * m + j] + 2.0f * x[i * m + j + 1]
                          + x[(i + 1) * m + j - 1] + 2.0f * x[(i + 1) * m + j] + x[(i + 1) * m + j + 1]) / 16.0f;
}

// The same stencil written as Numba's documentation writes 2-D kernels:
// threadIdx.x walks i, the rows (layout.k's `naive`, not remapped by nvcc).
__global__ void smooth_naive(const float *x, float *out, long n, long m)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long j = blockIdx.y * (long)blockDim.y + threadIdx.y;
    if (1 <= i && i < n - 1 && 1 <= j && j < m - 1)
        out[i * m + j] = (x[(i - 1) * m + j - 1] + 2.0f * x[(i - 1) * m + j] + x[(i - 1) * m + j + 1]
                          + 2.0f * x[i * m + j - 1] + 4.0f * x[i * m + j] + 2.0f * x[i * m + j + 1]
                          + x[(i + 1) * m + j - 1] + 2.0f * x[(i + 1) * m + j] + x[(i + 1) * m + j + 1]) / 16.0f;
}

// layout.k's `mixed`: out[i, j] = a[i, j] + b[j, i], threadIdx.x walking i.
__global__ void mixed_naive(const float *a, const float *b, float *out, long n)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long j = blockIdx.y * (long)blockDim.y + threadIdx.y;
    if (i < n && j < n) out[i * n + j] = a[i * n + j] + b[j * n + i];
}

__global__ void elem(const float *a, const float *b, float *out, long n)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * b[i] + sinf(a[i]) + cosf(b[i]);
}

__global__ void sin_iter(const float *x, float *out, long n, long k)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (long r = 0; r < k; r++) v = sinf(v);
        out[i] = v;
    }
}

#define TPB 16
__global__ void fast_matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float sA[TPB][TPB], sB[TPB][TPB];
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float tmp = 0.0f;
    for (int i = 0; i < (int)gridDim.x; i++) {
        sA[ty][tx] = 0;
        sB[ty][tx] = 0;
        if (y < n && tx + i * TPB < n) sA[ty][tx] = A[y * n + tx + i * TPB];
        if (x < n && ty + i * TPB < n) sB[ty][tx] = B[(ty + i * TPB) * n + x];
        __syncthreads();
        for (int j = 0; j < TPB; j++) tmp += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (y < n && x < n) C[y * n + x] = tmp;
}

__global__ void empty(float *x) { (void)x; }

// ---- benchmarks ----

static void bench_saxpy()
{
    long n = 1L << 26;
    float *x = device_random(n), *y = device_random(n), *out;
    CK(cudaMalloc(&out, n * 4));
    printf("saxpy %g\n", timed([&] { saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, out, n); }));
    cudaFree(x), cudaFree(y), cudaFree(out);
}

static void bench_stencil()
{
    long n = 10000;
    float *x = device_random(n * n), *out;
    CK(cudaMalloc(&out, n * n * 4));
    dim3 threads(32, 8), blocks((n + 31) / 32, (n + 7) / 8);
    printf("stencil %g\n", timed([&] { smooth<<<blocks, threads>>>(x, out, n, n); }));
    cudaFree(x), cudaFree(out);
}

// layout.k's twins: the naive stencil in (16, 16) and (32, 8) blocks, the
// coalesced one in (16, 16), the transpose-like access in (16, 16).
static void bench_layout()
{
    long n = 10000;
    float *x = device_random(n * n), *b = device_random(n * n), *out;
    CK(cudaMalloc(&out, n * n * 4));
    dim3 t16(16, 16), g16((n + 15) / 16, (n + 15) / 16), t32(32, 8), g32n((n + 31) / 32, (n + 7) / 8);
    printf("layout-naive-16x16 %g\n", timed([&] { smooth_naive<<<g16, t16>>>(x, out, n, n); }));
    printf("layout-naive-32x8 %g\n", timed([&] { smooth_naive<<<g32n, t32>>>(x, out, n, n); }));
    printf("layout-coalesced-16x16 %g\n", timed([&] { smooth<<<g16, t16>>>(x, out, n, n); }));
    printf("layout-mixed-16x16 %g\n", timed([&] { mixed_naive<<<g16, t16>>>(x, b, out, n); }));
    cudaFree(x), cudaFree(b), cudaFree(out);
}

static void bench_elementwise()
{
    long n = 10000L * 10000, m = 1L << 24;
    float *a = device_random(n), *b = device_random(n), *out;
    CK(cudaMalloc(&out, n * 4));
    printf("elementwise %g\n", timed([&] { elem<<<(n + 255) / 256, 256>>>(a, b, out, n); }));
    for (long k = 1; k <= 1000; k *= 10)
        printf("sin-x %ld %g\n", k, timed([&] { sin_iter<<<(m + 255) / 256, 256>>>(a, out, m, k); }));
    cudaFree(a), cudaFree(b), cudaFree(out);
}

static void bench_matmul()
{
    int n = 4096;
    float *a = device_random((size_t)n * n), *b = device_random((size_t)n * n), *c;
    CK(cudaMalloc(&c, (size_t)n * n * 4));
    dim3 threads(TPB, TPB), blocks((n + TPB - 1) / TPB, (n + TPB - 1) / TPB);
    printf("matmul %g\n", timed([&] { fast_matmul<<<blocks, threads>>>(a, b, c, n); }));
    cudaFree(a), cudaFree(b), cudaFree(c);
}

// Device copy bandwidth (bytes read + written per second), 256 MiB.
static void bench_bandwidth()
{
    size_t bytes = 256u << 20;
    char *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    float ms = timed([&] { CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); });
    printf("device-copy-GBps %g\n", 2.0 * bytes / (ms * 1e-3) / 1e9);
    // Host <-> device, 256 MiB: pinned (cudaMallocHost) and pageable (malloc).
    char *pinned, *pageable = (char *)malloc(bytes);
    CK(cudaMallocHost(&pinned, bytes));
    memset(pinned, 1, bytes);
    memset(pageable, 1, bytes);
    ms = timed([&] { CK(cudaMemcpy(a, pinned, bytes, cudaMemcpyHostToDevice)); });
    printf("h2d-pinned-GBps %g\n", bytes / (ms * 1e-3) / 1e9);
    ms = timed([&] { CK(cudaMemcpy(pinned, a, bytes, cudaMemcpyDeviceToHost)); });
    printf("d2h-pinned-GBps %g\n", bytes / (ms * 1e-3) / 1e9);
    ms = timed([&] { CK(cudaMemcpy(a, pageable, bytes, cudaMemcpyHostToDevice)); });
    printf("h2d-pageable-GBps %g\n", bytes / (ms * 1e-3) / 1e9);
    ms = timed([&] { CK(cudaMemcpy(pageable, a, bytes, cudaMemcpyDeviceToHost)); });
    printf("d2h-pageable-GBps %g\n", bytes / (ms * 1e-3) / 1e9);
    cudaFreeHost(pinned), free(pageable), cudaFree(a), cudaFree(b);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    if (argc > 2) reps = atoi(argv[2]);
    bool all = !strcmp(what, "all");
    CK(cudaFree(0)); // "init": only this, the start of a CUDA process
    if (!strcmp(what, "init")) return 0;
    if (all || !strcmp(what, "saxpy")) bench_saxpy();
    if (all || !strcmp(what, "stencil")) bench_stencil();
    if (all || !strcmp(what, "elementwise")) bench_elementwise();
    if (all || !strcmp(what, "matmul")) bench_matmul();
    if (all || !strcmp(what, "layout")) bench_layout();
    if (!strcmp(what, "bandwidth")) bench_bandwidth();
    return 0;
}
