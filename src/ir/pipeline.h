/* SPDX-License-Identifier: BSD-2-Clause */
/* THE compile pipeline: its stages, in the one order every compile runs
 * them (docs/architecture.md, "The pipeline"). Each runs only when the ones
 * before it reported no error.
 *
 *   PARSE           source → AST (frontend/parser.h)
 *   ANALYZE         resolve, infer, lower to KIR (sema.h)
 *   FUSE            host array expressions as one loop each (kir_fuse.h)
 *   VERIFY          every function's KIR checked (kir_verify)
 *   PFOR_CHECK      prange loops that would race, in parallel functions
 *                   (kir_pfor.h)
 *   TARGET     api  auto resolved (cuda when the program has kernels and a
 *                   GPU is there, else cpu), the GPU opened for cuda
 *   POOL       api  the thread pool, for the parallel target or functions
 *                   marked parallel
 *   MPI        api  the MPI library, for programs that import mpi4py
 *   INLINE          cpu, parallel: device functions with barriers, warp
 *                   operations or shared arrays inlined into their kernels
 *                   (kir_inline.h)
 *   UFUNCS          cuda: ufunc calls as kernels (kir_gpu_ufunc.h); every
 *                   target: ufunc.reduce as loops or kernels (kir_reduce.h)
 *   LAYOUT          kernels whose threadIdx.y walks their arrays' contiguous
 *                   dimension compiled with x and y swapped (kir_layout.h)
 *   VERIFY_LOWERED  the KIR checked again
 *   HOST_CODE  api  machine code for the host (codegen.h, or the cache)
 *   GPU_CODE   api  cuda: the kernels as PTX → cubin, loaded (or the cache)
 *
 * The stages of KIR are here (kj_ir_stage); those marked api need the
 * runtime (a GPU, threads, MPI) or make machine code, and are the C API's:
 * kj_pipeline (src/api/pipeline.c) runs the whole list, and asks this file
 * for the stages of KIR. The unit tests run the same list through
 * kj_ir_stages, which skips the api stages. */
#ifndef KJ_IR_PIPELINE_H
#define KJ_IR_PIPELINE_H

#include "../frontend/ast.h"
#include "kir.h"
#include "sema.h"
#include "target.h"

typedef enum kj_stage {
    KJ_STAGE_PARSE,
    KJ_STAGE_ANALYZE,
    KJ_STAGE_FUSE,
    KJ_STAGE_VERIFY,
    KJ_STAGE_PFOR_CHECK,
    KJ_STAGE_TARGET,
    KJ_STAGE_POOL,
    KJ_STAGE_MPI,
    KJ_STAGE_INLINE,
    KJ_STAGE_UFUNCS,
    KJ_STAGE_LAYOUT,
    KJ_STAGE_VERIFY_LOWERED,
    KJ_STAGE_HOST_CODE,
    KJ_STAGE_GPU_CODE,
    KJ_STAGE_END
} kj_stage;

/* What the stages of KIR work on and produce. */
typedef struct kj_ir_unit {
    kj_arena *a;                 /* everything made lives here */
    kj_types *types;
    const kj_source *src;        /* PARSE reads it */
    const kj_sema_options *sopt; /* ANALYZE's options (must outlive the sema) */
    kj_module *ast;              /* made by PARSE */
    kj_sema *sema;               /* made by ANALYZE: kept for specialisations at call time */
    kir_module *kir;             /* made by ANALYZE */
    /* The stages after ANALYZE work on kir->funcs[first..]: 0, or the first
     * function a specialisation made at call time added. */
    uint32_t first;
    /* Where the code runs: DEFAULT (none named: the passes take the cpu,
     * but INLINE runs only for a target named cpu or parallel) until the
     * TARGET stage has resolved it. */
    kj_run_target target;
    bool fuse_all; /* kir_fuse_module's `all` (false: $KJIT_NO_FUSE=1) */
    bool specialise; /* LAYOUT remaps kernels (false: $KJIT_NO_SPECIALISE=1) */
    bool index32;    /* LAYOUT marks kernels' 32-bit index variants (kir_index32.h; true with $KJIT_INDEX32=1) */
    bool regroup;    /* LAYOUT marks cpu kernels whose blocks may be regrouped (kir_regroup.h; false: $KJIT_NO_REGROUP=1) */
    unsigned remapped; /* how many kernels LAYOUT remapped, so far */
} kj_ir_unit;

/* Is s a stage of KIR (run by kj_ir_stage)? */
bool kj_stage_is_ir(kj_stage s);
/* Run stage s on u when it is a stage of KIR (else nothing). False when
 * errors were reported to d (by it or before it). */
bool kj_ir_stage(kj_ir_unit *u, kj_stage s, kj_diags *d);
/* The stages of KIR among [from, to), in order, stopping at the first
 * error; the api stages among them are skipped (the unit tests' pipeline:
 * u->target says which target they compile for). */
bool kj_ir_stages(kj_ir_unit *u, kj_stage from, kj_stage to, kj_diags *d);

#endif
