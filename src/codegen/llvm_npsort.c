/* SPDX-License-Identifier: BSD-2-Clause */
/* Host lowering of KJ_BUILTINS_NPSORT (builtins_npsort.h): each call is one
 * kj_rt_npsort with its operation code (abi_npsort.h), operands and
 * parameters; the result comes back as a scalar in memory, an array
 * descriptor, or (np.histogram) two descriptors made into a tuple. */
#include "codegen.h"

#include "../abi/abi_npsort.h"
#include "../ir/builtins.h"
#include "../runtime/array_sort.h"

#include <string.h>

static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};

static const kir_inst *inst_at(kj_cg *cg, kir_ref r) { return &cg->fn->kf->insts[r]; }

/* Argument k, or 0 when absent (not given, or None). */
static kir_ref arg(kj_cg *cg, const kir_inst *in, uint32_t k)
{
    if (k >= in->nargs || !in->args[k]) return 0;
    return inst_at(cg, in->args[k])->type->kind == KJ_T_NONE ? 0 : in->args[k];
}

static LLVMValueRef i64_or(kj_cg *cg, const kir_inst *in, uint32_t k, int64_t dflt)
{
    kir_ref r = arg(cg, in, k);
    return r ? kj_cg_cast(cg, kj_cg_val(cg, r), inst_at(cg, r)->type, &T_I64) : kj_cg_i64(cg, dflt);
}

/* A constant string argument equal to `s` (typing made sure it is one). */
static bool str_is(kj_cg *cg, const kir_inst *in, uint32_t k, const char *s)
{
    kir_ref r = arg(cg, in, k);
    return r && inst_at(cg, r)->op == KIR_CONST_STR && !strcmp(inst_at(cg, r)->s, s);
}

typedef struct {
    int op;
    kir_ref b, c;         /* the second and third operands, or 0 */
    LLVMValueRef i0, i1, f0, f1;
} call_args;

static int nan_op(int id)
{
    switch (id) {
    case KJ_B_NP_NANSUM: return KJ_NAN_SUM;
    case KJ_B_NP_NANPROD: return KJ_NAN_PROD;
    case KJ_B_NP_NANMEAN: return KJ_NAN_MEAN;
    case KJ_B_NP_NANVAR: return KJ_NAN_VAR;
    case KJ_B_NP_NANSTD: return KJ_NAN_STD;
    case KJ_B_NP_NANMIN: return KJ_NAN_MIN;
    case KJ_B_NP_NANMAX: return KJ_NAN_MAX;
    case KJ_B_NP_NANARGMIN: return KJ_NAN_ARGMIN;
    case KJ_B_NP_NANARGMAX: return KJ_NAN_ARGMAX;
    default: return KJ_PTP;
    }
}

/* np.histogram's bins= (an int, or the edges as operand b) and range=. */
static void histogram_args(kj_cg *cg, const kir_inst *in, call_args *c)
{
    kir_ref bins = arg(cg, in, 1), range = arg(cg, in, 2);
    if (bins && inst_at(cg, bins)->type->kind == KJ_T_ARRAY) c->b = bins;
    else c->i0 = i64_or(cg, in, 1, 10);
    if (range) {
        LLVMValueRef t = kj_cg_val(cg, range);
        c->i1 = kj_cg_i64(cg, 1);
        c->f0 = LLVMBuildExtractValue(cg->b, t, 0, "");
        c->f1 = LLVMBuildExtractValue(cg->b, t, 1, "");
    }
}

