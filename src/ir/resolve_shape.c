/* SPDX-License-Identifier: BSD-2-Clause */
/* resolve_shape — the shape of a script's module-level array, known when the
 * program compiles.
 *
 * Numba freezes a global when it compiles a function, so
 *
 *     a = cuda.to_device(np.arange(1024))
 *     nelem = len(a)
 *     ... cuda.shared.array(nelem, int32) ...
 *
 * gives the kernel the constant 1024 (numba/cuda/tests/doc_examples/
 * test_reduction.py). `a` is a variable of <module> (its elements are known
 * only when the script runs), but an array never changes its shape, so when
 * the name is bound once, to a constructor whose shape is a constant
 * expression, len(a), a.size, a.ndim and a.shape are module constants
 * (kj_const_eval asks here while s->module_scope: only a module-level
 * statement's names are the module's). */
#include "sema_int.h"

#include <math.h>
#include <string.h>

enum { MAX_DIMS = 4, MAX_DEPTH = 8 };

typedef struct {
    int64_t d[MAX_DIMS];
    uint32_t nd;
} shape;

static bool shape_of(kj_sema *s, const kj_expr *e, shape *out, uint32_t depth);

/* The one module-level statement binding `name`, or NULL: a plain `name = v`
 * at top level or in the `if __name__ == "__main__":` block, and no other
 * binding of the name anywhere at module level. */
const kj_expr *kj_script_binding(kj_sema *s, const char *name)
{
    const kj_block *body = &s->mod->body;
    if (kj_sym_find(s, name) || kj_count_assigns(body, name) != 1) return NULL;
    for (uint32_t i = 0; i < body->n; i++) {
        const kj_stmt *st = body->v[i];
        const kj_block *b = st->kind == KJ_S_IF && kj_is_main_guard(st) ? &st->if_.then : NULL;
        for (uint32_t k = 0, n = b ? b->n : 1; k < n; k++) {
            const kj_stmt *a = b ? b->v[k] : st;
            if (a->kind == KJ_S_ASSIGN && a->assign.ntargets == 1 && a->assign.targets[0]->kind == KJ_E_NAME &&
                !strcmp(a->assign.targets[0]->name, name))
                return a->assign.value;
        }
    }
    return NULL;
}

static const kj_expr *arg(const kj_expr *call, uint32_t pos, const char *kw)
{
    for (uint32_t i = 0; i < call->call.nkw; i++)
        if (!strcmp(call->call.kw[i].name, kw)) return call->call.kw[i].value;
    return pos < call->call.nargs ? call->call.args[pos] : NULL;
}

/* a shape argument: an int or a tuple of ints */
static bool shape_arg(kj_sema *s, const kj_expr *e, shape *out)
{
    kj_cval v;
    if (!e || !kj_const_eval(s, e, &v)) return false;
    if (v.type->kind == KJ_T_INT) {
        out->nd = 1, out->d[0] = v.i;
        return v.i >= 0;
    }
    if (v.type->kind != KJ_T_TUPLE || v.n > MAX_DIMS) return false;
    out->nd = v.n;
    for (uint32_t i = 0; i < v.n; i++) {
        if (v.elems[i].type->kind != KJ_T_INT || v.elems[i].i < 0) return false;
        out->d[i] = v.elems[i].i;
    }
    return true;
}

static bool num(kj_sema *s, const kj_expr *e, double *f)
{
    kj_cval v;
    if (!e || !kj_const_eval(s, e, &v)) return false;
    if (v.type->kind == KJ_T_FLOAT) *f = v.f;
    else if (v.type->kind == KJ_T_INT || v.type->kind == KJ_T_BOOL) *f = (double)v.i;
    else return false;
    return true;
}

/* np.arange(stop), np.arange(start, stop[, step]): NumPy's length,
 * ceil((stop - start) / step), at least 0 */
static bool arange_len(kj_sema *s, const kj_expr *call, shape *out)
{
    double lo = 0, hi, st = 1;
    const kj_expr *a0 = arg(call, 0, "start"), *a1 = arg(call, 1, "stop"), *a2 = arg(call, 2, "step");
    if (!a1) {
        if (!num(s, a0, &hi)) return false;
    } else if (!num(s, a0, &lo) || !num(s, a1, &hi) || (a2 && !num(s, a2, &st)) || st == 0) {
        return false;
    }
    double n = ceil((hi - lo) / st);
    out->nd = 1;
    out->d[0] = n > 0 ? (int64_t)n : 0;
    return true;
}

/* the shape of a nested list display (np.array([[1, 2], [3, 4]])) */
static bool display_shape(const kj_expr *e, shape *out)
{
    out->nd = 0;
    while (e->kind == KJ_E_LIST || e->kind == KJ_E_TUPLE) {
        if (out->nd == MAX_DIMS) return false;
        out->d[out->nd++] = e->seq.n;
        if (!e->seq.n) break;
        e = e->seq.v[0];
    }
    return out->nd > 0;
}

