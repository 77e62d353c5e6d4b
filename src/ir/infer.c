/* SPDX-License-Identifier: BSD-2-Clause */
/* infer — type inference per specialisation.
 *
 * A specialisation is (function, argument types, host or device side).
 * Its variables get one type each: the unification of every value assigned
 * to them (flow-insensitive, as Numba's type inference). The body is walked
 * quietly until no variable or return type widens, then once more with
 * diagnostics on (the reporting walk). Specialisations are discovered from
 * the roots — main and every explicit signature — through the reporting
 * walks, so only what is reachable is checked, lowered and compiled. */
#include "sema_int.h"
#include "../util/npdatetime.h"

#include <string.h>

enum { MAX_WALKS = 64, MAX_DEPTH = 200 };



/* ---- specialisations ---- */

static const char *mangle(kj_sema *s, const kj_fn *fn, const kj_type *const *args, uint32_t n,
                          bool device)
{
    kj_buf b = {0};
    kj_buf_printf(&b, "%s[", fn->def->name);
    for (uint32_t i = 0; i < n; i++) kj_buf_printf(&b, "%s%s", i ? ", " : "", kj_type_str(args[i]));
    kj_buf_puts(&b, "]");
    /* A @jit function called from both sides is compiled twice. */
    if (device && fn->kind == FK_JIT) kj_buf_puts(&b, "@device");
    char *m = kj_arena_strdup(s->a, b.s);
    kj_buf_free(&b);
    return m;
}

/* Collect the names a function body assigns: they are its local variables
 * (Python's rule: assignment anywhere in the function makes a name local). */
static void collect_target(kj_sema *s, kj_spec *sp, const kj_expr *t)
{
    if (t->kind == KJ_E_TUPLE || t->kind == KJ_E_LIST) {
        for (uint32_t i = 0; i < t->seq.n; i++) collect_target(s, sp, t->seq.v[i]);
        return;
    }
    if (t->kind != KJ_E_NAME || kj_static_local_find(sp->fn, t->name)) return;
    if (kj_host_global(s, sp->fn, t->name)) return; /* a module variable: infer_hostglobal.c */
    const char *name = kj_local_name(sp, t);
    if (!kj_strtab_put(s->a, &sp->vartab, name, sp->vars.n)) return;
    kj_var v = {.name = name, .nonneg = true, .assigned = true, .first = t->span};
    KJ_PUSH(s->a, sp->vars, v);
}

static void collect_block(kj_sema *s, kj_spec *sp, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_expr *const *t;
        const kj_block *in[2];
        for (uint32_t k = 0, nt = kj_stmt_targets(b->v[i], &t); k < nt; k++) collect_target(s, sp, t[k]);
        if (b->v[i]->kind == KJ_S_EXCEPT && b->v[i]->except.target && kj_host_code(sp))
            collect_target(s, sp, b->v[i]->except.target);
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++) collect_block(s, sp, in[k]);
    }
}

/* Does any `return` in the block give a value? Without one the function
 * returns None, known before inference (recursive calls need it). */
static bool returns_value(const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        switch (st->kind) {
        case KJ_S_RETURN: if (st->ret.value) return true; break;
        case KJ_S_IF:
            if (returns_value(&st->if_.then) || returns_value(&st->if_.els)) return true;
            break;
        case KJ_S_WHILE: if (returns_value(&st->while_.body)) return true; break;
        case KJ_S_WITH: if (returns_value(&st->with.body)) return true; break;
        case KJ_S_TRY:
            if (returns_value(&st->try_.body) || returns_value(&st->try_.clauses)) return true;
            break;
        case KJ_S_EXCEPT: if (returns_value(&st->except.body)) return true; break;
        case KJ_S_FOR: if (returns_value(&st->for_.body)) return true; break;
        default: break;
        }
    }
    return false;
}

/* The variable table of a specialisation. versions.c prunes the ifs that
 * `p is None` decides for its parameters, so the table depends on which
 * parameters are None: one per such set (most functions have one). */
static const char *const *versions_for(kj_sema *s, kj_fn *fn, const kj_type *const *args, uint32_t nargs)
{
    uint64_t mask = 0;
    for (uint32_t i = 0; i < nargs; i++)
        if (args[i]->kind == KJ_T_NONE) {
            if (i >= 64) return kj_versions(s->a, fn, args, nargs); /* not cached */
            mask |= (uint64_t)1 << i;
        }
    for (uint32_t i = 0; i < fn->vtabs.n; i++)
        if (fn->vtabs.v[i].none_mask == mask) return fn->vtabs.v[i].vnames;
    kj_vtab t = {.none_mask = mask, .vnames = kj_versions(s->a, fn, args, nargs)};
    KJ_PUSH(s->a, fn->vtabs, t);
    return t.vnames;
}

