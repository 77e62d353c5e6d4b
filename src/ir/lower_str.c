/* SPDX-License-Identifier: BSD-2-Clause */
/* lower_str — string operators to KIR (infer_str.c typed them): each is a
 * BUILTIN instruction (str.<cat>, <repeat>, <cmp>, <in>, <get>, <slice>)
 * that llvm_str.c lowers to a runtime call (src/runtime/str.c). */
#include "lower_int.h"
#include "builtins.h"

#include <string.h>

static kir_ref builtin(lctx *lc, int b, const kj_type *t, kj_span sp, const kir_ref *args, uint32_t n)
{
    kir_ref r = kj_lw_emit(lc, KIR_BUILTIN, t, sp);
    kir_inst *in = kir_at(lc->f, r);
    in->aux = (uint16_t)b;
    in->args = kir_refs(lc->s->a, args, n);
    in->nargs = n;
    return r;
}

static const kj_type *i64t(lctx *lc) { return kj_t_int(lc->s->types, 64, true); }

static kir_ref str_mod(lctx *lc, const kj_expr *e);

kir_ref kj_lower_str_binop(lctx *lc, const kj_expr *e)
{
    const kj_type *st = kj_t_str(lc->s->types);
    if (e->bin.op == KJ_OP_MOD) return str_mod(lc, e);
    if (e->bin.op == KJ_OP_ADD) {
        kir_ref a[2] = {kj_lw_expr(lc, e->bin.l), kj_lw_expr(lc, e->bin.r)};
        return builtin(lc, KJ_B_STR_CAT, st, e->span, a, 2);
    }
    bool lfirst = lc->sp->ei[e->bin.l->id].type->kind == KJ_T_STR;
    const kj_expr *se = lfirst ? e->bin.l : e->bin.r, *ne = lfirst ? e->bin.r : e->bin.l;
    kir_ref a[2] = {kj_lw_expr(lc, se), kj_lw_as(lc, ne, i64t(lc))};
    return builtin(lc, KJ_B_STR_REPEAT, st, e->span, a, 2);
}

static const kir_op CMP[] = {[KJ_CMP_EQ] = KIR_EQ, [KJ_CMP_NE] = KIR_NE, [KJ_CMP_LT] = KIR_LT,
                             [KJ_CMP_LE] = KIR_LE, [KJ_CMP_GT] = KIR_GT, [KJ_CMP_GE] = KIR_GE};

/* l op r of two strings (r already lowered when the caller has it: a chain). */
kir_ref kj_lower_str_compare(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, kir_ref r)
{
    const kj_type *bt = kj_t_bool(lc->s->types);
    if (op == KJ_CMP_IN || op == KJ_CMP_NOTIN) {
        kir_ref a[2] = {r, l};
        kir_ref in = builtin(lc, KJ_B_STR_IN, bt, e->span, a, 2);
        if (op == KJ_CMP_IN) return in;
        kir_ref n = kj_lw_emit(lc, KIR_NOT, bt, e->span);
        kir_at(lc->f, n)->a = in;
        return n;
    }
    kir_ref a[2] = {l, r};
    kir_ref c = builtin(lc, KJ_B_STR_CMP, i64t(lc), e->span, a, 2);
    kir_ref zero = kj_lw_i64(lc, 0, e->span);
    kir_ref x = kj_lw_emit(lc, CMP[op], bt, e->span);
    kir_at(lc->f, x)->a = c, kir_at(lc->f, x)->b = zero;
    return x;
}

static kir_ref part(lctx *lc, const kj_expr *p, int64_t dflt, int32_t bit, int32_t *has)
{
    if (!p || lc->sp->ei[p->id].type->kind == KJ_T_NONE) return kj_lw_i64(lc, dflt, p ? p->span : (kj_span){0});
    *has |= bit;
    return kj_lw_as(lc, p, i64t(lc));
}

