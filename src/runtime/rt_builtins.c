/* SPDX-License-Identifier: BSD-2-Clause */
/* Host NumPy built-ins called by generated code (src/abi/rtfns.def): constructors,
 * np.random, reductions, copies, reshape, allclose, np.save, perf_counter
 * and the host emulation of cuda events. Thin layers over array.c,
 * random.c and npy.c that translate ABI descriptors to kj_array headers,
 * register results in the context and turn kj_rt_error into a raise. */
#include "rt_host.h"
#include "gpu.h"

#include "../abi/abi.h"
#include "array.h"
#include "npy.h"
#include "random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- descriptors and headers ---- */

/* A kj_array header over an operand (rtfns.def: ndim 0 = a scalar at p).
 * It lives on the caller's stack and is never released; its base is the
 * descriptor's owner so that a view made from it (reshape) references the
 * array that really owns the memory. */
void kj_rt_header(kj_array *h, const void *p, int32_t ndim, int32_t dtype)
{
    memset(h, 0, sizeof *h);
    h->dtype = (kj_dtype)dtype;
    h->ndim = ndim;
    atomic_init(&h->refcount, 1);
    if (ndim == 0) {
        h->data = (char *)p;
    } else {
        const kj_abi_array *d = p;
        h->data = kj_abi_array_data(d);
        for (int k = 0; k < ndim; k++) {
            h->shape[k] = kj_abi_array_shape(d, ndim, k);
            h->strides[k] = kj_abi_array_stride(d, ndim, k);
        }
        h->base = kj_abi_array_owner(d, ndim);
    }
    kj_array_update_flags(h);
}

/* Register a new array (NULL: raise `err`) and describe it into `out`. */
void kj_rt_result(kj_rt *rt, kj_array *a, const kj_rt_error *err, void *out, int32_t ndim, int32_t line,
                  int32_t col)
{
    if (!a) kj_rt_raise_error(rt, err, line, col);
    kj_rt_own(rt, a);
    kj_rt_describe(out, a, ndim);
}

/* ---- constructors ---- */

void kj_rt_alloc(kj_rt *rt, int32_t dtype, int32_t ndim, const int64_t *shape, const void *fill, void *out,
                 int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 0) {
            kj_rt_errorf(&err, "ValueError", "negative dimensions are not allowed");
            kj_rt_raise_error(rt, &err, line, col);
        }
    }
    kj_array *a = kj_array_zeros((kj_dtype)dtype, ndim, shape, &err);
    if (a && fill) {
        size_t isz = kj_dtype_size((kj_dtype)dtype);
        int64_t n = kj_array_size(a);
        for (int64_t i = 0; i < n; i++) memcpy(a->data + i * (int64_t)isz, fill, isz);
    }
    kj_rt_result(rt, a, &err, out, ndim, line, col);
}

/* np.arange(..., dtype=complex64/complex128) of real bounds: NumPy's
 * complex fill (start + i * delta) has a zero imaginary part, so its real
 * parts are the real arange's in the part's type. */
static kj_dtype arange_part(kj_dtype dt)
{
    return dt == KJ_DT_COMPLEX64 ? KJ_DT_FLOAT32 : dt == KJ_DT_COMPLEX128 ? KJ_DT_FLOAT64 : dt;
}

static kj_array *arange_as(kj_array *a, kj_dtype dt, kj_rt_error *err)
{
    if (!a || a->dtype == dt) return a;
    kj_array *c = kj_array_astype(a, dt, err);
    kj_array_release(a);
    return c;
}

void kj_rt_arange_i(kj_rt *rt, int64_t start, int64_t stop, int64_t step, int32_t dtype, void *out,
                    int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_dtype dt = (kj_dtype)dtype;
    kj_array *a = arange_as(kj_array_arange_i64(start, stop, step, arange_part(dt), &err), dt, &err);
    kj_rt_result(rt, a, &err, out, 1, line, col);
}

