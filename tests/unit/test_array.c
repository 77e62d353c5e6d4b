/* SPDX-License-Identifier: BSD-2-Clause */
/* kj_array: creation, views, reshape, casts, broadcasting, elementwise
 * operations, reductions, allclose, arange/linspace. Expected values that
 * are not obvious were computed once with numpy 1.24 (snippet alongside). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runtime/array.h"
#include "runtime/array_int.h"

#include "util/asan.h" /* KJ_ASAN: huge allocations abort instead of failing */

/* --- helpers ------------------------------------------------------------ */

static kj_array *wrap(void *data, kj_dtype dt, int nd, const int64_t *shape)
{
    kj_rt_error err = {0};
    kj_array *a = kj_array_wrap(data, dt, nd, shape, NULL, &err);
    assert_non_null(a);
    return a;
}

static kj_array *vec(void *data, kj_dtype dt, int64_t n) { return wrap(data, dt, 1, &n); }

static kj_array *arange_f64(int64_t n)
{
    kj_rt_error err = {0};
    kj_array *a = kj_array_arange_i64(0, n, 1, KJ_DT_FLOAT64, &err);
    assert_non_null(a);
    return a;
}

static kj_index sl(bool has_start, int64_t start, bool has_stop, int64_t stop, int64_t step)
{
    return (kj_index){.kind = KJ_IDX_SLICE, .has_start = has_start, .start = start,
                      .has_stop = has_stop, .stop = stop, .step = step};
}

static kj_index at(int64_t i) { return (kj_index){.kind = KJ_IDX_INT, .i = i}; }

static void assert_f64s(const kj_array *a, const double *want, int64_t n)
{
    assert_int_equal(kj_array_size(a), n);
    int64_t idx[KJ_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        double got = kj_array_get_f64(a, idx);
        if (!(got == want[k] || (isnan(got) && isnan(want[k]))))
            fail_msg("element %lld: got %.17g, want %.17g", (long long)k, got, want[k]);
        for (int d = a->ndim - 1; d >= 0; d--) {
            if (++idx[d] < a->shape[d]) break;
            idx[d] = 0;
        }
    }
}

static void assert_i64s(const kj_array *a, const int64_t *want, int64_t n)
{
    assert_int_equal(kj_array_size(a), n);
    int64_t idx[KJ_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        int64_t got = kj_array_get_i64(a, idx);
        if (got != want[k]) fail_msg("element %lld: got %lld, want %lld", (long long)k,
                                     (long long)got, (long long)want[k]);
        for (int d = a->ndim - 1; d >= 0; d--) {
            if (++idx[d] < a->shape[d]) break;
            idx[d] = 0;
        }
    }
}

/* The deterministic data the reduction tests share; in NumPy:
 *   i = np.arange(n); x = ((i*7919) % 1000) / 7.0 + i*1e-3 */
static kj_array *test_data(int64_t n)
{
    kj_rt_error err = {0};
    kj_array *a = kj_array_empty(KJ_DT_FLOAT64, 1, &n, &err);
    double *d = (double *)(void *)a->data;
    for (int64_t i = 0; i < n; i++) d[i] = (double)((i * 7919) % 1000) / 7.0 + (double)i * 1e-3;
    return a;
}

/* --- dtypes --------------------------------------------------------------- */

static void test_dtypes(void **state)
{
    (void)state;
    assert_int_equal(kj_dtype_size(KJ_DT_BOOL), 1);
    assert_int_equal(kj_dtype_size(KJ_DT_UINT16), 2);
    assert_int_equal(kj_dtype_size(KJ_DT_FLOAT64), 8);
    assert_string_equal(kj_dtype_name(KJ_DT_FLOAT32), "float32");
    assert_string_equal(kj_dtype_descr(KJ_DT_FLOAT32), "<f4");
    assert_string_equal(kj_dtype_descr(KJ_DT_BOOL), "|b1");
    assert_string_equal(kj_dtype_descr(KJ_DT_INT8), "|i1");
    assert_string_equal(kj_dtype_descr(KJ_DT_UINT64), "<u8");
    /* np.result_type */
    static const struct { kj_dtype a, b, r; } p[] = {
        {KJ_DT_INT8, KJ_DT_UINT8, KJ_DT_INT16},     {KJ_DT_INT32, KJ_DT_INT64, KJ_DT_INT64},
        {KJ_DT_INT64, KJ_DT_UINT64, KJ_DT_FLOAT64}, {KJ_DT_UINT32, KJ_DT_INT32, KJ_DT_INT64},
        {KJ_DT_UINT8, KJ_DT_INT32, KJ_DT_INT32},    {KJ_DT_INT16, KJ_DT_FLOAT32, KJ_DT_FLOAT32},
        {KJ_DT_INT32, KJ_DT_FLOAT32, KJ_DT_FLOAT64}, {KJ_DT_FLOAT32, KJ_DT_FLOAT64, KJ_DT_FLOAT64},
        {KJ_DT_BOOL, KJ_DT_UINT16, KJ_DT_UINT16},   {KJ_DT_BOOL, KJ_DT_BOOL, KJ_DT_BOOL},
        {KJ_DT_UINT16, KJ_DT_UINT64, KJ_DT_UINT64}, {KJ_DT_UINT64, KJ_DT_FLOAT32, KJ_DT_FLOAT64},
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        assert_int_equal(kj_dtype_promote(p[i].a, p[i].b), p[i].r);
        assert_int_equal(kj_dtype_promote(p[i].b, p[i].a), p[i].r);
    }
}

/* --- creation, flags, refcounts -------------------------------------------- */

static void test_create(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_array *z = kj_array_zeros(KJ_DT_INT32, 2, (int64_t[]){2, 3}, &err);
    assert_int_equal(z->strides[0], 12);
    assert_int_equal(z->strides[1], 4);
    assert_true(z->flags & KJ_ARR_C_CONTIGUOUS);
    assert_false(z->flags & KJ_ARR_F_CONTIGUOUS);
    assert_true(z->owns_data);
    assert_int_equal(kj_array_sum(z).v.i, 0);
    kj_array_release(z);

    /* np.full((2,), 3.7, dtype=np.int64) truncates */
    kj_array *f = kj_array_full(KJ_DT_INT64, 1, (int64_t[]){2}, kj_scalar_f64(3.7), &err);
    assert_i64s(f, (int64_t[]){3, 3}, 2);
    kj_array_release(f);

    /* errors as NumPy words them */
    assert_null(kj_array_empty(KJ_DT_FLOAT64, 1, (int64_t[]){-1}, &err));
    assert_string_equal(err.message, "negative dimensions are not allowed");
    assert_null(kj_array_empty(KJ_DT_FLOAT64, 2, (int64_t[]){INT64_C(1) << 40, INT64_C(1) << 40},
                               &err));
    assert_non_null(strstr(err.message, "array is too big"));
    /* a zero dimension does not hide the others' overflow (the strides are
     * made of them; found by the .npy fuzzer), as NumPy */
    assert_null(kj_array_empty(KJ_DT_UINT16, 4, (int64_t[]){0, INT64_C(5555555566666666), INT64_C(666666666666662), 4},
                               &err));
    assert_non_null(strstr(err.message, "array is too big"));
    kj_array *z0 = kj_array_empty(KJ_DT_UINT16, 3, (int64_t[]){0, INT64_C(1) << 30, INT64_C(1) << 20}, &err);
    assert_non_null(z0);
    assert_int_equal(kj_array_size(z0), 0);
    kj_array_release(z0);
#if !KJ_ASAN
    /* np.zeros(10**14): "Unable to allocate 728. TiB for an array with shape
     * (100000000000000,) and data type float64" (skipped under ASan, whose
     * allocator aborts on such requests) */
    assert_null(kj_array_empty(KJ_DT_FLOAT64, 1, (int64_t[]){INT64_C(100000000000000)}, &err));
    assert_string_equal(err.message, "unable to allocate 728. TiB for an array with shape "
                                     "(100000000000000,) and data type float64");
    assert_string_equal(err.exc, "MemoryError");
#endif
    /* empty arrays are both C and F contiguous; 0-d arrays hold one element */
    kj_array *e = kj_array_empty(KJ_DT_FLOAT32, 2, (int64_t[]){0, 3}, &err);
    assert_int_equal(e->flags, KJ_ARR_C_CONTIGUOUS | KJ_ARR_F_CONTIGUOUS);
    assert_int_equal(kj_array_size(e), 0);
    kj_array_release(e);
    kj_array *s = kj_array_from_scalar(kj_scalar_i64(-4));
    assert_int_equal(s->ndim, 0);
    assert_int_equal(kj_array_size(s), 1);
    assert_int_equal(kj_array_get_i64(s, NULL), -4);
    kj_array_release(s);
}

