/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit's host arrays: reductions (sum, min, max, mean, std), allclose,
 * arange and linspace. NumPy is the specification, bit for bit where the
 * result depends on the order of operations. */
#include "array.h"
#include "array_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */
/* ------------------------------------------------------------------------ */

/* The order NumPy's iterator visits the elements of one array in a
 * reduction over all axes: axes sorted by decreasing |stride| (a stable
 * sort, so C order wins ties), strides NOT negated (reductions pass
 * NPY_ITER_DONT_NEGATE_STRIDES), length-1 axes dropped and mergeable axes
 * coalesced. The innermost axis is the run each inner loop gets. */
static void reduction_order(const kj_array *a, kj_iter *it)
{
    kj_iter_init(it, 0, NULL, 1);
    it->ptrs[0] = a->data;
    for (int d = 0; d < a->ndim; d++) {
        int64_t len = a->shape[d], st = a->strides[d];
        if (len == 1) continue;
        int k = it->ndim++;
        int64_t ast = st < 0 ? -st : st;
        while (k > 0) {
            int64_t prev = it->strides[0][k - 1];
            if ((prev < 0 ? -prev : prev) >= ast) break;
            it->shape[k] = it->shape[k - 1];
            it->strides[0][k] = it->strides[0][k - 1];
            k--;
        }
        it->shape[k] = len;
        it->strides[0][k] = st;
    }
    kj_iter_coalesce(it);
}

/* Float sums as NumPy's reduction iterator feeds them to the add loop: the
 * elements, in reduction_order, in chunks of 8192 (its buffer size, which
 * bounds the inner loop even when no copy is needed); each chunk is summed
 * pairwise and added to the running total, which starts at 0. */
enum { CHUNK = 8192 };

typedef struct {
    kj_dtype dt;
    bool f32;       /* accumulate in float32 (float32 input), else float64 */
    double acc;
    float acc32;
    int64_t nbuf;   /* elements waiting in buf for a partial chunk */
    char *buf;      /* CHUNK doubles or floats */
    int64_t i64;    /* integer sums (exact, wrapping) */
    uint64_t u64;
} sum_ctx;

static void sum_flush(sum_ctx *c)
{
    if (c->f32) c->acc32 += kj_pairwise_f32(c->buf, c->nbuf, 4);
    else c->acc += kj_pairwise_f64(c->buf, c->nbuf, 8);
    c->nbuf = 0;
}

static void float_sum_inner(sum_ctx *c, const char *a, int64_t stride, int64_t n)
{
    bool native = c->dt == (c->f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64);
    while (n > 0) {
        int64_t take = CHUNK - c->nbuf < n ? CHUNK - c->nbuf : n;
        if (c->nbuf == 0 && take == CHUNK && native) { /* a whole chunk in place */
            if (c->f32) c->acc32 += kj_pairwise_f32(a, CHUNK, stride);
            else c->acc += kj_pairwise_f64(a, CHUNK, stride);
        } else {
            for (int64_t i = 0; i < take; i++, c->nbuf++) {
                if (c->f32) ((float *)(void *)c->buf)[c->nbuf] = ld_f32(a + i * stride, c->dt);
                else ((double *)(void *)c->buf)[c->nbuf] = ld_f64(a + i * stride, c->dt);
            }
            if (c->nbuf == CHUNK) sum_flush(c);
        }
        a += take * stride;
        n -= take;
    }
}

static void sum_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    sum_ctx *c = vctx;
    const char *a = p[0];
    if (c->buf) float_sum_inner(c, a, s[0], n);
    else if (kj_dtype_info[c->dt].kind == 'u')
        for (int64_t i = 0; i < n; i++, a += s[0]) c->u64 += ld_u64(a, c->dt);
    else
        for (int64_t i = 0; i < n; i++, a += s[0])
            c->i64 = (int64_t)((uint64_t)c->i64 + (uint64_t)ld_i64(a, c->dt));
}

static bool par_sum(sum_ctx *c, const kj_array *a, const double *mean, const kj_tasks *tk);

static char *chunk_buffer(void)
{
    char *b = malloc(CHUNK * sizeof(double));
    if (!b) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    return b;
}