static void stats_args(kj_cg *cg, const kir_inst *in, call_args *c)
{
    int id = in->aux;
    switch (id) {
    case KJ_B_NP_MEDIAN: case KJ_B_NP_NANMEDIAN:
        c->op = KJ_NPS_MEDIAN;
        c->i0 = kj_cg_i64(cg, id == KJ_B_NP_NANMEDIAN);
        break;
    case KJ_B_NP_PERCENTILE: case KJ_B_NP_QUANTILE: case KJ_B_NP_NANPERCENTILE: case KJ_B_NP_NANQUANTILE:
        c->op = KJ_NPS_QUANTILE;
        c->b = in->args[1];
        c->i0 = kj_cg_i64(cg, id == KJ_B_NP_NANPERCENTILE || id == KJ_B_NP_NANQUANTILE);
        c->i1 = kj_cg_i64(cg, id == KJ_B_NP_PERCENTILE || id == KJ_B_NP_NANPERCENTILE);
        break;
    case KJ_B_NP_BINCOUNT:
        c->op = KJ_NPS_BINCOUNT;
        c->b = arg(cg, in, 1);
        c->i0 = i64_or(cg, in, 2, 0);
        break;
    case KJ_B_NP_DIFF: c->op = KJ_NPS_DIFF, c->i0 = i64_or(cg, in, 1, 1), c->i1 = i64_or(cg, in, 2, -1); break;
    case KJ_B_NP_DIGITIZE:
        c->op = KJ_NPS_DIGITIZE;
        c->b = in->args[1];
        c->i0 = i64_or(cg, in, 2, 0);
        break;
    case KJ_B_NP_HISTOGRAM: c->op = KJ_NPS_HISTOGRAM, histogram_args(cg, in, c); break;
    case KJ_B_NP_HISTOGRAM_BIN_EDGES: c->op = KJ_NPS_BIN_EDGES, histogram_args(cg, in, c); break;
    default:
        c->op = KJ_NPS_NANREDUCE;
        c->i0 = kj_cg_i64(cg, nan_op(id));
        c->i1 = id == KJ_B_NP_NANVAR || id == KJ_B_NP_NANSTD ? i64_or(cg, in, 1, 0) : kj_cg_i64(cg, 0);
        break;
    }
}

static int set_op(int id)
{
    switch (id) {
    case KJ_B_NP_UNION1D: return KJ_SET_UNION;
    case KJ_B_NP_INTERSECT1D: return KJ_SET_INTERSECT;
    case KJ_B_NP_SETDIFF1D: return KJ_SET_DIFF;
    case KJ_B_NP_SETXOR1D: return KJ_SET_XOR;
    case KJ_B_NP_IN1D: return KJ_SET_IN1D;
    default: return KJ_SET_ISIN;
    }
}

/* Partitions, sets, ediff1d, trapz, interp, average. */
static void more_args(kj_cg *cg, const kir_inst *in, call_args *c)
{
    int id = in->aux;
    switch (id) {
    case KJ_B_NP_PARTITION: case KJ_B_NP_ARGPARTITION:
        c->op = KJ_NPS_PARTITION;
        c->i0 = i64_or(cg, in, 1, 0);
        c->i1 = kj_cg_i64(cg, id == KJ_B_NP_ARGPARTITION);
        break;
    case KJ_B_NP_EDIFF1D: c->op = KJ_NPS_EDIFF1D; break;
    case KJ_B_NP_TRAPZ: {
        c->op = KJ_NPS_TRAPZ;
        c->b = arg(cg, in, 1);
        kir_ref dx = arg(cg, in, 2);
        if (dx) c->f0 = kj_cg_cast(cg, kj_cg_val(cg, dx), inst_at(cg, dx)->type, &T_F64);
        else c->f0 = LLVMConstReal(cg->t_f64, 1.0);
        break;
    }
    case KJ_B_NP_INTERP: c->op = KJ_NPS_INTERP, c->b = in->args[1], c->c = in->args[2]; break;
    case KJ_B_NP_AVERAGE: c->op = KJ_NPS_AVERAGE, c->b = arg(cg, in, 1); break;
    case KJ_B_NP_AROUND: c->op = KJ_NPS_ROUND, c->i0 = i64_or(cg, in, 1, 0); break;
    default:
        c->op = KJ_NPS_SETOP;
        c->b = in->args[1];
        c->i0 = kj_cg_i64(cg, set_op(id));
        if (id == KJ_B_NP_IN1D || id == KJ_B_NP_ISIN) c->i1 = i64_or(cg, in, 3, 0); /* invert= */
        break;
    }
}

