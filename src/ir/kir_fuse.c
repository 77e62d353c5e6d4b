/* SPDX-License-Identifier: BSD-2-Clause */
/* Fusion of host array expressions into synthesised ufuncs (kir_fuse.h).
 *
 * Per block, from its last instruction back: an elementwise array
 * instruction not yet taken into a tree is the root of a new one. An
 * operand joins the tree when it is itself elementwise, has no other use,
 * lives in the same block, and nothing between it and the root may write
 * memory, print or raise (a barrier): its reads then happen later without
 * anyone noticing. Every other operand is a leaf, passed to the ufunc: the
 * arrays and scalars by reference (one parameter per distinct value), the
 * constants copied into the ufunc's body. Operators whose scalar meaning
 * differs from NumPy's elementwise meaning (integer // and %, shifts, the
 * rounding functions, which give int64 on scalars) are never fused: they
 * stay leaves and run in the runtime as before. */
#include "kir_fuse.h"

#include "builtins.h"

#include <string.h>

/* Inputs of one ufunc call: llvm_ufunc.c takes at most 16 operands, one of
 * them the output. */
enum { MAX_LEAVES = 15 };

typedef struct fctx {
    kj_arena *a;
    kj_types *t;
    kir_module *m;
    kir_func *f;
    uint32_t *uses;    /* per ref: how many operand slots name it */
    kir_blkid *blk;    /* per ref: its block */
    uint32_t *pos;     /* per ref: its index in the block */
    uint32_t *lastbar; /* per ref: 1 + the index of the last barrier before it in its block, 0 if none */
    bool *taken;       /* per ref: part of a tree (root or inner) */
    kir_ref *alias;    /* per ref: the leaf that passes the same value, or 0 */
    bool *inplace;     /* per ref: the value of an in-place operator's store (a += b) */
    bool all;          /* fuse every tree, else only what has no other implementation */
    uint32_t nfused;
} fctx;

typedef struct tree {
    kir_ref root;
    kir_ref leaf[MAX_LEAVES];
    uint32_t nleaves, open;
} tree;

static const kj_type *elem_of(const kj_type *t) { return t->kind == KJ_T_ARRAY ? t->elem : t; }
static bool is_bool(const kj_type *t) { return t->kind == KJ_T_BOOL; }
static bool is_numeric(const kj_type *t) { return t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT; }
static bool is_complex_array(const kj_type *t) { return t && t->kind == KJ_T_ARRAY && t->elem->kind == KJ_T_COMPLEX; }

/* ---- which instructions fuse ---- */

/* The type a comparison compares in: a scalar operand already has it; two
 * arrays compare in their promoted type. NULL when the runtime's loops
 * would differ (int64 against uint64: NumPy compares those exactly). */
static const kj_type *cmp_type(fctx *c, const kir_inst *in)
{
    const kj_type *x = c->f->insts[in->a].type, *y = c->f->insts[in->b].type;
    if (x->kind != KJ_T_ARRAY) return x;
    if (y->kind != KJ_T_ARRAY) return y;
    const kj_type *ex = x->elem, *ey = y->elem;
    if (ex == ey) return ex;
    if (ex->kind == KJ_T_INT && ey->kind == KJ_T_INT && ex->is_signed != ey->is_signed &&
        (ex->bits == 64 || ey->bits == 64))
        return NULL;
    return kj_promote(c->t, ex, ey);
}

/* The operands of an elementwise array instruction (its count), or 0 when
 * r does not fuse. */
