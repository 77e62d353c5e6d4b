/* SPDX-License-Identifier: BSD-2-Clause */
/* infer — typing of expressions (calls are in infer_call.c).
 *
 * Each expression's result goes to the specialisation's table,
 * sp->ei[e->id]; the walk is re-run until variable types settle, so every
 * function here must be deterministic given the variables' current types. */
#include "sema_int.h"

#include <string.h>


kj_var *kj_var_find(kj_spec *sp, const char *name)
{
    uint32_t k;
    return kj_strtab_get(&sp->vartab, name, &k) ? &sp->vars.v[k] : NULL;
}

kj_var *kj_var_of(kj_spec *sp, const kj_expr *e)
{
    return kj_var_find(sp, kj_local_name(sp, e));
}

bool kj_is_device_ctx(const kj_spec *sp) { return sp->device; }

static const char *what_is(const kj_einfo *ei)
{
    switch (ei->kind) {
    case EI_MODULE: return "a module";
    case EI_BUILTIN: case EI_METHOD: return "a built-in function";
    case EI_DTYPE: return "a type";
    case EI_FUNC: return "a function";
    case EI_LAUNCH: return "a kernel launch configuration";
    case EI_UREDUCE: return "a ufunc's reduce method";
    case EI_UMETH: return "a ufunc's method";
    case EI_FORALL: return "a kernel's forall method";
    case EI_DECOR: return "a decorator";
    case EI_TYPEOBJ: return "a Numba type object";
    case EI_DTYPE_FN: return "np.dtype";
    case EI_NTCLASS: return "a namedtuple class";
    default: return "not a value";
    }
}

const kj_type *kj_func_value_type(kj_ictx *ic, const kj_einfo *ei)
{
    if (ei->kind == EI_FUNC && ei->fn && (ei->fn->kind == FK_JIT || ei->fn->kind == FK_DEVICE))
        return kj_t_func(ic->s->types, ei->fn, -1, ei->fn->def->name);
    if (ei->kind == EI_BUILTIN && !kj_builtin_has((unsigned)ei->builtin, KJ_BF_ATTR | KJ_BF_METHOD))
        return kj_t_func(ic->s->types, NULL, ei->builtin, kj_builtin_get(ei->builtin)->path);
    return NULL;
}

const kj_type *kj_value_type(kj_ictx *ic, const kj_expr *e)
{
    kj_einfo *ei = kj_type_expr(ic, e);
    if (ei->kind == EI_VALUE) return ei->type;
    if (ei->kind == EI_DTYPE || ei->kind == EI_TYPEOBJ) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span,
                               "%s is a type, known when the program compiles, not a value that "
                               "exists when it runs", ei->kind == EI_DTYPE ? kj_type_str(ei->dtype)
                                                                            : "a Numba array type or signature");
        kj_diag_hint(dg, ei->kind == EI_DTYPE
                             ? "a type can be assigned to a name, passed to or returned from a function, given as "
                               "dtype=, or called to convert a value"
                             : "array types and signatures belong in decorators");
    } else if (ei->kind != EI_NONE) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "%s cannot be used as a value here",
                               what_is(ei));
        if (ei->kind == EI_FUNC && ei->fn->kind == FK_KERNEL)
            kj_diag_hint(dg, "launch a kernel with %s[blocks, threads](...)", ei->fn->def->name);
    }
    return NULL;
}

/* ---- names ---- */

/* Python built-ins over iterables that kjit does not compile yet (issue 23
 * point 8): what to write instead. */
static const char *unsupported_builtin(const char *name)
{
    static const char *const alt[][2] = {
        {"sorted", "use np.sort(a) for an array (kjit does not build sorted()'s list yet)"},
    };
    for (size_t i = 0; i < sizeof alt / sizeof *alt; i++)
        if (!strcmp(name, alt[i][0])) return alt[i][1];
    return NULL;
}

/* A name a lambda written in a function reads from that function, which
 * the parser's lambda lifting (parser_closure.c) did not make a parameter:
 * a backstop, so that such a name is never read as a module-level one. */
static bool closure_error(kj_ictx *ic, const kj_expr *e)
{
    const kj_funcdef *encl = ic->sp->fn->def->encl;
    if (!encl) return false;
    bool local = kj_count_assigns(&encl->body, e->name) > 0;
    for (uint32_t i = 0; i < encl->nparams && !local; i++) local = !strcmp(encl->params[i].name, e->name);
    if (!local) return false;
    kj_diag *dg = kj_error(ic->d, ic->s->src, e->span,
                           "the lambda reads '%s', a variable of the enclosing function %s(), which kjit "
                           "cannot pass to it here", e->name, encl->name);
    kj_diag_hint(dg, "give the lambda '%s' as a parameter", e->name);
    return true;
}

static void unknown_name(kj_ictx *ic, const kj_expr *e)
{
    if (kj_script_var_error(ic->s, ic->d, ic->sp->fn, e)) return;
    if (kj_except_name_error(ic, e)) return;
    const char *alt = unsupported_builtin(e->name);
    if (alt) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "the built-in %s() is not supported", e->name);
        kj_diag_hint(dg, "%s", alt);
        return;
    }
    kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "unknown name '%s'", e->name);
    if (!dg) return; /* past the error limit (or a repeat): no hint to look for */
    const char *cands[512];
    size_t n = 0;
    for (uint32_t i = 0; i < ic->sp->vars.n && n < 300; i++) cands[n++] = ic->sp->vars.v[i].name;
    for (uint32_t i = 0; i < ic->s->syms.n && n < 480; i++) cands[n++] = ic->s->syms.v[i].name;
    static const char *const py[] = {"range", "len", "abs", "min", "max", "int", "float",
                                     "bool", "round", "print", "True", "False", "None"};
    for (size_t i = 0; i < sizeof py / sizeof *py; i++) cands[n++] = py[i];
    const char *h = kj_closest(e->name, cands, n);
    if (h) kj_diag_hint(dg, "did you mean '%s'?", h);
    else if (!strcmp(e->name, "np") || !strcmp(e->name, "cuda") || !strcmp(e->name, "math"))
        kj_diag_hint(dg, "add the import: %s", !strcmp(e->name, "np") ? "import numpy as np"
                                               : !strcmp(e->name, "cuda") ? "from numba import cuda"
                                               : "import math");
}

