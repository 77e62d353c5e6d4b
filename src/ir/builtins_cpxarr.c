/* SPDX-License-Identifier: BSD-2-Clause */
/* The loop type of NumPy's math ufuncs over arrays (np.sin(a), np.exp(a),
 * np.arctan2(a, b), ...; builtins.c's type_math1/type_binary): Numba's
 * choice among NumPy's loops (numba/np/ufunc_db.py: no float16 loops),
 * as builtins_npmath.c's float_loop: float32 stays, bool and integers of 8
 * and 16 bits compute in float32, wider ones in float64; complex64 and
 * complex128 keep their type for the ufuncs NumPy has complex loops for
 * (llvm_cpxufunc.c computes them), and the others have no loop, with
 * NumPy's message. */
#include "builtins.h"

#include <string.h>

/* The math ufuncs with complex loops in NumPy and Numba. */
static bool complex_loop(kj_builtin id)
{
    switch (id) {
    case KJ_B_EXP: case KJ_B_LOG: case KJ_B_LOG10: case KJ_B_SQRT: case KJ_B_SIN: case KJ_B_COS: case KJ_B_TAN:
    case KJ_B_SINH: case KJ_B_COSH: case KJ_B_TANH: case KJ_B_ASIN: case KJ_B_ACOS: case KJ_B_ATAN:
    case KJ_B_ASINH: case KJ_B_ACOSH: case KJ_B_ATANH: case KJ_B_POW:
        return true;
    default: return false;
    }
}

const kj_type *kj_np_float_loop(kj_types *t, kj_builtin id, const kj_type *e, kj_span call, const kj_source *src,
                                kj_diags *d)
{
    if (e->kind == KJ_T_COMPLEX) {
        if (complex_loop(id)) return e;
        const char *path = kj_builtin_get(id)->path, *dot = strrchr(path, '.');
        kj_error(d, src, call, "ufunc '%s' not supported for the input types, and the inputs could not be safely "
                 "coerced to any supported types according to the casting rule ''safe''", dot ? dot + 1 : path);
        return NULL;
    }
    if (e->kind == KJ_T_FLOAT) return kj_t_float(t, e->bits == 32 && !e->weak ? 32 : 64);
    bool small = e->kind == KJ_T_BOOL || (e->kind == KJ_T_INT && e->bits <= 16 && !e->weak);
    return kj_t_float(t, small ? 32 : 64);
}
