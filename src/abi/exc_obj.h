/* SPDX-License-Identifier: BSD-2-Clause */
/* An exception caught by `except ... as e` in host code (rt_exc.c makes it,
 * llvm_excobj.c reads it). Generated code holds a pointer to `str`, the
 * exception's str(), so that everything that takes a str takes it; the
 * header before it holds what else Python can ask of the exception, made
 * when it is caught. Part of the ABI (abi.h's KJ_ABI_VERSION). */
#ifndef KJ_ABI_EXC_OBJ_H
#define KJ_ABI_EXC_OBJ_H

#include <stddef.h>
#include <stdint.h>

/* What a raise says of its arguments (bits 8-15 of kj_rt_raise's kind),
 * besides the message, str() of the exception:
 *   AUTO   the runtime's own errors: one string argument, the message, or
 *          none when the message is empty (a KeyError's message is its
 *          argument's repr, as REPR);
 *   NONE   no arguments (`raise ValueError`);
 *   STR    one string argument, the message;
 *   REPR   one argument whose repr() the message is (a number; a KeyError);
 *   TUPLE  several: the message is the repr() of the tuple. */
enum { KJ_EXC_FORM_AUTO, KJ_EXC_FORM_NONE, KJ_EXC_FORM_STR, KJ_EXC_FORM_REPR, KJ_EXC_FORM_TUPLE };
enum { KJ_EXC_FORM_SHIFT = 8 };

typedef struct kj_abi_excobj {
    uint64_t isa;         /* bit k: an instance of the class of kind k (its class and bases) */
    int32_t kind, nargs;  /* type(e) as kj_rt_kind; len(e.args) */
    int32_t form, pad;    /* what its raise said of the arguments (`raise e` says it again) */
    const char *name;     /* type(e).__name__ */
    const char *type_str; /* str(type(e)): "<class 'ValueError'>" */
    const char *repr;     /* repr(e): "ValueError('bad', 3)" */
    const char *args;     /* repr(e.args): "('bad', 3)" */
    char str[];           /* str(e) */
} kj_abi_excobj;

/* Where a field is from the pointer generated code holds. */
#define KJ_EXCOBJ_AT(field) ((long long)offsetof(kj_abi_excobj, field) - (long long)offsetof(kj_abi_excobj, str))

#endif
