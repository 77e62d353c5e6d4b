/* SPDX-License-Identifier: BSD-2-Clause */
/* cuda.select_device, cuda.gpus and mpi4py's API in host code (docs/scale-out.md): each communicator method
 * is one call of kj_rt_mpi (src/abi/rtfns.def) with the operation code of
 * abi_mpi.h. Values: a communicator is the constant KJ_ABI_MPI_COMM_WORLD,
 * an op (MPI.SUM) its KJ_MPI_OP_* code, a request the integer kj_rt_mpi
 * returned; all three are opaque pointers in registers. */
#include "codegen.h"

#include "../abi/abi_mpi.h"
#include "../ir/builtins.h"

enum { KJ_MPI_CHECKED = 0x100 }; /* rt_mpi.c: the call's function has boundscheck */

static const kj_type *type_at(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

/* Argument k, or 0 when absent (not given, or None). */
static kir_ref arg(const kj_cg *cg, const kir_inst *in, uint32_t k)
{
    if (k >= in->nargs || !in->args[k]) return 0;
    return cg->fn->kf->insts[in->args[k]].type->kind == KJ_T_NONE ? 0 : in->args[k];
}

static LLVMValueRef handle(kj_cg *cg, int64_t v) { return LLVMConstIntToPtr(kj_cg_i64(cg, v), cg->t_ptr); }

/* Integer argument k as i64 (typing converted it), or dflt when absent. */
static LLVMValueRef int_or(kj_cg *cg, const kir_inst *in, uint32_t k, int64_t dflt)
{
    kir_ref r = arg(cg, in, k);
    return r ? kj_cg_val(cg, r) : kj_cg_i64(cg, dflt);
}

/* An opaque value (op, request) as the i64 the runtime takes. */
static LLVMValueRef opaque_or(kj_cg *cg, const kir_inst *in, uint32_t k, int64_t dflt)
{
    kir_ref r = arg(cg, in, k);
    return r ? LLVMBuildPtrToInt(cg->b, kj_cg_val(cg, r), cg->t_i64, "h") : kj_cg_i64(cg, dflt);
}

typedef struct mpi_call {
    kj_abi_mpi_op op;
    kir_ref a, b;         /* buffers (operands), 0 when unused */
    LLVMValueRef ints[4]; /* NULL: 0 */
} mpi_call;

/* kj_rt_mpi(rt, op, a operand, b operand, ints, line, col); an operand is
 * (pointer, ndim, dtype), NULL for none. */
static LLVMValueRef emit(kj_cg *cg, const kir_inst *in, kj_abi_mpi_op op, const LLVMValueRef *oa,
                        const LLVMValueRef *ob, LLVMValueRef *const ints)
{
    int32_t code = (int32_t)op | (cg->fn->kf->boundscheck ? KJ_MPI_CHECKED : 0);
    LLVMValueRef null3[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, 0), kj_cg_i32(cg, 0)};
    if (!oa) oa = null3;
    if (!ob) ob = null3;
    LLVMValueRef a[14] = {cg->fn->rt, kj_cg_i32(cg, code), oa[0], oa[1], oa[2], ob[0], ob[1], ob[2]};
    for (int k = 0; k < 4; k++) a[8 + k] = ints && ints[k] ? ints[k] : kj_cg_i64(cg, 0);
    a[12] = kj_cg_line(cg, in);
    a[13] = kj_cg_col(cg, in);
    return kj_cg_rtcall(cg, KJ_RTF_MPI, a, 14);
}

static LLVMValueRef call(kj_cg *cg, const kir_inst *in, mpi_call *c)
{
    LLVMValueRef oa[3], ob[3];
    if (c->a) kj_cg_operand(cg, c->a, oa);
    if (c->b) kj_cg_operand(cg, c->b, ob);
    return emit(cg, in, c->op, c->a ? oa : NULL, c->b ? ob : NULL, c->ints);
}

/* comm.allreduce(x, op) / comm.bcast(x, root): x in memory, in place. */
static LLVMValueRef scalar_obj(kj_cg *cg, const kir_inst *in, kj_abi_mpi_op op, LLVMValueRef i0)
{
    const kj_type *t = in->type;
    LLVMValueRef p = kj_cg_spill(cg, kj_cg_to_mem(cg, t, kj_cg_val(cg, in->args[1])));
    LLVMValueRef oa[3] = {p, kj_cg_i32(cg, 0), kj_cg_i32(cg, kj_cg_dtype(t))}, ints[4] = {i0};
    emit(cg, in, op, oa, NULL, ints);
    return kj_cg_from_mem(cg, t, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, t), p, "obj"));
}

/* MPI.Request.Waitall(requests): the tuple's pointers are the handles. */
static LLVMValueRef waitall(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef oa[3] = {kj_cg_spill(cg, kj_cg_val(cg, in->args[0])), kj_cg_i32(cg, 0), kj_cg_i32(cg, 0)};
    LLVMValueRef ints[4] = {kj_cg_i64(cg, type_at(cg, in->args[0])->n)};
    emit(cg, in, KJ_MPI_WAITALL, oa, NULL, ints);
    return kj_cg_zero(cg, in->type);
}

