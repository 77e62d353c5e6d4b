/* SPDX-License-Identifier: BSD-2-Clause */
/* The stages of KIR of the compile pipeline (pipeline.h has the list). */
#include "pipeline.h"

#include "../frontend/parser.h"
#include "kir_fuse.h"
#include "kir_gpu_ufunc.h"
#include "kir_inline.h"
#include "kir_layout.h"
#include "kir_index32.h"
#include "kir_regroup.h"
#include "kir_pfor.h"
#include "kir_reduce.h"

static bool analyze(kj_ir_unit *u, kj_diags *d)
{
    u->sema = kj_sema_new(u->ast, u->sopt, u->types, u->a);
    u->kir = kj_sema_run(u->sema, d);
    if (!u->kir && !kj_has_errors(d))
        kj_error(d, u->src, (kj_span){0}, "internal compiler error: analysis produced no IR");
    return u->kir != NULL;
}

/* A function that does not verify is a bug in the compiler, not in the
 * program, and is reported as such at the function. */
static void verify(kj_ir_unit *u, kj_diags *d)
{
    for (uint32_t k = u->first; k < u->kir->nfuncs; k++) {
        const kir_func *f = u->kir->funcs[k];
        const char *why = kir_verify(u->a, f);
        if (why)
            kj_error(d, u->kir->src, f->span, "internal compiler error: invalid KIR for '%s': %s",
                     f->mangled ? f->mangled : f->name, why);
    }
}

bool kj_stage_is_ir(kj_stage s)
{
    switch (s) {
    case KJ_STAGE_PARSE: case KJ_STAGE_ANALYZE: case KJ_STAGE_FUSE: case KJ_STAGE_VERIFY:
    case KJ_STAGE_PFOR_CHECK: case KJ_STAGE_INLINE: case KJ_STAGE_UFUNCS: case KJ_STAGE_LAYOUT:
    case KJ_STAGE_VERIFY_LOWERED:
        return true;
    default: return false;
    }
}

bool kj_ir_stage(kj_ir_unit *u, kj_stage s, kj_diags *d)
{
    if (kj_has_errors(d)) return false;
    switch (s) {
    case KJ_STAGE_PARSE: u->ast = kj_parse(u->src, u->a, d); break;
    case KJ_STAGE_ANALYZE: analyze(u, d); break;
    case KJ_STAGE_FUSE: kir_fuse_from(u->a, u->types, u->kir, u->first, u->fuse_all); break;
    case KJ_STAGE_VERIFY: case KJ_STAGE_VERIFY_LOWERED: verify(u, d); break;
    case KJ_STAGE_PFOR_CHECK: kir_pfor_check(u->a, u->kir, u->first, u->target == KJ_RUN_PARALLEL, d); break;
    case KJ_STAGE_INLINE:
        /* on the GPU such device functions stay functions (barriers are
         * intrinsics there); a target not named yet (kjit check) has none */
        if (u->target == KJ_RUN_CPU || u->target == KJ_RUN_PARALLEL)
            kir_inline_barriers(u->a, u->types, u->kir, u->first, d);
        break;
    case KJ_STAGE_UFUNCS:
        if (u->target == KJ_RUN_CUDA) kir_gpu_ufuncs(u->a, u->types, u->kir, u->first);
        kir_reduce_expand(u->a, u->types, u->kir, u->first, u->target == KJ_RUN_CUDA);
        break;
    case KJ_STAGE_LAYOUT:
        u->remapped += kir_layout_remap(u->a, u->kir, u->first, u->target, u->specialise);
        kir_index32_mark(u->a, u->kir, u->first, u->target, u->specialise && u->index32);
        kir_regroup_mark(u->kir, u->first, u->target, u->specialise && u->regroup);
        break;
    default: break; /* the C API's */
    }
    return !kj_has_errors(d);
}

bool kj_ir_stages(kj_ir_unit *u, kj_stage from, kj_stage to, kj_diags *d)
{
    for (kj_stage s = from; s < to; s++)
        if (!kj_ir_stage(u, s, d)) return false;
    return !kj_has_errors(d);
}
