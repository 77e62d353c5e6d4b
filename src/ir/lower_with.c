/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering of the context managers of numba.cuda that do something at the
 * block's ends (infer_launch.c typed them): `with cuda.profiling():` is
 * profile_start(), the body, profile_stop(); `with cuda.gpus[i]:` is
 * cuda.select_device(i) (kjit has its device from the start, so i must be
 * it: the block then runs on it, as Numba's would); `with cuda.pinned(a)`
 * and `with cuda.mapped(a) as m` evaluate their arrays (kjit pins and maps
 * itself), m being a (or their tuple); `with numba.parallel_chunksize(n):`
 * sets the chunk size for the block and the old one back after it. */
#include "lower_int.h"

#include "builtins.h"

static kir_ref builtin(lctx *lc, kj_builtin b, const kir_ref *args, uint32_t n, kj_span sp)
{
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, kj_t_none(lc->s->types), sp, args, n);
    kir_at(lc->f, r)->aux = b;
    return r;
}

static kir_ref arrays(lctx *lc, const kj_expr *ctx, bool mapped)
{
    uint32_t n = ctx->call.nargs;
    kir_ref el[8] = {0};
    const kj_type *et[8] = {0};
    for (uint32_t i = 0; i < n; i++) {
        kir_ref v = kj_lw_expr(lc, ctx->call.args[i]);
        if (i < 8) el[i] = v, et[i] = lc->sp->ei[ctx->call.args[i]->id].type;
    }
    if (!mapped) return 0;
    if (n == 1) return el[0];
    /* more than 8: refused by infer_launch.c */
    return kj_lw_emit_args(lc, KIR_TUPLE, kj_t_tuple(lc->s->types, et, n), ctx->span, el, n);
}

/* `with parallel_chunksize(n):` enters as set_parallel_chunksize(n), whose
 * result (the old size) the exit sets back. */
static kir_ref chunksize(lctx *lc, const kj_expr *n, kj_span sp)
{
    const kj_type *i64 = kj_t_int(lc->s->types, 64, true);
    kir_ref v = kj_lw_as(lc, n, i64);
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, i64, sp, &v, 1);
    kir_at(lc->f, r)->aux = KJ_B_SET_PAR_CHUNKSIZE;
    return r;
}

/* cuda.gpus[i], in `with` or as a value: device i checked to be kjit's (as cuda.select_device(i)), then
 * the device (the opaque value cuda.get_current_device() gives). */
kir_ref kj_lower_gpus_item(lctx *lc, const kj_expr *ctx)
{
    return kj_lower_gpus_at(lc, kj_lw_as(lc, ctx->sub.index, kj_t_int(lc->s->types, 64, true)), ctx->span);
}

/* device i (an int64), as cuda.gpus[i]; also each device of `for g in cuda.gpus:` (lower_iter.c) */
kir_ref kj_lower_gpus_at(lctx *lc, kir_ref i, kj_span sp)
{
    builtin(lc, KJ_B_CUDA_SELECT_DEVICE, &i, 1, sp);
    kir_ref d = kj_lw_emit_args(lc, KIR_BUILTIN, kj_t_opaque(lc->s->types, "device"), sp, NULL, 0);
    kir_at(lc->f, d)->aux = KJ_B_CUDA_GET_CURRENT_DEVICE;
    return d;
}

kir_ref kj_lower_with_enter(lctx *lc, const kj_stmt *st)
{
    const kj_expr *ctx = st->with.ctx;
    switch (kj_with_of(ctx)) {
    case KJ_WITH_PINNED: return arrays(lc, ctx, false);
    case KJ_WITH_MAPPED: return arrays(lc, ctx, true);
    case KJ_WITH_PROFILING: builtin(lc, KJ_B_CUDA_PROFILE_START, NULL, 0, ctx->span); return 0;
    case KJ_WITH_DEVICE: return kj_lower_gpus_item(lc, ctx);
    case KJ_WITH_CHUNKSIZE: return chunksize(lc, ctx->call.nargs ? ctx->call.args[0] : ctx->call.kw[0].value, ctx->span);
    default: return 0;
    }
}

/* After the body (where it falls through); `entered` is what
 * kj_lower_with_enter gave. */
void kj_lower_with_exit(lctx *lc, const kj_stmt *st, kir_ref entered)
{
    switch (kj_with_of(st->with.ctx)) {
    case KJ_WITH_PROFILING: builtin(lc, KJ_B_CUDA_PROFILE_STOP, NULL, 0, st->with.ctx->span); break;
    case KJ_WITH_CHUNKSIZE: {
        kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, kj_t_int(lc->s->types, 64, true), st->span, &entered, 1);
        kir_at(lc->f, r)->aux = KJ_B_SET_PAR_CHUNKSIZE;
        break;
    }
    default: break;
    }
}
