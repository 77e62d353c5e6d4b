/* SPDX-License-Identifier: BSD-2-Clause */
/* numba-cuda's compilation entry points in host code (host.rst
 * "Compilation"; builtins_cuda_compile.h): cuda.compile_ptx(pyfunc, sig,
 * ...) and its relatives compile `pyfunc` for `sig` and give its code and
 * return type: (ptx, resty), compile_all ([ptx], resty).
 *
 * Typing makes pyfunc's definition a kernel (device=False) or a device
 * function (device=True) with the one signature, as cuda.jit(sig)(pyfunc)
 * does in host code (one new function per call expression), and
 * specialises it. Lowering gives a BUILTIN whose `fn` is that
 * specialisation, args the compute capability ×10 (0: the current
 * device's) and whether to optimise, of type str; the C API replaces it by
 * the PTX text before it makes the host code (src/api/ptx_consts.c). resty
 * is Numba's name of the return type (a str: `none` for a kernel).
 *
 * kjit makes PTX only: output='ltoir' (NVVM's LTO-IR) is refused, and so
 * is what only LTO-IR allows (forceinline) and what kjit has no form for
 * (launch_bounds, abi_info). abi='c' for a kernel is Numba's
 * NotImplementedError; the device function's ABI is kjit's own either
 * way (docs/cuda.md). @cuda.require_context is here too (a host function
 * stays one). */
#include "lower_int.h"

#include "builtins.h"
#include "../util/diag.h"

#include <string.h>

typedef struct cc_opts {
    bool device, opt;
    int cc; /* ×10; 0: the current device's */
    bool all, ok;
} cc_opts;

static bool defaults_device(int b) { return b == KJ_B_CUDA_COMPILE || b == KJ_B_CUDA_COMPILE_CURDEV || b == KJ_B_CUDA_COMPILE_ALL; }
static bool current_device(int b) { return b == KJ_B_CUDA_COMPILE_PTX_CURDEV || b == KJ_B_CUDA_COMPILE_CURDEV; }

static const kj_keyword *find_kw(const kj_expr *e, const char *name)
{
    for (uint32_t i = 0; i < e->call.nkw; i++)
        if (!strcmp(e->call.kw[i].name, name)) return &e->call.kw[i];
    return NULL;
}

/* A constant keyword of kind `kind` (KJ_T_BOOL, KJ_T_STR, KJ_T_TUPLE), or None (false, *none set). */
static bool const_kw(kj_sema *s, const char *fname, const kj_keyword *kw, int kind, kj_cval *v, bool report)
{
    if (!kj_const_eval(s, kw->value, v) || !v->type ||
        (v->type->kind != (unsigned)kind && v->type->kind != KJ_T_NONE)) {
        if (report)
            kj_error(s->d, s->src, kw->value->span, "%s() argument '%s' must be a constant %s", fname, kw->name,
                     kind == KJ_T_BOOL ? "True or False" : kind == KJ_T_STR ? "string" : "(major, minor) tuple");
        return false;
    }
    return true;
}

static bool refuse(kj_sema *s, bool report, kj_span sp, const char *fmt, const char *a)
{
    if (report) kj_error(s->d, s->src, sp, fmt, a);
    return false;
}

/* cc=(major, minor): 10 × major + minor. */
static bool read_cc(kj_sema *s, const char *fname, const kj_keyword *kw, int *cc, bool report)
{
    kj_cval v;
    if (!const_kw(s, fname, kw, KJ_T_TUPLE, &v, report)) return false;
    if (v.type->kind == KJ_T_NONE) return true;
    bool ok = v.n == 2 && v.elems[0].type->kind == KJ_T_INT && v.elems[1].type->kind == KJ_T_INT &&
              v.elems[0].i >= 3 && v.elems[0].i <= 12 && v.elems[1].i >= 0 && v.elems[1].i <= 9;
    if (!ok) return refuse(s, report, kw->value->span, "%s() argument 'cc' must be a (major, minor) compute "
                           "capability such as (8, 0)", fname);
    *cc = (int)(v.elems[0].i * 10 + v.elems[1].i);
    return true;
}

