/* SPDX-License-Identifier: BSD-2-Clause */
/* Generator.permuted(x, axis=None, out=None) as NumPy's (_generator.pyx):
 * the result is a copy of x (or out, x copied into it), shuffled in place by
 * Fisher-Yates from the end with random_interval draws. Without an axis the
 * whole array is shuffled as one flat sequence, in the order its memory
 * holds it: C order, or Fortran order for a Fortran-contiguous result (NumPy
 * shuffles out.ravel(order='A'); a result that is neither goes through a C
 * copy). With an axis each 1-d lane along it is shuffled separately, the
 * lanes in C order of the other indices (PyArray_IterAllButAxis). */
#include "rt_host.h"

#include "array.h"
#include "pcg64.h"
#include "random_samplers.h"

#include <stdlib.h>
#include <string.h>

/* The byte offset of element k of a's flat sequence in C or F order. */
static int64_t flat_offset(const kj_array *a, int64_t k, bool fortran)
{
    int64_t off = 0;
    for (int i = 0; i < a->ndim; i++) {
        int d = fortran ? i : a->ndim - 1 - i; /* the fastest-varying index first */
        int64_t n = a->shape[d];
        off += (k % n) * a->strides[d];
        k /= n;
    }
    return off;
}

static void swap_bytes(char *p, char *q, size_t n)
{
    char buf[32];
    memcpy(buf, p, n);
    memcpy(p, q, n);
    memcpy(q, buf, n);
}

/* Shuffle a as one flat sequence in C or F order (a non-empty). */
static void shuffle_flat(const kj_bitgen *bg, const kj_array *a, bool fortran)
{
    size_t isz = kj_array_itemsize(a);
    for (int64_t i = kj_array_size(a) - 1; i >= 1; i--) {
        int64_t j = (int64_t)kj_smp_interval(bg, (uint64_t)i);
        if (i != j) swap_bytes(a->data + flat_offset(a, i, fortran), a->data + flat_offset(a, j, fortran), isz);
    }
}

/* Shuffle every lane of a along axis `ax`, lanes in C order (a non-empty). */
static void shuffle_lanes(const kj_bitgen *bg, const kj_array *a, int ax)
{
    size_t isz = kj_array_itemsize(a);
    int64_t idx[KJ_MAX_DIMS] = {0}, n = a->shape[ax], st = a->strides[ax];
    for (;;) {
        char *base = a->data;
        for (int d = 0; d < a->ndim; d++) base += d == ax ? 0 : idx[d] * a->strides[d];
        for (int64_t i = n - 1; i >= 1; i--) {
            int64_t j = (int64_t)kj_smp_interval(bg, (uint64_t)i);
            if (i != j) swap_bytes(base + i * st, base + j * st, isz);
        }
        int d = a->ndim - 1;
        for (; d >= 0; d--) {
            if (d == ax) continue;
            if (++idx[d] < a->shape[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

/* Is a Fortran-contiguous and not C-contiguous? */
static bool f_only(const kj_array *a)
{
    return (a->flags & KJ_ARR_F_CONTIGUOUS) && !(a->flags & KJ_ARR_C_CONTIGUOUS);
}

/* Would x.copy(order='K') be Fortran-ordered (and not C)? Its axes are
 * ordered by decreasing stride: F when the strides of the axes longer than 1
 * grow with the axis and some do not shrink (an F-contiguous x included). */
static bool k_copy_is_f(const kj_array *x)
{
    if (x->flags & KJ_ARR_C_CONTIGUOUS) return false;
    if (x->flags & KJ_ARR_F_CONTIGUOUS) return true;
    int64_t prev = -1;
    int n = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (x->shape[d] < 2) continue;
        int64_t s = llabs(x->strides[d]);
        if (n++ && s < prev) return false;
        prev = s;
    }
    return n > 1;
}

/* The axis-less shuffle of result r, whose order follows `fortran`: a
 * result in neither C nor F layout (a given out) goes through a C copy. */
static void shuffle_whole(kj_rt *rt, const kj_bitgen *bg, kj_array *r, bool fortran, int32_t line, int32_t col)
{
    if (r->ndim <= 1 || (r->flags & (KJ_ARR_C_CONTIGUOUS | KJ_ARR_F_CONTIGUOUS))) {
        shuffle_flat(bg, r, r->ndim > 1 && fortran);
        return;
    }
    kj_rt_error err = {0};
    kj_array *c = kj_array_copy(r, &err);
    if (!c) kj_rt_raise_error(rt, &err, line, col);
    shuffle_flat(bg, c, false);
    bool ok = kj_array_assign(r, c, &err);
    kj_array_release(c);
    if (!ok) kj_rt_raise_error(rt, &err, line, col);
}

/* Copy x into the given out (np.copyto(out, x, casting='safe'; inference
 * checked the cast), through a copy where their memory overlaps. */
static void copy_into(kj_rt *rt, kj_array *out, const kj_array *x, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *tmp = NULL;
    if (kj_array_overlaps(out, x) && !(tmp = kj_array_copy(x, &err))) kj_rt_raise_error(rt, &err, line, col);
    bool ok = kj_array_assign(out, tmp ? tmp : x, &err);
    if (tmp) kj_array_release(tmp);
    if (!ok) kj_rt_raise_error(rt, &err, line, col);
}

void kj_rt_gen_permuted(kj_rt *rt, void *gen, const void *x, int32_t ndim, int32_t dtype, int64_t axis,
                        int32_t has_axis, void *out, int32_t odtype, void *res, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array hx, ho, *r = &ho;
    kj_rt_header(&hx, x, ndim, dtype);
    bool fortran;
    if (out) {
        kj_rt_header(&ho, out, ndim, odtype);
        if (memcmp(ho.shape, hx.shape, (size_t)ndim * sizeof ho.shape[0])) {
            kj_rt_errorf(&err, "ValueError", "out must have the same shape as x");
            kj_rt_raise_error(rt, &err, line, col);
        }
        copy_into(rt, &ho, &hx, line, col);
        fortran = f_only(&ho);
    } else {
        fortran = k_copy_is_f(&hx);
        if (!(r = kj_array_copy(&hx, &err))) kj_rt_raise_error(rt, &err, line, col);
    }
    int64_t ax = axis < 0 ? axis + ndim : axis;
    if (has_axis && (ax < 0 || ax >= ndim)) {
        if (!out) kj_array_release(r);
        kj_rt_errorf(&err, "AxisError", "axis %lld is out of bounds for array of dimension %d", (long long)axis,
                     (int)ndim);
        kj_rt_raise_error(rt, &err, line, col);
    }
    const kj_bitgen bg = kj_bitgen_pcg(gen);
    if (kj_array_size(r) > 0) {
        if (has_axis) shuffle_lanes(&bg, r, (int)ax);
        else shuffle_whole(rt, &bg, r, fortran, line, col);
    }
    if (!out) kj_rt_result(rt, r, &err, res, ndim, line, col);
}