static kj_einfo *type_name(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    const kj_static_local *l = kj_static_local_find(ic->sp->fn, e->name);
    if (l && l->expr) { /* sig = '...': a constant string, or a type object (used here) */
        if (l->expr->kind == KJ_E_STR || l->expr->kind == KJ_E_LIST) {
            *ei = *kj_type_expr(ic, l->expr);
            return ei;
        }
        ei->kind = EI_TYPEOBJ;
        return ei;
    }
    if (l) { /* k = cuda.jit(f) in this function: k is that function */
        ei->kind = l->fn ? EI_FUNC : EI_DECOR;
        ei->fn = l->fn;
        ei->decor = l->decor;
        return ei;
    }
    kj_var *v = kj_var_of(ic->sp, e);
    if (v && v->type && v->type->kind == KJ_T_DTYPE) { /* dt = np.int32: folded */
        ei->kind = EI_DTYPE;
        ei->dtype = v->type->elem;
        return ei;
    }
    if (v && v->type && v->type->kind == KJ_T_FUNC) { /* g = add, or a function parameter: folded */
        ei->kind = v->type->ref ? EI_FUNC : EI_BUILTIN;
        ei->fn = (kj_fn *)v->type->ref;
        ei->builtin = v->type->builtin;
        return ei;
    }
    if (v) {
        /* NULL type: assigned only later in the walk; the fixpoint fills it.
         * Still NULL in the reporting walk: nothing typed is ever assigned
         * (`z += 1` alone), unless an earlier error explains it. */
        if (!v->type) {
            if (ic->report && !kj_has_errors(ic->d))
                kj_error(ic->d, ic->s->src, e->span,
                         "local variable '%s' is used before any value is assigned to it",
                         e->name);
            return ei_value(ei, NULL);
        }
        if (kj_t_is_exception(v->type) && kj_exc_scope_error(ic, e)) return ei_value(ei, NULL);
        ei->nonneg = v->nonneg;
        return ei_value(ei, v->type);
    }
    if (closure_error(ic, e)) return ei_value(ei, NULL); /* before a module name it would hide */
    if (kj_frozen_ref(ic->s, ic->sp->fn, e, ei)) return ei; /* a module-level array: resolve_frozen.c */
    if (kj_modslot_ref(ic->s, ic->sp->fn, e, ei)) return ei; /* one computed when the script runs */
    if (kj_static_ref(ic->s, e, ei, true)) {
        if (ei->kind == EI_BUILTIN) {
            const kj_builtin_info *bi = kj_builtin_get(ei->builtin);
            if (bi->flags & KJ_BF_ATTR) { /* from math import pi */
                const kj_type *t = kj_builtin_type(ic->s->types, ei->builtin, NULL, NULL, 0,
                                                   e->span, ic->s->src, ic->d, NULL);
                kj_cval cv;
                bool c = kj_const_eval(ic->s, e, &cv);
                int b = ei->builtin;
                ei_value(ei, t);
                ei->builtin = b;
                ei->is_const = c;
                ei->cval = cv;
            }
        }
        if (ei->kind == EI_VALUE && ei->is_const && ei->cval.type->kind == KJ_T_INT)
            ei->nonneg = ei->cval.i >= 0;
        return ei;
    }
    unknown_name(ic, e);
    return ei_value(ei, NULL);
}

/* ---- attributes ---- */

static const char *const ARRAY_ATTRS[] = {"shape", "size", "ndim", "dtype", "astype", "copy",
                                          "reshape", "sum", "min", "max", "mean", "std",
                                          "fill", "copy_to_host"};

/* .real, .imag, .conjugate of an int or float: typed as complex's (builtins_complex.c). */
static bool real_part_attr(const char *n)
{
    return !strcmp(n, "real") || !strcmp(n, "imag") || !strcmp(n, "conjugate") || !strcmp(n, "item");
}

/* obj.name where obj is a run-time value: array attributes and methods,
 * stream and event methods. */
static kj_einfo *value_attr(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei)
{
    if (kj_nt_class(t)) return ei_value(ei, kj_nt_attr_type(ic, e, t)); /* p.x: resolve_namedtuple.c */
    if (t->kind == KJ_T_RANGE) return kj_type_range_attr(ic, e, t, ei);  /* r.start: infer_range.c */
    if (kj_record_of(t) && strcmp(e->attr.name, "copy_to_host")) /* r.x, r.dtype: infer_record.c; a DeviceRecord's method */
        return ei_value(ei, kj_record_attr_type(ic, e, t));
    const char *recv = t->kind == KJ_T_ARRAY || kj_record_of(t) ? "array"
                     : t->kind == KJ_T_COMPLEX ? "complex"
                     : (t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT) && real_part_attr(e->attr.name) ? "complex"
                     : t->kind == KJ_T_LIST ? "list"
                     : t->kind == KJ_T_DICT ? "dict"
                     : t->kind == KJ_T_SET ? "set"
                     : t->kind == KJ_T_STR ? "str"
                     : t->kind == KJ_T_TUPLE ? "tuple"
                     : t->kind == KJ_T_OPAQUE ? t->name : NULL;
    int b = recv ? kj_builtin_lookup(kj_arena_printf(ic->s->a, "%s.%s", recv, e->attr.name)) : -1;
    if (b < 0) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->attr.name_span, "%s has no attribute '%s'",
                               kj_type_str(t), e->attr.name);
        if (kj_t_is_exception(t)) kj_diag_hint(dg, "an exception has args; str(e), repr(e) and type(e) give the rest");
        if (t->kind == KJ_T_ARRAY) {
            const char *h = kj_closest(e->attr.name, ARRAY_ATTRS,
                                       sizeof ARRAY_ATTRS / sizeof *ARRAY_ATTRS);
            if (h) kj_diag_hint(dg, "did you mean '%s'?", h);
        }
        return ei_value(ei, NULL);
    }
    const kj_builtin_info *bi = kj_builtin_get(b);
    if (!(bi->flags & KJ_BF_ATTR)) {
        ei->kind = EI_METHOD;
        ei->builtin = b;
        return ei;
    }
    kj_barg recv_arg = {.type = t, .span = e->attr.obj->span};
    const kj_type *rt = kj_builtin_type(ic->s->types, b, NULL, &recv_arg, 1, e->span, ic->s->src,
                                        ic->d, NULL);
    ei_value(ei, rt);
    ei->builtin = b;
    ei->nonneg = true; /* shape, size, ndim */
    if (b == KJ_B_ARR_NDIM) {
        ei->is_const = true;
        ei->cval.type = kj_t_weak_int(ic->s->types);
        ei->cval.i = kj_type_rank(t);
    }
    return ei;
}