/* The options of the call: numba-cuda's defaults, then its keywords. */
static cc_opts read_opts(kj_sema *s, const kj_expr *e, int b, bool report)
{
    const char *fname = kj_builtin_get((kj_builtin)b)->path;
    cc_opts o = {.device = defaults_device(b), .opt = true, .cc = current_device(b) ? 0 : 50,
                 .all = b == KJ_B_CUDA_COMPILE_ALL, .ok = true};
    const char *output = o.all ? "ltoir" : "ptx", *abi = o.device && b != KJ_B_CUDA_COMPILE_PTX &&
                                                          b != KJ_B_CUDA_COMPILE_PTX_CURDEV ? "c" : "numba";
    bool forceinline = false;
    for (uint32_t i = 0; i < e->call.nkw && o.ok; i++) {
        const kj_keyword *kw = &e->call.kw[i];
        kj_cval v;
        const char *n = kw->name;
        if (!strcmp(n, "device") || !strcmp(n, "opt") || !strcmp(n, "forceinline") || !strcmp(n, "fastmath") ||
            !strcmp(n, "lineinfo") || !strcmp(n, "debug")) {
            o.ok = const_kw(s, fname, kw, KJ_T_BOOL, &v, report);
            bool on = o.ok && v.type->kind == KJ_T_BOOL && v.i;
            if (!strcmp(n, "device")) o.device = on;
            else if (!strcmp(n, "opt")) o.opt = o.ok && (v.type->kind == KJ_T_NONE || on);
            else if (!strcmp(n, "forceinline")) forceinline = on;
        } else if (!strcmp(n, "output") || !strcmp(n, "abi")) {
            o.ok = const_kw(s, fname, kw, KJ_T_STR, &v, report);
            if (o.ok && v.type->kind == KJ_T_STR) *(!strcmp(n, "output") ? &output : &abi) = v.s;
        } else if (!strcmp(n, "cc")) {
            if (current_device(b)) o.ok = refuse(s, report, kw->span, "%s() got an unexpected keyword argument 'cc'",
                                                 fname);
            else o.ok = read_cc(s, fname, kw, &o.cc, report);
        } else if (!strcmp(n, "abi_info") || !strcmp(n, "launch_bounds")) {
            o.ok = const_kw(s, fname, kw, KJ_T_NONE, &v, false) && v.type->kind == KJ_T_NONE;
            if (!o.ok) refuse(s, report, kw->value->span, "kjit has no '%s' yet: leave it None", n);
        } else {
            o.ok = refuse(s, report, kw->span, "unexpected keyword argument '%s'", n);
        }
    }
    if (!o.ok) return o;
    if (strcmp(output, "ptx") && strcmp(output, "ltoir"))
        o.ok = refuse(s, report, e->span, "Unsupported output type: %s", output);
    else if (!strcmp(output, "ltoir"))
        o.ok = refuse(s, report, e->span, "kjit makes PTX only, not NVVM's LTO-IR: pass output='%s'", "ptx");
    else if (forceinline)
        o.ok = refuse(s, report, e->span, "Can only designate forced inlining in LTO-IR%s", "");
    else if (strcmp(abi, "numba") && strcmp(abi, "c"))
        o.ok = refuse(s, report, e->span, "Unsupported ABI: %s", abi);
    else if (!strcmp(abi, "c") && !o.device)
        o.ok = refuse(s, report, e->span, "The C ABI is not supported for kernels%s", "");
    return o;
}

