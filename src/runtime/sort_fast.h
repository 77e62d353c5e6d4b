/* SPDX-License-Identifier: BSD-2-Clause */
/* The fast paths of np.sort and np.unique (sort_fast.c), hooked into
 * array_sort.c: an AVX-512 quicksort of a row (sort_simd.h) and a hash
 * pass for np.unique of many repeats. Both give exactly what the plain
 * paths (array_sort.c's radix sorts) give. */
#ifndef KJ_SORT_FAST_H
#define KJ_SORT_FAST_H

#include "array.h"

/* Whether sorts may take the AVX-512 path: the CPU has AVX-512F, and the
 * environment does not set KJIT_SORT_PLAIN (to a non-empty value other
 * than "0"; it forces the plain path, for tests and comparisons). */
bool kj_sort_fast_enabled(void);
/* Whether KJIT_SORT_PLAIN is set so: np.unique then sorts too. */
bool kj_sort_plain_forced(void);

/* Sort the contiguous row p of m elements of dt in place with the AVX-512
 * quicksort (call only when kj_sort_fast_enabled()). False, p untouched,
 * when this row is the plain path's: dt not float64/float32/(u)int64/
 * (u)int32, or a -0.0 among floats (the plain path's stable order of -0.0
 * and 0.0 is what NumPy's small sorts print), or no memory to set NaNs
 * aside. NaNs go last in their order, as the plain path leaves them. */
bool kj_sort_fast_row(char *p, int64_t m, kj_dtype dt);
/* kj_sort_fast_row of a copy: the m elements of the contiguous row src
 * copied to dst (always) and sorted there when the fast path takes the
 * row. For floats the copy is the pass that counts NaNs and looks for
 * -0.0, so np.sort reads its argument once before sorting. */
bool kj_sort_fast_row_from(char *dst, const char *src, int64_t m, kj_dtype dt);

/* np.argsort of the contiguous row p of m elements of dt into out (call
 * only when kj_sort_fast_enabled()): the stable order, as the plain path's.
 * False, out untouched, for another dtype or no memory for the keys. */
bool kj_argsort_fast_row(const char *p, int64_t m, kj_dtype dt, int64_t *out);

/* np.unique(a) by hashing when a has few distinct values (at most 1/8 of
 * its elements, and 2^15): the distinct values, each as its first
 * occurrence, sorted. *done false (and NULL) when a is not such an array
 * (too small, too many distinct values, another dtype): then sort. NULL
 * with *done true is an error in err. */
kj_array *kj_unique_hash(const kj_array *a, bool *done, kj_rt_error *err);

#endif
