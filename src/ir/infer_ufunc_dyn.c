/* SPDX-License-Identifier: BSD-2-Clause */
/* The loops of a lazy @vectorize / @guvectorize (no signatures), as Numba's
 * DUFunc / dynamic GUFunc grows them: a call whose argument types no loop
 * takes (NumPy's loop selection: the first the inputs cast to safely)
 * compiles a new loop, appended to .types. kjit compiles the whole program
 * first, so each specialisation keeps a log of its walk, in program order:
 * the loops its calls add, the logs of the host functions it calls, and the
 * .types reads. A read sees the loops logged before it; where program order
 * does not decide the list (a call in a loop or branch, a call in a function
 * not called before the read) the read is refused. */
#include "sema_int.h"

#include "util/buf.h"

#include <string.h>

typedef enum { UL_CALL, UL_MERGE, UL_READ } kj_ulog_kind;

typedef struct kj_ulog_ev {
    kj_ulog_kind kind;
    kj_fn *fn;              /* CALL, READ: the ufunc */
    const kj_type **el;     /* CALL: the loop's strong scalar types, inputs then outputs */
    uint32_t n;
    kj_span at;             /* CALL: the call (or the host call that reached it); READ: the read */
    const char *unsure;     /* CALL: why program order does not decide it, or NULL */
    kj_spec *merged;        /* MERGE: the host function called */
} kj_ulog_ev;

struct kj_ulog {
    KJ_VEC(kj_ulog_ev) v;
};

void kj_ulog_reset(kj_spec *sp)
{
    if (sp->ulog) sp->ulog->v.n = 0;
}

static struct kj_ulog *log_of(kj_sema *s, kj_spec *sp)
{
    if (!sp->ulog) {
        sp->ulog = KJ_NEW(s->a, struct kj_ulog);
        memset(sp->ulog, 0, sizeof *sp->ulog);
    }
    return sp->ulog;
}

/* Why the expression at `at` in sp's function does not run exactly once, in
 * order, when the function runs (NULL when it does): it is not in a
 * top-level simple statement of the body. */
static const char *not_straight(const kj_spec *sp, kj_span at)
{
    const kj_block *b = &sp->fn->def->body;
    for (uint32_t i = 0; i < b->n; i++) {
        bool last = i + 1 == b->n;
        if (b->v[i]->span.off <= at.off && (last || at.off < b->v[i + 1]->span.off)) {
            const kj_block *inner[2];
            return kj_stmt_blocks(b->v[i], inner) ? "a loop, branch, with or try statement" : NULL;
        }
    }
    return "a nested statement";
}

static bool loop_takes(kj_types *t, const kj_ulog_ev *ev, const kj_type *const *el, uint32_t n,
                       uint32_t nin, bool exact)
{
    if (ev->n != n) return false;
    for (uint32_t i = 0; i < nin; i++)
        if (exact ? ev->el[i] != kj_strong(t, el[i]) : !kj_can_cast_safe(el[i], ev->el[i]))
            return false;
    return true;
}

/* The loop among those logged for fn that NumPy would pick for these
 * argument types (a gufunc takes an exact match first), or NULL. */
static const kj_ulog_ev *pick_loop(kj_sema *s, struct kj_ulog *L, kj_fn *fn, const kj_type *const *el,
                                   uint32_t n, uint32_t nin)
{
    for (int pass = fn->kind == FK_GUVECTORIZE ? 0 : 1; pass < 2; pass++)
        for (uint32_t i = 0; i < L->v.n; i++) {
            const kj_ulog_ev *ev = &L->v.v[i];
            if (ev->kind == UL_CALL && ev->fn == fn && loop_takes(s->types, ev, el, n, nin, pass == 0))
                return ev;
        }
    return NULL;
}

static const kj_type *elem(const kj_type *t)
{
    return t && t->kind == KJ_T_ARRAY ? t->elem : t;
}

/* The scalar types of a lazy ufunc call's arguments (el: n inputs of a
 * @vectorize; every argument of a @guvectorize) as the loop runs them: an
 * earlier loop's that takes them, else their NumPy types (Python scalars
 * take int64 / float64, as Numba's DUFunc compiles for them). */
