/* SPDX-License-Identifier: BSD-2-Clause */
/* More of Python's set methods (Numba's pysupported.rst, "set"), rows of
 * KJ_BUILTINS (builtins.h) beside builtins_dict.c's add/discard/remove/
 * union/intersection/difference: typed by builtins_set.c, lowered by
 * lower_set.c over those (no run-time functions of their own). SET_CLEAR
 * comes first and SET_SYMDIFF last: kj_builtin_setops tells them by range. */
#ifndef KJ_BUILTINS_SET_H
#define KJ_BUILTINS_SET_H

#define KJ_BUILTINS_SETOPS(X)                                                                            \
    X(SET_CLEAR, "set.clear", KJ_BF_HOST | KJ_BF_METHOD, "")                                             \
    X(SET_POP, "set.pop", KJ_BF_HOST | KJ_BF_METHOD, "")                                                 \
    X(SET_UPDATE, "set.update", KJ_BF_HOST | KJ_BF_METHOD, "other")                                      \
    X(SET_ISSUBSET, "set.issubset", KJ_BF_HOST | KJ_BF_METHOD, "other")                                  \
    X(SET_ISSUPERSET, "set.issuperset", KJ_BF_HOST | KJ_BF_METHOD, "other")                              \
    X(SET_ISDISJOINT, "set.isdisjoint", KJ_BF_HOST | KJ_BF_METHOD, "other")                              \
    X(SET_SYMDIFF, "set.symmetric_difference", KJ_BF_HOST | KJ_BF_METHOD, "other")

#endif
