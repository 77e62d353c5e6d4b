/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing rules of the built-in table (builtins.c) for numba.cuda's host
 * side, mpi4py, and numba.cuda inside kernels. */
#include "builtins_int.h"

#include <stdio.h>
#include <string.h>

/* ---- typing: host side of numba.cuda -------------------------------------------- */

/* cuda.device_array(shape, dtype=, stream=, order='C'): order='F' makes a
 * Fortran-ordered array (codegen: the transpose of a C array of the reversed shape). */
const kj_type *kj_btype_device_array(bctx *c)
{
    const kj_type *dt = ty(c, 1);
    if (dt && dt->kind == KJ_T_OPAQUE && !strcmp(dt->name, "xoroshiro128p_dtype")) { /* random states */
        const kj_type *s = ty(c, 0);
        bool ok = kj_is_int(s) || (s && s->kind == KJ_T_TUPLE && s->n == 1 && kj_is_int(s->elems[0]));
        if (!ok) return argerr(c, 0, "an int or a 1-tuple (xoroshiro128p states are 1-d)");
        if (given(c, 3) && (!c->args[3].sval || strcmp(c->args[3].sval, "C"))) return argerr(c, 3, "'C'");
        return kj_t_xoro_states(c->t);
    }
    const kj_type *a = kj_btype_alloc(c);
    if (!a || !given(c, 3)) return a;
    const char *o = c->args[3].sval;
    if (!o || (strcmp(o, "C") && strcmp(o, "F"))) return argerr(c, 3, "'C' or 'F'");
    return *o == 'F' && a->ndim > 1 ? kj_t_array(c->t, a->elem, a->ndim, KJ_LAYOUT_F) : a;
}

const kj_type *kj_btype_cuda_host(bctx *c)
{
    switch (c->id) {
    case KJ_B_CUDA_TO_DEVICE:
        /* a list or tuple display goes up as np.array(obj) would make it (lower.c) */
        if (ty(c, 0) && (ty(c, 0)->kind == KJ_T_TUPLE || ty(c, 0)->kind == KJ_T_LIST)) {
            const kj_type *a = kj_type_np_manip(c->t, KJ_B_NP_ARRAY, c->args, 1, c->call, c->src, c->d, c->conv);
            return a && stream_arg(c, 1) ? a : NULL;
        }
        if (!is_array(ty(c, 0)) && !kj_record_of(ty(c, 0))) return argerr(c, 0, "an array or a record");
        return stream_arg(c, 1) ? ty(c, 0) : NULL; /* a record: numba-cuda's DeviceRecord (llvm_record.c) */
    case KJ_B_CUDA_DEVICE_ARRAY: { /* numba-cuda's order: shape, dtype, strides, order, stream */
        const kj_type *a = stream_arg(c, 4) ? kj_btype_device_array(c) : NULL;
        return a && given(c, 2) ? kj_btype_device_array_strides(c, a) : a;
    }
    case KJ_B_CUDA_DEVICE_ARRAY_LIKE: {
        /* Numba orders the new array as ary when ary is F- and not C-contiguous, else C */
        const kj_type *a = ty(c, 0);
        if (!is_array(a)) return argerr(c, 0, "an array");
        if (!stream_arg(c, 1)) return NULL;
        return kj_t_array(c->t, a->elem, a->ndim, a->layout == KJ_LAYOUT_F && a->ndim > 1 ? KJ_LAYOUT_F : KJ_LAYOUT_C);
    }
    case KJ_B_CUDA_SYNCHRONIZE: return none(c);
    case KJ_B_KJIT_ON_DEVICE: return is_array(ty(c, 0)) ? kj_t_bool(c->t) : argerr(c, 0, "an array");
    case KJ_B_KJIT_GPU_MATMUL: { /* two matrices of one float dtype (kir_matmul_gpu.c) */
        const kj_type *a = ty(c, 0), *b = ty(c, 1);
        if (!is_array(a) || a->ndim != 2 || a->elem->kind != KJ_T_FLOAT || a->elem->bits < 32)
            return argerr(c, 0, "a 2-d float32 or float64 array");
        if (!is_array(b) || b->ndim != 2 || b->elem != a->elem) return argerr(c, 1, "a 2-d array of a's dtype");
        return kj_t_array(c->t, a->elem, 2, KJ_LAYOUT_C);
    }
    case KJ_B_CUDA_STREAM: return kj_t_opaque(c->t, "stream");
    case KJ_B_CUDA_EVENT:
        if (given(c, 0) && !num_arg(c, 0, kj_t_bool(c->t))) return NULL;
        return kj_t_opaque(c->t, "event");
    case KJ_B_CUDA_EVENT_ELAPSED_TIME: case KJ_B_EVENT_ELAPSED_TIME: /* e.elapsed_time(end) */
        /* Numba returns the milliseconds as a Python float computed from a
         * float32 (cuEventElapsedTime). */
        if (!opaque_arg(c, 0, "event") || !opaque_arg(c, 1, "event")) return NULL;
        return kj_t_float(c->t, 32);
    case KJ_B_STREAM_SYNCHRONIZE: return opaque_arg(c, 0, "stream") ? none(c) : NULL;
    case KJ_B_EVENT_RECORD:
        return opaque_arg(c, 0, "event") && stream_arg(c, 1) ? none(c) : NULL;
    case KJ_B_EVENT_SYNCHRONIZE: return opaque_arg(c, 0, "event") ? none(c) : NULL;
    default: return kj_bno_rule(c);
    }
}