static uint32_t operands(fctx *c, kir_ref r, kir_ref *ops)
{
    const kir_inst *in = &c->f->insts[r];
    if (!in->type || in->type->kind != KJ_T_ARRAY || in->type->ndim < 1) return 0;
    const kj_type *e = in->type->elem;
    ops[0] = in->a, ops[1] = in->b;
    switch ((kir_op)in->op) {
    case KIR_ADD: case KIR_SUB: case KIR_MUL: return is_numeric(e) || e->kind == KJ_T_COMPLEX ? 2 : 0;
    case KIR_DIV: case KIR_POW: return e->kind == KJ_T_FLOAT || e->kind == KJ_T_COMPLEX ? 2 : 0;
    case KIR_AND: case KIR_OR: case KIR_XOR: return is_numeric(e) && e->kind != KJ_T_FLOAT ? 2 : is_bool(e) ? 2 : 0;
    case KIR_EQ: case KIR_NE: case KIR_LT: case KIR_LE: case KIR_GT: case KIR_GE:
        return cmp_type(c, in) ? 2 : 0;
    case KIR_NEG: return is_numeric(e) || e->kind == KJ_T_COMPLEX ? 1 : 0;
    case KIR_NOT: return is_bool(e) ? 1 : 0;
    case KIR_INVERT: return e->kind == KJ_T_INT || is_bool(e) ? 1 : 0;
    case KIR_BUILTIN: break;
    default: return 0;
    }
    kj_builtin b = (kj_builtin)in->aux;
    const kj_builtin_info *bi = kj_builtin_get(b);
    uint32_t n = 1;
    for (const char *p = bi && bi->params ? bi->params : ""; *p; p++) n += *p == ',';
    if (in->nargs != n || n > 3) return 0;
    for (uint32_t k = 0; k < n; k++)
        if (!in->args[k]) return 0;
    for (uint32_t k = 0; k < n; k++) ops[k] = in->args[k];
    bool ok = false;
    if (kj_builtin_has(b, KJ_BF_FMATH)) ok = e->kind == KJ_T_FLOAT || e->kind == KJ_T_COMPLEX; /* in their result type */
    else if (b == KJ_B_ABS && kj_is_complex(elem_of(c->f->insts[in->args[0]].type))) ok = true;
    else if (b == KJ_B_ABS || b == KJ_B_NP_MINIMUM || b == KJ_B_NP_MAXIMUM) ok = is_numeric(e);
    else if (b == KJ_B_NP_WHERE || b == KJ_B_NP_CLIP || kj_builtin_npmath(b)) ok = true;
    else if (b == KJ_B_NP_CONJ || b == KJ_B_NP_ANGLE) ok = true; /* np.conj of a real array: a copy */
    else if (b == KJ_B_ISNAN || b == KJ_B_ISINF || b == KJ_B_ISFINITE)
        ok = elem_of(c->f->insts[ops[0]].type)->kind == KJ_T_FLOAT || kj_is_complex(elem_of(c->f->insts[ops[0]].type));
    return ok ? n : 0;
}

/* May `in` write memory, print, raise or call code that does? Elementwise
 * array operators may raise too (shapes that do not broadcast), but a
 * fused tree raises the same error for the same shapes. */
static bool barrier(fctx *c, kir_ref r)
{
    kir_ref ops[3];
    switch ((kir_op)c->f->insts[r].op) {
    case KIR_ARRAY_STORE: case KIR_CALL: case KIR_LAUNCH: case KIR_UFUNC_CALL: case KIR_ASSERT:
    case KIR_RETURN: case KIR_BREAK: case KIR_CONTINUE: case KIR_IF: case KIR_LOOP: case KIR_FOR:
    case KIR_PFOR: case KIR_BOUNDS_CHECK: case KIR_TRY: case KIR_TRY_END: case KIR_EXC_MATCH: case KIR_RERAISE:
    case KIR_EXC_VALUE:
        return true;
    case KIR_BUILTIN: return operands(c, r, ops) == 0;
    case KIR_UFUNC_REDUCE: return c->f->insts[r].aux & KIR_REDUCE_AT; /* f.at writes its array */
    default: return false;
    }
}

/* ---- analysis ---- */

static void note_use(fctx *c, kir_ref r)
{
    if (r) c->uses[r]++;
}

static void scan_block(fctx *c, kir_blkid b)
{
    const kir_block *blk = &c->f->blocks[b];
    uint32_t bar = 0;
    for (uint32_t k = 0; k < blk->n; k++) {
        kir_ref r = blk->v[k];
        const kir_inst *in = &c->f->insts[r];
        c->blk[r] = b, c->pos[r] = k, c->lastbar[r] = bar;
        note_use(c, in->a), note_use(c, in->b), note_use(c, in->c);
        for (uint32_t j = 0; j < in->nargs; j++) note_use(c, in->args[j]);
        if (barrier(c, r)) bar = k + 1;
        if (in->op == KIR_ARRAY_STORE && in->aux == KIR_AUX_INPLACE && in->b) c->inplace[in->b] = true;
    }
}

/* ---- trees ---- */

static bool is_const(const kir_inst *in)
{
    return (in->op == KIR_CONST_INT || in->op == KIR_CONST_FLOAT) && in->type->kind != KJ_T_ARRAY;
}

