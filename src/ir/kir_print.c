/* SPDX-License-Identifier: BSD-2-Clause */
/* KIR as text: what `kjit ir` prints and golden tests pin.
 *
 *   kernel scale[array(float32, 1d, C), float32](x: array(float32, 1d, C), k: float32) -> none
 *     locals: i: int64
 *     %1 = param x : array(float32, 1d, C)
 *     %2 = dim %1, 0 : int64
 *     %3 = const 0 : int64
 *     %4 = const 1 : int64
 *     for i in %3, %2, %4 {
 *       %5 = get i : int64
 *       %6 = load %1[%5] : float32
 *       ...
 *     }
 *
 * A value prints as `%N = op operands : type`, a statement as `op operands`;
 * %N is the instruction's ref, `_` an absent operand. Locals print by name
 * (`$K` for a temporary, `name$K` where two locals share a name). The text
 * depends only on the IR, never on addresses, so it is deterministic. */
#include "kir.h"

#include "builtins.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pctx {
    const kir_func *f;
    kj_buf *out;
    uint8_t *printed; /* per block: printing each block once bounds invalid IR */
} pctx;

static const char *const kind_names[] = {
    [KIR_FN_MAIN] = "main",     [KIR_FN_HOST] = "host",   [KIR_FN_KERNEL] = "kernel",
    [KIR_FN_DEVICE] = "device", [KIR_FN_UFUNC] = "ufunc", [KIR_FN_GUFUNC] = "gufunc",
};

static const char *kind_name(kir_fn_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof *kind_names ? kind_names[k] : "?";
}

static const char *fn_name(const kir_func *f)
{
    if (!f) return "?";
    return f->mangled ? f->mangled : f->name ? f->name : "?";
}

/* A string literal with C escapes, so that the output stays one line. */
static void print_quoted(kj_buf *out, const char *s)
{
    kj_buf_putc(out, '"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '"': kj_buf_puts(out, "\\\""); break;
        case '\\': kj_buf_puts(out, "\\\\"); break;
        case '\n': kj_buf_puts(out, "\\n"); break;
        case '\t': kj_buf_puts(out, "\\t"); break;
        case '\r': kj_buf_puts(out, "\\r"); break;
        default:
            if (c < 0x20 || c == 0x7f) kj_buf_printf(out, "\\x%02x", c);
            else kj_buf_putc(out, (char)c);
        }
    }
    kj_buf_putc(out, '"');
}

/* The shortest %.Ng that reads back as the same double, always with a '.'
 * or an exponent so that it reads as a float (1.0, not 1). */
static void print_float(kj_buf *out, double x)
{
    if (isnan(x)) {
        kj_buf_puts(out, "nan");
        return;
    }
    if (isinf(x)) {
        kj_buf_puts(out, x < 0 ? "-inf" : "inf");
        return;
    }
    char s[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(s, sizeof s, "%.*g", prec, x);
        if (strtod(s, NULL) == x) break;
    }
    kj_buf_puts(out, s);
    if (!strpbrk(s, ".e")) kj_buf_puts(out, ".0");
}

static void print_ref(pctx *p, kir_ref r)
{
    if (r) kj_buf_printf(p->out, "%%%u", r);
    else kj_buf_putc(p->out, '_');
}

/* Refs separated by ", ". */
static void print_refs(pctx *p, const kir_ref *v, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        if (k) kj_buf_puts(p->out, ", ");
        print_ref(p, v ? v[k] : 0);
    }
}

/* A local: its name, `$K` for a temporary, `name$K` when the name is shared. */
static void print_local(pctx *p, int64_t i)
{
    const kir_func *f = p->f;
    if (i < 0 || i >= f->nlocals) {
        kj_buf_printf(p->out, "$%lld?", (long long)i);
        return;
    }
    const char *nm = f->locals[i].name;
    if (!nm) {
        kj_buf_printf(p->out, "$%lld", (long long)i);
        return;
    }
    kj_buf_puts(p->out, nm);
    for (uint32_t k = 0; k < f->nlocals; k++) {
        if (k != i && f->locals[k].name && !strcmp(f->locals[k].name, nm)) {
            kj_buf_printf(p->out, "$%lld", (long long)i);
            return;
        }
    }
}

static void indent(pctx *p, int depth)
{
    for (int k = 0; k < depth; k++) kj_buf_puts(p->out, "  ");
}

/* Does instruction `in` print as a value (`%N = ...`)? Statements never;
 * calls only when they return something. */