/* ---- typing: mpi4py --------------------------------------------------------------- */

static const kj_type *opaque(bctx *c, const char *name) { return kj_t_opaque(c->t, name); }

/* A buffer: an array of any dtype, dimensions and strides (mpi4py takes
 * contiguous arrays only; kjit packs strided views, docs/scale-out.md). */
static bool buf_arg(bctx *c, uint32_t i)
{
    return is_array(ty(c, i)) || bad_arg(c, i, "an array (a NumPy buffer)");
}

/* A buffer that MPI reduces: Open MPI has no float16 (sends move it as uint16). */
static bool red_buf_arg(bctx *c, uint32_t i)
{
    if (!buf_arg(c, i)) return false;
    const kj_type *e = ty(c, i)->elem;
    return !(e->kind == KJ_T_FLOAT && e->bits == 16) || bad_arg(c, i, "an array MPI can reduce (not float16)");
}

/* An optional int (rank or tag); absent: the runtime's default. */
static bool opt_int(bctx *c, uint32_t i) { return !given(c, i) || int_arg(c, i); }

static bool op_arg(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (!given(c, i) || (x->kind == KJ_T_OPAQUE && !strcmp(x->name, "op"))) return true;
    return bad_arg(c, i, "MPI.SUM, MPI.MAX or MPI.MIN");
}

/* Waitall's sequence: a list or tuple of requests. */
const kj_type *kj_btype_waitall(bctx *c)
{
    const kj_type *x = ty(c, 0);
    bool ok = x && x->kind == KJ_T_TUPLE && x->n > 0;
    for (uint32_t k = 0; ok && k < x->n; k++)
        ok = x->elems[k]->kind == KJ_T_OPAQUE && !strcmp(x->elems[k]->name, "request");
    return ok ? none(c) : argerr(c, 0, "a list of requests ([r1, r2])");
}

const kj_type *kj_btype_mpi(bctx *c)
{
    switch (c->id) {
    case KJ_B_CUDA_SELECT_DEVICE: return int_arg(c, 0) ? none(c) : NULL;
    case KJ_B_CUDA_GPUS: return opaque(c, "gpus");
    case KJ_B_MPI_COMM_WORLD: return opaque(c, "comm");
    case KJ_B_MPI_SUM: case KJ_B_MPI_MAX: case KJ_B_MPI_MIN: return opaque(c, "op");
    case KJ_B_MPI_ANY_SOURCE: case KJ_B_MPI_ANY_TAG: case KJ_B_MPI_PROC_NULL: return kj_t_weak_int(c->t);
    case KJ_B_MPI_WTIME: return f64(c);
    case KJ_B_MPI_WAITALL: return kj_btype_waitall(c);
    case KJ_B_COMM_GET_RANK: case KJ_B_COMM_GET_SIZE: case KJ_B_COMM_RANK: case KJ_B_COMM_SIZE: return i64(c);
    case KJ_B_COMM_BARRIER: return none(c);
    case KJ_B_COMM_SEND: case KJ_B_COMM_ISEND:
        if (!buf_arg(c, 1) || !int_arg(c, 2) || !opt_int(c, 3)) return NULL;
        return c->id == KJ_B_COMM_SEND ? none(c) : opaque(c, "request");
    case KJ_B_COMM_RECV: case KJ_B_COMM_IRECV:
        if (!buf_arg(c, 1) || !opt_int(c, 2) || !opt_int(c, 3)) return NULL;
        return c->id == KJ_B_COMM_RECV ? none(c) : opaque(c, "request");
    case KJ_B_COMM_SENDRECV:
        if (!given(c, 4)) return argerr(c, 4, "an array (kjit needs the receive buffer)");
        return buf_arg(c, 1) && int_arg(c, 2) && opt_int(c, 3) && buf_arg(c, 4) && opt_int(c, 5) &&
                       opt_int(c, 6)
                   ? none(c)
                   : NULL;
    case KJ_B_COMM_BCAST: return buf_arg(c, 1) && opt_int(c, 2) ? none(c) : NULL;
    case KJ_B_COMM_ALLREDUCE: return red_buf_arg(c, 1) && red_buf_arg(c, 2) && op_arg(c, 3) ? none(c) : NULL;
    case KJ_B_COMM_REDUCE:
        return red_buf_arg(c, 1) && red_buf_arg(c, 2) && op_arg(c, 3) && opt_int(c, 4) ? none(c) : NULL;
    case KJ_B_COMM_ALLREDUCE_OBJ: case KJ_B_COMM_BCAST_OBJ: {
        /* numbers only (mpi4py pickles any object) */
        if (!kj_is_scalar(ty(c, 1))) return argerr(c, 1, "a number (kjit sends numbers; use Bcast for arrays)");
        const kj_type *r = kj_strong(c->t, ty(c, 1));
        convto(c, 1, r);
        bool ok = c->id == KJ_B_COMM_ALLREDUCE_OBJ ? op_arg(c, 2) : opt_int(c, 2);
        return ok ? r : NULL;
    }
    case KJ_B_REQUEST_WAIT: return none(c);
    default: return kj_bno_rule(c);
    }
}

