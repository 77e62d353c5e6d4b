/* Semantic analysis: AST → typed KIR.
 *
 *   resolve  — imports, module constants (folded), functions and their
 *              decorators (kind, options, signature strings)
 *   infer    — type inference per specialisation, starting from main and
 *              from explicit signatures; every call, launch and ufunc call
 *              reachable from main is typed statically
 *   lower    — each specialisation to a kir_func
 *
 * All allocations go to `a`; errors to `d`. */
#ifndef KJ_SEMA_H
#define KJ_SEMA_H

#include "../frontend/ast.h"
#include "kir.h"
#include "types.h"

typedef struct kj_sema_options {
    int boundscheck; /* -1: per decorator, 0: off, 1: on everywhere */
} kj_sema_options;

/* Returns the module's KIR, or NULL when errors were reported. */
kir_module *kj_analyze(const kj_module *m, const kj_sema_options *opt, kj_types *types,
                       kj_arena *a, kj_diags *d);

#endif