/* Sum the n elements at `data` (contiguous, of type dt) or, when `a` is
 * given, all of a's elements in reduction order, on the threads of `tk`
 * when it pays. `as_float`: a float sum (float32 for float32 elements,
 * else float64), else an integer one. */
static sum_ctx sum_elements(const kj_array *a, const char *data, kj_dtype dt, int64_t n,
                            bool as_float, const kj_tasks *tk)
{
    sum_ctx c = {.dt = dt, .f32 = dt == KJ_DT_FLOAT32};
    if (as_float && a && par_sum(&c, a, NULL, tk)) return c;
    if (as_float) c.buf = chunk_buffer();
    if (a) {
        kj_iter it;
        reduction_order(a, &it);
        kj_iter_run(&it, sum_inner, &c);
    } else {
        char *p[1] = {(char *)data};
        int64_t st = (int64_t)kj_dtype_info[dt].size;
        sum_inner(&c, p, &st, n);
    }
    if (c.buf) {
        if (c.nbuf) sum_flush(&c);
        free(c.buf);
        c.buf = NULL;
    }
    return c;
}

kj_scalar kj_array_sum(const kj_array *a) { return kj_array_sum_on(a, NULL); }

kj_scalar kj_array_sum_on(const kj_array *a, const kj_tasks *tk)
{
    sum_ctx c = sum_elements(a, NULL, a->dtype, 0, kj_dtype_is_float(a->dtype), tk);
    switch (kj_dtype_info[a->dtype].kind) {
    case 'f': return (kj_scalar){a->dtype, {.f = c.f32 ? c.acc32 : c.acc}};
    case 'u': return (kj_scalar){KJ_DT_UINT64, {.u = c.u64}};
    default: return kj_scalar_i64(c.i64);
    }
}

typedef struct {
    kj_dtype dt;
    bool first, is_max;
    kj_scalar best;
} minmax_ctx;

/* A unit-stride float run of the array's own type: folded by the passes
 * above, then met with the running value. False when the run is not one. */
static bool minmax_float_run(minmax_ctx *c, const char *a, int64_t stride, int64_t n)
{
    double r;
    if (c->dt == KJ_DT_FLOAT64 && stride == 8) {
        const double *x = (const double *)(const void *)a;
        r = c->is_max ? kj_run_max_f64(x, n) : kj_run_min_f64(x, n);
    } else if (c->dt == KJ_DT_FLOAT32 && stride == 4) {
        const float *x = (const float *)(const void *)a;
        r = c->is_max ? kj_run_max_f32(x, n) : kj_run_min_f32(x, n);
    } else {
        return false;
    }
    if (c->first) c->best = (kj_scalar){c->dt, {.f = r}}, c->first = false;
    else c->best.v.f = c->is_max ? kj_float_op(KJ_AOP_MAX, c->best.v.f, r) : kj_float_op(KJ_AOP_MIN, c->best.v.f, r);
    return true;
}

/* np.minimum.reduce / np.maximum.reduce: the running value meets each
 * element as np.minimum does (NaN propagates). */
static void minmax_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    minmax_ctx *c = vctx;
    const char *a = p[0];
    int64_t i = 0;
    if (n > 0 && minmax_float_run(c, a, s[0], n)) return;
    if (c->first) c->best = kj_elem_load(a, c->dt), c->first = false, i = 1;
    char kind = kj_dtype_info[c->dt].kind;
    for (; i < n; i++) {
        const char *e = a + i * s[0];
        if (kind == 'f') {
            double x = ld_f64(e, c->dt), b = c->best.v.f;
            c->best.v.f = c->is_max ? kj_float_op(KJ_AOP_MAX, b, x) : kj_float_op(KJ_AOP_MIN, b, x);
        } else if (kind == 'u') {
            uint64_t x = ld_u64(e, c->dt);
            if (c->is_max ? x > c->best.v.u : x < c->best.v.u) c->best.v.u = x;
        } else {
            int64_t x = ld_i64(e, c->dt);
            if (c->is_max ? x > c->best.v.i : x < c->best.v.i) c->best.v.i = x;
        }
    }
}

static bool par_extreme(minmax_ctx *c, const kj_array *a, const kj_tasks *tk);

