/* SPDX-License-Identifier: BSD-2-Clause */
/* More creation and manipulation (array_manip2.h). Most operations read
 * their inputs flattened in C order, as NumPy defines them (np.roll, np.take,
 * np.delete and np.append without an axis ravel first): a C-ordered copy
 * (or the array itself when it is C-contiguous already) is indexed by its
 * flat position. Elements are moved as bytes, so every dtype works; only
 * np.vander computes (in its result dtype, NumPy's order of products). */
#include "array_manip2.h"
#include "array_manip.h"

#include <stdlib.h>
#include <string.h>

static bool out_of_bounds(kj_rt_error *err, int64_t i, int64_t n)
{
    return kj_rt_errorf(err, "IndexError", "index %lld is out of bounds for axis 0 with size %lld", (long long)i,
                        (long long)n);
}

/* `a` in C order: a itself (retained) or a copy; NULL after an error. */
static kj_array *flat_of(kj_array *a, kj_rt_error *err)
{
    return kj_array_is_c_contiguous(a) ? kj_array_retain(a) : kj_array_copy(a, err);
}

static char *at(const kj_array *c, int64_t i) { return c->data + i * (int64_t)kj_array_itemsize(c); }

static kj_array *new1(kj_dtype dt, int64_t n, kj_rt_error *err) { return kj_array_empty(dt, 1, &n, err); }

static kj_array *roll(kj_array *a, int64_t shift, kj_rt_error *err)
{
    kj_array *f = flat_of(a, err), *r = f ? kj_array_empty(a->dtype, a->ndim, a->shape, err) : NULL;
    int64_t n = r ? kj_array_size(r) : 0;
    size_t w = kj_array_itemsize(a);
    if (n) {
        int64_t sh = ((shift % n) + n) % n; /* Python's modulo: a negative shift rolls left */
        memcpy(at(r, sh), f->data, (size_t)(n - sh) * w);
        memcpy(r->data, at(f, n - sh), (size_t)sh * w);
    }
    kj_array_release(f);
    return r;
}

/* np.tril/triu: a copy with the elements above (tril) or below (triu)
 * diagonal k of the last two axes zeroed; a 1-d array is broadcast to n x n
 * first, as NumPy's where(mask, m, 0) does. */
static kj_array *tri_mask(kj_array *a, bool lower, int64_t k, kj_rt_error *err)
{
    kj_array *r;
    size_t w = kj_array_itemsize(a);
    if (a->ndim == 1) {
        int64_t n = a->shape[0], shape[2] = {n, n};
        kj_array *f = flat_of(a, err);
        r = f ? kj_array_empty(a->dtype, 2, shape, err) : NULL;
        for (int64_t i = 0; r && i < n; i++) memcpy(at(r, i * n), f->data, (size_t)n * w);
        kj_array_release(f);
    } else {
        r = kj_array_copy(a, err);
    }
    if (!r) return NULL;
    int64_t rows = r->shape[r->ndim - 2], cols = r->shape[r->ndim - 1], n = kj_array_size(r);
    for (int64_t f = 0; f < n; f++) {
        int64_t j = f % cols, i = (f / cols) % rows;
        if (lower ? j - i > k : j - i < k) memset(at(r, f), 0, w);
    }
    return r;
}

static kj_array *tri(int64_t n, int64_t m, int64_t k, kj_dtype dt, kj_rt_error *err)
{
    int64_t shape[2] = {n < 0 ? 0 : n, m < 0 ? 0 : m}; /* NumPy's arange(n) of a negative n is empty */
    kj_array *r = kj_array_zeros(dt, 2, shape, err);
    for (int64_t i = 0; r && i < shape[0]; i++)
        for (int64_t j = 0; j < shape[1] && j - i <= k; j++) kj_elem_store(at(r, i * shape[1] + j), dt, kj_scalar_i64(1));
    return r;
}