static kj_einfo *type_attr(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    /* A module path (np.random.rand, cuda.threadIdx.x) unless the base is a
     * local variable shadowing the module's name. */
    const kj_expr *base = e;
    if (e->attr.obj->kind == KJ_E_SUBSCRIPT && !strcmp(e->attr.name, "max_cooperative_grid_blocks")) {
        kj_einfo *k = kj_type_expr(ic, e->attr.obj); /* kernel.overloads[sig].max_...: cuda_compile.c */
        if (k->kind == EI_NONE) return ei_value(ei, NULL);
        if (k->kind == EI_FUNC && k->fn->kind == FK_KERNEL) {
            ei->kind = EI_METHOD;
            ei->builtin = KJ_B_KERNEL_MAX_COOP;
            return ei;
        }
    }
    while (base->kind == KJ_E_ATTR) base = base->attr.obj;
    if (base->kind != KJ_E_NAME || !kj_var_of(ic->sp, base)) {
        kj_einfo ref;
        if (kj_static_ref(ic->s, e, &ref, false) || base->kind == KJ_E_NAME) {
            kj_einfo *obj = kj_type_expr(ic, e->attr.obj);
            if (obj->kind == EI_MODULE) {
                kj_static_ref(ic->s, e, ei, true);
                if (ei->kind != EI_BUILTIN) return ei;
                const kj_builtin_info *bi = kj_builtin_get(ei->builtin);
                if (!(bi->flags & KJ_BF_ATTR)) return ei;
                int b = ei->builtin;
                kj_cval cv;
                bool c = kj_const_eval(ic->s, e, &cv);
                const kj_type *t = kj_builtin_type(ic->s->types, b, NULL, NULL, 0, e->span,
                                                   ic->s->src, ic->d, NULL);
                if ((bi->flags & KJ_BF_DEV) && !kj_is_device_ctx(ic->sp)) {
                    kj_error(ic->d, ic->s->src, e->span,
                             "%s can only be used inside a @cuda.jit kernel or device function",
                             bi->path);
                    t = NULL;
                }
                ei_value(ei, t);
                ei->builtin = b;
                ei->is_const = c;
                ei->cval = cv;
                ei->nonneg = !c; /* thread and block indices are never negative */
                return ei;
            }
            if (obj->kind == EI_FUNC && !strcmp(e->attr.name, "py_func")) {
                ei->kind = EI_FUNC;
                ei->fn = kj_py_func(ic->s, obj->fn);
                return ei;
            }
            if (obj->kind == EI_FUNC && (obj->fn->kind == FK_VECTORIZE || obj->fn->kind == FK_GUVECTORIZE) &&
                kj_is_ufunc_attr(e->attr.name))
                return kj_ufunc_attr(ic, e, obj->fn, ei);
            if (obj->kind == EI_FUNC && obj->fn->kind == FK_KERNEL && !strcmp(e->attr.name, "overloads")) {
                ei->kind = EI_FUNC; /* indexed by a signature: cuda_compile.c */
                ei->fn = obj->fn;
                ei->path = "overloads";
                return ei;
            }
            if (obj->kind == EI_FUNC && obj->fn->kind == FK_KERNEL &&
                !strcmp(e->attr.name, "max_cooperative_grid_blocks")) { /* lower_kernel_query.c */
                ei->kind = EI_METHOD;
                ei->builtin = KJ_B_KERNEL_MAX_COOP;
                return ei;
            }
            if (obj->kind == EI_FUNC && obj->fn->kind == FK_KERNEL && !strcmp(e->attr.name, "forall")) {
                ei->kind = EI_FORALL;
                ei->fn = obj->fn;
                return ei;
            }
            if (obj->kind == EI_FUNC && obj->fn->kind == FK_VECTORIZE && !strcmp(e->attr.name, "reduce")) {
                ei->kind = EI_UREDUCE;
                ei->fn = obj->fn;
                return ei;
            }
            if (obj->kind == EI_BUILTIN && kj_static_ref(ic->s, e, ei, true)) return ei; /* List.empty_list */
            if (obj->kind == EI_FUNC && obj->fn->kind == FK_VECTORIZE && kj_ufunc_meth_id(e->attr.name) >= 0) {
                ei->kind = EI_UMETH; /* infer_ufunc_meth.c */
                ei->fn = obj->fn;
                ei->builtin = kj_ufunc_meth_id(e->attr.name);
                return ei;
            }
            if (obj->kind == EI_BUILTIN && kj_np_ufunc_has_methods(obj->builtin) &&
                (kj_ufunc_meth_id(e->attr.name) >= 0 || !strcmp(e->attr.name, "reduce"))) {
                ei->kind = EI_UMETH; /* np.add.reduce etc.: infer_ufunc_meth.c */
                ei->npufunc = obj->builtin;
                ei->builtin = !strcmp(e->attr.name, "reduce") ? KJ_UM_REDUCE : kj_ufunc_meth_id(e->attr.name);
                return ei;
            }
            if (obj->kind != EI_VALUE) {
                if (obj->kind != EI_NONE)
                    kj_error(ic->d, ic->s->src, e->attr.name_span, "%s has no attribute '%s'",
                             what_is(obj), e->attr.name);
                return ei_value(ei, NULL);
            }
            return value_attr(ic, e, obj->type, ei);
        }
    }
    const kj_type *t = kj_value_type(ic, e->attr.obj);
    if (!t) return ei_value(ei, NULL);
    return value_attr(ic, e, t, ei);
}

/* ---- operators ---- */

/* Constant folding is attempted only when the operands already are
 * constants, so that typing stays linear in the size of the expression. */
#define CONST2(a, b) (ic->sp->ei[(a)->id].is_const && ic->sp->ei[(b)->id].is_const)

const kj_type *kj_arith_type(kj_types *T, kj_binop op, const kj_type *p)
{
    if (op == KJ_OP_DIV && (p->kind == KJ_T_INT || p->kind == KJ_T_BOOL))
        return p->weak ? kj_t_weak_float(T) : kj_t_float(T, 64);
    if (p->kind == KJ_T_BOOL && op != KJ_OP_BITAND && op != KJ_OP_BITOR && op != KJ_OP_BITXOR)
        return kj_t_int(T, 64, true); /* True + True == 2, as in Python and Numba */
    return p;
}

/* + - * / ** of complex numbers (Python refuses //, % and the bitwise ones). */
static bool kj_complex_op_ok(kj_binop op)
{
    return op == KJ_OP_ADD || op == KJ_OP_SUB || op == KJ_OP_MUL || op == KJ_OP_DIV || op == KJ_OP_POW;
}

static bool is_bitwise(kj_binop op)
{
    return op == KJ_OP_LSHIFT || op == KJ_OP_RSHIFT || op == KJ_OP_BITAND || op == KJ_OP_BITOR ||
           op == KJ_OP_BITXOR;
}

static const kj_type *bad_operands(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r,
                                   kj_span sp)
{
    if (l && r)
        kj_error(ic->d, ic->s->src, sp, "unsupported operand types for %s: '%s' and '%s'",
                 kj_binop_str(op), kj_type_str(l), kj_type_str(r));
    return NULL;
}