static bool is_value(const kir_inst *in)
{
    switch ((kir_op)in->op) {
    case KIR_NOP: case KIR_LOCAL_SET: case KIR_ARRAY_STORE: case KIR_BOUNDS_CHECK: case KIR_MODULE_SET:
    case KIR_ASSERT: case KIR_RETURN: case KIR_BREAK: case KIR_CONTINUE:
    case KIR_IF: case KIR_LOOP: case KIR_FOR: case KIR_PFOR: case KIR_TRY_END: case KIR_RERAISE: case KIR_YIELD:
        return false;
    case KIR_CALL: case KIR_BUILTIN: case KIR_LAUNCH: case KIR_UFUNC_CALL:
        return in->type && in->type->kind != KJ_T_NONE;
    default:
        return true;
    }
}

/* Calls: `call f[int64](%1, %2)`, `builtin math.sin(%3)`, launches with
 * their configuration in brackets: `launch k[...][%1, %2, ...](%9, %10)`,
 * ufunc calls with their out= arrays: `ufunc f[...](%1, %2, out=%3)`. */
static void print_call(pctx *p, const kir_inst *in)
{
    kj_buf *out = p->out;
    uint32_t first = 0;
    if (in->op == KIR_BUILTIN) {
        const kj_builtin_info *bi = in->aux < KJ_B__COUNT ? kj_builtin_get((kj_builtin)in->aux) : NULL;
        if (bi) kj_buf_printf(out, " %s", bi->path);
        else kj_buf_printf(out, " <builtin %u>", in->aux);
    } else {
        kj_buf_printf(out, " %s", fn_name(in->fn));
    }
    if (in->op == KIR_LAUNCH) {
        uint32_t nk = in->fn ? in->fn->nparams : 0;
        first = in->nargs > nk ? in->nargs - nk : 0;
        kj_buf_putc(out, '[');
        print_refs(p, in->args, first);
        kj_buf_putc(out, ']');
    }
    /* UFUNC_CALL: the last `aux` arguments are out= arrays (not `i`, which
     * shares its storage with `fn`). */
    uint32_t nout = 0;
    if (in->op == KIR_UFUNC_CALL && in->aux <= in->nargs) nout = in->aux;
    uint32_t npos = in->nargs - nout - first;
    kj_buf_putc(out, '(');
    print_refs(p, in->args ? in->args + first : NULL, npos);
    for (uint32_t k = in->nargs - nout; k < in->nargs; k++) {
        kj_buf_puts(out, k ? ", out=" : "out=");
        print_ref(p, in->args[k]);
    }
    kj_buf_putc(out, ')');
}

static const char *const op_operands[KIR__COUNT] = {
#define X(name, str, operands) [KIR_##name] = operands,
    KIR_OPS(X)
#undef X
};

/* How many of the refs a, b, c an op uses ("a b" → 2, "a b c" → 3). */
static int ref_arity(kir_op op)
{
    const char *s = op_operands[op];
    if (strstr(s, "c")) return 3;
    if (strstr(s, "b")) return 2;
    return strchr(s, 'a') ? 1 : 0;
}