kj_spec *kj_spec_get(kj_sema *s, kj_fn *fn, const kj_type *const *args, uint32_t nargs,
                     bool device, kj_span at)
{
    for (uint32_t i = 0; i < fn->specs.n; i++) {
        kj_spec *sp = fn->specs.v[i];
        if (sp->device != device || sp->nargs != nargs) continue;
        bool same = true;
        for (uint32_t k = 0; k < nargs && same; k++) same = sp->args[k] == args[k];
        if (same) return sp;
    }
    kj_spec *sp = KJ_NEW(s->a, kj_spec);
    sp->fn = fn;
    sp->nargs = nargs;
    sp->args = KJ_NEWN(s->a, const kj_type *, nargs + 1);
    memcpy(sp->args, args, nargs * sizeof *args);
    sp->device = device;
    sp->called_at = at;
    sp->ei = KJ_NEWN(s->a, kj_einfo, fn->def->nexprs + 1);
    sp->mangled = mangle(s, fn, args, nargs, device);
    sp->vnames = versions_for(s, fn, args, nargs);
    for (uint32_t i = 0; i < fn->nsigs; i++) {
        const kj_sig *sig = &fn->sigs[i];
        bool same = sig->nparams == nargs;
        for (uint32_t k = 0; k < nargs && same; k++) same = sig->params[k] == args[k];
        if (same) sp->sig = sig;
    }
    if (fn->kind == FK_KERNEL || fn->kind == FK_GUVECTORIZE || !returns_value(&fn->def->body))
        sp->ret = kj_t_none(s->types);
    else if (sp->sig && sp->sig->ret) sp->ret = sp->sig->ret;
    sp->generator = kj_block_yields(&fn->def->body);
    if (sp->generator && fn->kind != FK_KERNEL && fn->kind != FK_GUVECTORIZE) sp->ret = NULL; /* infer_pygen.c */
    for (uint32_t i = 0; i < nargs; i++) {
        kj_var v = {.name = fn->def->params[i].name, .type = args[i], .is_param = true,
                    .nonneg = args[i]->kind == KJ_T_INT && !args[i]->is_signed,
                    .first = fn->def->params[i].span};
        /* Variables are hashed by name as they are collected: every name in
         * the body is looked up in every walk, and in lowering. */
        kj_strtab_put(s->a, &sp->vartab, v.name, sp->vars.n);
        KJ_PUSH(s->a, sp->vars, v);
    }
    collect_block(s, sp, &fn->def->body);
    /* A version only read (`print(x)` before `x = 1`): a variable nothing
     * assigns, reported as used before assignment. */
    for (uint32_t i = 0; sp->vnames && i < fn->def->nexprs; i++)
        if (sp->vnames[i] && !kj_host_global(s, fn, sp->vnames[i]) &&
            kj_strtab_put(s->a, &sp->vartab, sp->vnames[i], sp->vars.n)) {
            kj_var v = {.name = sp->vnames[i]};
            KJ_PUSH(s->a, sp->vars, v);
        }
    KJ_PUSH(s->a, fn->specs, sp);
    KJ_PUSH(s->a, s->specs, sp);
    return sp;
}

/* ---- variables ---- */

static void assign_var(kj_ictx *ic, const kj_expr *target, const kj_type *t, bool nonneg)
{
    kj_var *v = kj_var_of(ic->sp, target);
    if (!v) kj_host_global_assign(ic, target, t); /* global NAME in a host function: infer_hostglobal.c */
    if (!v || !t) return;
    if (t->kind == KJ_T_STR && kj_is_device_ctx(ic->sp)) { /* host strings: infer_str.c */
        kj_error(ic->d, ic->s->src, target->span, "strings are not supported in CUDA kernels and device functions");
        return;
    }
    if (!nonneg && v->nonneg) {
        v->nonneg = false;
        ic->changed = true;
    }
    if (!v->type) {
        v->type = t;
        ic->changed = true;
        return;
    }
    /* In compiled functions a variable bound to a Python literal and to a
     * typed value holds the strong type both convert to, as in Numba
     * (`s = 0; s += int8(x)` makes s int64, where NEP 50's weak literal
     * would give int8 and wrap). Host code keeps CPython's scalar rules. */
    const kj_type *u = v->type->weak != t->weak && !kj_host_code(ic->sp)
                           ? kj_unify_opt(ic->s->types, kj_strong(ic->s->types, v->type), kj_strong(ic->s->types, t))
                           : kj_unify_opt(ic->s->types, v->type, t); /* None and T: Optional(T) */
    if (!u) {
        /* Numba's message: the bindings meet at a use (a loop or a join
         * after if/else), so one variable must hold both. */
        kj_diag *dg = kj_error(ic->d, ic->s->src, target->span,
                               "cannot unify %s and %s for '%s'", kj_type_str(v->type),
                               kj_type_str(t), target->name);
        if (t->kind == KJ_T_FUNC && v->type->kind == KJ_T_FUNC)
            kj_diag_hint(dg, "a variable holds one function: Numba's experimental first-class function "
                             "types are not supported; call each function where it is chosen");
        else
            kj_diag_hint(dg, "both values reach one use (through a loop or an if/else); give one of them "
                             "another name");
        return;
    }
    if (u != v->type) {
        v->type = u;
        ic->changed = true;
    }
}