bool kj_array_extreme_on(const kj_array *a, bool is_max, const kj_tasks *tk, kj_scalar *out, kj_rt_error *err)
{
    if (kj_array_size(a) == 0)
        return kj_rt_errorf(err, "ValueError",
                            "zero-size array to reduction operation %s which has no identity",
                            is_max ? "maximum" : "minimum");
    minmax_ctx c = {a->dtype, true, is_max, {0}};
    if (!par_extreme(&c, a, tk)) {
        kj_iter it;
        reduction_order(a, &it);
        kj_iter_run(&it, minmax_inner, &c);
    }
    *out = c.best;
    return true;
}

bool kj_array_min(const kj_array *a, kj_scalar *out, kj_rt_error *err)
{
    return kj_array_extreme_on(a, false, NULL, out, err);
}

bool kj_array_max(const kj_array *a, kj_scalar *out, kj_rt_error *err)
{
    return kj_array_extreme_on(a, true, NULL, out, err);
}

/* np.mean (numpy/core/_methods.py:_mean): integer and bool arrays are summed
 * in float64; float32 stays float32; the division by the count (an intp
 * scalar) happens in float64 and is cast back. */
kj_scalar kj_array_mean(const kj_array *a) { return kj_array_mean_on(a, NULL); }

kj_scalar kj_array_mean_on(const kj_array *a, const kj_tasks *tk)
{
    double n = (double)kj_array_size(a);
    sum_ctx c = sum_elements(a, NULL, a->dtype, 0, true, tk);
    if (c.f32) return (kj_scalar){KJ_DT_FLOAT32, {.f = (float)((double)c.acc32 / n)}};
    return kj_scalar_f64(c.acc / n);
}

typedef struct {
    kj_dtype dt;
    double mean;
    sum_ctx *sum;
} dev_ctx;

/* The squared deviations (a - mean)**2 of a run, in the result type, into
 * the sum's chunk buffer: the sum then sees exactly the chunks of the
 * temporary array NumPy makes (in iteration order), without the array. */
static void dev_run(dev_ctx *c, const char *a, int64_t stride, int64_t n)
{
    sum_ctx *sc = c->sum;
    if (sc->f32) {
        float m = (float)c->mean, *o = (float *)(void *)sc->buf + sc->nbuf;
        if (stride == 4 && c->dt == KJ_DT_FLOAT32) {
            const float *x = (const float *)(const void *)a;
            for (int64_t i = 0; i < n; i++) o[i] = (x[i] - m) * (x[i] - m);
        } else {
            for (int64_t i = 0; i < n; i++) {
                float d = ld_f32(a + i * stride, c->dt) - m;
                o[i] = d * d;
            }
        }
    } else {
        double m = c->mean, *o = (double *)(void *)sc->buf + sc->nbuf;
        if (stride == 8 && c->dt == KJ_DT_FLOAT64) {
            const double *x = (const double *)(const void *)a;
            for (int64_t i = 0; i < n; i++) o[i] = (x[i] - m) * (x[i] - m);
        } else {
            for (int64_t i = 0; i < n; i++) {
                double d = ld_f64(a + i * stride, c->dt) - m;
                o[i] = d * d;
            }
        }
    }
    sc->nbuf += n;
    if (sc->nbuf == CHUNK) sum_flush(sc);
}

static void dev_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    dev_ctx *c = vctx;
    const char *a = p[0];
    while (n > 0) {
        int64_t take = CHUNK - c->sum->nbuf < n ? CHUNK - c->sum->nbuf : n;
        dev_run(c, a, s[0], take);
        a += take * s[0];
        n -= take;
    }
}

/* np.var (_methods.py:_var): the mean as np.mean computes it, the squared
 * deviations (NumPy: a new array laid out in iteration order), their sum and
 * a division by max(n - ddof, 0) in float64, cast to the result type. The
 * deviations go through the sum's chunk buffer instead of a temporary
 * array: the same chunks, the same bits. np.std is its square root, taken
 * in the result type. */
kj_scalar kj_array_var(const kj_array *a, int64_t ddof) { return kj_array_var_on(a, ddof, NULL); }

