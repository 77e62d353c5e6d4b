/* SPDX-License-Identifier: BSD-2-Clause */
/* Exception objects: what `except ... as e` binds in host code. kjit's
 * exceptions are a class (kj_rt_kind) and a message, str() of the
 * exception; the raise also says how the message came from the arguments
 * (exc_obj.h's forms), from which repr(e), e.args and len(e.args) follow as
 * CPython writes them:
 *     raise ValueError             ValueError()          ()
 *     raise ValueError("bad")      ValueError('bad')     ('bad',)
 *     raise ValueError(3)          ValueError(3)         (3,)
 *     raise ValueError("a", 1)     ValueError('a', 1)    ('a', 1)
 * All of it is made once, when the exception is caught, into one block
 * that the run frees with its strings. */
#include "excobj.h"

#include "format.h"
#include "rt.h"
#include "str.h"

#include "../abi/exc_obj.h"
#include "../util/buf.h"

#include <stdlib.h>
#include <string.h>

static const int base_of[KJ_RT__COUNT] = {
#define KJ_EXC_BASE(id, name, base, raisable) [KJ_RT_##id] = KJ_RT_##base,
    KJ_EXC_CLASSES(KJ_EXC_BASE)
#undef KJ_EXC_BASE
};

/* The number of items of a tuple's repr "(a, 'b, c', (1, 2))": its commas
 * outside quotes and nested brackets, plus one. */
static int32_t tuple_items(const char *s)
{
    int32_t n = 1, depth = 0;
    char q = 0;
    for (const char *p = s; *p; p++) {
        if (q) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == q) q = 0;
        } else if (*p == '\'' || *p == '"') q = *p;
        else if (*p == '(' || *p == '[' || *p == '{') depth++;
        else if (*p == ')' || *p == ']' || *p == '}') depth--;
        else if (*p == ',' && depth == 1) n++;
    }
    return n;
}

/* The arguments' reprs joined by ", " into b (the tuple's inside), and their number. */
static int32_t args_inside(kj_buf *b, int32_t kind, int32_t form, const char *msg)
{
    if (form == KJ_EXC_FORM_AUTO)
        form = !msg[0] ? KJ_EXC_FORM_NONE : kind == KJ_RT_KEY ? KJ_EXC_FORM_REPR : KJ_EXC_FORM_STR;
    switch (form) {
    case KJ_EXC_FORM_NONE: return 0;
    case KJ_EXC_FORM_STR: kj_fmt_str_repr(b, msg, false); return 1;
    case KJ_EXC_FORM_TUPLE: { /* "(a, b)": its inside */
        size_t n = strlen(msg);
        if (n >= 2 && msg[0] == '(' && msg[n - 1] == ')') {
            kj_buf_printf(b, "%.*s", (int)(n - 2), msg + 1);
            return tuple_items(msg);
        }
        kj_buf_puts(b, msg);
        return 1;
    }
    default: kj_buf_puts(b, msg); return 1;
    }
}

static const char *own(kj_rt *rt, kj_buf *b)
{
    return kj_rt_str_own_n(rt, b->s ? b->s : "", b->n);
}

void *kj_rt_excobj_new(kj_rt *rt, int32_t kind, int32_t form, const char *message)
{
    const char *msg = message ? message : "";
    size_t n = strlen(msg);
    kj_abi_excobj *o = malloc(sizeof *o + n + 1);
    if (!o) abort(); /* out of memory: the one failure that is not a value */
    memcpy(o->str, msg, n + 1);
    o->kind = kind > KJ_RT_OK && kind < KJ_RT__COUNT ? kind : KJ_RT_RUNTIME;
    o->isa = 0;
    o->form = form;
    o->pad = 0;
    for (int k = o->kind; k > KJ_RT_OK && k < KJ_RT__COUNT; k = base_of[k]) o->isa |= UINT64_C(1) << k;
    o->isa |= UINT64_C(1) << KJ_RT_EXCEPTION;
    o->name = kj_rt_kind_name((kj_rt_kind)o->kind);
    kj_buf in = {0}, b = {0};
    o->nargs = args_inside(&in, o->kind, form, msg);
    const char *inside = in.s ? in.s : "";
    kj_buf_printf(&b, "%s(%s)", o->name, inside);
    o->repr = own(rt, &b);
    b.n = 0;
    kj_buf_printf(&b, o->nargs == 1 ? "(%s,)" : "(%s)", inside);
    o->args = own(rt, &b);
    b.n = 0;
    kj_buf_printf(&b, "<class '%s'>", o->name);
    o->type_str = own(rt, &b);
    kj_buf_free(&b);
    kj_buf_free(&in);
    kj_rt_str_adopt(rt, (char *)o);
    return o->str;
}
