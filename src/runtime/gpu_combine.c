/* SPDX-License-Identifier: BSD-2-Clause */
/* The reductions of MPI collectives on device buffers (gpu.h,
 * docs/scale-out.md): dst[i] = op(dst[i], src[i]) on the GPU, where src may
 * be a peer GPU's memory mapped through CUDA IPC, so that comm.Reduce and
 * comm.Allreduce of device arrays never go through host memory.
 *
 * The kernel cannot come from the program (the runtime knows no KIR, and a
 * collective may reduce a dtype no kernel of the program touches), so it is
 * a few lines of PTX written here, one entry per (op, dtype), which the
 * driver compiles for the GPU on first use; the module is kept for the run.
 * The entry's name says what it does (kj_combine_sum_float64), which lets
 * the fake driver of the tests do the same on the host.
 *
 * Floating-point max/min are PTX's, which return the other operand where one
 * is NaN (MPI's are C comparisons); sums add in the order the caller calls. */
#include "../abi/abi_mpi.h"
#include "gpu_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPS = KJ_MPI_OP_MIN + 1 }; /* indexed by KJ_MPI_OP_* */

typedef struct kj_gpu_combine {
    CUmodule mod[OPS][KJ_DT_COUNT];
    CUfunction fn[OPS][KJ_DT_COUNT];
} kj_gpu_combine;

/* PTX's names for dtype dt: the register type, the memory type, log2 of its size. */
static bool ptx_types(kj_dtype dt, const char **reg, const char **mem, int *lg)
{
    static const struct {
        const char *reg, *mem;
        int lg;
    } T[KJ_DT_COUNT] = {
        [KJ_DT_INT8] = {"s16", "s8", 0},    [KJ_DT_INT16] = {"s16", "s16", 1},  [KJ_DT_INT32] = {"s32", "s32", 2},
        [KJ_DT_INT64] = {"s64", "s64", 3},  [KJ_DT_UINT8] = {"u16", "u8", 0},   [KJ_DT_UINT16] = {"u16", "u16", 1},
        [KJ_DT_UINT32] = {"u32", "u32", 2}, [KJ_DT_UINT64] = {"u64", "u64", 3}, [KJ_DT_FLOAT32] = {"f32", "f32", 2},
        [KJ_DT_FLOAT64] = {"f64", "f64", 3},
    };
    if ((unsigned)dt >= KJ_DT_COUNT || !T[dt].reg) return false;
    *reg = T[dt].reg, *mem = T[dt].mem, *lg = T[dt].lg;
    return true;
}

bool kj_gpu_combine_supported(int op, kj_dtype dt)
{
    const char *r, *m;
    int lg;
    return op >= KJ_MPI_OP_SUM && op <= KJ_MPI_OP_MIN && ptx_types(dt, &r, &m, &lg);
}

static void entry_name(int op, kj_dtype dt, char *s, size_t cap)
{
    static const char *const OPN[OPS] = {[KJ_MPI_OP_SUM] = "sum", [KJ_MPI_OP_MAX] = "max", [KJ_MPI_OP_MIN] = "min"};
    snprintf(s, cap, "kj_combine_%s_%s", OPN[op], kj_dtype_name(dt));
}