const kj_type **kj_ulog_loop(kj_ictx *ic, kj_fn *fn, const kj_type **el, uint32_t n)
{
    kj_sema *s = ic->s;
    bool gu = fn->kind == FK_GUVECTORIZE;
    uint32_t nin = gu ? fn->layout.nin : n, nall = gu ? n : n + 1;
    bool all_weak = true;
    for (uint32_t i = 0; i < nin; i++) all_weak = all_weak && el[i]->weak;
    const kj_type **key = KJ_NEWN(s->a, const kj_type *, nall + 1);
    for (uint32_t i = 0; i < n; i++) key[i] = all_weak || i >= nin ? kj_strong(s->types, el[i]) : el[i];
    const kj_ulog_ev *ev = pick_loop(s, log_of(s, ic->sp), fn, key, nall, nin);
    const kj_type **r = KJ_NEWN(s->a, const kj_type *, n + 1);
    for (uint32_t i = 0; i < n; i++) r[i] = ev ? ev->el[i] : kj_strong(s->types, key[i]);
    return r;
}

void kj_ulog_call(kj_ictx *ic, const kj_expr *e, kj_fn *fn, const kj_type *const *args, uint32_t n,
                  const kj_spec *callee)
{
    kj_sema *s = ic->s;
    bool gu = fn->kind == FK_GUVECTORIZE;
    uint32_t nin = gu ? fn->layout.nin : n, nall = gu ? n : n + 1;
    const kj_type **el = KJ_NEWN(s->a, const kj_type *, nall + 1);
    bool all_weak = true; /* Python scalars alone take NumPy's default types */
    for (uint32_t i = 0; i < nin; i++) all_weak = all_weak && elem(args[i])->weak;
    for (uint32_t i = 0; i < n; i++)
        el[i] = all_weak || i >= nin ? kj_strong(s->types, elem(args[i])) : elem(args[i]);
    if (!gu) {
        if (!callee->ret) return;
        el[n] = kj_strong(s->types, elem(callee->ret));
    }
    struct kj_ulog *L = log_of(s, ic->sp);
    if (pick_loop(s, L, fn, el, nall, nin)) return;
    for (uint32_t i = 0; i < nall; i++) el[i] = kj_strong(s->types, el[i]);
    kj_ulog_ev ev = {.kind = UL_CALL, .fn = fn, .el = el, .n = nall, .at = e->span,
                     .unsure = not_straight(ic->sp, e->span)};
    KJ_PUSH(s->a, L->v, ev);
}

void kj_ulog_merge(kj_ictx *ic, kj_spec *callee, kj_span at)
{
    if (!callee->ulog || callee == ic->sp || callee->state == SPEC_INFERRING) return;
    kj_sema *s = ic->s;
    struct kj_ulog *L = log_of(s, ic->sp);
    const char *why = not_straight(ic->sp, at);
    kj_ulog_ev m = {.kind = UL_MERGE, .merged = callee, .at = at};
    KJ_PUSH(s->a, L->v, m);
    uint32_t before = L->v.n;
    for (uint32_t i = 0; i < callee->ulog->v.n; i++) {
        kj_ulog_ev ev = callee->ulog->v.v[i];
        if (ev.kind != UL_CALL) continue;
        bool had = false; /* the callee chose its loops without the caller's */
        for (uint32_t k = 0; k < before && !had; k++)
            had = L->v.v[k].kind == UL_CALL && L->v.v[k].fn == ev.fn;
        if (had) ev.unsure = "a function called after other calls of the ufunc";
        else if (why && !ev.unsure) ev.unsure = why;
        KJ_PUSH(s->a, L->v, ev);
    }
}

/* 'dd->d' for a loop. */
static const char *loop_str(kj_sema *s, const kj_fn *fn, const kj_ulog_ev *ev)
{
    uint32_t nin = fn->kind == FK_GUVECTORIZE ? fn->layout.nin : ev->n - 1;
    kj_buf b = {0};
    for (uint32_t i = 0; i < ev->n; i++) {
        char c = kj_type_char(ev->el[i]);
        kj_buf_printf(&b, "%s%c", i == nin ? "->" : "", c ? c : 'O');
    }
    const char *r = kj_arena_printf(s->a, "%s", b.s ? b.s : "");
    kj_buf_free(&b);
    return r;
}