/* ---- typing: inside kernels ------------------------------------------------------- */

/* cuda.grid(n) / cuda.gridsize(n): n a constant 1, 2 or 3. */
const kj_type *kj_btype_grid(bctx *c)
{
    const kj_barg *a = c->nargs ? &c->args[0] : NULL;
    if (!a || !a->is_const || !kj_is_int(a->type) || a->ival < 1 || a->ival > 3) {
        kj_error(c->d, c->src, span_of(c, 0), "%s() argument must be a constant 1, 2 or 3",
                 c->name);
        return NULL;
    }
    if (a->ival == 1) return i64(c);
    const kj_type *el[3] = {i64(c), i64(c), i64(c)};
    return kj_t_tuple(c->t, el, (uint32_t)a->ival);
}

/* cuda.shared.array / cuda.local.array(shape, dtype) */
const kj_type *kj_btype_local_array(bctx *c)
{
    int nd = shape_arg(c, 0);
    if (!nd) return NULL;
    if (!given(c, 1)) return argerr(c, 1, "a dtype such as np.float32");
    const kj_type *e = dtype_arg(c, 1, NULL);
    return e ? arr(c, e, nd) : NULL;
}

/* The element types Numba's atomics accept: i32/u32/i64/u64 (+ f32/f64). */
static bool atomic_elem_ok(const kj_type *e, bool floats)
{
    if (e->kind == KJ_T_FLOAT) return floats;
    return e->kind == KJ_T_INT && (e->bits == 32 || e->bits == 64);
}

/* idx: an int, or a tuple of ints with one component per dimension. */
static bool atomic_index(bctx *c, uint32_t i, const kj_type *ary)
{
    const kj_type *x = ty(c, i);
    uint32_t n;
    if (kj_is_int(x)) n = 1;
    else if (x && x->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < x->n; k++)
            if (!kj_is_int(x->elems[k])) return bad_arg(c, i, "an int or a tuple of ints");
        n = x->n;
    } else {
        return bad_arg(c, i, "an int or a tuple of ints");
    }
    if (n != ary->ndim) {
        kj_error(c->d, c->src, span_of(c, i),
                 "%s() index has %u component%s but the array has %u dimension%s", c->name, n,
                 n == 1 ? "" : "s", ary->ndim, ary->ndim == 1 ? "" : "s");
        return false;
    }
    if (x->kind == KJ_T_TUPLE) {
        const kj_type *el[4] = {i64(c), i64(c), i64(c), i64(c)};
        convto(c, i, kj_t_tuple(c->t, el, n));
    } else {
        convto(c, i, i64(c));
    }
    return true;
}

/* cuda.atomic.OP(ary, idx, val) → the old element; cas(ary, idx, old, val);
 * compare_and_swap(ary, old, val) on 1-d arrays. */