static void assign_target(kj_ictx *ic, const kj_expr *target, const kj_type *t, bool nonneg);

static bool block_binds(const kj_block *b, const char *name)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_expr *const *t;
        const kj_block *in[2];
        for (uint32_t k = 0, nt = kj_stmt_targets(b->v[i], &t); k < nt; k++)
            if (t[k]->kind == KJ_E_NAME && !strcmp(t[k]->name, name)) return true;
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++)
            if (block_binds(in[k], name)) return true;
    }
    return false;
}

/* `p is None` (or `is not`) of a parameter p that is not None and that the
 * function binds again. Numba prunes the branch such a test decides only
 * where p has one binding; here both branches are typed, so that p's
 * bindings unify as in Numba (`if b is None: b = 1.5` with an int b: a
 * float). Where p is None, versions.c has split the rebinding off. */
static bool rebound_param_test(kj_ictx *ic, const kj_expr *cond)
{
    if (cond->kind != KJ_E_COMPARE || cond->cmp.n != 2 ||
        (cond->cmp.ops[0] != KJ_CMP_IS && cond->cmp.ops[0] != KJ_CMP_ISNOT))
        return false;
    const kj_expr *x = cond->cmp.operands[0]->kind == KJ_E_NONE ? cond->cmp.operands[1] : cond->cmp.operands[0];
    if (x->kind != KJ_E_NAME) return false;
    const kj_var *v = kj_var_of(ic->sp, x);
    return v && v->is_param && v->type && v->type->kind != KJ_T_NONE && block_binds(&ic->sp->fn->def->body, x->name);
}

static void assign_unpack(kj_ictx *ic, const kj_expr *target, const kj_type *t, bool nonneg)
{
    if (t->kind != KJ_T_TUPLE) {
        kj_error(ic->d, ic->s->src, target->span, "cannot unpack %s into %u names",
                 kj_type_str(t), target->seq.n);
        return;
    }
    if (t->n != target->seq.n) {
        kj_error(ic->d, ic->s->src, target->span, "cannot unpack %u values into %u names", t->n,
                 target->seq.n);
        return;
    }
    for (uint32_t i = 0; i < t->n; i++) assign_target(ic, target->seq.v[i], t->elems[i], nonneg);
}

/* a[i] = v, a[1:-1] = v */
static void assign_subscript(kj_ictx *ic, const kj_expr *target, const kj_type *t)
{
    const kj_type *ot = kj_value_type(ic, target->sub.obj);
    if (kj_record_store_check(ic, target, t)) return; /* r['x'] = v: infer_record.c */
    if (ot && ot->kind == KJ_T_DICT) { /* d[k] = v, of `{}` too: infer_dict.c */
        kj_dict_store(ic, target, t);
        return;
    }
    const kj_type *dst = kj_value_type(ic, target);
    const kj_type *arr = ic->sp->ei[target->sub.obj->id].type;
    if (!dst || !arr) return;
    if (kj_frozen_write_error(ic->s, ic->d, ic->sp->fn, &ic->sp->ei[target->sub.obj->id], target)) return;
    if (arr->kind == KJ_T_LIST && target->sub.index->kind == KJ_E_SLICE) { /* lst[a:b] = other */
        kj_list_setslice_check(ic, target, arr, t);
        return;
    }
    if (arr->kind == KJ_T_LIST || kj_npshape_wrapper(arr) == KJ_NPW_FLAT) { /* lst[i] = x, a.flat[i] = x */
        if (!kj_can_convert(t, dst))
            kj_error(ic->d, ic->s->src, target->span, "cannot store %s into an element of %s",
                     kj_type_str(t), kj_type_str(arr));
        return;
    }
    if (kj_buffer_store_error(ic, target, arr)) return; /* infer_bytes.c */
    if (kj_lsd_store_error(ic, target, arr)) return; /* infer_lsd.c */
    if (arr->kind != KJ_T_ARRAY) {
        kj_error(ic->d, ic->s->src, target->span, "'%s' does not support item assignment",
                 kj_type_str(arr));
        return;
    }
    if (dst->kind == KJ_T_ARRAY) {
        if (kj_is_device_ctx(ic->sp)) {
            kj_error(ic->d, ic->s->src, target->span,
                     "slice assignment is only supported in host code; write a loop");
            return;
        }
        const kj_type *src_el = t->kind == KJ_T_ARRAY ? t->elem : t;
        if (kj_is_complex(src_el) && !kj_is_complex(dst->elem)) { /* NumPy: ComplexWarning; Numba refuses */
            kj_error(ic->d, ic->s->src, target->span, "cannot store %s into %s: it would discard the imaginary "
                     "part", kj_type_str(t), kj_type_str(dst));
            return;
        }
        if (!kj_is_scalar(src_el) || (t->kind == KJ_T_ARRAY && t->ndim > dst->ndim))
            kj_error(ic->d, ic->s->src, target->span, "cannot assign %s to %s", kj_type_str(t),
                     kj_type_str(dst));
        return;
    }
    if ((kj_is_dt(t) || kj_is_dt(arr->elem)) && t->kind == arr->elem->kind && /* to a finer unit: llvm_datetime.c */
        kj_dtu_common(t->unit, t->kind == KJ_T_DATETIME, arr->elem->unit, t->kind == KJ_T_DATETIME) == arr->elem->unit)
        return;
    if (!kj_is_scalar(t) || (kj_is_complex(t) && !kj_is_complex(arr->elem)))
        kj_error(ic->d, ic->s->src, target->span, "cannot store %s into an element of %s",
                 kj_type_str(t), kj_type_str(arr));
}