void kj_rt_arange_f(kj_rt *rt, double start, double stop, double step, int32_t dtype, void *out,
                    int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_dtype dt = (kj_dtype)dtype;
    kj_array *a = arange_as(kj_array_arange(start, stop, step, arange_part(dt), &err), dt, &err);
    kj_rt_result(rt, a, &err, out, 1, line, col);
}

void kj_rt_linspace(kj_rt *rt, double start, double stop, int64_t num, int32_t endpoint, int32_t dtype,
                    void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *a = num < 0 ? NULL : kj_array_linspace(start, stop, num, endpoint != 0, (kj_dtype)dtype, &err);
    if (num < 0) kj_rt_errorf(&err, "ValueError", "Number of samples, %lld, must be non-negative.", (long long)num);
    kj_rt_result(rt, a, &err, out, 1, line, col);
}

/* ---- np.random ---- */

/* NumPy seeds its global RandomState from the operating system's entropy
 * when the module is imported; an unseeded kjit run does the same at the
 * first draw (so unseeded numbers differ from run to run). */
kj_mt19937 *kj_rt_rng(kj_rt *rt)
{
    if (!rt->rng_seeded) {
        kj_mt19937_seed_entropy(&rt->rng);
        rt->rng_seeded = true;
    }
    return &rt->rng;
}

static kj_mt19937 *rng(kj_rt *rt) { return kj_rt_rng(rt); }

void kj_rt_seed(kj_rt *rt, int64_t seed, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    if (!kj_mt19937_seed(&rt->rng, seed, &err)) kj_rt_raise_error(rt, &err, line, col);
    rt->rng_seeded = true;
}

double kj_rt_random(kj_rt *rt) { return kj_mt19937_double(rng(rt)); }

void kj_rt_rand(kj_rt *rt, int32_t ndim, const int64_t *shape, void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *a = kj_random_rand_array(rng(rt), ndim, shape, &err);
    kj_rt_result(rt, a, &err, out, ndim, line, col);
}

/* The bounds of an integer dtype, for randint's range check. */
static void dtype_bounds(kj_dtype dt, int64_t *lo, uint64_t *hi)
{
    size_t bits = kj_dtype_size(dt) * 8;
    if (kj_dtype_is_signed(dt)) {
        *lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
        *hi = bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1;
    } else {
        *lo = 0;
        *hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    }
}

/* randint's draws for 8- and 16-bit dtypes: NumPy's buffered masked
 * rejection, which takes 4 (2) values out of each 32-bit word. */
static void randint_small(kj_mt19937 *st, int64_t low, uint32_t rng_, int bits, int64_t *out, int64_t n)
{
    uint32_t mask = rng_, buf = 0;
    int bcnt = 0;
    for (int s = 1; s < 32; s <<= 1) mask |= mask >> s;
    for (int64_t i = 0; i < n; i++) {
        uint32_t v = 0;
        if (rng_ != 0) {
            do {
                if (bcnt == 0) {
                    buf = kj_mt19937_next32(st);
                    bcnt = 32 / bits - 1;
                } else {
                    buf >>= bits;
                    bcnt--;
                }
                v = (bits == 8 ? (buf & 0xFFu) : (buf & 0xFFFFu)) & mask;
            } while (v > rng_);
        }
        out[i] = low + (int64_t)v;
    }
}

/* n values of randint(low, high) for `dt` into out (as int64). */
static void randint_fill(kj_rt *rt, int64_t low, int64_t high, kj_dtype dt, int64_t *out, int64_t n,
                         int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    int64_t lo;
    uint64_t hi;
    dtype_bounds(dt, &lo, &hi);
    if (low < lo) kj_rt_errorf(&err, "ValueError", "low is out of bounds for %s", kj_dtype_name(dt));
    else if (high > 0 && (uint64_t)(high - 1) > hi)
        kj_rt_errorf(&err, "ValueError", "high is out of bounds for %s", kj_dtype_name(dt));
    else if (high <= low) kj_rt_errorf(&err, "ValueError", "low >= high");
    if (err.exc) kj_rt_raise_error(rt, &err, line, col);
    size_t size = kj_dtype_size(dt);
    if (size < 4) randint_small(rng(rt), low, (uint32_t)((uint64_t)high - 1u - (uint64_t)low), (int)size * 8, out, n);
    else if (!kj_random_randint(rng(rt), low, high, out, n, &err)) kj_rt_raise_error(rt, &err, line, col);
}

