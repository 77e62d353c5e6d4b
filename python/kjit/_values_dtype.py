"""NumPy scalar types as values (KJIT_VALUE_DTYPE, since 0.5): np.float32 or np.dtype('int16') passed to
compiled code (Numba types them NumberClass / DType and specialises on them), a dtype returned
(`return a.dtype`: Numba gives back the np.dtype)."""

import numpy as np

VALUE_DTYPE = 15  # kjit_value_kind KJIT_VALUE_DTYPE


def is_dtype(o):
    """Whether `o` is a NumPy scalar type or dtype object (a class like np.float32, or np.dtype(...))."""
    return isinstance(o, np.dtype) or (isinstance(o, type) and issubclass(o, np.generic))


# kjit_dtype of each NumPy dtype a dtype value may name (include/kjit.h)
CODES = {np.dtype(n): k for k, n in enumerate(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                                "uint32", "uint64", "float32", "float64", "complex64",
                                                "complex128", "float16"])}
DTYPES = {k: d for d, k in CODES.items()}


def set_value(v, o, i):
    """Fill kjit_value `v` with dtype value `o` (argument `i`)."""
    from .errors import TypingError
    dt = o if isinstance(o, np.dtype) else np.dtype(o) if o is not np.generic else None
    code = CODES.get(dt)
    if code is None:
        raise TypingError(f"argument {i}: the dtype {o!r} cannot be passed to compiled code "
                          "(kjit passes the dtypes of bool, integers, floats and complex numbers)")
    v.kind, v.dtype, v.v.i = VALUE_DTYPE, code, 0


def result(v):
    """The np.dtype a KJIT_VALUE_DTYPE result names."""
    return DTYPES[v.dtype]