static void assign_target(kj_ictx *ic, const kj_expr *target, const kj_type *t, bool nonneg)
{
    switch (target->kind) {
    case KJ_E_NAME: assign_var(ic, target, t, nonneg); break;
    case KJ_E_TUPLE: case KJ_E_LIST: if (t) assign_unpack(ic, target, t, nonneg); break;
    case KJ_E_SUBSCRIPT: if (t) assign_subscript(ic, target, t); break;
    case KJ_E_ATTR:
        if (kj_record_store_check(ic, target, t)) break; /* r.x = v: infer_record.c */
        kj_error(ic->d, ic->s->src, target->span, "cannot assign to attribute '%s'",
                 target->attr.name);
        break;
    default: kj_error(ic->d, ic->s->src, target->span, "cannot assign to this expression"); break;
    }
}

/* ---- statements ---- */

static void infer_block(kj_ictx *ic, const kj_block *b);

static void infer_return(kj_ictx *ic, const kj_stmt *st)
{
    kj_spec *sp = ic->sp;
    if (sp->generator) {
        kj_infer_generator_return(ic, st);
        return;
    }
    const kj_type *t = NULL;
    kj_einfo *vi = st->ret.value ? kj_type_expr(ic, st->ret.value) : NULL;
    if (!vi) t = kj_t_none(ic->s->types);
    else if (vi->kind == EI_DTYPE) t = kj_t_dtype(ic->s->types, vi->dtype); /* return np.float32 */
    else t = kj_value_type_raw(ic, st->ret.value); /* an Optional is returned as it is */
    if (!t) return;
    if (sp->fn->kind == FK_KERNEL || sp->fn->kind == FK_GUVECTORIZE) {
        if (t->kind != KJ_T_NONE)
            kj_error(ic->d, ic->s->src, st->span, "%s cannot return a value",
                     sp->fn->kind == FK_KERNEL ? "kernels" : "gufuncs (write to the output argument)");
        return;
    }
    if (sp->sig && sp->sig->ret) {
        if (!kj_can_convert(t, sp->sig->ret) && !(kj_is_scalar(t) && kj_is_scalar(sp->sig->ret)))
            kj_error(ic->d, ic->s->src, st->span, "returns %s but the signature says %s",
                     kj_type_str(t), kj_type_str(sp->sig->ret));
        return;
    }
    t = kj_strong(ic->s->types, t);
    if (!sp->ret) {
        sp->ret = t;
        ic->changed = true;
        return;
    }
    const kj_type *u = kj_unify_opt(ic->s->types, sp->ret, t); /* None and T: Optional(T) */
    if (!u) {
        kj_error(ic->d, ic->s->src, st->span, "'%s' returns %s here but %s elsewhere",
                 sp->fn->def->name, kj_type_str(t), kj_type_str(sp->ret));
        return;
    }
    if (u != sp->ret) {
        sp->ret = u;
        ic->changed = true;
    }
}

/* for x in (a, b, c): a tuple of one element type (Numba's UniTuple). */
static void infer_for_tuple(kj_ictx *ic, const kj_stmt *st, const kj_type *tt)
{
    const kj_expr *it = st->for_.iter;
    const kj_type *et = tt->n > 0 ? tt->elems[0] : NULL;
    /* arrays that differ only in their layout unify (a view among arrays) */
    for (uint32_t k = 1; k < tt->n && et; k++)
        et = tt->elems[k] == et ? et
             : et->kind == KJ_T_ARRAY && tt->elems[k]->kind == KJ_T_ARRAY ? kj_unify(ic->s->types, et, tt->elems[k])
                                                                            : NULL;
    if (!et) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, it->span,
                               "for loops iterate over range(), prange() or a tuple of one type, not %s",
                               kj_type_str(tt));
        kj_diag_hint(dg, "write: for i in range(len(a))");
    } else if (st->for_.target->kind != KJ_E_NAME) {
        kj_error(ic->d, ic->s->src, st->for_.target->span,
                 "the loop variable of a loop over a tuple must be a single name");
    } else {
        assign_var(ic, st->for_.target, et, false);
    }
}

