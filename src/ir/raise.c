/* SPDX-License-Identifier: BSD-2-Clause */
/* raise — the `raise` statement: which built-in exception class it names
 * (abi/exc.h) and its message.
 *
 * As in Numba, an exception's arguments are compile-time constants: the
 * message is fixed when the program compiles, and the statement lowers to
 * an ASSERT that always fails (aux KIR_ASSERT_RAISE, i = the class's kind),
 * so that host code, @jit functions and kernels raise it as they raise
 * every other run-time error: the class, the message, the statement's
 * location. */
#include "sema_int.h"

#include "../abi/exc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum {
#define KJ_EXC_IDX(id, name, base, raisable) EXC_##id,
    KJ_EXC_CLASSES(KJ_EXC_IDX)
#undef KJ_EXC_IDX
    EXC__COUNT
};

static const struct exc_class {
    const char *name;
    int base; /* EXC_OK: the root, Exception */
    bool raisable;
} classes[EXC__COUNT] = {
#define KJ_EXC_ROW(id, name, base, raisable) [EXC_##id] = {name, EXC_##base, raisable},
    KJ_EXC_CLASSES(KJ_EXC_ROW)
#undef KJ_EXC_ROW
};

const char *kir_exc_name(int kind)
{
    return kind > 0 && kind < EXC__COUNT ? classes[kind].name : "RuntimeError";
}

int kj_exc_class(const char *name)
{
    for (int k = 1; k < EXC__COUNT; k++)
        if (classes[k].raisable && !strcmp(classes[k].name, name)) return k;
    return -1;
}

bool kj_exc_is_subclass(int kind, int base)
{
    for (int k = kind; k > 0 && k < EXC__COUNT; k = classes[k].base)
        if (k == base) return true;
    return false;
}

/* Python's other built-in exception classes, which Numba raises and kjit
 * does not know: any other name is not defined at all. */
static bool python_class(const char *n)
{
    static const char *const names[] = {
        "BaseException", "SystemExit", "KeyboardInterrupt", "GeneratorExit", "StopAsyncIteration",
        "BufferError", "EOFError", "ImportError", "ModuleNotFoundError", "UnboundLocalError",
        "BlockingIOError", "ChildProcessError", "ConnectionError", "BrokenPipeError",
        "ConnectionAbortedError", "ConnectionRefusedError", "ConnectionResetError", "FileExistsError",
        "InterruptedError", "IsADirectoryError", "NotADirectoryError", "ProcessLookupError", "TimeoutError",
        "ReferenceError", "SyntaxError", "IndentationError", "TabError", "SystemError", "UnicodeDecodeError",
        "UnicodeEncodeError", "UnicodeTranslateError", "EnvironmentError", "IOError", "Warning",
        "UserWarning", "DeprecationWarning", "RuntimeWarning",
    };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (!strcmp(names[k], n)) return true;
    return false;
}

/* `name` is no exception class kjit knows: Python's NameError (Numba's
 * typing error) for a name Python does not define either. */
static kj_diag *unknown_class(kj_diags *d, const kj_source *src, const kj_expr *cls)
{
    if (!python_class(cls->name)) return kj_error(d, src, cls->span, "name '%s' is not defined", cls->name);
    return kj_error(d, src, cls->span, "'%s' is not an exception class kjit knows", cls->name);
}

/* Python's repr of a str without escapes to make: quotes that it does not
 * contain ('...' unless it holds a ' and no "). */
static void repr_str(kj_buf *out, const char *s)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    kj_buf_printf(out, "%c%s%c", q, s, q);
}

/* One constant argument as str() (repr: as repr(), inside a tuple or for
 * KeyError) prints it; false when it is not a constant kjit can print. */
static bool const_arg(kj_buf *out, const kj_expr *e, bool repr)
{
    switch (e->kind) {
    case KJ_E_STR:
        if (repr) { /* no escapes to write */
            for (uint32_t i = 0; i < e->str.len; i++)
                if ((unsigned char)e->str.s[i] < 0x20 || e->str.s[i] == '\\' || e->str.s[i] == 0x7f) return false;
            repr_str(out, e->str.s);
        }
        else kj_buf_puts(out, e->str.s);
        return true;
    case KJ_E_INT:
        if (e->int_.big) return false;
        kj_buf_printf(out, "%" PRIu64, e->int_.value);
        return true;
    case KJ_E_BOOL: kj_buf_puts(out, e->bool_ ? "True" : "False"); return true;
    case KJ_E_UNARY:
        if (e->un.op != KJ_UOP_NEG || e->un.x->kind != KJ_E_INT) return false;
        kj_buf_putc(out, '-');
        return const_arg(out, e->un.x, repr);
    default: return false;
    }
}

const kj_expr *kj_raise_dynamic(kj_sema *s, const kj_spec *sp, const kj_expr *exc)
{
    if (!sp || !kj_host_code(sp) || exc->kind != KJ_E_CALL || exc->call.nargs != 1 || exc->call.nkw)
        return NULL;
    kj_buf b = {0};
    bool constant = const_arg(&b, exc->call.args[0], true);
    kj_buf_free(&b);
    (void)s;
    return constant ? NULL : exc->call.args[0];
}