kj_scalar kj_array_var_on(const kj_array *a, int64_t ddof, const kj_tasks *tk)
{
    int64_t n = kj_array_size(a);
    bool f32 = a->dtype == KJ_DT_FLOAT32;
    /* the keepdims mean is an array, divided by the count in its own type */
    double mean = f32 ? (double)((float)kj_array_sum_on(a, tk).v.f / (float)n) : kj_array_mean_on(a, tk).v.f;
    sum_ctx c = {.dt = f32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64, .f32 = f32};
    if (!par_sum(&c, a, &mean, tk)) {
        c.buf = chunk_buffer();
        dev_ctx d = {a->dtype, mean, &c};
        kj_iter it;
        reduction_order(a, &it);
        kj_iter_run(&it, dev_inner, &d);
        if (c.nbuf) sum_flush(&c);
        free(c.buf);
    }
    double div = kj_var_divisor(n, ddof);
    if (f32) return (kj_scalar){KJ_DT_FLOAT32, {.f = (float)((double)c.acc32 / div)}};
    return kj_scalar_f64(c.acc / div);
}

kj_scalar kj_array_std(const kj_array *a, int64_t ddof) { return kj_array_std_on(a, ddof, NULL); }

kj_scalar kj_array_std_on(const kj_array *a, int64_t ddof, const kj_tasks *tk)
{
    kj_scalar v = kj_array_var_on(a, ddof, tk);
    v.v.f = v.dtype == KJ_DT_FLOAT32 ? (double)sqrtf((float)v.v.f) : sqrt(v.v.f);
    return v;
}

/* ------------------------------------------------------------------------ */
/* Running sums and products                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
    bool prod;
    kj_dtype in, out;
    char *o;     /* the next result element */
    bool first;
    double f;    /* float64 and float32 running values (float32: rounded each step) */
    float f32;
    uint64_t u;  /* integers: two's complement, wrapping */
} cum_ctx;

static void cum_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    cum_ctx *c = vctx;
    for (int64_t i = 0; i < n; i++, c->o += kj_dtype_info[c->out].size) {
        const char *e = p[0] + i * s[0];
        switch (c->out) {
        case KJ_DT_FLOAT32: {
            float x = ld_f32(e, c->in);
            c->f32 = c->first ? x : c->prod ? c->f32 * x : c->f32 + x;
            memcpy(c->o, &c->f32, sizeof c->f32);
            break;
        }
        case KJ_DT_FLOAT64: {
            double x = ld_f64(e, c->in);
            c->f = c->first ? x : c->prod ? c->f * x : c->f + x;
            memcpy(c->o, &c->f, sizeof c->f);
            break;
        }
        default: {
            uint64_t x = ld_u64(e, c->in);
            c->u = c->first ? x : c->prod ? c->u * x : c->u + x;
            memcpy(c->o, &c->u, sizeof c->u);
            break;
        }
        }
        c->first = false;
    }
}

kj_array *kj_array_cumulate(const kj_array *a, bool prod, kj_rt_error *err)
{
    if (kj_dtype_info[a->dtype].kind == 'c') return kj_array_cpx_cumulate(a, prod, err); /* array_cpx.c */
    int64_t n = kj_array_size(a);
    kj_array *out = kj_array_empty(kj_reduce_dtype(prod ? KJ_REDUCE_PROD : KJ_REDUCE_SUM, a->dtype), 1, &n, err);
    if (!out || n == 0) return out;
    cum_ctx c = {prod, a->dtype, out->dtype, out->data, true, 0, 0, 0};
    kj_iter it;
    kj_iter_init(&it, a->ndim, a->shape, 1);
    kj_iter_operand(&it, 0, a);
    kj_iter_coalesce(&it);
    kj_iter_run(&it, cum_inner, &c);
    return out;
}

/* ------------------------------------------------------------------------ */
/* The same over several threads                                            */
/* ------------------------------------------------------------------------ */

/* min/max parts are multiples of this many elements */
enum { PAR_PART = 1 << 18 };

/* The array as one unit-stride run of its own float type, in reduction
 * order, large enough to split; its start and length. */
