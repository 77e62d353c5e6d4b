/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit_error_exc_args's byte (exc_args.c). */
#ifndef KJ_API_EXC_ARGS_H
#define KJ_API_EXC_ARGS_H

#include <kjit.h>

/* After kj_api_set_error of a run-time error: how its exception (class
 * `kind`, a kj_rt_kind; form: exc_obj.h's KJ_EXC_FORM_*; message: str() of
 * it) took its arguments. */
void kj_api_error_set_exc_args(kjit_error *err, int kind, int form, const char *message);

#endif
