/* SPDX-License-Identifier: BSD-2-Clause */
/* Subscripts, stores and operators of bytes, bytearray and memoryview (Numba's
 * pysupported.rst "bytes, bytearray, memoryview": indexing, iteration, len(),
 * and for memoryview slicing). They are arrays (kj_t_buffer), so an index reads
 * an element; a slice keeps the buffer's kind (bytes of bytes, a memoryview of a
 * memoryview). What Numba has no implementation for is refused with its words:
 * slicing a bytearray, storing into bytes or a readonly memoryview, operators
 * (Numba types b == c as an array comparison it cannot return, and b + c, x in b
 * not at all). */
#include "sema_int.h"

/* b'...': an array of its bytes, made where it is evaluated (lower_bytes.c) by the host's runtime, so not in
 * kernels and device functions (numba-cuda's kernels have no bytes). */
kj_einfo *kj_type_bytes_literal(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    kj_types *T = ic->s->types;
    if (kj_is_device_ctx(ic->sp)) {
        kj_error(ic->d, ic->s->src, e->span, "bytes are not supported in CUDA kernels and device functions");
        return ei_value(ei, NULL);
    }
    return ei_value(ei, kj_t_buffer(T, KJ_BUF_BYTES, kj_t_int(T, 8, false), 1, KJ_LAYOUT_C));
}

kj_einfo *kj_type_buffer_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei)
{
    const kj_type *r = ei->kind == EI_VALUE ? ei->type : NULL;
    if (!r || r->kind != KJ_T_ARRAY || !r->ndim) return ei; /* an element, or an error already given */
    kj_buf_kind k = kj_buffer_kind(t);
    if (k == KJ_BUF_BYTEARRAY) {
        kj_error(ic->d, ic->s->src, e->span,
                 "No implementation of function Function(<built-in function getitem>) found for signature: "
                 "getitem(%s, slice): Numba does not slice a bytearray",
                 kj_type_str(t));
        return ei_value(ei, NULL);
    }
    ei->type = kj_t_buffer(ic->s->types, k, r->elem, r->ndim, r->layout);
    return ei;
}

bool kj_buffer_store_error(kj_ictx *ic, const kj_expr *target, const kj_type *arr)
{
    kj_buf_kind k = kj_buffer_kind(arr);
    if (k != KJ_BUF_BYTES && k != KJ_BUF_MEMVIEW_RO) return false;
    kj_error(ic->d, ic->s->src, target->span,
             "No implementation of function Function(<built-in function setitem>) found for signature: "
             "setitem(%s, ...): it is readonly",
             kj_type_str(arr));
    return true;
}

bool kj_buffer_operator_error(kj_ictx *ic, const char *op, const kj_type *l, const kj_type *r, kj_span sp)
{
    if (!kj_buffer_kind(l) && !kj_buffer_kind(r)) return false;
    kj_error(ic->d, ic->s->src, sp, "No implementation of the operator '%s' found for (%s, %s): Numba has none",
             op, kj_type_str(l), kj_type_str(r));
    return true;
}