static kj_array *diag(kj_array *a, int64_t k, kj_rt_error *err)
{
    size_t w = kj_array_itemsize(a);
    int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0; /* where diagonal k starts */
    if (a->ndim == 1) {
        int64_t len = a->shape[0], n = len + r0 + c0, shape[2] = {n, n};
        kj_array *r = kj_array_zeros(a->dtype, 2, shape, err);
        for (int64_t i = 0; r && i < len; i++) memcpy(at(r, (i + r0) * n + i + c0), a->data + i * a->strides[0], w);
        return r;
    }
    if (a->ndim != 2) {
        kj_rt_errorf(err, "ValueError", "Input must be 1- or 2-d.");
        return NULL;
    }
    int64_t len = a->shape[0] - r0 < a->shape[1] - c0 ? a->shape[0] - r0 : a->shape[1] - c0;
    kj_array *r = new1(a->dtype, len < 0 ? 0 : len, err);
    for (int64_t i = 0; r && i < len; i++) {
        int64_t idx[2] = {i + r0, i + c0};
        memcpy(at(r, i), kj_array_ptr(a, idx), w);
    }
    return r;
}

/* x * y in dtype `to` (int64 wraps as NumPy's does, float64 or float32). */
static kj_scalar mul(kj_scalar x, kj_scalar y, kj_dtype to)
{
    if (kj_dtype_is_float(to)) return kj_scalar_cast(kj_scalar_f64(x.v.f * y.v.f), to);
    return kj_scalar_cast(kj_scalar_i64((int64_t)((uint64_t)x.v.i * (uint64_t)y.v.i)), to);
}

/* np.vander: column j holds x**j (decreasing: x**(N-1-j)), each power the
 * previous one times x, as NumPy's multiply.accumulate computes them. */
static kj_array *vander(kj_array *a, int64_t n, bool has_n, bool increasing, kj_dtype to, kj_rt_error *err)
{
    int64_t len = a->shape[0], shape[2] = {len, has_n ? n : len};
    kj_array *r = kj_array_empty(to, 2, shape, err);
    for (int64_t i = 0; r && i < len; i++) {
        kj_scalar x = kj_scalar_cast(kj_elem_load(a->data + i * a->strides[0], a->dtype), to);
        kj_scalar p = kj_scalar_cast(kj_scalar_i64(1), to);
        for (int64_t j = 0; j < shape[1]; j++) {
            kj_elem_store(at(r, i * shape[1] + (increasing ? j : shape[1] - 1 - j)), to, p);
            p = j ? mul(p, x, to) : x;
        }
    }
    return r;
}

/* Index i of an axis of length n with NumPy's wraparound, or an IndexError. */
static bool wrap(int64_t *i, int64_t n, kj_rt_error *err)
{
    if (*i < -n || *i >= n) return out_of_bounds(err, *i, n);
    if (*i < 0) *i += n;
    return true;
}

/* np.take(a, b): b's shape, a's elements at the flat indices of b. */
static kj_array *take(kj_array *a, const kj_array *b, kj_rt_error *err)
{
    kj_array *f = flat_of(a, err), *ix = f ? kj_array_astype(b, KJ_DT_INT64, err) : NULL;
    kj_array *r = ix ? kj_array_empty(a->dtype, b->ndim, b->shape, err) : NULL;
    int64_t n = kj_array_size(a), m = r ? kj_array_size(r) : 0;
    for (int64_t k = 0; k < m; k++) {
        int64_t i = ((int64_t *)(void *)ix->data)[k];
        if (!wrap(&i, n, err)) {
            kj_array_release(r);
            r = NULL;
            break;
        }
        memcpy(at(r, k), at(f, i), kj_array_itemsize(a));
    }
    kj_array_release(f);
    kj_array_release(ix);
    return r;
}

static bool truthy(const char *p, kj_dtype dt)
{
    size_t w = kj_dtype_size(dt);
    if (dt == KJ_DT_COMPLEX64 || dt == KJ_DT_COMPLEX128) { /* either part nonzero (NaN included) */
        kj_scalar re = kj_elem_load(p, dt == KJ_DT_COMPLEX64 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64);
        kj_scalar im = kj_elem_load(p + w / 2, dt == KJ_DT_COMPLEX64 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64);
        return re.v.f != 0 || im.v.f != 0;
    }
    kj_scalar s = kj_elem_load(p, dt);
    return kj_dtype_is_float(dt) ? s.v.f != 0 : s.v.i != 0;
}

