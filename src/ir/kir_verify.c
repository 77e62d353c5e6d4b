/* SPDX-License-Identifier: BSD-2-Clause */
/* The KIR verifier: structural and type invariants of one function.
 *
 * The walk follows the structured control flow from block 0. An instruction
 * becomes visible once it has been checked, and stops being visible when its
 * block ends, which is exactly the scoping rule of kir.h: a value may be used
 * after its definition in the same block or in any block nested below it.
 * The first problem found is reported, naming the instruction:
 *   %12: add operands int32 and int64 differ */
#include "kir.h"

#include "builtins.h"

#include <stdarg.h>

enum { UNSEEN, VISIBLE, ENDED }; /* per instruction, as the walk goes */

typedef struct vctx {
    kj_arena *a;
    const kir_func *f;
    uint8_t *state;  /* ninsts */
    uint8_t *owned;  /* nblocks: entered once by its owner */
    uint32_t loops;  /* enclosing LOOP/FOR/PFOR count */
    const char *err; /* the first problem */
} vctx;

static bool fail(vctx *v, kir_ref r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Record the first problem, as "%r: message" (no prefix for r == 0). */
static bool fail(vctx *v, kir_ref r, const char *fmt, ...)
{
    if (v->err) return false;
    va_list ap;
    va_start(ap, fmt);
    const char *msg = kj_arena_vprintf(v->a, fmt, ap);
    va_end(ap);
    v->err = r ? kj_arena_printf(v->a, "%%%u: %s", r, msg) : msg;
    return false;
}

static const kir_inst *at(const vctx *v, kir_ref r) { return &v->f->insts[r]; }
static const char *name(const kir_inst *in) { return kir_op_name((kir_op)in->op); }
static const char *ts(const kj_type *t) { return kj_type_str(t); }

static bool is_void(const kj_type *t) { return !t || t->kind == KJ_T_NONE; }
static bool is_bool(const kj_type *t) { return t && t->kind == KJ_T_BOOL; }
static bool is_int(const kj_type *t) { return t && t->kind == KJ_T_INT; }
static bool is_int64(const kj_type *t) { return is_int(t) && t->bits == 64 && t->is_signed; }
static bool is_scalar(const kj_type *t)
{
    return t && (t->kind == KJ_T_BOOL || t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT || t->kind == KJ_T_COMPLEX);
}

/* Statements produce no value and may never be operands. */
static bool is_stmt_op(kir_op op)
{
    switch (op) {
    case KIR_NOP: case KIR_LOCAL_SET: case KIR_ARRAY_STORE: case KIR_BOUNDS_CHECK: case KIR_MODULE_SET:
    case KIR_ASSERT: case KIR_RETURN: case KIR_BREAK: case KIR_CONTINUE:
    case KIR_IF: case KIR_LOOP: case KIR_FOR: case KIR_PFOR: case KIR_TRY_END: case KIR_RERAISE: case KIR_YIELD:
        return true;
    default:
        return false;
    }
}

/* An operand `r` of instruction `user`: defined, visible and a value.
 * Returns its type, or NULL after reporting. */
static const kj_type *use(vctx *v, kir_ref user, kir_ref r)
{
    const char *op = name(at(v, user));
    if (r == 0) return fail(v, user, "%s is missing an operand", op), NULL;
    if (r >= v->f->ninsts)
        return fail(v, user, "%s operand %%%u does not exist", op, r), NULL;
    if (v->state[r] == UNSEEN)
        return fail(v, user, "%s operand %%%u is used before it is defined", op, r), NULL;
    if (v->state[r] == ENDED)
        return fail(v, user, "%s operand %%%u is not visible here (its block has ended)", op, r),
               NULL;
    if (is_stmt_op((kir_op)at(v, r)->op))
        return fail(v, user, "%s operand %%%u is a %s statement, not a value", op, r,
                    name(at(v, r))),
               NULL;
    return at(v, r)->type;
}

/* An operand that may be absent (0). */
static bool use_opt(vctx *v, kir_ref user, kir_ref r) { return r == 0 || use(v, user, r); }

/* An operand that must be of type `want`. */
static bool use_typed(vctx *v, kir_ref user, kir_ref r, const kj_type *want, const char *what)
{
    const kj_type *t = use(v, user, r);
    if (!t) return false;
    if (t != want)
        return fail(v, user, "%s %s is %s, expected %s", name(at(v, user)), what, ts(t), ts(want));
    return true;
}

static bool use_bool(vctx *v, kir_ref user, kir_ref r, const char *what)
{
    const kj_type *t = use(v, user, r);
    if (!t) return false;
    if (!is_bool(t)) return fail(v, user, "%s %s is %s, expected bool", name(at(v, user)), what, ts(t));
    return true;
}

static bool use_int64(vctx *v, kir_ref user, kir_ref r, const char *what)
{
    const kj_type *t = use(v, user, r);
    if (!t) return false;
    if (!is_int64(t)) return fail(v, user, "%s %s is %s, expected int64", name(at(v, user)), what, ts(t));
    return true;
}

/* Every argument in in->args is absent or a visible value. */
static bool use_args(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    if (in->nargs && !in->args) return fail(v, r, "%s has %u arguments but no list", name(in), in->nargs);
    for (uint32_t k = 0; k < in->nargs; k++)
        if (!use_opt(v, r, in->args[k])) return false;
    return true;
}

/* CONST_INT / CONST_FLOAT / CONST_STR / CONST_NONE / PARAM / LOCAL_GET / LOCAL_SET */
static bool check_leaf(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    const kir_func *f = v->f;
    switch ((kir_op)in->op) {
    case KIR_CONST_INT:
        if (!is_int(in->type) && !is_bool(in->type))
            return fail(v, r, "integer constant has type %s", ts(in->type));
        return true;
    case KIR_CONST_FLOAT:
        if (in->type->kind != KJ_T_FLOAT) return fail(v, r, "float constant has type %s", ts(in->type));
        return true;
    case KIR_CONST_STR:
        if (in->type->kind != KJ_T_STR) return fail(v, r, "string constant has type %s", ts(in->type));
        if (!in->s) return fail(v, r, "string constant has no text");
        return true;
    case KIR_CONST_NONE:
        /* A dtype passed as an argument (np.zeros(n, dtype=np.float32)) is a
         * none constant whose type carries the dtype; a function passed or
         * stored (apply(add, x)) likewise. */
        if (in->type->kind != KJ_T_NONE && in->type->kind != KJ_T_DTYPE && in->type->kind != KJ_T_FUNC &&
            in->type->kind != KJ_T_OPTIONAL) /* the None of an Optional (lower_optional.c) */
            return fail(v, r, "none constant has type %s", ts(in->type));
        return true;
    case KIR_CONST_ARRAY:
        if (in->type->kind != KJ_T_ARRAY || !in->frozen)
            return fail(v, r, "frozen array constant has type %s", ts(in->type));
        return true;
    case KIR_MODULE_GET: case KIR_MODULE_SET:
        if (!in->frozen || !in->frozen->slot) return fail(v, r, "module slot without its name");
        if (in->op == KIR_MODULE_SET && !use(v, r, in->a)) return false;
        return true;
    case KIR_PARAM:
        if (in->i < 0 || in->i >= f->nparams)
            return fail(v, r, "param %lld out of range (function has %u)", (long long)in->i, f->nparams);
        if (in->type != f->params[in->i])
            return fail(v, r, "param %lld has type %s, declared %s", (long long)in->i, ts(in->type),
                        ts(f->params[in->i]));
        return true;
    default: /* LOCAL_GET, LOCAL_SET */
        if (in->i < 0 || in->i >= f->nlocals)
            return fail(v, r, "%s of local %lld out of range (function has %u)", name(in),
                        (long long)in->i, f->nlocals);
        if (in->op == KIR_LOCAL_GET) {
            if (in->type != f->locals[in->i].type)
                return fail(v, r, "get has type %s, local is %s", ts(in->type), ts(f->locals[in->i].type));
            return true;
        }
        return use_typed(v, r, in->a, f->locals[in->i].type, "value");
    }
}

/* Host array arithmetic (elementwise, NumPy broadcasting): the result is an
 * array; each operand is an array of at most its ndim (the element type
 * converts on the fly) or a scalar of the element type (`scalar_elem`, or
 * any scalar when NULL: comparisons take the promoted operand type). */
static bool check_elementwise(vctx *v, kir_ref r, const kj_type *ta, const kj_type *tb,
                              const kj_type *scalar_elem)
{
    const kir_inst *in = at(v, r);
    const kj_type *res = in->type;
    if (res->kind != KJ_T_ARRAY)
        return fail(v, r, "%s of arrays has type %s, expected an array", name(in), ts(res));
    const kj_type *ops[2] = {ta, tb};
    for (int i = 0; i < 2 && ops[i]; i++) {
        const kj_type *t = ops[i];
        if (t->kind == KJ_T_ARRAY ? t->ndim > res->ndim
                                  : !is_scalar(t) || (scalar_elem && t != scalar_elem))
            return fail(v, r, "%s operand %s does not fit result %s", name(in), ts(t), ts(res));
    }
    return true;
}

/* ADD .. SHR: both operands of the result type; per-kind limits on scalars. */
static bool check_arith(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    const kj_type *ta = use(v, r, in->a), *tb = ta ? use(v, r, in->b) : NULL;
    if (!ta || !tb) return false;
    if (ta->kind == KJ_T_ARRAY || tb->kind == KJ_T_ARRAY)
        return check_elementwise(v, r, ta, tb, in->type->kind == KJ_T_ARRAY ? in->type->elem : NULL);
    if (ta != tb) return fail(v, r, "%s operands %s and %s differ", name(in), ts(ta), ts(tb));
    if (ta != in->type)
        return fail(v, r, "%s operands are %s but the result is %s", name(in), ts(ta), ts(in->type));
    if (!is_scalar(in->type)) return true; /* host array arithmetic */
    kj_type_kind k = in->type->kind;
    if (k == KJ_T_COMPLEX && in->op != KIR_ADD && in->op != KIR_SUB && in->op != KIR_MUL && in->op != KIR_DIV &&
        in->op != KIR_POW)
        return fail(v, r, "%s on %s", name(in), ts(in->type));
    switch ((kir_op)in->op) {
    case KIR_DIV:
        if (k != KJ_T_FLOAT && k != KJ_T_COMPLEX) return fail(v, r, "div on %s (true division is float)", ts(in->type));
        break;
    case KIR_AND: case KIR_OR: case KIR_XOR:
        if (k == KJ_T_FLOAT) return fail(v, r, "%s on %s", name(in), ts(in->type));
        break;
    case KIR_SHL: case KIR_SHR:
        if (k != KJ_T_INT) return fail(v, r, "%s on %s", name(in), ts(in->type));
        break;
    default:
        break;
    }
    return true;
}

/* NEG / INVERT: operand of the result type. NOT: bool → bool. */
static bool check_unary(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    const kj_type *ta = use(v, r, in->a);
    if (!ta) return false;
    if (ta->kind == KJ_T_ARRAY) return check_elementwise(v, r, ta, NULL, NULL);
    if (in->op == KIR_NOT) {
        if (!is_bool(in->type)) return fail(v, r, "not has type %s, expected bool", ts(in->type));
        return use_bool(v, r, in->a, "operand");
    }
    return use_typed(v, r, in->a, in->type, "operand");
}

/* EQ .. GE: operands of one type, result bool. */
static bool check_compare(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    const kj_type *ta = use(v, r, in->a), *tb = ta ? use(v, r, in->b) : NULL;
    if (!ta || !tb) return false;
    if (ta->kind == KJ_T_ARRAY || tb->kind == KJ_T_ARRAY) {
        if (in->type->kind != KJ_T_ARRAY || !is_bool(in->type->elem))
            return fail(v, r, "%s of arrays has type %s, expected a bool array", name(in), ts(in->type));
        return check_elementwise(v, r, ta, tb, NULL);
    }
    if (ta != tb) return fail(v, r, "%s operands %s and %s differ", name(in), ts(ta), ts(tb));
    if (!is_bool(in->type)) return fail(v, r, "%s has type %s, expected bool", name(in), ts(in->type));
    if (ta->kind == KJ_T_COMPLEX && in->op != KIR_EQ && in->op != KIR_NE)
        return fail(v, r, "%s of %s (complex numbers have no order)", name(in), ts(ta));
    return true;
}

/* CAST (scalar to scalar) and SELECT (bool ? T : T → T). */
static bool check_cast_select(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    if (in->op == KIR_CAST) {
        const kj_type *t = use(v, r, in->a);
        if (!t) return false;
        /* Arrays: only the static layout may change. */
        if (t->kind == KJ_T_ARRAY && in->type->kind == KJ_T_ARRAY && t->elem == in->type->elem &&
            t->ndim == in->type->ndim)
            return true;
        if (kj_is_dt(t) || kj_is_dt(in->type)) /* an int64 made a datetime64 or back: the same bits */
            return (kj_is_dt(t) || (t->kind == KJ_T_INT && t->bits == 64 && t->is_signed)) && (kj_is_dt(in->type) || is_int(in->type))
                       ? true : fail(v, r, "cast from %s to %s", ts(t), ts(in->type));
        if (!is_scalar(t) || !is_scalar(in->type))
            return fail(v, r, "cast from %s to %s is not a scalar conversion", ts(t), ts(in->type));
        return true;
    }
    return use_bool(v, r, in->a, "condition") && use_typed(v, r, in->b, in->type, "true value") &&
           use_typed(v, r, in->c, in->type, "false value");
}

/* TUPLE args... : (T0, T1, ...) and TUPLE_GET a, i : Ti */
static bool check_tuple(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    if (in->op == KIR_TUPLE_GET) {
        const kj_type *t = use(v, r, in->a);
        if (!t) return false;
        if (t->kind == KJ_T_OPTIONAL) /* an Optional is the pair (valid, value): lower_optional.c */
            return (in->i == 0 && is_bool(in->type)) || (in->i == 1 && in->type == t->elem) ? true
                   : fail(v, r, "tuple_get %lld of %s", (long long)in->i, ts(t));
        if (t->kind == KJ_T_RANGE) /* a range value is the 3-tuple (start, stop, step) */
            return in->i >= 0 && in->i < 3 && in->type == t->elem ? true
                   : fail(v, r, "tuple_get %lld of %s", (long long)in->i, ts(t));
        if (t->kind != KJ_T_TUPLE) return fail(v, r, "tuple_get of %s, not a tuple", ts(t));
        if (in->i < 0 || in->i >= t->n)
            return fail(v, r, "tuple_get index %lld out of range for %s", (long long)in->i, ts(t));
        if (in->type != t->elems[in->i])
            return fail(v, r, "tuple_get has type %s, element is %s", ts(in->type), ts(t->elems[in->i]));
        return true;
    }
    if (in->type->kind == KJ_T_RANGE) { /* range(start, stop, step) as a value (lower_iter.c) */
        for (uint32_t k = 0; k < 3 && in->nargs == 3; k++)
            if (!use_typed(v, r, in->args[k], in->type->elem, "range part")) return false;
        return in->nargs == 3 ? true : fail(v, r, "range of %u values", in->nargs);
    }
    if (in->type->kind == KJ_T_OPTIONAL) /* (valid, value) */
        return in->nargs == 2 && use_bool(v, r, in->args[0], "valid flag") &&
               use_typed(v, r, in->args[1], in->type->elem, "value");
    if (in->type->kind != KJ_T_TUPLE) return fail(v, r, "tuple has non-tuple type %s", ts(in->type));
    if (in->nargs != in->type->n)
        return fail(v, r, "tuple of %u values has type %s", in->nargs, ts(in->type));
    for (uint32_t k = 0; k < in->nargs; k++) {
        const char *what = kj_arena_printf(v->a, "element %u", k);
        if (!use_typed(v, r, in->args ? in->args[k] : 0, in->type->elems[k], what)) return false;
    }
    return true;
}

/* The array operand of an ARRAY_* instruction. */
static const kj_type *use_array(vctx *v, kir_ref r)
{
    const kj_type *t = use(v, r, at(v, r)->a);
    if (t && t->kind != KJ_T_ARRAY)
        return fail(v, r, "%s of %s, not an array", name(at(v, r)), ts(t)), NULL;
    return t;
}

/* LOAD a[args] : elem and STORE a[args] = b: one int64 index per dimension. */
static bool check_load_store(vctx *v, kir_ref r, const kj_type *arr)
{
    const kir_inst *in = at(v, r);
    if (in->op == KIR_ARRAY_STORE && in->nargs == 0) {
        /* Slice assignment: fill with a scalar or copy a broadcast array. */
        const kj_type *b = use(v, r, in->b);
        if (!b) return false;
        if (b->kind == KJ_T_ARRAY && b->ndim <= arr->ndim) return true;
        return use_typed(v, r, in->b, arr->elem, "value");
    }
    if (in->nargs != arr->ndim)
        return fail(v, r, "%s with %u indices into %s", name(in), in->nargs, ts(arr));
    for (uint32_t k = 0; k < in->nargs; k++) {
        if (!use_int64(v, r, in->args ? in->args[k] : 0, kj_arena_printf(v->a, "index %u", k)))
            return false;
    }
    if (in->op == KIR_ARRAY_LOAD) {
        if (in->type != arr->elem)
            return fail(v, r, "load has type %s, element is %s", ts(in->type), ts(arr->elem));
        return true;
    }
    return use_typed(v, r, in->b, arr->elem, "value");
}

/* VIEW a[args]: each argument a SLICE (keeps the dimension) or an int64
 * index (drops it); dimensions not mentioned are kept whole. */
static bool check_view(vctx *v, kir_ref r, const kj_type *arr)
{
    const kir_inst *in = at(v, r);
    if (in->nargs > arr->ndim) return fail(v, r, "view with %u indices into %s", in->nargs, ts(arr));
    uint32_t dropped = 0;
    for (uint32_t k = 0; k < in->nargs; k++) {
        kir_ref x = in->args ? in->args[k] : 0;
        if (!use(v, r, x)) return false;
        if (at(v, x)->op == KIR_SLICE) continue;
        if (!use_int64(v, r, x, kj_arena_printf(v->a, "index %u", k))) return false;
        dropped++;
    }
    const kj_type *t = in->type;
    if (t->kind != KJ_T_ARRAY || t->elem != arr->elem || t->ndim != arr->ndim - dropped)
        return fail(v, r, "view of %s dropping %u dimensions has type %s", ts(arr), dropped, ts(t));
    return true;
}

/* DIM, LOAD, STORE, VIEW, SLICE, WRAP_INDEX, BOUNDS_CHECK */
static bool check_array(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    switch ((kir_op)in->op) {
    case KIR_SLICE:
        return (!in->a || use_int64(v, r, in->a, "start")) && (!in->b || use_int64(v, r, in->b, "stop")) &&
               (!in->c || use_int64(v, r, in->c, "step"));
    case KIR_WRAP_INDEX:
    case KIR_BOUNDS_CHECK: {
        const kj_type *t = use(v, r, in->a);
        if (!t) return false;
        if (!is_int(t)) return fail(v, r, "%s index is %s, expected an integer", name(in), ts(t));
        if (!use_typed(v, r, in->b, t, "extent")) return false;
        if (in->op == KIR_WRAP_INDEX && in->type != t)
            return fail(v, r, "wrap has type %s, index is %s", ts(in->type), ts(t));
        if (in->op == KIR_BOUNDS_CHECK && in->i < 0)
            return fail(v, r, "boundscheck of dimension %lld", (long long)in->i);
        return true;
    }
    default:
        break;
    }
    const kj_type *arr = use_array(v, r);
    if (!arr) return false;
    if (in->op == KIR_ARRAY_DIM) {
        if (in->i < 0 || in->i >= arr->ndim)
            return fail(v, r, "dim %lld of %s", (long long)in->i, ts(arr));
        if (!is_int64(in->type)) return fail(v, r, "dim has type %s, expected int64", ts(in->type));
        return true;
    }
    if (in->op == KIR_ARRAY_VIEW) return check_view(v, r, arr);
    return check_load_store(v, r, arr);
}

/* May a value of type `from` be passed for a parameter of type `to`? The
 * same type, or an array of any layout for an array parameter of layout A. */
static bool arg_fits(const kj_type *from, const kj_type *to)
{
    if (from == to) return true;
    return from && to && from->kind == KJ_T_ARRAY && to->kind == KJ_T_ARRAY &&
           to->layout == KJ_LAYOUT_A && from->elem == to->elem && from->ndim == to->ndim;
}

/* Arguments args[first..] against the parameters of `fn`. */
static bool check_call_args(vctx *v, kir_ref r, const kir_func *fn, uint32_t first)
{
    const kir_inst *in = at(v, r);
    for (uint32_t k = 0; k < fn->nparams; k++) {
        const kj_type *t = use(v, r, in->args[first + k]);
        if (!t) return false;
        if (!arg_fits(t, fn->params[k]))
            return fail(v, r, "%s argument %u is %s, %s expects %s", name(in), k, ts(t), fn->mangled,
                        ts(fn->params[k]));
    }
    return true;
}

enum { LAUNCH_HEADER = 8 }; /* grid x/y/z, block x/y/z, stream, shared bytes */

/* CALL fn(args), LAUNCH fn[header](args), UFUNC_CALL fn(args), BUILTIN aux(args) */
static bool check_call(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    if (!use_args(v, r)) return false;
    if (in->op == KIR_BUILTIN) {
        if (in->aux >= KJ_B__COUNT) return fail(v, r, "builtin id %u does not exist", in->aux);
        return true;
    }
    const kir_func *fn = in->fn;
    if (!fn) return fail(v, r, "%s has no callee", name(in));
    if (in->op == KIR_UFUNC_CALL) {
        /* on the GPU: the kernel written for the ufunc (kir_gpu_ufunc.c) */
        const kir_func *uf = fn->kind == KIR_FN_KERNEL ? fn->applies : fn;
        if (!uf || (uf->kind != KIR_FN_UFUNC && uf->kind != KIR_FN_GUFUNC))
            return fail(v, r, "ufunc call of %s, which is not a ufunc", fn->mangled);
        if (in->aux > in->nargs)
            return fail(v, r, "ufunc call with %u out= arguments among %u", in->aux, in->nargs);
        return true;
    }
    if (in->op == KIR_LAUNCH) {
        if (fn->kind != KIR_FN_KERNEL) return fail(v, r, "launch of %s, which is not a kernel", fn->mangled);
        if (in->nargs != LAUNCH_HEADER + fn->nparams)
            return fail(v, r, "launch of %s with %u arguments, expected %u (8 + %u)", fn->mangled,
                        in->nargs, LAUNCH_HEADER + fn->nparams, fn->nparams);
        return check_call_args(v, r, fn, LAUNCH_HEADER);
    }
    if (in->nargs != fn->nparams)
        return fail(v, r, "call of %s with %u arguments, expected %u", fn->mangled, in->nargs, fn->nparams);
    if (!check_call_args(v, r, fn, 0)) return false;
    if (in->type != fn->ret && !(is_void(in->type) && is_void(fn->ret)))
        return fail(v, r, "call has type %s, %s returns %s", ts(in->type), fn->mangled, ts(fn->ret));
    return true;
}

/* UFUNC_REDUCE fn(a, axis) */
static bool check_reduce(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    const kj_type *t = use(v, r, in->a);
    if (!t) return false;
    if (t->kind != KJ_T_ARRAY) return fail(v, r, "reduce of %s, not an array", ts(t));
    if (in->aux & KIR_REDUCE_AT) { /* fn.at(a, indices[, values]) */
        if (!in->fn || in->fn->kind != KIR_FN_UFUNC || in->fn->nparams != (in->c ? 2u : 1u))
            return fail(v, r, "at with %s, not a ufunc of %d inputs", in->fn ? in->fn->mangled : "no function",
                        in->c ? 2 : 1);
        return use(v, r, in->b) && (!in->c || use(v, r, in->c));
    }
    if (!in->fn || in->fn->kind != KIR_FN_UFUNC || in->fn->nparams != 2)
        return fail(v, r, "reduce with %s, not a binary ufunc", in->fn ? in->fn->mangled : "no function");
    if (in->aux & KIR_REDUCE_OUTER) {
        const kj_type *u = use(v, r, in->b);
        if (!u) return false;
        if (u->kind != KJ_T_ARRAY) return fail(v, r, "outer of %s, not an array", ts(u));
        return true;
    }
    if ((in->aux & 0xff) > t->ndim) return fail(v, r, "reduce along axis %d of %s", (in->aux & 0xff) - 1, ts(t));
    return true;
}

/* ASSERT, RETURN, BREAK, CONTINUE, NOP */
static bool check_stmt(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    const kj_type *ret = v->f->ret;
    switch ((kir_op)in->op) {
    case KIR_ASSERT:
        return use_bool(v, r, in->a, "condition");
    case KIR_RETURN:
        if (!in->a) {
            if (!is_void(ret) && !v->f->generator) return fail(v, r, "return without a value in a function returning %s", ts(ret));
            return true;
        }
        if (!use(v, r, in->a)) return false;
        if (at(v, in->a)->type != ret)
            return fail(v, r, "return value is %s, the function returns %s", ts(at(v, in->a)->type), ts(ret));
        return true;
    case KIR_BREAK:
    case KIR_CONTINUE:
        if (!v->loops) return fail(v, r, "%s outside a loop", name(in));
        return true;
    default:
        return true;
    }
}

static bool walk(vctx *v, kir_blkid b);

/* Enter block `b` owned by instruction `owner`. */
static bool enter(vctx *v, kir_ref owner, kir_blkid b, bool loop)
{
    if (b == 0 || b >= v->f->nblocks)
        return fail(v, owner, "%s owns block %u, which %s", name(at(v, owner)), b,
                    b ? "does not exist" : "is the function body");
    if (v->owned[b]) return fail(v, owner, "block %u has a second owner", b);
    v->owned[b] = 1;
    v->loops += loop;
    bool ok = walk(v, b);
    v->loops -= loop;
    return ok;
}

/* IF a {then} else {else}; LOOP {body}; FOR/PFOR local in a, b, c {body} */
static bool check_control(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    if (in->op == KIR_IF) {
        /* blk[1] == 0: no else block */
        return use_bool(v, r, in->a, "condition") && enter(v, r, in->blk[0], false) &&
               (in->blk[1] == 0 || enter(v, r, in->blk[1], false));
    }
    if (in->op == KIR_FOR || in->op == KIR_PFOR) {
        if (in->i < 0 || in->i >= v->f->nlocals)
            return fail(v, r, "%s over local %lld out of range", name(in), (long long)in->i);
        const kj_type *t = v->f->locals[in->i].type;
        if (!is_int(t)) return fail(v, r, "%s variable has type %s, expected an integer", name(in), ts(t));
        if (!use_typed(v, r, in->a, t, "start") || !use_typed(v, r, in->b, t, "stop")) return false;
        if (in->c && !use_typed(v, r, in->c, t, "step")) return false;
    }
    return enter(v, r, in->blk[0], true);
}

/* Type requirements common to all: statements have no type, values one. */
static bool check_result(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    if (in->op >= KIR__COUNT) return fail(v, r, "unknown op %u", in->op);
    if (is_stmt_op((kir_op)in->op)) {
        if (!is_void(in->type)) return fail(v, r, "%s statement has type %s", name(in), ts(in->type));
    } else if (!in->type) {
        return fail(v, r, "%s has no type", name(in));
    }
    return true;
}

/* TRY is a bool; the others name a TRY of the function (and are bools,
 * EXC_MATCH, the exception, EXC_VALUE, or statements) */
static bool check_try(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    bool value = in->op == KIR_TRY || in->op == KIR_EXC_MATCH;
    if (value && !is_bool(in->type)) return fail(v, r, "%s has type %s, not bool", name(in), ts(in->type));
    if (in->op == KIR_EXC_VALUE && !kj_t_is_exception(in->type))
        return fail(v, r, "%s has type %s, not exception", name(in), ts(in->type));
    if (in->op == KIR_TRY) return true;
    if (!in->a || in->a >= v->f->ninsts || at(v, in->a)->op != KIR_TRY)
        return fail(v, r, "%s does not name a try", name(in));
    return true;
}

/* YIELD (in a generator, of its yield type), GEN_NEXT, GEN_VALUE (of a generator) */
static bool check_gen(vctx *v, kir_ref r)
{
    const kir_inst *in = at(v, r);
    const kj_type *t = use(v, r, in->a);
    if (!t) return false;
    if (in->op == KIR_YIELD)
        return v->f->generator && t == v->f->ret->elem ? true : fail(v, r, "yield of %s in %s", ts(t), ts(v->f->ret));
    if (t->kind != KJ_T_GENERATOR) return fail(v, r, "%s of %s, not a generator", name(in), ts(t));
    const kj_type *want = in->op == KIR_GEN_NEXT ? NULL : t->elem;
    if (want ? in->type != want : in->type->kind != KJ_T_BOOL)
        return fail(v, r, "%s has type %s", name(in), ts(in->type));
    return true;
}

static bool check_inst(vctx *v, kir_ref r)
{
    if (!check_result(v, r)) return false;
    switch ((kir_op)at(v, r)->op) {
    case KIR_NOP: case KIR_ASSERT: case KIR_RETURN: case KIR_BREAK: case KIR_CONTINUE:
        return check_stmt(v, r);
    case KIR_CONST_INT: case KIR_CONST_FLOAT: case KIR_CONST_STR: case KIR_CONST_NONE:
    case KIR_CONST_ARRAY: case KIR_PARAM: case KIR_LOCAL_GET: case KIR_LOCAL_SET:
    case KIR_MODULE_GET: case KIR_MODULE_SET:
        return check_leaf(v, r);
    case KIR_ADD: case KIR_SUB: case KIR_MUL: case KIR_DIV: case KIR_FLOORDIV: case KIR_MOD:
    case KIR_POW: case KIR_AND: case KIR_OR: case KIR_XOR: case KIR_SHL: case KIR_SHR:
        return check_arith(v, r);
    case KIR_NEG: case KIR_NOT: case KIR_INVERT:
        return check_unary(v, r);
    case KIR_EQ: case KIR_NE: case KIR_LT: case KIR_LE: case KIR_GT: case KIR_GE:
        return check_compare(v, r);
    case KIR_CAST: case KIR_SELECT:
        return check_cast_select(v, r);
    case KIR_TUPLE: case KIR_TUPLE_GET:
        return check_tuple(v, r);
    case KIR_ARRAY_DIM: case KIR_ARRAY_LOAD: case KIR_ARRAY_STORE: case KIR_ARRAY_VIEW:
    case KIR_SLICE: case KIR_WRAP_INDEX: case KIR_BOUNDS_CHECK:
        return check_array(v, r);
    case KIR_CALL: case KIR_BUILTIN: case KIR_LAUNCH: case KIR_UFUNC_CALL:
        return check_call(v, r);
    case KIR_UFUNC_REDUCE:
        return check_reduce(v, r);
    case KIR_IF: case KIR_LOOP: case KIR_FOR: case KIR_PFOR:
        return check_control(v, r);
    case KIR_TRY: case KIR_TRY_END: case KIR_EXC_MATCH: case KIR_RERAISE: case KIR_EXC_VALUE:
        return check_try(v, r);
    case KIR_YIELD: case KIR_GEN_NEXT: case KIR_GEN_VALUE:
        return check_gen(v, r);
    default:
        return fail(v, r, "unknown op %u", at(v, r)->op);
    }
}

/* Check the instructions of block `b` in order; each becomes visible after
 * its own check, and all of them stop being visible when the block ends. */
static bool walk(vctx *v, kir_blkid b)
{
    const kir_block *blk = &v->f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        kir_ref r = blk->v[k];
        if (r == 0 || r >= v->f->ninsts)
            return fail(v, 0, "block %u lists %%%u, which is not an instruction", b, r);
        if (v->state[r] != UNSEEN) return fail(v, r, "listed twice (again in block %u)", b);
        if (!check_inst(v, r)) return false;
        v->state[r] = VISIBLE;
    }
    for (uint32_t k = 0; k < blk->n; k++) v->state[blk->v[k]] = ENDED;
    return true;
}

