/* SPDX-License-Identifier: BSD-2-Clause */
/* Generated code's entries to the statistics along an axis (array_stats2.h). */
#include "rt_host.h"
#include "../abi/abi.h"
#include "array_stats2.h"

/* np.cumsum/cumprod(a, axis=axis): a new array of a's ndim at `out`. */
void kj_rt_cumulate_axis(kj_rt *rt, const void *a, int32_t ndim, int32_t dtype, int32_t prod, int64_t axis,
                         void *out, int32_t line, int32_t col)
{
    kj_array h;
    kj_rt_header(&h, a, ndim, dtype);
    kj_rt_error err = {0};
    kj_rt_result(rt, kj_array_cumulate_axis(&h, prod != 0, axis, &err), &err, out, ndim, line, col);
}
