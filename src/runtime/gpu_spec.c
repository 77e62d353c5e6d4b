/* SPDX-License-Identifier: BSD-2-Clause */
/* Launch specialisation on the GPU (kir_index32.h): which entry of a
 * kernel a launch runs. The decision needs no GPU (the unit tests call
 * kj_gpu_index32_fits directly). */
#include "../abi/abi.h"
#include "array.h"
#include "gpu.h"

#include <stdint.h>
#include <string.h>

static int64_t word(const kj_abi_array *d, int k)
{
    int64_t v;
    memcpy(&v, kj_abi_array_dims_word(d, k), sizeof v);
    return v;
}

/* Does every in-bounds offset of array d (ndim dimensions, items of
 * `size` bytes) fit in int32: each extent, the element count, and the
 * element span (sum of (extent - 1) * |stride| in elements)? */
static bool array_fits(const kj_abi_array *d, int ndim, int64_t size)
{
    int64_t count = 1, span = 0;
    bool empty = false;
    for (int k = 0; k < ndim; k++) {
        int64_t n = word(d, k);
        if (n < 0 || n > INT32_MAX) return false; /* the kernel's extents are read as int32 */
        empty |= n == 0;
    }
    for (int k = 0; !empty && k < ndim; k++) {
        int64_t n = word(d, k), st = word(d, ndim + k), step, reach;
        if (st == INT64_MIN) return false;
        step = (st < 0 ? -st : st) / (size > 0 ? size : 1);
        count *= n; /* each factor is at most INT32_MAX and count is too: no overflow */
        if (count > INT32_MAX || __builtin_mul_overflow(n - 1, step, &reach) ||
            __builtin_add_overflow(span, reach, &span) || span > INT32_MAX)
            return false;
    }
    return true;
}

bool kj_gpu_index32_fits(const kj_abi_kernel *k, const int64_t *cfg, void *const *args)
{
    /* a cooperative kernel keeps the entry max_cooperative_grid_blocks measured */
    if (!k->symbol32 || k->cooperative) return false;
    for (int d = 0; d < 3; d++) { /* cuda.grid(): blockIdx * blockDim + threadIdx */
        int64_t n;
        if (cfg[d] < 0 || cfg[3 + d] < 0 || __builtin_mul_overflow(cfg[d], cfg[3 + d], &n) || n > INT32_MAX)
            return false;
    }
    for (int32_t j = 0; j < k->nparams; j++) {
        const kj_abi_param *p = &k->params[j];
        if (p->kind == KJ_ABI_PARAM_SCALAR) continue;
        if (!array_fits(args[j], p->ndim, (int64_t)kj_dtype_size((kj_dtype)p->dtype))) return false;
    }
    return true;
}
