/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of cuda.fp16.* (numba-cuda's reference/kernel.rst, "16-bit Floating
 * Point Intrinsics"): every argument is a float16 (numba-cuda types them
 * for float16 only; a float32 or a literal must be converted first, as
 * there), the result a float16, or a bool for heq/hne/hgt/hge/hlt/hle. The
 * code is llvm_fp16.c's. */
#include "builtins.h"

static bool is_compare(kj_builtin id)
{
    return id == KJ_B_FP16_HEQ || id == KJ_B_FP16_HNE || id == KJ_B_FP16_HGT || id == KJ_B_FP16_HGE ||
           id == KJ_B_FP16_HLT || id == KJ_B_FP16_HLE;
}

const kj_type *kj_fp16_builtin_type(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                    kj_span call, const kj_source *src, kj_diags *d)
{
    const kj_type *h = kj_t_float(t, 16);
    const char *path = kj_builtin_get(id)->path;
    for (uint32_t i = 0; i < nargs; i++) {
        if (args[i].type == h) continue;
        kj_diag *dg = kj_error(d, src, args[i].type ? args[i].span : call, "%s() argument %u must be a float16, not %s",
                               path, i + 1, args[i].type ? kj_type_str(args[i].type) : "nothing");
        kj_diag_hint(dg, "convert it first: np.float16(x)");
        return NULL;
    }
    return is_compare(id) ? kj_t_bool(t) : h;
}
