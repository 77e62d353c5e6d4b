/* SPDX-License-Identifier: BSD-2-Clause */
/* Case maps and cased predicates of str beyond ASCII (str_ucase.c). */
#ifndef KJ_STR_UCASE_H
#define KJ_STR_UCASE_H

#include <stdbool.h>
#include <stdint.h>

struct kj_rt;

/* The maps: str.upper, lower, title, swapcase, capitalize, casefold. */
typedef enum { KJ_UC_UPPER, KJ_UC_LOWER, KJ_UC_TITLE, KJ_UC_SWAPCASE, KJ_UC_CAPITALIZE, KJ_UC_CASEFOLD } kj_ucase;

/* True when s is all ASCII (the callers' own loops are exact then). */
bool kj_str_is_ascii(const char *s);
/* s mapped as CPython maps it, a string the run owns; NULL when the
 * process has no UTF-8 character data (the caller's ASCII map then). */
char *kj_str_ucase(struct kj_rt *rt, const char *s, kj_ucase which);
/* str.islower (0), isupper (1), istitle (2) as CPython; -1 as above. */
int kj_str_ucased(const char *s, int which);

#endif
