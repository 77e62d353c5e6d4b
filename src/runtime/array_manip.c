/* SPDX-License-Identifier: BSD-2-Clause */
/* Joining and flipping arrays (array_manip.h). The stacking functions are
 * np.concatenate of reshaped inputs, as NumPy defines them; the reshaping
 * is done on stack headers (no copies), and each input is then copied, with
 * a cast, into its slab of the result (kj_array_assign). */
#include "array_manip.h"

#include <stdlib.h>
#include <stdio.h>
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
    case KJ_JOIN_STACK: case KJ_JOIN_ARRAY: insert_axis(h, (int)axis); break;
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
/* np.array([a, b, ...]) of arrays whose shapes differ: NumPy's ValueError,
 * which names the first dimension where they part (h: with the new axis). */
static bool ragged_array(const kj_array *h, int n, kj_rt_error *err)
{
    for (int d = 1; d < h[0].ndim; d++)
        for (int k = 1; k < n; k++) {
            if (h[k].shape[d] == h[0].shape[d]) continue;
            char shp[256]; /* Python's tuple repr: (3,) and (3, 2) */
            int len = snprintf(shp, sizeof shp, "(%d%s", n, d == 1 ? "," : "");
            for (int j = 1; j < d && len > 0 && (size_t)len < sizeof shp; j++)
                len += snprintf(shp + len, sizeof shp - (size_t)len, ", %lld", (long long)h[0].shape[j]);
            if (len > 0 && (size_t)len < sizeof shp - 1) strcat(shp, ")");
            return kj_rt_errorf(err, "ValueError", "setting an array element with a sequence. The requested array "
                                "has an inhomogeneous shape after %d dimensions. The detected shape was %s + "
                                "inhomogeneous part.", d, shp);
        }
    return true;
}

static bool check_shapes(const kj_array *h, int n, int cat, kj_join_mode mode, int64_t *shape, kj_rt_error *err)
{
    int nd = h[0].ndim;
    if (mode == KJ_JOIN_ARRAY && !ragged_array(h, n, err)) return false;
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
    int nd = in[0]->ndim + (mode == KJ_JOIN_STACK || mode == KJ_JOIN_ARRAY);
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

/* ---- nonzero, flatnonzero, argwhere ---- */

/* The next C-order index of `shape` (nd >= 1). */
static void next_index(int64_t *idx, const int64_t *shape, int nd)
{
    for (int d = nd - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) return;
        idx[d] = 0;
    }
}

static bool truth_at(const kj_array *a, const int64_t *idx)
{
    kj_scalar s = kj_elem_load(kj_array_ptr(a, idx), a->dtype);
    return kj_dtype_is_float(a->dtype) ? s.v.f != 0.0 : s.v.i != 0; /* NaN is true */
}

static int64_t *i64_data(kj_array *r) { return (int64_t *)(void *)r->data; }

bool kj_array_nonzero(const kj_array *a, kj_nonzero_mode mode, kj_array **outs, kj_rt_error *err)
{
    int nd = a->ndim;
    int64_t n = kj_array_size(a), count = 0, idx[KJ_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++, next_index(idx, a->shape, nd)) count += truth_at(a, idx);
    int nout = mode == KJ_NONZERO ? nd : 1;
    for (int k = 0; k < nout; k++) {
        int64_t shape[2] = {count, nd};
        if (!(outs[k] = kj_array_empty(KJ_DT_INT64, mode == KJ_NONZERO_ARGWHERE ? 2 : 1, shape, err))) {
            for (int j = 0; j < k; j++) kj_array_release(outs[j]);
            return false;
        }
    }
    memset(idx, 0, sizeof idx);
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++, next_index(idx, a->shape, nd)) {
        if (!truth_at(a, idx)) continue;
        if (mode == KJ_NONZERO_FLAT) i64_data(outs[0])[at] = i;
        for (int d = 0; d < nd && mode != KJ_NONZERO_FLAT; d++) {
            if (mode == KJ_NONZERO) i64_data(outs[d])[at] = idx[d];
            else i64_data(outs[0])[at * nd + d] = idx[d];
        }
        at++;
    }
    return true;
}

/* ---- repeat ---- */

/* The repeat count of element i along the axis (reps has 1 or len). */
static int64_t rep_at(const kj_array *reps, int64_t i)
{
    int64_t j = reps->ndim == 0 || reps->shape[0] == 1 ? 0 : i;
    return kj_elem_load(reps->ndim ? reps->data + j * reps->strides[0] : reps->data, reps->dtype).v.i;
}

