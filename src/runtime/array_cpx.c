/* SPDX-License-Identifier: BSD-2-Clause */
/* Whole-array reductions and running totals of complex arrays, as NumPy
 * computes them: np.sum adds the elements in C order in chunks of 8192
 * (the buffer size of NumPy's reduction iterator), each chunk summed by
 * NumPy's complex pairwise summation (CDOUBLE_pairwise_sum: the real and
 * imaginary parts in four accumulators each), onto a total that starts at
 * 0; np.mean divides the sum by the count with NumPy's complex division
 * (a complex scalar divided by the count as a complex; complex64 in
 * complex128, rounded); np.prod, np.cumsum
 * and np.cumprod run in order with the schoolbook product. complex64 in
 * float, as NumPy's complex64 loops. */
#include "array_int.h"

#include <string.h>

enum { CHUNK = 8192 };

/* NumPy's @TYPE@_pairwise_sum over n complex elements at a (stride bytes
 * apart), for T double or float. */
#define CPX_PAIRWISE(NAME, T)                                                                          \
    static void NAME(T *rr, T *ri, const char *a, int64_t n, int64_t stride)                           \
    {                                                                                                  \
        if (n < 4) {                                                                                   \
            T sr = 0, si = 0;                                                                          \
            for (int64_t i = 0; i < n; i++) {                                                          \
                const T *e = (const T *)(const void *)(a + i * stride);                                \
                sr += e[0], si += e[1];                                                                \
            }                                                                                          \
            *rr = sr, *ri = si;                                                                        \
            return;                                                                                    \
        }                                                                                              \
        if (n <= 64) {                                                                                 \
            T r[8];                                                                                    \
            for (int k = 0; k < 4; k++) {                                                              \
                const T *e = (const T *)(const void *)(a + k * stride);                                \
                r[2 * k] = e[0], r[2 * k + 1] = e[1];                                                  \
            }                                                                                          \
            int64_t i = 4;                                                                             \
            for (; i < n - (n % 4); i += 4)                                                            \
                for (int k = 0; k < 4; k++) {                                                          \
                    const T *e = (const T *)(const void *)(a + (i + k) * stride);                      \
                    r[2 * k] += e[0], r[2 * k + 1] += e[1];                                            \
                }                                                                                      \
            T sr = (r[0] + r[2]) + (r[4] + r[6]), si = (r[1] + r[3]) + (r[5] + r[7]);                  \
            for (; i < n; i++) {                                                                       \
                const T *e = (const T *)(const void *)(a + i * stride);                                \
                sr += e[0], si += e[1];                                                                \
            }                                                                                          \
            *rr = sr, *ri = si;                                                                        \
            return;                                                                                    \
        }                                                                                              \
        int64_t n2 = (n - n % 8) / 2; /* NumPy halves the 2n parts at a multiple of 8 parts */         \
        T r1, i1, r2, i2;                                                                              \
        NAME(&r1, &i1, a, n2, stride);                                                                 \
        NAME(&r2, &i2, a + n2 * stride, n - n2, stride);                                               \
        *rr = r1 + r2, *ri = i1 + i2;                                                                  \
    }
CPX_PAIRWISE(pairwise_c128, double)
CPX_PAIRWISE(pairwise_c64, float)

void kj_cpx_pairwise(const char *a, int64_t n, int64_t stride, bool f32, double *re, double *im)
{
    if (f32) {
        float r, i;
        pairwise_c64(&r, &i, a, n, stride);
        *re = r, *im = i;
    } else {
        pairwise_c128(re, im, a, n, stride);
    }
}

/* NumPy's complex divide loop for a divisor (d, 0): Smith's algorithm. */
#define CPX_DIV_REAL(T, r, i, d)                                                                       \
    do {                                                                                               \
        T rat_ = (T)0 / (d), scl_ = (T)1 / ((d) + (T)0 * rat_);                                       \
        T nr_ = ((r) + (i) * rat_) * scl_, ni_ = ((i) - (r) * rat_) * scl_;                           \
        (r) = nr_, (i) = ni_;                                                                          \
    } while (0)

