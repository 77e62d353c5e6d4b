/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of numba.cuda's device API in host code (builtins_cuda_dev.h):
 * the device, its context and its attributes are opaque values whose
 * attributes the runtime reads (rt_cuda_dev.c). */
#include "builtins.h"

#include "../util/diag.h"

bool kj_cuda_dev_attr(kj_builtin id, int *code, int64_t *cpu_value)
{
    switch (id) {
#define ATTR_CASE(N, c, v)                                                                                             \
    case KJ_B_DEV_##N: *code = (c); *cpu_value = (int64_t)(v); return true;
        KJ_CUDA_DEV_ATTRS(ATTR_CASE)
#undef ATTR_CASE
    default: return false;
    }
}

static const kj_type *pair_i64(kj_types *t)
{
    const kj_type *el[2] = {kj_t_int(t, 64, true), kj_t_int(t, 64, true)};
    return kj_t_tuple(t, el, 2);
}

const kj_type *kj_builtin_type_cuda_dev(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                        uint32_t recv, kj_span call_span, const kj_source *src, kj_diags *d)
{
    (void)recv;
    switch (id) {
    case KJ_B_CUDA_IS_AVAILABLE: case KJ_B_CUDA_DETECT: return kj_t_bool(t);
    case KJ_B_CUDA_CLOSE: return kj_t_none(t);
    case KJ_B_CUDA_GET_CURRENT_DEVICE: case KJ_B_CTX_DEVICE: return kj_t_opaque(t, "device");
    case KJ_B_CUDA_CURRENT_CONTEXT:
        if (nargs > 0 && args[0].type && !kj_is_int(args[0].type)) {
            kj_error(d, src, args[0].span, "cuda.current_context() argument 'devnum' must be an integer, not %s",
                     kj_type_str(args[0].type));
            return NULL;
        }
        return kj_t_opaque(t, "context");
    case KJ_B_CUDA_LIST_DEVICES: return kj_t_opaque(t, "gpus"); /* len() as len(cuda.gpus) */
    case KJ_B_CTX_GET_MEMORY_INFO: return pair_i64(t);      /* (free, total) */
    case KJ_B_DEV_NAME: case KJ_B_DEV_UUID: return kj_t_str(t);
    case KJ_B_DEV_COMPUTE_CAPABILITY: return pair_i64(t);
    case KJ_B_DEV_ID: return kj_t_int(t, 64, true);
    default: {
        int code;
        int64_t v;
        if (kj_cuda_dev_attr(id, &code, &v)) return kj_t_int(t, 64, true);
        kj_error(d, src, call_span, "internal error: no typing rule for %s", kj_builtin_get(id)->path);
        return NULL;
    }
    }
}
