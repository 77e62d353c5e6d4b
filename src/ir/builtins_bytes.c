/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of bytes, bytearray and memoryview (Numba's reference/pysupported.rst
 * "bytes, bytearray, memoryview"): the b'...' literal, bytearray(x) and
 * memoryview(x) (host code makes them; Numba's @jit functions take them as
 * arguments), np.frombuffer(buffer, dtype=) and ndarray.tobytes()
 * (numpysupported.rst), and the memoryview attributes that arrays lack
 * (contiguous, c_contiguous, f_contiguous, readonly; itemsize, nbytes, ndim,
 * shape and strides are the array ones). The values are arrays whose type
 * carries the buffer kind (kj_t_buffer); builtins.c's dispatch sends these
 * ids here, llvm_bytes.c lowers them. */
#include "builtins.h"

typedef struct {
    kj_types *t;
    kj_builtin id;
    const kj_barg *args;
    uint32_t nargs;
    kj_span call;
    const kj_source *src;
    kj_diags *d;
} bctx_bytes;

static const kj_type *ty(const bctx_bytes *c, uint32_t i) { return i < c->nargs ? c->args[i].type : NULL; }

static const kj_type *u8(const bctx_bytes *c) { return kj_t_int(c->t, 8, false); }

static const kj_type *bytes_of(const bctx_bytes *c, kj_buf_kind k)
{
    return kj_t_buffer(c->t, k, u8(c), 1, KJ_LAYOUT_C);
}

static const kj_type *refuse(const bctx_bytes *c, uint32_t i, const char *what)
{
    const char *path = kj_builtin_get(c->id)->path;
    kj_error(c->d, c->src, i < c->nargs ? c->args[i].span : c->call, "%s() takes %s, not %s", path, what,
             kj_type_str(ty(c, i)));
    return NULL;
}

/* a memoryview attribute on a memoryview; Numba's message on anything else */
static const kj_type *mv_attr(const bctx_bytes *c)
{
    const kj_type *m = ty(c, 0);
    kj_buf_kind k = kj_buffer_kind(m);
    if (k != KJ_BUF_MEMVIEW && k != KJ_BUF_MEMVIEW_RO) {
        const char *path = kj_builtin_get(c->id)->path;
        kj_error(c->d, c->src, c->call, "Unknown attribute '%s' of type %s", path + 6 /* "array." */,
                 kj_type_str(m));
        return NULL;
    }
    return kj_t_bool(c->t);
}

/* np.frombuffer(buffer, dtype=float64): a 1-d view of a contiguous buffer's bytes */
static const kj_type *frombuffer(const bctx_bytes *c)
{
    const kj_type *b = ty(c, 0), *dt = ty(c, 1);
    if (!kj_buffer_kind(b) || b->ndim != 1 || b->layout != KJ_LAYOUT_C)
        return refuse(c, 0, "a contiguous 1-d bytes, bytearray or memoryview");
    const kj_type *e = kj_t_float(c->t, 64);
    if (dt && dt->kind != KJ_T_NONE) {
        if (dt->kind != KJ_T_DTYPE) return refuse(c, 1, "a NumPy dtype");
        e = dt->elem;
    }
    return kj_t_array(c->t, e, 1, KJ_LAYOUT_C);
}

const kj_type *kj_type_bytes_builtin(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                     const kj_source *src, kj_diags *d, const kj_type **conv)
{
    (void)conv;
    bctx_bytes c = {t, id, args, nargs, call, src, d};
    const kj_type *a = ty(&c, 0);
    switch (id) {
    case KJ_B_BYTES_LIT: return bytes_of(&c, KJ_BUF_BYTES);
    case KJ_B_BYTEARRAY: /* a mutable copy of a buffer's bytes */
        if (!kj_buffer_kind(a)) return refuse(&c, 0, "bytes, a bytearray or a memoryview");
        return bytes_of(&c, KJ_BUF_BYTEARRAY);
    case KJ_B_MEMORYVIEW: { /* the same memory; readonly over bytes, as Python's */
        kj_buf_kind k = kj_buffer_kind(a);
        if (!a || a->kind != KJ_T_ARRAY || kj_is_xoro_states(a))
            return refuse(&c, 0, "bytes, a bytearray, a memoryview or a NumPy array");
        bool ro = k == KJ_BUF_BYTES || k == KJ_BUF_MEMVIEW_RO;
        return kj_t_buffer(t, ro ? KJ_BUF_MEMVIEW_RO : KJ_BUF_MEMVIEW, a->elem, a->ndim, a->layout);
    }
    case KJ_B_NP_FROMBUFFER: return frombuffer(&c);
    case KJ_B_ARR_TOBYTES: /* Numba 0.62+: the array's bytes in C order */
        if (!a || a->kind != KJ_T_ARRAY || kj_buffer_kind(a) || kj_is_xoro_states(a)) {
            kj_error(d, src, call, "Unknown attribute 'tobytes' of type %s", kj_type_str(a));
            return NULL;
        }
        return bytes_of(&c, KJ_BUF_BYTES);
    case KJ_B_MV_READONLY: case KJ_B_MV_CONTIGUOUS: case KJ_B_MV_C_CONTIGUOUS: case KJ_B_MV_F_CONTIGUOUS:
        return mv_attr(&c);
    default:
        kj_error(d, src, call, "internal: %s has no typing rule", kj_builtin_get(id)->path);
        return NULL;
    }
}