/* A grid-stride loop: dst[i] = op(dst[i], src[i]) for i < n. */
static void write_ptx(int op, kj_dtype dt, char *s, size_t cap)
{
    const char *reg = "f64", *mem = "f64";
    int lg = 3;
    ptx_types(dt, &reg, &mem, &lg);
    char name[64], insn[24];
    entry_name(op, dt, name, sizeof name);
    snprintf(insn, sizeof insn, "%s.%s", op == KJ_MPI_OP_SUM ? "add" : op == KJ_MPI_OP_MAX ? "max" : "min", reg);
    snprintf(s, cap,
             ".version 6.0\n.target sm_60\n.address_size 64\n"
             ".visible .entry %s(.param .u64 dst, .param .u64 src, .param .u64 n)\n{\n"
             "  .reg .pred %%p;\n  .reg .u32 %%a, %%b, %%c;\n  .reg .u64 %%i, %%n, %%st, %%d, %%s, %%o, %%t;\n"
             "  .reg .%s %%x, %%y;\n"
             "  ld.param.u64 %%d, [dst];\n  ld.param.u64 %%s, [src];\n  ld.param.u64 %%n, [n];\n"
             "  cvta.to.global.u64 %%d, %%d;\n  cvta.to.global.u64 %%s, %%s;\n"
             "  mov.u32 %%a, %%ctaid.x;\n  mov.u32 %%b, %%ntid.x;\n  mov.u32 %%c, %%tid.x;\n"
             "  mul.wide.u32 %%i, %%a, %%b;\n  cvt.u64.u32 %%t, %%c;\n  add.u64 %%i, %%i, %%t;\n"
             "  mov.u32 %%a, %%nctaid.x;\n  mul.wide.u32 %%st, %%a, %%b;\n"
             "LOOP:\n  setp.ge.u64 %%p, %%i, %%n;\n  @%%p bra DONE;\n"
             "  shl.b64 %%o, %%i, %d;\n  add.u64 %%t, %%d, %%o;\n  add.u64 %%o, %%s, %%o;\n"
             "  ld.global.%s %%x, [%%t];\n  ld.global.%s %%y, [%%o];\n  %s %%x, %%x, %%y;\n"
             "  st.global.%s [%%t], %%x;\n  add.u64 %%i, %%i, %%st;\n  bra LOOP;\n"
             "DONE:\n  ret;\n}\n",
             name, reg, lg, mem, mem, insn, mem);
}

size_t kj_gpu_combine_ptx(int op, kj_dtype dt, char *s, size_t cap)
{
    if (!kj_gpu_combine_supported(op, dt)) return 0;
    write_ptx(op, dt, s, cap);
    return strlen(s);
}

static CUfunction function_of(kj_gpu *g, int op, kj_dtype dt, kj_rt_error *e)
{
    if (!g->combine) {
        g->combine = calloc(1, sizeof *g->combine);
        if (!g->combine) abort();
    }
    kj_gpu_combine *c = g->combine;
    if (c->fn[op][dt]) return c->fn[op][dt];
    char ptx[2048], name[64], err[512];
    kj_gpu_combine_ptx(op, dt, ptx, sizeof ptx);
    entry_name(op, dt, name, sizeof name);
    if (!kj_cu_module_load(&g->cu, ptx, &c->mod[op][dt], err, sizeof err)) {
        kj_rt_errorf(e, "RuntimeError", "the reduction kernel of an MPI collective: %s", err);
        return NULL;
    }
    CUresult r = g->cu.cuModuleGetFunction(&c->fn[op][dt], c->mod[op][dt], name);
    if (r != CUDA_SUCCESS) return kj_gpu_fail(g, r, "cuModuleGetFunction", e), NULL;
    return c->fn[op][dt];
}

bool kj_gpu_combine_run(kj_gpu *g, CUstream s, int op, kj_dtype dt, CUdeviceptr dst, CUdeviceptr src, uint64_t n,
                        kj_rt_error *e)
{
    if (!kj_gpu_combine_supported(op, dt))
        return kj_rt_errorf(e, "TypeError", "no device reduction for %s", kj_dtype_name(dt));
    CUfunction f = function_of(g, op, dt, e);
    if (!f) return false;
    if (n == 0) return true;
    /* enough blocks to fill the GPU, a loop beyond that */
    uint64_t threads = 256, blocks = (n + threads - 1) / threads, most = 8 * (uint64_t)g->props.sm_count;
    if (most && blocks > most) blocks = most;
    void *args[] = {&dst, &src, &n};
    CUresult r = g->cu.cuLaunchKernel(f, (unsigned)blocks, 1, 1, (unsigned)threads, 1, 1, 0, s, args, NULL);
    return r == CUDA_SUCCESS || kj_gpu_fail(g, r, "cuLaunchKernel (an MPI reduction)", e);
}

void kj_gpu_combine_free(kj_gpu *g)
{
    kj_gpu_combine *c = g->combine;
    if (!c) return;
    for (int op = 0; op < OPS; op++)
        for (int dt = 0; dt < KJ_DT_COUNT; dt++)
            if (c->mod[op][dt]) g->cu.cuModuleUnload(c->mod[op][dt]);
    free(c);
    g->combine = NULL;
}
