/* The min fold of kjit's runtime (src/runtime/array_extreme.c) over 10^8
 * float32 in each instruction set, on memory with and without transparent
 * huge pages, beside a bare read of the same memory (four vector sums, no
 * NaN tests: what one core can stream): why the runtime picks the widest
 * form at run time and asks for huge pages for large arrays, and how far
 * the fold is from the memory's speed. benchmarks/cpu/fold_isa.sh builds
 * and runs it against libkjit. Prints milliseconds, median of 7. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef float (*fold_fn)(int use, const float *x, int64_t n);

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The bare read: AVX-512 where the CPU has it, else AVX2. */
__attribute__((target("avx512f"))) static float read512(int use, const float *x, int64_t n)
{
    (void)use;
    __m512 a = _mm512_setzero_ps(), b = a, c = a, d = a;
    for (int64_t i = 0; i + 64 <= n; i += 64) {
        a = _mm512_add_ps(a, _mm512_loadu_ps(x + i)), b = _mm512_add_ps(b, _mm512_loadu_ps(x + i + 16));
        c = _mm512_add_ps(c, _mm512_loadu_ps(x + i + 32)), d = _mm512_add_ps(d, _mm512_loadu_ps(x + i + 48));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a, b), _mm512_add_ps(c, d)));
}
__attribute__((target("avx2"))) static float read256(int use, const float *x, int64_t n)
{
    (void)use;
    __m256 a = _mm256_setzero_ps(), b = a, c = a, d = a;
    for (int64_t i = 0; i + 32 <= n; i += 32) {
        a = _mm256_add_ps(a, _mm256_loadu_ps(x + i)), b = _mm256_add_ps(b, _mm256_loadu_ps(x + i + 8));
        c = _mm256_add_ps(c, _mm256_loadu_ps(x + i + 16)), d = _mm256_add_ps(d, _mm256_loadu_ps(x + i + 24));
    }
    float l[8];
    _mm256_storeu_ps(l, _mm256_add_ps(_mm256_add_ps(a, b), _mm256_add_ps(c, d)));
    return l[0] + l[1] + l[2] + l[3] + l[4] + l[5] + l[6] + l[7];
}
static fold_fn bare_read(void) { return __builtin_cpu_supports("avx512f") ? read512 : read256; }
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fold_isa LIBKJIT\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW);
    fold_fn fold = lib ? (fold_fn)dlsym(lib, "kj_run_min_f32_isa") : NULL;
    if (!fold) {
        fprintf(stderr, "fold_isa: %s\n", dlerror());
        return 1;
    }
    const int64_t n = 100000000;
    static const char *isa[] = {"sse", "avx2", "avx512", "read"};
    printf("%-8s %-6s %8s\n", "pages", "isa", "ms");
    for (int huge = 0; huge < 2; huge++) {
        size_t bytes = (size_t)n * 4;
        float *x = aligned_alloc(1 << 21, (bytes + (1 << 21) - 1) & ~(size_t)((1 << 21) - 1));
        if (!x) return 1;
        (void)madvise(x, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
        uint64_t s = 1;
        for (int64_t i = 0; i < n; i++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            x[i] = (float)(s >> 40) / 16777216.0f;
        }
        for (int k = 0; k < 4; k++) {
            fold_fn f = fold;
#if defined(__x86_64__) && defined(__GNUC__)
            if (k == 3) f = bare_read();
#else
            if (k == 3) break;
#endif
            double t[8];
            volatile float sink = 0;
            for (int r = 0; r < 8; r++) {
                double t0 = now();
                sink += f(k, x, n);
                t[r] = now() - t0;
            }
            qsort(t + 1, 7, sizeof *t, cmp);
            printf("%-8s %-6s %8.2f\n", huge ? "huge" : "4k", isa[k], t[4] * 1e3);
        }
        free(x);
    }
    return 0;
}
