/* SPDX-License-Identifier: BSD-2-Clause */
/* The shape of cuda.shared.array / cuda.local.array given as a local name
 * bound once to a constant (`N = 100; cuda.shared.array(N, int32)`), which
 * Numba accepts: its type inference sees through a single assignment of a
 * constant. Here the one assignment of the name in the function body is
 * found and its value folded; that use of the name then counts as the
 * constant (its expression info is marked constant, so lowering emits the
 * value and code generation sees a constant shape). Other uses of the name
 * stay ordinary reads of the local. */
#include "sema_int.h"

#include <string.h>

/* The value of the one `name = VALUE` statement of block b (and the blocks
 * inside it), or NULL. */
static const kj_expr *single_value(const kj_block *b, const char *name)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        if (st->kind == KJ_S_ASSIGN && st->assign.ntargets == 1 && st->assign.targets[0]->kind == KJ_E_NAME &&
            !strcmp(st->assign.targets[0]->name, name))
            return st->assign.value;
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++) {
            const kj_expr *v = single_value(in[k], name);
            if (v) return v;
        }
    }
    return NULL;
}

static bool is_param(const kj_funcdef *def, const char *name)
{
    for (uint32_t i = 0; i < def->nparams; i++)
        if (!strcmp(def->params[i].name, name)) return true;
    return false;
}

bool kj_local_const_shape(kj_ictx *ic, const kj_expr *e, kj_barg *arg)
{
    if (!e || e->kind != KJ_E_NAME || !ic->sp->fn || !ic->sp->fn->def) return false;
    const kj_funcdef *def = ic->sp->fn->def;
    if (is_param(def, e->name) || kj_count_assigns(&def->body, e->name) != 1) return false;
    const kj_expr *v = single_value(&def->body, e->name);
    kj_cval cv;
    if (!v || !kj_const_eval(ic->s, v, &cv) || !cv.type || cv.type->kind != KJ_T_INT) return false;
    kj_einfo *ei = &ic->sp->ei[e->id];
    if (ei->kind != EI_VALUE || !kj_is_int(ei->type)) return false;
    ei->is_const = true;
    ei->cval = cv;
    arg->is_const = true;
    arg->ival = cv.i;
    arg->fval = (double)cv.i;
    return true;
}