/* The loops of fn that a read at `at` sees, as strings; -1 after an error. */
int64_t kj_ulog_read(kj_ictx *ic, kj_fn *fn, kj_span at, const char ***out)
{
    kj_sema *s = ic->s;
    struct kj_ulog *L = log_of(s, ic->sp);
    const char *why = not_straight(ic->sp, at);
    uint32_t n = 0;
    const char **v = KJ_NEWN(s->a, const char *, L->v.n + 1);
    for (uint32_t i = 0; i < L->v.n; i++) {
        const kj_ulog_ev *ev = &L->v.v[i];
        if (ev->kind != UL_CALL || ev->fn != fn) continue;
        if (ev->unsure) {
            kj_diag *dg = kj_error(ic->d, s->src, at, "the loops of '%s' at this point depend on "
                                   "whether the call at line %u runs: it is in %s", fn->def->name,
                                   ev->at.line, ev->unsure);
            kj_diag_hint(dg, "kjit compiles a lazy ufunc's loops ahead of the run, in program order; "
                             "call it in straight-line code before reading .types, or give it "
                             "signatures");
            return -1;
        }
        v[n++] = loop_str(s, fn, ev);
    }
    if (why) {
        /* a read in a loop or branch: fine only if nothing in this function calls fn after it */
        kj_ulog_ev r = {.kind = UL_READ, .fn = fn, .at = at, .unsure = why};
        KJ_PUSH(s->a, L->v, r);
    } else {
        kj_ulog_ev r = {.kind = UL_READ, .fn = fn, .at = at};
        KJ_PUSH(s->a, L->v, r);
    }
    *out = v;
    return n;
}

static bool merged_before(const struct kj_ulog *L, uint32_t upto, const kj_spec *c, uint32_t depth)
{
    for (uint32_t i = 0; i < upto && i < L->v.n; i++) {
        const kj_ulog_ev *ev = &L->v.v[i];
        if (ev->kind != UL_MERGE) continue;
        if (ev->merged == c) return true;
        if (depth < 16 && ev->merged->ulog &&
            merged_before(ev->merged->ulog, ev->merged->ulog->v.n, c, depth + 1))
            return true;
    }
    return false;
}

/* A call of fn anywhere that a read cannot order: one after a read in a loop
 * or branch of the same function, or one in a function the reading function
 * did not call before the read. */
static bool check_read(kj_sema *s, const kj_spec *r, uint32_t ri)
{
    const kj_ulog_ev *rd = &r->ulog->v.v[ri];
    for (uint32_t k = 0; k < s->specs.n; k++) {
        const kj_spec *c = s->specs.v[k];
        if (!c->reachable || !c->ulog) continue;
        for (uint32_t i = 0; i < c->ulog->v.n; i++) {
            const kj_ulog_ev *ev = &c->ulog->v.v[i];
            if (ev->kind != UL_CALL || ev->fn != rd->fn) continue;
            bool own = c == r;
            const char *why = NULL;
            if (own && i > ri && rd->unsure) why = "after the read, and the read is in a loop or branch";
            else if (!own && !merged_before(r->ulog, ri, c, 0) &&
                     !(r->fn == s->main && merged_before(r->ulog, r->ulog->v.n, c, 0)))
                /* a function main calls after the read runs after it: fine */
                why = "a function not called before the read";
            if (!why) continue;
            kj_diag *dg = kj_error(s->d, s->src, rd->at, "'%s' is also called in '%s' (line %u), %s: "
                                   "kjit cannot tell which loops it has compiled here",
                                   rd->fn->def->name, c->fn->def->name, ev->at.line, why);
            kj_diag_hint(dg, "kjit compiles a lazy ufunc's loops ahead of the run, in program order; "
                             "give it signatures to fix .types");
            return false;
        }
    }
    return true;
}

bool kj_ulog_check(kj_sema *s)
{
    bool ok = true;
    for (uint32_t k = 0; k < s->specs.n; k++) {
        const kj_spec *r = s->specs.v[k];
        if (!r->reachable || !r->ulog) continue;
        for (uint32_t i = 0; i < r->ulog->v.n; i++)
            if (r->ulog->v.v[i].kind == UL_READ && !check_read(s, r, i)) ok = false;
    }
    return ok;
}