kir_ref kj_lower_str_item(lctx *lc, const kj_expr *e)
{
    const kj_type *st = kj_t_str(lc->s->types);
    const kj_expr *ix = e->sub.index;
    kir_ref s = kj_lw_expr(lc, e->sub.obj);
    if (ix->kind != KJ_E_SLICE) {
        kir_ref a[2] = {s, kj_lw_as(lc, ix, i64t(lc))};
        return builtin(lc, KJ_B_STR_GET, st, e->span, a, 2);
    }
    int32_t has = 0;
    kir_ref lo = part(lc, ix->slice.lo, 0, 1, &has), hi = part(lc, ix->slice.hi, 0, 2, &has);
    kir_ref step = part(lc, ix->slice.step, 1, 4, &has);
    kir_ref a[5] = {s, lo, hi, step, kj_lw_i64(lc, has & 3, e->span)};
    return builtin(lc, KJ_B_STR_SLICE, st, e->span, a, 5);
}

/* For lower_iter.c: `for c in s` reads s[i] for i < len(s). */
kir_ref kj_lower_str_len(lctx *lc, kir_ref s, kj_span sp)
{
    return builtin(lc, KJ_B_LEN, i64t(lc), sp, &s, 1);
}

kir_ref kj_lower_str_get(lctx *lc, kir_ref s, kir_ref i, kj_span sp)
{
    kir_ref a[2] = {s, i};
    return builtin(lc, KJ_B_STR_GET, kj_t_str(lc->s->types), sp, a, 2);
}

static kir_ref cstr(lctx *lc, const char *s, size_t n, kj_span sp)
{
    char *c = kj_arena_alloc(lc->s->a, n + 1);
    memcpy(c, s, n);
    c[n] = 0;
    kir_ref r = kj_lw_emit(lc, KIR_CONST_STR, kj_t_str(lc->s->types), sp);
    kir_at(lc->f, r)->s = c;
    return r;
}

static kir_ref cat(lctx *lc, kir_ref acc, kir_ref x, kj_span sp)
{
    if (!acc) return x;
    kir_ref a[2] = {acc, x};
    return builtin(lc, KJ_B_STR_CAT, kj_t_str(lc->s->types), sp, a, 2);
}

/* A format argument: None formats as the string "None". */
static kir_ref fmt_arg(lctx *lc, const kj_expr *x)
{
    if (lc->sp->ei[x->id].type->kind == KJ_T_NONE) return cstr(lc, "None", 4, x->span);
    return kj_lw_expr(lc, x);
}

/* The argument of the field at q ("3", "" or "name"): by position or the next. */
typedef struct fmtctx {
    lctx *lc;
    const kj_expr *call;
    const char *f;
    uint32_t next;
    bool bad;
} fmtctx;

static bool field_arg(fmtctx *fc, const char **q, uint32_t *k)
{
    const char *p = *q;
    *k = fc->next;
    if (*p >= '0' && *p <= '9')
        for (*k = 0; *p >= '0' && *p <= '9'; p++) *k = *k * 10 + (uint32_t)(*p - '0');
    else fc->next++;
    *q = p;
    if (*k < fc->call->call.nargs) return true;
    if (!fc->bad)
        kj_error(fc->lc->s->d, fc->lc->s->src, fc->call->span, "format string '%s' does not match its %u argument(s)",
                 fc->f, fc->call->call.nargs);
    fc->bad = true;
    return false;
}

/* The spec of a field, [p, end): a constant, or with {fields} inside it
 * ("{:{w}.{p}f}") the concatenation of its text and str() of those. The
 * conversion !c (conv, or 0) leads it: "!r>8" (str.c reads it). */
static kir_ref field_spec(fmtctx *fc, char conv, const char *p, const char *end, kj_span sp)
{
    lctx *lc = fc->lc;
    kir_ref acc = conv ? cstr(lc, (char[]){'!', conv}, 2, sp) : 0;
    const char *lit = p;
    for (; p < end; p++) {
        if (*p != '{') continue;
        if (p > lit) acc = cat(lc, acc, cstr(lc, lit, (size_t)(p - lit), sp), sp);
        const char *q = p + 1;
        uint32_t k;
        if (!field_arg(fc, &q, &k)) return cstr(lc, "", 0, sp);
        kir_ref a[2] = {fmt_arg(lc, fc->call->call.args[k]), cstr(lc, "", 0, sp)};
        acc = cat(lc, acc, builtin(lc, KJ_B_STR_FMT1, kj_t_str(lc->s->types), sp, a, 2), sp);
        p = strchr(q, '}');
        lit = p + 1;
    }
    if (end > lit || !acc) acc = cat(lc, acc, cstr(lc, lit, (size_t)(end - lit), sp), sp);
    return acc;
}