static bool par_run(const kj_array *a, const kj_tasks *tk, const char **p, int64_t *n)
{
    if (!tk || tk->width < 2 || (a->dtype != KJ_DT_FLOAT32 && a->dtype != KJ_DT_FLOAT64)) return false;
    kj_iter it;
    reduction_order(a, &it);
    if (it.ndim != 1 || it.strides[0][0] != (int64_t)kj_dtype_info[a->dtype].size || it.shape[0] < KJ_PAR_MIN)
        return false;
    *p = it.ptrs[0];
    *n = it.shape[0];
    return true;
}

/* The parts of a run of n elements: `per` units of `unit` elements each
 * (the last part shorter), at most four per thread. */
static int64_t par_parts(const kj_tasks *tk, int64_t units, int64_t *per)
{
    int64_t parts = units < 4 * (int64_t)tk->width ? units : 4 * (int64_t)tk->width;
    *per = (units + parts - 1) / parts;
    return (units + *per - 1) / *per;
}

typedef struct {
    const char *x;
    int64_t n, per;
    bool f32;
    kj_dtype dt;
    const double *mean; /* the squared deviations from it (var), else the elements */
    double *s;          /* per chunk of CHUNK: its pairwise sum (float32 sums as floats) */
} par_sum_job;

/* The chunks [t * per, (t + 1) * per): each summed as one thread sums it. */
static void par_sum_task(void *vctx, int64_t t)
{
    const par_sum_job *j = vctx;
    size_t isz = kj_dtype_info[j->dt].size;
    int64_t nchunks = (j->n + CHUNK - 1) / CHUNK, end = (t + 1) * j->per < nchunks ? (t + 1) * j->per : nchunks;
    sum_ctx c = {.dt = j->dt, .f32 = j->f32, .buf = j->mean ? chunk_buffer() : NULL};
    for (int64_t k = t * j->per; k < end; k++) {
        const char *p = j->x + (size_t)(k * CHUNK) * isz;
        int64_t len = j->n - k * CHUNK < CHUNK ? j->n - k * CHUNK : CHUNK;
        if (!j->mean) {
            j->s[k] = j->f32 ? (double)kj_pairwise_f32(p, len, 4) : kj_pairwise_f64(p, len, 8);
            continue;
        }
        /* the deviations of one chunk, summed from 0: the chunk's sum (of
         * squares: never -0.0, so 0 + s is s) */
        c.acc = 0, c.acc32 = 0, c.nbuf = 0;
        dev_ctx d = {j->dt, *j->mean, &c};
        dev_run(&d, p, (int64_t)isz, len);
        if (c.nbuf) sum_flush(&c);
        j->s[k] = j->f32 ? (double)c.acc32 : c.acc;
    }
    free(c.buf);
}

/* A float sum (mean: of squared deviations) of a large run on tk's
 * threads: each chunk as float_sum_inner sums it, then the chunks added to
 * the total in order. False: not such a run, nothing done. */
static bool par_sum(sum_ctx *c, const kj_array *a, const double *mean, const kj_tasks *tk)
{
    const char *x;
    int64_t n;
    if (!par_run(a, tk, &x, &n)) return false;
    int64_t nchunks = (n + CHUNK - 1) / CHUNK;
    par_sum_job j = {.x = x, .n = n, .f32 = c->f32, .dt = a->dtype, .mean = mean,
                     .s = malloc((size_t)nchunks * sizeof(double))};
    if (!j.s) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    int64_t parts = par_parts(tk, nchunks, &j.per);
    tk->run(tk, parts, par_sum_task, &j);
    for (int64_t k = 0; k < nchunks; k++) {
        if (c->f32) c->acc32 += (float)j.s[k];
        else c->acc += j.s[k];
    }
    free(j.s);
    return true;
}

typedef struct {
    const char *x;
    int64_t n, per;
    kj_dtype dt;
    bool is_max;
    double *r; /* per part: its fold */
} par_ext_job;

static void par_ext_task(void *vctx, int64_t t)
{
    const par_ext_job *j = vctx;
    int64_t lo = t * j->per, len = j->n - lo < j->per ? j->n - lo : j->per;
    if (j->dt == KJ_DT_FLOAT32) {
        const float *x = (const float *)(const void *)j->x + lo;
        j->r[t] = j->is_max ? kj_run_max_f32(x, len) : kj_run_min_f32(x, len);
    } else {
        const double *x = (const double *)(const void *)j->x + lo;
        j->r[t] = j->is_max ? kj_run_max_f64(x, len) : kj_run_min_f64(x, len);
    }
}