/* Elementwise array arithmetic (host code): NumPy broadcasting. */
static const kj_type *array_binop(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r,
                                  kj_span sp, const kj_type **optype)
{
    if (kj_is_device_ctx(ic->sp)) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, sp,
                               "array expressions are only supported in host code");
        kj_diag_hint(dg, "index the arrays and write a loop, or use a @vectorize ufunc");
        return NULL;
    }
    const kj_type *le = l->kind == KJ_T_ARRAY ? l->elem : l;
    const kj_type *re = r->kind == KJ_T_ARRAY ? r->elem : r;
    if (!kj_is_scalar(le) || !kj_is_scalar(re)) return bad_operands(ic, op, l, r, sp);
    const kj_type *p = kj_promote(ic->s->types, le, re);
    if (!p || (is_bitwise(op) && kj_is_float(p)) || op == KJ_OP_MATMUL || (kj_is_complex(p) && !kj_complex_op_ok(op)))
        return bad_operands(ic, op, l, r, sp);
    /* / and ** of complex arrays run NumPy's loops (llvm_cpxufunc.c) */
    if (p->kind == KJ_T_BOOL) {
        /* NumPy on bool arrays: + * & | ^ stay bool (logical), / is float64,
         * // % ** give int8, and - is an error. */
        if (op == KJ_OP_SUB) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, sp,
                                   "numpy boolean subtract, the '-' operator, is not supported");
            kj_diag_hint(dg, "use the ^ operator or np.logical_xor");
            return NULL;
        }
        p = op == KJ_OP_DIV ? kj_t_float(ic->s->types, 64)
          : (op == KJ_OP_FLOORDIV || op == KJ_OP_MOD || op == KJ_OP_POW) ? kj_t_int(ic->s->types, 8, true)
          : p;
    } else {
        p = kj_strong(ic->s->types, kj_arith_type(ic->s->types, op, p));
    }
    if (optype) *optype = p;
    int nd = l->kind == KJ_T_ARRAY ? l->ndim : 0;
    if (r->kind == KJ_T_ARRAY && r->ndim > nd) nd = r->ndim;
    return kj_t_array(ic->s->types, p, nd, KJ_LAYOUT_C);
}

const kj_type *kj_binop_type(kj_ictx *ic, kj_binop op, const kj_type *l, const kj_type *r,
                             kj_span sp, const kj_type **optype)
{
    if (!l || !r) return NULL;
    if (l->kind == KJ_T_LIST || r->kind == KJ_T_LIST) { /* lst + lst, lst * n: infer_list.c */
        *optype = NULL;
        return kj_list_binop_type(ic, op, l, r, sp);
    }
    if (kj_buffer_operator_error(ic, kj_binop_str(op), l, r, sp)) return NULL; /* infer_bytes.c */
    if (kj_dt_involved(l, r)) return kj_dt_binop_type(ic, op, l, r, sp, optype); /* infer_datetime.c */
    if (kj_str_involved(l, r)) { /* s + t, s * n: infer_str.c */
        *optype = NULL;
        return kj_str_binop_type(ic, op, l, r, sp);
    }
    if (l->kind == KJ_T_TUPLE && r->kind == KJ_T_TUPLE) { /* t1 + t2: infer_tuple.c */
        if (optype) *optype = NULL;
        return kj_tuple_concat_type(ic, op, l, r, sp);
    }
    if (op == KJ_OP_MATMUL) { /* np.matmul (builtins_linalg.c); lowered as its call */
        if (optype) *optype = NULL;
        kj_barg args[2] = {{.type = l, .span = sp}, {.type = r, .span = sp}};
        return kj_linalg_type(ic->s->types, KJ_B_NP_MATMUL, args, 2, sp, ic->s->src, ic->d);
    }
    if (l->kind == KJ_T_ARRAY || r->kind == KJ_T_ARRAY) {
        if ((l->kind != KJ_T_ARRAY && !kj_is_scalar(l)) ||
            (r->kind != KJ_T_ARRAY && !kj_is_scalar(r)))
            return bad_operands(ic, op, l, r, sp);
        return array_binop(ic, op, l, r, sp, optype);
    }
    if (!kj_is_scalar(l) || !kj_is_scalar(r)) return bad_operands(ic, op, l, r, sp);
    const kj_type *p = kj_promote(ic->s->types, l, r);
    if (!p) return bad_operands(ic, op, l, r, sp);
    if (is_bitwise(op) && kj_is_float(p)) return bad_operands(ic, op, l, r, sp);
    if (kj_is_complex(p) && !kj_complex_op_ok(op)) return bad_operands(ic, op, l, r, sp);
    if (optype) *optype = p;
    return kj_arith_type(ic->s->types, op, p);
}

static bool nonneg_binop(kj_binop op, const kj_einfo *l, const kj_einfo *r)
{
    switch (op) {
    case KJ_OP_ADD: case KJ_OP_MUL: case KJ_OP_FLOORDIV: case KJ_OP_RSHIFT: case KJ_OP_BITAND:
        return l->nonneg && r->nonneg;
    case KJ_OP_MOD: return r->nonneg; /* Python's % takes the divisor's sign */
    default: return false;
    }
}

/* NEP 50: a Python int literal in arithmetic takes the other operand's
 * integer type, and NumPy 2 refuses one that type cannot hold
 * (OverflowError) rather than wrapping it: `np.int8(1) + 300`. */
void kj_check_literal_fits(kj_ictx *ic, const kj_expr *x, const kj_type *opt)
{
    const kj_einfo *xi = &ic->sp->ei[x->id];
    if (!opt || !xi->is_const || !xi->cval.type || xi->cval.type->kind != KJ_T_INT || !xi->cval.type->weak) return;
    const kj_type *el = opt->kind == KJ_T_ARRAY ? opt->elem : opt;
    if (el->kind != KJ_T_INT || el->weak) return;
    int64_t v = xi->cval.i;
    bool fits;
    if (el->is_signed) {
        int64_t hi = el->bits >= 64 ? INT64_MAX : (INT64_C(1) << (el->bits - 1)) - 1;
        fits = v <= hi && v >= -hi - 1;
    } else {
        fits = v >= 0 && (el->bits >= 64 || v < (INT64_C(1) << el->bits));
    }
    if (!fits)
        kj_error(ic->d, ic->s->src, x->span, "Python integer %lld out of bounds for %s", (long long)v,
                 kj_type_str(el));
}

static kj_einfo *type_binop(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    const kj_type *l = kj_value_type(ic, e->bin.l);
    const kj_type *r = kj_value_type(ic, e->bin.r);
    const kj_type *opt = NULL;
    const kj_type *t = kj_binop_type(ic, e->bin.op, l, r, e->span, &opt);
    if (t) {
        kj_check_literal_fits(ic, e->bin.l, opt);
        kj_check_literal_fits(ic, e->bin.r, opt);
    }
    /* ei may have been cleared by typing the operands? No: they write their own ids. */
    ei_value(ei, t);
    ei->optype = opt;
    kj_cval cv;
    if (t && CONST2(e->bin.l, e->bin.r) && kj_const_eval(ic->s, e, &cv)) {
        ei->is_const = true;
        ei->cval = cv;
        ei->nonneg = cv.type->kind == KJ_T_INT && cv.i >= 0;
    } else if (t && kj_is_int(t)) {
        ei->nonneg = nonneg_binop(e->bin.op, &ic->sp->ei[e->bin.l->id], &ic->sp->ei[e->bin.r->id]);
    }
    return ei;
}