/* The reduction over a contiguous C-order copy `c` of n elements; parts
 * written to out (two doubles or two floats). */
static void reduce_c(const kj_array *c, int64_t n, kj_reduce_op op, bool f32, void *out)
{
    int64_t isz = f32 ? 8 : 16;
    double sr = 0, si = 0;
    float fr = 0, fi = 0;
    if (op == KJ_REDUCE_PROD) {
        sr = 1, fr = 1;
        for (int64_t k = 0; k < n; k++) {
            if (f32) {
                const float *e = (const float *)(const void *)(c->data + k * isz);
                float r = fr * e[0] - fi * e[1], i = fr * e[1] + fi * e[0];
                fr = r, fi = i;
            } else {
                const double *e = (const double *)(const void *)(c->data + k * isz);
                double r = sr * e[0] - si * e[1], i = sr * e[1] + si * e[0];
                sr = r, si = i;
            }
        }
    } else {
        for (int64_t k = 0; k < n; k += CHUNK) {
            int64_t m = n - k < CHUNK ? n - k : CHUNK;
            if (f32) {
                float r, i;
                pairwise_c64(&r, &i, c->data + k * isz, m, isz);
                fr += r, fi += i;
            } else {
                double r, i;
                pairwise_c128(&r, &i, c->data + k * isz, m, isz);
                sr += r, si += i;
            }
        }
        if (op == KJ_REDUCE_MEAN && f32) { /* NumPy: the complex64 sum / n is a complex128 division, rounded */
            sr = fr, si = fi;
            CPX_DIV_REAL(double, sr, si, (double)n);
            fr = (float)sr, fi = (float)si;
        }
        if (op == KJ_REDUCE_MEAN && !f32) CPX_DIV_REAL(double, sr, si, (double)n);
    }
    if (f32) memcpy(out, (float[2]){fr, fi}, 8);
    else memcpy(out, (double[2]){sr, si}, 16);
}

bool kj_array_cpx_reduce(const kj_array *a, kj_reduce_op op, void *out, kj_rt_error *err)
{
    if (op != KJ_REDUCE_SUM && op != KJ_REDUCE_PROD && op != KJ_REDUCE_MEAN)
        return kj_rt_errorf(err, "TypeError", "this reduction of a complex array is not supported");
    kj_array *c = kj_array_copy(a, err); /* C order, contiguous */
    if (!c) return false;
    reduce_c(c, kj_array_size(c), op, a->dtype == KJ_DT_COMPLEX64, out);
    kj_array_release(c);
    return true;
}

kj_array *kj_array_cpx_cumulate(const kj_array *a, bool prod, kj_rt_error *err)
{
    kj_array *c = kj_array_copy(a, err);
    if (!c) return NULL;
    int64_t n = kj_array_size(c);
    kj_array *out = kj_array_empty(a->dtype, 1, &n, err);
    if (out) {
        bool f32 = a->dtype == KJ_DT_COMPLEX64;
        for (int64_t k = 0; k < n; k++) {
            if (f32) {
                float *o = (float *)(void *)out->data + 2 * k, *e = (float *)(void *)c->data + 2 * k;
                if (k == 0) o[0] = e[0], o[1] = e[1];
                else if (prod) o[0] = o[-2] * e[0] - o[-1] * e[1], o[1] = o[-2] * e[1] + o[-1] * e[0];
                else o[0] = o[-2] + e[0], o[1] = o[-1] + e[1];
            } else {
                double *o = (double *)(void *)out->data + 2 * k, *e = (double *)(void *)c->data + 2 * k;
                if (k == 0) o[0] = e[0], o[1] = e[1];
                else if (prod) o[0] = o[-2] * e[0] - o[-1] * e[1], o[1] = o[-2] * e[1] + o[-1] * e[0];
                else o[0] = o[-2] + e[0], o[1] = o[-1] + e[1];
            }
        }
    }
    kj_array_release(c);
    return out;
}