static void test_wrap_and_views_keep_base(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    /* Fortran-strided wrap of caller memory: zero copy, never freed */
    double mem[6] = {0, 1, 2, 3, 4, 5};
    kj_array *w = kj_array_wrap(mem, KJ_DT_FLOAT64, 2, (int64_t[]){2, 3}, (int64_t[]){8, 16}, &err);
    assert_false(w->owns_data);
    assert_true(w->flags & KJ_ARR_F_CONTIGUOUS);
    assert_false(w->flags & KJ_ARR_C_CONTIGUOUS);
    assert_true(kj_array_get_f64(w, (int64_t[]){1, 2}) == 5);
    kj_array_set_f64(w, (int64_t[]){0, 1}, 9.5);
    assert_true(mem[2] == 9.5);
    kj_array_release(w);

    /* a view outlives the array it was taken from (ASan checks the rest) */
    kj_array *a = arange_f64(10);
    kj_index ix = sl(true, 2, true, 8, 3);
    kj_array *v = kj_array_view(a, &ix, 1, &err);
    assert_ptr_equal(v->base, a);
    kj_array *vv = kj_array_view(v, &ix, 0, &err);
    assert_ptr_equal(vv->base, a); /* bases collapse to the owner */
    kj_array_release(a);
    assert_f64s(v, (double[]){2, 5}, 2);
    kj_array_release(v);
    assert_f64s(vv, (double[]){2, 5}, 2);
    kj_array_retain(vv);
    kj_array_release(vv);
    kj_array_release(vv);
}

/* --- slicing ---------------------------------------------------------------- */

static void test_slicing(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_array *a = arange_f64(10);
    static const struct {
        kj_index ix;
        int64_t n;
        double want[10];
    } cases[] = {
        {{.kind = KJ_IDX_SLICE, .has_start = true, .start = 1, .has_stop = true, .stop = -1,
          .step = 1}, 8, {1, 2, 3, 4, 5, 6, 7, 8}},                                   /* a[1:-1] */
        {{.kind = KJ_IDX_SLICE, .step = -1}, 10, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},     /* a[::-1] */
        {{.kind = KJ_IDX_SLICE, .step = -3}, 4, {9, 6, 3, 0}},                        /* a[::-3] */
        {{.kind = KJ_IDX_SLICE, .has_start = true, .start = -3, .step = 1}, 3, {7, 8, 9}},
        {{.kind = KJ_IDX_SLICE, .has_start = true, .start = -100, .has_stop = true, .stop = 2,
          .step = 1}, 2, {0, 1}},                                                     /* clamped */
        {{.kind = KJ_IDX_SLICE, .has_start = true, .start = 100, .step = -2}, 5, {9, 7, 5, 3, 1}},
        {{.kind = KJ_IDX_SLICE, .has_start = true, .start = 5, .has_stop = true, .stop = 2,
          .step = 1}, 0, {0}},                                                        /* a[5:2] */
        {{.kind = KJ_IDX_SLICE, .has_start = true, .start = 2, .has_stop = true, .stop = -100,
          .step = -1}, 3, {2, 1, 0}},                                   /* a[2:-100:-1] */
        {{.kind = KJ_IDX_SLICE, .has_stop = true, .stop = 3, .step = INT64_MIN}, 1, {9}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kj_array *v = kj_array_view(a, &cases[i].ix, 1, &err);
        assert_non_null(v);
        assert_int_equal(v->shape[0], cases[i].n);
        assert_f64s(v, cases[i].want, cases[i].n);
        kj_array_release(v);
    }
    kj_index zero = sl(false, 0, false, 0, 0);
    assert_null(kj_array_view(a, &zero, 1, &err));
    assert_string_equal(err.message, "slice step cannot be zero");
    kj_array_release(a);

    /* m = np.arange(12.).reshape(3, 4): m[1], m[:, -1], m[-1, ::-2], m[1, 2] */
    kj_array *base = arange_f64(12);
    kj_array *m = kj_array_reshape(base, 2, (int64_t[]){3, 4}, &err);
    kj_array_release(base);
    kj_array *row = kj_array_view(m, (kj_index[]){at(1)}, 1, &err);
    assert_int_equal(row->ndim, 1);
    assert_f64s(row, (double[]){4, 5, 6, 7}, 4);
    kj_array *col = kj_array_view(m, (kj_index[]){sl(false, 0, false, 0, 1), at(-1)}, 2, &err);
    assert_f64s(col, (double[]){3, 7, 11}, 3);
    assert_int_equal(col->strides[0], 32);
    kj_array *back = kj_array_view(m, (kj_index[]){at(-1), sl(false, 0, false, 0, -2)}, 2, &err);
    assert_f64s(back, (double[]){11, 9}, 2);
    kj_array *el = kj_array_view(m, (kj_index[]){at(1), at(2)}, 2, &err);
    assert_int_equal(el->ndim, 0);
    assert_true(kj_array_get_f64(el, NULL) == 6);
    kj_array_release(row), kj_array_release(col), kj_array_release(back), kj_array_release(el);

    /* NumPy's IndexError messages */
    assert_null(kj_array_view(m, (kj_index[]){at(3)}, 1, &err));
    assert_string_equal(err.message, "index 3 is out of bounds for axis 0 with size 3");
    assert_string_equal(err.exc, "IndexError");
    assert_null(kj_array_view(m, (kj_index[]){sl(false, 0, false, 0, 1), at(-5)}, 2, &err));
    assert_string_equal(err.message, "index -5 is out of bounds for axis 1 with size 4");
    assert_null(kj_array_view(m, (kj_index[]){at(0), at(0), at(0)}, 3, &err));
    assert_string_equal(err.message,
                        "too many indices for array: array is 2-dimensional, but 3 were indexed");
    kj_array_release(m);
}

/* --- reshape ---------------------------------------------------------------- */

static void test_reshape(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_array *a = arange_f64(12);
    kj_array *r = kj_array_reshape(a, 3, (int64_t[]){2, -1, 3}, &err);
    assert_non_null(r);
    assert_int_equal(r->shape[1], 2);
    assert_ptr_equal(r->data, a->data); /* a view */
    assert_ptr_equal(r->base, a);

    /* a strided view that can still be reshaped without a copy:
     * np.arange(12.)[::2].reshape(2, 3) is a view with strides (48, 16) */
    kj_array *ev = kj_array_view(a, (kj_index[]){sl(false, 0, false, 0, 2)}, 1, &err);
    kj_array *rv = kj_array_reshape(ev, 2, (int64_t[]){2, 3}, &err);
    assert_ptr_equal(rv->data, a->data);
    assert_int_equal(rv->strides[0], 48);
    assert_int_equal(rv->strides[1], 16);
    assert_f64s(rv, (double[]){0, 2, 4, 6, 8, 10}, 6);

    /* the transpose of a C array cannot be flattened in place: a copy
     * (np.arange(12.).reshape(3,4).T.reshape(12)) */
    kj_array *t = kj_array_wrap(a->data, KJ_DT_FLOAT64, 2, (int64_t[]){4, 3}, (int64_t[]){8, 32},
                                &err);
    kj_array *flat = kj_array_reshape(t, 1, (int64_t[]){12}, &err);
    assert_ptr_not_equal(flat->data, a->data);
    assert_f64s(flat, (double[]){0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}, 12);

    /* NumPy's messages, shape strings included */
    assert_null(kj_array_reshape(a, 1, (int64_t[]){5}, &err));
    assert_string_equal(err.message, "cannot reshape array of size 12 into shape (5,)");
    assert_string_equal(err.exc, "ValueError");
    assert_null(kj_array_reshape(a, 2, (int64_t[]){-1, 5}, &err));
    assert_string_equal(err.message, "cannot reshape array of size 12 into shape (5)");
    assert_null(kj_array_reshape(a, 3, (int64_t[]){2, -1, 5}, &err));
    assert_string_equal(err.message, "cannot reshape array of size 12 into shape (2,newaxis,5)");
    assert_null(kj_array_reshape(a, 2, (int64_t[]){-1, -1}, &err));
    assert_string_equal(err.message, "can only specify one unknown dimension");
    kj_array *r0 = kj_array_reshape(a, 2, (int64_t[]){-3, 4}, &err); /* any negative is unknown */
    assert_int_equal(r0->shape[0], 3);
    kj_array_release(r0);
    kj_array_release(r), kj_array_release(ev), kj_array_release(rv), kj_array_release(t);
    kj_array_release(flat), kj_array_release(a);
}

/* --- copies and casts -------------------------------------------------------- */

static void test_copy_astype(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    /* np.array([300.7, -1.5, nan, 0.5]).astype(np.int8) → [44, -1, 0, 0]
     * np.array([0.0, -0.0, nan, 2]).astype(bool) → [F, F, T, T]
     * np.array([-1, 255], np.int16).astype(np.uint8) → [255, 255]
     * np.array([16777217]).astype(np.float32) → [16777216.0] */
    double f[4] = {300.7, -1.5, NAN, 0.5};
    kj_array *a = vec(f, KJ_DT_FLOAT64, 4);
    kj_array *i8 = kj_array_astype(a, KJ_DT_INT8, &err);
    assert_i64s(i8, (int64_t[]){44, -1, 0, 0}, 4);
    kj_array *i32 = kj_array_astype(a, KJ_DT_INT32, &err);
    assert_i64s(i32, (int64_t[]){300, -1, INT32_MIN, 0}, 4);
    double g[4] = {0.0, -0.0, NAN, 2};
    kj_array *b = vec(g, KJ_DT_FLOAT64, 4);
    kj_array *bb = kj_array_astype(b, KJ_DT_BOOL, &err);
    assert_i64s(bb, (int64_t[]){0, 0, 1, 1}, 4);
    int16_t h[2] = {-1, 255};
    kj_array *c = vec(h, KJ_DT_INT16, 2);
    kj_array *u8 = kj_array_astype(c, KJ_DT_UINT8, &err);
    assert_i64s(u8, (int64_t[]){255, 255}, 2);
    int64_t big = 16777217;
    kj_array *d = vec(&big, KJ_DT_INT64, 1);
    kj_array *f32 = kj_array_astype(d, KJ_DT_FLOAT32, &err);
    assert_true(kj_array_get_f64(f32, (int64_t[]){0}) == 16777216.0);
    /* scalar casts follow the same rules */
    assert_int_equal(kj_scalar_cast(kj_scalar_f64(-2.9), KJ_DT_INT64).v.i, -2);
    assert_int_equal(kj_scalar_cast(kj_scalar_i64(-1), KJ_DT_UINT64).v.u, UINT64_MAX);
    assert_int_equal(kj_scalar_cast(kj_scalar_i64(258), KJ_DT_UINT8).v.u, 2);

    /* copy of a reversed view is C ordered with the view's values */
    kj_array *r = kj_array_view(a, (kj_index[]){sl(false, 0, false, 0, -1)}, 1, &err);
    kj_array *cp = kj_array_copy(r, &err);
    assert_true(kj_array_is_c_contiguous(cp));
    assert_int_equal(cp->strides[0], 8);
    assert_f64s(cp, (double[]){0.5, NAN, -1.5, 300.7}, 4);

    /* overlapping assignment a[1:] = a[:-1] copies first, as NumPy does */
    double o[5] = {1, 2, 3, 4, 5};
    kj_array *oa = vec(o, KJ_DT_FLOAT64, 5);
    kj_array *dst = kj_array_view(oa, (kj_index[]){sl(true, 1, false, 0, 1)}, 1, &err);
    kj_array *src = kj_array_view(oa, (kj_index[]){sl(false, 0, true, -1, 1)}, 1, &err);
    assert_true(kj_array_assign(dst, src, &err));
    assert_f64s(oa, (double[]){1, 1, 2, 3, 4}, 5);
    kj_array *three = vec(o, KJ_DT_FLOAT64, 3);
    assert_false(kj_array_assign(src, three, &err));
    assert_string_equal(err.message,
                        "could not broadcast input array from shape (3,) into shape (4,)");
    kj_array_release(three);
    kj_array_release(dst), kj_array_release(src), kj_array_release(oa);
    kj_array_release(r), kj_array_release(cp);
    kj_array *arrs[] = {a, i8, i32, b, bb, c, u8, d, f32};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) kj_array_release(arrs[i]);
}