int64_t kj_rt_randint(kj_rt *rt, int64_t low, int64_t high, int32_t dtype, int32_t line, int32_t col)
{
    int64_t v = 0;
    randint_fill(rt, low, high, (kj_dtype)dtype, &v, 1, line, col);
    return v;
}

void kj_rt_randint_array(kj_rt *rt, int64_t low, int64_t high, int32_t dtype, int32_t ndim,
                         const int64_t *shape, void *out, int32_t line, int32_t col)
{
    kj_rt_error err = {0};
    kj_array *tmp = kj_array_empty(KJ_DT_INT64, ndim, shape, &err);
    if (!tmp) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, tmp); /* released with the run if the range check raises */
    randint_fill(rt, low, high, (kj_dtype)dtype, (int64_t *)(void *)tmp->data, kj_array_size(tmp), line, col);
    kj_array *a = dtype == KJ_DT_INT64 ? kj_array_retain(tmp) : kj_array_astype(tmp, (kj_dtype)dtype, &err);
    kj_rt_result(rt, a, &err, out, ndim, line, col);
}

/* ---- reductions, copies, files ---- */

void kj_rt_reduce(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t dtype, int32_t rdtype,
                  void *result, int32_t line, int32_t col)
{
    kj_rt_reduce_axis(rt, op, a, ndim, dtype, rdtype, 0, 0, 0, result, 0, line, col); /* the whole-array form */
}

void kj_rt_copy(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t to, void *out, int32_t line,
                int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    /* into the memory of a dropped result of this size when rt kept one
     * (kj_rt_spare_array): `c = a.copy()` in a loop then writes warm pages,
     * not fresh ones whose faults cost more than the copy */
    kj_array *r = kj_rt_spare_array(rt, (kj_dtype)to, ndim, h.shape);
    if (!r) {
        r = kj_array_astype(&h, (kj_dtype)to, &err);
    } else if (!kj_array_assign(r, &h, &err)) { /* kj_array_astype's work, in r */
        kj_array_release(r);
        r = NULL;
    }
    kj_rt_result(rt, r, &err, out, ndim, line, col);
}

void kj_rt_cumulate(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t prod, void *out, int32_t line,
                    int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    kj_rt_result(rt, kj_array_cumulate(&h, prod != 0, &err), &err, out, 1, line, col);
}

/* a.reshape(shape) (ravel false) or a.ravel() (new_ndim 1, shape unused) */
static void reshape(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t new_ndim, const int64_t *shape,
                    bool ravel, void *out, int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    kj_array *src = &h;
    if (!h.base) { /* caller memory: a heap header for the view to reference */
        src = kj_array_wrap(h.data, h.dtype, ndim, h.shape, h.strides, &err);
        if (!src) kj_rt_raise_error(rt, &err, line, col);
        kj_rt_own(rt, src);
    }
    kj_array *r = ravel ? kj_array_ravel(src, &err) : kj_array_reshape(src, new_ndim, shape, &err);
    kj_rt_result(rt, r, &err, out, new_ndim, line, col);
}

void kj_rt_reshape(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t new_ndim,
                   const int64_t *shape, void *out, int32_t line, int32_t col)
{
    reshape(rt, a, ndim, dtype, new_ndim, shape, false, out, line, col);
}

void kj_rt_ravel(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, void *out, int32_t line, int32_t col)
{
    reshape(rt, a, ndim, dtype, 1, NULL, true, out, line, col);
}

