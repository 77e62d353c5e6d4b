/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit_fn_writes_arg: does a specialisation write an array argument? For
 * an application whose arrays may be read-only (the Python package's
 * read-only NumPy arrays, which Numba types as readonly arrays and refuses
 * to write at compile time: docs/python.md "Calls"). The answer is
 * kir_readonly.c's, the analysis that refuses writes to frozen globals. */
#include "api_int.h"

int kjit_fn_writes_arg(kjit_fn *f, const kjit_value *args, int nargs, int i, bool *out, kjit_error *err)
{
    if (!f || !out) return kj_api_usage(err, "kjit_fn_writes_arg: %s is NULL", !f ? "fn" : "out");
    if (i < 0 || i >= nargs || !args || args[i].kind != KJIT_VALUE_ARRAY)
        return kj_api_usage(err, "kjit_fn_writes_arg: argument %d of %d is not an array", i, nargs);
    kj_api_spec sp;
    int rc = f->kind == KJIT_FN_KERNEL ? kj_api_launch_spec(f, args, nargs, &sp, err)
                                       : kj_api_call_spec(f, args, nargs, &sp, err);
    if (rc) return rc;
    *out = (uint32_t)i < sp.kf->nparams && kj_kir_writes_param(sp.kf, (uint32_t)i);
    kj_api_clear_error(err);
    return KJIT_OK;
}
