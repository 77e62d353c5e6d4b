/* SPDX-License-Identifier: BSD-2-Clause */
/* versions — a local name split into one variable per live range (issue 23
 * point 4), as Numba's SSA form does.
 *
 * `a = np.zeros(n)` then `a = a.reshape(2, -1)` binds `a` twice, and each
 * binding has its own type when no use can see both. A use sees the
 * bindings that reach it (reaching definitions over the structured AST);
 * where two reach one use — after an if/else, at a loop's head for a
 * loop-carried name — they meet at a phi, and a phi that some use reads
 * joins its incoming bindings into one variable (their types unify then,
 * int -> float, or the unification fails as Numba's `Cannot unify`).
 * A phi nothing reads joins nothing: Numba builds phis only where a use
 * needs one.
 *
 * The result is a table per function: expression id of a NAME that denotes
 * a local → the name of its variable. A name's first variable (the one of
 * its parameter, else of its first binding) keeps the name; the others are
 * NAME.1, NAME.2, ... in order of their first binding. A name with one
 * variable, the common case, is unchanged everywhere.
 *
 * One deliberate difference: `x += v` keeps x's variable (Numba gives the
 * result a new version). In place, arrays stay the same object; scalars
 * unify (`x = 0; x += 0.5` makes x a float from the start), which changes
 * no printed value except a refused `x = 1; x += np.ones(3)`.
 *
 * Cost: one slot per local name, changed through a trail that an if's
 * branches undo, so a branch costs what it binds (O(n²) only in the number
 * of names one if binds); a loop costs the names its body binds, times its
 * breaks and continues; then a union-find over the bindings. */
#include "sema_int.h"

#include "../util/alloc.h"

enum { N_DEF, N_PHI, N_UNDEF };

typedef struct vnode {
    int32_t parent;  /* union-find */
    uint32_t name;   /* local name index */
    uint8_t kind;
    bool live;       /* read by a use (phis: through another live phi too) */
    int32_t in_head; /* phis: first incoming edge */
    uint32_t order;  /* creation order, which names the variables */
} vnode;

typedef struct vedge {
    int32_t from, next;
} vedge;

/* A loop's names (those its body binds), and their nodes at each break
 * and continue (a live path's only): per snapshot one node per name, -1
 * unbound. */
typedef struct vloop {
    uint32_t *names;
    uint32_t n;
    KJ_VEC(int32_t *) exits; /* break snapshots */
    KJ_VEC(int32_t *) backs; /* continue snapshots */
} vloop;

typedef struct vtrail {
    uint32_t name;
    int32_t old;
} vtrail;

typedef struct vctx {
    kj_arena *a;      /* scratch: freed when the table is made */
    const kj_fn *fn;
    kj_strtab names;  /* local name → index */
    KJ_VEC(const char *) name_of;
    KJ_VEC(vnode) nodes;
    KJ_VEC(vedge) edges;
    int32_t *node_of; /* [nexprs]: the node a NAME defines or reads, -1 */
    int32_t *rep;     /* [nnames]: the node a use reads now, -1 when unbound */
    bool dead;        /* after return/break/continue: joins ignore this path */
    KJ_VEC(vtrail) trail; /* every change of rep, undone between an if's branches */
    uint32_t *seen;   /* [nnames]: == stamp when seen by the current join */
    uint32_t stamp;
    vloop *loop;
    int8_t *arg_none;    /* [nnames]: a parameter's argument is None (1), is not (0); -1 unknown */
    int32_t *param_node; /* [nnames]: a parameter's binding on entry, -1 */
} vctx;

static int32_t find(vctx *c, int32_t n)
{
    while (c->nodes.v[n].parent != n) {
        c->nodes.v[n].parent = c->nodes.v[c->nodes.v[n].parent].parent;
        n = c->nodes.v[n].parent;
    }
    return n;
}

static void join(vctx *c, int32_t x, int32_t y)
{
    x = find(c, x);
    y = find(c, y);
    if (x == y) return;
    if (c->nodes.v[y].order < c->nodes.v[x].order) { int32_t t = x; x = y; y = t; }
    c->nodes.v[y].parent = x; /* the earlier node represents the class */
}

