/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of numba.cuda's streams and profiler in host code
 * (builtins_cuda_host.h): streams are the opaque "stream" values
 * cuda.stream() makes, the profiler calls return None. */
#include "builtins.h"

#include "../util/diag.h"

const kj_type *kj_builtin_type_cuda_host(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                         kj_span call_span, const kj_source *src, kj_diags *d)
{
    switch (id) {
    case KJ_B_CUDA_DEFAULT_STREAM: case KJ_B_CUDA_LEGACY_DEFAULT_STREAM: case KJ_B_CUDA_PER_THREAD_DEFAULT_STREAM:
        return kj_t_opaque(t, "stream");
    case KJ_B_CUDA_EXTERNAL_STREAM:
        /* the CUstream another library made, as the integer Numba takes (e.g. CuPy's stream.ptr) */
        if (nargs < 1 || !args[0].type || !kj_is_int(args[0].type)) {
            kj_error(d, src, nargs ? args[0].span : call_span,
                     "cuda.external_stream() argument 'ptr' must be an integer (a CUstream's address), not %s",
                     nargs && args[0].type ? kj_type_str(args[0].type) : "nothing");
            return NULL;
        }
        return kj_t_opaque(t, "stream");
    case KJ_B_CUDA_PROFILE_START: case KJ_B_CUDA_PROFILE_STOP: return kj_t_none(t);
    case KJ_B_GPUS_CURRENT: return kj_t_opaque(t, "device");
    case KJ_B_KERNEL_MAX_COOP: {
        /* args[0] the kernel; blockdim an int or a tuple of 1 to 3 ints (their product counts) */
        const kj_type *b = nargs > 1 ? args[1].type : NULL;
        bool ok = kj_is_int(b);
        if (b && b->kind == KJ_T_TUPLE && b->n >= 1 && b->n <= 3) {
            ok = true;
            for (uint32_t i = 0; i < b->n; i++) ok = ok && kj_is_int(b->elems[i]);
        }
        if (!ok) {
            kj_error(d, src, nargs > 1 ? args[1].span : call_span,
                     "max_cooperative_grid_blocks() argument 'blockdim' must be an int or a tuple of 1 to 3 ints, "
                     "not %s", b ? kj_type_str(b) : "nothing");
            return NULL;
        }
        if (nargs > 2 && args[2].type && !kj_is_int(args[2].type)) {
            kj_error(d, src, args[2].span,
                     "max_cooperative_grid_blocks() argument 'dynsmemsize' must be an int, not %s",
                     kj_type_str(args[2].type));
            return NULL;
        }
        return kj_t_int(t, 64, true);
    }
    case KJ_B_XORO_DTYPE: return kj_t_opaque(t, "xoroshiro128p_dtype"); /* device_array's dtype= only */
    default:
        kj_error(d, src, call_span, "internal error: no typing rule for %s", kj_builtin_get(id)->path);
        return NULL;
    }
}
