/* SPDX-License-Identifier: BSD-2-Clause */
/* KJIT_VALUE_DTYPE (since 0.5): a NumPy scalar type as a value, passed
 * (np.float32, np.dtype('int16')) and returned (`return a.dtype`). Numba
 * types the first as NumberClass and the second as DType; kjit has one type
 * for both, dtype(scalar) (KJ_T_DTYPE), which compiled code uses where NumPy
 * takes a dtype and folds when it compiles: it has no run-time bits (its
 * memory form is empty, values.c), so a value carries only its dtype. */
#include "api_int.h"

#include "abi/abi.h"

/* The dtypes a dtype value may name: those of scalars kjit compiles. */
bool kj_api_dtype_value_ok(kjit_dtype dt) { return kj_api_dtype_valid(dt); }

/* dtype(scalar) for a dtype value (Numba's typeof of np.float32). */
const kj_type *kj_api_dtype_value_type(kj_types *t, kjit_dtype dt)
{
    const kj_type *s;
    switch (dt) {
    case KJIT_BOOL: s = kj_t_bool(t); break;
    case KJIT_INT8: s = kj_t_int(t, 8, true); break;
    case KJIT_INT16: s = kj_t_int(t, 16, true); break;
    case KJIT_INT32: s = kj_t_int(t, 32, true); break;
    case KJIT_INT64: s = kj_t_int(t, 64, true); break;
    case KJIT_UINT8: s = kj_t_int(t, 8, false); break;
    case KJIT_UINT16: s = kj_t_int(t, 16, false); break;
    case KJIT_UINT32: s = kj_t_int(t, 32, false); break;
    case KJIT_UINT64: s = kj_t_int(t, 64, false); break;
    case KJIT_FLOAT16: s = kj_t_float(t, 16); break;
    case KJIT_FLOAT32: s = kj_t_float(t, 32); break;
    case KJIT_COMPLEX64: s = kj_t_complex(t, 64); break;
    case KJIT_COMPLEX128: s = kj_t_complex(t, 128); break;
    default: s = kj_t_float(t, 64); break;
    }
    return kj_t_dtype(t, s);
}

/* Whether a function returning dtype type `t` can hand it back: its element
 * is a scalar the C API names. */
bool kj_api_dtype_returnable(const kj_type *t) { return t->elem && kj_is_scalar(t->elem); }

/* The dtype value of a result of type `t` (nothing to read: folded). */
kjit_value kj_api_dtype_result(const kj_type *t)
{
    kjit_value r = {KJIT_VALUE_DTYPE, kj_api_public_dtype(kj_api_type_dtype(t->elem)), {0}};
    return r;
}

/* A dtype argument stored as type `t`: nothing to store; it must name t's dtype. */
bool kj_api_dtype_to_mem(const kj_type *t, const kjit_value *v)
{
    return kj_api_dtype_returnable(t) && kj_api_type_dtype(t->elem) == kj_api_dtype(v->dtype);
}