/* np.extract(cond, arr): NumPy's take(ravel(arr), nonzero(ravel(cond))). */
static kj_array *extract(kj_array *cond, kj_array *arr, kj_rt_error *err)
{
    kj_array *fc = flat_of(cond, err), *fa = fc ? flat_of(arr, err) : NULL, *r = NULL;
    int64_t nc = kj_array_size(cond), na = kj_array_size(arr), cnt = 0;
    for (int64_t i = 0; fa && i < nc; i++) cnt += truthy(at(fc, i), cond->dtype);
    if (fa) r = new1(arr->dtype, cnt, err);
    for (int64_t i = 0, k = 0; r && i < nc; i++) {
        if (!truthy(at(fc, i), cond->dtype)) continue;
        if (i >= na) {
            out_of_bounds(err, i, na);
            kj_array_release(r);
            r = NULL;
            break;
        }
        memcpy(at(r, k++), at(fa, i), kj_array_itemsize(arr));
    }
    kj_array_release(fc);
    kj_array_release(fa);
    return r;
}

/* np.delete(a, obj) without an axis: obj one index (b 0-d) or an int
 * array of them (duplicates allowed); the flattened a without them. */
static kj_array *delete(kj_array *a, const kj_array *b, kj_rt_error *err)
{
    int64_t n = kj_array_size(a), m = kj_array_size(b), gone = 0;
    kj_array *ix = kj_array_astype(b, KJ_DT_INT64, err), *f = NULL, *r = NULL;
    bool *drop = ix ? calloc((size_t)n + 1, 1) : NULL;
    bool ok = drop != NULL;
    if (!ok && ix) kj_rt_errorf(err, "MemoryError", "np.delete: out of memory");
    for (int64_t k = 0; ok && k < m; k++) {
        int64_t i = ((int64_t *)(void *)ix->data)[k];
        if ((ok = wrap(&i, n, err)) && !drop[i]) {
            drop[i] = true;
            gone++;
        }
    }
    if (ok) f = flat_of(a, err);
    if (f) r = new1(a->dtype, n - gone, err);
    for (int64_t i = 0, k = 0; r && i < n; i++)
        if (!drop[i]) memcpy(at(r, k++), at(f, i), kj_array_itemsize(a));
    free(drop);
    kj_array_release(ix);
    kj_array_release(f);
    return r;
}

/* np.append(a, b) without an axis: both flattened, joined, in `to`. */
static kj_array *append(kj_array *a, const kj_array *b, kj_dtype to, kj_rt_error *err)
{
    int64_t na = kj_array_size(a), nb = kj_array_size(b);
    kj_array *fa = kj_array_astype(a, to, err), *fb = fa ? kj_array_astype(b, to, err) : NULL;
    kj_array *r = fb ? new1(to, na + nb, err) : NULL;
    if (r) {
        size_t w = kj_dtype_size(to);
        memcpy(r->data, fa->data, (size_t)na * w);
        memcpy(at(r, na), fb->data, (size_t)nb * w);
    }
    kj_array_release(fa);
    kj_array_release(fb);
    return r;
}

/* np.fill_diagonal(a, s) (wrap=False): a.flat[:end:step] = s, NumPy's step
 * and end; a any layout, its flat index taken in C order. */
static kj_array *fill_diag(kj_array *a, kj_scalar s, kj_rt_error *err)
{
    int nd = a->ndim;
    int64_t step = 1, end = kj_array_size(a), prod = 1;
    if (nd < 2) {
        kj_rt_errorf(err, "ValueError", "array must be at least 2-d");
        return NULL;
    }
    if (nd == 2) {
        step = a->shape[1] + 1;
        if (a->shape[1] * a->shape[1] < end) end = a->shape[1] * a->shape[1];
    } else {
        for (int d = 0; d + 1 < nd; d++) {
            if (a->shape[d] != a->shape[d + 1]) {
                kj_rt_errorf(err, "ValueError", "All dimensions of input must be of equal length");
                return NULL;
            }
            prod *= a->shape[d];
            step += prod;
        }
    }
    for (int64_t f = 0; f < end; f += step) {
        int64_t idx[KJ_MAX_DIMS], rest = f;
        for (int d = nd - 1; d >= 0; d--) {
            idx[d] = rest % a->shape[d];
            rest /= a->shape[d];
        }
        kj_elem_store(kj_array_ptr(a, idx), a->dtype, s);
    }
    return a;
}

/* np.tile: a promoted to d = max(a.ndim, nreps) dimensions (leading 1s),
 * reps padded the same way; element idx of the result is a's element
 * idx % a.shape. */