/* The function's signature: typed parameters; kernels return none. */
static bool check_signature(vctx *v)
{
    const kir_func *f = v->f;
    if (f->ninsts == 0 || f->nblocks == 0) return fail(v, 0, "function has no body");
    if (f->insts[0].op != KIR_NOP) return fail(v, 0, "%%0 is not the reserved nop");
    if (f->nparams && !f->params) return fail(v, 0, "%u parameters without types", f->nparams);
    for (uint32_t k = 0; k < f->nparams; k++)
        if (!f->params[k]) return fail(v, 0, "parameter %u has no type", k);
    for (uint32_t k = 0; k < f->nlocals; k++)
        if (!f->locals[k].type) return fail(v, 0, "local %u has no type", k);
    if (f->kind == KIR_FN_KERNEL && !is_void(f->ret))
        return fail(v, 0, "kernel returns %s; kernels return none", ts(f->ret));
    return true;
}

const char *kir_verify(kj_arena *a, const kir_func *f)
{
    vctx v = {.a = a, .f = f};
    if (!check_signature(&v)) return v.err;
    v.state = kj_arena_alloc(a, f->ninsts);
    v.owned = kj_arena_alloc(a, f->nblocks);
    v.owned[0] = 1;
    if (!walk(&v, 0)) return v.err;
    for (kir_blkid b = 1; b < f->nblocks; b++)
        if (!v.owned[b]) return fail(&v, 0, "block %u has no owner", b), v.err;
    return NULL;
}