static int32_t new_node(vctx *c, uint32_t name, uint8_t kind)
{
    vnode n = {.parent = (int32_t)c->nodes.n, .name = name, .kind = kind, .in_head = -1,
               .order = c->nodes.n};
    KJ_PUSH(c->a, c->nodes, n);
    return (int32_t)c->nodes.n - 1;
}

static void add_in(vctx *c, int32_t phi, int32_t from)
{
    for (int32_t e = c->nodes.v[phi].in_head; e >= 0; e = c->edges.v[e].next)
        if (c->edges.v[e].from == from) return;
    vedge ed = {.from = from, .next = c->nodes.v[phi].in_head};
    KJ_PUSH(c->a, c->edges, ed);
    c->nodes.v[phi].in_head = (int32_t)c->edges.n - 1;
}

static bool local_index(const vctx *c, const char *name, uint32_t *k)
{
    return kj_strtab_get(&c->names, name, k);
}

static void add_name(vctx *c, const char *name)
{
    if (kj_static_local_find(c->fn, name) || !kj_strtab_put(c->a, &c->names, name, c->name_of.n))
        return;
    KJ_PUSH(c->a, c->name_of, name);
}

/* ---- the local names: parameters and every assigned name ---- */

static void names_target(vctx *c, const kj_expr *t)
{
    if (t->kind == KJ_E_TUPLE || t->kind == KJ_E_LIST)
        for (uint32_t i = 0; i < t->seq.n; i++) names_target(c, t->seq.v[i]);
    else if (t->kind == KJ_E_NAME) add_name(c, t->name);
}

static void names_block(vctx *c, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kj_expr *const *t;
        const kj_block *in[2];
        for (uint32_t k = 0, nt = kj_stmt_targets(b->v[i], &t); k < nt; k++) names_target(c, t[k]);
        for (uint32_t k = 0, nb = kj_stmt_blocks(b->v[i], in); k < nb; k++) names_block(c, in[k]);
    }
}

/* ---- states: one slot per name, changed through a trail so that a
 * branch costs what it binds, not the number of names ---- */

static void set_rep(vctx *c, uint32_t k, int32_t n)
{
    vtrail t = {.name = k, .old = c->rep[k]};
    KJ_PUSH(c->a, c->trail, t);
    c->rep[k] = n;
}

static void undo_to(vctx *c, uint32_t mark)
{
    while (c->trail.n > mark) {
        vtrail t = c->trail.v[--c->trail.n];
        c->rep[t.name] = t.old;
    }
}

/* A join: name k, bound to rep[k] on this path, is bound to y on another.
 * Where both are bound to different nodes it reads a phi of the two from
 * here on; phis made since `mark` belong to this join and take more. */
static void merge_slot(vctx *c, uint32_t k, int32_t y, uint32_t mark)
{
    int32_t x = c->rep[k];
    if (y < 0 || x == y) return;
    if (x < 0) {
        set_rep(c, k, y);
        return;
    }
    if (c->nodes.v[x].kind != N_PHI || c->nodes.v[x].order < mark) {
        int32_t p = new_node(c, k, N_PHI);
        add_in(c, p, x);
        set_rep(c, k, p);
        x = p;
    }
    add_in(c, x, y);
}

/* ---- the walk ---- */

static void use_expr(vctx *c, const kj_expr *e);

static void use_name(vctx *c, const kj_expr *e)
{
    uint32_t k;
    if (!local_index(c, e->name, &k)) return;
    int32_t n = c->rep[k];
    if (n < 0) { /* read before any binding */
        n = new_node(c, k, N_UNDEF);
        set_rep(c, k, n);
    }
    c->nodes.v[n].live = true;
    c->node_of[e->id] = n;
}

static void use_exprs(vctx *c, kj_expr *const *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) use_expr(c, v[i]);
}

