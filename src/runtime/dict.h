/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.typed.Dict and sets at run time (dict.c): an open-addressing hash
 * table over a dense, insertion-ordered entry array, as CPython's compact
 * dict. A dict value in generated code is a pointer to a kj_dict (len at
 * offset 0, read inline); keys and values go through the kj_rt_dict_*
 * functions as pointers to their memory form (abi.h), keys compared and
 * hashed as bytes (generated code zeroes a key's padding and turns -0.0 into
 * 0.0); a string key is a pointer, hashed and compared by the text it
 * points to (strings live as long as the run's dicts: str.c). A set is a dict whose values have no bytes. Every dict is registered
 * in the run context and freed, as lists are, when the outermost entry call
 * returns; a dict of arrays holds one reference to each value's owner. */
#ifndef KJ_DICT_H
#define KJ_DICT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct kj_dict {
    int64_t len;           /* live entries */
    int64_t used, cap;     /* entries written (live or deleted), allocated */
    char *entries;         /* cap entries of esz bytes: hash u64, live i64, key, value */
    int64_t *index;        /* nindex slots: an entry's number, EMPTY or DELETED */
    int64_t nindex;        /* a power of two */
    int64_t ksize, vsize, esz, voff;
    int32_t owner_off;     /* array values: the owner's byte offset in a value; -1: none */
    bool int_key;          /* the key is one integer: its own hash */
    bool str_key;          /* the key is a string pointer: hashed and compared by its text */
    bool pydict;           /* made by host code: a Python dict, printed by repr (kj_rt_dict_pydict) */
    char *tmp;             /* one value: what pop() hands back */
} kj_dict;

struct kj_rt;
void kj_dict_free(kj_dict *d);

#endif