/* min/max of a large run in parts on tk's threads, the parts' folds met in
 * order by np.minimum's rule (the first NaN stays; of equal values the
 * later): the fold of the whole run. */
static bool par_extreme(minmax_ctx *c, const kj_array *a, const kj_tasks *tk)
{
    const char *x;
    int64_t n, per;
    if (!par_run(a, tk, &x, &n)) return false;
    par_parts(tk, (n + PAR_PART - 1) / PAR_PART, &per);
    par_ext_job j = {.x = x, .n = n, .per = per * PAR_PART, .dt = a->dtype, .is_max = c->is_max};
    int64_t parts = (n + j.per - 1) / j.per;
    if (!(j.r = malloc((size_t)parts * sizeof(double)))) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    tk->run(tk, parts, par_ext_task, &j);
    double best = j.r[0];
    for (int64_t t = 1; t < parts; t++) best = kj_float_op(c->is_max ? KJ_AOP_MAX : KJ_AOP_MIN, best, j.r[t]);
    free(j.r);
    c->best = (kj_scalar){c->dt, {.f = best}};
    c->first = false;
    return true;
}

/* ------------------------------------------------------------------------ */
/* allclose                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
    kj_dtype dx, dy;
    bool diff_f32, tol_f32; /* the precision NumPy's isclose computes in */
    double rtol, atol;
    bool all;
} close_ctx;

/* numpy.isclose: y is made inexact (float32 stays, others become float64);
 * finite pairs test |x - y| <= atol + rtol*|y| in the arrays' types (so in
 * float32 for float32 inputs, with rtol and atol cast to float32); other
 * pairs must be equal (inf == inf; NaN never, equal_nan=False). */
static void close_inner(void *vctx, char **p, const int64_t *s, int64_t n)
{
    close_ctx *c = vctx;
    const char *a = p[0], *b = p[1];
    for (int64_t i = 0; i < n && c->all; i++, a += s[0], b += s[1]) {
        double x = ld_f64(a, c->dx), y = ld_f64(b, c->dy);
        bool ok;
        if (!isfinite(x) || !isfinite(y)) {
            ok = x == y;
        } else {
            double diff = c->diff_f32 ? (double)fabsf((float)x - (float)y) : fabs(x - y);
            double tol = c->tol_f32 ? (double)((float)c->atol + (float)c->rtol * fabsf((float)y))
                                    : c->atol + c->rtol * fabs(y);
            ok = diff <= tol;
        }
        if (!ok) c->all = false;
    }
}

bool kj_array_allclose(const kj_array *a, const kj_array *b, double rtol, double atol,
                       bool *result, kj_rt_error *err)
{
    int nd = 0;
    int64_t shape[KJ_MAX_DIMS];
    if (!kj_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape, err)) return false;
    kj_dtype ydt = b->dtype == KJ_DT_FLOAT32 ? KJ_DT_FLOAT32 : KJ_DT_FLOAT64;
    close_ctx c = {a->dtype, b->dtype, kj_dtype_promote(a->dtype, ydt) == KJ_DT_FLOAT32,
                   ydt == KJ_DT_FLOAT32, rtol, atol, true};
    kj_iter it;
    kj_iter_init(&it, nd, shape, 2);
    kj_iter_operand(&it, 0, a);
    kj_iter_operand(&it, 1, b);
    kj_iter_run(&it, close_inner, &c);
    *result = c.all;
    return true;
}

/* ------------------------------------------------------------------------ */
/* arange, linspace                                                          */
/* ------------------------------------------------------------------------ */

/* NumPy's @NAME@_fill: with a[0] and a[1] stored, a[i] = a[0] + i*delta,
 * delta = a[1] - a[0], in the array's own type. */
