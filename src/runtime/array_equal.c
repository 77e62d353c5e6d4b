/* SPDX-License-Identifier: BSD-2-Clause */
/* np.array_equal(a1, a2): the same shape and every pair of elements equal,
 * compared as NumPy's a1 == a2 compares them: floats (and an int with a
 * float) as float64, complex by both parts, integers exactly (a negative
 * signed one equals no unsigned one). NaN equals nothing. */
#include "array_int.h"

#include <string.h>

typedef struct {
    kj_dtype dx, dy;
    bool all;
} eq_ctx;

static bool is_complex(kj_dtype dt) { return dt == KJ_DT_COMPLEX64 || dt == KJ_DT_COMPLEX128; }

/* a complex element's part k (0 real, 1 imaginary); a real one's value and 0 */
static double part(const char *p, kj_dtype dt, int k)
{
    if (dt == KJ_DT_COMPLEX64) {
        float f;
        memcpy(&f, p + 4 * k, 4);
        return f;
    }
    if (dt == KJ_DT_COMPLEX128) {
        double d;
        memcpy(&d, p + 8 * k, 8);
        return d;
    }
    return k ? 0.0 : ld_f64(p, dt);
}

static bool ints_equal(const char *a, kj_dtype da, const char *b, kj_dtype db)
{
    bool sa = da != KJ_DT_BOOL && kj_dtype_is_signed(da), sb = db != KJ_DT_BOOL && kj_dtype_is_signed(db);
    int64_t x = ld_i64(a, da), y = ld_i64(b, db);
    if (sa == sb) return x == y; /* same signedness: the same 64 bits */
    if ((sa && x < 0) || (sb && y < 0)) return false;
    return (uint64_t)x == (uint64_t)y;
}

static bool elem_equal(const char *a, kj_dtype da, const char *b, kj_dtype db)
{
    if (is_complex(da) || is_complex(db))
        return part(a, da, 0) == part(b, db, 0) && part(a, da, 1) == part(b, db, 1);
    if (kj_dtype_is_float(da) || kj_dtype_is_float(db)) return ld_f64(a, da) == ld_f64(b, db);
    return ints_equal(a, da, b, db);
}

static void eq_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    eq_ctx *c = vctx;
    const char *a = p[0], *b = p[1];
    for (int64_t i = 0; i < n && c->all; i++, a += s[0], b += s[1])
        if (!elem_equal(a, c->dx, b, c->dy)) c->all = false;
}

bool kj_array_equal(const kj_array *a, const kj_array *b)
{
    if (a->ndim != b->ndim) return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d]) return false;
    eq_ctx c = {a->dtype, b->dtype, true};
    kj_iter it;
    kj_iter_init(&it, a->ndim, a->shape, 2);
    kj_iter_operand(&it, 0, a);
    kj_iter_operand(&it, 1, b);
    kj_iter_run(&it, eq_inner, &c);
    return c.all;
}