/* Check the counts against `len` elements along the axis; their total. */
static bool rep_total(const kj_array *reps, int64_t len, int64_t *total, kj_rt_error *err)
{
    if (reps->ndim == 1 && reps->shape[0] != 1 && reps->shape[0] != len)
        return kj_rt_errorf(err, "ValueError", "operands could not be broadcast together with shape (%lld,) (%lld,)",
                            (long long)len, (long long)reps->shape[0]);
    *total = 0;
    for (int64_t i = 0; i < len; i++) {
        int64_t r = rep_at(reps, i);
        if (r < 0)
            return kj_rt_errorf(err, "ValueError", reps->ndim ? "repeats may not contain negative values."
                                                              : "negative dimensions are not allowed");
        *total += r;
    }
    return true;
}

kj_array *kj_array_repeat(const kj_array *a, const kj_array *reps, bool has_axis, int64_t axis, kj_rt_error *err)
{
    kj_array flat, *tmp = NULL;
    const kj_array *src = a;
    if (!has_axis) { /* the flattened array: a C-order copy seen as 1-d */
        if (!(tmp = kj_array_copy(a, err))) return NULL;
        memcpy(&flat, tmp, sizeof flat);
        flat.base = NULL;
        flat.owns_data = false;
        flat.ndim = 1;
        flat.shape[0] = kj_array_size(tmp);
        flat.strides[0] = (int64_t)kj_array_itemsize(tmp);
        kj_array_update_flags(&flat);
        src = &flat;
        axis = 0;
    }
    kj_array *r = NULL;
    int64_t total = 0, shape[KJ_MAX_DIMS];
    if (norm_axis(&axis, src->ndim, err) && rep_total(reps, src->shape[axis], &total, err)) {
        memcpy(shape, src->shape, sizeof shape);
        shape[axis] = total;
        r = kj_array_empty(src->dtype, src->ndim, shape, err);
    }
    if (r) {
        kj_array from, to; /* one slab of src, one of r */
        memcpy(&from, src, sizeof from);
        memcpy(&to, r, sizeof to);
        from.base = to.base = NULL;
        from.owns_data = to.owns_data = false;
        from.shape[axis] = to.shape[axis] = 1;
        kj_array_update_flags(&from);
        kj_array_update_flags(&to);
        for (int64_t i = 0; i < src->shape[axis]; i++, from.data += src->strides[axis])
            for (int64_t k = rep_at(reps, i); k > 0; k--, to.data += r->strides[axis]) kj_array_assign(&to, &from, NULL);
    }
    kj_array_release(tmp);
    return r;
}

/* ---- eye ---- */

kj_array *kj_array_eye(int64_t n, int64_t m, int64_t k, kj_dtype dt, kj_rt_error *err)
{
    if (n < 0 || m < 0) {
        kj_rt_errorf(err, "ValueError", "negative dimensions are not allowed");
        return NULL;
    }
    int64_t shape[2] = {n, m};
    kj_array *r = kj_array_zeros(dt, 2, shape, err);
    if (k <= -n || k >= m) return r; /* the diagonal is outside (and i + k cannot overflow below) */
    for (int64_t i = 0; r && i < n; i++) {
        int64_t idx[2] = {i, i + k};
        if (idx[1] >= 0 && idx[1] < m) kj_array_set(r, idx, kj_scalar_i64(1));
    }
    return r;
}

/* ---- views that move, add or repeat dimensions ---- */

/* axis in [-nd, nd) into [0, nd), else NumPy's AxisError with `what`
 * ("source: ") before it. */
static bool norm_named(int64_t *axis, int nd, const char *what, kj_rt_error *err)
{
    if (*axis >= -nd && *axis < nd) {
        if (*axis < 0) *axis += nd;
        return true;
    }
    return kj_rt_errorf(err, "AxisError", "%saxis %lld is out of bounds for array of dimension %d", what,
                        (long long)*axis, nd);
}

/* The permutation `perm` of v's first nd dimensions. */
static void permute(kj_array *v, const int *perm, int nd)
{
    int64_t sh[KJ_MAX_DIMS], st[KJ_MAX_DIMS];
    for (int d = 0; d < nd; d++) sh[d] = v->shape[perm[d]], st[d] = v->strides[perm[d]];
    memcpy(v->shape, sh, sizeof sh);
    memcpy(v->strides, st, sizeof st);
}