const kj_type *kj_unary_type(kj_ictx *ic, kj_unop op, const kj_type *x, kj_span sp)
{
    kj_types *T = ic->s->types;
    const kj_type *t = NULL;
    const kj_type *el = x->kind == KJ_T_ARRAY ? x->elem : x;
    if (kj_is_dt(x)) return kj_dt_unary_type(ic, op, x, sp); /* infer_datetime.c */
    if (!kj_is_scalar(el) || (x->kind == KJ_T_ARRAY && kj_is_device_ctx(ic->sp))) {
        kj_error(ic->d, ic->s->src, sp, "bad operand type for unary %s: '%s'", kj_unop_str(op), kj_type_str(x));
        return NULL;
    }
    switch (op) {
    case KJ_UOP_NOT:
        if (x->kind == KJ_T_ARRAY) {
            kj_diag *dg = kj_error(ic->d, ic->s->src, sp, "the truth value of an array is ambiguous");
            kj_diag_hint(dg, "use np.logical_not in NumPy; in kjit, write a loop");
            return NULL;
        }
        t = kj_t_bool(T);
        break;
    case KJ_UOP_NEG: case KJ_UOP_POS:
        t = el->kind == KJ_T_BOOL ? kj_t_int(T, 64, true) : el;
        break;
    case KJ_UOP_INVERT:
        if (kj_is_float(el) || kj_is_complex(el)) {
            kj_error(ic->d, ic->s->src, sp, "bad operand type for unary ~: '%s'", kj_type_str(x));
            return NULL;
        }
        t = el;
        break;
    case KJ_UOP__COUNT: break;
    }
    if (x->kind == KJ_T_ARRAY) t = kj_t_array(T, kj_strong(T, t), x->ndim, KJ_LAYOUT_C);
    return t;
}

static kj_einfo *type_unary(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    const kj_type *x = kj_value_type(ic, e->un.x);
    if (!x) return ei_value(ei, NULL);
    const kj_type *t = kj_unary_type(ic, e->un.op, x, e->span);
    if (!t) return ei_value(ei, NULL);
    ei_value(ei, t);
    kj_cval cv;
    if (ic->sp->ei[e->un.x->id].is_const && kj_const_eval(ic->s, e, &cv)) {
        ei->is_const = true;
        ei->cval = cv;
        ei->nonneg = cv.type->kind == KJ_T_INT && cv.i >= 0;
    } else {
        ei->nonneg = e->un.op == KJ_UOP_POS && ic->sp->ei[e->un.x->id].nonneg;
    }
    return ei;
}

/* A condition (if, while, and/or, not, assert): any scalar is truthy. */
static bool check_truthy(kj_ictx *ic, const kj_expr *e, const kj_type *t)
{
    if (!t) return false;
    if (kj_is_scalar(t)) return true;
    if (t->kind == KJ_T_ARRAY)
        kj_error(ic->d, ic->s->src, e->span,
                 "the truth value of an array is ambiguous; use a.any() or a.all() in NumPy, "
                 "or a loop in kjit");
    else
        kj_error(ic->d, ic->s->src, e->span, "a condition must be a number or bool, not %s",
                 kj_type_str(t));
    return false;
}

const kj_type *kj_cond_type(kj_ictx *ic, const kj_expr *e)
{
    const kj_type *t = kj_value_type(ic, e);
    if (t && kj_opt_cond_error(ic, e)) return NULL; /* infer_optional.c */
    return check_truthy(ic, e, t) ? t : NULL;
}

const kj_type *kj_compare_type(kj_ictx *ic, const kj_expr *e, kj_cmpop op, const kj_type *l, const kj_type *r,
                               const kj_type **optype)
{
    kj_types *T = ic->s->types;
    if ((op == KJ_CMP_IN || op == KJ_CMP_NOTIN) && r->kind == KJ_T_LIST && r->elem && kj_is_scalar(r->elem) &&
        kj_is_scalar(l)) { /* x in lst: lower_list.c */
        *optype = kj_strong(T, kj_promote(T, l, r->elem));
        return kj_t_bool(T);
    }
    if ((op == KJ_CMP_IN || op == KJ_CMP_NOTIN) && (r->kind == KJ_T_DICT || r->kind == KJ_T_SET) && r->elem &&
        kj_can_convert(l, r->elem)) { /* k in d, x in s: lower_dict.c */
        *optype = r->elem;
        return kj_t_bool(T);
    }
    if (kj_buffer_operator_error(ic, kj_cmpop_str(op), l, r, e->span)) return NULL; /* infer_bytes.c */
    if (kj_dt_involved(l, r)) { /* infer_datetime.c */
        *optype = NULL;
        return kj_dt_compare_type(ic, op, l, r, e->span);
    }
    if (kj_str_involved(l, r) && !(l->kind == KJ_T_NONE || r->kind == KJ_T_NONE)) { /* infer_str.c */
        *optype = NULL;
        return kj_str_compare_type(ic, e, op, l, r);
    }
    if ((op == KJ_CMP_IN || op == KJ_CMP_NOTIN) && r->kind == KJ_T_RANGE) { /* x in r: infer_range.c */
        *optype = NULL;
        return kj_range_in_type(ic, e, l);
    }
    if ((op == KJ_CMP_IN || op == KJ_CMP_NOTIN) && r->kind == KJ_T_ARRAY) { /* x in a: infer_npshape.c */
        *optype = NULL;
        return kj_array_in_type(ic, e, l, r);
    }
    if (op == KJ_CMP_IN || op == KJ_CMP_NOTIN) {
        kj_error(ic->d, ic->s->src, e->span, "the '%s' operator is not supported",
                 kj_cmpop_str(op));
        return NULL;
    }
    if (l->kind == KJ_T_LIST && r->kind == KJ_T_LIST) return kj_list_compare_type(ic, e, op, l, r, optype);
    if (l->kind == KJ_T_TUPLE && r->kind == KJ_T_TUPLE) { /* infer_tuple.c */
        *optype = NULL;
        return kj_tuple_compare_type(ic, e, op, l, r);
    }
    if (op == KJ_CMP_IS || op == KJ_CMP_ISNOT) {
        if (l->kind != KJ_T_NONE && r->kind != KJ_T_NONE) {
            kj_error(ic->d, ic->s->src, e->span,
                     "'%s' is only supported with None; use == to compare values",
                     kj_cmpop_str(op));
            return NULL;
        }
        *optype = NULL;
        return kj_t_bool(T);
    }
    if (l->kind == KJ_T_ARRAY || r->kind == KJ_T_ARRAY) {
        /* the shape only; + (not -) so that bool arrays compare, as in NumPy */
        const kj_type *a = array_binop(ic, KJ_OP_ADD, l, r, e->span, optype);
        if (!a) return NULL;
        const kj_type *le = l->kind == KJ_T_ARRAY ? l->elem : l;
        const kj_type *re = r->kind == KJ_T_ARRAY ? r->elem : r;
        *optype = kj_strong(T, kj_promote(T, le, re));
        return kj_t_array(T, kj_t_bool(T), a->ndim, KJ_LAYOUT_C);
    }
    if (!kj_is_scalar(l) || !kj_is_scalar(r)) {
        kj_error(ic->d, ic->s->src, e->span, "cannot compare '%s' and '%s' with %s",
                 kj_type_str(l), kj_type_str(r), kj_cmpop_str(op));
        return NULL;
    }
    *optype = kj_promote(T, l, r);
    if (kj_is_complex(*optype) && op != KJ_CMP_EQ && op != KJ_CMP_NE) {
        /* Python's TypeError: complex numbers have no order */
        kj_error(ic->d, ic->s->src, e->span, "'%s' not supported between instances of '%s' and '%s'",
                 kj_cmpop_str(op), kj_type_str(l), kj_type_str(r));
        return NULL;
    }
    return kj_t_bool(T);
}

