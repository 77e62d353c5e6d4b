// CUDA C twin of stencil.k: the same kernel, launch configuration and timing.
// nvcc -O3 -arch=sm_90 stencil.cu -o stencil && ./stencil 10000 20
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void smooth(const float *x, float *out, long n, long m)
{
    long j = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long i = blockIdx.y * (long)blockDim.y + threadIdx.y;
    if (1 <= i && i < n - 1 && 1 <= j && j < m - 1)
        out[i * m + j] = (x[(i - 1) * m + j - 1] + 2.0f * x[(i - 1) * m + j] + x[(i - 1) * m + j + 1]
                          + 2.0f * x[i * m + j - 1] + 4.0f * x[i * m + j] + 2.0f * x[i * m + j + 1]
                          + x[(i + 1) * m + j - 1] + 2.0f * x[(i + 1) * m + j] + x[(i + 1) * m + j + 1]) / 16.0f;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000;
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h = (float *)malloc(bytes), *x, *out;
    for (long k = 0; k < n * n; k++) h[k] = (float)rand() / RAND_MAX;
    cudaMalloc(&x, bytes);
    cudaMalloc(&out, bytes);
    cudaMemcpy(x, h, bytes, cudaMemcpyHostToDevice);
    dim3 threads(32, 8), blocks((n + 31) / 32, (n + 7) / 8);
    smooth<<<blocks, threads>>>(x, out, n, n);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(a);
        smooth<<<blocks, threads>>>(x, out, n, n);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        printf("%g\n", ms);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
