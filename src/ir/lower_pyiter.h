/* SPDX-License-Identifier: BSD-2-Clause */
/* Python's built-ins over an iterable (lower_pyiter.c). */
#ifndef KJ_LOWER_PYITER_H
#define KJ_LOWER_PYITER_H

#include "kir.h"

/* max/min/sum/any/all (builtin a KJ_B_*) of `it`, a 1-d array or a tuple,
 * as CPython iterates it; the result of type t. Appends to block `cur`
 * (nested loop blocks are new); start: sum's start value, or 0. */
kir_ref kj_lower_pyiter(kj_arena *a, kj_types *ty, kir_func *f, kir_blkid cur, kj_span sp, int builtin,
                        const kj_type *t, kir_ref it, kir_ref start);

/* min/max (builtin) of nargs >= 2 strings, left to right as CPython. */
kir_ref kj_lower_minmax_str(kj_arena *a, kj_types *ty, kir_func *f, kir_blkid cur, kj_span sp, int builtin,
                            const kir_ref *args, uint32_t nargs);

#endif
