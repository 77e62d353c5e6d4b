/* The reference for benchmarks/jit_loop: the loop of loop.k in C, built
 * with clang -O3 -march=native in a translation unit of its own (so that
 * the driver's knowledge of the arrays cannot specialise it).
 *
 * No `restrict`: kjit cannot prove that its arrays do not overlap either,
 * and both check at run time before vectorising. sinf/cosf are glibc's,
 * which is also what kjit's llvm.sin.f32 / llvm.cos.f32 call. */
#include <stdint.h>
#include <math.h>

void loop_c(const float *a, const float *b, float *out, int64_t n);

void loop_c(const float *a, const float *b, float *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++) out[i] = a[i] * b[i] + sinf(a[i]) + cosf(b[i]);
}