const kj_type *kj_btype_atomic(bctx *c)
{
    bool floats = c->id == KJ_B_ATOMIC_ADD || c->id == KJ_B_ATOMIC_SUB || c->id == KJ_B_ATOMIC_MAX ||
                  c->id == KJ_B_ATOMIC_MIN || c->id == KJ_B_ATOMIC_NANMAX || c->id == KJ_B_ATOMIC_NANMIN;
    bool wrap = c->id == KJ_B_ATOMIC_INC || c->id == KJ_B_ATOMIC_DEC; /* Numba: unsigned only */
    const kj_type *a = ty(c, 0);
    if (wrap && !(is_array(a) && atomic_elem_ok(a->elem, false) && !a->elem->is_signed))
        return argerr(c, 0, "an array of uint32 or uint64");
    if (!is_array(a) || !atomic_elem_ok(a->elem, floats))
        return argerr(c, 0, floats ? "an array of int32, uint32, int64, uint64, float32 or float64"
                                   : "an array of int32, uint32, int64 or uint64");
    if (a->elem->kind == KJ_T_FLOAT && a->elem->bits == 16 && c->id != KJ_B_ATOMIC_ADD)
        return argerr(c, 0, "an array of int32, uint32, int64, uint64, float32 or float64 (float16 has atomic.add only)");
    uint32_t first_val = 2;
    if (c->id == KJ_B_ATOMIC_CAS2) {
        if (a->ndim != 1) return argerr(c, 0, "a 1-dimensional array");
        first_val = 1;
    } else if (!atomic_index(c, 1, a)) {
        return NULL;
    }
    for (uint32_t i = first_val; i < c->nargs; i++)
        if (!num_arg(c, i, a->elem)) return NULL;
    return a->elem;
}

/* The types a warp shuffle (and match_any/match_all) moves: 32/64-bit ints and
 * floats; narrower ints and bools widen to int32, Python ints are int64,
 * Python floats float64. */
const kj_type *kj_btype_shfl(bctx *c)
{
    if (!num_arg(c, 0, u32(c))) return NULL;
    const kj_type *v = ty(c, 1);
    if (!kj_is_scalar(v)) return argerr(c, 1, "a number");
    const kj_type *r = kj_strong(c->t, v);
    if (r->kind == KJ_T_BOOL || (r->kind == KJ_T_INT && r->bits < 32)) r = i32(c);
    convto(c, 1, r);
    if (c->id == KJ_B_MATCH_ANY_SYNC) return i32(c); /* the lanes with the same value */
    if (c->id == KJ_B_MATCH_ALL_SYNC) { /* (mask or 0, all the same): Numba's Tuple(int32, bool) */
        const kj_type *el[2] = {i32(c), kj_t_bool(c->t)};
        return kj_t_tuple(c->t, el, 2);
    }
    if (!kj_is_int(ty(c, 2))) return argerr(c, 2, "an integer");
    convto(c, 2, i32(c));
    return r;
}

/* popc/clz keep the integer type, ffs gives uint32, brev works on uint32 or
 * uint64 (Numba's signatures). */
const kj_type *kj_btype_bits(bctx *c)
{
    const kj_type *x = ty(c, 0);
    if (!kj_is_int(x)) return argerr(c, 0, "an integer");
    const kj_type *s = kj_strong(c->t, x);
    convto(c, 0, s);
    switch (c->id) {
    case KJ_B_FFS: return u32(c);
    case KJ_B_BREV: {
        const kj_type *r = kj_t_int(c->t, s->bits == 64 ? 64 : 32, false);
        convto(c, 0, r);
        return r;
    }
    default: return s;
    }
}

/* cuda.fma(a, b, c): floats, promoted; ints compute in float64. */
const kj_type *kj_btype_fma(bctx *c)
{
    const kj_type *r = NULL;
    for (uint32_t i = 0; i < 3; i++) {
        if (!kj_is_scalar(ty(c, i))) return argerr(c, i, "a number");
        r = r ? kj_promote(c->t, r, ty(c, i)) : ty(c, i);
    }
    r = float_of(c, r);
    for (uint32_t i = 0; i < 3; i++) convto(c, i, r);
    return r;
}

/* cuda.cbrt(float32|float64), cuda.selp(test, a, b) with a and b of one
 * type (Numba: the same type, a 16- to 64-bit int or a float),
 * cuda.nanosleep(uint32), cuda.lanemask_lt() -> uint32. */