static bool perm_of(kj_array *v, const int64_t *p, kj_rt_error *err)
{
    int perm[KJ_MAX_DIMS], nd = v->ndim;
    bool seen[KJ_MAX_DIMS] = {false};
    for (int d = 0; d < nd; d++) {
        int64_t ax = p[d];
        if (!norm_named(&ax, nd, "", err)) return false;
        if (seen[ax]) return kj_rt_errorf(err, "ValueError", "repeated axis in transpose");
        seen[ax] = true;
        perm[d] = (int)ax;
    }
    permute(v, perm, nd);
    return true;
}

static bool move_axis(kj_array *v, int64_t src, int64_t dst, kj_rt_error *err)
{
    int nd = v->ndim, perm[KJ_MAX_DIMS], n = 0;
    if (!norm_named(&src, nd, "source: ", err) || !norm_named(&dst, nd, "destination: ", err)) return false;
    for (int d = 0; d < nd; d++)
        if (d != src) perm[n++] = d;
    memmove(perm + dst + 1, perm + dst, (size_t)(nd - 1 - dst) * sizeof *perm);
    perm[dst] = (int)src;
    permute(v, perm, nd);
    return true;
}

static bool broadcast_view(kj_array *v, const int64_t *shape, int nd, kj_rt_error *err)
{
    int off = nd - v->ndim;
    bool ok = off >= 0;
    for (int d = 0; d < nd; d++)
        if (shape[d] < 0) return kj_rt_errorf(err, "ValueError", "all elements of broadcast shape must be non-negative");
    for (int d = 0; ok && d < v->ndim; d++) ok = v->shape[d] == 1 || v->shape[d] == shape[d + off];
    if (!ok) {
        if (off < 0)
            return kj_rt_errorf(err, "ValueError", "input operand has more dimensions than allowed by the axis remapping");
        char a[128], b[128];
        kj_shape_str(a, sizeof a, v->ndim, v->shape);
        kj_shape_str(b, sizeof b, nd, shape);
        return kj_rt_errorf(err, "ValueError", "operands could not be broadcast together with remapped shapes "
                            "[original->remapped]: %s  and requested shape %s", a, b);
    }
    int64_t st[KJ_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        st[d] = d < off || v->shape[d - off] != shape[d] ? 0 : v->strides[d - off];
    memcpy(v->shape, shape, (size_t)nd * sizeof *shape);
    memcpy(v->strides, st, sizeof st);
    v->ndim = nd;
    return true;
}

static bool restride(kj_array *v, kj_restride_op op, const int64_t *p, int np, kj_rt_error *err)
{
    int64_t a0 = np > 0 ? p[0] : 0, a1 = np > 1 ? p[1] : 0;
    switch (op) {
    case KJ_RS_EXPAND:
        if (!norm_named(&a0, v->ndim + 1, "", err)) return false;
        insert_axis(v, (int)a0);
        return true;
    case KJ_RS_SWAP: {
        if (!norm_named(&a0, v->ndim, "axis1: ", err) || !norm_named(&a1, v->ndim, "axis2: ", err)) return false;
        int perm[KJ_MAX_DIMS];
        for (int d = 0; d < v->ndim; d++) perm[d] = d == a0 ? (int)a1 : d == a1 ? (int)a0 : d;
        permute(v, perm, v->ndim);
        return true;
    }
    case KJ_RS_MOVE: return move_axis(v, a0, a1, err);
    case KJ_RS_ATLEAST: /* NumPy: 1-d (n) → (1, n) → (1, n, 1); 2-d (m, n) → (m, n, 1) */
        if (v->ndim == 0 && a0 >= 1) insert_axis(v, 0);
        if (v->ndim == 1 && a0 >= 2) insert_axis(v, 0);
        if (v->ndim == 2 && a0 >= 3) insert_axis(v, 2);
        return true;
    case KJ_RS_PERM: return perm_of(v, p, err);
    case KJ_RS_BROADCAST: return broadcast_view(v, p, np, err);
    }
    return false;
}

kj_array *kj_array_restride(kj_array *a, kj_restride_op op, const int64_t *p, int np, kj_rt_error *err)
{
    kj_array *v = kj_array_view(a, NULL, 0, err); /* a new header over the same elements */
    if (!v) return NULL;
    if (!restride(v, op, p, np, err)) {
        kj_array_release(v);
        return NULL;
    }
    kj_array_update_flags(v);
    return v;
}
