"""Complex numbers, np.datetime64 / np.timedelta64 and bytes, bytearray, memoryview between Python and kjit
(kjit.h since 0.5: KJIT_VALUE_COMPLEX, the datetime dtypes with their unit, KJIT_VALUE_BYTES), as Numba
unboxes and boxes them (numba/core/boxing.py): a complex (Python's or NumPy's) is complex128, np.complex64
complex64, and a complex result comes back as a Python complex; a datetime64/timedelta64 travels as its int64
count and unit and comes back as the NumPy scalar; bytes is a read-only buffer, bytearray a writable one (the
callee's writes are the caller's: no copy), a memoryview has the dtype, dimensions and strides of what it views;
a bytes result comes back as bytes."""

import ctypes

import numpy as np

from . import _lib
from ._lib import lib

# NumPy's datetime units (np.datetime_data) in NPY_DATETIMEUNIT order, as kjit.h's KJIT_UNIT_*.
UNITS = {"Y": 0, "M": 1, "W": 2, "D": 4, "h": 5, "m": 6, "s": 7, "ms": 8, "us": 9, "ns": 10, "ps": 11,
         "fs": 12, "as": 13, "generic": 14}
UNIT_NAMES = {v: k for k, v in UNITS.items()}
_TIME_CODE = {"M": _lib.DATETIME64, "m": _lib.TIMEDELTA64}


def time_unit(dtype, i, cls):
    """The unit code of a datetime64/timedelta64 dtype; for a multiple of a unit ('10s'), Numba's TypingError
    naming argument i (of class cls)."""
    from .errors import TypingError
    unit, count = np.datetime_data(dtype)
    if count != 1 or unit not in UNITS:
        raise TypingError(f"argument {i}: Cannot determine Numba type of {cls!r} ({dtype}: a multiple of a unit)")
    return UNITS[unit]


def set_scalar(v, o, i):
    """Value v from a complex or datetime scalar o: True when o is one."""
    if isinstance(o, (complex, np.complexfloating)) and not isinstance(o, np.clongdouble):
        v.kind, v.dtype = _lib.VALUE_COMPLEX, 11 if isinstance(o, np.complex64) else 12
        v.v.c.re, v.v.c.im = o.real, o.imag
        return True
    if isinstance(o, (np.datetime64, np.timedelta64)):
        v.kind, v.dtype = _lib.VALUE_INT, _TIME_CODE[o.dtype.kind]
        v.v.dt.count, v.v.dt.unit = int(o.view(np.int64)), time_unit(o.dtype, i, type(o))
        return True
    return False


def time_array(a, i):
    """A datetime64/timedelta64 array as the int64 array over its memory, and (dtype code, unit)."""
    return a.view(np.int64), (_TIME_CODE[a.dtype.kind], time_unit(a.dtype, i, type(a)))


def mark_time(p, code_unit):
    """Make wrapped int64 array p a datetime one (kjit_array_set_unit)."""
    err = _lib.Error()
    if lib.kjit_array_set_unit(p, code_unit[0], code_unit[1], ctypes.byref(err)):
        from .errors import TypingError
        raise TypingError(err.message.decode())


def result_dtype(ptr):
    """The NumPy dtype of a result array of a datetime dtype (None for the others)."""
    code = lib.kjit_array_dtype(ptr)
    if code not in (_lib.DATETIME64, _lib.TIMEDELTA64):
        return None
    return np.dtype(f"{'M8' if code == _lib.DATETIME64 else 'm8'}[{UNIT_NAMES[lib.kjit_array_unit(ptr)]}]")


def buffer_array(o):
    """(the NumPy array over a bytes/bytearray/memoryview's memory, its kjit_buffer_kind), or None."""
    if isinstance(o, bytes):
        return np.frombuffer(o, dtype=np.uint8), _lib.BUFFER_BYTES
    if isinstance(o, bytearray):
        return np.frombuffer(o, dtype=np.uint8), _lib.BUFFER_BYTEARRAY
    if isinstance(o, memoryview):
        a = np.asarray(o)
        return a, _lib.BUFFER_MEMORYVIEW_RO if o.readonly else _lib.BUFFER_MEMORYVIEW
    return None


def to_python(v, array):
    """A complex, datetime or bytes result as Python's object (array: makes the NumPy array of a kjit_array
    result, taking it over); NotImplemented for other kinds."""
    k = v.kind
    if k == _lib.VALUE_COMPLEX:
        return complex(v.v.c.re, v.v.c.im)  # Numba boxes complex64 as a Python complex too
    if k == _lib.VALUE_INT and v.dtype in (_lib.DATETIME64, _lib.TIMEDELTA64):
        unit = UNIT_NAMES[v.v.dt.unit]
        n = v.v.dt.count
        if v.dtype == _lib.DATETIME64:
            return np.datetime64("NaT", unit) if n == -2**63 else np.datetime64(n, unit)
        return np.timedelta64("NaT", unit) if n == -2**63 else np.timedelta64(n, unit)
    if k == _lib.VALUE_BYTES:
        a = array(v.v.buf.a)
        v.kind = _lib.VALUE_NONE  # taken over
        return a.tobytes()
    return NotImplemented
