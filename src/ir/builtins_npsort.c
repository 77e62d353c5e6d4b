/* SPDX-License-Identifier: BSD-2-Clause */
/* The typing rules of KJ_BUILTINS_NPSORT (builtins_npsort.h): sorting,
 * searching, sets, order statistics, histograms, nan reductions. The
 * result types are NumPy's; arguments NumPy would refuse get its message,
 * located at the argument. */
#include "builtins.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    kj_types *t;
    kj_builtin id;
    const char *name;
    const kj_barg *args;
    uint32_t nargs, recv;
    kj_span call;
    const kj_source *src;
    kj_diags *d;
    const kj_type **conv;
} sctx;

static const kj_type *ty(const sctx *c, uint32_t i) { return i < c->nargs ? c->args[i].type : NULL; }
static bool given(const sctx *c, uint32_t i) { return ty(c, i) && ty(c, i)->kind != KJ_T_NONE; }
static kj_span span_of(const sctx *c, uint32_t i) { return i < c->nargs ? c->args[i].span : c->call; }
static bool is_array(const kj_type *x) { return x && x->kind == KJ_T_ARRAY; }
static const kj_type *i64(const sctx *c) { return kj_t_int(c->t, 64, true); }
static const kj_type *f64(const sctx *c) { return kj_t_float(c->t, 64); }
static const kj_type *arr(const sctx *c, const kj_type *e, int nd) { return kj_t_array(c->t, e, nd, KJ_LAYOUT_C); }

static void convto(sctx *c, uint32_t i, const kj_type *to)
{
    if (c->conv && i < c->nargs && c->args[i].type && c->args[i].type != to) c->conv[i] = to;
}

/* "np.sort() argument 'a' must be WHAT, not T"; NULL for `return`. */
static const kj_type *argerr(sctx *c, uint32_t i, const char *what)
{
    if (i < c->recv) {
        kj_error(c->d, c->src, span_of(c, i), "'%s' object has no attribute '%s'", kj_type_str(ty(c, i)),
                 strrchr(c->name, '.') + 1);
        return NULL;
    }
    kj_error(c->d, c->src, span_of(c, i), "%s() argument %u must be %s, not %s", c->name, i + 1 - c->recv, what,
             kj_type_str(ty(c, i)));
    return NULL;
}

static bool array_arg(sctx *c, uint32_t i, int ndim)
{
    const kj_type *x = ty(c, i);
    if (!is_array(x)) return argerr(c, i, ndim == 1 ? "a 1-d array" : "an array") != NULL;
    if (ndim && (int)x->ndim != ndim) return argerr(c, i, "a 1-d array") != NULL;
    return true;
}

static bool int_arg(sctx *c, uint32_t i)
{
    if (!kj_is_int(ty(c, i))) return argerr(c, i, "an integer") != NULL;
    convto(c, i, i64(c));
    return true;
}

static bool num_arg(sctx *c, uint32_t i, const kj_type *to)
{
    if (!kj_is_scalar(ty(c, i))) return argerr(c, i, "a number") != NULL;
    if (to) convto(c, i, to);
    return true;
}

/* A constant string argument among `ok` (NULL-terminated); absent is fine. */
static bool str_choice(sctx *c, uint32_t i, const char *const *ok, const char *fmt)
{
    if (!given(c, i)) return true;
    const char *s = c->args[i].sval;
    if (ty(c, i)->kind != KJ_T_STR || !s) return argerr(c, i, "a constant string") != NULL;
    for (; *ok; ok++)
        if (!strcmp(*ok, s)) return true;
    kj_error(c->d, c->src, span_of(c, i), fmt, s);
    return false;
}

static bool kind_arg(sctx *c, uint32_t i)
{
    static const char *const kinds[] = {"quicksort", "mergesort", "heapsort", "stable", NULL};
    return str_choice(c, i, kinds, "sort kind must be one of 'quick', 'heap', or 'stable' (got '%s')");
}

/* An axis= of an array argument 0: an integer, checked here when constant
 * (at run time, an AxisError, when not). */
static bool axis_arg(sctx *c, uint32_t i)
{
    if (!given(c, i)) return true;
    if (!kj_is_int(ty(c, i)) || ty(c, i)->kind == KJ_T_BOOL) return argerr(c, i, "an integer") != NULL;
    int nd = (int)ty(c, 0)->ndim;
    if (c->args[i].is_const && (c->args[i].ival < -nd || c->args[i].ival >= nd)) {
        kj_error(c->d, c->src, span_of(c, i), "axis %lld is out of bounds for array of dimension %d",
                 (long long)c->args[i].ival, nd);
        return false;
    }
    convto(c, i, i64(c));
    return true;
}

/* The float type of a statistic: float32 stays, everything else float64. */
static const kj_type *stat_float(const sctx *c, const kj_type *e)
{
    return e->kind == KJ_T_FLOAT && e->bits == 32 ? e : f64(c);
}

