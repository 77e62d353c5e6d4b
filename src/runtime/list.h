/* SPDX-License-Identifier: BSD-2-Clause */
/* Numba's reflected lists at run time: a list value in generated code is a
 * pointer to a kj_list (src/abi: len at offset 0, data at offset 16, read
 * inline by generated code). Every list the runtime makes for generated
 * code is registered in the run context and freed with its arrays when the
 * outermost entry call returns (rt.c's release_all), so that lists passed
 * to, mutated by and returned from compiled functions stay valid for the
 * whole run (reflection). A list of arrays holds one reference to each
 * element's owner, released when the list is freed. */
#ifndef KJ_LIST_H
#define KJ_LIST_H

#include <stdbool.h>
#include <stdint.h>

typedef struct kj_list {
    int64_t len, cap;
    char *data;        /* cap elements of itemsize bytes, in their memory form (abi.h) */
    int64_t itemsize;
    int32_t owner_off; /* arrays: the byte offset of the owner in an element; -1: none */
    char *tmp;         /* one element: what pop() hands back */
} kj_list;

struct kj_rt;
void kj_list_free(kj_list *l);
/* list_sort.c's element order (its `desc`, rtfns.def LIST_SORT) for other
 * runtime code: kj_list_order_new's result (free() it) and a < b. */
void *kj_list_order_new(const char *desc, int64_t size);
bool kj_list_order_lt(const void *order, const void *a, const void *b);

#endif