static void use_expr(vctx *c, const kj_expr *e)
{
    if (!e) return;
    switch (e->kind) {
    case KJ_E_NAME: use_name(c, e); break;
    case KJ_E_ATTR: use_expr(c, e->attr.obj); break;
    case KJ_E_CALL:
        use_expr(c, e->call.fn);
        use_exprs(c, e->call.args, e->call.nargs);
        for (uint32_t i = 0; i < e->call.nkw; i++) use_expr(c, e->call.kw[i].value);
        break;
    case KJ_E_SUBSCRIPT: use_expr(c, e->sub.obj); use_expr(c, e->sub.index); break;
    case KJ_E_SLICE:
        use_expr(c, e->slice.lo);
        use_expr(c, e->slice.hi);
        use_expr(c, e->slice.step);
        break;
    case KJ_E_TUPLE: case KJ_E_LIST: case KJ_E_DICT: case KJ_E_SET: use_exprs(c, e->seq.v, e->seq.n); break;
    case KJ_E_BINOP: use_expr(c, e->bin.l); use_expr(c, e->bin.r); break;
    case KJ_E_UNARY: use_expr(c, e->un.x); break;
    case KJ_E_BOOLOP: use_expr(c, e->boolop.l); use_expr(c, e->boolop.r); break;
    case KJ_E_COMPARE: use_exprs(c, e->cmp.operands, e->cmp.n); break;
    case KJ_E_IFEXP:
        use_expr(c, e->ifexp.cond);
        use_expr(c, e->ifexp.then);
        use_expr(c, e->ifexp.els);
        break;
    default: break;
    }
}

/* A binding: a NAME target gets a new node; a subscript or attribute
 * target reads its parts. */
static void def_target(vctx *c, const kj_expr *t)
{
    uint32_t k;
    if (t->kind == KJ_E_TUPLE || t->kind == KJ_E_LIST) {
        for (uint32_t i = 0; i < t->seq.n; i++) def_target(c, t->seq.v[i]);
    } else if (t->kind == KJ_E_NAME && local_index(c, t->name, &k)) {
        int32_t n = new_node(c, k, N_DEF);
        set_rep(c, k, n);
        c->node_of[t->id] = n;
    } else if (t->kind != KJ_E_NAME) {
        use_expr(c, t);
    }
}

static void walk_block(vctx *c, const kj_block *b);

/* An if condition that the specialisation decides, as infer.c's constant
 * `if` does (Numba's dead branch pruning): `p is None` or `p is not None`
 * of a parameter p still bound to its argument, None. 1: true, 0: false,
 * -1: not known here. Only the taken branch binds then, so `if b is None:
 * b = 1.5` gives b one float variable after the if, never a join with None
 * (Numba's Optional(float64) there prints the same values). Where the
 * argument is not None, both branches bind and join, and b's bindings
 * unify as Numba's do (infer.c types both branches of such an if). */
static int known_cond(const vctx *c, const kj_expr *e)
{
    if (!c->arg_none || e->kind != KJ_E_COMPARE || e->cmp.n != 2 ||
        (e->cmp.ops[0] != KJ_CMP_IS && e->cmp.ops[0] != KJ_CMP_ISNOT))
        return -1;
    const kj_expr *x = e->cmp.operands[0], *y = e->cmp.operands[1];
    if (x->kind == KJ_E_NONE) {
        const kj_expr *t = x;
        x = y;
        y = t;
    }
    uint32_t k;
    if (y->kind != KJ_E_NONE || x->kind != KJ_E_NAME || !local_index(c, x->name, &k) || c->arg_none[k] != 1 ||
        c->rep[k] != c->param_node[k])
        return -1;
    return e->cmp.ops[0] == KJ_CMP_IS;
}

