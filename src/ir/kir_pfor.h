/* SPDX-License-Identifier: BSD-2-Clause */
/* What a prange loop (KIR_PFOR) does with the function's locals, for
 * running it in parallel (src/codegen/llvm_pfor.c) and for the check that
 * rejects a loop whose iterations would race on a variable (kir_pfor.c;
 * docs/language.md "Parallel loops"). */
#ifndef KJ_KIR_PFOR_H
#define KJ_KIR_PFOR_H

#include "kir.h"

enum { KIR_PFOR_READ = 1, KIR_PFOR_WRITTEN = 2 };
/* Reduction operators that are built-in calls, not KIR operators (kir_op
 * values stay far below them). */
enum { KIR_PFOR_MIN = 0x8001, KIR_PFOR_MAX = 0x8002 };

typedef struct kir_pfor_info {
    uint8_t *use;  /* per local: KIR_PFOR_READ / KIR_PFOR_WRITTEN inside the body */
    uint16_t *red; /* per local: the reduction's operator (KIR_ADD for + and -, KIR_MUL,
                      KIR_AND, KIR_OR, KIR_XOR, or KIR_PFOR_MIN / KIR_PFOR_MAX for
                      s = min(s, x) / max(s, x)), KIR_NOP when it is not one */
    bool *outer;   /* per instruction: defined outside the body and used in it */
    /* the first variable written in the body, used outside it and not a
     * reduction (the race the check reports): its local and assignment */
    uint32_t racy_local;
    kir_ref racy_set; /* 0: none */
    bool jumps_out;   /* a return, or a break of the prange loop itself */
} kir_pfor_info;

/* Analyse PFOR instruction `pfor` of f (arrays in arena a). */
void kir_pfor_analyze(kj_arena *a, const kir_func *f, kir_ref pfor, kir_pfor_info *out);

/* Report every prange loop of the parallel functions among m->funcs[from..]
 * (those with target "parallel", or all host functions when `parallel` —
 * the parallel target) that assigns a variable used after the loop without it being a
 * reduction. Returns false when it reported. */
bool kir_pfor_check(kj_arena *a, const kir_module *m, uint32_t from, bool parallel, kj_diags *d);

#endif
