/* SPDX-License-Identifier: BSD-2-Clause */
/* Prange loops: which locals a KIR_PFOR body reads and writes, which of
 * them are reductions (`s += x`, `s *= x`, `s = s + x`, `s = x & s`,
 * `s = min(s, x)`, ...: every assignment of s in the body combines s with
 * another value by one operator, and s is read nowhere else in the body), which values of the
 * enclosing function the body uses, and the race check: a variable assigned
 * in the body and used after the loop that is not a reduction is an error
 * (Numba fails to compile it too). See kir_pfor.h. */
#include "kir_pfor.h"

#include "builtins.h"

#include <string.h>

typedef struct walk {
    const kir_func *f;
    kir_pfor_info *out;
    bool *inbody;
    uint32_t *ngets, *nmatched;
    bool *notred;  /* per local: some assignment is not a reduction, or it is a loop variable */
    kir_ref maxref;
} walk;

static kir_op red_class(kir_op op) { return op == KIR_SUB ? KIR_ADD : op; }

/* LOCAL_SET of local k to value v: a reduction step when v = OP(get k, x)
 * (or OP(x, get k) for a commutative OP). */
/* s = min(s, x) / max(s, x) (either order): KIR_PFOR_MIN / MAX, else 0. */
static uint16_t minmax(const kir_inst *e)
{
    if (e->op != KIR_BUILTIN || e->nargs != 2) return 0;
    return e->aux == KJ_B_MIN ? KIR_PFOR_MIN : e->aux == KJ_B_MAX ? KIR_PFOR_MAX : 0;
}

static void note_set(walk *w, uint32_t k, kir_ref v)
{
    const kir_inst *e = &w->f->insts[v];
    kir_op op = (kir_op)e->op;
    uint16_t mm = minmax(e);
    bool ok_op = op == KIR_ADD || op == KIR_SUB || op == KIR_MUL || op == KIR_AND || op == KIR_OR || op == KIR_XOR;
    kir_ref ra = mm ? e->args[0] : ok_op ? e->a : 0, rb = mm ? e->args[1] : ok_op ? e->b : 0;
    const kir_inst *x = ra ? &w->f->insts[ra] : NULL, *y = rb ? &w->f->insts[rb] : NULL;
    bool left = x && x->op == KIR_LOCAL_GET && (uint32_t)x->i == k;
    bool right = y && op != KIR_SUB && y->op == KIR_LOCAL_GET && (uint32_t)y->i == k;
    uint16_t cls = mm ? mm : (uint16_t)red_class(op);
    if (!(left || right) || (w->out->red[k] != KIR_NOP && w->out->red[k] != cls)) {
        w->notred[k] = true;
        return;
    }
    w->out->red[k] = cls;
    w->nmatched[k]++;
}

static void walk_block(walk *w, kir_blkid b, int depth);

static void walk_inst(walk *w, kir_ref r, int depth)
{
    const kir_inst *in = &w->f->insts[r];
    w->inbody[r] = true;
    if (r > w->maxref) w->maxref = r;
    switch ((kir_op)in->op) {
    case KIR_LOCAL_GET:
        w->out->use[in->i] |= KIR_PFOR_READ;
        w->ngets[in->i]++;
        break;
    case KIR_LOCAL_SET:
        w->out->use[in->i] |= KIR_PFOR_WRITTEN;
        note_set(w, (uint32_t)in->i, in->a);
        break;
    case KIR_RETURN: w->out->jumps_out = true; break;
    case KIR_BREAK: if (depth == 0) w->out->jumps_out = true; break;
    case KIR_IF:
        walk_block(w, in->blk[0], depth);
        if (in->blk[1]) walk_block(w, in->blk[1], depth);
        break;
    case KIR_FOR: case KIR_PFOR:
        w->out->use[in->i] |= KIR_PFOR_WRITTEN;
        w->notred[in->i] = true;
        walk_block(w, in->blk[0], depth + 1);
        break;
    case KIR_LOOP: walk_block(w, in->blk[0], depth + 1); break;
    default: break;
    }
}

static void walk_block(walk *w, kir_blkid b, int depth)
{
    const kir_block *blk = &w->f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) walk_inst(w, blk->v[k], depth);
}

/* Operands defined outside the body. */
static void mark_outer(const walk *w)
{
    const kir_func *f = w->f;
    for (kir_ref r = 1; r < f->ninsts; r++) {
        if (!w->inbody[r]) continue;
        const kir_inst *in = &f->insts[r];
        kir_ref ops[3] = {in->a, in->b, in->c};
        for (int k = 0; k < 3; k++)
            if (ops[k] && !w->inbody[ops[k]]) w->out->outer[ops[k]] = true;
        for (uint32_t k = 0; k < in->nargs; k++)
            if (in->args[k] && !w->inbody[in->args[k]]) w->out->outer[in->args[k]] = true;
    }
}

/* The outermost loop enclosing `target` in block b (0 when none);
 * *found when target is in b. */
static kir_ref enclosing_loop(const kir_func *f, kir_blkid b, kir_ref target, kir_ref loop, bool *found)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n && !*found; k++) {
        kir_ref r = blk->v[k];
        const kir_inst *in = &f->insts[r];
        if (r == target) {
            *found = true;
            return loop;
        }
        bool is_loop = in->op == KIR_LOOP || in->op == KIR_FOR || in->op == KIR_PFOR;
        if (is_loop || in->op == KIR_IF) {
            kir_ref l = enclosing_loop(f, in->blk[0], target, loop ? loop : is_loop ? r : 0, found);
            if (*found) return l;
        }
        if (in->op == KIR_IF && in->blk[1]) {
            kir_ref l = enclosing_loop(f, in->blk[1], target, loop, found);
            if (*found) return l;
        }
    }
    return 0;
}

