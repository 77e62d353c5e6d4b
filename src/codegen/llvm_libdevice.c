/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda.libdevice's functions (builtins_libdevice.h). On the GPU a
 * call to libdevice's __nv_NAME, linked from its bitcode as the math
 * library is (libdevice.c). On the cpu targets the row's host column: a C
 * library function of the same signature, or an operation built here
 * ("=OP"), exact where docs/cuda.md § libdevice does not give a bound.
 * Out-pointer parameters are temporaries whose values join the result. */
#include "codegen.h"

#include "../ir/builtins.h"

#include <stdio.h>
#include <string.h>

static const kj_type T_F32 = {.kind = KJ_T_FLOAT, .bits = 32};
static const kj_type T_F64 = {.kind = KJ_T_FLOAT, .bits = 64};
static const kj_type T_I16 = {.kind = KJ_T_INT, .bits = 16, .is_signed = true};
static const kj_type T_I32 = {.kind = KJ_T_INT, .bits = 32, .is_signed = true};
static const kj_type T_I64 = {.kind = KJ_T_INT, .bits = 64, .is_signed = true};

static const kj_type *ltype(char c)
{
    switch (c | 0x20) {
    case 'f': return &T_F32;
    case 'd': return &T_F64;
    case 'h': return &T_I16;
    case 'i': return &T_I32;
    default: return &T_I64;
    }
}

static LLVMTypeRef lltype(kj_cg *cg, char c)
{
    return c == 'v' ? cg->t_void : kj_cg_type(cg, ltype(c));
}

/* Call external function `name` (declared on first use). */
static LLVMValueRef call(kj_cg *cg, const char *name, LLVMTypeRef ret, LLVMTypeRef *pt, LLVMValueRef *a, unsigned n)
{
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
    if (!f) f = LLVMAddFunction(cg->mod, name, LLVMFunctionType(ret, pt, n, 0));
    return LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(f), f, a, n, "");
}

static LLVMValueRef libm1(kj_cg *cg, const char *d, LLVMValueRef x)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    char name[16];
    snprintf(name, sizeof name, "%s%s", d, ty == cg->t_f32 ? "f" : "");
    return call(cg, name, ty, &ty, &x, 1);
}

/* fptosi/fptoui.sat after rounding as `r` says: PTX's cvt saturates and
 * takes NaN to 0, as these do. */
static LLVMValueRef f2i(kj_cg *cg, const char *op, LLVMValueRef x, LLVMTypeRef ret)
{
    const char *r = op + 4; /* "f2s_rn" */
    LLVMTypeRef ft = LLVMTypeOf(x);
    if (!strcmp(r, "rn")) x = kj_cg_intrinsic(cg, "llvm.rint", ft, &x, 1);
    else if (!strcmp(r, "rd")) x = kj_cg_intrinsic(cg, "llvm.floor", ft, &x, 1);
    else if (!strcmp(r, "ru")) x = kj_cg_intrinsic(cg, "llvm.ceil", ft, &x, 1);
    const char *name = op[2] == 'u' ? "llvm.fptoui.sat" : "llvm.fptosi.sat";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef tys[2] = {ret, ft};
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(cg->mod, id, tys, 2);
    return LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, tys, 2), f, &x, 1, "");
}

/* The high half of the double-width product. */
static LLVMValueRef mulhi(kj_cg *cg, LLVMValueRef x, LLVMValueRef y, bool sgn)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    unsigned w = LLVMGetIntTypeWidth(ty);
    LLVMTypeRef wt = LLVMIntTypeInContext(cg->ctx, 2 * w);
    LLVMValueRef a = sgn ? LLVMBuildSExt(cg->b, x, wt, "") : LLVMBuildZExt(cg->b, x, wt, "");
    LLVMValueRef b = sgn ? LLVMBuildSExt(cg->b, y, wt, "") : LLVMBuildZExt(cg->b, y, wt, "");
    LLVMValueRef p = LLVMBuildLShr(cg->b, LLVMBuildMul(cg->b, a, b, ""), LLVMConstInt(wt, w, 0), "");
    return LLVMBuildTrunc(cg->b, p, ty, "");
}