/* The options cuda.jit takes from the call (device, fastmath, lineinfo, debug). */
static kj_decor jit_decor(kj_sema *s, const kj_expr *e, const cc_opts *o)
{
    kj_keyword *kw = KJ_NEWN(s->a, kj_keyword, e->call.nkw + 1);
    uint32_t n = 0;
    static const char *const pass[] = {"fastmath", "lineinfo", "debug"};
    for (size_t k = 0; k < sizeof pass / sizeof *pass; k++) {
        const kj_keyword *w = find_kw(e, pass[k]);
        if (w) kw[n++] = *w;
    }
    if (o->device) {
        kj_expr *t = KJ_NEW(s->a, kj_expr);
        t->kind = KJ_E_BOOL;
        t->bool_ = true;
        t->span = e->span;
        kw[n++] = (kj_keyword){.name = "device", .span = e->span, .value = t};
    }
    return (kj_decor){.path = "cuda.jit", .args = e->call.args + 1, .nargs = 1, .kw = kw, .nkw = n, .called = true,
                      .span = e->span};
}

/* Does `arg` name a function (a def, or one host code bound)? */
static bool names_function(kj_sema *s, const kj_fn *host, const kj_expr *arg)
{
    if (arg->kind != KJ_E_NAME) return false;
    const kj_static_local *l = kj_static_local_find(host, arg->name);
    if (l) return l->fn != NULL;
    const kj_sym *sym = kj_sym_find(s, arg->name);
    return sym && sym->kind == SYM_FUNC;
}

/* pyfunc under cuda.jit(sig, ...), made once for the call expression (NULL: not one function of one
 * signature, reported in the reporting walk). */
static kj_fn *compiled_fn(kj_ictx *ic, const kj_expr *e, const cc_opts *o, const char *fname)
{
    kj_fn *host = ic->sp->fn;
    const kj_expr *arg = e->call.args[0];
    if (!names_function(ic->s, host, arg)) {
        if (ic->report)
            kj_error(ic->d, ic->s->src, arg->span, "%s() argument 'pyfunc' must be a function defined with def",
                     fname);
        return NULL;
    }
    kj_fn *fn = NULL;
    bool made = false;
    for (uint32_t i = 0; i < host->inline_decors.n && !made; i++)
        if (host->inline_decors.v[i].at == e) fn = host->inline_decors.v[i].fn, made = true;
    if (!made) {
        kj_decor d = jit_decor(ic->s, e, o);
        const char *name = kj_arena_printf(ic->s->a, "%s@%u:%u", arg->name, e->span.line, e->span.col);
        ic->s->host = host;
        fn = kj_apply_decorator(ic->s, host, name, e->span, &d, arg);
        ic->s->host = NULL;
        kj_inline_decor n = {.at = e, .fn = fn};
        KJ_PUSH(ic->s->a, host->inline_decors, n);
    }
    if (!fn || fn->bad) return NULL;
    if (fn->nsigs != 1) {
        if (ic->report)
            kj_error(ic->d, ic->s->src, e->call.args[1]->span, "%s() compiles for one signature, not %u", fname,
                     fn->nsigs);
        return NULL;
    }
    return fn;
}

kj_einfo *kj_type_cuda_compile(kj_ictx *ic, const kj_expr *e, kj_einfo *ei, int b)
{
    const char *fname = kj_builtin_get((kj_builtin)b)->path;
    ei->builtin = b;
    if (ic->sp->fn->kind != FK_MAIN && ic->sp->fn->kind != FK_HELPER) {
        kj_error(ic->d, ic->s->src, e->span, "%s() is host code: call it from main or an undecorated function",
                 fname);
        return ei_value(ei, NULL);
    }
    if (e->call.nargs != 2) {
        kj_error(ic->d, ic->s->src, e->span, "%s() takes the function and its signature, then keywords (%u "
                 "positional arguments given)", fname, e->call.nargs);
        return ei_value(ei, NULL);
    }
    cc_opts o = read_opts(ic->s, e, b, ic->report);
    kj_fn *fn = o.ok ? compiled_fn(ic, e, &o, fname) : NULL;
    if (!fn) return ei_value(ei, NULL);
    const kj_sig *sig = &fn->sigs[0];
    kj_spec *sp = kj_spec_get(ic->s, fn, sig->params, sig->nparams, true, e->span);
    if (!sp) return ei_value(ei, NULL);
    if (sp->state == SPEC_NEW) kj_infer_spec(ic->s, sp);
    if (ic->report) kj_mark_reachable(ic->s, sp);
    const kj_type *ret = fn->kind == FK_KERNEL ? kj_t_none(ic->s->types) : sig->ret ? sig->ret : sp->ret;
    if (fn->kind == FK_KERNEL && sig->ret && sig->ret->kind != KJ_T_NONE) {
        kj_error(ic->d, ic->s->src, e->call.args[1]->span, "CUDA kernel must have void return type.");
        return ei_value(ei, NULL);
    }
    ei->fn = fn;
    ei->path = ret ? kj_type_str(ret) : "none";
    const kj_type *str = kj_t_str(ic->s->types);
    const kj_type *el[2] = {o.all ? kj_t_list(ic->s->types, str) : str, str};
    return ei_value(ei, kj_t_tuple(ic->s->types, el, 2));
}