static void infer_for(kj_ictx *ic, const kj_stmt *st)
{
    const kj_expr *it = st->for_.iter;
    const kj_type *elem;
    if (kj_infer_for_iter(ic, it, &elem)) { /* arrays, enumerate, zip, range values */
        if (elem) assign_target(ic, st->for_.target, elem, false);
        ic->loops++;
        infer_block(ic, &st->for_.body);
        ic->loops--;
        return;
    }
    kj_einfo *ei = kj_type_expr(ic, it);
    bool is_range = it->kind == KJ_E_CALL && ei->kind == EI_VALUE && ei->type &&
                    ei->type->kind == KJ_T_RANGE;
    if (ei->kind == EI_VALUE && ei->type && ei->type->kind == KJ_T_TUPLE) {
        infer_for_tuple(ic, st, ei->type);
    } else if (!is_range) {
        if (ei->kind == EI_VALUE && ei->type) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, it->span,
                                   "for loops iterate over range() or prange(), not %s",
                                   kj_type_str(ei->type));
            kj_diag_hint(dg, "write: for i in range(len(a))");
        }
    } else if (st->for_.target->kind != KJ_E_NAME) {
        kj_error(ic->d, ic->s->src, st->for_.target->span,
                 "the loop variable of a range() loop must be a single name");
    } else {
        /* The loop variable is non-negative when the range starts at a
         * non-negative value and steps up by a constant. */
        bool nonneg = false;
        if (ei->nbound >= 1) {
            const kj_barg *b = ei->bound;
            uint32_t n = 0;
            while (n < (uint32_t)ei->nbound && b[n].type) n++;
            if (n == 1) nonneg = true;
            else if (n >= 2) {
                const kj_expr *start = it->call.args[0];
                bool step_ok = n == 2 || (b[2].is_const && b[2].ival > 0);
                nonneg = ic->sp->ei[start->id].nonneg && step_ok;
            }
        }
        assign_var(ic, st->for_.target, ei->type->elem, nonneg);
    }
    ic->loops++;
    infer_block(ic, &st->for_.body);
    ic->loops--;
}

/* NumPy's ufunc for a binary operator, for its messages. */
/* a op= b on an array (a name or a slice of one): NumPy's op(a, b, out=a),
 * which writes a's memory. The operation's result must have a's element
 * type (NumPy would cast it 'same_kind'; a float result into an integer
 * array is its UFuncTypeError) and no more dimensions than a. */
/* NumPy's order of kinds for casting='same_kind': a cast may go to an
 * equal or later kind (bool, unsigned, signed, float), never back. */
static int kind_rank(const kj_type *t)
{
    switch (t->kind) {
    case KJ_T_BOOL: return 0;
    case KJ_T_INT: return t->is_signed ? 2 : 1;
    default: return 3;
    }
}

static void infer_aug_array(kj_ictx *ic, const kj_stmt *st, const kj_type *cur, const kj_type *v)
{
    const kj_type *opt = NULL;
    const kj_type *r = kj_binop_type(ic, st->aug.op, cur, v, st->span, &opt);
    ic->sp->ei[st->aug.value->id].optype = opt;
    if (!r) return;
    kj_check_literal_fits(ic, st->aug.value, opt);
    const kj_type *re = r->kind == KJ_T_ARRAY ? r->elem : r;
    ic->sp->ei[st->aug.value->id].restype = re;
    if (kind_rank(re) > kind_rank(cur->elem)) {
        kj_diag *dg = kj_ufunc_cast_error(ic, st->span, kj_ufunc_name(st->aug.op), re, cur->elem);
        kj_diag_hint(dg, "write the operand in the array's type, or a = a %s b for a new array",
                     kj_binop_str(st->aug.op));
        return;
    }
    if (r->kind == KJ_T_ARRAY && r->ndim > cur->ndim)
        kj_error(ic->d, ic->s->src, st->span,
                 "non-broadcastable output operand: the result has %d dimensions, the array %d", r->ndim,
                 cur->ndim);
}

