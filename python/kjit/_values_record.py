"""NumPy structured dtypes (Numba's Record) across the C API: arrays of records (dtype KJIT_RECORD, wrapped
without a copy) and record scalars (KJIT_VALUE_RECORD). A numpy.void argument is passed by reference, as
Numba's unboxing does (numba/core/boxing.py unbox_record: the scalar's own buffer, which for `a[i]` is the
array's memory), so writes to its fields reach the array; a record result is a copy (Numba's box_record)."""

import ctypes

import numpy as np

from . import _lib
from ._lib import lib
from .errors import TypingError

# kjit_dtype codes of the field types a record may have
_FIELD_CODE = {np.dtype(n): i for i, n in enumerate(
    ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
     "complex64", "complex128", "float16"])}
_CODE_FIELD = {i: d for d, i in _FIELD_CODE.items()}


class _PyBuffer(ctypes.Structure):
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.py_object), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


_get_buffer = ctypes.pythonapi.PyObject_GetBuffer
_get_buffer.argtypes = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int]
_release_buffer = ctypes.pythonapi.PyBuffer_Release
_release_buffer.argtypes = [ctypes.POINTER(_PyBuffer)]


def is_record_dtype(dt):
    return dt.names is not None


def desc_of(dt, i, keep):
    """A kjit_record_desc for structured dtype dt (kept alive through `keep`)."""
    n = len(dt.names)
    names = (ctypes.c_char_p * n)()
    offsets = (ctypes.c_int64 * n)()
    codes = (ctypes.c_int * n)()
    for k, name in enumerate(dt.names):
        fdt, off = dt.fields[name][:2]
        if fdt not in _FIELD_CODE:
            raise TypingError(f"argument {i}: the record field '{name}' of dtype {fdt} is not supported by kjit")
        names[k] = name.encode()
        offsets[k] = off
        codes[k] = _FIELD_CODE[fdt]
    d = _lib.RecordDesc(n, names, offsets, codes, dt.itemsize, dt.isalignedstruct)
    keep += [names, offsets, codes, d]
    return d


def wrap_array(a, i, ctx, keep):
    """kjit_array_wrap_record over an array of records' own memory."""
    d = desc_of(a.dtype, i, keep)
    if not a.flags.aligned:  # an align=True record's fields are read at their alignment: a copy, as _wrap does
        a = np.ascontiguousarray(a)
    nd = a.ndim
    if nd == 0:
        raise TypingError(f"argument {i}: 0-d arrays are not supported by kjit")
    shape = (ctypes.c_int64 * nd)(*a.shape)
    strides = (ctypes.c_int64 * nd)(*a.strides)
    err = _lib.Error()
    data = a.__array_interface__["data"][0] or 1
    p = lib.kjit_array_wrap_record(ctx, data, ctypes.byref(d), nd, shape, strides, ctypes.byref(err))
    if not p:
        raise TypingError(f"argument {i}: {err.message.decode()}")
    keep.append(a)
    return p


def new_array(dtype, shape):
    """kjit_array_new_record (zero-filled, C order): for device arrays of records."""
    keep = []
    d = desc_of(np.dtype(dtype), 0, keep)
    nd = len(shape)
    err = _lib.Error()
    p = lib.kjit_array_new_record(None, ctypes.byref(d), nd, (ctypes.c_int64 * nd)(*shape), ctypes.byref(err))
    if not p:
        raise TypingError(err.message.decode())
    return p


def record_value(o, i, keep):
    """The address of a kjit_record over numpy.void o's own bytes (by reference, as Numba passes a record)."""
    view = _PyBuffer()
    if _get_buffer(o, ctypes.byref(view), 0) != 0:
        raise TypingError(f"argument {i}: the record's memory cannot be read")
    try:
        addr = view.buf
    finally:
        _release_buffer(ctypes.byref(view))
    d = desc_of(o.dtype, i, keep)
    r = _lib.Record(ctypes.pointer(d), addr)
    keep += [o, r]
    return ctypes.addressof(r)


def dtype_of(desc):
    """The NumPy dtype of a kjit_record_desc."""
    n = desc.nfields
    return np.dtype({"names": [desc.names[k].decode() for k in range(n)],
                     "formats": [_CODE_FIELD[desc.dtypes[k]] for k in range(n)],
                     "offsets": [desc.offsets[k] for k in range(n)], "itemsize": desc.itemsize},
                    align=bool(desc.aligned))


def record_result(p):
    """A numpy.void copy of a record result (kjit_record*)."""
    r = ctypes.cast(p, ctypes.POINTER(_lib.Record)).contents
    dt = dtype_of(r.desc.contents)
    return np.frombuffer(ctypes.string_at(r.data, dt.itemsize), dtype=dt)[0].copy()