const kj_type *kj_btype_cuda_misc(bctx *c)
{
    switch (c->id) {
    case KJ_B_CBRT: {
        if (!kj_is_scalar(ty(c, 0)) || ty(c, 0)->kind == KJ_T_BOOL) return argerr(c, 0, "a number");
        const kj_type *r = float_of(c, ty(c, 0));
        convto(c, 0, r);
        return r;
    }
    case KJ_B_SELP: {
        if (!kj_is_scalar(ty(c, 0))) return argerr(c, 0, "a bool or a number");
        convto(c, 0, kj_t_bool(c->t));
        for (uint32_t i = 1; i < 3; i++)
            if (!kj_is_scalar(ty(c, i)) || ty(c, i)->kind == KJ_T_BOOL) return argerr(c, i, "a number");
        const kj_type *r = kj_strong(c->t, kj_promote(c->t, ty(c, 1), ty(c, 2)));
        if (r->kind == KJ_T_INT && r->bits < 16) r = kj_t_int(c->t, 16, r->is_signed);
        convto(c, 1, r);
        convto(c, 2, r);
        return r;
    }
    case KJ_B_NANOSLEEP:
        if (!kj_is_int(ty(c, 0))) return argerr(c, 0, "an integer");
        convto(c, 0, u32(c));
        return none(c);
    default: return u32(c);
    }
}

/* cuda.const.array_like(ndarray): the array itself, of its own type, as
 * numba-cuda's typer returns it (its lowering is the identity: a global
 * array is already in constant memory there; llvm_cuda_const.c) */
const kj_type *kj_btype_const_array_like(bctx *c)
{
    if (!is_array(ty(c, 0))) return argerr(c, 0, "an array");
    return ty(c, 0);
}

/* numba.cuda.random: the states are stored as an (n, 2) uint64 array (s0,
 * s1 per generator) of type kj_t_xoro_states, which shows Numba's shape (n,)
 * of xoroshiro128p_dtype records; a plain (n, 2) uint64 array is accepted too. */
static bool xoro_states(bctx *c, uint32_t i)
{
    const kj_type *x = ty(c, i);
    if (is_array(x) && x->ndim == 2 && x->elem->kind == KJ_T_INT && x->elem->bits == 64) return true;
    return bad_arg(c, i, "an array of xoroshiro128p states (create_xoroshiro128p_states)");
}

const kj_type *kj_btype_xoro(bctx *c)
{
    const kj_type *u64 = kj_t_int(c->t, 64, false);
    switch (c->id) {
    case KJ_B_XORO_CREATE:
    case KJ_B_XORO_INIT:
        if (c->id == KJ_B_XORO_CREATE ? !int_arg(c, 0) : !xoro_states(c, 0)) return NULL;
        if (!kj_is_int(ty(c, 1))) return argerr(c, 1, "an integer");
        convto(c, 1, u64);
        if (given(c, 2) && !int_arg(c, 2)) return NULL;
        if (!stream_arg(c, 3)) return NULL;
        return c->id == KJ_B_XORO_CREATE ? kj_t_xoro_states(c->t) : none(c);
    default:
        if (!xoro_states(c, 0) || !int_arg(c, 1)) return NULL;
        switch (c->id) {
        case KJ_B_XORO_NEXT: return u64;
        case KJ_B_XORO_JUMP: return none(c);
        case KJ_B_XORO_UNIFORM32: case KJ_B_XORO_NORMAL32: return kj_t_float(c->t, 32);
        default: return f64(c);
        }
    }
}

/* Barriers, votes, fences, special registers. */
const kj_type *kj_btype_sync(bctx *c)
{
    switch (c->id) {
    case KJ_B_SYNCTHREADS_COUNT:
    case KJ_B_SYNCTHREADS_AND:
    case KJ_B_SYNCTHREADS_OR: return num_arg(c, 0, kj_t_bool(c->t)) ? i32(c) : NULL;
    case KJ_B_SYNCWARP: return !given(c, 0) || num_arg(c, 0, u32(c)) ? none(c) : NULL;
    case KJ_B_ALL_SYNC:
    case KJ_B_ANY_SYNC:
    case KJ_B_EQ_SYNC:
        /* Numba returns the vote's predicate: a bool. */
        return num_arg(c, 0, u32(c)) && num_arg(c, 1, kj_t_bool(c->t)) ? kj_t_bool(c->t) : NULL;
    case KJ_B_BALLOT_SYNC:
        /* Numba types the ballot as int32. */
        return num_arg(c, 0, u32(c)) && num_arg(c, 1, kj_t_bool(c->t)) ? i32(c) : NULL;
    case KJ_B_ACTIVEMASK: return u32(c);
    default: return none(c); /* syncthreads, threadfence* */
    }
}