static bool call_shape(kj_sema *s, const kj_expr *e, shape *out, uint32_t depth)
{
    kj_einfo ref;
    if (!kj_static_ref(s, e->call.fn, &ref, false) || ref.kind != EI_BUILTIN) return false;
    switch (ref.builtin) {
    case KJ_B_CUDA_TO_DEVICE: case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY: case KJ_B_NP_ZEROS_LIKE:
    case KJ_B_NP_ONES_LIKE: case KJ_B_NP_EMPTY_LIKE: case KJ_B_NP_FULL_LIKE: {
        const kj_expr *a = e->call.nargs ? e->call.args[0] : NULL;
        if (a && (a->kind == KJ_E_LIST || a->kind == KJ_E_TUPLE)) return display_shape(a, out);
        return a && shape_of(s, a, out, depth + 1);
    }
    case KJ_B_NP_ZEROS: case KJ_B_NP_ONES: case KJ_B_NP_EMPTY: case KJ_B_NP_FULL:
        return shape_arg(s, arg(e, 0, "shape"), out);
    case KJ_B_NP_ARANGE: return arange_len(s, e, out);
    case KJ_B_NP_LINSPACE: {
        const kj_expr *n = arg(e, 2, "num");
        if (!n) return out->nd = 1, out->d[0] = 50, true; /* NumPy's default num */
        return shape_arg(s, n, out) && out->nd == 1;
    }
    case KJ_B_NP_RANDOM_RAND: case KJ_B_NP_RANDOM_RANDN: {
        if (e->call.nkw || !e->call.nargs || e->call.nargs > MAX_DIMS) return false; /* rand(): a float */
        out->nd = e->call.nargs;
        for (uint32_t i = 0; i < e->call.nargs; i++) {
            shape one;
            if (!shape_arg(s, e->call.args[i], &one) || one.nd != 1) return false;
            out->d[i] = one.d[0];
        }
        return true;
    }
    case KJ_B_NP_RANDOM_RANDOM: case KJ_B_NP_RANDOM_RANDOM_SAMPLE: case KJ_B_NP_RANDOM_RANF:
    case KJ_B_NP_RANDOM_SAMPLE:
        return shape_arg(s, arg(e, 0, "size"), out);
    default: return false;
    }
}

static bool shape_of(kj_sema *s, const kj_expr *e, shape *out, uint32_t depth)
{
    if (depth > MAX_DEPTH) return false;
    switch (e->kind) {
    /* a list display bound to a name is a list, which may grow: only an array's shape is fixed */
    case KJ_E_CALL: return call_shape(s, e, out, depth);
    case KJ_E_NAME: {
        /* a name a function rebinds through global may change its shape */
        const kj_expr *v = kj_host_rebinder(s, e->name) ? NULL : kj_script_binding(s, e->name);
        return v && shape_of(s, v, out, depth + 1);
    }
    default: return false;
    }
}

static void weak_int(kj_sema *s, kj_cval *out, int64_t v)
{
    memset(out, 0, sizeof *out);
    out->type = kj_t_weak_int(s->types);
    out->i = v;
}

bool kj_script_len(kj_sema *s, const kj_expr *e, kj_cval *out)
{
    shape sh;
    if (!s->module_scope || e->kind != KJ_E_NAME || !shape_of(s, e, &sh, 0) || !sh.nd) return false;
    weak_int(s, out, sh.d[0]);
    return true;
}

bool kj_script_shape_attr(kj_sema *s, const kj_expr *e, kj_cval *out)
{
    shape sh;
    if (!s->module_scope || e->kind != KJ_E_ATTR || e->attr.obj->kind != KJ_E_NAME ||
        !shape_of(s, e->attr.obj, &sh, 0))
        return false;
    if (!strcmp(e->attr.name, "ndim")) {
        weak_int(s, out, sh.nd);
        return true;
    }
    if (!strcmp(e->attr.name, "size")) {
        int64_t n = 1;
        for (uint32_t i = 0; i < sh.nd; i++) n *= sh.d[i];
        weak_int(s, out, n);
        return true;
    }
    if (strcmp(e->attr.name, "shape")) return false;
    memset(out, 0, sizeof *out);
    const kj_type **tys = KJ_NEWN(s->a, const kj_type *, sh.nd ? sh.nd : 1);
    out->elems = KJ_NEWN(s->a, kj_cval, sh.nd ? sh.nd : 1);
    for (uint32_t i = 0; i < sh.nd; i++) {
        weak_int(s, &out->elems[i], sh.d[i]);
        tys[i] = out->elems[i].type;
    }
    out->type = kj_t_tuple(s->types, tys, sh.nd);
    out->n = sh.nd;
    return true;
}
