/* SPDX-License-Identifier: BSD-2-Clause */
/* str results of kjit_call / kjit_call_prepared. A string compiled code
 * makes (an f-string, str methods, a generator's next() of strings) lives
 * in the run context and is freed when the outermost entry call returns
 * (runtime/str.c), before kj_api_call_entry converts the result: it came
 * back as freed memory. A result whose type holds a str therefore runs
 * through a trampoline that, still inside the run, replaces each string
 * pointer of the result's memory form by a malloc'd copy, which its
 * kjit_value owns (KJ_API_STR_OWNED: kjit_value_release frees it). */
#include "api_int.h"

#include "runtime/rt.h"

#include <stdlib.h>
#include <string.h>

bool kj_api_type_has_str(const kj_type *t)
{
    if (t->kind == KJ_T_STR || kj_api_is_container(t)) return true; /* lists, sets: values_list.c */
    if (t->kind == KJ_T_OPTIONAL) return kj_api_type_has_str(t->elem);
    if (t->kind != KJ_T_TUPLE) return false;
    for (uint32_t k = 0; k < t->n; k++)
        if (kj_api_type_has_str(t->elems[k])) return true;
    return false;
}

/* Each string of the value of type t at mem replaced by a copy. */
static void own_strs(const kj_type *t, char *mem)
{
    if (t->kind == KJ_T_STR) {
        const char *s;
        memcpy(&s, mem, sizeof s);
        char *copy = strdup(s ? s : "");
        if (!copy) abort(); /* out of memory: the one failure that is not a value */
        memcpy(mem, &copy, sizeof copy);
    } else if (t->kind == KJ_T_TUPLE) {
        for (uint32_t k = 0; k < t->n; k++) own_strs(t->elems[k], mem + kj_api_item_offset(t, k));
    } else if (kj_api_is_container(t)) {
        kj_api_own_container(t, mem); /* a kjit_list of copies (values_list.c) */
    } else if (t->kind == KJ_T_OPTIONAL && *(const unsigned char *)mem) { /* { valid byte, value } (values.c) */
        own_strs(t->elem, mem + kj_api_mem_align(t));
    }
}

typedef struct str_run {
    kj_entry_fn fn;
    void **argv;
    const kj_type *ret_type;
} str_run;

/* The entry point that kj_rt_call_entry runs: the real one, then the copies (not reached when it raises). */
KJ_CALLS_JIT static void run_and_own(kj_rt *rt, void **args, void *ret)
{
    const str_run *r = (const str_run *)(void *)args;
    r->fn(rt, r->argv, ret);
    own_strs(r->ret_type, ret);
}

kj_rt_kind kj_api_run_entry(kj_rt *rt, kj_entry_fn fn, const kj_type *ret_type, void **argv, void *ret)
{
    if (!kj_api_type_has_str(ret_type)) return kj_rt_call_entry(rt, fn, argv, ret);
    str_run r = {fn, argv, ret_type};
    return kj_rt_call_entry(rt, run_and_own, (void **)(void *)&r, ret);
}