static void walk_if(vctx *c, const kj_stmt *st)
{
    use_expr(c, st->if_.cond);
    int known = known_cond(c, st->if_.cond);
    if (known >= 0) {
        walk_block(c, known ? &st->if_.then : &st->if_.els);
        return;
    }
    uint32_t mark = c->trail.n;
    bool dead0 = c->dead;
    walk_block(c, &st->if_.then);
    /* The then branch's bindings (name, node), before they are undone. */
    uint32_t nt = c->trail.n - mark;
    uint32_t *tk = KJ_NEWN(c->a, uint32_t, nt + 1);
    int32_t *tv = KJ_NEWN(c->a, int32_t, nt + 1);
    for (uint32_t i = 0; i < nt; i++) {
        tk[i] = c->trail.v[mark + i].name;
        tv[i] = c->rep[tk[i]];
    }
    bool then_dead = c->dead;
    undo_to(c, mark);
    c->dead = dead0;
    walk_block(c, &st->if_.els);
    if (then_dead) return;
    uint32_t join = c->nodes.n;
    if (c->dead) { /* only the then branch goes on */
        undo_to(c, mark);
        for (uint32_t i = 0; i < nt; i++) set_rep(c, tk[i], tv[i]);
        c->dead = false;
        return;
    }
    /* Names the else branch bound and the then branch did not: the then
     * side has their value from before the if (the trail's first old). */
    uint32_t ne = c->trail.n, stamp = ++c->stamp;
    for (uint32_t i = 0; i < nt; i++) c->seen[tk[i]] = stamp;
    for (uint32_t i = mark; i < ne; i++) {
        uint32_t k = c->trail.v[i].name;
        if (c->seen[k] == stamp) continue;
        c->seen[k] = stamp;
        merge_slot(c, k, c->trail.v[i].old, join);
    }
    for (uint32_t i = 0; i < nt; i++) merge_slot(c, tk[i], tv[i], join);
}

static int32_t *snapshot(vctx *c, const vloop *lp)
{
    int32_t *v = KJ_NEWN(c->a, int32_t, lp->n + 1);
    for (uint32_t i = 0; i < lp->n; i++) v[i] = c->rep[lp->names[i]];
    return v;
}

static bool always_true(const kj_expr *e)
{
    return e && ((e->kind == KJ_E_BOOL && e->bool_) || (e->kind == KJ_E_INT && e->int_.value));
}

/* A loop's head: every name the body binds reads a phi of the value on
 * entry and the values at the end of the body and at each `continue`; after
 * the loop, the head's value (the condition is false, the iterator done:
 * never for `while True`) joins each `break`'s. */
static void walk_loop(vctx *c, const kj_expr *cond, const kj_expr *target, const kj_block *body)
{
    vctx names = {.a = c->a, .fn = c->fn};
    names_block(&names, body);
    if (target) names_target(&names, target);
    vloop lp = {.names = KJ_NEWN(c->a, uint32_t, names.name_of.n + 1)}, *outer = c->loop;
    int32_t *phis = KJ_NEWN(c->a, int32_t, names.name_of.n + 1);
    for (uint32_t j = 0; j < names.name_of.n; j++) {
        uint32_t k;
        if (!local_index(c, names.name_of.v[j], &k)) continue;
        phis[lp.n] = new_node(c, k, N_PHI);
        if (c->rep[k] >= 0) add_in(c, phis[lp.n], c->rep[k]);
        set_rep(c, k, phis[lp.n]);
        lp.names[lp.n++] = k;
    }
    use_expr(c, cond);
    bool exit_dead = c->dead || always_true(cond);
    c->loop = &lp;
    if (target) def_target(c, target);
    walk_block(c, body);
    c->loop = outer;
    KJ_PUSH(c->a, lp.backs, snapshot(c, &lp));
    for (uint32_t i = 0; i < lp.backs.n; i++)
        for (uint32_t j = 0; j < lp.n; j++)
            if (lp.backs.v[i][j] >= 0 && lp.backs.v[i][j] != phis[j]) add_in(c, phis[j], lp.backs.v[i][j]);
    for (uint32_t j = 0; j < lp.n; j++) set_rep(c, lp.names[j], phis[j]);
    c->dead = exit_dead;
    uint32_t join = c->nodes.n;
    for (uint32_t i = 0; i < lp.exits.n; i++) {
        if (c->dead) { /* the first live break: the exit state is its state */
            for (uint32_t j = 0; j < lp.n; j++) set_rep(c, lp.names[j], lp.exits.v[i][j]);
            c->dead = false;
            continue;
        }
        for (uint32_t j = 0; j < lp.n; j++) merge_slot(c, lp.names[j], lp.exits.v[i][j], join);
    }
}