/* Operands of the non-control instructions, after the op name. */
static void print_operands(pctx *p, const kir_inst *in)
{
    kj_buf *out = p->out;
    switch ((kir_op)in->op) {
    case KIR_CONST_INT:
        if (in->type && in->type->kind == KJ_T_BOOL) kj_buf_puts(out, in->i ? " true" : " false");
        else kj_buf_printf(out, " %lld", (long long)in->i);
        break;
    case KIR_CONST_FLOAT:
        kj_buf_putc(out, ' ');
        print_float(out, in->f);
        break;
    case KIR_CONST_STR:
        kj_buf_putc(out, ' ');
        print_quoted(out, in->s);
        break;
    case KIR_CONST_ARRAY: case KIR_MODULE_GET: case KIR_MODULE_SET:
        kj_buf_printf(out, " %s", in->frozen->name);
        break;
    case KIR_PARAM:
        if (p->f->param_names && in->i >= 0 && in->i < p->f->nparams && p->f->param_names[in->i])
            kj_buf_printf(out, " %s", p->f->param_names[in->i]);
        else kj_buf_printf(out, " #%lld", (long long)in->i);
        break;
    case KIR_LOCAL_GET:
    case KIR_LOCAL_SET:
        kj_buf_putc(out, ' ');
        print_local(p, in->i);
        if (in->op == KIR_LOCAL_SET) {
            kj_buf_puts(out, ", ");
            print_ref(p, in->a);
        }
        break;
    case KIR_TUPLE_GET:
    case KIR_ARRAY_DIM:
    case KIR_BOUNDS_CHECK:
        kj_buf_putc(out, ' ');
        print_ref(p, in->a);
        if (in->op == KIR_BOUNDS_CHECK) {
            kj_buf_puts(out, ", ");
            print_ref(p, in->b);
        }
        kj_buf_printf(out, ", %lld", (long long)in->i);
        break;
    case KIR_TUPLE:
        kj_buf_putc(out, ' ');
        print_refs(p, in->args, in->nargs);
        break;
    case KIR_ARRAY_LOAD:
    case KIR_ARRAY_STORE:
    case KIR_ARRAY_VIEW:
        kj_buf_putc(out, ' ');
        print_ref(p, in->a);
        kj_buf_putc(out, '[');
        print_refs(p, in->args, in->nargs);
        kj_buf_putc(out, ']');
        if (in->op == KIR_ARRAY_STORE) {
            kj_buf_puts(out, ", ");
            print_ref(p, in->b);
        }
        break;
    case KIR_CALL:
    case KIR_BUILTIN:
    case KIR_LAUNCH:
    case KIR_UFUNC_CALL:
        print_call(p, in);
        break;
    case KIR_UFUNC_REDUCE:
        kj_buf_printf(out, " %s%s(", fn_name(in->fn),
                      in->aux & KIR_REDUCE_AT ? ".at" : in->aux & KIR_REDUCE_OUTER ? ".outer" : in->aux & KIR_REDUCE_ACCUMULATE ? ".accumulate" : "");
        print_ref(p, in->a);
        if (in->aux & KIR_REDUCE_AT) {
            kj_buf_puts(out, ", ");
            print_ref(p, in->b);
            if (in->c) kj_buf_puts(out, ", "), print_ref(p, in->c);
            kj_buf_puts(out, ")");
        } else if (in->aux & KIR_REDUCE_OUTER) {
            kj_buf_puts(out, ", ");
            print_ref(p, in->b);
            kj_buf_puts(out, ")");
        } else if (in->aux & 0xff) kj_buf_printf(out, ", axis=%d)", (in->aux & 0xff) - 1);
        else kj_buf_puts(out, ", axis=None)");
        break;
    case KIR_EXC_MATCH:
        kj_buf_putc(out, ' ');
        print_ref(p, in->a);
        kj_buf_printf(out, ", %s", kir_exc_name(in->aux));
        break;
    case KIR_ASSERT:
        kj_buf_putc(out, ' ');
        print_ref(p, in->a);
        if (in->b) {
            kj_buf_puts(out, ", ");
            print_ref(p, in->b);
        }
        if (in->s) {
            kj_buf_puts(out, ", ");
            print_quoted(out, in->s);
        }
        if (in->aux >= KIR_ASSERT_RAISE) kj_buf_printf(out, ", raise %s", kir_exc_name((in->aux - KIR_ASSERT_RAISE) & 0xff));
        break;
    case KIR_RETURN:
        if (in->a) {
            kj_buf_putc(out, ' ');
            print_ref(p, in->a);
        }
        break;
    default: { /* the a, b, c operands the op table lists */
        kir_ref ops[3] = {in->a, in->b, in->c};
        int n = ref_arity((kir_op)in->op);
        for (int k = 0; k < n; k++) {
            kj_buf_puts(out, k ? ", " : " ");
            print_ref(p, ops[k]);
        }
    }
    }
}

static void print_block(pctx *p, kir_blkid b, int depth);

/* `{`, the block's lines, `}` (the caller has printed what precedes `{`). */
static void print_body(pctx *p, kir_blkid b, int depth)
{
    kj_buf_puts(p->out, " {\n");
    print_block(p, b, depth + 1);
    indent(p, depth);
    kj_buf_putc(p->out, '}');
}

/* IF / LOOP / FOR / PFOR with their blocks; an absent or empty else is
 * left out. */