/* hadd/rhadd: (x + y [+ 1]) >> 1 without overflow, in 64 bits. */
static LLVMValueRef halfsum(kj_cg *cg, LLVMValueRef x, LLVMValueRef y, bool sgn, bool round)
{
    LLVMValueRef a = sgn ? LLVMBuildSExt(cg->b, x, cg->t_i64, "") : LLVMBuildZExt(cg->b, x, cg->t_i64, "");
    LLVMValueRef b = sgn ? LLVMBuildSExt(cg->b, y, cg->t_i64, "") : LLVMBuildZExt(cg->b, y, cg->t_i64, "");
    LLVMValueRef s = LLVMBuildAdd(cg->b, a, b, "");
    if (round) s = LLVMBuildAdd(cg->b, s, kj_cg_i64(cg, 1), "");
    s = sgn ? LLVMBuildAShr(cg->b, s, kj_cg_i64(cg, 1), "") : LLVMBuildLShr(cg->b, s, kj_cg_i64(cg, 1), "");
    return LLVMBuildTrunc(cg->b, s, cg->t_i32, "");
}

/* sad/usad: |x - y| + z. */
static LLVMValueRef sad(kj_cg *cg, LLVMValueRef *a, bool sgn)
{
    LLVMValueRef x = sgn ? LLVMBuildSExt(cg->b, a[0], cg->t_i64, "") : LLVMBuildZExt(cg->b, a[0], cg->t_i64, "");
    LLVMValueRef y = sgn ? LLVMBuildSExt(cg->b, a[1], cg->t_i64, "") : LLVMBuildZExt(cg->b, a[1], cg->t_i64, "");
    LLVMValueRef d = LLVMBuildSub(cg->b, x, y, "");
    LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, d, kj_cg_i64(cg, 0), "");
    d = LLVMBuildSelect(cg->b, neg, LLVMBuildNeg(cg->b, d, ""), d, "");
    return LLVMBuildAdd(cg->b, LLVMBuildTrunc(cg->b, d, cg->t_i32, ""), a[2], "");
}

/* byte_perm(x, y, s): byte i of the result is byte ((s >> 4i) & 7) of the
 * eight bytes y:x (x the low half), as PTX's prmt. */
static LLVMValueRef byte_perm(kj_cg *cg, LLVMValueRef *a)
{
    LLVMValueRef v = LLVMBuildOr(cg->b, LLVMBuildZExt(cg->b, a[0], cg->t_i64, ""),
                                 LLVMBuildShl(cg->b, LLVMBuildZExt(cg->b, a[1], cg->t_i64, ""), kj_cg_i64(cg, 32), ""), "");
    LLVMValueRef s = LLVMBuildZExt(cg->b, a[2], cg->t_i64, ""), r = kj_cg_i64(cg, 0);
    for (int i = 0; i < 4; i++) {
        LLVMValueRef sel = LLVMBuildAnd(cg->b, LLVMBuildLShr(cg->b, s, kj_cg_i64(cg, 4 * i), ""), kj_cg_i64(cg, 7), "");
        LLVMValueRef b = LLVMBuildLShr(cg->b, v, LLVMBuildShl(cg->b, sel, kj_cg_i64(cg, 3), ""), "");
        b = LLVMBuildAnd(cg->b, b, kj_cg_i64(cg, 0xff), "");
        r = LLVMBuildOr(cg->b, r, LLVMBuildShl(cg->b, b, kj_cg_i64(cg, 8 * i), ""), "");
    }
    return LLVMBuildTrunc(cg->b, r, cg->t_i32, "");
}

static LLVMValueRef i32_of(kj_cg *cg, LLVMValueRef c) { return LLVMBuildZExt(cg->b, c, cg->t_i32, ""); }

static LLVMValueRef minmax(kj_cg *cg, const char *op, LLVMValueRef *a)
{
    LLVMIntPredicate p = op[0] == 's' ? (op[2] == 'i' ? LLVMIntSLT : LLVMIntSGT)
                                      : (op[2] == 'i' ? LLVMIntULT : LLVMIntUGT);
    return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, p, a[0], a[1], ""), a[0], a[1], "");
}