static kj_einfo *type_compare(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    if (kj_exc_compare(ic, e, ei)) return ei; /* type(e) is ValueError: infer_exc.c */
    if (kj_type_is_compare(ic, e, ei)) return ei; /* type(x) is C: infer_pybuiltin.c */
    const kj_type *res = kj_t_bool(ic->s->types);
    const kj_type *prev = kj_value_type(ic, e->cmp.operands[0]);
    bool ok = prev != NULL;
    const kj_type *first_opt = NULL;
    for (uint32_t i = 1; i < e->cmp.n; i++) {
        const kj_type *cur = kj_value_type(ic, e->cmp.operands[i]);
        if (!prev || !cur) { ok = false; prev = cur; continue; }
        if (kj_opt_compare(ic, e, ei)) return ei; /* x is None of an Optional x: infer_optional.c */
        const kj_type *opt = NULL;
        const kj_type *t = kj_compare_type(ic, e, e->cmp.ops[i - 1], prev, cur, &opt);
        if (!t) ok = false;
        else if (t->kind == KJ_T_ARRAY) {
            if (e->cmp.n > 2) {
                kj_error(ic->d, ic->s->src, e->span, "chained comparisons of arrays are ambiguous");
                ok = false;
            }
            res = t;
        }
        if (i == 1) first_opt = opt;
        prev = cur;
    }
    ei_value(ei, ok ? res : NULL);
    ei->optype = first_opt; /* per-pair types are recomputed by lowering */
    if (ok && e->cmp.n == 2 && (e->cmp.ops[0] == KJ_CMP_IS || e->cmp.ops[0] == KJ_CMP_ISNOT)) {
        /* `x is None`: known from x's type (a value of type none is None, no other value is) */
        bool same = kj_value_type(ic, e->cmp.operands[0])->kind == KJ_T_NONE &&
                    kj_value_type(ic, e->cmp.operands[1])->kind == KJ_T_NONE;
        ei->is_const = true;
        ei->cval.type = res;
        ei->cval.i = e->cmp.ops[0] == KJ_CMP_IS ? same : !same;
        return ei;
    }
    kj_cval cv;
    bool all_const = true;
    for (uint32_t i = 0; i < e->cmp.n; i++) all_const = all_const && ic->sp->ei[e->cmp.operands[i]->id].is_const;
    if (ok && all_const && kj_const_eval(ic->s, e, &cv)) {
        ei->is_const = true;
        ei->cval = cv;
    }
    return ei;
}

static kj_einfo *type_boolop(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    const kj_type *l = kj_cond_type(ic, e->boolop.l);
    const kj_type *r = kj_cond_type(ic, e->boolop.r);
    if (!l || !r) return ei_value(ei, NULL);
    /* Python's `a or b` yields an operand; both must share a type. */
    const kj_type *t = kj_unify(ic->s->types, l, r);
    if (!t) {
        kj_error(ic->d, ic->s->src, e->span, "operands of '%s' have incompatible types %s and %s",
                 e->boolop.op == KJ_BOOL_AND ? "and" : "or", kj_type_str(l), kj_type_str(r));
        return ei_value(ei, NULL);
    }
    ei_value(ei, t);
    kj_cval cv;
    if (CONST2(e->boolop.l, e->boolop.r) && kj_const_eval(ic->s, e, &cv)) {
        ei->is_const = true;
        ei->cval = cv;
    }
    return ei;
}

static kj_einfo *type_ifexp(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    kj_cond_type(ic, e->ifexp.cond);
    const kj_type *a = kj_value_type(ic, e->ifexp.then);
    const kj_type *b = kj_value_type(ic, e->ifexp.els);
    /* While the walks settle, a branch whose type is not known yet (a
     * recursive call before its return type is: `1 if n < 2 else n *
     * f(n - 1)`) takes the other's; the reporting walk has both. */
    if (!ic->report && (!a || !b)) return ei_value(ei, a ? a : b);
    if (!a || !b) return ei_value(ei, NULL);
    const kj_type *t = kj_unify_opt(ic->s->types, kj_ei_raw(&ic->sp->ei[e->ifexp.then->id]),
                                    kj_ei_raw(&ic->sp->ei[e->ifexp.els->id])); /* x if c else None */
    if (!t)
        kj_error(ic->d, ic->s->src, e->span,
                 "the branches of a conditional expression have incompatible types %s and %s",
                 kj_type_str(a), kj_type_str(b));
    ei_value(ei, t);
    ei->nonneg = ic->sp->ei[e->ifexp.then->id].nonneg && ic->sp->ei[e->ifexp.els->id].nonneg;
    return ei;
}

/* ---- tuples, lists, subscripts ---- */

static kj_einfo *type_tuple(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    uint32_t n = e->seq.n;
    const kj_type **el = KJ_NEWN(ic->s->a, const kj_type *, n ? n : 1);
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        el[i] = kj_value_type_raw(ic, e->seq.v[i]); /* an Optional element stays one */
        ok = ok && el[i];
    }
    if (!ok) return ei_value(ei, NULL);
    ei_value(ei, kj_t_tuple(ic->s->types, el, n));
    kj_cval cv;
    bool all_const = true;
    for (uint32_t i = 0; i < n; i++) all_const = all_const && ic->sp->ei[e->seq.v[i]->id].is_const;
    if (all_const && kj_const_eval(ic->s, e, &cv)) {
        ei->is_const = true;
        ei->cval = cv;
    }
    return ei;
}

