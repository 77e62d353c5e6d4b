/* SPDX-License-Identifier: BSD-2-Clause */
/* Fusion of host array expressions (docs/codegen.md, "Fused array
 * expressions").
 *
 * In host code an array expression such as `a*b + np.sin(a)` is lowered to
 * one KIR instruction per operator, each of which would allocate its result
 * and walk the arrays once. This pass finds trees of elementwise array
 * instructions whose inner values have a single use and replaces each tree
 * by one UFUNC_CALL of a scalar function (KIR_FN_UFUNC) synthesised from
 * the tree: the loop over the broadcast shape is then the one generated for
 * @vectorize calls, with no temporary per operator. Each operator keeps its
 * own type (an inner float32 result is rounded to float32 before the outer
 * float64 operator reads it), so the results are NumPy's. */
#ifndef KJ_KIR_FUSE_H
#define KJ_KIR_FUSE_H

#include "kir.h"

/* Fuse the array expressions of every host function (main, helpers, @jit
 * on the host) of m; new ufunc functions are appended to m. Returns how
 * many trees were fused. Without `all` (KJIT_NO_FUSE=1, and the unit tests
 * of the runtime's operators) only the operations that exist only as fused
 * loops (np.where, np.clip on arrays) become ufunc calls, one each. */
uint32_t kir_fuse_module(kj_arena *a, kj_types *t, kir_module *m, bool all);
/* The same for the functions m->funcs[from..] (specialisations made later). */
uint32_t kir_fuse_from(kj_arena *a, kj_types *t, kir_module *m, uint32_t from, bool all);

#endif