/* --- broadcasting and elementwise operations ------------------------------- */

static void test_broadcast_shapes(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    int n;
    int64_t out[KJ_MAX_DIMS];
    assert_true(kj_broadcast_shapes(2, (int64_t[]){4, 1}, 3, (int64_t[]){2, 1, 5}, &n, out, &err));
    assert_int_equal(n, 3);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 4);
    assert_int_equal(out[2], 5);
    assert_true(kj_broadcast_shapes(0, NULL, 1, (int64_t[]){0}, &n, out, &err));
    assert_int_equal(out[0], 0);
    assert_false(kj_broadcast_shapes(1, (int64_t[]){3}, 1, (int64_t[]){4}, &n, out, &err));
    assert_string_equal(err.message,
                        "operands could not be broadcast together with shapes (3,) (4,)");
    assert_false(kj_broadcast_shapes(2, (int64_t[]){2, 3}, 3, (int64_t[]){4, 1, 5}, &n, out, &err));
    assert_string_equal(err.message,
                        "operands could not be broadcast together with shapes (2,3) (4,1,5)");
}

static void test_op_dtypes(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_dtype r;
    static const struct { kj_array_op op; kj_dtype a, b, r; } t[] = {
        {KJ_AOP_DIV, KJ_DT_INT32, KJ_DT_INT32, KJ_DT_FLOAT64},
        {KJ_AOP_DIV, KJ_DT_INT8, KJ_DT_INT8, KJ_DT_FLOAT64},
        {KJ_AOP_DIV, KJ_DT_FLOAT32, KJ_DT_INT16, KJ_DT_FLOAT32},
        {KJ_AOP_DIV, KJ_DT_BOOL, KJ_DT_BOOL, KJ_DT_FLOAT64},
        {KJ_AOP_ADD, KJ_DT_BOOL, KJ_DT_BOOL, KJ_DT_BOOL},
        {KJ_AOP_FLOORDIV, KJ_DT_BOOL, KJ_DT_BOOL, KJ_DT_INT8},
        {KJ_AOP_POW, KJ_DT_BOOL, KJ_DT_BOOL, KJ_DT_INT8},
        {KJ_AOP_MAX, KJ_DT_BOOL, KJ_DT_BOOL, KJ_DT_BOOL},
        {KJ_AOP_LT, KJ_DT_FLOAT64, KJ_DT_INT8, KJ_DT_BOOL},
        {KJ_AOP_MUL, KJ_DT_INT64, KJ_DT_UINT64, KJ_DT_FLOAT64},
        {KJ_AOP_MOD, KJ_DT_UINT8, KJ_DT_INT8, KJ_DT_INT16},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        assert_true(kj_array_op_dtype(t[i].op, t[i].a, t[i].b, &r, &err));
        assert_int_equal(r, t[i].r);
    }
    assert_false(kj_array_op_dtype(KJ_AOP_SUB, KJ_DT_BOOL, KJ_DT_BOOL, &r, &err));
    assert_string_equal(err.exc, "TypeError");
    assert_string_equal(err.message, "numpy boolean subtract, the `-` operator, is not supported, "
                                     "use the bitwise_xor, the `^` operator, or the logical_xor "
                                     "function instead.");
}

static kj_array *binop(kj_array_op op, kj_array *a, kj_array *b)
{
    kj_rt_error err = {0};
    kj_array *r = kj_array_binop(op, a, b, &err);
    if (!r) fail_msg("%s", err.message);
    return r;
}