static void infer_augassign(kj_ictx *ic, const kj_stmt *st)
{
    const kj_expr *t = st->aug.target;
    if (t->kind != KJ_E_NAME && t->kind != KJ_E_SUBSCRIPT &&
        !(t->kind == KJ_E_ATTR && kj_record_of(kj_value_type(ic, t->attr.obj)))) { /* r.x += v: infer_record.c */
        kj_error(ic->d, ic->s->src, t->span, "cannot use augmented assignment on this target");
        return;
    }
    if (st->aug.op == KJ_OP_MATMUL) { /* NumPy refuses in-place matmul too */
        kj_error(ic->d, ic->s->src, st->span, "the @= operator is not supported: write a = a @ b");
        return;
    }
    const kj_type *cur = kj_value_type(ic, t);
    const kj_type *v = kj_value_type(ic, st->aug.value);
    if (t->kind == KJ_E_SUBSCRIPT && kj_frozen_write_error(ic->s, ic->d, ic->sp->fn, &ic->sp->ei[t->sub.obj->id], t)) return;
    if (!cur || !v) return;
    if (cur->kind == KJ_T_ARRAY && kj_is_index_array_subscript(ic->sp, t)) {
        /* a[idx] op= v: a[idx] = a[idx] op v, computed in a's dtype */
        const kj_type *opt = NULL;
        const kj_type *r = kj_binop_type(ic, st->aug.op, cur, v, st->span, &opt);
        ic->sp->ei[st->aug.value->id].optype = opt;
        if (r) kj_check_literal_fits(ic, st->aug.value, opt);
        if (r) kj_check_index_aug(ic, st->aug.op, cur, r, st->span);
        return;
    }
    if (cur->kind == KJ_T_ARRAY) {
        infer_aug_array(ic, st, cur, v);
        return;
    }
    const kj_type *opt = NULL;
    const kj_type *r = kj_binop_type(ic, st->aug.op, cur, v, st->span, &opt);
    /* Keep the operation's type where lowering finds it: on the target's id
     * slot we must keep the target's own type, so use the value's slot. */
    ic->sp->ei[st->aug.value->id].optype = opt;
    if (!r) return;
    kj_check_literal_fits(ic, st->aug.value, opt); /* as for x + 300 */
    if (t->kind == KJ_E_NAME) {
        bool nn = false;
        kj_einfo *tv = &ic->sp->ei[t->id], *vv = &ic->sp->ei[st->aug.value->id];
        if (st->aug.op == KJ_OP_ADD || st->aug.op == KJ_OP_MUL) nn = tv->nonneg && vv->nonneg;
        assign_var(ic, t, r, nn);
    } else if (kj_record_store_check(ic, t, r)) { /* r.x += v, r['x'] += v: infer_record.c */
    } else if (!kj_is_scalar(r)) {
        kj_error(ic->d, ic->s->src, st->span, "cannot store %s into an array element",
                 kj_type_str(r));
    }
}

static void infer_stmt(kj_ictx *ic, const kj_stmt *st)
{
    switch (st->kind) {
    case KJ_S_EXPR: {
        kj_einfo *ei = kj_type_expr(ic, st->expr);
        if (ei->kind == EI_LAUNCH) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, st->expr->span,
                                   "a launch configuration without a call launches nothing");
            kj_diag_hint(dg, "pass the kernel's arguments: %s[blocks, threads](...)",
                         ei->fn->def->name);
        }
        break;
    }
    case KJ_S_ASSIGN: {
        if (kj_is_static_assign(ic->sp->fn, st)) break; /* k = cuda.jit(f): resolved already */
        kj_einfo *v = kj_type_expr(ic, st->assign.value);
        const kj_type *t = v->kind == EI_VALUE ? v->type : NULL;
        if (st->assign.ntargets == 1 && st->assign.targets[0]->kind == KJ_E_NAME && t)
            t = kj_ei_raw(v); /* x = an Optional: x holds it (infer_optional.c) */
        if (v->kind == EI_DTYPE) t = kj_t_dtype(ic->s->types, v->dtype); /* dt = np.int32 */
        else if (kj_func_value_type(ic, v)) t = kj_func_value_type(ic, v); /* g = add */
        else if (v->kind != EI_VALUE && v->kind != EI_NONE) t = kj_value_type(ic, st->assign.value);
        bool nonneg = v->nonneg;
        for (uint32_t i = 0; i < st->assign.ntargets; i++)
            assign_target(ic, st->assign.targets[i], t, nonneg);
        break;
    }
    case KJ_S_AUGASSIGN: infer_augassign(ic, st); break;
    case KJ_S_IF: {
        kj_cond_type(ic, st->if_.cond);
        /* A constant condition (`b is None` of a None default, a module flag): only the taken
         * branch is typed, as lowering compiles only it (Numba's dead branch pruning). */
        const kj_einfo *ci = &ic->sp->ei[st->if_.cond->id];
        bool known = ci->is_const && ci->cval.type && kj_is_scalar(ci->cval.type) &&
                     !rebound_param_test(ic, st->if_.cond);
        bool taken = known && (ci->cval.type->kind == KJ_T_FLOAT ? ci->cval.f != 0 : ci->cval.i != 0);
        if (!known || taken) infer_block(ic, &st->if_.then);
        if (!known || !taken) infer_block(ic, &st->if_.els);
        break;
    }
    case KJ_S_WITH: {
        const kj_type *bound = kj_type_with(ic, st);
        if (st->with.target && bound) assign_target(ic, st->with.target, bound, false);
        infer_block(ic, &st->with.body);
        break;
    }
    case KJ_S_WHILE:
        kj_cond_type(ic, st->while_.cond);
        ic->loops++;
        infer_block(ic, &st->while_.body);
        ic->loops--;
        break;
    case KJ_S_FOR: infer_for(ic, st); break;
    case KJ_S_YIELD: kj_infer_yield(ic, st); break;
    case KJ_S_BREAK: case KJ_S_CONTINUE:
        if (ic->loops && ic->try_loops == ic->loops)
            kj_error(ic->d, ic->s->src, st->span, "'%s' out of a 'try' statement is not supported",
                     st->kind == KJ_S_BREAK ? "break" : "continue");
        if (!ic->loops)
            kj_error(ic->d, ic->s->src, st->span, "'%s' outside loop",
                     st->kind == KJ_S_BREAK ? "break" : "continue");
        break;
    case KJ_S_RETURN:
        if (ic->try_finally)
            kj_error(ic->d, ic->s->src, st->span, "'return' inside a 'try' statement with 'finally' is not supported");
        infer_return(ic, st);
        break;
    case KJ_S_TRY: {
        uint32_t loops = ic->try_loops;
        bool fin = ic->try_finally;
        ic->try_finally = fin || kj_check_try(ic, st);
        ic->try_loops = ic->loops;
        infer_block(ic, &st->try_.body);
        infer_block(ic, &st->try_.clauses);
        ic->try_loops = loops, ic->try_finally = fin;
        break;
    }
    case KJ_S_EXCEPT: {
        kj_check_except(ic, st);
        const kj_exc_scope *up = ic->exc;
        kj_exc_scope here = {st->except.name, up};
        if (st->except.target && kj_host_code(ic->sp)) { /* the exception as its str() (raise.c) */
            assign_target(ic, st->except.target, kj_t_opaque(ic->s->types, "exception"), false);
            ic->exc = &here;
        }
        ic->handlers += st->except.clause == KJ_EXCEPT_HANDLER;
        infer_block(ic, &st->except.body);
        ic->handlers -= st->except.clause == KJ_EXCEPT_HANDLER;
        ic->exc = up;
        break;
    }
    case KJ_S_PASS: break;
    case KJ_S_ASSERT:
        kj_cond_type(ic, st->assert_.cond);
        if (st->assert_.msg && st->assert_.msg->kind != KJ_E_STR)
            kj_error(ic->d, ic->s->src, st->assert_.msg->span,
                     "an assert message must be a string literal");
        break;
    case KJ_S_RAISE: {
        if (kj_check_raise_obj(ic, st)) break; /* bare, `raise e`: infer_exc.c */
        int kind;
        const char *msg;
        kj_raise_eval(ic->s, ic->d, ic->sp, st->raise.exc, &kind, &msg);
        const kj_expr *dyn = kj_raise_dynamic(ic->s, ic->sp, st->raise.exc);
        const kj_type *t = dyn ? kj_type_expr(ic, dyn)->type : NULL;
        if (t && t->kind != KJ_T_STR && (!kj_is_scalar(t) || kj_is_complex(t)))
            kj_error(ic->d, ic->s->src, dyn->span, "an exception's argument must be a string or a number, not %s",
                     kj_type_str(t));
        break;
    }
    case KJ_S_DEF:
        kj_error(ic->d, ic->s->src, st->span, "nested functions are not supported");
        break;
    case KJ_S_IMPORT: case KJ_S_FROM_IMPORT:
        kj_error(ic->d, ic->s->src, st->span, "imports must be at module level");
        break;
    case KJ_S_GLOBAL: kj_check_global(ic, st); break; /* infer_global.c */
    case KJ_S__COUNT: break;
    }
}