/* Do x and y read the same variable with the same value (no assignment of
 * it between them)? Then the tree passes it once. */
static bool same_local(fctx *c, kir_ref x, kir_ref y)
{
    const kir_inst *ix = &c->f->insts[x], *iy = &c->f->insts[y];
    if (ix->op != KIR_LOCAL_GET || iy->op != KIR_LOCAL_GET || ix->i != iy->i || c->blk[x] != c->blk[y])
        return false;
    const kir_block *blk = &c->f->blocks[c->blk[x]];
    uint32_t lo = c->pos[x] < c->pos[y] ? c->pos[x] : c->pos[y], hi = c->pos[x] ^ c->pos[y] ^ lo;
    for (uint32_t k = lo + 1; k < hi; k++) {
        const kir_inst *in = &c->f->insts[blk->v[k]];
        if (in->op == KIR_LOCAL_SET && in->i == ix->i) return false;
    }
    return true;
}

static void add_leaf(fctx *c, tree *t, kir_ref x)
{
    for (uint32_t k = 0; k < t->nleaves; k++)
        if (t->leaf[k] == x || same_local(c, t->leaf[k], x)) {
            c->alias[x] = t->leaf[k];
            return;
        }
    t->leaf[t->nleaves++] = x;
}

/* Resolve the operand slots of node r: constants are copied, operands
 * that may join become inner nodes (recursively), the rest leaves. `open`
 * counts the slots still unresolved, each of which may need a leaf, so the
 * tree never needs more than MAX_LEAVES. */
static void grow(fctx *c, tree *t, kir_ref r)
{
    kir_ref ops[3];
    uint32_t n = operands(c, r, ops);
    for (uint32_t k = 0; k < n; k++) {
        kir_ref x = ops[k], xo[3];
        t->open--;
        if (is_const(&c->f->insts[x])) continue;
        uint32_t nx = c->taken[x] ? 0 : operands(c, x, xo);
        bool join = c->all && nx && c->uses[x] == 1 && c->blk[x] == c->blk[t->root] && c->pos[x] < c->pos[t->root] &&
                    c->lastbar[t->root] <= c->pos[x] && t->nleaves + t->open + nx <= MAX_LEAVES;
        if (!join) {
            add_leaf(c, t, x);
            continue;
        }
        c->taken[x] = true;
        t->open += nx;
        grow(c, t, x);
    }
}

/* ---- the synthesised ufunc ---- */

typedef struct synth {
    fctx *c;
    const tree *t;
    kir_func *g;
    kir_ref *param; /* per leaf */
    kj_buf tree;    /* the postfix form for kir_func.fuse_tree */
} synth;

static kir_ref emit(synth *s, kir_op op, const kj_type *ty, kj_span sp)
{
    return kir_emit(s->c->a, s->g, 0, op, ty, sp);
}

static kir_ref convert(synth *s, kir_ref v, const kj_type *to, kj_span sp)
{
    if (kir_at(s->g, v)->type == to) return v;
    kir_ref r = emit(s, KIR_CAST, to, sp);
    kir_at(s->g, r)->a = v;
    return r;
}

static kir_ref value(synth *s, kir_ref x);

static kir_ref select(synth *s, const kj_type *t, kir_ref cond, kir_ref x, kir_ref y, kj_span sp)
{
    kir_ref r = emit(s, KIR_SELECT, t, sp);
    kir_inst *in = kir_at(s->g, r);
    in->a = cond, in->b = x, in->c = y;
    return r;
}

static kir_ref compare(synth *s, kir_op op, kir_ref x, kir_ref y, kj_span sp)
{
    kir_ref r = emit(s, op, kj_t_bool(s->c->t), sp);
    kir_at(s->g, r)->a = x, kir_at(s->g, r)->b = y;
    return r;
}

/* np.clip as NumPy's loop (clip.cpp): t = a > lo ? a : lo, then
 * t < hi ? t : hi, a NaN left operand kept at each step. */
static kir_ref clip(synth *s, const kj_type *t, const kir_ref *v, kj_span sp)
{
    kir_ref x = v[0];
    for (int k = 1; k <= 2; k++) {
        kir_ref keep = compare(s, k == 1 ? KIR_GT : KIR_LT, x, v[k], sp);
        if (t->kind == KJ_T_FLOAT) {
            kir_ref nan = compare(s, KIR_NE, x, x, sp), r = emit(s, KIR_OR, kj_t_bool(s->c->t), sp);
            kir_at(s->g, r)->a = nan, kir_at(s->g, r)->b = keep;
            keep = r;
        }
        x = select(s, t, keep, x, v[k], sp);
    }
    return x;
}

