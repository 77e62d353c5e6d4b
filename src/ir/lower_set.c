/* SPDX-License-Identifier: BSD-2-Clause */
/* Lowering of set(iterable) and the set methods of builtins_set.h, over
 * the set built-ins llvm_dict.c already lowers (SET_NEW, SET_ADD,
 * SET_DISCARD, SET_REMOVE, the union/difference of kj_rt_set_op, a set's
 * keys as a list): KIR loops, no run-time functions of their own.
 * s.pop() removes the earliest inserted element still there (CPython's is
 * an arbitrary one, in its hash table's order). */
#include "lower_int.h"
#include "kir_build.h"

static kir_builder builder(lctx *lc, kj_span sp)
{
    return (kir_builder){.a = lc->s->a, .ty = lc->s->types, .f = lc->f, .cur = lc->cur, .sp = sp};
}

static const kj_type *tyof(lctx *lc, kir_ref r) { return lc->f->insts[r].type; }

/* for x in lst: SET_ADD or SET_DISCARD (b) of x into s */
static void each(lctx *lc, kir_builder *kb, int b, kir_ref s, kir_ref lst)
{
    const kj_type *et = tyof(lc, lst)->elem, *none = kj_t_none(kb->ty);
    if (!et) return; /* an empty list of unknown elements */
    kir_ref n = kb_builtin(kb, KJ_B_LEN, kb_i64(kb), &lst, 1);
    uint32_t i_l = kb_local(kb, kb_i64(kb));
    kir_blkid cur = kb->cur;
    kb->cur = kb_for(kb, i_l, kb_int(kb, 0), n);
    kir_ref x = kb_builtin(kb, KJ_B_LIST_GET, et, (kir_ref[]){lst, kb_get(kb, i_l)}, 2);
    kb_builtin(kb, b, none, (kir_ref[]){s, kb_cast(kb, x, tyof(lc, s)->elem)}, 2);
    kb->cur = cur;
}

static kir_ref keys(lctx *lc, kir_builder *kb, kir_ref s)
{
    lc->cur = kb->cur;
    kir_ref k = kj_lower_dict_keys(lc, s, kb->sp);
    kb->cur = lc->cur;
    return k;
}

/* s.pop(): KeyError 'pop from an empty set', else the first key, removed */
static kir_ref pop(lctx *lc, kir_builder *kb, kir_ref s)
{
    const kj_type *bt = kj_t_bool(kb->ty), *et = tyof(lc, s)->elem;
    kir_ref n = kb_builtin(kb, KJ_B_LEN, kb_i64(kb), &s, 1);
    kir_ref ok = kb_binop(kb, KIR_GT, bt, n, kb_int(kb, 0));
    kir_ref as = kb_emit(kb, KIR_ASSERT, kj_t_none(kb->ty));
    kir_inst *in = kir_at(lc->f, as);
    in->a = ok;
    in->s = "'pop from an empty set'";
    in->aux = (uint16_t)(KIR_ASSERT_RAISE + kj_exc_class("KeyError"));
    kir_ref x = kb_builtin(kb, KJ_B_LIST_GET, et, (kir_ref[]){keys(lc, kb, s), kb_int(kb, 0)}, 2);
    kb_builtin(kb, KJ_B_SET_REMOVE, kj_t_none(kb->ty), (kir_ref[]){s, x}, 2);
    return x;
}

static kir_ref method(lctx *lc, kir_builder *kb, int b, const kj_type *t, const kir_ref *args)
{
    kir_ref s = args[0], none = kb_emit(kb, KIR_CONST_NONE, kj_t_none(kb->ty));
    const kj_type *st = tyof(lc, s);
    switch (b) {
    case KJ_B_SET_CLEAR: each(lc, kb, KJ_B_SET_DISCARD, s, keys(lc, kb, s)); return none;
    case KJ_B_SET_UPDATE: each(lc, kb, KJ_B_SET_ADD, s, keys(lc, kb, args[1])); return none;
    case KJ_B_SET_POP: return pop(lc, kb, s);
    case KJ_B_SET_ISSUBSET:   /* len(s - o) == 0 */
    case KJ_B_SET_ISSUPERSET: /* len(o - s) == 0 */
    case KJ_B_SET_ISDISJOINT: { /* len(s & o) == 0 */
        kir_ref ab[2] = {args[b == KJ_B_SET_ISSUPERSET], args[b != KJ_B_SET_ISSUPERSET]};
        int op = b == KJ_B_SET_ISDISJOINT ? KJ_B_SET_INTERSECTION : KJ_B_SET_DIFFERENCE;
        kir_ref d = kb_builtin(kb, op, st, ab, 2);
        kir_ref n = kb_builtin(kb, KJ_B_LEN, kb_i64(kb), &d, 1);
        return kb_binop(kb, KIR_EQ, kj_t_bool(kb->ty), n, kb_int(kb, 0));
    }
    default: { /* symmetric_difference: (s - o) | (o - s) */
        kir_ref a = kb_builtin(kb, KJ_B_SET_DIFFERENCE, st, args, 2);
        kir_ref c = kb_builtin(kb, KJ_B_SET_DIFFERENCE, st, (kir_ref[]){args[1], s}, 2);
        return kb_builtin(kb, KJ_B_SET_UNION, t, (kir_ref[]){a, c}, 2);
    }
    }
}

kir_ref kj_lower_set_builtin(lctx *lc, int b, const kj_type *t, const kir_ref *args, kj_span sp)
{
    kir_builder kb = builder(lc, sp);
    kir_ref r;
    if (b == KJ_B_SET) { /* set(iterable): list(iterable)'s elements added to a new set */
        kir_ref lst = kj_lower_sorted(lc, KJ_B_LIST_OF, kj_t_list(kb.ty, t->elem), args, 1, sp);
        kb.cur = lc->cur;
        r = kb_builtin(&kb, KJ_B_SET_NEW, t, NULL, 0);
        each(lc, &kb, KJ_B_SET_ADD, r, lst);
    } else {
        r = method(lc, &kb, b, t, args);
    }
    lc->cur = kb.cur;
    return r;
}