/* The end of a field's spec: its '}', past nested {fields}; NULL if none. */
static const char *spec_end(const char *p)
{
    for (int depth = 0; *p; p++) {
        if (*p == '{') depth++;
        else if (*p == '}' && depth-- == 0) return p;
    }
    return NULL;
}

/* Numba 0.56 takes f-strings in @jit code only with plain {expr} fields. */
static bool jit_fstring_refused(lctx *lc, const kj_expr *call)
{
    const kj_expr *fe = call->call.fn->attr.obj;
    if (!fe->str.fstr || lc->sp->fn->kind == FK_MAIN || lc->sp->fn->kind == FK_HELPER) return false;
    for (const char *p = fe->str.s; *p; p++) {
        if (p[0] == '{' && p[1] == '{') { p++; continue; }
        if (*p != '{') continue;
        for (p++; *p >= '0' && *p <= '9'; p++) {}
        if (*p == '!' || *p == ':') {
            kj_diag *dg = kj_error(lc->s->d, lc->s->src, call->span, "format spec in f-strings not supported yet");
            kj_diag_hint(dg, "Numba's @jit takes f-strings with plain {expression} fields; host code takes any");
            return true;
        }
    }
    return false;
}

/* "{} {:>8.2f} {0!r}".format(a, b): the format string (a constant, typed by
 * builtins.c; an f-string's, parser_fstring.c) split here into literal text
 * ({{ and }} unescaped) and fields, each a str.<fmt1>(arg, spec) joined by
 * concatenation. A field names its argument by position or takes the next
 * one; a conversion !r/!s/!a and {fields} inside the spec are Python's. */
kir_ref kj_lower_str_format(lctx *lc, const kj_expr *call)
{
    const char *f = lc->sp->ei[call->call.fn->attr.obj->id].cval.s;
    kj_span sp = call->span;
    if (jit_fstring_refused(lc, call)) return cstr(lc, "", 0, sp);
    fmtctx fc = {lc, call, f, 0, false};
    kir_ref acc = 0;
    const char *lit = f;
    for (const char *p = f; *p;) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            acc = cat(lc, acc, cstr(lc, lit, (size_t)(p - lit) + 1, sp), sp);
            lit = p += 2;
            continue;
        }
        if (*p != '{') { p++; continue; }
        if (p > lit) acc = cat(lc, acc, cstr(lc, lit, (size_t)(p - lit), sp), sp);
        const char *q = ++p;
        uint32_t k;
        if (!field_arg(&fc, &q, &k)) return cstr(lc, "", 0, sp);
        char conv = 0;
        if (q[0] == '!' && q[1] && strchr("rsa", q[1])) conv = q[1], q += 2;
        const char *spec = *q == ':' ? q + 1 : q, *end = spec_end(spec);
        if (!end || (spec == q && *q != '}')) {
            kj_error(lc->s->d, lc->s->src, call->span, "invalid format string '%s': expected '}' before end of string",
                     f);
            return cstr(lc, "", 0, sp);
        }
        kir_ref a[2] = {fmt_arg(lc, call->call.args[k]), field_spec(&fc, conv, spec, end, sp)};
        if (fc.bad) return cstr(lc, "", 0, sp);
        acc = cat(lc, acc, builtin(lc, KJ_B_STR_FMT1, kj_t_str(lc->s->types), sp, a, 2), sp);
        lit = p = end + 1;
    }
    if (*lit || !acc) acc = cat(lc, acc, cstr(lc, lit, strlen(lit), sp), sp);
    return acc;
}

/* One printf-style conversion at p (just after '%'): its format spec for
 * str.<fmt1> in out ("%-6.2f" is "<6.2f", "%5s" is ">5", "%r" is "!r");
 * *type the conversion character. Returns the end, or NULL when it is not
 * one Python's % takes (kjit has no %c or %(name)s). */
