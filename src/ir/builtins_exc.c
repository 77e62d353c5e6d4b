/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the exception objects' built-ins (builtins_exc.h). An exception
 * caught by `except ... as e` in host code is one value typed three ways
 * (types.h's kj_t_is_excobj): `exception` (e), `exception args` (e.args,
 * which prints, converts to str and has a len) and `exception type`
 * (type(e), whose __name__ is a str). */
#include "builtins.h"

#include "../util/diag.h"

const kj_type *kj_type_exc(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                           const kj_source *src, kj_diags *d)
{
    const kj_type *x = nargs ? args[0].type : NULL;
    if (!kj_t_is_excobj(x)) {
        kj_error(d, src, call, "%s takes an exception", kj_builtin_get(id)->path);
        return NULL;
    }
    switch (id) {
    case KJ_B_EXC_ARGS: return kj_t_opaque(t, "exception args");
    case KJ_B_EXC_NAME: return kj_t_str(t);
    case KJ_B_EXC_TYPE: return kj_t_opaque(t, "exception type");
    case KJ_B_EXC_IS: case KJ_B_EXC_ISA: return kj_t_bool(t);
    case KJ_B_EXC_NARGS: case KJ_B_LEN: return kj_t_int(t, 64, true);
    default: return kj_t_none(t);
    }
}
