/* SPDX-License-Identifier: BSD-2-Clause */
/* The AVX-512 quicksorts (sort_simd.c) of np.sort's kind='quicksort' and
 * what uses it: ascending, unstable (equal elements are indistinguishable
 * in the types sorted here), no NaN in the input (the caller moves NaNs
 * aside: sort_fast.c). Call only when kj_sort_simd_available(). */
#ifndef KJ_SORT_SIMD_H
#define KJ_SORT_SIMD_H

#include <stdbool.h>
#include <stdint.h>

/* Whether this CPU runs them (AVX-512F and POPCNT, asked of the CPU at
 * run time: the build itself targets plain x86-64). */
bool kj_sort_simd_available(void);

void kj_sort_simd_f64(double *a, int64_t n);
/* The same with the partitions' form chosen (sort_simd_part.h): AUTO asks
 * the CPU, as the plain names do; tests run both forms on any AVX-512 CPU. */
typedef enum { KJ_SORT_PART_AUTO, KJ_SORT_PART_REGISTER, KJ_SORT_PART_CSTORE } kj_sort_part;
void kj_sort_simd_f64_by(double *a, int64_t n, kj_sort_part how);
void kj_sort_simd_f32_by(float *a, int64_t n, kj_sort_part how);
void kj_sort_simd_i64_by(int64_t *a, int64_t n, kj_sort_part how);
void kj_sort_simd_i32_by(int32_t *a, int64_t n, kj_sort_part how);
void kj_sort_simd_u64_by(uint64_t *a, int64_t n, kj_sort_part how);
void kj_sort_simd_u32_by(uint32_t *a, int64_t n, kj_sort_part how);
void kj_sort_simd_f32(float *a, int64_t n);
void kj_sort_simd_i64(int64_t *a, int64_t n);
void kj_sort_simd_i32(int32_t *a, int64_t n);
void kj_sort_simd_u64(uint64_t *a, int64_t n);
void kj_sort_simd_u32(uint32_t *a, int64_t n);
/* Sort a copy of src[0..n-1] into dst, the first partition done in the
 * pass that copies (sort_simd_impl.h's qsort_from). False when it does
 * not: n too small for it to pay (dst untouched), or a NaN or -0.0 in src
 * (dst then holds part of src): the caller copies and sorts another way. */
bool kj_sort_simd_f64_from(double *dst, const double *src, int64_t n);
bool kj_sort_simd_f32_from(float *dst, const float *src, int64_t n);
bool kj_sort_simd_i64_from(int64_t *dst, const int64_t *src, int64_t n);
bool kj_sort_simd_i32_from(int32_t *dst, const int32_t *src, int64_t n);
bool kj_sort_simd_u64_from(uint64_t *dst, const uint64_t *src, int64_t n);
bool kj_sort_simd_u32_from(uint32_t *dst, const uint32_t *src, int64_t n);
bool kj_sort_simd_f64_from_by(double *dst, const double *src, int64_t n, kj_sort_part how);
bool kj_sort_simd_f32_from_by(float *dst, const float *src, int64_t n, kj_sort_part how);
bool kj_sort_simd_i64_from_by(int64_t *dst, const int64_t *src, int64_t n, kj_sort_part how);
bool kj_sort_simd_i32_from_by(int32_t *dst, const int32_t *src, int64_t n, kj_sort_part how);
bool kj_sort_simd_u64_from_by(uint64_t *dst, const uint64_t *src, int64_t n, kj_sort_part how);
bool kj_sort_simd_u32_from_by(uint32_t *dst, const uint32_t *src, int64_t n, kj_sort_part how);
/* The pass before a float sort: counts the NaNs of src[0..m-1] into
 * *nnan, copying the elements to dst unless it is NULL; whether one of
 * them is -0.0. */
bool kj_sort_simd_scan_f64(double *dst, const double *src, int64_t m, int64_t *nnan);
bool kj_sort_simd_scan_f32(float *dst, const float *src, int64_t m, int64_t *nnan);
/* np.argsort's: sorts the n keys k (none UINT64_MAX) and moves the
 * indices ix with them; equal keys keep their indices ascending (the
 * stable order, when ix starts ascending). sort_simd_kv.c. */
void kj_sort_simd_kv(uint64_t *k, int64_t *ix, int64_t n);

#endif
