/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit_error_exc_args (kjit.h): how a run-time error's exception took its
 * arguments. kjit_error has no field for it and its layout is the ABI, so
 * the one byte is kept in `message` after the message's NUL (set_error
 * zeroes the rest of the buffer: a 0 there reads as unknown). */
#include "api_int.h"
#include "exc_args.h"

#include "abi/exc.h"
#include "abi/exc_obj.h"

#include <string.h>

void kj_api_error_set_exc_args(kjit_error *err, int kind, int form, const char *message)
{
    if (!err || err->code != KJIT_ERR_RUNTIME) return;
    size_t n = strnlen(err->message, sizeof err->message);
    if (n + 1 >= sizeof err->message) return; /* truncated: not known */
    if (form == KJ_EXC_FORM_AUTO) /* the runtime's own errors (exc_obj.h) */
        form = !message[0] ? KJ_EXC_FORM_NONE : kind == KJ_RT_KEY ? KJ_EXC_FORM_REPR : KJ_EXC_FORM_STR;
    kjit_exc_args a = form == KJ_EXC_FORM_NONE    ? KJIT_EXC_ARGS_NONE
                      : form == KJ_EXC_FORM_STR   ? KJIT_EXC_ARGS_STR
                      : form == KJ_EXC_FORM_REPR  ? KJIT_EXC_ARGS_REPR
                      : form == KJ_EXC_FORM_TUPLE ? KJIT_EXC_ARGS_TUPLE
                                                  : KJIT_EXC_ARGS_UNKNOWN;
    err->message[n + 1] = (char)a;
}

kjit_exc_args kjit_error_exc_args(const kjit_error *err)
{
    if (!err || err->code != KJIT_ERR_RUNTIME) return KJIT_EXC_ARGS_UNKNOWN;
    size_t n = strnlen(err->message, sizeof err->message);
    if (n + 1 >= sizeof err->message) return KJIT_EXC_ARGS_UNKNOWN;
    unsigned char a = (unsigned char)err->message[n + 1];
    return a <= KJIT_EXC_ARGS_TUPLE ? (kjit_exc_args)a : KJIT_EXC_ARGS_UNKNOWN;
}