/* The message of CLASS(args): str() of the exception. */
static bool message(kj_sema *s, kj_diags *d, const kj_expr *call, int kind, const char **msg)
{
    uint32_t n = call->call.nargs;
    if (call->call.nkw) {
        if (d) kj_error(d, s->src, call->call.kw[0].span, "exceptions take no keyword arguments");
        return false;
    }
    kj_buf b = {0};
    if (n > 1) kj_buf_putc(&b, '(');
    for (uint32_t i = 0; i < n; i++) {
        if (i) kj_buf_puts(&b, ", ");
        if (!const_arg(&b, call->call.args[i], n > 1 || kind == EXC_KEY)) {
            if (d) {
                kj_diag *dg = kj_error(d, s->src, call->call.args[i]->span,
                                       "an exception's argument must be a constant string or integer");
                kj_diag_hint(dg, "Numba raises exceptions with compile-time constant arguments only");
            }
            kj_buf_free(&b);
            return false;
        }
    }
    if (n > 1) kj_buf_putc(&b, ')');
    *msg = n ? kj_arena_strdup(s->a, b.n ? b.s : "") : NULL;
    kj_buf_free(&b);
    return true;
}

/* What `raise EXC` raises, where EXC is CLASS or CLASS(args): its kind and
 * message (NULL: none). Reports what is wrong to d (NULL: quietly, as
 * lowering asks after inference checked); false after an error. */
bool kj_raise_eval(kj_sema *s, kj_diags *d, kj_spec *sp, const kj_expr *exc, int *kind, const char **msg)
{
    const kj_expr *cls = exc->kind == KJ_E_CALL ? exc->call.fn : exc;
    *msg = NULL;
    if (cls->kind != KJ_E_NAME || (sp && kj_var_of(sp, cls))) {
        if (d) kj_error(d, s->src, exc->span, "exceptions must derive from BaseException");
        return false;
    }
    *kind = kj_exc_class(cls->name);
    if (*kind < 0) {
        if (d) {
            kj_diag *dg = unknown_class(d, s->src, cls);
            kj_diag_hint(dg, "raise one of Python's built-in classes: Exception, ValueError, TypeError, "
                             "IndexError, KeyError, ZeroDivisionError, RuntimeError, AssertionError, "
                             "NotImplementedError, ... (docs/language.md lists them)");
        }
        return false;
    }
    if (kj_raise_dynamic(s, sp, exc)) return true; /* its message made at run time (lower_try.c) */
    return exc->kind != KJ_E_CALL || message(s, d, exc, *kind, msg);
}

/* ---- try statements ---- */

bool kj_check_try(kj_ictx *ic, const kj_stmt *st)
{
    kj_fkind k = ic->sp->fn->kind;
    if (ic->sp->device || k == FK_KERNEL || k == FK_DEVICE)
        kj_error(ic->d, ic->s->src, st->span, "'try' is not supported in CUDA kernels and device functions");
    else if (k == FK_VECTORIZE || k == FK_GUVECTORIZE || k == FK_REDUCE)
        kj_error(ic->d, ic->s->src, st->span, "'try' is not supported in ufuncs");
    const kj_block *cl = &st->try_.clauses;
    return cl->n && cl->v[cl->n - 1]->except.clause == KJ_EXCEPT_FINALLY;
}

/* One class of an except clause: a built-in class; in a @jit function only
 * Exception, as in Numba. */
static void check_class(kj_ictx *ic, const kj_expr *e)
{
    if (e->kind != KJ_E_NAME || kj_var_of(ic->sp, e)) {
        kj_error(ic->d, ic->s->src, e->span, "an except clause names an exception class or a tuple of them");
        return;
    }
    int kind = kj_exc_class(e->name);
    if (kind < 0) {
        kj_diag *dg = unknown_class(ic->d, ic->s->src, e);
        kj_diag_hint(dg, "name one of Python's built-in classes: Exception, ValueError, IndexError, ...");
    } else if (ic->sp->fn->kind == FK_JIT && kind != EXC_EXCEPTION) {
        kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "Exception matching is limited to <class 'Exception'>");
        kj_diag_hint(dg, "Numba's @jit functions catch with 'except Exception:' or a bare 'except:' only");
    }
}

void kj_check_except(kj_ictx *ic, const kj_stmt *st)
{
    const kj_expr *t = st->except.type;
    if (!t) return;
    if (t->kind != KJ_E_TUPLE) {
        check_class(ic, t);
        return;
    }
    for (uint32_t i = 0; i < t->seq.n; i++) check_class(ic, t->seq.v[i]);
}

static bool binds_exception(const kj_block *b, const char *name)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const kj_stmt *st = b->v[i];
        if (st->kind == KJ_S_EXCEPT && st->except.name && !strcmp(st->except.name, name)) return true;
        const kj_block *in[2];
        for (uint32_t k = 0, nb = kj_stmt_blocks(st, in); k < nb; k++)
            if (binds_exception(in[k], name)) return true;
    }
    return false;
}

bool kj_except_name_error(kj_ictx *ic, const kj_expr *e)
{
    const kj_funcdef *def = ic->sp->fn->def;
    if (!def || !binds_exception(&def->body, e->name)) return false;
    kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "Exception object cannot be stored into variable (%s)", e->name);
    kj_diag_hint(dg, "Numba's @jit functions do not bind the exception of 'except ... as %s' (host code does): "
                     "catch it in the caller",
                 e->name);
    return true;
}

bool kj_host_code(const kj_spec *sp)
{
    return !sp->device && (sp->fn->kind == FK_MAIN || sp->fn->kind == FK_HELPER);
}

bool kj_exc_scope_error(kj_ictx *ic, const kj_expr *e)
{
    for (const kj_exc_scope *s = ic->exc; s; s = s->up)
        if (!strcmp(s->name, e->name)) return false;
    kj_diag *dg = kj_error(ic->d, ic->s->src, e->span, "name '%s' is not defined here", e->name);
    kj_diag_hint(dg, "'except ... as %s' binds the exception inside its except clause only: Python deletes the "
                     "name at the clause's end",
                 e->name);
    return true;
}
