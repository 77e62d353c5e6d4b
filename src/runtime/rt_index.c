/* Indexing host arrays with arrays, as NumPy does: a boolean mask of the
 * array's shape (a[mask] reads the selected elements, in C order, into a
 * new 1-d array; a[mask] = v writes them) and an integer array into a 1-d
 * array (a[idx] has idx's shape; a[idx] = v writes, the last of repeated
 * indices winning). Messages are NumPy 2's. */
#include "rt_host.h"

#include "array.h"

#include <stdio.h>
#include <string.h>

/* The byte offset of element `flat` (C order) of x. */
static int64_t offset_of(const kj_array *x, int64_t flat)
{
    int64_t off = 0;
    for (int d = x->ndim - 1; d >= 0; d--) {
        int64_t n = x->shape[d];
        off += (flat % n) * x->strides[d];
        flat /= n;
    }
    return off;
}

/* The byte offset of v's element that meets element `flat` of an array of
 * shape (nd, shape) when v broadcasts to it (aligned right, stride 0 where
 * v's extent is 1). */
static int64_t bcast_offset(const kj_array *v, int nd, const int64_t *shape, int64_t flat)
{
    int64_t off = 0;
    for (int d = nd - 1; d >= 0; d--) {
        int64_t i = flat % shape[d];
        flat /= shape[d];
        int vd = d - (nd - v->ndim);
        if (vd >= 0 && v->shape[vd] != 1) off += i * v->strides[vd];
    }
    return off;
}

static void copy_elem(char *dst, kj_dtype ddt, const char *src, kj_dtype sdt)
{
    if (ddt == sdt) memcpy(dst, src, kj_dtype_size(ddt));
    else kj_elem_store(dst, ddt, kj_elem_load(src, sdt));
}

static kj_array *new_result(kj_rt *rt, kj_dtype dt, int nd, const int64_t *shape, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *o = kj_array_empty(dt, nd, shape, &err);
    if (!o) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, o);
    return o;
}

/* The mask must have the array's shape; returns how many are true. */
static int64_t mask_count(kj_rt *rt, const kj_array *a, const kj_array *m, int32_t line, int32_t col)
{
    for (int d = 0; d < a->ndim; d++)
        if (d >= m->ndim || m->shape[d] != a->shape[d]) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "boolean index did not match indexed array along axis %d; size of axis is %lld but size "
                     "of corresponding boolean axis is %lld",
                     d, (long long)a->shape[d], (long long)(d < m->ndim ? m->shape[d] : 1));
            kj_rt_raise(rt, KJ_RT_INDEX, msg, line, col);
        }
    int64_t n = kj_array_size(m), c = 0;
    for (int64_t i = 0; i < n; i++) c += m->data[offset_of(m, i)] != 0;
    return c;
}

/* An integer index into an axis of `size`, wrapped; raises when outside. */
static int64_t wrap(kj_rt *rt, const kj_array *ix, int64_t flat, int64_t size, int32_t line, int32_t col)
{
    int64_t i = kj_elem_load(ix->data + offset_of(ix, flat), ix->dtype).v.i;
    if (!kj_dtype_is_signed(ix->dtype) && i < 0) kj_rt_raise_index(rt, i, 0, size, line, col);
    int64_t j = i < 0 ? i + size : i;
    if (j < 0 || j >= size) kj_rt_raise_index(rt, i, 0, size, line, col);
    return j;
}

void kj_rt_index_get(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *ix, int32_t ixndim,
                     int32_t ixdt, void *out, int32_t ondim, int32_t line, int32_t col)
{
    kj_array ha, hi;
    kj_rt_header(&ha, a, andim, adt);
    kj_rt_header(&hi, ix, ixndim, ixdt);
    size_t isz = kj_dtype_size(ha.dtype);
    kj_array *o;
    if (hi.dtype == KJ_DT_BOOL) {
        int64_t n = mask_count(rt, &ha, &hi, line, col), k = 0, size = kj_array_size(&ha);
        o = new_result(rt, ha.dtype, 1, &n, line, col);
        for (int64_t i = 0; i < size && k < n; i++)
            if (hi.data[offset_of(&hi, i)]) memcpy(o->data + isz * (size_t)k++, ha.data + offset_of(&ha, i), isz);
    } else {
        o = new_result(rt, ha.dtype, hi.ndim, hi.shape, line, col);
        int64_t n = kj_array_size(&hi);
        for (int64_t i = 0; i < n; i++)
            memcpy(o->data + isz * (size_t)i, ha.data + wrap(rt, &hi, i, ha.shape[0], line, col) * ha.strides[0], isz);
    }
    kj_rt_describe(out, o, ondim);
}

static _Noreturn void mask_count_error(kj_rt *rt, int64_t nv, int64_t n, int32_t line, int32_t col)
{
    char msg[200];
    snprintf(msg, sizeof msg,
             "NumPy boolean array indexing assignment cannot assign %lld input values to the %lld output values "
             "where the mask is true",
             (long long)nv, (long long)n);
    kj_rt_raise(rt, KJ_RT_VALUE, msg, line, col);
}

static void mask_set(kj_rt *rt, const kj_array *a, const kj_array *m, const kj_array *v, int32_t line, int32_t col)
{
    int64_t n = mask_count(rt, a, m, line, col), nv = kj_array_size(v), size = kj_array_size(a), k = 0;
    if (nv != 1 && nv != n) mask_count_error(rt, nv, n, line, col);
    for (int64_t i = 0; i < size; i++) {
        if (!m->data[offset_of(m, i)]) continue;
        const char *src = v->data + (nv == 1 ? offset_of(v, 0) : offset_of(v, k));
        copy_elem(a->data + offset_of(a, i), a->dtype, src, v->dtype);
        k++;
    }
}

static void int_set(kj_rt *rt, const kj_array *a, const kj_array *ix, const kj_array *v, int32_t line, int32_t col)
{
    int nd = ix->ndim;
    bool fits = v->ndim <= nd;
    for (int d = 0; d < v->ndim && fits; d++) {
        int64_t x = v->shape[d], y = ix->shape[nd - v->ndim + d];
        fits = x == 1 || x == y;
    }
    if (!fits) {
        char s1[200], s2[200], msg[512];
        kj_shape_str(s1, sizeof s1, v->ndim, v->shape);
        kj_shape_str(s2, sizeof s2, nd, ix->shape);
        snprintf(msg, sizeof msg, "shape mismatch: value array of shape %s could not be broadcast to indexing "
                 "result of shape %s", s1, s2);
        kj_rt_raise(rt, KJ_RT_VALUE, msg, line, col);
    }
    int64_t n = kj_array_size(ix);
    for (int64_t i = 0; i < n; i++) {
        int64_t j = wrap(rt, ix, i, a->shape[0], line, col);
        copy_elem(a->data + j * a->strides[0], a->dtype, v->data + bcast_offset(v, nd, ix->shape, i), v->dtype);
    }
}

void kj_rt_index_set(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *ix, int32_t ixndim,
                     int32_t ixdt, const void *v, int32_t vndim, int32_t vdt, int32_t line, int32_t col)
{
    kj_array ha, hi, hv;
    kj_rt_header(&ha, a, andim, adt);
    kj_rt_header(&hi, ix, ixndim, ixdt);
    kj_rt_header(&hv, v, vndim, vdt);
    /* A value that overlaps a is read as the writes go, in C order, as
     * NumPy's 1-d loops do (no copy first). */
    if (hi.dtype == KJ_DT_BOOL) mask_set(rt, &ha, &hi, &hv, line, col);
    else int_set(rt, &ha, &hi, &hv, line, col);
}