static void arange_fill(kj_array *a, int64_t len)
{
    char *d = a->data;
    size_t isz = kj_array_itemsize(a);
    if (a->dtype == KJ_DT_FLOAT64 || a->dtype == KJ_DT_FLOAT32) {
        if (a->dtype == KJ_DT_FLOAT32) {
            float start = ld_f32(d, a->dtype), delta = ld_f32(d + 4, a->dtype) - start;
            for (int64_t i = 2; i < len; i++) st_f64(d + i * 4, a->dtype, start + (float)i * delta);
        } else {
            double start = ld_f64(d, a->dtype), delta = ld_f64(d + 8, a->dtype) - start;
            for (int64_t i = 2; i < len; i++)
                st_f64(d + i * 8, a->dtype, start + (double)i * delta);
        }
        return;
    }
    uint64_t start = (uint64_t)ld_i64(d, a->dtype);
    uint64_t delta = (uint64_t)ld_i64(d + isz, a->dtype) - start;
    for (int64_t i = 2; i < len; i++)
        st_u64(d + i * (int64_t)isz, a->dtype, start + (uint64_t)i * delta);
}

static kj_array *arange_alloc(double len_f, kj_dtype dt, kj_rt_error *err)
{
    if (isnan(len_f)) {
        kj_rt_errorf(err, "ValueError", "arange: cannot compute length");
        return NULL;
    }
    if (len_f >= 9.2e18) {
        kj_rt_errorf(err, "ValueError", "Maximum allowed size exceeded");
        return NULL;
    }
    int64_t len = len_f > 0 ? (int64_t)len_f : 0;
    if (dt == KJ_DT_BOOL && len > 2) {
        kj_rt_errorf(err, "ValueError", "no fill-function for data-type.");
        return NULL;
    }
    return kj_array_empty(dt, 1, &len, err);
}

kj_array *kj_array_arange(double start, double stop, double step, kj_dtype dt,
                          kj_rt_error *err)
{
    if (step == 0) {
        kj_rt_errorf(err, "ZeroDivisionError", "division by zero");
        return NULL;
    }
    kj_array *a = arange_alloc(ceil((stop - start) / step), dt, err);
    if (!a) return NULL;
    int64_t len = a->shape[0];
    if (len > 0) st_f64(a->data, dt, start);
    if (len > 1) st_f64(a->data + kj_array_itemsize(a), dt, start + step);
    arange_fill(a, len);
    return a;
}

kj_array *kj_array_arange_i64(int64_t start, int64_t stop, int64_t step, kj_dtype dt,
                              kj_rt_error *err)
{
    if (step == 0) {
        kj_rt_errorf(err, "ZeroDivisionError", "division by zero");
        return NULL;
    }
    /* exact ceil((stop - start) / step) */
    __int128 range = (__int128)stop - start, q = range / step;
    if (range % step != 0 && ((range < 0) == (step < 0))) q++;
    kj_array *a = arange_alloc(q > 0 ? (double)q : 0.0, dt, err);
    if (!a) return NULL;
    int64_t len = a->shape[0];
    if (len > 0) st_i64(a->data, dt, start);
    if (len > 1) /* start + step, wrapping like NumPy's intp arithmetic */
        st_i64(a->data + kj_array_itemsize(a), dt, (int64_t)((uint64_t)start + (uint64_t)step));
    arange_fill(a, len);
    return a;
}

/* numpy.linspace (function_base.py): y = arange(num) * step + start in
 * float64, step = (stop - start) / div (or (i / div) * delta when the step
 * underflows to 0), y[-1] = stop with endpoint; integer dtypes floor. */
kj_array *kj_array_linspace(double start, double stop, int64_t num, bool endpoint,
                            kj_dtype dt, kj_rt_error *err)
{
    if (num < 0) {
        kj_rt_errorf(err, "ValueError",
                     "Number of samples, %lld, must be non-negative.", (long long)num);
        return NULL;
    }
    kj_array *a = kj_array_empty(dt, 1, &num, err);
    if (!a) return NULL;
    int64_t div = endpoint ? num - 1 : num;
    double delta = stop - start, step = div > 0 ? delta / (double)div : NAN;
    size_t isz = kj_array_itemsize(a);
    for (int64_t i = 0; i < num; i++) {
        double y = (double)i;
        if (div > 0 && step == 0) y = y / (double)div * delta;
        else if (div > 0) y = y * step;
        else y = y * delta;
        y += start;
        if (endpoint && num > 1 && i == num - 1) y = stop;
        if (kj_dtype_is_int(dt)) y = floor(y);
        st_f64(a->data + i * (int64_t)isz, dt, y);
    }
    return a;
}

