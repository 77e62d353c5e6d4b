/* SPDX-License-Identifier: BSD-2-Clause */
/* MPI for the C API (docs/scale-out.md): a context opens the MPI library at
 * the first compile of a program that imports mpi4py (a failure is
 * remembered and reported for every such program); modules hold
 * references, and the last one finalizes MPI if kjit initialised it. */
#include "api_int.h"

#include <stdlib.h>
#include <string.h>

static FILE *stats_stream(void)
{
    return kj_api_env_flag("KJIT_STATS", false) ? stderr : NULL;
}

bool kj_api_mpi(kjit_ctx *ctx, kjit_module *m, kjit_error *err)
{
    if (!kj_sema_uses_mpi(m->sema)) return true;
    if (!ctx->mpi_tried) {
        ctx->mpi_tried = true;
        ctx->mpi = kj_mpi_open(stats_stream(), ctx->mpi_err, sizeof ctx->mpi_err);
    }
    if (!ctx->mpi) {
        kj_api_set_error(err, KJIT_ERR_RUNTIME, m->src.path, "%s", ctx->mpi_err);
        return false;
    }
    m->mpi = kj_mpi_retain(ctx->mpi);
    return true;
}