static LLVMValueRef float_op(kj_cg *cg, const char *op, LLVMValueRef *a, LLVMTypeRef ret)
{
    LLVMTypeRef ft = LLVMTypeOf(a[0]);
    LLVMValueRef one = LLVMConstReal(ft, 1.0);
    if (!strcmp(op, "add")) return LLVMBuildFAdd(cg->b, a[0], a[1], "");
    if (!strcmp(op, "sub")) return LLVMBuildFSub(cg->b, a[0], a[1], "");
    if (!strcmp(op, "mul")) return LLVMBuildFMul(cg->b, a[0], a[1], "");
    if (!strcmp(op, "div")) return LLVMBuildFDiv(cg->b, a[0], a[1], "");
    if (!strcmp(op, "rcp")) return LLVMBuildFDiv(cg->b, one, a[0], "");
    if (!strcmp(op, "rsqrt")) return LLVMBuildFDiv(cg->b, one, kj_cg_intrinsic(cg, "llvm.sqrt", ft, a, 1), "");
    if (!strcmp(op, "rcbrt")) return LLVMBuildFDiv(cg->b, one, libm1(cg, "cbrt", a[0]), "");
    if (!strcmp(op, "powi")) {
        LLVMValueRef b[2] = {a[0], LLVMBuildSIToFP(cg->b, a[1], ft, "")};
        LLVMTypeRef pt[2] = {ft, ft};
        return call(cg, ft == cg->t_f32 ? "powf" : "pow", ft, pt, b, 2);
    }
    if (!strcmp(op, "saturate")) {
        LLVMValueRef m[2] = {a[0], LLVMConstReal(ft, 0.0)};
        m[0] = kj_cg_intrinsic(cg, "llvm.maxnum", ft, m, 2); /* NaN gives 0 */
        m[1] = one;
        return kj_cg_intrinsic(cg, "llvm.minnum", ft, m, 2);
    }
    LLVMValueRef ax = kj_cg_intrinsic(cg, "llvm.fabs", ft, a, 1), inf = LLVMConstReal(ft, __builtin_inf());
    if (!strcmp(op, "isnan")) return i32_of(cg, LLVMBuildFCmp(cg->b, LLVMRealUNO, a[0], a[0], ""));
    if (!strcmp(op, "isinf")) return i32_of(cg, LLVMBuildFCmp(cg->b, LLVMRealOEQ, ax, inf, ""));
    if (!strcmp(op, "isfinite")) return i32_of(cg, LLVMBuildFCmp(cg->b, LLVMRealOLT, ax, inf, ""));
    if (!strcmp(op, "signbit")) { /* 0 or 1, as libdevice's */
        LLVMTypeRef it = ft == cg->t_f32 ? cg->t_i32 : cg->t_i64;
        return i32_of(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, LLVMBuildBitCast(cg->b, a[0], it, ""),
                                        LLVMConstNull(it), ""));
    }
    (void)ret;
    return NULL;
}

static LLVMValueRef int_op(kj_cg *cg, const char *op, LLVMValueRef *a, LLVMTypeRef ret)
{
    LLVMTypeRef ty = LLVMTypeOf(a[0]);
    LLVMValueRef z = LLVMConstNull(ty), a2[2] = {a[0], LLVMConstInt(cg->t_i1, 0, 0)};
    if (!strcmp(op, "popc")) return LLVMBuildTrunc(cg->b, kj_cg_intrinsic(cg, "llvm.ctpop", ty, a, 1), ret, "");
    if (!strcmp(op, "clz")) return LLVMBuildTrunc(cg->b, kj_cg_intrinsic(cg, "llvm.ctlz", ty, a2, 2), ret, "");
    if (!strcmp(op, "brev")) return kj_cg_intrinsic(cg, "llvm.bitreverse", ty, a, 1);
    if (!strcmp(op, "ffs")) { /* 1 + index of the lowest set bit, 0 for 0 */
        LLVMValueRef tz = kj_cg_intrinsic(cg, "llvm.cttz", ty, a2, 2);
        tz = LLVMBuildAdd(cg->b, tz, LLVMConstInt(ty, 1, 0), "");
        LLVMValueRef r = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, a[0], z, ""), z, tz, "");
        return LLVMBuildTrunc(cg->b, r, ret, "");
    }
    if (!strcmp(op, "abs")) /* the most negative value stays itself, as on the GPU */
        return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, a[0], z, ""), LLVMBuildNeg(cg->b, a[0], ""),
                               a[0], "");
    if (!strcmp(op, "smin") || !strcmp(op, "smax") || !strcmp(op, "umin") || !strcmp(op, "umax"))
        return minmax(cg, op, a);
    if (!strcmp(op, "smulhi") || !strcmp(op, "umulhi")) return mulhi(cg, a[0], a[1], op[0] == 's');
    if (!strcmp(op, "shadd") || !strcmp(op, "uhadd")) return halfsum(cg, a[0], a[1], op[0] == 's', false);
    if (!strcmp(op, "srhadd") || !strcmp(op, "urhadd")) return halfsum(cg, a[0], a[1], op[0] == 's', true);
    if (!strcmp(op, "ssad") || !strcmp(op, "usad")) return sad(cg, a, op[0] == 's');
    if (!strcmp(op, "smul24") || !strcmp(op, "umul24")) { /* the low 32 bits of the 24-bit operands' product */
        LLVMValueRef e[2];
        for (int i = 0; i < 2; i++)
            e[i] = op[0] == 's' ? LLVMBuildAShr(cg->b, LLVMBuildShl(cg->b, a[i], kj_cg_i32(cg, 8), ""), kj_cg_i32(cg, 8), "")
                                : LLVMBuildAnd(cg->b, a[i], kj_cg_i32(cg, 0xffffff), "");
        return LLVMBuildMul(cg->b, e[0], e[1], "");
    }
    if (!strcmp(op, "byte_perm")) return byte_perm(cg, a);
    return NULL;
}