/* A try statement: an exception may leave its body after any statement, so
 * a handler may see any binding the body made. Every name bound anywhere in
 * the statement is one variable throughout it, joined with its binding
 * before it: the clauses are walked one after another, then every node they
 * made joins its name's first. */
static void walk_try(vctx *c, const kj_stmt *st)
{
    uint32_t first = c->nodes.n, nnames = c->name_of.n;
    int32_t *anchor = KJ_NEWN(c->a, int32_t, nnames + 1);
    for (uint32_t k = 0; k < nnames; k++) anchor[k] = c->rep[k];
    bool dead = c->dead;
    walk_block(c, &st->try_.body);
    for (uint32_t i = 0; i < st->try_.clauses.n; i++) {
        c->dead = dead;
        walk_block(c, &st->try_.clauses.v[i]->except.body);
    }
    c->dead = dead;
    for (uint32_t n = first; n < c->nodes.n; n++) {
        uint32_t k = c->nodes.v[n].name;
        if (anchor[k] < 0) anchor[k] = (int32_t)n;
        else join(c, anchor[k], (int32_t)n);
    }
}

static void walk_stmt(vctx *c, const kj_stmt *st)
{
    switch (st->kind) {
    case KJ_S_EXPR: use_expr(c, st->expr); break;
    case KJ_S_ASSIGN:
        use_expr(c, st->assign.value);
        for (uint32_t k = 0; k < st->assign.ntargets; k++) def_target(c, st->assign.targets[k]);
        break;
    case KJ_S_AUGASSIGN: {
        use_expr(c, st->aug.value);
        const kj_expr *t = st->aug.target;
        uint32_t k;
        if (t->kind != KJ_E_NAME || !local_index(c, t->name, &k)) {
            use_expr(c, t);
            break;
        }
        use_name(c, t); /* x += v reads x and binds it again, as the same variable */
        int32_t read = c->node_of[t->id], n = new_node(c, k, N_DEF);
        join(c, n, read);
        set_rep(c, k, n);
        c->node_of[t->id] = n;
        break;
    }
    case KJ_S_IF: walk_if(c, st); break;
    case KJ_S_WHILE: walk_loop(c, st->while_.cond, NULL, &st->while_.body); break;
    case KJ_S_WITH: /* runs once, in line */
        use_expr(c, st->with.ctx);
        if (st->with.target) def_target(c, st->with.target);
        walk_block(c, &st->with.body);
        break;
    case KJ_S_FOR:
        use_expr(c, st->for_.iter);
        walk_loop(c, NULL, st->for_.target, &st->for_.body);
        break;
    case KJ_S_BREAK: case KJ_S_CONTINUE:
        if (c->loop && !c->dead) {
            if (st->kind == KJ_S_BREAK) KJ_PUSH(c->a, c->loop->exits, snapshot(c, c->loop));
            else KJ_PUSH(c->a, c->loop->backs, snapshot(c, c->loop));
        }
        c->dead = true;
        break;
    case KJ_S_RETURN: use_expr(c, st->ret.value); c->dead = true; break;
    case KJ_S_YIELD: use_expr(c, st->ret.value); break;
    case KJ_S_RAISE: use_expr(c, st->raise.exc); use_expr(c, st->raise.cause); c->dead = true; break;
    case KJ_S_TRY: walk_try(c, st); break;
    case KJ_S_ASSERT: use_expr(c, st->assert_.cond); use_expr(c, st->assert_.msg); break;
    default: break;
    }
}

static void walk_block(vctx *c, const kj_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) walk_stmt(c, b->v[i]);
}

/* A live phi joins its incoming nodes, and makes those that are phis live. */
static void join_live_phis(vctx *c)
{
    KJ_VEC(int32_t) work = {0};
    for (uint32_t i = 0; i < c->nodes.n; i++)
        if (c->nodes.v[i].live && c->nodes.v[i].kind == N_PHI) KJ_PUSH(c->a, work, (int32_t)i);
    while (work.n) {
        int32_t p = work.v[--work.n];
        for (int32_t e = c->nodes.v[p].in_head; e >= 0; e = c->edges.v[e].next) {
            int32_t from = c->edges.v[e].from;
            join(c, p, from);
            if (c->nodes.v[from].kind == N_PHI && !c->nodes.v[from].live) {
                c->nodes.v[from].live = true;
                KJ_PUSH(c->a, work, from);
            }
        }
    }
}

