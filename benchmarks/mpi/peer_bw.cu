// Peer-to-peer copy bandwidth and latency between GPU 0 and each other GPU
// of the machine (the hardware's bound for a halo exchange, docs/scale-out.md):
//     nvcc -O2 -arch=sm_90 -o peer_bw peer_bw.cu && ./peer_bw
// For each pair: can it access peer memory, the time of one copy of 4 B,
// 128 KB and 256 MB (median of 20, CUDA events), and the bandwidth.
#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t r_ = (x); if (r_ != cudaSuccess) { \
    std::printf("%s: %s\n", #x, cudaGetErrorString(r_)); return 1; } } while (0)

static int time_copy(int dst, int src, size_t bytes, float *ms)
{
    void *a, *b;
    CK(cudaSetDevice(src)); CK(cudaMalloc(&a, bytes));
    CK(cudaSetDevice(dst)); CK(cudaMalloc(&b, bytes));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> t;
    for (int k = 0; k < 23; k++) {
        CK(cudaEventRecord(e0));
        CK(cudaMemcpyPeerAsync(b, dst, a, src, bytes));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float x; CK(cudaEventElapsedTime(&x, e0, e1));
        if (k >= 3) t.push_back(x);
    }
    std::sort(t.begin(), t.end());
    *ms = t[t.size() / 2];
    CK(cudaFree(b)); CK(cudaSetDevice(src)); CK(cudaFree(a));
    return 0;
}

int main()
{
    int n = 0;
    CK(cudaGetDeviceCount(&n));
    std::printf("%-6s %-5s %12s %12s %12s %12s\n", "pair", "peer", "4 B (us)", "128 KB (us)", "256 MB (ms)", "GB/s");
    for (int d = 1; d < n; d++) {
        int can = 0;
        CK(cudaDeviceCanAccessPeer(&can, d, 0));
        if (can) { CK(cudaSetDevice(d)); cudaDeviceEnablePeerAccess(0, 0); cudaGetLastError(); }
        float small, mid, big;
        if (time_copy(d, 0, 4, &small) || time_copy(d, 0, 128 << 10, &mid) || time_copy(d, 0, 256u << 20, &big)) return 1;
        std::printf("0->%-3d %-5s %12.1f %12.1f %12.3f %12.1f\n", d, can ? "yes" : "no", 1e3 * small, 1e3 * mid, big,
                    (256.0 * (1 << 20)) / (big * 1e-3) / 1e9);
    }
    return 0;
}
