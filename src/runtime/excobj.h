/* SPDX-License-Identifier: BSD-2-Clause */
/* Exception objects (abi/exc_obj.h) for `except ... as e` in host code. */
#ifndef KJ_RT_EXCOBJ_H
#define KJ_RT_EXCOBJ_H

#include <stdint.h>

struct kj_rt;
/* The exception of class `kind` whose str() is `message`, its arguments as
 * `form` says (KJ_EXC_FORM_*): the pointer generated code holds (to its
 * str), registered with the run's strings. */
void *kj_rt_excobj_new(struct kj_rt *rt, int32_t kind, int32_t form, const char *message);

#endif
