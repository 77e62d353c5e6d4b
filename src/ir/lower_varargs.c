/* SPDX-License-Identifier: BSD-2-Clause */
/* *args at a call (infer_varargs.c): the positional arguments from `from` on,
 * each converted to its element of the tuple type t, packed as one tuple. */
#include "lower_int.h"

kir_ref kj_lower_varargs(lctx *lc, const kj_expr *call, uint32_t from, const kj_type *t)
{
    kir_ref *el = KJ_NEWN(lc->s->a, kir_ref, t->n + 1);
    for (uint32_t j = 0; j < t->n; j++) el[j] = kj_lw_as(lc, call->call.args[from + j], t->elems[j]);
    return kj_lw_emit_args(lc, KIR_TUPLE, t, call->span, el, t->n);
}