static kj_array *tile(kj_array *a, const int64_t *reps, int nreps, kj_rt_error *err)
{
    int d = a->ndim > nreps ? a->ndim : nreps;
    int64_t as[KJ_MAX_DIMS], rs[KJ_MAX_DIMS], shape[KJ_MAX_DIMS];
    for (int i = 0; i < d; i++) {
        int ia = i - (d - a->ndim), ir = i - (d - nreps);
        as[i] = ia >= 0 ? a->shape[ia] : 1;
        rs[i] = ir >= 0 ? reps[ir] : 1;
        if (rs[i] < 0) {
            kj_rt_errorf(err, "ValueError", "negative dimensions are not allowed");
            return NULL;
        }
        shape[i] = as[i] * rs[i];
    }
    kj_array *f = flat_of(a, err), *r = f ? kj_array_empty(a->dtype, d, shape, err) : NULL;
    int64_t n = r ? kj_array_size(r) : 0;
    size_t w = kj_array_itemsize(a);
    for (int64_t o = 0; o < n; o++) {
        int64_t rest = o, src = 0, scale = 1;
        for (int i = d - 1; i >= 0; i--) { /* C-order index of o in r, wrapped into a */
            src += (rest % shape[i]) % as[i] * scale;
            scale *= as[i];
            rest /= shape[i];
        }
        memcpy(at(r, o), at(f, src), w);
    }
    kj_array_release(f);
    return r;
}

kj_array *kj_array_rot90(kj_array *a, int64_t k, int64_t ax0, int64_t ax1, kj_rt_error *err)
{
    int nd = a->ndim;
    if (ax0 < -nd || ax0 >= nd || ax1 < -nd || ax1 >= nd) {
        kj_rt_errorf(err, "ValueError", "Axes=(%lld, %lld) out of range for array of ndim=%d.", (long long)ax0,
                     (long long)ax1, nd);
        return NULL;
    }
    if (ax0 < 0) ax0 += nd;
    if (ax1 < 0) ax1 += nd;
    if (ax0 == ax1) {
        kj_rt_errorf(err, "ValueError", "Axes must be different.");
        return NULL;
    }
    k = ((k % 4) + 4) % 4;
    int64_t swap[2] = {ax0, ax1};
    if (k == 0) return kj_array_view(a, NULL, 0, err);
    if (k == 2) {
        kj_array *t = kj_array_flip(a, false, ax0, err), *r = t ? kj_array_flip(t, false, ax1, err) : NULL;
        kj_array_release(t);
        return r;
    }
    kj_array *t = k == 1 ? kj_array_flip(a, false, ax1, err) : kj_array_restride(a, KJ_RS_SWAP, swap, 2, err);
    kj_array *r = !t ? NULL : k == 1 ? kj_array_restride(t, KJ_RS_SWAP, swap, 2, err) : kj_array_flip(t, false, ax1, err);
    kj_array_release(t);
    return r;
}

kj_array *kj_array_manip2(kj_manip2_op op, kj_array *a, const kj_array *b, const int64_t *p, kj_dtype to,
                          kj_rt_error *err)
{
    switch (op) {
    case KJ_M2_ROLL: return roll(a, p[0], err);
    case KJ_M2_TRIL: case KJ_M2_TRIU: return tri_mask(a, op == KJ_M2_TRIL, p[0], err);
    case KJ_M2_TRI: return tri(p[0], p[1], p[2], to, err);
    case KJ_M2_DIAG: return diag(a, p[0], err);
    case KJ_M2_VANDER:
        if (p[1] && p[0] < 0) {
            kj_rt_errorf(err, "ValueError", "negative dimensions are not allowed");
            return NULL;
        }
        return vander(a, p[0], p[1] != 0, p[2] != 0, to, err);
    case KJ_M2_TAKE: return take(a, b, err);
    case KJ_M2_EXTRACT: return extract(a, (kj_array *)b, err);
    case KJ_M2_DELETE: return delete(a, b, err);
    case KJ_M2_APPEND: return append(a, b, to, err);
    case KJ_M2_FILL_DIAG: return fill_diag(a, kj_elem_load(b->data, b->dtype), err);
    case KJ_M2_TILE: return tile(a, p, (int)p[4], err);
    case KJ_M2_ROT90: return kj_array_rot90(a, p[0], p[1], p[2], err);
    }
    kj_rt_errorf(err, "SystemError", "internal error: manipulation %d unknown", (int)op);
    return NULL;
}