static const char *pct_spec(const char *p, char *out, size_t cap, char *type)
{
    bool left = false, zero = false, alt = false;
    char sign = 0;
    for (;; p++) {
        if (*p == '-') left = true;
        else if (*p == '0') zero = true;
        else if (*p == '+' || (*p == ' ' && sign != '+')) sign = *p;
        else if (*p == '#') alt = true;
        else break;
    }
    const char *w = p;
    while ((*p >= '0' && *p <= '9') || *p == '.') p++;
    int wn = (int)(p - w);
    *type = *p;
    if (!*p || !strchr("diusrfFeEgGxXo", *p)) return NULL;
    bool text = *p == 's' || *p == 'r';
    char t = *p == 'i' || *p == 'u' ? 'd' : text ? 0 : *p;
    snprintf(out, cap, "%s%s%s%s%s%.*s%.1s", *p == 'r' ? "!r" : "", left ? "<" : text && wn ? ">" : "",
             sign && !text ? (char[]){sign, 0} : "", alt ? "#" : "", zero && !left && !text ? "0" : "", wn, w,
             t ? (char[]){t, 0} : "");
    return p + 1;
}

/* fmt % args (Python's printf-style formatting, "%d items, %.2f" % (n, x)):
 * a constant format string whose conversions become str.<fmt1> calls of the
 * tuple's items (or of the one value), joined with the literal text. */
static kir_ref str_mod(lctx *lc, const kj_expr *e)
{
    const char *f = lc->sp->ei[e->bin.l->id].cval.s;
    kj_span sp = e->span;
    if (!f) {
        kj_error(lc->s->d, lc->s->src, e->bin.l->span, "%% formatting needs a constant format string");
        return cstr(lc, "", 0, sp);
    }
    const kj_type *rt = lc->sp->ei[e->bin.r->id].type;
    kir_ref rv = rt->kind == KJ_T_NONE ? 0 : kj_lw_expr(lc, e->bin.r), acc = 0;
    if (rv) rt = kir_at(lc->f, rv)->type; /* the tuple as lowered (literals' types settled) */
    uint32_t n = rt->kind == KJ_T_TUPLE ? rt->n : 1, k = 0;
    const char *lit = f;
    for (const char *p = f; *p;) {
        if (*p != '%') { p++; continue; }
        if (p > lit || p[1] == '%') acc = cat(lc, acc, cstr(lc, lit, (size_t)(p - lit) + (p[1] == '%'), sp), sp);
        if (p[1] == '%') { lit = p += 2; continue; }
        char spec[64], type;
        const char *q = pct_spec(p + 1, spec, sizeof spec, &type);
        if (!q) {
            kj_error(lc->s->d, lc->s->src, e->bin.l->span, "unsupported format character '%c' (0x%x) at index %d",
                     type ? type : '?', (unsigned)(unsigned char)type, (int)(p - f + 1 + (q ? 0 : 0)));
            return cstr(lc, "", 0, sp);
        }
        if (k == n) {
            kj_error(lc->s->d, lc->s->src, sp, "not enough arguments for format string");
            return cstr(lc, "", 0, sp);
        }
        const kj_type *xt = rt->kind == KJ_T_TUPLE ? rt->elems[k] : rt;
        kir_ref x = rv;
        if (xt->kind == KJ_T_NONE) {
            x = cstr(lc, "None", 4, sp);
        } else if (rt->kind == KJ_T_TUPLE) {
            x = kj_lw_emit(lc, KIR_TUPLE_GET, xt, sp);
            kir_at(lc->f, x)->a = rv, kir_at(lc->f, x)->i = k;
        }
        if (strchr("diu", type) && xt->kind == KJ_T_FLOAT) x = kj_lw_cast(lc, x, i64t(lc), sp); /* %d truncates */
        kir_ref a[2] = {x, cstr(lc, spec, strlen(spec), sp)};
        acc = cat(lc, acc, builtin(lc, KJ_B_STR_FMT1, kj_t_str(lc->s->types), sp, a, 2), sp);
        k++;
        lit = p = q;
    }
    if (k < n) {
        kj_error(lc->s->d, lc->s->src, sp, "not all arguments converted during string formatting");
        return cstr(lc, "", 0, sp);
    }
    if (*lit || !acc) acc = cat(lc, acc, cstr(lc, lit, strlen(lit), sp), sp);
    return acc;
}
