/* SPDX-License-Identifier: BSD-2-Clause */
/* Device-array methods lowered to other built-ins (numba-cuda's memory.rst;
 * on the host targets a device array is a host array).
 *
 * d.split(section): numba-cuda cuts a 1-d array into views of `section`
 * elements, the last one shorter when the size is not a multiple; that is
 * np.split(d, np.arange(section, d.size, section)), a list of views
 * (rt_manip2.c), which share d's memory and so its device copy. */
#include "lower_int.h"

#include "kir_build.h"

static kir_ref builtin(lctx *lc, int b, const kj_type *t, kj_span sp, const kir_ref *args, uint32_t n)
{
    kir_ref r = kj_lw_emit(lc, KIR_BUILTIN, t, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = (uint16_t)b;
    in->args = kir_refs(lc->s->a, args, n);
    in->nargs = n;
    return r;
}

kir_ref kj_lower_devarr_split(lctx *lc, const kj_type *t, kir_ref d, kir_ref section, kj_span sp)
{
    const kj_type *i64t = kj_t_int(lc->s->types, 64, true);
    section = kj_lw_cast(lc, section, i64t, sp);
    kir_ref n = builtin(lc, KJ_B_ARR_SIZE, i64t, sp, (kir_ref[]){d}, 1);
    kir_ref pts = builtin(lc, KJ_B_NP_ARANGE, kj_t_array(lc->s->types, i64t, 1, KJ_LAYOUT_C), sp,
                          (kir_ref[]){section, n, section, 0}, 4);
    return builtin(lc, KJ_B_NP_SPLIT, t, sp, (kir_ref[]){d, pts, 0}, 3);
}