static void test_binop_values(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    /* np.array([-7, 7, -7, 7]) // np.array([2, 2, -2, -2]) → [-4, 3, 3, -4];
     * % → [1, 1, -1, -1] */
    int64_t x[4] = {-7, 7, -7, 7}, y[4] = {2, 2, -2, -2};
    kj_array *a = vec(x, KJ_DT_INT64, 4), *b = vec(y, KJ_DT_INT64, 4);
    kj_array *q = binop(KJ_AOP_FLOORDIV, a, b), *m = binop(KJ_AOP_MOD, a, b);
    assert_i64s(q, (int64_t[]){-4, 3, 3, -4}, 4);
    assert_i64s(m, (int64_t[]){1, 1, -1, -1}, 4);
    kj_array *d = binop(KJ_AOP_DIV, a, b);
    assert_int_equal(d->dtype, KJ_DT_FLOAT64);
    assert_f64s(d, (double[]){-3.5, 3.5, 3.5, -3.5}, 4);
    kj_array_release(q), kj_array_release(m), kj_array_release(d);

    /* integer // 0 and % 0 give 0; INT64_MIN // -1 wraps */
    int64_t z[4] = {0, 0, -1, -1}, mn[4] = {5, -5, INT64_MIN, 3};
    kj_array *zz = vec(z, KJ_DT_INT64, 4), *mm = vec(mn, KJ_DT_INT64, 4);
    q = binop(KJ_AOP_FLOORDIV, mm, zz);
    m = binop(KJ_AOP_MOD, mm, zz);
    assert_i64s(q, (int64_t[]){0, 0, INT64_MIN, -3}, 4);
    assert_i64s(m, (int64_t[]){0, 0, 0, 0}, 4);
    kj_array_release(q), kj_array_release(m);

    /* floats: np.array([-7.5, 7.5, -1.0, 1.0, 5.0]) // and % np.array([2., 2., 1., -1., 0.])
     * → [-4, 3, -1, -1, inf] and [0.5, 1.5, 0.0, -0.0, nan] */
    double fx[5] = {-7.5, 7.5, -1.0, 1.0, 5.0}, fy[5] = {2, 2, 1, -1, 0};
    kj_array *fa = vec(fx, KJ_DT_FLOAT64, 5), *fb = vec(fy, KJ_DT_FLOAT64, 5);
    q = binop(KJ_AOP_FLOORDIV, fa, fb);
    m = binop(KJ_AOP_MOD, fa, fb);
    assert_f64s(q, (double[]){-4, 3, -1, -1, INFINITY}, 5);
    assert_f64s(m, (double[]){0.5, 1.5, 0.0, -0.0, NAN}, 5);
    assert_false(signbit(kj_array_get_f64(m, (int64_t[]){2})));
    assert_true(signbit(kj_array_get_f64(m, (int64_t[]){3})));
    kj_array_release(q), kj_array_release(m);

    /* wrapping narrow ints: int8 100+100 = -56, uint8 3-5 = 254, int8 3**5 = -13 */
    int8_t i8a = 100, i8b = 3, i8c = 5;
    uint8_t u8a = 3, u8b = 5;
    kj_array *A = vec(&i8a, KJ_DT_INT8, 1), *B = vec(&i8b, KJ_DT_INT8, 1);
    kj_array *C = vec(&i8c, KJ_DT_INT8, 1);
    kj_array *U = vec(&u8a, KJ_DT_UINT8, 1), *V = vec(&u8b, KJ_DT_UINT8, 1);
    kj_array *s = binop(KJ_AOP_ADD, A, A), *t = binop(KJ_AOP_SUB, U, V);
    kj_array *p = binop(KJ_AOP_POW, B, C);
    assert_int_equal(s->dtype, KJ_DT_INT8);
    assert_int_equal(kj_array_get_i64(s, (int64_t[]){0}), -56);
    assert_int_equal(kj_array_get_i64(t, (int64_t[]){0}), 254);
    assert_int_equal(kj_array_get_i64(p, (int64_t[]){0}), -13);
    kj_array_release(s), kj_array_release(t), kj_array_release(p);

    /* int ** negative int is an error */
    int64_t neg = -1;
    kj_array *N = vec(&neg, KJ_DT_INT64, 1);
    assert_null(kj_array_binop(KJ_AOP_POW, mm, N, &err));
    assert_string_equal(err.message, "Integers to negative integer powers are not allowed.");

    /* comparisons: NaN compares unequal; int64 vs uint64 compare in float64 */
    double nx[2] = {NAN, 1.0};
    kj_array *nn = vec(nx, KJ_DT_FLOAT64, 2);
    kj_array *eq = binop(KJ_AOP_EQ, nn, nn), *ne = binop(KJ_AOP_NE, nn, nn);
    assert_int_equal(eq->dtype, KJ_DT_BOOL);
    assert_i64s(eq, (int64_t[]){0, 1}, 2);
    assert_i64s(ne, (int64_t[]){1, 0}, 2);
    uint64_t umax = UINT64_MAX;
    kj_array *UM = vec(&umax, KJ_DT_UINT64, 1);
    kj_array *lt = binop(KJ_AOP_LT, N, UM);
    assert_int_equal(kj_array_get_i64(lt, (int64_t[]){0}), 1);

    /* minimum/maximum propagate NaN; between 0.0 and -0.0 the second wins */
    double mx[3] = {NAN, 1.0, 0.0}, my[3] = {2.0, NAN, -0.0};
    kj_array *MX = vec(mx, KJ_DT_FLOAT64, 3), *MY = vec(my, KJ_DT_FLOAT64, 3);
    kj_array *mxr = binop(KJ_AOP_MAX, MX, MY);
    assert_f64s(mxr, (double[]){NAN, NAN, 0.0}, 3);
    assert_true(signbit(kj_array_get_f64(mxr, (int64_t[]){2})));

    /* bool - bool is refused */
    bool bv = true;
    kj_array *BV = vec(&bv, KJ_DT_BOOL, 1);
    assert_null(kj_array_binop(KJ_AOP_SUB, BV, BV, &err));
    kj_array *arrs[] = {a,  b,  zz, mm, fa, fb, A,  B,  C,   U, V,
                        N,  nn, eq, ne, UM, lt, MX, MY, mxr, BV};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) kj_array_release(arrs[i]);
}

static void test_binop_broadcast_and_out(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    /* np.array([[1], [2]]) + np.array([10, 20, 30]) → [[11, 21, 31], [12, 22, 32]] */
    int64_t c[2] = {1, 2}, r[3] = {10, 20, 30};
    kj_array *col = wrap(c, KJ_DT_INT64, 2, (int64_t[]){2, 1}), *row = vec(r, KJ_DT_INT64, 3);
    kj_array *s = binop(KJ_AOP_ADD, col, row);
    assert_int_equal(s->ndim, 2);
    assert_i64s(s, (int64_t[]){11, 21, 31, 12, 22, 32}, 6);
    /* float32 / float32 stays float32: np.float32(1)/np.float32(3) */
    float one = 1, three = 3;
    kj_array *f1 = wrap(&one, KJ_DT_FLOAT32, 0, NULL), *f3 = wrap(&three, KJ_DT_FLOAT32, 0, NULL);
    kj_array *q = binop(KJ_AOP_DIV, f1, f3);
    assert_int_equal(q->dtype, KJ_DT_FLOAT32);
    assert_true(kj_array_get_f64(q, NULL) == 0x1.555556p-2);

    /* a += b into a strided view, and into itself with overlap:
     * x = np.arange(6.); x[::2] += 10 → [10, 1, 12, 3, 14, 5] */
    kj_array *x = arange_f64(6);
    kj_array *ev = kj_array_view(x, (kj_index[]){sl(false, 0, false, 0, 2)}, 1, &err);
    double ten = 10;
    kj_array *t = wrap(&ten, KJ_DT_FLOAT64, 0, NULL);
    assert_true(kj_array_binop_out(KJ_AOP_ADD, ev, t, ev, &err));
    assert_f64s(x, (double[]){10, 1, 12, 3, 14, 5}, 6);
    /* x[1:] = x[1:] + x[:-1] reads the old values: [10, 11, 13, 15, 17, 19] */
    kj_array *tail = kj_array_view(x, (kj_index[]){sl(true, 1, false, 0, 1)}, 1, &err);
    kj_array *head = kj_array_view(x, (kj_index[]){sl(false, 0, true, -1, 1)}, 1, &err);
    assert_true(kj_array_binop_out(KJ_AOP_ADD, tail, head, tail, &err));
    assert_f64s(x, (double[]){10, 11, 13, 15, 17, 19}, 6);
    /* the output must have the broadcast shape */
    assert_false(kj_array_binop_out(KJ_AOP_ADD, col, row, tail, &err));
    assert_string_equal(err.message, "non-broadcastable output operand with shape (5,) doesn't "
                                     "match the broadcast shape (2,3)");
    assert_null(kj_array_binop(KJ_AOP_MUL, row, tail, &err));
    assert_string_equal(err.message,
                        "operands could not be broadcast together with shapes (3,) (5,)");
    kj_array *arrs[] = {col, row, s, f1, f3, q, x, ev, t, tail, head};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) kj_array_release(arrs[i]);
}

