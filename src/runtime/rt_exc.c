/* SPDX-License-Identifier: BSD-2-Clause */
/* try statements in host code: catching the run-time errors of rt.c.
 *
 * A raise longjmps to the context's innermost jmp_buf (rt->jb). A try
 * statement's frame holds one more: its body runs with the frame's jmp_buf
 * innermost, so that an exception raised anywhere below it (the body, the
 * functions it calls, the runtime) returns to the _setjmp generated code
 * called at the start of the statement, which then runs the handlers. What
 * the raise recorded in the context (class, message, location) moves to the
 * frame, so that a handler may raise and catch other exceptions and a
 * handler that does not match can raise the first one again.
 *
 * Leaving the body by its end or a return restores the previous jmp_buf
 * (kj_rt_try_end); generated code compiles no other way out of a body
 * (break and continue out of one are refused). The frames between the raise
 * and the handler need no unwinding, as for kj_rt_call_entry (rt.h): arrays
 * they made are the context's, released with it. */
#include "rt.h"

#include "../abi/abi.h"
#include "../abi/exc.h"
#include "../abi/exc_obj.h"
#include "excobj.h"
#include "str.h"

#include <stdio.h>
#include <string.h>

typedef struct kj_rt_try {
    jmp_buf jb; /* first: generated code passes the frame to _setjmp */
    jmp_buf *saved;
    int32_t kind, line, col, form; /* form: what the raise said of its arguments (exc_obj.h) */
    char message[KJ_ABI_TRY_MESSAGE];
} kj_rt_try;

_Static_assert(sizeof(kj_rt_try) <= KJ_ABI_TRY_SIZE, "abi.h's KJ_ABI_TRY_SIZE");
_Static_assert(offsetof(kj_rt_try, jb) == 0, "the frame starts with its jmp_buf");
_Static_assert(KJ_ABI_TRY_MESSAGE == sizeof ((kj_rt *)0)->message, "a caught message fits the frame");

static const int base_of[KJ_RT__COUNT] = {
#define KJ_EXC_BASE(id, name, base, raisable) [KJ_RT_##id] = KJ_RT_##base,
    KJ_EXC_CLASSES(KJ_EXC_BASE)
#undef KJ_EXC_BASE
};

void kj_rt_try_enter(kj_rt *rt, void *frame)
{
    kj_rt_try *t = frame;
    t->saved = rt->jb;
    t->kind = KJ_RT_OK;
    rt->jb = &t->jb;
}

void kj_rt_try_end(kj_rt *rt, void *frame)
{
    rt->jb = ((kj_rt_try *)frame)->saved;
}

void kj_rt_try_caught(kj_rt *rt, void *frame)
{
    kj_rt_try *t = frame;
    rt->jb = t->saved;
    t->kind = rt->kind != KJ_RT_OK ? (int32_t)rt->kind : KJ_RT_RUNTIME;
    t->line = rt->line;
    t->col = rt->col;
    t->form = rt->exc_form;
    memcpy(t->message, rt->message, sizeof t->message);
    rt->kind = KJ_RT_OK; /* handled, unless raised again */
    rt->exc_form = KJ_EXC_FORM_AUTO;
    rt->message[0] = 0;
}

int32_t kj_rt_exc_match(void *frame, int32_t kind)
{
    if (kind == KJ_RT_EXCEPTION) return 1; /* every class kjit raises derives from Exception */
    for (int k = ((kj_rt_try *)frame)->kind; k > KJ_RT_OK && k < KJ_RT__COUNT; k = base_of[k])
        if (k == kind) return 1;
    return 0;
}

_Noreturn void kj_rt_reraise(kj_rt *rt, void *frame)
{
    kj_rt_try *t = frame;
    kj_rt_raise(rt, t->kind | t->form << KJ_EXC_FORM_SHIFT, t->message, t->line, t->col);
}

void *kj_rt_exc_value(kj_rt *rt, void *frame)
{
    const kj_rt_try *t = frame;
    return kj_rt_excobj_new(rt, t->kind, t->form, t->message);
}
