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
/* np.argsort's: sorts the n keys k (none UINT64_MAX) and moves the
 * indices ix with them; equal keys keep their indices ascending (the
 * stable order, when ix starts ascending). sort_simd_kv.c. */
void kj_sort_simd_kv(uint64_t *k, int64_t *ix, int64_t n);

#endif
