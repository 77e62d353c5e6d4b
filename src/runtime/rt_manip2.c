/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime entry of array_manip2.c's operations (rtfns.def's MANIP2). */
#include "rt_host.h"

#include "../abi/abi.h"
#include "array_manip2.h"

void kj_rt_manip2(kj_rt *rt, int32_t op, const void *a, int32_t ndim, int32_t dtype, const void *b, int32_t b_ndim,
                  int32_t b_dtype, const int64_t *p, int32_t to, void *out, int32_t out_ndim, int32_t line,
                  int32_t col)
{
    kj_array ha, hb;
    if (a) kj_rt_header(&ha, a, ndim, dtype);
    if (b) kj_rt_header(&hb, b, b_ndim, b_dtype);
    kj_rt_error err = {0};
    kj_array *r = kj_array_manip2((kj_manip2_op)op, a ? &ha : NULL, b ? &hb : NULL, p, (kj_dtype)to, &err);
    if (op == KJ_M2_FILL_DIAG) { /* in place: r is the header itself */
        if (!r) kj_rt_raise_error(rt, &err, line, col);
        return;
    }
    kj_rt_result(rt, r, &err, out, out_ndim, line, col);
}
