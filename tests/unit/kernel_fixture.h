/* SPDX-License-Identifier: BSD-2-Clause */
/* The fixture of the unit tests that compile a program around one kernel
 * `k` through every stage of KIR and look at what the stages decided
 * (test_layout.c, test_index32.c, test_regroup.c). Include after cmocka.h. */
#ifndef KJIT_TESTS_KERNEL_FIXTURE_H
#define KJIT_TESTS_KERNEL_FIXTURE_H

#include "ir/pipeline.h"
#include "runtime/npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fx {
    kj_arena a;
    kj_diags d;
    kj_source src;
    kir_module *m;     /* the last program compiled */
    const kir_func *k; /* its kernel k */
    char text[4096];
} fx;

static int setup(void **state)
{
    fx *x = calloc(1, sizeof *x);
    kj_arena_init(&x->a);
    *state = x;
    return 0;
}

static int teardown(void **state)
{
    fx *x = *state;
    kj_diags_free(&x->d);
    kj_arena_free(&x->a);
    free(x);
    return 0;
}

/* A program around `kernel` (its source, decorator included) whose main
 * makes a = `arr_a`, b = `arr_b` and launches k[`launch`](a, b), compiled
 * through every stage of KIR with the unit options of `u` (its arena,
 * types, source and sema options are filled here). Returns kernel k. */
static inline const kir_func *kfx_compile(fx *x, const char *kernel, const char *arr_a, const char *arr_b,
                                          const char *launch, kj_ir_unit u)
{
    snprintf(x->text, sizeof x->text,
             "from numba import cuda\nimport numpy as np\n\n\n%s\n\n"
             "def main():\n    a = %s\n    b = %s\n"
             "    k[%s](a, b)\n    print(b.sum())\n",
             kernel, arr_a, arr_b, launch);
    x->src = (kj_source){.path = "kernel.k", .text = x->text, .len = strlen(x->text)};
    static const kj_sema_options so = {.boundscheck = -1, .npy_info = kj_npy_header_info};
    u.a = &x->a;
    u.types = kj_types_new(&x->a);
    u.src = &x->src;
    u.sopt = &so;
    bool ok = kj_ir_stages(&u, KJ_STAGE_PARSE, KJ_STAGE_END, &x->d);
    if (!ok) kj_diags_print(&x->d, stderr, KJ_DIAG_SHORT);
    assert_true(ok);
    x->m = u.kir;
    x->k = NULL;
    for (uint32_t k = 0; k < x->m->nfuncs; k++)
        if (x->m->funcs[k]->kind == KIR_FN_KERNEL && !strcmp(x->m->funcs[k]->name, "k")) x->k = x->m->funcs[k];
    if (!x->k) fail_msg("no kernel k");
    return x->k;
}

#endif