/* Mark the instructions of block b and its nested blocks in `in`. */
static void mark_region(const kir_func *f, kir_blkid b, bool *in)
{
    const kir_block *blk = &f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        const kir_inst *i = &f->insts[blk->v[k]];
        in[blk->v[k]] = true;
        if (i->op == KIR_IF || i->op == KIR_LOOP || i->op == KIR_FOR || i->op == KIR_PFOR) mark_region(f, i->blk[0], in);
        if (i->op == KIR_IF && i->blk[1]) mark_region(f, i->blk[1], in);
    }
}

/* Locals read outside the body where the loop's value may reach: after
 * the loop, or anywhere in a loop around it. */
static bool *live_outside(kj_arena *a, const walk *w, kir_ref pfor)
{
    const kir_func *f = w->f;
    bool found = false;
    kir_ref loop = enclosing_loop(f, 0, pfor, 0, &found);
    bool *around = KJ_NEWN(a, bool, f->ninsts + 1);
    if (loop) mark_region(f, f->insts[loop].blk[0], around);
    bool *live = KJ_NEWN(a, bool, f->nlocals + 1);
    for (kir_ref r = 1; r < f->ninsts; r++) {
        const kir_inst *in = &f->insts[r];
        if (in->op == KIR_LOCAL_GET && !w->inbody[r] && r != pfor && (r > w->maxref || around[r]))
            live[in->i] = true;
    }
    return live;
}

void kir_pfor_analyze(kj_arena *a, const kir_func *f, kir_ref pfor, kir_pfor_info *out)
{
    memset(out, 0, sizeof *out);
    out->use = KJ_NEWN(a, uint8_t, f->nlocals + 1);
    out->red = KJ_NEWN(a, uint16_t, f->nlocals + 1);
    out->outer = KJ_NEWN(a, bool, f->ninsts + 1);
    walk w = {.f = f, .out = out, .inbody = KJ_NEWN(a, bool, f->ninsts + 1),
              .ngets = KJ_NEWN(a, uint32_t, f->nlocals + 1), .nmatched = KJ_NEWN(a, uint32_t, f->nlocals + 1),
              .notred = KJ_NEWN(a, bool, f->nlocals + 1), .maxref = pfor};
    const kir_inst *p = &f->insts[pfor];
    w.notred[p->i] = true;
    walk_block(&w, p->blk[0], 0);
    mark_outer(&w);
    bool *live = live_outside(a, &w, pfor);
    for (uint32_t k = 0; k < f->nlocals; k++) {
        const kj_type *t = f->locals[k].type;
        bool scalar = t && (t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT || t->kind == KJ_T_BOOL);
        if (w.notred[k] || !scalar || w.nmatched[k] != w.ngets[k]) out->red[k] = KIR_NOP;
    }
    /* the race: the first such assignment in the body */
    for (kir_ref r = 1; r < f->ninsts && !out->racy_set; r++) {
        const kir_inst *in = &f->insts[r];
        if (!w.inbody[r] || in->op != KIR_LOCAL_SET) continue;
        uint32_t k = (uint32_t)in->i;
        if (!live[k] || out->red[k] != KIR_NOP || k == (uint32_t)p->i || !f->locals[k].name) continue;
        out->racy_local = k;
        out->racy_set = r;
    }
}

static bool runs_parallel(const kir_func *f, bool parallel)
{
    if (f->target == KJ_RUN_PARALLEL) return true;
    return parallel && (f->kind == KIR_FN_MAIN || f->kind == KIR_FN_HOST);
}

/* Was this assignment reported already (another specialisation of the
 * same function)? */
static bool reported(kj_span *seen, uint32_t *n, kj_span sp)
{
    for (uint32_t k = 0; k < *n; k++)
        if (seen[k].line == sp.line && seen[k].col == sp.col) return true;
    if (*n < 64) seen[(*n)++] = sp;
    return false;
}

bool kir_pfor_check(kj_arena *a, const kir_module *m, uint32_t from, bool parallel, kj_diags *d)
{
    bool ok = true;
    kj_span seen[64];
    uint32_t nseen = 0;
    for (uint32_t k = from; k < m->nfuncs; k++) {
        const kir_func *f = m->funcs[k];
        if (!runs_parallel(f, parallel)) continue;
        for (kir_ref r = 1; r < f->ninsts; r++) {
            if (f->insts[r].op != KIR_PFOR) continue;
            kir_pfor_info info;
            kir_pfor_analyze(a, f, r, &info);
            if (!info.racy_set || reported(seen, &nseen, f->insts[info.racy_set].span)) continue;
            const char *name = f->locals[info.racy_local].name;
            kj_diag *dg = kj_error(d, m->src, f->insts[info.racy_set].span,
                                   "variable '%s' is assigned in a prange loop and used after it, but is not a "
                                   "reduction", name);
            kj_diag_hint(dg, "the iterations run in parallel: accumulate with '%s += ...', '%s *= ...', "
                         "'%s = %s OP ...' (OP one of + - * & | ^) or '%s = min(%s, ...)' / max, or use the "
                         "variable only inside the loop",
                         name, name, name, name, name, name);
            ok = false;
        }
    }
    return ok;
}
