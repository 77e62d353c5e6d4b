/* SPDX-License-Identifier: BSD-2-Clause */
/* Line tables in the PTX for `@cuda.jit(lineinfo=True)` and `debug=True`
 * (numba-cuda's reference/kernel.rst, "Kernel declaration"; issue 26 point
 * 8): one compile unit per GPU module (line tables only), a DISubprogram per
 * kernel, device function and kernel entry that asks for it, and the
 * location of the KIR instruction being generated on each LLVM instruction
 * (kj_cg_stmt). NVPTX turns them into `.file` and `.loc` directives, which
 * ptxas keeps as the cubin's line table: compute-sanitizer and cuda-gdb then
 * name the .k file and line of a fault. A function that neither asks nor
 * calls one that asks gets no subprogram and its instructions no location;
 * host code never does. */
#include "codegen.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kj_cg_di {
    LLVMDIBuilderRef b;
    LLVMMetadataRef file, unit, fn_type;
};

/* f asks for line tables, or calls (within `depth` calls) a function that
 * does: that one is inlined into f, and LLVM keeps an inlined function's
 * lines only in a caller that has a subprogram. */
static bool asks(const kir_func *f, int depth)
{
    if (f->lineinfo) return true;
    for (uint32_t r = 1; depth > 0 && r < f->ninsts; r++)
        if (f->insts[r].op == KIR_CALL && f->insts[r].fn && f->insts[r].fn != f && asks(f->insts[r].fn, depth - 1))
            return true;
    return false;
}

static bool wants(const kj_cg *cg, const kir_func *f) { return cg->tgt == &kj_target_nvptx && asks(f, 8); }

/* The source's file: its name, in its directory made absolute (a relative
 * path is taken from the working directory, as the tools that read the
 * line table will look it up from elsewhere). */
static LLVMMetadataRef source_file(kj_cg *cg, LLVMDIBuilderRef b)
{
    const char *path = cg->km->src && cg->km->src->path ? cg->km->src->path : "<kjit>";
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char dir[PATH_MAX] = "";
    char *sub = slash ? kj_arena_printf(cg->a, "%.*s", (int)(slash - path), path) : (char *)".";
    if (slash == path) sub = (char *)"/";
    if (!realpath(sub, dir)) snprintf(dir, sizeof dir, "%s", sub);
    return LLVMDIBuilderCreateFile(b, name, strlen(name), dir, strlen(dir));
}

static struct kj_cg_di *di_of(kj_cg *cg)
{
    if (cg->di) return cg->di;
    struct kj_cg_di *di = KJ_NEW(cg->a, struct kj_cg_di);
    di->b = LLVMCreateDIBuilder(cg->mod);
    di->file = source_file(cg, di->b);
    static const char producer[] = "kjit";
    di->unit = LLVMDIBuilderCreateCompileUnit(di->b, LLVMDWARFSourceLanguagePython, di->file, producer,
                                              sizeof producer - 1, 1, "", 0, 0, "", 0,
                                              LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
    di->fn_type = LLVMDIBuilderCreateSubroutineType(di->b, di->file, NULL, 0, LLVMDIFlagZero);
    LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(cg->t_i32, LLVMDebugMetadataVersion(), 0)));
    cg->di = di;
    return di;
}

/* Give llfn (made for f) a subprogram when f asks for line tables; returns
 * its scope, or NULL. The builder's location is f's line. */
LLVMMetadataRef kj_cg_di_func(kj_cg *cg, const kir_func *f, LLVMValueRef llfn)
{
    if (!wants(cg, f)) return NULL;
    struct kj_cg_di *di = di_of(cg);
    size_t n;
    const char *link = LLVMGetValueName2(llfn, &n);
    LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(di->b, di->file, f->name, strlen(f->name), link, n, di->file,
                                                     f->span.line, di->fn_type, 0, 1, f->span.line, LLVMDIFlagZero, 1);
    LLVMSetSubprogram(llfn, sp);
    LLVMSetCurrentDebugLocation2(cg->b, LLVMDIBuilderCreateDebugLocation(cg->ctx, f->span.line, f->span.col, sp, NULL));
    return sp;
}

/* The instructions built from now on are at sp's line `s.line` (spans
 * without a line, made by the compiler, keep the last one). */
void kj_cg_di_at(kj_cg *cg, LLVMMetadataRef sp, kj_span s)
{
    if (sp && s.line)
        LLVMSetCurrentDebugLocation2(cg->b, LLVMDIBuilderCreateDebugLocation(cg->ctx, s.line, s.col, sp, NULL));
}

void kj_cg_di_clear(kj_cg *cg) { LLVMSetCurrentDebugLocation2(cg->b, NULL); }

void kj_cg_di_finish(kj_cg *cg)
{
    if (!cg->di) return;
    LLVMDIBuilderFinalize(cg->di->b);
    LLVMDisposeDIBuilder(cg->di->b);
    cg->di = NULL;
}