/* Node r of the tree as scalar code in g. */
static kir_ref node(synth *s, kir_ref r)
{
    fctx *c = s->c;
    const kir_inst *in = &c->f->insts[r];
    kir_ref ops[3], v[3] = {0};
    uint32_t n = operands(c, r, ops);
    const kj_type *e = in->type->elem, *opt = e;
    if (in->op >= KIR_EQ && in->op <= KIR_GE) opt = cmp_type(c, in);
    bool pred = in->op == KIR_BUILTIN && (in->aux == KJ_B_ISNAN || in->aux == KJ_B_ISINF || in->aux == KJ_B_ISFINITE ||
                                          kj_builtin_npmath(in->aux)); /* these convert their operands */
    if (in->op == KIR_BUILTIN && n && kj_is_complex(elem_of(c->f->insts[ops[0]].type)) && !kj_is_complex(e))
        pred = true; /* np.abs/np.angle of a complex array: a real result of a complex operand */
    bool where = in->op == KIR_BUILTIN && in->aux == KJ_B_NP_WHERE;
    for (uint32_t k = 0; k < n; k++) {
        v[k] = value(s, ops[k]);
        if (!pred) v[k] = convert(s, v[k], where && k == 0 ? kj_t_bool(c->t) : opt, in->span);
    }
    kj_buf_printf(&s->tree, "%u%u:%u;", n, in->span.line, in->span.col);
    if (where) return select(s, e, v[0], v[1], v[2], in->span);
    if (in->op == KIR_BUILTIN && in->aux == KJ_B_NP_CLIP) return clip(s, e, v, in->span);
    kir_ref y = emit(s, (kir_op)in->op, e, in->span);
    kir_inst *out = kir_at(s->g, y);
    if (in->op != KIR_BUILTIN) {
        out->a = v[0], out->b = n > 1 ? v[1] : 0;
        const kir_inst *x = &c->f->insts[ops[1]];
        if (x->op == KIR_CAST && x->type->kind != KJ_T_ARRAY) x = &c->f->insts[x->a]; /* the scalar as written */
        if (in->op == KIR_POW && kj_is_complex(e) && !kj_is_complex(x->type) && x->type->kind != KJ_T_ARRAY)
            out->aux = 1; /* complex array ** real scalar: NumPy's fast_scalar_power (llvm_cpxufunc.c) */
        return y;
    }
    out->aux = in->aux;
    out->args = kir_refs(c->a, v, n);
    out->nargs = n;
    return y;
}

/* Operand x: a parameter, a copied constant or an inner node. */
static kir_ref value(synth *s, kir_ref x)
{
    const kir_inst *in = &s->c->f->insts[x];
    if (s->c->alias[x]) x = s->c->alias[x];
    for (uint32_t k = 0; k < s->t->nleaves; k++)
        if (s->t->leaf[k] == x) {
            kj_buf_putc(&s->tree, (char)('a' + k));
            return s->param[k];
        }
    if (is_const(in)) {
        kj_buf_putc(&s->tree, '.');
        kir_ref r = emit(s, (kir_op)in->op, in->type, in->span);
        kir_inst *o = kir_at(s->g, r);
        if (in->op == KIR_CONST_INT) o->i = in->i;
        else o->f = in->f;
        return r;
    }
    return node(s, x);
}

static kir_func *synthesise(fctx *c, const tree *t)
{
    const kir_inst *root = &c->f->insts[t->root];
    uint32_t id = c->nfused++;
    kir_func *g = kir_func_new(c->a, c->m, kj_arena_printf(c->a, "%s.expr%u", c->f->name, id),
                               kj_arena_printf(c->a, "%s.expr%u", c->f->mangled, id), KIR_FN_UFUNC);
    g->span = root->span;
    g->nparams = t->nleaves;
    g->params = KJ_NEWN(c->a, const kj_type *, t->nleaves + 1);
    g->param_names = KJ_NEWN(c->a, const char *, t->nleaves + 1);
    g->ret = root->type->elem;
    synth s = {c, t, g, KJ_NEWN(c->a, kir_ref, t->nleaves + 1), {0}};
    kj_buf_putc(&s.tree, '!');
    for (uint32_t k = 0; k < t->nleaves; k++) {
        g->params[k] = kj_strong(c->t, elem_of(c->f->insts[t->leaf[k]].type));
        g->param_names[k] = kj_arena_printf(c->a, "x%u", k);
        s.param[k] = emit(&s, KIR_PARAM, g->params[k], root->span);
        kir_at(g, s.param[k])->i = k;
    }
    kir_ref r = node(&s, t->root);
    kir_ref ret = emit(&s, KIR_RETURN, kj_t_none(c->t), root->span);
    kir_at(g, ret)->a = r;
    g->fuse_tree = kj_arena_strdup(c->a, s.tree.s);
    kj_buf_free(&s.tree);
    return g;
}