/* --- reductions ---------------------------------------------------------------- */

/* np.sum(x) for the shared test data with n = 100000: NumPy's pairwise
 * summation in chunks of 8192 → 0x1.7259e0924924ap+23, where a naive loop
 * gives 0x1.7259e0924921bp+23. */
static void test_sum_pairwise(void **state)
{
    (void)state;
    kj_array *x = test_data(100000);
    kj_scalar s = kj_array_sum(x);
    assert_int_equal(s.dtype, KJ_DT_FLOAT64);
    assert_true(s.v.f == 0x1.7259e0924924ap+23);
    double naive = 0;
    for (int64_t i = 0; i < 100000; i++) naive += ((double *)(void *)x->data)[i];
    assert_true(naive == 0x1.7259e0924921bp+23); /* the test can tell them apart */
    /* np.mean(x), np.std(x) */
    assert_true(kj_array_mean(x).v.f == 0x1.e56d33c8ff1f6p+6);
    assert_true(kj_array_std(x, 0).v.f == 0x1.92b603b554d18p+5);

    /* x32 = x.astype(np.float32): sum, mean and std all in float32 */
    kj_rt_error err = {0};
    kj_array *x32 = kj_array_astype(x, KJ_DT_FLOAT32, &err);
    s = kj_array_sum(x32);
    assert_int_equal(s.dtype, KJ_DT_FLOAT32);
    assert_true(s.v.f == 0x1.7259ep+23);
    assert_true(kj_array_mean(x32).v.f == 0x1.e56d34p+6);
    assert_true(kj_array_std(x32, 0).v.f == 0x1.92b604p+5);
    kj_array_release(x32);

    /* views: v = x.reshape(200, 500)[:, ::3] (strided, summed through the
     * buffer across rows), x.reshape(500, 200).T (memory order) and x[::-1] */
    kj_array *m = kj_array_reshape(x, 2, (int64_t[]){200, 500}, &err);
    kj_index every3[2] = {sl(false, 0, false, 0, 1), sl(false, 0, false, 0, 3)};
    kj_array *v = kj_array_view(m, every3, 2, &err);
    assert_true(kj_array_sum(v).v.f == 0x1.ebaf4715f15f2p+21);
    assert_true(kj_array_mean(v).v.f == 0x1.e26185926e5e3p+6);
    assert_true(kj_array_std(v, 0).v.f == 0x1.928fab2da71fbp+5);
    assert_true(kj_array_std(v, 1).v.f == 0x1.929136218e756p+5);
    kj_array *t = kj_array_wrap(x->data, KJ_DT_FLOAT64, 2, (int64_t[]){200, 500},
                                (int64_t[]){8, 1600}, &err);
    assert_true(kj_array_sum(t).v.f == 0x1.7259e0924924ap+23);
    assert_true(kj_array_std(t, 0).v.f == 0x1.92b603b554d18p+5);
    kj_array *r = kj_array_view(x, (kj_index[]){sl(false, 0, false, 0, -1)}, 1, &err);
    assert_true(kj_array_sum(r).v.f == 0x1.7259e09249249p+23);
    assert_true(kj_array_std(r, 0).v.f == 0x1.92b603b554d17p+5);
    kj_array_release(m), kj_array_release(v), kj_array_release(t), kj_array_release(r);
    kj_array_release(x);
}

/* Reductions along an axis, against NumPy 1.24 on the shared data, where
 * NumPy's order (pairwise along its inner loop, serial across it) and the
 * other one give other bits (noted beside each). */
static void test_reduce_axis(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_array *x = test_data(100000);
    /* t = x.reshape(500, 200).T: axis 0 is the inner loop (pairwise), axis 1
     * is summed row by row */
    kj_array *t = kj_array_wrap(x->data, KJ_DT_FLOAT64, 2, (int64_t[]){200, 500}, (int64_t[]){8, 1600}, &err);
    kj_array *r = kj_array_reduce_axis(t, KJ_REDUCE_SUM, 0, 0, &err);
    assert_int_equal(r->ndim, 1), assert_int_equal(r->shape[0], 500);
    assert_true(((double *)(void *)r->data)[3] == 0x1.bec857c57c57cp+13); /* serial: ...578p+13 */
    kj_array_release(r);
    r = kj_array_reduce_axis(t, KJ_REDUCE_SUM, 1, 0, &err);
    assert_true(((double *)(void *)r->data)[7] == 0x1.b49424924926fp+15); /* pairwise: ...248p+15 */
    kj_array_release(r);
    r = kj_array_reduce_axis(t, KJ_REDUCE_STD, 1, 0, &err);
    assert_true(((double *)(void *)r->data)[7] == 0x1.8e30572cebcc4p+5);
    kj_array_release(r);
    r = kj_array_reduce_axis(t, KJ_REDUCE_MEAN, 0, 0, &err);
    assert_true(((double *)(void *)r->data)[499] == 0x1.56cc8b439580fp+7);
    kj_array_release(r);
    /* np.broadcast_to(x[:300, None], (300, 4)): the stride-0 axis keeps C
     * order, so axis 0 is summed row by row */
    kj_array *b = kj_array_wrap(x->data, KJ_DT_FLOAT64, 2, (int64_t[]){300, 4}, (int64_t[]){8, 0}, &err);
    r = kj_array_reduce_axis(b, KJ_REDUCE_SUM, 0, 0, &err);
    assert_true(((double *)(void *)r->data)[2] == 0x1.4fdb66666666ep+14); /* pairwise: ...667p+14 */
    kj_array_release(r);
    /* m = x.astype(np.float32).reshape(20, 5000): float32 results */
    kj_array *x32 = kj_array_astype(x, KJ_DT_FLOAT32, &err);
    kj_array *m = kj_array_reshape(x32, 2, (int64_t[]){20, 5000}, &err);
    r = kj_array_reduce_axis(m, KJ_REDUCE_SUM, 1, 0, &err);
    assert_int_equal(r->dtype, KJ_DT_FLOAT32);
    assert_true(((float *)(void *)r->data)[4] == 0x1.ca48cep+18f); /* serial: 0x1.ca48ccp+18 */
    kj_array_release(r);
    r = kj_array_reduce_axis(m, KJ_REDUCE_SUM, 0, 0, &err);
    assert_true(((float *)(void *)r->data)[123] == 0x1.088b26p+10f);
    kj_array_release(r);
    r = kj_array_reduce_axis(m, KJ_REDUCE_VAR, 0, 0, &err);
    assert_true(((float *)(void *)r->data)[9] == 0x1.9fap+9f);
    kj_array_release(r);
    /* dtypes and errors */
    assert_int_equal(kj_reduce_dtype(KJ_REDUCE_SUM, KJ_DT_UINT8), KJ_DT_UINT64);
    assert_int_equal(kj_reduce_dtype(KJ_REDUCE_PROD, KJ_DT_BOOL), KJ_DT_INT64);
    assert_int_equal(kj_reduce_dtype(KJ_REDUCE_MEAN, KJ_DT_INT16), KJ_DT_FLOAT64);
    assert_int_equal(kj_reduce_dtype(KJ_REDUCE_ARGMAX, KJ_DT_FLOAT32), KJ_DT_INT64);
    kj_array *e = kj_array_zeros(KJ_DT_FLOAT64, 2, (int64_t[]){0, 3}, &err);
    assert_null(kj_array_reduce_axis(e, KJ_REDUCE_ARGMIN, 0, 0, &err));
    assert_string_equal(err.message, "attempt to get argmin of an empty sequence");
    r = kj_array_reduce_axis(e, KJ_REDUCE_PROD, 0, 0, &err);
    assert_true(((double *)(void *)r->data)[2] == 1.0);
    kj_array_release(r);
    kj_array_release(e), kj_array_release(m), kj_array_release(x32), kj_array_release(b), kj_array_release(t);
    kj_array_release(x);
}