kir_ref kj_lower_cuda_compile(lctx *lc, const kj_expr *e, kj_einfo *ei)
{
    cc_opts o = read_opts(lc->s, e, ei->builtin, false);
    const kj_fn *fn = ei->fn;
    const kj_type *str = kj_t_str(lc->s->types);
    kir_ref a[2] = {kj_lw_i64(lc, o.cc, e->span), kj_lw_i64(lc, o.opt, e->span)};
    kir_ref code = kj_lw_emit_args(lc, KIR_BUILTIN, str, e->span, a, 2);
    kir_at(lc->f, code)->aux = (uint16_t)ei->builtin;
    kir_at(lc->f, code)->fn = fn->specs.v[0]->kir;
    if (o.all) code = kj_lower_list_of(lc, kj_t_list(lc->s->types, str), &code, 1, e->span);
    kir_ref resty = kj_lw_emit(lc, KIR_CONST_STR, str, e->span);
    kir_at(lc->f, resty)->s = ei->path;
    return kj_lw_emit_args(lc, KIR_TUPLE, ei->type, e->span, (kir_ref[]){code, resty}, 2);
}

/* @cuda.require_context (host.rst "Context management"): numba-cuda's decorator that makes sure a
 * context exists before the function runs. kjit's context is the device it opened before main (or
 * the emulated one), so the function is a host function as written; the decorator takes nothing. */
void kj_resolve_require_context(kj_sema *s, kj_fn *fn, const kj_decor *dec)
{
    if (dec->called) {
        kj_error(s->d, s->src, dec->span, "@cuda.require_context takes no arguments");
        fn->bad = true;
    }
}

/* kernel.overloads[sig] (numba-cuda's Dispatcher.overloads, which cooperative_groups.rst indexes to
 * call max_cooperative_grid_blocks): the kernel itself, once `sig` (argument types, as a tuple or a
 * signature) is one it is compiled for; another is an error, as Numba's KeyError. */
kj_einfo *kj_type_kernel_overload(kj_ictx *ic, const kj_expr *e, kj_fn *fn, kj_einfo *ei)
{
    kj_sig *sigs = NULL;
    kj_span *spans = NULL;
    uint32_t n = 0;
    bool found = false;
    if (kj_eval_sigs(ic->s, e->sub.index, &sigs, &spans, &n) && n == 1) {
        for (uint32_t k = 0; k < fn->specs.n && !found; k++) {
            const kj_spec *sp = fn->specs.v[k];
            bool same = sp->nargs == sigs[0].nparams;
            for (uint32_t i = 0; same && i < sp->nargs; i++) same = sp->args[i] == sigs[0].params[i];
            found = same;
        }
    }
    if (!found) {
        if (ic->report)
            kj_error(ic->d, ic->s->src, e->sub.index->span,
                     "kernel '%s' has no overload for this signature (its signature, or the argument types of "
                     "its launches)", fn->def->name);
        return ei_value(ei, NULL);
    }
    ei->kind = EI_FUNC;
    ei->fn = fn;
    return ei;
}