int32_t kj_rt_allclose(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *b, int32_t bndim,
                       int32_t bdt, double rtol, double atol, int32_t line, int32_t col)
{
    kj_array ha, hb;
    kj_rt_header(&ha, a, andim, adt);
    kj_rt_header(&hb, b, bndim, bdt);
    kj_rt_error err = {0};
    bool r = false;
    if (!kj_array_allclose(&ha, &hb, rtol, atol, &r, &err)) kj_rt_raise_error(rt, &err, line, col);
    return r;
}

int32_t kj_rt_array_equal(kj_rt *rt, const void *a, int32_t andim, int32_t adt, const void *b, int32_t bndim,
                          int32_t bdt)
{
    (void)rt;
    kj_array ha, hb;
    kj_rt_header(&ha, a, andim, adt);
    kj_rt_header(&hb, b, bndim, bdt);
    return kj_array_equal(&ha, &hb);
}

void kj_rt_load(kj_rt *rt, const char *path, int32_t dtype, int32_t ndim, int32_t layout, void *out, int32_t line,
                int32_t col)
{
    kj_rt_error err = {0};
    kj_array *a = kj_npy_load(path, &err);
    if (!a) kj_rt_raise_error(rt, &err, line, col);
    kj_rt_own(rt, a);
    bool order_ok = layout == 1 ? (a->flags & KJ_ARR_C_CONTIGUOUS) : layout == 2 ? (a->flags & KJ_ARR_F_CONTIGUOUS) : 1;
    if (a->dtype != (kj_dtype)dtype || a->ndim != ndim || !order_ok) {
        char want[160], got[160];
        snprintf(want, sizeof want, "%s, %d-d%s", kj_dtype_name((kj_dtype)dtype), (int)ndim,
                 layout == 2 ? ", Fortran order" : "");
        snprintf(got, sizeof got, "%s, %d-d%s", kj_dtype_name(a->dtype), (int)a->ndim,
                 a->ndim > 1 && !(a->flags & KJ_ARR_C_CONTIGUOUS) ? ", Fortran order" : "");
        kj_rt_errorf(&err, "ValueError", "'%.200s' changed since the program was compiled: it holds %s, not %s",
                     path, got, want);
        kj_rt_raise_error(rt, &err, line, col);
    }
    kj_rt_describe(out, a, ndim);
}

void kj_rt_save(kj_rt *rt, const char *path, const void *a, int32_t ndim, int32_t dtype, int32_t line,
                int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    if (!kj_npy_save(path, &h, &err)) kj_rt_raise_error(rt, &err, line, col);
}

/* ---- time and cuda events ---- */

double kj_rt_perf_counter(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Events are freed with the context's arrays, at the end of the run. */
void *kj_rt_event_new(kj_rt *rt)
{
    kj_rt_event *e = kj_rt_event_alloc(rt);
    return e;
}

/* On the GPU, events are the driver's, recorded in the default stream
 * (which orders every launch and copy): their times are the device's. */
void kj_rt_event_record(kj_rt *rt, void *ev, void *stream)
{
    kj_rt_event_set(ev, kj_rt_perf_counter());
    kj_rt_error e = {0};
    void *cu = kj_rt_event_cu(ev);
    if (cu && !kj_gpu_event_record(rt->gpu, cu, stream, &e)) kj_rt_raise_error(rt, &e, 0, 0);
}

float kj_rt_event_elapsed(kj_rt *rt, void *a, void *b, int32_t line, int32_t col)
{
    double ta, tb;
    if (!kj_rt_event_get(a, &ta) || !kj_rt_event_get(b, &tb))
        kj_rt_raise(rt, KJ_RT_RUNTIME, "event_elapsed_time: an event has not been recorded", line, col);
    void *ca = kj_rt_event_cu(a), *cb = kj_rt_event_cu(b);
    if (ca && cb) {
        float ms = 0;
        kj_rt_error e = {0};
        if (!kj_gpu_event_elapsed(rt->gpu, ca, cb, &ms, &e)) kj_rt_raise_error(rt, &e, line, col);
        return ms;
    }
    return (float)((tb - ta) * 1e3);
}