/* The min/max folds of array_extreme.c in each instruction set this CPU
 * has (a narrower one where it lacks one) against the element-at-a-time
 * rules, bit for bit, over runs and rows of values that tie, mix zeros'
 * signs and hold NaNs of different signs. */
static uint64_t lcg(uint64_t *s) { return (*s = *s * 6364136223846793005u + 1442695040888963407u) >> 33; }

static double fold_value(uint64_t *s, int nan_odds)
{
    static const double pick[] = {-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, INFINITY, -INFINITY, 0.5};
    uint64_t r = lcg(s);
    if ((int)(r % 1000) < nan_odds) return r & 1000 ? -NAN : NAN;
    return pick[(r / 1000) % 9];
}

static double ref_run(const double *x, int64_t n, bool mx)
{
    double m = x[0];
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(x[i])) return x[i];
        if (mx ? x[i] > m : x[i] < m) m = x[i];
        if (x[i] == m) at = i; /* the last of the equal ones */
    }
    return x[at];
}

static double ref_row(double a, double v, bool mx)
{
    if (isnan(a)) return a;
    if (isnan(v)) return v;
    return (mx ? v >= a : v <= a) ? v : a;
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static void test_extreme_folds(void **state)
{
    (void)state;
    enum { N = 700 };
    static double d[5 * N], acc[N], want[N];
    static float f[5 * N], accf[N];
    uint64_t s = 12345;
    for (int isa = KJ_FOLD_SSE; isa <= KJ_FOLD_AVX512; isa++)
        for (int trial = 0; trial < 400; trial++) {
            int64_t n = 1 + (int64_t)(lcg(&s) % N);
            int odds = trial % 3 == 0 ? 0 : trial % 3 == 1 ? 2 : 40;
            for (int64_t i = 0; i < 5 * N; i++) f[i] = (float)(d[i] = fold_value(&s, odds));
            for (int mx = 0; mx < 2; mx++) {
                double r = ref_run(d, n, mx);
                double g = mx ? kj_run_max_f64_isa(isa, d, n) : kj_run_min_f64_isa(isa, d, n);
                float g32 = mx ? kj_run_max_f32_isa(isa, f, n) : kj_run_min_f32_isa(isa, f, n);
                assert_true(same_bits(g, r));
                assert_true(same_bits((double)g32, r));
                /* k rows after acc: row j at d + (j + 1) N */
                int k = 1 + trial % 4;
                for (int64_t i = 0; i < n; i++) {
                    acc[i] = d[i], accf[i] = f[i], want[i] = d[i];
                    for (int j = 0; j < k; j++) want[i] = ref_row(want[i], d[(j + 1) * N + i], mx);
                }
                const char *rows = (const char *)(d + N), *rows32 = (const char *)(f + N);
                if (mx) {
                    kj_rows_max_f64_isa(isa, acc, rows, N * 8, k, n);
                    kj_rows_max_f32_isa(isa, accf, rows32, N * 4, k, n);
                } else {
                    kj_rows_min_f64_isa(isa, acc, rows, N * 8, k, n);
                    kj_rows_min_f32_isa(isa, accf, rows32, N * 4, k, n);
                }
                for (int64_t i = 0; i < n; i++) {
                    assert_true(same_bits(acc[i], want[i]));
                    assert_true(same_bits((double)accf[i], want[i]));
                }
            }
        }
}

/* NumPy's pairwise sum (loops_utils.h), written plainly: the reference
 * for both forms of kj_pairwise_* (one leaf at a time, and four leaves at
 * once with AVX2), bit for bit, over lengths around the leaf and batch
 * sizes and values of mixed magnitudes (so that the order shows). */
static double ref_pairwise(const double *x, int64_t n, bool f32)
{
#define RND(v) (f32 ? (double)(float)(v) : (v))
    if (n < 8) {
        double r = 0;
        for (int64_t i = 0; i < n; i++) r = RND(r + x[i]);
        return r;
    }
    if (n <= 128) {
        double r[8];
        int64_t i;
        for (int k = 0; k < 8; k++) r[k] = x[k];
        for (i = 8; i < n - n % 8; i += 8)
            for (int k = 0; k < 8; k++) r[k] = RND(r[k] + x[i + k]);
        double res = RND(RND(RND(r[0] + r[1]) + RND(r[2] + r[3])) + RND(RND(r[4] + r[5]) + RND(r[6] + r[7])));
        for (; i < n; i++) res = RND(res + x[i]);
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    double lo = ref_pairwise(x, n2, f32);
    return RND(lo + ref_pairwise(x + n2, n - n2, f32));
#undef RND
}

static void test_pairwise_forms(void **state)
{
    (void)state;
    enum { N = 20000 };
    static double d[N];
    static float f[N];
    uint64_t s = 777;
    for (int64_t i = 0; i < N; i++) {
        int e = (int)(lcg(&s) % 40) - 20;
        d[i] = ldexp((double)(lcg(&s) % 1000000) - 500000.0, e);
        f[i] = (float)d[i];
        d[i] = i % 2 ? d[i] : (double)f[i];
    }
    static double d32[N];
    for (int64_t i = 0; i < N; i++) d32[i] = f[i];
    int64_t lens[] = {1, 7, 8, 9, 127, 128, 129, 255, 256, 257, 511, 1000, 1024, 4095, 4096, 8191, 8192, 8193, 10000, 16384, 19999, N};
    for (unsigned t = 0; t < sizeof lens / sizeof *lens; t++)
        for (int isa = KJ_FOLD_SSE; isa <= KJ_FOLD_AVX512; isa++) {
            int64_t n = lens[t], off = (int64_t)(t % 3); /* misaligned starts too */
            if (n + off > N) off = 0;
            double g = kj_pairwise_f64_isa(isa, (const char *)(d + off), n, 8);
            float g32 = kj_pairwise_f32_isa(isa, (const char *)(f + off), n, 4);
            assert_true(same_bits(g, ref_pairwise(d + off, n, false)));
            assert_true(same_bits((double)g32, ref_pairwise(d32 + off, n, true)));
        }
}

/* Whole-array reductions spread over tasks (the parallel target's pool)
 * give the bits of one thread, whatever order the tasks run in: here they
 * run backwards, five "threads" wide, over runs larger than the threshold
 * with NaNs, infinities and zeros of both signs placed across the parts. */
static void backwards(const kj_tasks *self, int64_t n, kj_task_fn task, void *ctx)
{
    (void)self;
    for (int64_t t = n - 1; t >= 0; t--) task(ctx, t);
}

static bool same_scalar(kj_scalar a, kj_scalar b)
{
    return a.dtype == b.dtype && (a.dtype == KJ_DT_FLOAT32 ? same_bits((double)(float)a.v.f, (double)(float)b.v.f)
                                                           : same_bits(a.v.f, b.v.f));
}

static void test_reductions_on_tasks(void **state)
{
    (void)state;
    kj_tasks tk = {backwards, NULL, 5};
    kj_rt_error err = {0};
    int64_t n = (1 << 20) + 12345;
    uint64_t s = 99;
    for (int dt = 0; dt < 2; dt++)
        for (int trial = 0; trial < 4; trial++) {
            kj_array *a = kj_array_empty(dt ? KJ_DT_FLOAT64 : KJ_DT_FLOAT32, 1, &n, &err);
            for (int64_t i = 0; i < n; i++) {
                double v = ldexp((double)(lcg(&s) % 2000000) - 1000000.0, -(int)(lcg(&s) % 20));
                if (trial == 2) v = (i % 3) ? 0.0 : -0.0; /* only zeros: the sign of the last */
                if (dt) ((double *)(void *)a->data)[i] = v;
                else ((float *)(void *)a->data)[i] = (float)v;
            }
            if (trial == 1 || trial == 3) { /* NaNs of both signs in two parts, an infinity in a third */
                int64_t at[3] = {n / 3, 2 * n / 3, n - 5};
                double v[3] = {-NAN, NAN, INFINITY};
                if (trial == 3) v[0] = INFINITY, v[1] = -INFINITY, v[2] = NAN;
                for (int k = 0; k < 3; k++) {
                    if (dt) ((double *)(void *)a->data)[at[k]] = v[k];
                    else ((float *)(void *)a->data)[at[k]] = (float)v[k];
                }
            }
            assert_true(same_scalar(kj_array_sum_on(a, &tk), kj_array_sum_on(a, NULL)));
            assert_true(same_scalar(kj_array_mean_on(a, &tk), kj_array_mean_on(a, NULL)));
            assert_true(same_scalar(kj_array_var_on(a, 1, &tk), kj_array_var_on(a, 1, NULL)));
            assert_true(same_scalar(kj_array_std_on(a, 0, &tk), kj_array_std_on(a, 0, NULL)));
            for (int mx = 0; mx < 2; mx++) {
                kj_scalar p, q;
                assert_true(kj_array_extreme_on(a, mx, &tk, &p, &err));
                assert_true(kj_array_extreme_on(a, mx, NULL, &q, &err));
                assert_true(same_scalar(p, q));
            }
            kj_array_release(a);
        }
}

/* Reductions along an axis spread over tasks: every result as one thread
 * computes it, for each operation, axis and layout (C, a transposed view, a
 * 3-d array), the tasks run backwards. */
static void test_reduce_axis_on_tasks(void **state)
{
    (void)state;
    kj_tasks tk = {backwards, NULL, 3};
    kj_rt_error err = {0};
    int64_t shape[3] = {96, 110, 103}; /* 1087680 elements: above the threshold */
    uint64_t s = 5;
    for (int dt = 0; dt < 3; dt++) {
        kj_dtype t = dt == 0 ? KJ_DT_FLOAT32 : dt == 1 ? KJ_DT_FLOAT64 : KJ_DT_INT32;
        kj_array *a3 = kj_array_empty(t, 3, shape, &err);
        int64_t n = kj_array_size(a3);
        for (int64_t i = 0; i < n; i++) {
            double v = ldexp((double)(lcg(&s) % 2000000) - 1000000.0, -(int)(lcg(&s) % 12));
            if (i % 100003 == 7 && t != KJ_DT_INT32) v = NAN;
            kj_scalar x = t == KJ_DT_INT32 ? kj_scalar_i64((int64_t)v) : kj_scalar_f64(v);
            kj_elem_store(a3->data + i * (int64_t)kj_array_itemsize(a3), t, x);
        }
        int64_t s2[2] = {96 * 110, 103};
        kj_array *a2 = kj_array_reshape(a3, 2, s2, &err);
        assert_non_null(a2);
        /* the transpose of a2: shape (103, 10560), strides swapped */
        kj_array tr = *a2;
        tr.shape[0] = a2->shape[1], tr.shape[1] = a2->shape[0];
        tr.strides[0] = a2->strides[1], tr.strides[1] = a2->strides[0];
        const kj_array *arrays[3] = {a2, &tr, a3};
        for (int k = 0; k < 3; k++)
            for (int op = KJ_REDUCE_SUM; op <= KJ_REDUCE_ARGMAX; op++)
                for (int axis = 0; axis < arrays[k]->ndim; axis++) {
                    kj_array *p = kj_array_reduce_axis_on(arrays[k], op, axis, 1, &tk, &err);
                    kj_array *q = kj_array_reduce_axis_on(arrays[k], op, axis, 1, NULL, &err);
                    assert_non_null(p);
                    assert_non_null(q);
                    assert_int_equal(p->dtype, q->dtype);
                    assert_int_equal(kj_array_size(p), kj_array_size(q));
                    assert_memory_equal(p->data, q->data, (size_t)kj_array_size(p) * kj_array_itemsize(p));
                    kj_array_release(p), kj_array_release(q);
                }
        kj_array_release(a2), kj_array_release(a3);
    }
}

static void test_int_reductions(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    /* k = (((np.arange(20000)*7919) % 1000) - 500).astype(np.int32):
     * np.mean(k) = -0.5, np.std(k) = 0x1.20accc2957d56p+8, sum -10000 */
    int64_t n = 20000;
    kj_array *k = kj_array_empty(KJ_DT_INT32, 1, &n, &err);
    for (int64_t i = 0; i < n; i++)
        ((int32_t *)(void *)k->data)[i] = (int32_t)((i * 7919) % 1000 - 500);
    kj_scalar s = kj_array_sum(k), lo, hi;
    assert_int_equal(s.dtype, KJ_DT_INT64);
    assert_int_equal(s.v.i, -10000);
    assert_true(kj_array_mean(k).v.f == -0.5);
    assert_true(kj_array_std(k, 0).v.f == 0x1.20accc2957d56p+8);
    assert_true(kj_array_min(k, &lo, &err) && kj_array_max(k, &hi, &err));
    assert_int_equal(lo.dtype, KJ_DT_INT32);
    assert_int_equal(lo.v.i, -500);
    assert_int_equal(hi.v.i, 499);
    kj_array_release(k);

    /* np.sum(np.full(3, 2**31-1, np.int32)) = 6442450941 (int64, no overflow) */
    kj_array *f = kj_array_full(KJ_DT_INT32, 1, (int64_t[]){3}, kj_scalar_i64(INT32_MAX), &err);
    assert_int_equal(kj_array_sum(f).v.i, INT64_C(6442450941));
    kj_array_release(f);
    uint8_t u[2] = {200, 100};
    kj_array *ua = vec(u, KJ_DT_UINT8, 2);
    s = kj_array_sum(ua);
    assert_int_equal(s.dtype, KJ_DT_UINT64);
    assert_int_equal(s.v.u, 300);
    bool b[3] = {true, true, false};
    kj_array *ba = vec(b, KJ_DT_BOOL, 3);
    assert_int_equal(kj_array_sum(ba).v.i, 2);
    kj_array_release(ua), kj_array_release(ba);

    /* min/max: NaN propagates; empty arrays are an error */
    double d[3] = {3.0, NAN, 1.0};
    kj_array *da = vec(d, KJ_DT_FLOAT64, 3);
    assert_true(kj_array_min(da, &lo, &err));
    assert_true(isnan(lo.v.f));
    kj_array *e = kj_array_empty(KJ_DT_FLOAT64, 1, (int64_t[]){0}, &err);
    assert_false(kj_array_min(e, &lo, &err));
    assert_string_equal(err.message,
                        "zero-size array to reduction operation minimum which has no identity");
    assert_true(kj_array_sum(e).v.f == 0);
    assert_true(isnan(kj_array_mean(e).v.f));
    /* np.std(np.array([1, 2, 3, 4], np.float32)) → float32 0x1.1e377ap+0 */
    float g[4] = {1, 2, 3, 4};
    kj_array *ga = vec(g, KJ_DT_FLOAT32, 4);
    kj_scalar sd = kj_array_std(ga, 0);
    assert_int_equal(sd.dtype, KJ_DT_FLOAT32);
    assert_true(sd.v.f == 0x1.1e377ap+0);
    kj_array_release(da), kj_array_release(e), kj_array_release(ga);
}

/* --- allclose ------------------------------------------------------------------- */

static bool close2(const double *x, int nx, const double *y, int ny, kj_dtype dt)
{
    kj_rt_error err = {0};
    float fx[4], fy[4];
    for (int i = 0; i < nx; i++) fx[i] = (float)x[i];
    for (int i = 0; i < ny; i++) fy[i] = (float)y[i];
    bool f32 = dt == KJ_DT_FLOAT32;
    kj_array *a = wrap(f32 ? (void *)fx : (void *)x, dt, 1, (int64_t[]){nx});
    kj_array *b = wrap(f32 ? (void *)fy : (void *)y, dt, 1, (int64_t[]){ny});
    bool r = false;
    assert_true(kj_array_allclose(a, b, 1e-5, 1e-8, &r, &err));
    kj_array_release(a), kj_array_release(b);
    return r;
}

/* var/std with a ddof near INT64_MIN: n - ddof wraps as NumPy's intp
 * arithmetic does (negative, so the divisor is 0 and the result inf), never
 * a signed overflow (the ASan+UBSan build aborts on one). */
static void test_var_extreme_ddof(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_array *a = kj_array_arange(0.0, 6.0, 1.0, KJ_DT_FLOAT64, &err);
    kj_array *m = kj_array_reshape(a, 2, (int64_t[]){2, 3}, &err);
    assert_true(isinf(kj_array_var(a, INT64_MIN).v.f));
    assert_true(isinf(kj_array_std(a, -INT64_MAX).v.f));
    assert_true(isinf(kj_array_var(a, INT64_MAX).v.f));
    assert_true(kj_array_var(a, -6).v.f == 17.5 / 12.0);
    kj_array *r = kj_array_reduce_axis(m, KJ_REDUCE_VAR, 0, INT64_MIN, &err);
    assert_true(isinf(((double *)(void *)r->data)[1]));
    kj_array_release(r);
    r = kj_array_reduce_axis(m, KJ_REDUCE_STD, 1, -INT64_MAX + 1, &err);
    assert_true(isinf(((double *)(void *)r->data)[0]));
    kj_array_release(r);
    kj_array_release(m);
    kj_array_release(a);
}

static void test_allclose(void **state)
{
    (void)state;
    /* np.allclose([1e10, 1e-7], [1.00001e10, 1e-8]) → False;
     * np.allclose([1e10, 1e-8], [1.00001e10, 1e-9]) → True */
    assert_false(close2((double[]){1e10, 1e-7}, 2, (double[]){1.00001e10, 1e-8}, 2, KJ_DT_FLOAT64));
    assert_true(close2((double[]){1e10, 1e-8}, 2, (double[]){1.00001e10, 1e-9}, 2, KJ_DT_FLOAT64));
    /* NaN is never close (equal_nan=False); inf only to the same inf */
    assert_false(close2((double[]){1, NAN}, 2, (double[]){1, NAN}, 2, KJ_DT_FLOAT64));
    assert_true(close2((double[]){INFINITY}, 1, (double[]){INFINITY}, 1, KJ_DT_FLOAT64));
    assert_false(close2((double[]){INFINITY}, 1, (double[]){-INFINITY}, 1, KJ_DT_FLOAT64));
    /* broadcasting: np.allclose([1.0, 2.0], [[1.0, 2.0], [1.0, 2.00001]]) → True */
    kj_rt_error err = {0};
    double x[2] = {1, 2}, y[4] = {1, 2, 1, 2.00001};
    kj_array *a = vec(x, KJ_DT_FLOAT64, 2), *b = wrap(y, KJ_DT_FLOAT64, 2, (int64_t[]){2, 2});
    bool r = false;
    assert_true(kj_array_allclose(a, b, 1e-5, 1e-8, &r, &err));
    assert_true(r);
    kj_array *c = vec(y, KJ_DT_FLOAT64, 3);
    assert_false(kj_array_allclose(a, c, 1e-5, 1e-8, &r, &err));
    assert_string_equal(err.message,
                        "operands could not be broadcast together with shapes (2,) (3,)");
    kj_array_release(a), kj_array_release(b), kj_array_release(c);
    /* float32 inputs are compared in float32 (rtol, atol cast too):
     * np.allclose(np.float32([1.0]), np.float32([1.00001])) → False, while
     * in float64 the same decimal values would pass */
    assert_false(close2((double[]){1.0}, 1, (double[]){1.00001}, 1, KJ_DT_FLOAT32));
    assert_true(close2((double[]){1.0}, 1, (double[]){1.00001}, 1, KJ_DT_FLOAT64));
    assert_false(close2((double[]){1.0}, 1, (double[]){1.0000101}, 1, KJ_DT_FLOAT64));
}

/* --- arange and linspace --------------------------------------------------------- */

static void test_arange(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    /* np.arange(0.1, 1.0, 0.1).tolist()[-3:] → [0.7000000000000001, 0.8, 0.9] */
    kj_array *a = kj_array_arange(0.1, 1.0, 0.1, KJ_DT_FLOAT64, &err);
    assert_int_equal(a->shape[0], 9);
    assert_true(kj_array_get_f64(a, (int64_t[]){6}) == 0.7000000000000001);
    assert_true(kj_array_get_f64(a, (int64_t[]){8}) == 0.9);
    kj_array_release(a);
    /* float32 fill computes in float32: np.arange(0.1, 1.0, 0.1, dtype=np.float32)[2]
     * → 0.30000001192092896 */
    a = kj_array_arange(0.1, 1.0, 0.1, KJ_DT_FLOAT32, &err);
    assert_true(kj_array_get_f64(a, (int64_t[]){2}) == 0.30000001192092896);
    kj_array_release(a);
    /* np.arange(10, 0, -3) → [10, 7, 4, 1]; np.arange(5, 1) → [] */
    a = kj_array_arange_i64(10, 0, -3, KJ_DT_INT64, &err);
    assert_i64s(a, (int64_t[]){10, 7, 4, 1}, 4);
    kj_array_release(a);
    a = kj_array_arange_i64(5, 1, 1, KJ_DT_INT64, &err);
    assert_int_equal(a->shape[0], 0);
    kj_array_release(a);
    /* np.arange(0, 2.5, 0.5, dtype=np.int64) → [0, 0, 0, 0, 0] (NumPy's fill) */
    a = kj_array_arange(0, 2.5, 0.5, KJ_DT_INT64, &err);
    assert_i64s(a, (int64_t[]){0, 0, 0, 0, 0}, 5);
    kj_array_release(a);
    assert_null(kj_array_arange(0, 1, 0, KJ_DT_FLOAT64, &err));
    assert_string_equal(err.message, "division by zero");
    assert_string_equal(err.exc, "ZeroDivisionError");
    assert_null(kj_array_arange(0, NAN, 1, KJ_DT_FLOAT64, &err));
    assert_string_equal(err.message, "arange: cannot compute length");
}

static void test_linspace(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    /* np.linspace(0, 1, 7)[1] → 0.16666666666666666, last exactly 1 */
    kj_array *a = kj_array_linspace(0, 1, 7, true, KJ_DT_FLOAT64, &err);
    assert_true(kj_array_get_f64(a, (int64_t[]){1}) == 0.16666666666666666);
    assert_true(kj_array_get_f64(a, (int64_t[]){6}) == 1.0);
    kj_array_release(a);
    /* np.linspace(2, 3, 5, endpoint=False) → [2.0, 2.2, 2.4, 2.6, 2.8] */
    a = kj_array_linspace(2, 3, 5, false, KJ_DT_FLOAT64, &err);
    assert_f64s(a, (double[]){2.0, 2.2, 2.4, 2.6, 2.8}, 5);
    kj_array_release(a);
    /* np.linspace(0, 10, 4, dtype=int) → [0, 3, 6, 10]; np.linspace(1, 2, 1) → [1.0] */
    a = kj_array_linspace(0, 10, 4, true, KJ_DT_INT64, &err);
    assert_i64s(a, (int64_t[]){0, 3, 6, 10}, 4);
    kj_array_release(a);
    a = kj_array_linspace(1, 2, 1, true, KJ_DT_FLOAT64, &err);
    assert_f64s(a, (double[]){1.0}, 1);
    kj_array_release(a);
    a = kj_array_linspace(-1, 1, 3, true, KJ_DT_FLOAT32, &err);
    assert_int_equal(a->dtype, KJ_DT_FLOAT32);
    assert_f64s(a, (double[]){-1, 0, 1}, 3);
    kj_array_release(a);
    assert_null(kj_array_linspace(0, 1, -1, true, KJ_DT_FLOAT64, &err));
    assert_string_equal(err.message, "Number of samples, -1, must be non-negative.");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_create),
        cmocka_unit_test(test_wrap_and_views_keep_base),
        cmocka_unit_test(test_slicing),
        cmocka_unit_test(test_reshape),
        cmocka_unit_test(test_copy_astype),
        cmocka_unit_test(test_broadcast_shapes),
        cmocka_unit_test(test_op_dtypes),
        cmocka_unit_test(test_binop_values),
        cmocka_unit_test(test_binop_broadcast_and_out),
        cmocka_unit_test(test_sum_pairwise),
        cmocka_unit_test(test_reduce_axis),
        cmocka_unit_test(test_int_reductions),
        cmocka_unit_test(test_extreme_folds),
        cmocka_unit_test(test_pairwise_forms),
        cmocka_unit_test(test_reductions_on_tasks),
        cmocka_unit_test(test_reduce_axis_on_tasks),
        cmocka_unit_test(test_var_extreme_ddof),
        cmocka_unit_test(test_allclose),
        cmocka_unit_test(test_arange),
        cmocka_unit_test(test_linspace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