static void print_control(pctx *p, const kir_inst *in, int depth)
{
    kj_buf *out = p->out;
    if (in->op == KIR_IF) {
        kj_buf_puts(out, "if ");
        print_ref(p, in->a);
        print_body(p, in->blk[0], depth);
        kir_blkid e = in->blk[1];
        if (e && e < p->f->nblocks && p->f->blocks[e].n) {
            kj_buf_puts(out, " else");
            print_body(p, e, depth);
        }
    } else if (in->op == KIR_LOOP) {
        kj_buf_puts(out, "loop");
        print_body(p, in->blk[0], depth);
    } else {
        kj_buf_printf(out, "%s ", kir_op_name((kir_op)in->op));
        print_local(p, in->i);
        kj_buf_puts(out, " in ");
        print_ref(p, in->a);
        kj_buf_puts(out, ", ");
        print_ref(p, in->b);
        if (in->c) {
            kj_buf_puts(out, ", ");
            print_ref(p, in->c);
        }
        print_body(p, in->blk[0], depth);
    }
    kj_buf_putc(out, '\n');
}

static void print_inst(pctx *p, kir_ref r, int depth)
{
    const kir_inst *in = &p->f->insts[r];
    indent(p, depth);
    if (in->op >= KIR__COUNT) {
        kj_buf_printf(p->out, "<op %u>\n", in->op);
        return;
    }
    switch ((kir_op)in->op) {
    case KIR_IF: case KIR_LOOP: case KIR_FOR: case KIR_PFOR:
        print_control(p, in, depth);
        return;
    default:
        break;
    }
    bool value = is_value(in);
    if (value) kj_buf_printf(p->out, "%%%u = ", r);
    kj_buf_puts(p->out, kir_op_name((kir_op)in->op));
    print_operands(p, in);
    if (value) kj_buf_printf(p->out, " : %s", kj_type_str(in->type));
    kj_buf_putc(p->out, '\n');
}

static void print_block(pctx *p, kir_blkid b, int depth)
{
    if (b >= p->f->nblocks) {
        indent(p, depth);
        kj_buf_printf(p->out, "<block %u does not exist>\n", b);
        return;
    }
    /* Valid IR owns each block once; invalid IR that shares a block (or
     * nests one in itself) prints it once instead of looping. */
    if (p->printed[b]) {
        indent(p, depth);
        kj_buf_printf(p->out, "<block %u again>\n", b);
        return;
    }
    p->printed[b] = 1;
    const kir_block *blk = &p->f->blocks[b];
    for (uint32_t k = 0; k < blk->n; k++) {
        kir_ref r = blk->v[k];
        if (r < p->f->ninsts) print_inst(p, r, depth);
    }
}

/* KIND MANGLED(p: T, ...) -> RET [options], then the locals. */
static void print_header(pctx *p)
{
    const kir_func *f = p->f;
    kj_buf *out = p->out;
    kj_buf_printf(out, "%s %s(", kind_name(f->kind), fn_name(f));
    for (uint32_t k = 0; k < f->nparams; k++) {
        if (k) kj_buf_puts(out, ", ");
        const char *nm = f->param_names && f->param_names[k] ? f->param_names[k] : NULL;
        if (nm) kj_buf_printf(out, "%s: ", nm);
        kj_buf_puts(out, kj_type_str(f->params ? f->params[k] : NULL));
    }
    kj_buf_printf(out, ") -> %s", f->ret ? kj_type_str(f->ret) : "none");
    if (f->fastmath) kj_buf_puts(out, " fastmath");
    if (f->boundscheck) kj_buf_puts(out, " boundscheck");
    if (f->target) {
        kj_buf_puts(out, " target=");
        print_quoted(out, kj_run_target_name(f->target));
    }
    if (f->gu_layout) {
        kj_buf_puts(out, " layout=");
        print_quoted(out, f->gu_layout);
    }
    kj_buf_putc(out, '\n');
    if (!f->nlocals) return;
    kj_buf_puts(out, "  locals: ");
    for (uint32_t k = 0; k < f->nlocals; k++) {
        if (k) kj_buf_puts(out, ", ");
        print_local(p, k);
        kj_buf_printf(out, ": %s", kj_type_str(f->locals[k].type));
    }
    kj_buf_putc(out, '\n');
}

void kir_print_func(const kir_func *f, kj_buf *out)
{
    pctx p = {.f = f, .out = out, .printed = calloc(f->nblocks + 1, 1)};
    if (!p.printed) abort(); /* out of memory */
    print_header(&p);
    if (f->nblocks) print_block(&p, 0, 1);
    free(p.printed);
}

void kir_print_module(const kir_module *m, kj_buf *out)
{
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        if (k) kj_buf_putc(out, '\n');
        kir_print_func(m->funcs[k], out);
    }
}
