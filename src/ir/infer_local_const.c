/* SPDX-License-Identifier: BSD-2-Clause */
/* The shape of cuda.shared.array / cuda.local.array given as a local name
 * bound once to a constant (`N = 100; cuda.shared.array(N, int32)`), which
 * Numba accepts: its type inference sees through a single assignment of a
 * constant. Here the one assignment of the name in the function body is
 * found and its value folded; that use of the name then counts as the
 * constant (its expression info is marked constant, so lowering emits the
 * value and code generation sees a constant shape). Other uses of the name
 * stay ordinary reads of the local. The same look-through names a record's
 * field by a local bound once to a constant string (kj_local_const_str). */
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

/* The constant a local bound once stands for, seen through one level of
 * constant subscripts of tuples (`fields = ('x', 'y'); f = fields[0]`, as
 * Numba's constant inference sees it); false when it is not one. */
static bool local_value(kj_ictx *ic, const kj_expr *e, kj_cval *out, int depth)
{
    const kj_funcdef *def = ic->sp->fn ? ic->sp->fn->def : NULL;
    if (depth > 4 || !def) return false;
    if (e->kind == KJ_E_NAME && !is_param(def, e->name) && kj_count_assigns(&def->body, e->name) == 1) {
        const kj_expr *v = single_value(&def->body, e->name);
        return v && local_value(ic, v, out, depth + 1);
    }
    kj_cval ix;
    if (e->kind == KJ_E_SUBSCRIPT && e->sub.obj->kind == KJ_E_NAME && kj_const_eval(ic->s, e->sub.index, &ix) &&
        ix.type && kj_is_int(ix.type) && !is_param(def, e->sub.obj->name) &&
        kj_count_assigns(&def->body, e->sub.obj->name) == 1) {
        const kj_expr *t = single_value(&def->body, e->sub.obj->name);
        if (t && t->kind == KJ_E_TUPLE && ix.i >= -(int64_t)t->seq.n && ix.i < (int64_t)t->seq.n)
            return local_value(ic, t->seq.v[ix.i < 0 ? ix.i + t->seq.n : ix.i], out, depth + 1);
    }
    return kj_const_eval(ic->s, e, out);
}

bool kj_local_const_str(kj_ictx *ic, const kj_expr *e, const char **out)
{
    kj_cval cv;
    if (!local_value(ic, e, &cv, 0) || !cv.type || cv.type->kind != KJ_T_STR) return false;
    *out = cv.s;
    return true;
}
