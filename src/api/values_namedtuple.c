/* SPDX-License-Identifier: BSD-2-Clause */
/* Namedtuple results (since 0.5): a tuple result of a collections.namedtuple
 * class carries the class's name (kjit_tuple.name), so that a caller that
 * knows the class (the Python package: the module's namedtuples) gives back
 * an instance of it, as Numba boxes a NamedTuple. */
#include "api_int.h"

const char *kj_api_tuple_name(const kj_type *t)
{
    const kj_ntclass *c = kj_nt_class(t);
    /* a LiteralStrKeyDict is a tuple with a class of its own, not a namedtuple */
    return c && !c->strkey_dict ? c->name : NULL;
}

const char *kjit_tuple_name(const kjit_tuple *t)
{
    /* a result's tuple is the first member of its kj_api_tuple_result (values.c) */
    return t ? ((const kj_api_tuple_result *)(const void *)t)->name : NULL;
}