static void fill_args(kj_cg *cg, const kir_inst *in, call_args *c)
{
    c->b = c->c = 0;
    c->i0 = c->i1 = kj_cg_i64(cg, 0);
    c->f0 = c->f1 = LLVMConstReal(cg->t_f64, 0);
    switch (in->aux) {
    case KJ_B_NP_SORT: c->op = KJ_NPS_SORT; break;
    case KJ_B_ARR_SORT: c->op = KJ_NPS_SORT_INPLACE; break;
    case KJ_B_NP_ARGSORT: case KJ_B_ARR_ARGSORT: c->op = KJ_NPS_ARGSORT; break;
    case KJ_B_NP_SEARCHSORTED:
        c->op = KJ_NPS_SEARCHSORTED;
        c->b = in->args[1];
        c->i0 = kj_cg_i64(cg, str_is(cg, in, 2, "right"));
        break;
    case KJ_B_NP_UNIQUE: c->op = KJ_NPS_UNIQUE; break;
    default:
        if (in->aux >= KJ_B_NP_PARTITION && in->aux != KJ_B_NP_HISTOGRAM_BIN_EDGES) more_args(cg, in, c);
        else stats_args(cg, in, c);
        break;
    }
}

LLVMValueRef kj_cg_npsort(kj_cg *cg, const kir_inst *in)
{
    call_args c;
    fill_args(cg, in, &c);
    LLVMValueRef a[3], b[3] = {LLVMConstNull(cg->t_ptr), kj_cg_i32(cg, -1), kj_cg_i32(cg, 0)}, d[3];
    memcpy(d, b, sizeof d);
    kj_cg_operand(cg, in->args[0], a);
    if (c.b) kj_cg_operand(cg, c.b, b);
    if (c.c) kj_cg_operand(cg, c.c, d);
    const kj_type *t = in->type;
    bool tuple = t->kind == KJ_T_TUPLE, none = t->kind == KJ_T_NONE;
    const kj_type *rt = tuple ? t->elems[0] : t;
    int nd = rt->kind == KJ_T_ARRAY ? (int)rt->ndim : 0;
    LLVMValueRef out = none ? LLVMConstNull(cg->t_ptr)
                       : nd ? kj_cg_out_desc(cg, nd)
                            : kj_cg_alloca(cg, kj_cg_memtype(cg, rt), "res");
    LLVMValueRef out2 = tuple ? kj_cg_out_desc(cg, 1) : LLVMConstNull(cg->t_ptr);
    int rdt = none ? 0 : kj_cg_dtype(nd ? rt->elem : rt);
    LLVMValueRef args[21] = {cg->fn->rt, kj_cg_i32(cg, c.op), a[0], a[1], a[2], b[0], b[1], b[2], d[0], d[1], d[2],
                             c.i0, c.i1, c.f0, c.f1, kj_cg_i32(cg, rdt), out,
                             kj_cg_i32(cg, nd), out2, kj_cg_line(cg, in), kj_cg_col(cg, in)};
    kj_cg_rtcall(cg, KJ_RTF_NPSORT, args, 21);
    if (none) return kj_cg_zero(cg, t);
    if (!nd) return kj_cg_from_mem(cg, rt, LLVMBuildLoad2(cg->b, kj_cg_memtype(cg, rt), out, ""));
    LLVMValueRef v = LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, nd), out, "arr");
    if (!tuple) return v;
    LLVMValueRef tv = LLVMGetUndef(kj_cg_type(cg, t));
    tv = LLVMBuildInsertValue(cg->b, tv, v, 0, "");
    return LLVMBuildInsertValue(cg->b, tv, LLVMBuildLoad2(cg->b, kj_cg_array_type(cg, 1), out2, "edges"), 1, "");
}
