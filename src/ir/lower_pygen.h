/* SPDX-License-Identifier: BSD-2-Clause */
/* Generators in KIR (lower_pygen.c). */
#ifndef KJ_LOWER_PYGEN_H
#define KJ_LOWER_PYGEN_H

#include "lower_int.h"

/* A yield statement of a generator function. */
void kj_lower_yield(lctx *lc, const kj_stmt *st);
/* next(g): g's next value, StopIteration when it is exhausted. */
kir_ref kj_lower_gen_next(lctx *lc, kir_ref g, kj_span sp);
/* iter(g), next(g, default=) (the result); sum(g), list(g), ...: g
 * drained into a list at args[0], 0 returned, as for any other built-in. */
kir_ref kj_lower_gen_builtin(lctx *lc, int b, kir_ref *args, uint32_t n, kj_span sp);
/* for x in g: true when the loop's iterable is a generator (lowered). */
bool kj_lower_for_gen(lctx *lc, const kj_stmt *st);

#endif
