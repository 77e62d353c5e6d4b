/* SPDX-License-Identifier: BSD-2-Clause */
/* Reductions with an axis, a ddof, or of prod/var/argmin/argmax, called by
 * generated code (src/abi/rtfns.def): the axis is checked and normalised here,
 * array_reduce_axis.c and array_reduce.c compute. */
#include "rt_host.h"

#include "array.h"
#include "array_int.h"

_Static_assert((int)KJ_RED_ARGMAX == (int)KJ_REDUCE_ARGMAX && (int)KJ_RED_STD == (int)KJ_REDUCE_STD,
               "kj_rt_reduce_op and kj_reduce_op list the operations in the same order");

/* The whole-array form: a scalar; on the parallel target sum, min, max,
 * mean, var and std of large float arrays use the pool (same bits). */
static bool reduce_all(kj_rt *rt, const kj_array *a, kj_reduce_op op, int64_t ddof, kj_scalar *s,
                       kj_rt_error *err)
{
    int64_t i = 0;
    kj_tasks storage;
    const kj_tasks *tk = kj_rt_tasks(rt, &storage);
    switch (op) {
    case KJ_REDUCE_SUM: *s = kj_array_sum_on(a, tk); return true;
    case KJ_REDUCE_PROD: *s = kj_array_prod(a); return true;
    case KJ_REDUCE_MIN: return kj_array_extreme_on(a, false, tk, s, err);
    case KJ_REDUCE_MAX: return kj_array_extreme_on(a, true, tk, s, err);
    case KJ_REDUCE_MEAN: *s = kj_array_mean_on(a, tk); return true;
    case KJ_REDUCE_VAR: *s = kj_array_var_on(a, ddof, tk); return true;
    case KJ_REDUCE_STD: *s = kj_array_std_on(a, ddof, tk); return true;
    case KJ_REDUCE_ARGMIN:
    case KJ_REDUCE_ARGMAX:
        if (!kj_array_argext(a, op == KJ_REDUCE_ARGMAX, &i, err)) return false;
        *s = kj_scalar_i64(i);
        return true;
    }
    return true;
}

void kj_rt_reduce_axis(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t dtype, int32_t rdtype,
                       int32_t has_axis, int64_t axis, int64_t ddof, void *result, int32_t out_ndim, int32_t line,
                       int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    if (has_axis && (axis < -(int64_t)ndim || axis >= ndim)) {
        kj_rt_errorf(&err, "AxisError", "axis %lld is out of bounds for array of dimension %d", (long long)axis,
                     (int)ndim);
        kj_rt_raise_error(rt, &err, line, col);
    }
    if (axis < 0) axis += ndim;
    if (out_ndim > 0) {
        kj_tasks storage;
        kj_array *r = kj_dtype_info[dtype].kind == 'c' /* array_cpx_axis.c */
                          ? kj_array_cpx_reduce_axis(&h, (kj_reduce_op)op, (int)axis, ddof, &err)
                          : kj_array_reduce_axis_on(&h, (kj_reduce_op)op, (int)axis, ddof, kj_rt_tasks(rt, &storage), &err);
        kj_rt_result(rt, r, &err, result, out_ndim, line, col);
        return;
    }
    if (dtype == KJ_DT_COMPLEX64 || dtype == KJ_DT_COMPLEX128) { /* a complex array: array_cpx.c */
        bool var = op == KJ_REDUCE_VAR || op == KJ_REDUCE_STD; /* a real result: array_cpx_axis.c */
        if (!(var ? kj_array_cpx_var(&h, op == KJ_REDUCE_STD, ddof, result, &err)
                  : kj_array_cpx_reduce(&h, (kj_reduce_op)op, result, &err)))
            kj_rt_raise_error(rt, &err, line, col);
        return;
    }
    kj_scalar s = {0};
    if (!reduce_all(rt, &h, (kj_reduce_op)op, ddof, &s, &err)) kj_rt_raise_error(rt, &err, line, col);
    kj_elem_store(result, (kj_dtype)rdtype, s);
}