/* Replace the root by the call; the inner nodes leave their block. */
static void rewrite(fctx *c, const tree *t, kir_func *g)
{
    kir_inst *in = &c->f->insts[t->root];
    in->op = KIR_UFUNC_CALL;
    in->aux = 0;
    in->a = in->b = in->c = 0;
    in->fn = g;
    in->args = kir_refs(c->a, t->leaf, t->nleaves);
    in->nargs = t->nleaves;
}

static void drop_taken(fctx *c, kir_blkid b)
{
    kir_block *blk = &c->f->blocks[b];
    uint32_t n = 0;
    for (uint32_t k = 0; k < blk->n; k++) {
        kir_ref r = blk->v[k];
        if (c->taken[r] && c->f->insts[r].op != KIR_UFUNC_CALL) {
            c->f->insts[r] = (kir_inst){.op = KIR_NOP, .type = kj_t_none(c->t), .span = c->f->insts[r].span};
            continue;
        }
        blk->v[n++] = r;
    }
    blk->n = n;
}

/* np.where and np.clip on arrays, and complex array arithmetic (+ - *,
 * which the runtime's loops lack), exist only as fused loops. */
static bool fused_only(const fctx *c, const kir_inst *in)
{
    if (in->a && is_complex_array(c->f->insts[in->a].type)) return true; /* a == b of complex arrays */
    if (in->b && is_complex_array(c->f->insts[in->b].type)) return true;
    for (uint32_t k = 0; k < in->nargs; k++) /* np.abs(z), np.exp(z) of a complex array */
        if (in->args[k] && is_complex_array(c->f->insts[in->args[k]].type)) return true;
    if (in->op != KIR_BUILTIN) return is_complex_array(in->type);
    /* NumPy math ufuncs (builtins_npmath.h) run on arrays only as fused loops */
    return in->aux == KJ_B_NP_WHERE || in->aux == KJ_B_NP_CLIP || kj_builtin_npmath(in->aux) ||
           (in->aux == KJ_B_NP_CONJ && !is_complex_array(in->type));
}

/* May the loop convert its result as the store into the view would? Any
 * scalar conversion: a scalar CAST converts as the runtime's array casts do
 * (llvm_expr.c kj_cg_cast: float to int as x86-64 truncates, NaN is true).
 * An in-place operator asks only NumPy's 'same_kind' ones (float32 +=
 * float64 computes in float64 and rounds once; int8 += int64 wraps). */
static bool store_cast(const kj_type *to, const kj_type *from)
{
    return to == from || (kj_is_scalar(to) && kj_is_scalar(from));
}

/* The synthesised loop `g` returns its value converted to `to`: a CAST
 * before its RETURN (the last instruction of its one block). */
static void cast_result(fctx *c, kir_func *g, const kj_type *to)
{
    kir_block *b = &g->blocks[0];
    kir_ref ret = b->v[b->n - 1];
    kir_ref r = kir_emit(c->a, g, 0, KIR_CAST, to, kir_at(g, ret)->span);
    kir_at(g, r)->a = kir_at(g, ret)->a;
    kir_at(g, ret)->a = r;
    b->v[b->n - 2] = r, b->v[b->n - 1] = ret; /* the cast was appended after the return */
    g->ret = to;
}

/* `view[...] = tree` (a whole-view store of a fused tree's result, nothing
 * that writes memory between them): the tree writes into the view as its
 * out= operand instead of a temporary that the store then copies. The
 * call takes the store's place, so the view exists when it runs; the
 * leaves' reads move with it, past nothing that could change them. The
 * runtime keeps the assignment's meaning (fuse_tree '=': rt_ufunc.c): the
 * store's broadcast rule and message, and inputs that overlap the view
 * read from a copy, as if the right side were complete before the store.
 * An in-place operator's store (`a += b`, '+') is NumPy's add(a, b, out=a)
 * instead: the view takes part in the broadcast, with the ufunc's messages. */
