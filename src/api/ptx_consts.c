/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.compile_ptx(f, sig) and its relatives in host code (src/ir/cuda_compile.c): before the host
 * code is made, each of their BUILTINs becomes the str constant of its function's PTX, made as
 * `kjit ptx` makes it (kj_codegen_ptx of that one specialisation), for the compute capability the
 * call asked for (args[0] × 10; 0: the module's device, sm_90 for the cpu targets' emulated H100),
 * optimised at the module's level unless opt=False (args[1]). */
#include "api_int.h"

#include "ir/builtins.h"

#include <stdlib.h>

static const char *ptx_text(kjit_module *m, const kir_func *f, const kir_inst *in, kj_diags *d)
{
    const kir_inst *cc = &f->insts[in->args[0]], *opt = &f->insts[in->args[1]];
    char arch[16], path[512];
    if (cc->i) snprintf(arch, sizeof arch, "sm_%d", (int)cc->i);
    else snprintf(arch, sizeof arch, "%s", m->arch[0] ? m->arch : "sm_90");
    kj_ptx_opts o = {.arch = arch, .opt_level = opt->i ? m->cg.opt_level : 0, .verify = m->cg.verify,
                     .libdevice = kj_api_libdevice_path(path, sizeof path), .only = in->fn};
    char *ptx = kj_codegen_ptx(m->kir, &o, d);
    if (!ptx) return NULL;
    const char *s = kj_arena_strdup(&m->arena, ptx);
    free(ptx);
    return s;
}

bool kj_api_ptx_consts(kjit_module *m, uint32_t first, kj_diags *d)
{
    for (uint32_t k = first; m->kir && k < m->kir->nfuncs; k++) {
        kir_func *f = m->kir->funcs[k];
        for (uint32_t r = 1; r < f->ninsts; r++) {
            kir_inst *in = &f->insts[r];
            if (in->op != KIR_BUILTIN || !kj_builtin_cuda_compile(in->aux)) continue;
            const char *s = ptx_text(m, f, in, d);
            if (!s) return false;
            in->op = KIR_CONST_STR;
            in->aux = 0;
            in->args = NULL;
            in->nargs = 0;
            in->s = s;
        }
    }
    return true;
}
