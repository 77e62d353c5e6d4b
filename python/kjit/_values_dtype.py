"""NumPy scalar types as values (KJIT_VALUE_DTYPE, since 0.5): np.float32 or np.dtype('int16') passed to
compiled code (Numba types them NumberClass / DType and specialises on them), a dtype returned
(`return a.dtype`: Numba gives back the np.dtype)."""

import numpy as np

VALUE_DTYPE = 15  # kjit_value_kind KJIT_VALUE_DTYPE


def is_dtype(o):
    """Whether `o` is a NumPy scalar type or dtype object (a class like np.float32, or np.dtype(...))."""
    return isinstance(o, np.dtype) or (isinstance(o, type) and issubclass(o, np.generic))


def set_value(v, o, i, codes):
    """Fill kjit_value `v` with dtype value `o` (argument `i`); codes: {np.dtype: kjit_dtype}."""
    from .errors import TypingError
    dt = o if isinstance(o, np.dtype) else np.dtype(o) if o is not np.generic else None
    code = codes.get(dt)
    if code is None:
        raise TypingError(f"argument {i}: the dtype {o!r} cannot be passed to compiled code "
                          "(kjit passes the dtypes of bool, integers, floats and complex numbers)")
    v.kind, v.dtype, v.v.i = VALUE_DTYPE, code, 0


def result(v, dtypes):
    """The np.dtype a KJIT_VALUE_DTYPE result names; dtypes: kjit_dtype -> np.dtype."""
    return dtypes[v.dtype]
