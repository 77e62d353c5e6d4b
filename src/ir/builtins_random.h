/* SPDX-License-Identifier: BSD-2-Clause */
/* np.random's legacy distributions as built-ins: which kj_rdist
 * (src/runtime/random_dist.h) each one draws, its float parameters (the
 * leading ones of its parameter list, then `size=`) and their defaults. The
 * typing (builtins.c) and the host code generation (llvm_host_builtins.c)
 * both read this one table. */
#ifndef KJ_BUILTINS_RANDOM_H
#define KJ_BUILTINS_RANDOM_H

#include "builtins.h"

#include <stdbool.h>

typedef struct kj_rdist_spec {
    int dist;           /* a kj_rdist */
    int nparams;        /* parameters before size= (0..3) */
    double defaults[3]; /* of the optional ones */
    bool int_result;    /* int64 values (binomial, poisson, geometric) */
    bool int_first;     /* the first parameter is an integer (binomial's n) */
} kj_rdist_spec;

/* The spec of built-in id, or NULL when it is not a distribution. */
const kj_rdist_spec *kj_rdist_spec_of(kj_builtin id);
/* The spec of a Generator distribution method (Generator.normal, ...:
 * its parameters follow the receiver), or NULL. */
const kj_rdist_spec *kj_gdist_spec_of(kj_builtin id);

#endif
