/* SPDX-License-Identifier: BSD-2-Clause */
/* The run target: where a program's code runs. Named once, where it is
 * written — a decorator's target= (or parallel=True) parsed by resolve.c,
 * the C API's kjit_target resolved by kj_api_target (auto: cuda when the
 * program has kernels and a GPU is there, else cpu) — and an enum from
 * there on: the KIR passes ask it (kir_pfor.c, kir_gpu_ufunc.c,
 * kir_inline.c through src/ir/pipeline.h), and host code generation picks
 * its table by it (kj_cg_run_of, codegen.h). */
#ifndef KJ_IR_TARGET_H
#define KJ_IR_TARGET_H

typedef enum kj_run_target {
    /* None named: a function without target= runs where its module does;
     * code generation and the KIR passes given none take the cpu. */
    KJ_RUN_DEFAULT = 0,
    KJ_RUN_CPU,      /* one thread; kernels run block by block on the CPU */
    KJ_RUN_PARALLEL, /* the thread pool: ufunc loops, prange loops, kernel blocks */
    KJ_RUN_CUDA,     /* kernels (and ufunc calls) on the GPU */
} kj_run_target;

/* "cpu", "parallel" or "cuda"; NULL for KJ_RUN_DEFAULT. */
const char *kj_run_target_name(kj_run_target t);
/* The target named `s`; KJ_RUN_DEFAULT when `s` names none. */
kj_run_target kj_run_target_parse(const char *s);

#endif
