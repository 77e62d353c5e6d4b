/* SPDX-License-Identifier: BSD-2-Clause */
/* Host code of np.roll, np.tril/triu/tri, np.diag, np.vander, np.take,
 * np.extract, np.delete, np.append, np.fill_diagonal (typed in
 * builtins_np_manip2.c): one kj_rt_manip2 call each, with the operation's
 * arrays as operands and its integers in a small int64 array. */
#include "codegen.h"

#include "../ir/builtins.h"
#include "../abi/abi.h"
#include "../runtime/array_manip2.h"

static const kj_type *type_of(kj_cg *cg, kir_ref r) { return cg->fn->kf->insts[r].type; }

static bool has_arg(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    return k < in->nargs && in->args[k] && type_of(cg, in->args[k])->kind != KJ_T_NONE;
}

/* Argument k as int64 (typing converted ints and bools), or `dflt` when absent. */
static LLVMValueRef int_or(kj_cg *cg, const kir_inst *in, uint32_t k, LLVMValueRef dflt)
{
    static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
    if (!has_arg(cg, in, k)) return dflt;
    return kj_cg_cast(cg, kj_cg_val(cg, in->args[k]), type_of(cg, in->args[k]), &T_I64);
}

static int op_of(int b)
{
    switch (b) {
    case KJ_B_NP_ROLL: return KJ_M2_ROLL;
    case KJ_B_NP_TRIL: return KJ_M2_TRIL;
    case KJ_B_NP_TRIU: return KJ_M2_TRIU;
    case KJ_B_NP_TRI: return KJ_M2_TRI;
    case KJ_B_NP_DIAG: return KJ_M2_DIAG;
    case KJ_B_NP_VANDER: return KJ_M2_VANDER;
    case KJ_B_NP_EXTRACT: return KJ_M2_EXTRACT;
    case KJ_B_NP_DELETE: return KJ_M2_DELETE;
    case KJ_B_NP_APPEND: return KJ_M2_APPEND;
    case KJ_B_NP_FILL_DIAGONAL: return KJ_M2_FILL_DIAG;
    case KJ_B_NP_TILE: return KJ_M2_TILE;
    case KJ_B_NP_ROT90: return KJ_M2_ROT90;
    default: return KJ_M2_TAKE;
    }
}

/* The integer arguments of op into p (kj_array_manip2's layout). */
static void int_params(kj_cg *cg, const kir_inst *in, int op, LLVMValueRef *p)
{
    LLVMValueRef zero = kj_cg_i64(cg, 0);
    switch (op) {
    case KJ_M2_ROLL: case KJ_M2_TRIL: case KJ_M2_TRIU: case KJ_M2_DIAG: p[0] = int_or(cg, in, 1, zero); break;
    case KJ_M2_TRI: /* N, M (default N), k */
        p[0] = int_or(cg, in, 0, zero);
        p[1] = int_or(cg, in, 1, p[0]);
        p[2] = int_or(cg, in, 2, zero);
        break;
    case KJ_M2_VANDER: /* N, whether N was given, increasing */
        p[0] = int_or(cg, in, 1, zero);
        p[1] = kj_cg_i64(cg, has_arg(cg, in, 1));
        p[2] = int_or(cg, in, 2, zero);
        break;
    case KJ_M2_TILE: /* reps: an int or a tuple; their count in p[4] */
        if (type_of(cg, in->args[1])->kind == KJ_T_TUPLE) {
            const kj_type *t = type_of(cg, in->args[1]);
            for (unsigned k = 0; k < t->n && k < 4; k++) p[k] = LLVMBuildExtractValue(cg->b, kj_cg_val(cg, in->args[1]), k, "");
            p[4] = kj_cg_i64(cg, t->n);
        } else {
            p[0] = int_or(cg, in, 1, zero);
            p[4] = kj_cg_i64(cg, 1);
        }
        break;
    case KJ_M2_ROT90: /* k (1), axes (0, 1) */
        p[0] = int_or(cg, in, 1, kj_cg_i64(cg, 1));
        p[1] = zero;
        p[2] = kj_cg_i64(cg, 1);
        if (has_arg(cg, in, 2)) {
            p[1] = LLVMBuildExtractValue(cg->b, kj_cg_val(cg, in->args[2]), 0, "");
            p[2] = LLVMBuildExtractValue(cg->b, kj_cg_val(cg, in->args[2]), 1, "");
        }
        break;
    default: break;
    }
}

/* np.split/array_split: indices given as a tuple go to the runtime as a 1-d
 * int64 array over a stack copy of the tuple. */