/* The cpu targets' operation `op` (the host column after '='). */
static LLVMValueRef host_op(kj_cg *cg, const char *op, LLVMValueRef *a, LLVMTypeRef ret)
{
    LLVMTypeRef at = LLVMTypeOf(a[0]);
    bool fin = at == cg->t_f32 || at == cg->t_f64;
    if (!strncmp(op, "f2", 2)) return f2i(cg, op, a[0], ret);
    if (!strcmp(op, "cvt")) return fin ? LLVMBuildFPTrunc(cg->b, a[0], ret, "") : LLVMBuildSIToFP(cg->b, a[0], ret, "");
    if (!strcmp(op, "ucvt")) return LLVMBuildUIToFP(cg->b, a[0], ret, "");
    if (!strcmp(op, "bits")) return LLVMBuildBitCast(cg->b, a[0], ret, "");
    if (!strcmp(op, "hiint") || !strcmp(op, "loint")) {
        LLVMValueRef v = LLVMBuildBitCast(cg->b, a[0], cg->t_i64, "");
        if (op[0] == 'h') v = LLVMBuildLShr(cg->b, v, kj_cg_i64(cg, 32), "");
        return LLVMBuildTrunc(cg->b, v, cg->t_i32, "");
    }
    if (!strcmp(op, "hilo")) {
        LLVMValueRef hi = LLVMBuildShl(cg->b, LLVMBuildZExt(cg->b, a[0], cg->t_i64, ""), kj_cg_i64(cg, 32), "");
        LLVMValueRef v = LLVMBuildOr(cg->b, hi, LLVMBuildZExt(cg->b, a[1], cg->t_i64, ""), "");
        return LLVMBuildBitCast(cg->b, v, cg->t_f64, "");
    }
    return fin ? float_op(cg, op, a, ret) : int_op(cg, op, a, ret);
}

static bool on_gpu(const kj_cg *cg) { return cg->tgt->name && !strcmp(cg->tgt->name, "nvptx"); }

LLVMValueRef kj_cg_libdevice(kj_cg *cg, const kir_inst *in)
{
    const kj_libdevice_fn *f = kj_libdevice_get((kj_builtin)in->aux);
    LLVMValueRef a[4], outs[3];
    LLVMTypeRef pt[4], outt[3];
    unsigned n = 0, nout = 0, k = 0;
    for (const char *p = f->sig + 1; *p; p++, n++) {
        if (*p >= 'a') {
            const kj_type *at = cg->fn->kf->insts[in->args[k]].type;
            a[n] = kj_cg_cast(cg, kj_cg_val(cg, in->args[k++]), at, ltype(*p));
            pt[n] = LLVMTypeOf(a[n]);
            continue;
        }
        outt[nout] = lltype(cg, *p | 0x20);
        LLVMValueRef tmp = kj_cg_alloca(cg, outt[nout], "out");
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(tmp)) != 0) /* libdevice takes generic pointers */
            tmp = LLVMBuildAddrSpaceCast(cg->b, tmp, LLVMPointerTypeInContext(cg->ctx, 0), "");
        outs[nout++] = a[n] = tmp;
        pt[n] = LLVMTypeOf(tmp);
    }
    LLVMTypeRef ret = lltype(cg, f->sig[0]);
    LLVMValueRef r = NULL;
    if (on_gpu(cg)) {
        char name[48];
        snprintf(name, sizeof name, "__nv_%s", f->name);
        r = call(cg, name, ret, pt, a, n);
    } else if (f->host[0] == '=') {
        r = host_op(cg, f->host + 1, a, ret);
    } else if (f->host[0]) {
        r = call(cg, f->host, ret, pt, a, n);
    }
    if (!r) {
        kj_cg_fail(cg, in->span, "libdevice.%s has no equivalent on the cpu targets in kjit yet (it runs on --target cuda)",
                   f->name);
        return LLVMGetUndef(kj_cg_type(cg, in->type));
    }
    LLVMValueRef vals[4];
    unsigned nv = 0;
    if (f->sig[0] != 'v') vals[nv++] = r;
    for (unsigned i = 0; i < nout; i++) vals[nv++] = LLVMBuildLoad2(cg->b, outt[i], outs[i], "");
    if (nv == 1) return vals[0];
    LLVMValueRef t = LLVMGetUndef(kj_cg_type(cg, in->type));
    for (unsigned i = 0; i < nv; i++) t = LLVMBuildInsertValue(cg->b, t, vals[i], i, "");
    return t;
}