static const char *class_name(vctx *c, uint32_t *count, uint32_t k, kj_arena *out, bool *split)
{
    uint32_t v = count[k]++;
    if (v) *split = true;
    return v ? kj_arena_printf(out, "%s.%u", c->name_of.v[k], v) : c->name_of.v[k];
}

/* Name each class: a name's first class (in the order of its first binding
 * or unbound read) keeps the name, the others are NAME.1, NAME.2, ... */
static const char **name_classes(vctx *c, kj_arena *out, uint32_t nexprs, bool *split)
{
    uint32_t *count = KJ_NEWN(c->a, uint32_t, c->name_of.n + 1);
    const char **cls = KJ_NEWN(c->a, const char *, c->nodes.n + 1);
    memset(count, 0, (c->name_of.n + 1) * sizeof *count);
    memset(cls, 0, (c->nodes.n + 1) * sizeof *cls);
    for (uint32_t i = 0; i < c->nodes.n; i++) {
        int32_t r = find(c, (int32_t)i);
        if (!cls[r] && c->nodes.v[i].kind != N_PHI)
            cls[r] = class_name(c, count, c->nodes.v[i].name, out, split);
    }
    const char **tab = KJ_NEWN(out, const char *, nexprs + 1);
    memset(tab, 0, (nexprs + 1) * sizeof *tab);
    for (uint32_t i = 0; i < nexprs; i++) {
        if (c->node_of[i] < 0) continue;
        int32_t r = find(c, c->node_of[i]);
        /* A phi read but joined with no binding (a loop's name bound only in
         * code after a break): a read before any binding, its own variable. */
        if (!cls[r]) cls[r] = class_name(c, count, c->nodes.v[r].name, out, split);
        tab[i] = cls[r];
    }
    return tab;
}

const char *const *kj_versions(kj_arena *out, const kj_fn *fn, const kj_type *const *args, uint32_t nargs)
{
    kj_arena scratch;
    kj_arena_init(&scratch);
    const kj_funcdef *def = fn->def;
    vctx c = {.a = &scratch, .fn = fn};
    for (uint32_t i = 0; i < def->nparams; i++) add_name(&c, def->params[i].name);
    names_block(&c, &def->body);
    c.node_of = KJ_NEWN(&scratch, int32_t, def->nexprs + 1);
    for (uint32_t i = 0; i <= def->nexprs; i++) c.node_of[i] = -1;
    c.rep = KJ_NEWN(&scratch, int32_t, c.name_of.n + 1);
    c.seen = KJ_NEWN(&scratch, uint32_t, c.name_of.n + 1);
    for (uint32_t k = 0; k < c.name_of.n; k++) {
        c.rep[k] = -1;
        c.seen[k] = 0;
    }
    if (args) {
        c.arg_none = KJ_NEWN(&scratch, int8_t, c.name_of.n + 1);
        c.param_node = KJ_NEWN(&scratch, int32_t, c.name_of.n + 1);
        for (uint32_t k = 0; k < c.name_of.n; k++) {
            c.arg_none[k] = -1;
            c.param_node[k] = -1;
        }
    }
    for (uint32_t i = 0; i < def->nparams; i++) {
        uint32_t k;
        if (!local_index(&c, def->params[i].name, &k)) continue;
        c.rep[k] = new_node(&c, k, N_DEF);
        if (args && i < nargs && args[i]) {
            c.arg_none[k] = args[i]->kind == KJ_T_NONE;
            c.param_node[k] = c.rep[k];
        }
    }
    walk_block(&c, &def->body);
    join_live_phis(&c);
    bool split = false;
    const char **tab = name_classes(&c, out, def->nexprs, &split);
    kj_arena_free(&scratch);
    return split ? tab : NULL;
}
