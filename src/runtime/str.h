/* SPDX-License-Identifier: BSD-2-Clause */
/* What str.c shares with the other string files of the runtime (str_split.c). */
#ifndef KJ_RT_STR_H
#define KJ_RT_STR_H

#include <stddef.h>

struct kj_rt;
/* A copy of s[0:n], NUL-terminated, registered with the run (freed with its strings). */
char *kj_rt_str_own_n(struct kj_rt *rt, const char *s, size_t n);
/* s (malloc'd) registered with the run as its strings are: freed with them. */
char *kj_rt_str_adopt(struct kj_rt *rt, char *s);

#endif