static LLVMValueRef as_request(kj_cg *cg, LLVMValueRef h) { return LLVMBuildIntToPtr(cg->b, h, cg->t_ptr, "request"); }

LLVMValueRef kj_cg_mpi(kj_cg *cg, const kir_inst *in)
{
    mpi_call c = {0};
    switch ((kj_builtin)in->aux) {
    case KJ_B_CUDA_SELECT_DEVICE: {
        LLVMValueRef a[4] = {cg->fn->rt, kj_cg_val(cg, in->args[0]), kj_cg_line(cg, in), kj_cg_col(cg, in)};
        kj_cg_rtcall(cg, KJ_RTF_SELECT_DEVICE, a, 4);
        return kj_cg_zero(cg, in->type);
    }
    case KJ_B_CUDA_GPUS: /* the device count, as the opaque value len() reads */
        return LLVMBuildIntToPtr(cg->b, kj_cg_rtcall(cg, KJ_RTF_GPU_COUNT, &cg->fn->rt, 1), cg->t_ptr, "gpus");
    case KJ_B_MPI_COMM_WORLD: return handle(cg, KJ_ABI_MPI_COMM_WORLD);
    case KJ_B_MPI_SUM: return handle(cg, KJ_MPI_OP_SUM);
    case KJ_B_MPI_MAX: return handle(cg, KJ_MPI_OP_MAX);
    case KJ_B_MPI_MIN: return handle(cg, KJ_MPI_OP_MIN);
    case KJ_B_MPI_ANY_SOURCE: case KJ_B_MPI_ANY_TAG: return kj_cg_i64(cg, -1);
    case KJ_B_MPI_PROC_NULL: return kj_cg_i64(cg, -2);
    case KJ_B_MPI_WTIME: {
        LLVMValueRef a[3] = {cg->fn->rt, kj_cg_line(cg, in), kj_cg_col(cg, in)};
        return kj_cg_rtcall(cg, KJ_RTF_MPI_WTIME, a, 3);
    }
    case KJ_B_MPI_WAITALL: return waitall(cg, in);
    case KJ_B_COMM_GET_RANK: case KJ_B_COMM_RANK: c.op = KJ_MPI_GET_RANK; return call(cg, in, &c);
    case KJ_B_COMM_GET_SIZE: case KJ_B_COMM_SIZE: c.op = KJ_MPI_GET_SIZE; return call(cg, in, &c);
    case KJ_B_COMM_BARRIER: c.op = KJ_MPI_BARRIER; break;
    case KJ_B_COMM_SEND: case KJ_B_COMM_ISEND:
        c = (mpi_call){in->aux == KJ_B_COMM_SEND ? KJ_MPI_SEND : KJ_MPI_ISEND, in->args[1], 0,
                       {int_or(cg, in, 2, 0), int_or(cg, in, 3, 0)}};
        break;
    case KJ_B_COMM_RECV: case KJ_B_COMM_IRECV: /* source and tag default to ANY */
        c = (mpi_call){in->aux == KJ_B_COMM_RECV ? KJ_MPI_RECV : KJ_MPI_IRECV, in->args[1], 0,
                       {int_or(cg, in, 2, -1), int_or(cg, in, 3, -1)}};
        break;
    case KJ_B_COMM_SENDRECV:
        c = (mpi_call){KJ_MPI_SENDRECV, in->args[1], in->args[4],
                       {int_or(cg, in, 2, 0), int_or(cg, in, 3, 0), int_or(cg, in, 5, -1), int_or(cg, in, 6, -1)}};
        break;
    case KJ_B_COMM_BCAST: c = (mpi_call){KJ_MPI_BCAST, in->args[1], 0, {int_or(cg, in, 2, 0)}}; break;
    case KJ_B_COMM_ALLREDUCE:
        c = (mpi_call){KJ_MPI_ALLREDUCE, in->args[1], in->args[2], {opaque_or(cg, in, 3, KJ_MPI_OP_SUM)}};
        break;
    case KJ_B_COMM_REDUCE:
        c = (mpi_call){KJ_MPI_REDUCE, in->args[1], in->args[2],
                       {opaque_or(cg, in, 3, KJ_MPI_OP_SUM), int_or(cg, in, 4, 0)}};
        break;
    case KJ_B_COMM_ALLREDUCE_OBJ: return scalar_obj(cg, in, KJ_MPI_ALLREDUCE, opaque_or(cg, in, 2, KJ_MPI_OP_SUM));
    case KJ_B_COMM_BCAST_OBJ: return scalar_obj(cg, in, KJ_MPI_BCAST, int_or(cg, in, 2, 0));
    case KJ_B_REQUEST_WAIT:
        c = (mpi_call){KJ_MPI_WAIT, 0, 0, {LLVMBuildPtrToInt(cg->b, kj_cg_val(cg, in->args[0]), cg->t_i64, "h")}};
        break;
    default:
        kj_cg_fail(cg, in->span, "internal error: no MPI lowering for built-in %d", in->aux);
        return kj_cg_zero(cg, in->type);
    }
    LLVMValueRef r = call(cg, in, &c);
    return c.op == KJ_MPI_ISEND || c.op == KJ_MPI_IRECV ? as_request(cg, r) : kj_cg_zero(cg, in->type);
}