/* np.sum's type: floats keep theirs, unsigned ints uint64, else int64. */
static const kj_type *sum_type(const sctx *c, const kj_type *e)
{
    if (e->kind == KJ_T_FLOAT) return e;
    return e->kind == KJ_T_INT && !e->is_signed ? kj_t_int(c->t, 64, false) : i64(c);
}

static const kj_type *type_sorting(sctx *c)
{
    const kj_type *a = ty(c, 0);
    switch (c->id) {
    case KJ_B_NP_SORT: return array_arg(c, 0, 0) && kind_arg(c, 1) ? arr(c, a->elem, a->ndim) : NULL;
    case KJ_B_ARR_SORT: return array_arg(c, 0, 0) && kind_arg(c, 1) ? kj_t_none(c->t) : NULL;
    case KJ_B_NP_ARGSORT:
    case KJ_B_ARR_ARGSORT: return array_arg(c, 0, 0) && kind_arg(c, 1) ? arr(c, i64(c), a->ndim) : NULL;
    case KJ_B_NP_SEARCHSORTED: {
        static const char *const sides[] = {"left", "right", NULL};
        if (!array_arg(c, 0, 1) || !str_choice(c, 2, sides, "search side must be 'left' or 'right' (got '%s')"))
            return NULL;
        const kj_type *v = ty(c, 1);
        if (is_array(v)) return arr(c, i64(c), v->ndim);
        return num_arg(c, 1, kj_strong(c->t, v)) ? i64(c) : NULL;
    }
    case KJ_B_NP_UNIQUE: return array_arg(c, 0, 0) ? arr(c, a->elem, 1) : NULL;
    case KJ_B_NP_DIGITIZE: {
        if (!array_arg(c, 1, 1) || (given(c, 2) && !num_arg(c, 2, kj_t_bool(c->t)))) return NULL;
        const kj_type *x = ty(c, 0);
        if (is_array(x)) return arr(c, i64(c), x->ndim);
        return num_arg(c, 0, kj_strong(c->t, x)) ? i64(c) : NULL;
    }
    default: return NULL;
    }
}

/* np.histogram(a, bins=10, range=None): (counts, edges). */
static const kj_type *type_histogram(sctx *c)
{
    if (!array_arg(c, 0, 0)) return NULL;
    const kj_type *edge = f64(c);
    if (given(c, 1)) {
        if (is_array(ty(c, 1))) {
            if (!array_arg(c, 1, 1)) return NULL;
            edge = ty(c, 1)->elem;
        } else if (!int_arg(c, 1)) {
            return NULL;
        }
    }
    if (given(c, 2)) {
        const kj_type *r = ty(c, 2);
        if (r->kind != KJ_T_TUPLE || r->n != 2 || !kj_is_scalar(r->elems[0]) || !kj_is_scalar(r->elems[1]))
            return argerr(c, 2, "a tuple (min, max)");
        const kj_type *el[2] = {f64(c), f64(c)};
        convto(c, 2, kj_t_tuple(c->t, el, 2));
    }
    const kj_type *el[2] = {arr(c, i64(c), 1), arr(c, edge, 1)};
    return kj_t_tuple(c->t, el, 2);
}

static const kj_type *type_stats(sctx *c)
{
    if (c->id == KJ_B_NP_DIGITIZE) return type_sorting(c);
    if (!array_arg(c, 0, 0)) return NULL;
    const kj_type *e = ty(c, 0)->elem;
    switch (c->id) {
    case KJ_B_NP_MEDIAN: case KJ_B_NP_NANMEDIAN: return stat_float(c, e);
    case KJ_B_NP_PERCENTILE: case KJ_B_NP_QUANTILE: case KJ_B_NP_NANPERCENTILE: case KJ_B_NP_NANQUANTILE: {
        const kj_type *q = ty(c, 1);
        if (is_array(q)) return arr(c, stat_float(c, e), q->ndim);
        return num_arg(c, 1, f64(c)) ? stat_float(c, e) : NULL;
    }
    case KJ_B_NP_BINCOUNT:
        if (!array_arg(c, 0, 1)) return NULL;
        if (!kj_is_int(e) && e->kind != KJ_T_BOOL) return argerr(c, 0, "a 1-d array of non-negative integers");
        if (given(c, 1) && !array_arg(c, 1, 1)) return NULL;
        if (given(c, 2) && !int_arg(c, 2)) return NULL;
        return arr(c, given(c, 1) ? f64(c) : i64(c), 1);
    case KJ_B_NP_DIFF: return (!given(c, 1) || int_arg(c, 1)) && axis_arg(c, 2) ? arr(c, e, ty(c, 0)->ndim) : NULL;
    case KJ_B_NP_HISTOGRAM: return type_histogram(c);
    case KJ_B_NP_HISTOGRAM_BIN_EDGES: { /* the edges of np.histogram's tuple */
        const kj_type *h = type_histogram(c);
        return h ? h->elems[1] : NULL;
    }
    case KJ_B_NP_NANSUM: case KJ_B_NP_NANPROD: return kj_is_complex(e) ? e : sum_type(c, e);
    case KJ_B_NP_NANMEAN: return kj_is_complex(e) ? e : stat_float(c, e);
    case KJ_B_NP_NANVAR: case KJ_B_NP_NANSTD:
        return !given(c, 1) || int_arg(c, 1) ? stat_float(c, e) : NULL;
    case KJ_B_NP_NANMIN: case KJ_B_NP_NANMAX: case KJ_B_NP_PTP: return e;
    case KJ_B_NP_NANARGMIN: case KJ_B_NP_NANARGMAX: return i64(c);
    default: return NULL;
    }
}