/* Does a block end every path with a return? */
static bool block_returns(const kj_block *b)
{
    if (!b->n) return false;
    const kj_stmt *last = b->v[b->n - 1];
    if (last->kind == KJ_S_RETURN || last->kind == KJ_S_RAISE) return true;
    if (last->kind == KJ_S_IF) return block_returns(&last->if_.then) && block_returns(&last->if_.els);
    if (last->kind == KJ_S_TRY) { /* the body (or else clause) and every handler return */
        bool body = block_returns(&last->try_.body);
        for (uint32_t k = 0; k < last->try_.clauses.n; k++) {
            const kj_stmt *c = last->try_.clauses.v[k];
            if (c->except.clause == KJ_EXCEPT_ELSE) body = body || block_returns(&c->except.body);
            else if (c->except.clause == KJ_EXCEPT_HANDLER && !block_returns(&c->except.body)) return false;
        }
        return body;
    }
    return false;
}

bool kj_if_returns_pruned(const kj_stmt *st, const kj_einfo *ci)
{
    if (st->kind != KJ_S_IF || !ci->is_const || !ci->cval.type || !kj_is_scalar(ci->cval.type)) return false;
    bool taken = ci->cval.type->kind == KJ_T_FLOAT ? ci->cval.f != 0 : ci->cval.i != 0;
    return block_returns(taken ? &st->if_.then : &st->if_.els);
}

static void infer_block(kj_ictx *ic, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        infer_stmt(ic, b->v[i]);
        if (b->v[i]->kind == KJ_S_IF && kj_if_returns_pruned(b->v[i], &ic->sp->ei[b->v[i]->if_.cond->id])) break;
    }
}

