/* SPDX-License-Identifier: BSD-2-Clause */
/* Python's operator module (Numba's pysupported.rst, "operator"): each
 * function a row of KJ_BUILTINS (builtins.h), typed and lowered as the
 * operator it names (kj_builtin_operator, builtins_operator.c): operator.add(a,
 * b) is a + b, operator.lt(a, b) a < b, operator.not_(a) not a. The in-place
 * forms (iadd, ...) are a += b: on an array they write into it and return
 * it, on a list iadd extends it (infer_operator.c, lower_operator.c); on
 * immutable values they are the plain operator. PYOP_ADD comes first and
 * PYOP_IXOR last: kj_builtin_pyop tells the family by its range. */
#ifndef KJ_BUILTINS_OPERATOR_H
#define KJ_BUILTINS_OPERATOR_H

#include <stdbool.h>

#define KJ_BUILTINS_OPERATOR(X)                                                                          \
    X(PYOP_ADD, "operator.add", KJ_BF_ANY, "a, b") X(PYOP_SUB, "operator.sub", KJ_BF_ANY, "a, b")        \
    X(PYOP_MUL, "operator.mul", KJ_BF_ANY, "a, b")                                                       \
    X(PYOP_TRUEDIV, "operator.truediv", KJ_BF_ANY, "a, b")                                               \
    X(PYOP_FLOORDIV, "operator.floordiv", KJ_BF_ANY, "a, b")                                             \
    X(PYOP_MOD, "operator.mod", KJ_BF_ANY, "a, b") X(PYOP_POW, "operator.pow", KJ_BF_ANY, "a, b")        \
    X(PYOP_LSHIFT, "operator.lshift", KJ_BF_ANY, "a, b")                                                 \
    X(PYOP_RSHIFT, "operator.rshift", KJ_BF_ANY, "a, b")                                                 \
    X(PYOP_AND, "operator.and_", KJ_BF_ANY, "a, b") X(PYOP_OR, "operator.or_", KJ_BF_ANY, "a, b")        \
    X(PYOP_XOR, "operator.xor", KJ_BF_ANY, "a, b")                                                       \
    X(PYOP_MATMUL, "operator.matmul", KJ_BF_HOST, "a, b")                                                \
    X(PYOP_EQ, "operator.eq", KJ_BF_ANY, "a, b") X(PYOP_NE, "operator.ne", KJ_BF_ANY, "a, b")            \
    X(PYOP_LT, "operator.lt", KJ_BF_ANY, "a, b") X(PYOP_LE, "operator.le", KJ_BF_ANY, "a, b")            \
    X(PYOP_GT, "operator.gt", KJ_BF_ANY, "a, b") X(PYOP_GE, "operator.ge", KJ_BF_ANY, "a, b")            \
    X(PYOP_NEG, "operator.neg", KJ_BF_ANY, "a") X(PYOP_POS, "operator.pos", KJ_BF_ANY, "a")              \
    X(PYOP_INVERT, "operator.invert", KJ_BF_ANY, "a") X(PYOP_NOT, "operator.not_", KJ_BF_ANY, "a")       \
    /* the in-place forms, in the order of the binary ones above */                                      \
    X(PYOP_IADD, "operator.iadd", KJ_BF_ANY, "a, b") X(PYOP_ISUB, "operator.isub", KJ_BF_ANY, "a, b")    \
    X(PYOP_IMUL, "operator.imul", KJ_BF_ANY, "a, b")                                                     \
    X(PYOP_ITRUEDIV, "operator.itruediv", KJ_BF_ANY, "a, b")                                             \
    X(PYOP_IFLOORDIV, "operator.ifloordiv", KJ_BF_ANY, "a, b")                                           \
    X(PYOP_IMOD, "operator.imod", KJ_BF_ANY, "a, b") X(PYOP_IPOW, "operator.ipow", KJ_BF_ANY, "a, b")    \
    X(PYOP_ILSHIFT, "operator.ilshift", KJ_BF_ANY, "a, b")                                               \
    X(PYOP_IRSHIFT, "operator.irshift", KJ_BF_ANY, "a, b")                                               \
    X(PYOP_IAND, "operator.iand", KJ_BF_ANY, "a, b") X(PYOP_IOR, "operator.ior", KJ_BF_ANY, "a, b")      \
    X(PYOP_IXOR, "operator.ixor", KJ_BF_ANY, "a, b")

#endif