/* Partitions, sets, ediff1d, trapz, interp, average. */
static const kj_type *type_more(sctx *c)
{
    const kj_type *a = ty(c, 0), *b = ty(c, 1);
    switch (c->id) {
    case KJ_B_NP_PARTITION: case KJ_B_NP_ARGPARTITION:
        if (!array_arg(c, 0, 0) || !int_arg(c, 1)) return NULL;
        return arr(c, c->id == KJ_B_NP_PARTITION ? a->elem : i64(c), a->ndim);
    case KJ_B_NP_UNION1D: case KJ_B_NP_INTERSECT1D: case KJ_B_NP_SETXOR1D:
        return array_arg(c, 0, 0) && array_arg(c, 1, 0) ? arr(c, kj_promote(c->t, a->elem, b->elem), 1) : NULL;
    case KJ_B_NP_SETDIFF1D: return array_arg(c, 0, 0) && array_arg(c, 1, 0) ? arr(c, a->elem, 1) : NULL;
    case KJ_B_NP_IN1D: case KJ_B_NP_ISIN:
        if (!array_arg(c, 0, 0) || !array_arg(c, 1, 0)) return NULL;
        /* assume_unique only lets NumPy skip its unique(): the same result for the unique inputs it promises */
        for (uint32_t k = 2; k < 4; k++)
            if (given(c, k) && ty(c, k)->kind != KJ_T_BOOL) return argerr(c, k, "a bool");
        return arr(c, kj_t_bool(c->t), c->id == KJ_B_NP_IN1D ? 1 : a->ndim);
    case KJ_B_NP_EDIFF1D: return array_arg(c, 0, 0) ? arr(c, a->elem, 1) : NULL;
    case KJ_B_NP_TRAPZ:
        if (!array_arg(c, 0, 1) || (given(c, 1) && !array_arg(c, 1, 1)) || (given(c, 2) && !num_arg(c, 2, f64(c))))
            return NULL;
        return a->elem->kind == KJ_T_FLOAT && a->elem->bits == 32 && !given(c, 1) ? a->elem : f64(c);
    case KJ_B_NP_INTERP:
        if (!array_arg(c, 1, 1) || !array_arg(c, 2, 1)) return NULL;
        if (is_array(a)) return arr(c, f64(c), a->ndim);
        return num_arg(c, 0, f64(c)) ? f64(c) : NULL;
    case KJ_B_NP_AVERAGE:
        if (!array_arg(c, 0, 0)) return NULL;
        if (!given(c, 1)) return stat_float(c, a->elem);
        return array_arg(c, 1, 0) ? f64(c) : NULL;
    case KJ_B_NP_AROUND: {
        if (given(c, 1) && !int_arg(c, 1)) return NULL;
        const kj_type *e = is_array(a) ? a->elem : a;
        if (!kj_is_scalar(e) || e->kind == KJ_T_BOOL) return argerr(c, 0, "a number or an array of numbers");
        if (is_array(a)) return arr(c, e, a->ndim);
        const kj_type *s = kj_strong(c->t, a);
        convto(c, 0, s);
        return s;
    }
    default: return NULL;
    }
}

const kj_type *kj_builtin_type_npsort(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                      uint32_t recv, kj_span call_span, const kj_source *src, kj_diags *d,
                                      const kj_type **conv)
{
    sctx c = {.t = t, .id = id, .name = kj_builtin_get(id)->path, .args = args, .nargs = nargs, .recv = recv,
              .call = call_span, .src = src, .d = d, .conv = conv};
    switch (id) {
    case KJ_B_NP_SORT: case KJ_B_ARR_SORT: case KJ_B_NP_ARGSORT: case KJ_B_ARR_ARGSORT:
    case KJ_B_NP_SEARCHSORTED: case KJ_B_NP_UNIQUE: return type_sorting(&c);
    default: return id >= KJ_B_NP_PARTITION && id != KJ_B_NP_HISTOGRAM_BIN_EDGES ? type_more(&c) : type_stats(&c);
    }
}
