/* SPDX-License-Identifier: BSD-2-Clause */
/* Python's operator module (builtins_operator.h): which operator each of
 * its functions is. Typing and lowering are the operator's own
 * (infer_call.c's operator_call, lower.c's lower_operator), with the
 * in-place forms on arrays and lists in infer_operator.c / lower_operator.c. */
#include "builtins.h"

#include "../frontend/ast.h"

bool kj_builtin_pyoperator(kj_builtin id, kj_opufunc *out)
{
    static const kj_opufunc ops[] = {
        [KJ_B_PYOP_ADD - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_ADD},
        [KJ_B_PYOP_SUB - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_SUB},
        [KJ_B_PYOP_MUL - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_MUL},
        [KJ_B_PYOP_TRUEDIV - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_DIV},
        [KJ_B_PYOP_FLOORDIV - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_FLOORDIV},
        [KJ_B_PYOP_MOD - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_MOD},
        [KJ_B_PYOP_POW - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_POW},
        [KJ_B_PYOP_LSHIFT - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_LSHIFT},
        [KJ_B_PYOP_RSHIFT - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_RSHIFT},
        [KJ_B_PYOP_AND - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_BITAND},
        [KJ_B_PYOP_OR - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_BITOR},
        [KJ_B_PYOP_XOR - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_BITXOR},
        [KJ_B_PYOP_MATMUL - KJ_B_PYOP_ADD] = {KJ_OPU_BINARY, KJ_OP_MATMUL},
        [KJ_B_PYOP_EQ - KJ_B_PYOP_ADD] = {KJ_OPU_COMPARE, KJ_CMP_EQ},
        [KJ_B_PYOP_NE - KJ_B_PYOP_ADD] = {KJ_OPU_COMPARE, KJ_CMP_NE},
        [KJ_B_PYOP_LT - KJ_B_PYOP_ADD] = {KJ_OPU_COMPARE, KJ_CMP_LT},
        [KJ_B_PYOP_LE - KJ_B_PYOP_ADD] = {KJ_OPU_COMPARE, KJ_CMP_LE},
        [KJ_B_PYOP_GT - KJ_B_PYOP_ADD] = {KJ_OPU_COMPARE, KJ_CMP_GT},
        [KJ_B_PYOP_GE - KJ_B_PYOP_ADD] = {KJ_OPU_COMPARE, KJ_CMP_GE},
        [KJ_B_PYOP_NEG - KJ_B_PYOP_ADD] = {KJ_OPU_UNARY, KJ_UOP_NEG},
        [KJ_B_PYOP_POS - KJ_B_PYOP_ADD] = {KJ_OPU_UNARY, KJ_UOP_POS},
        [KJ_B_PYOP_INVERT - KJ_B_PYOP_ADD] = {KJ_OPU_UNARY, KJ_UOP_INVERT},
        [KJ_B_PYOP_NOT - KJ_B_PYOP_ADD] = {KJ_OPU_UNARY, KJ_UOP_NOT},
    };
    if (id < KJ_B_PYOP_ADD || id > KJ_B_PYOP_IXOR) return false;
    if (kj_builtin_pyop_inplace(id)) { /* iadd .. ixor: add .. xor */
        *out = ops[id - KJ_B_PYOP_IADD];
        return true;
    }
    *out = ops[id - KJ_B_PYOP_ADD];
    return true;
}