static void fuse_assign(fctx *c, kir_ref s)
{
    kir_inst *st = &c->f->insts[s];
    if (st->op != KIR_ARRAY_STORE || st->nargs || !st->b || (!c->all && st->aux != KIR_AUX_INPLACE)) return;
    kir_ref r = st->b;
    kir_inst *in = &c->f->insts[r];
    if (in->op != KIR_UFUNC_CALL || !in->fn || !in->fn->fuse_tree || in->aux || c->uses[r] != 1) return;
    const kj_type *vt = c->f->insts[st->a].type;
    if (vt->kind != KJ_T_ARRAY || in->type->kind != KJ_T_ARRAY || !store_cast(vt->elem, in->type->elem) ||
        vt->ndim < in->type->ndim || c->blk[r] != c->blk[s] || c->lastbar[s] > c->pos[r])
        return;
    if (vt->elem != in->type->elem) cast_result(c, in->fn, kj_strong(c->t, vt->elem));
    kir_ref *args = KJ_NEWN(c->a, kir_ref, in->nargs + 1);
    memcpy(args, in->args, in->nargs * sizeof *args);
    args[in->nargs] = st->a;
    char *tree = kj_arena_strdup(c->a, in->fn->fuse_tree);
    tree[0] = st->aux == KIR_AUX_INPLACE ? '+' : '=';
    in->fn->fuse_tree = tree;
    kj_span at = st->span; /* errors of the assignment point at its target, as before */
    *st = (kir_inst){.op = KIR_UFUNC_CALL, .type = vt, .span = at, .fn = in->fn, .args = args,
                     .nargs = in->nargs + 1, .aux = 1};
    *in = (kir_inst){.op = KIR_NOP, .type = kj_t_none(c->t), .span = in->span};
}

static void fuse_block(fctx *c, kir_blkid b)
{
    const kir_block *blk = &c->f->blocks[b];
    kir_ref ops[3];
    bool any = false;
    for (uint32_t k = blk->n; k-- > 0;) {
        kir_ref r = blk->v[k];
        uint32_t n = c->taken[r] ? 0 : operands(c, r, ops);
        /* without `all`, what exists only as a fused loop: np.where, np.clip,
         * and op(a, b, out=a) of an in-place operator */
        if (!n || (!c->all && !fused_only(c, &c->f->insts[r]) && !c->inplace[r])) continue;
        tree t = {.root = r, .open = n};
        c->taken[r] = true;
        grow(c, &t, r);
        rewrite(c, &t, synthesise(c, &t));
        any = true;
    }
    if (!any) return;
    for (uint32_t k = 0; k < blk->n; k++) fuse_assign(c, blk->v[k]);
    drop_taken(c, b);
}

static uint32_t fuse_func(kj_arena *a, kj_types *t, kir_module *m, kir_func *f, bool all)
{
    uint32_t n = f->ninsts + 1;
    fctx c = {a, t, m, f, KJ_NEWN(a, uint32_t, n), KJ_NEWN(a, kir_blkid, n), KJ_NEWN(a, uint32_t, n),
              KJ_NEWN(a, uint32_t, n), KJ_NEWN(a, bool, n), KJ_NEWN(a, kir_ref, n), KJ_NEWN(a, bool, n), all, 0};
    for (kir_blkid b = 0; b < f->nblocks; b++) scan_block(&c, b);
    for (kir_blkid b = 0; b < f->nblocks; b++) fuse_block(&c, b);
    return c.nfused;
}

uint32_t kir_fuse_module(kj_arena *a, kj_types *t, kir_module *m, bool all)
{
    return kir_fuse_from(a, t, m, 0, all);
}

uint32_t kir_fuse_from(kj_arena *a, kj_types *t, kir_module *m, uint32_t from, bool all)
{
    uint32_t total = 0, nfuncs = m->nfuncs; /* not the ufuncs this pass adds */
    for (uint32_t k = from; k < nfuncs; k++) {
        kir_func *f = m->funcs[k];
        if (f->kind == KIR_FN_MAIN || f->kind == KIR_FN_HOST) total += fuse_func(a, t, m, f, all);
    }
    return total;
}