static LLVMValueRef b_split(kj_cg *cg, const kir_inst *in)
{
    LLVMValueRef a[3], ix[3];
    kj_cg_operand(cg, in->args[0], a);
    const kj_type *it = type_of(cg, in->args[1]);
    if (it->kind == KJ_T_TUPLE) {
        unsigned n = it->n;
        LLVMValueRef buf = kj_cg_alloca(cg, LLVMArrayType2(cg->t_i64, n ? n : 1), "split.ix");
        LLVMValueRef tup = kj_cg_val(cg, in->args[1]);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef idx[2] = {kj_cg_i64(cg, 0), kj_cg_i64(cg, k)};
            LLVMBuildStore(cg->b, LLVMBuildExtractValue(cg->b, tup, k, ""),
                           LLVMBuildInBoundsGEP2(cg->b, LLVMArrayType2(cg->t_i64, n ? n : 1), buf, idx, 2, ""));
        }
        LLVMValueRef d = LLVMGetUndef(kj_cg_array_type(cg, 1));
        d = LLVMBuildInsertValue(cg->b, d, buf, 0, "");
        LLVMValueRef sh = LLVMBuildInsertValue(cg->b, LLVMGetUndef(LLVMArrayType2(cg->t_i64, 1)), kj_cg_i64(cg, n), 0, "");
        LLVMValueRef st = LLVMBuildInsertValue(cg->b, LLVMGetUndef(LLVMArrayType2(cg->t_i64, 1)), kj_cg_i64(cg, 8), 0, "");
        d = LLVMBuildInsertValue(cg->b, d, sh, 1, "");
        d = LLVMBuildInsertValue(cg->b, d, st, 2, "");
        d = LLVMBuildInsertValue(cg->b, d, LLVMConstNull(cg->t_ptr), 3, "");
        ix[0] = kj_cg_spill(cg, d);
        ix[1] = kj_cg_i32(cg, 1);
        ix[2] = kj_cg_i32(cg, KJ_DT_INT64);
    } else {
        kj_cg_operand(cg, in->args[1], ix);
    }
    LLVMValueRef args[11] = {cg->fn->rt, a[0], a[1], a[2], ix[0], ix[1], ix[2], int_or(cg, in, 2, kj_cg_i64(cg, 0)),
                             kj_cg_i32(cg, in->aux == KJ_B_NP_ARRAY_SPLIT), kj_cg_line(cg, in), kj_cg_col(cg, in)};
    return kj_cg_rtcall(cg, KJ_RTF_SPLIT, args, 11);
}

LLVMValueRef kj_cg_np_manip2(kj_cg *cg, const kir_inst *in)
{
    if (in->aux == KJ_B_NP_SPLIT || in->aux == KJ_B_NP_ARRAY_SPLIT) return b_split(cg, in);
    int op = op_of(in->aux);
    LLVMValueRef p[5];
    for (unsigned k = 0; k < 5; k++) p[k] = kj_cg_i64(cg, 0);
    int_params(cg, in, op, p);
    LLVMValueRef pa = LLVMGetUndef(LLVMArrayType2(cg->t_i64, 5));
    for (unsigned k = 0; k < 5; k++) pa = LLVMBuildInsertValue(cg->b, pa, p[k], k, "");
    LLVMValueRef a[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, 0), kj_cg_i32(cg, 0)};
    LLVMValueRef b[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, 0), kj_cg_i32(cg, 0)};
    if (op != KJ_M2_TRI) kj_cg_operand(cg, in->args[0], a);
    bool two = op == KJ_M2_TAKE || op == KJ_M2_EXTRACT || op == KJ_M2_DELETE || op == KJ_M2_APPEND ||
               op == KJ_M2_FILL_DIAG;
    if (two) kj_cg_operand(cg, in->args[1], b);
    bool none = op == KJ_M2_FILL_DIAG;
    int nd = none ? 0 : in->type->ndim;
    LLVMValueRef out = none ? LLVMConstNull(cg->t_ptr) : kj_cg_out_desc(cg, nd);
    int to = none ? 0 : kj_cg_dtype(in->type->elem);
    LLVMValueRef args[14] = {cg->fn->rt, kj_cg_i32(cg, op), a[0], a[1], a[2], b[0], b[1], b[2],
                             kj_cg_spill(cg, pa), kj_cg_i32(cg, to), out, kj_cg_i32(cg, nd), kj_cg_line(cg, in),
                             kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_MANIP2, args, 14);
    if (none) return kj_cg_zero(cg, in->type);
    return LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, nd), out, "arr");
}