static bool index_ok(kj_ictx *ic, const kj_expr *ix, const kj_type *t)
{
    if (!t) return false;
    if (t->kind == KJ_T_INT) return true;
    if (t->kind == KJ_T_NONE)
        kj_error(ic->d, ic->s->src, ix->span, "None (np.newaxis) in a subscript is not supported");
    else
        kj_error(ic->d, ic->s->src, ix->span, "array index must be an integer, not %s", kj_type_str(t));
    return false;
}

static bool type_slice_part(kj_ictx *ic, const kj_expr *p)
{
    if (!p) return true;
    const kj_type *t = kj_value_type(ic, p);
    if (!t) return false;
    if (t->kind == KJ_T_INT || t->kind == KJ_T_NONE) return true;
    kj_error(ic->d, ic->s->src, p->span, "slice indices must be integers or None, not %s",
             kj_type_str(t));
    return false;
}

/* A slice inside a subscript: its parts are integers or None. */
bool kj_type_slice_item(kj_ictx *ic, const kj_expr *it)
{
    kj_einfo *si = &ic->sp->ei[it->id];
    memset(si, 0, sizeof *si);
    bool ok = type_slice_part(ic, it->slice.lo) && type_slice_part(ic, it->slice.hi) &&
              type_slice_part(ic, it->slice.step);
    si->kind = EI_VALUE;
    si->type = kj_t_opaque(ic->s->types, "slice");
    return ok;
}

/* a[i, j:k, ...]: integers pick, slices keep a dimension; with an index
 * array among the indices, NumPy's advanced indexing (infer_index.c). */
static kj_einfo *array_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *at, kj_einfo *ei)
{
    const kj_expr *ix = e->sub.index;
    const kj_expr *const *items = &ix;
    uint32_t n = 1;
    if (ix->kind == KJ_E_TUPLE) {
        items = (const kj_expr *const *)ix->seq.v;
        n = ix->seq.n;
    }
    /* the indices other than slices, typed once */
    const kj_type **types = KJ_NEWN(ic->s->a, const kj_type *, n ? n : 1);
    bool arrays = false, typed = true;
    for (uint32_t i = 0; i < n; i++) {
        if (items[i]->kind == KJ_E_SLICE) continue;
        types[i] = kj_value_type(ic, items[i]);
        typed = typed && types[i];
        arrays = arrays || (types[i] && types[i]->kind == KJ_T_ARRAY);
    }
    if (arrays) {
        if (!typed) return ei_value(ei, NULL);
        return kj_type_index_arrays(ic, e, at, items, types, n, ei);
    }
    if (n > at->ndim) {
        kj_error(ic->d, ic->s->src, ix->span,
                 "too many indices for array: array is %u-dimensional, but %u were indexed",
                 at->ndim, n);
        return ei_value(ei, NULL);
    }
    uint32_t nint = 0;
    bool ok = true, sliced = false, keeps_c = at->layout == KJ_LAYOUT_C;
    for (uint32_t i = 0; i < n; i++) {
        const kj_expr *it = items[i];
        if (it->kind == KJ_E_SLICE) {
            ok = kj_type_slice_item(ic, it) && ok;
            bool full = !it->slice.lo && !it->slice.hi && !it->slice.step;
            /* A C array stays C when at most the first sliced dimension is
             * narrowed with unit step and the rest are taken whole. */
            if ((sliced && !full) || it->slice.step) keeps_c = false;
            sliced = true;
            continue;
        }
        ok = index_ok(ic, it, types[i]) && ok;
        if (sliced) keeps_c = false;
        nint++;
    }
    if (!ok) return ei_value(ei, NULL);
    uint32_t nd = at->ndim - nint;
    if (nd == 0) return ei_value(ei, at->elem);
    kj_layout lay = keeps_c ? KJ_LAYOUT_C : KJ_LAYOUT_A;
    return ei_value(ei, kj_t_array(ic->s->types, at->elem, (int)nd, lay));
}

/* t[i] with i known only when the program runs: Numba's getitem(UniTuple,
 * intp) (lower_tuple.c); Numba has no getitem for a heterogeneous tuple and
 * a run-time index, nor for the empty tuple. */
static kj_einfo *tuple_runtime_index(kj_ictx *ic, const kj_expr *e, const kj_type *tt, const kj_einfo *ix,
                                     kj_einfo *ei)
{
    if (!ix->type || ix->type->kind != KJ_T_INT) {
        kj_error(ic->d, ic->s->src, e->sub.index->span, "a tuple index must be an integer, not %s",
                 kj_type_str(ix->type));
        return ei_value(ei, NULL);
    }
    const kj_type *et = tt->n ? kj_strong(ic->s->types, tt->elems[0]) : NULL;
    for (uint32_t k = 1; k < tt->n && et; k++)
        if (kj_strong(ic->s->types, tt->elems[k]) != et) et = NULL;
    if (!et) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->sub.index->span,
                               "no getitem(%s, %s) as in Numba: a tuple whose elements differ in type "
                               "(or an empty one) needs a constant index",
                               kj_type_str(kj_strong(ic->s->types, tt)),
                               kj_type_str(kj_strong(ic->s->types, ix->type)));
        kj_diag_hint(dg, "index it with a constant (t[0]), or make its elements one type");
        return ei_value(ei, NULL);
    }
    ei_value(ei, et);
    ei->nonneg = ic->sp->ei[e->sub.obj->id].nonneg;
    return ei;
}

static kj_einfo *tuple_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *tt, kj_einfo *ei)
{
    if (e->sub.index->kind == KJ_E_SLICE) return kj_tuple_slice_type(ic, e, tt, ei); /* infer_tuple.c */
    kj_einfo *ix = kj_type_expr(ic, e->sub.index);
    if (ix->kind != EI_VALUE) return ei_value(ei, NULL);
    if (!ix->is_const) return tuple_runtime_index(ic, e, tt, ix, ei);
    if (ix->cval.type->kind != KJ_T_INT) {
        kj_error(ic->d, ic->s->src, e->sub.index->span, "a tuple index must be an integer");
        return ei_value(ei, NULL);
    }
    int64_t i = ix->cval.i;
    if (i < 0) i += tt->n;
    if (i < 0 || i >= (int64_t)tt->n) {
        kj_error(ic->d, ic->s->src, e->sub.index->span,
                 "tuple index %lld out of range for a tuple of %u elements",
                 (long long)ix->cval.i, tt->n);
        return ei_value(ei, NULL);
    }
    ei_value(ei, tt->elems[i]);
    kj_einfo *obj = &ic->sp->ei[e->sub.obj->id];
    if (obj->is_const && obj->cval.elems) {
        ei->is_const = true;
        ei->cval = obj->cval.elems[i];
    }
    ei->nonneg = ei->is_const ? (ei->cval.type->kind == KJ_T_INT && ei->cval.i >= 0)
                              : obj->nonneg;
    return ei;
}

