/* SPDX-License-Identifier: BSD-2-Clause */
/* Joining and flipping arrays (array_manip.h). The stacking functions are
 * np.concatenate of reshaped inputs, as NumPy defines them; the reshaping
 * is done on stack headers (no copies), and each input is then copied, with
 * a cast, into its slab of the result (kj_array_assign). */
#include "array_manip.h"

#include <stdlib.h>
#include <string.h>

static bool axis_error(kj_rt_error *err, int64_t axis, int nd)
{
    return kj_rt_errorf(err, "AxisError", "axis %lld is out of bounds for array of dimension %d", (long long)axis,
                        nd);
}

/* axis normalised into [0, nd), false (AxisError) outside [-nd, nd). */
static bool norm_axis(int64_t *axis, int nd, kj_rt_error *err)
{
    if (*axis < -nd || *axis >= nd) return axis_error(err, *axis, nd);
    if (*axis < 0) *axis += nd;
    return true;
}

/* Insert a dimension of length 1 at `pos` of header h. */
static void insert_axis(kj_array *h, int pos)
{
    for (int d = h->ndim; d > pos; d--) {
        h->shape[d] = h->shape[d - 1];
        h->strides[d] = h->strides[d - 1];
    }
    h->shape[pos] = 1;
    h->strides[pos] = 0;
    h->ndim++;
}

/* The mode's view of input `a` into header h; the concatenation axis of
 * the mode (CONCAT and STACK: `axis`, already normalised) in *cat. */
static void shape_input(kj_array *h, const kj_array *a, kj_join_mode mode, int64_t axis, int *cat)
{
    memcpy(h, a, sizeof *h);
    h->base = NULL; /* a header only: never retained or released */
    h->owns_data = false;
    *cat = (int)axis;
    switch (mode) {
    case KJ_JOIN_CONCAT: break;
    case KJ_JOIN_STACK: insert_axis(h, (int)axis); break;
    case KJ_JOIN_HSTACK: *cat = h->ndim == 1 ? 0 : 1; break;
    case KJ_JOIN_VSTACK:
        if (h->ndim == 1) insert_axis(h, 0);
        *cat = 0;
        break;
    case KJ_JOIN_DSTACK:
        if (h->ndim == 1) insert_axis(h, 0);
        if (h->ndim == 2) insert_axis(h, 2);
        *cat = 2;
        break;
    case KJ_JOIN_COLUMN:
        if (h->ndim == 1) insert_axis(h, 1);
        *cat = 1;
        break;
    }
    kj_array_update_flags(h);
}

/* Every input's shape must equal the first's except along `cat` (STACK:
 * everywhere); the result's length along `cat` is the sum. */
static bool check_shapes(const kj_array *h, int n, int cat, kj_join_mode mode, int64_t *shape, kj_rt_error *err)
{
    int nd = h[0].ndim;
    memcpy(shape, h[0].shape, (size_t)nd * sizeof *shape);
    shape[cat] = 0;
    for (int k = 0; k < n; k++) {
        for (int d = 0; d < nd; d++) {
            if (d == cat || h[k].shape[d] == h[0].shape[d]) continue;
            if (mode == KJ_JOIN_STACK) return kj_rt_errorf(err, "ValueError", "all input arrays must have the same shape");
            return kj_rt_errorf(err, "ValueError",
                                "all the input array dimensions except for the concatenation axis must match "
                                "exactly, but along dimension %d, the array at index 0 has size %lld and the array "
                                "at index %d has size %lld",
                                d, (long long)h[0].shape[d], k, (long long)h[k].shape[d]);
        }
        shape[cat] += h[k].shape[cat];
    }
    return true;
}

kj_array *kj_array_join(const kj_array *const *in, int n, kj_join_mode mode, int64_t axis, kj_dtype to,
                        kj_rt_error *err)
{
    if (n < 1) {
        kj_rt_errorf(err, "ValueError", "need at least one array to concatenate");
        return NULL;
    }
    int nd = in[0]->ndim + (mode == KJ_JOIN_STACK);
    if ((mode == KJ_JOIN_CONCAT || mode == KJ_JOIN_STACK) && !norm_axis(&axis, nd, err)) return NULL;
    enum { MAX_IN = 64 };
    kj_array hs[MAX_IN];
    kj_array *heap = NULL, *h = hs;
    if (n > MAX_IN && !(h = heap = calloc((size_t)n, sizeof *h))) {
        kj_rt_errorf(err, "MemoryError", "unable to allocate the headers of %d arrays", n);
        return NULL;
    }
    int cat = 0;
    for (int k = 0; k < n; k++) shape_input(&h[k], in[k], mode, axis, &cat);
    int64_t shape[KJ_MAX_DIMS];
    kj_array *r = NULL;
    if (check_shapes(h, n, cat, mode, shape, err) && (r = kj_array_empty(to, h[0].ndim, shape, err))) {
        kj_array slab; /* the part of r that input k fills */
        memcpy(&slab, r, sizeof slab);
        slab.base = NULL;
        slab.owns_data = false;
        for (int k = 0; k < n; k++) {
            slab.shape[cat] = h[k].shape[cat];
            kj_array_update_flags(&slab);
            if (slab.shape[cat] && !kj_array_assign(&slab, &h[k], err)) {
                kj_array_release(r);
                r = NULL;
                break;
            }
            slab.data += slab.shape[cat] * r->strides[cat];
        }
    }
    free(heap);
    return r;
}

kj_array *kj_array_flip(kj_array *a, bool all_axes, int64_t axis, kj_rt_error *err)
{
    if (!all_axes && !norm_axis(&axis, a->ndim, err)) return NULL;
    kj_index idx[KJ_MAX_DIMS];
    for (int d = 0; d < a->ndim; d++) {
        bool rev = all_axes || d == axis;
        idx[d] = (kj_index){.kind = KJ_IDX_SLICE, .step = rev ? -1 : 1};
    }
    return kj_array_view(a, idx, a->ndim, err);
}