static void walk(kj_sema *s, kj_spec *sp, kj_ictx *ic)
{
    ic->changed = false;
    ic->loops = 0;
    kj_ulog_reset(sp);
    infer_block(ic, &sp->fn->def->body);
    const kj_type *none = kj_t_none(s->types), *opt = NULL;
    if (!sp->generator && !sp->sig && sp->ret && sp->ret->kind != KJ_T_NONE && !block_returns(&sp->fn->def->body) &&
        (opt = kj_unify_opt(s->types, sp->ret, none)) && opt != sp->ret) {
        sp->ret = opt; /* falling off the end returns None: Optional, as in Numba (codegen's end returns zero: None) */
        ic->changed = true;
    }
    if (sp->generator) kj_check_generator(ic);
    else if (ic->report && sp->ret && sp->ret->kind != KJ_T_NONE && !opt && !block_returns(&sp->fn->def->body))
        kj_error(ic->d, s->src, sp->fn->def->span,
                 "'%s' returns %s on some paths but falls off the end on others",
                 sp->fn->def->name, kj_type_str(sp->ret));
}

/* The quiet fixpoint: walk until types settle. */
bool kj_infer_spec(kj_sema *s, kj_spec *sp)
{
    if (sp->state != SPEC_NEW) return sp->state != SPEC_FAILED;
    if (++s->depth > MAX_DEPTH) {
        kj_error(s->d, s->src, sp->called_at,
                 "too many nested specialisations (recursion with ever-changing argument types?)");
        sp->state = SPEC_FAILED;
        s->depth--;
        return false;
    }
    sp->state = SPEC_INFERRING;
    kj_diags scratch = {0};
    kj_ictx ic = {.s = s, .sp = sp, .d = &scratch};
    uint32_t n = 0;
    do {
        walk(s, sp, &ic);
        kj_diags_free(&scratch);
    } while (ic.changed && ++n < MAX_WALKS);
    sp->state = SPEC_DONE;
    s->depth--;
    return true;
}

/* ---- reachability and reporting ---- */

void kj_mark_reachable(kj_sema *s, kj_spec *callee)
{
    (void)s;
    callee->reachable = true;
}

static kj_spec *root_spec(kj_sema *s, kj_fn *fn, const kj_type *const *args, uint32_t n)
{
    bool device = fn->kind != FK_MAIN && fn->kind != FK_HELPER && fn->kind != FK_JIT;
    kj_spec *sp = kj_spec_get(s, fn, args, n, device, fn->def->span);
    sp->reachable = true;
    kj_infer_spec(s, sp);
    return sp;
}

/* main's parameters take the types of their defaults. */
static void main_root(kj_sema *s)
{
    kj_fn *fn = s->main;
    uint32_t n = fn->def->nparams;
    const kj_type **args = KJ_NEWN(s->a, const kj_type *, n + 1);
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        const kj_param *p = &fn->def->params[i];
        kj_cval cv;
        if (!p->def) {
            kj_diag *dg = kj_error(s->d, s->src, p->span, "main's parameter '%s' needs a default value",
                                   p->name);
            kj_diag_hint(dg, "kjit run FILE.k %s=VALUE overrides the default", p->name);
            ok = false;
        } else if (!kj_const_eval(s, p->def, &cv) ||
                   !(kj_is_scalar(cv.type) || cv.type->kind == KJ_T_STR)) {
            kj_error(s->d, s->src, p->def->span,
                     "main's defaults must be int, float, bool or string constants");
            ok = false;
        } else {
            args[i] = cv.type; /* a Python int/float default stays a weak literal type */
        }
    }
    if (ok) root_spec(s, fn, args, n);
}

/* The reporting walk of one specialisation (once). Returns the number of
 * errors it reported. */
uint32_t kj_report_spec(kj_sema *s, kj_spec *sp)
{
    if (sp->reported) return 0;
    if (sp->state == SPEC_NEW) kj_infer_spec(s, sp);
    sp->reported = true;
    sp->reachable = true;
    uint32_t before = s->d->nerrors;
    kj_ictx ic = {.s = s, .sp = sp, .d = s->d, .report = true};
    walk(s, sp, &ic);
    return s->d->nerrors - before;
}

bool kj_infer_all(kj_sema *s)
{
    /* Roots: every explicit signature (compiled eagerly, as Numba does) and main. */
    for (uint32_t i = 0; i < s->fns.n; i++) {
        kj_fn *fn = s->fns.v[i];
        if (fn->bad) continue;
        for (uint32_t k = 0; k < fn->nsigs; k++)
            root_spec(s, fn, fn->sigs[k].params, fn->sigs[k].nparams);
    }
    if (s->main) main_root(s);
    kj_report_reachable(s);
    kj_check_unreached(s);
    return !kj_has_errors(s->d);
}

void kj_report_reachable(kj_sema *s)
{
    /* A reporting walk may reach more specialisations: repeat until none. */
    bool more = true;
    while (more) {
        more = false;
        for (uint32_t i = 0; i < s->specs.n; i++) {
            kj_spec *sp = s->specs.v[i];
            if (!sp->reachable || sp->reported) continue;
            kj_report_spec(s, sp);
            more = true;
        }
    }
}
