/* SPDX-License-Identifier: BSD-2-Clause */
/* Exception objects in host code (`except ... as e`; builtins_exc.c types
 * them, lower_exc.c and llvm_excobj.c make them): rows of KJ_BUILTINS
 * (builtins.h). `e.args` is an attribute; the others are lowering's own:
 * type(e), `type(e) is C` (C's kind the second argument), isinstance(e, C),
 * `raise e`. EXC_ARGS comes first and EXC_RAISE last: kj_builtin_exc tells
 * them by range. */
#ifndef KJ_BUILTINS_EXC_H
#define KJ_BUILTINS_EXC_H

#define KJ_BUILTINS_EXC(X)                                                                               \
    X(EXC_ARGS, "exception.args", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD, "")                                      \
    X(EXC_NAME, "exception type.__name__", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD, "")                              \
    X(EXC_TYPE, "exception.<type>", KJ_BF_HOST, "")                                                      \
    X(EXC_IS, "exception.<is>", KJ_BF_HOST, "kind")                                                      \
    X(EXC_ISA, "exception.<isa>", KJ_BF_HOST, "kind")                                                    \
    X(EXC_NARGS, "exception args.<len>", KJ_BF_HOST, "")                                                 \
    X(EXC_RAISE, "exception.<raise>", KJ_BF_HOST, "")

#endif