static kj_einfo *type_subscript(kj_ictx *ic, const kj_expr *e, kj_einfo *ei)
{
    kj_einfo *obj = kj_type_expr(ic, e->sub.obj);
    if (obj->kind == EI_FUNC && obj->path && !strcmp(obj->path, "overloads"))
        return kj_type_kernel_overload(ic, e, obj->fn, ei); /* cuda_compile.c */
    if (obj->kind == EI_FUNC) return kj_type_launch_config(ic, e, obj->fn);
    if (obj->kind == EI_NONE) return ei_value(ei, NULL);
    if (obj->kind == EI_DTYPE) { /* float32[:]: an array type, for signatures only */
        ei->kind = EI_TYPEOBJ;
        return ei;
    }
    if (obj->kind != EI_VALUE) {
        kj_error(ic->d, ic->s->src, e->span, "%s is not subscriptable", what_is(obj));
        return ei_value(ei, NULL);
    }
    const kj_type *t = obj->type;
    if (t->kind == KJ_T_ARRAY && kj_buffer_kind(t)) return kj_type_buffer_subscript(ic, e, t, array_subscript(ic, e, t, ei)); /* infer_bytes.c */
    if (kj_record_of(t) || (t->kind == KJ_T_ARRAY && kj_record_of(t->elem))) { /* r['x'], a['x']: infer_record.c */
        kj_einfo *r = kj_type_record_subscript(ic, e, t, ei);
        if (r) return r;
    }
    if (t->kind == KJ_T_ARRAY) return array_subscript(ic, e, t, ei);
    if (kj_npshape_wrapper(t) == KJ_NPW_FLAT) return kj_type_flat_subscript(ic, e, t, ei); /* infer_npshape.c */
    if (kj_lsd_class(t)) return kj_type_lsd_subscript(ic, e, t, ei); /* infer_lsd.c */
    if (t->kind == KJ_T_TUPLE) return tuple_subscript(ic, e, t, ei);
    if (t->kind == KJ_T_LIST) return kj_type_list_subscript(ic, e, t, ei); /* infer_list.c */
    if (t->kind == KJ_T_DICT || t->kind == KJ_T_SET) return kj_type_dict_subscript(ic, e, t, ei); /* infer_dict.c */
    if (t->kind == KJ_T_OPAQUE && !strcmp(t->name, "gpus")) return ei_value(ei, kj_type_gpus_item(ic, e)); /* cuda.gpus[i] */
    if (t->kind == KJ_T_STR) return kj_type_str_subscript(ic, e, ei);       /* infer_str.c */
    if (t->kind == KJ_T_RANGE) return kj_type_range_subscript(ic, e, t, ei); /* infer_range.c */
    kj_error(ic->d, ic->s->src, e->span, "'%s' is not subscriptable", kj_type_str(t));
    return ei_value(ei, NULL);
}

/* ---- dispatch ---- */

static kj_einfo *type_expr(kj_ictx *ic, const kj_expr *e);

kj_einfo *kj_type_expr(kj_ictx *ic, const kj_expr *e)
{
    return kj_opt_unwrap(type_expr(ic, e)); /* an Optional reads as its type where used: infer_optional.c */
}

static kj_einfo *type_expr(kj_ictx *ic, const kj_expr *e)
{
    kj_types *T = ic->s->types;
    kj_einfo *ei = ei_reset(ic, e);
    switch (e->kind) {
    case KJ_E_INT:
        if (e->int_.big) {
            kj_error(ic->d, ic->s->src, e->span, "integer literal is too large");
            return ei_value(ei, NULL);
        }
        if (e->int_.value > INT64_MAX) { /* as NumPy: too big for int64 → uint64 */
            ei_value(ei, kj_t_int(T, 64, false));
            ei->is_const = true;
            ei->cval.type = ei->type;
            ei->cval.i = (int64_t)e->int_.value; /* the bits */
            ei->nonneg = true;
            return ei;
        }
        ei_value(ei, kj_t_weak_int(T));
        ei->is_const = true;
        ei->cval.type = ei->type;
        ei->cval.i = (int64_t)e->int_.value;
        ei->nonneg = true;
        return ei;
    case KJ_E_FLOAT:
        ei_value(ei, kj_t_weak_float(T));
        ei->is_const = true;
        ei->cval.type = ei->type;
        ei->cval.f = e->float_;
        return ei;
    case KJ_E_IMAG: /* 2j: complex128, as in Numba (not a folded constant) */
        return ei_value(ei, kj_t_complex(T, 128));
    case KJ_E_BOOL:
        ei_value(ei, kj_t_bool(T));
        ei->is_const = true;
        ei->cval.type = ei->type;
        ei->cval.i = e->bool_;
        ei->nonneg = true;
        return ei;
    case KJ_E_STR:
        if (e->str.bytes) return kj_type_bytes_literal(ic, e, ei); /* b'...': infer_bytes.c */
        ei_value(ei, kj_t_str(T));
        ei->is_const = true;
        ei->cval.type = ei->type;
        ei->cval.s = e->str.s;
        return ei;
    case KJ_E_NONE:
        ei_value(ei, kj_t_none(T));
        ei->is_const = true;
        ei->cval.type = ei->type;
        return ei;
    case KJ_E_NAME: return type_name(ic, e, ei);
    case KJ_E_ATTR: return type_attr(ic, e, ei);
    case KJ_E_CALL: return kj_type_call(ic, e);
    case KJ_E_SUBSCRIPT: return type_subscript(ic, e, ei);
    case KJ_E_SLICE:
        kj_error(ic->d, ic->s->src, e->span, "a slice is only allowed inside an array subscript");
        return ei_value(ei, NULL);
    case KJ_E_TUPLE: return type_tuple(ic, e, ei);
    case KJ_E_LIST: return kj_type_list_literal(ic, e, ei); /* infer_list.c */
    case KJ_E_DICT: case KJ_E_SET: return kj_type_dict_literal(ic, e, ei); /* infer_dict.c */
    case KJ_E_BINOP: return type_binop(ic, e, ei);
    case KJ_E_UNARY: return type_unary(ic, e, ei);
    case KJ_E_BOOLOP: return type_boolop(ic, e, ei);
    case KJ_E_COMPARE: return type_compare(ic, e, ei);
    case KJ_E_IFEXP: return type_ifexp(ic, e, ei);
    case KJ_E__COUNT: break;
    }
    return ei_value(ei, NULL);
}
