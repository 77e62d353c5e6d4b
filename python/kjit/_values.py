"""Python objects to kjit_value arguments and kjit_value results back (no copies)."""

import ctypes

import numpy as np

from . import _lib
from ._lib import lib, Value, Tuple
from .errors import TypingError

_DTYPE_CODE = {np.dtype(n): i for i, n in enumerate(_lib.DTYPES)}
_CODE_DTYPE = [np.dtype(n) for n in _lib.DTYPES]
_INT_KINDS = {np.dtype(n) for n in _lib.DTYPES[1:9]}


_SHAPES = [ctypes.c_int64 * n for n in range(_lib.MAX_DIMS + 1)]


def _byte_span(ptr, shape, strides, itemsize):
    """[lo, hi) of the bytes an array's elements occupy ((0, 0) when it has none)."""
    lo = hi = ptr
    for n, s in zip(shape, strides):
        if n == 0:
            return 0, 0
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return lo, hi + itemsize


def _arrays_in(objs):
    for o in objs:
        if isinstance(o, np.ndarray):
            yield o
        elif isinstance(o, tuple):
            yield from _arrays_in(o)


class KjitArrayOwner:
    """Owns a kjit_array that a call returned; NumPy arrays made from it keep it alive. A result that views
    an argument's memory (`return a[1:]`) keeps that argument alive too (`args`: what the call passed): kjit
    wraps a NumPy argument's buffer without owning it."""

    def __init__(self, ptr, args=()):
        self._ptr = ptr
        ndim = lib.kjit_array_ndim(ptr)
        shape = lib.kjit_array_shape(ptr)
        strides = lib.kjit_array_strides(ptr)
        dtype = _CODE_DTYPE[lib.kjit_array_dtype(ptr)]
        data = lib.kjit_array_data(ptr) or 0
        shape = tuple(shape[i] for i in range(ndim))
        strides = tuple(strides[i] for i in range(ndim))
        self.__array_interface__ = {
            "version": 3, "typestr": dtype.str, "data": (data, False), "shape": shape, "strides": strides,
        }
        lo, hi = _byte_span(data, shape, strides, dtype.itemsize)
        self.args = []
        for a in _arrays_in(args) if hi > lo else ():
            alo, ahi = _byte_span(a.__array_interface__["data"][0], a.shape, a.strides, a.itemsize)
            if alo < hi and lo < ahi:
                self.args.append(a)

    def __del__(self, free=lib.kjit_array_free):
        if self._ptr:
            free(self._ptr)
            self._ptr = None


class Args:
    """The kjit_value arguments of one call and what must live as long as they do."""

    def __init__(self, objs, ctx, for_kernel=False):
        self.keep = []      # ctypes buffers and source objects
        self.wrapped = []   # kjit_array* to free after the call
        self.host_arrays = []  # (kjit_array*, ndarray) of host arrays given to a kernel
        self.shared = []    # device arrays shared with other libraries, their host copies made current
        self.for_kernel = for_kernel
        self.ctx = ctx
        n = len(objs)
        self.values = (Value * max(n, 1))()
        try:
            for i, o in enumerate(objs):
                self._set(self.values[i], o, i)
        except BaseException:
            self.free()
            raise
        self.n = n

    def _set(self, v, o, i):
        if o is None:
            v.kind = _lib.VALUE_NONE
        elif isinstance(o, (bool, np.bool_)):
            v.kind, v.dtype, v.v.b = _lib.VALUE_BOOL, 0, bool(o)
        elif isinstance(o, int):
            if not -2**63 <= o < 2**63:
                raise TypingError(f"argument {i}: int {o} does not fit int64")
            v.kind, v.dtype, v.v.i = _lib.VALUE_INT, 4, o
        elif isinstance(o, float):
            v.kind, v.dtype, v.v.f = _lib.VALUE_FLOAT, 10, o
        elif isinstance(o, np.generic) and o.dtype in _DTYPE_CODE:
            code = _DTYPE_CODE[o.dtype]
            if o.dtype in _INT_KINDS:
                v.kind, v.dtype = _lib.VALUE_INT, code
                v.v.i = int(o) if o.dtype.kind == "i" else int(o) - (2**64 if int(o) >= 2**63 else 0)
            else:
                v.kind, v.dtype, v.v.f = _lib.VALUE_FLOAT, code, float(o)
        elif isinstance(o, str):
            b = o.encode()
            self.keep.append(b)
            v.kind, v.v.s = _lib.VALUE_STR, b
        elif isinstance(o, np.ndarray):
            v.kind, v.v.p = _lib.VALUE_ARRAY, self._wrap(o, i)
        elif hasattr(o, "_kjit_array"):  # a kjit device array
            v.kind, v.v.p = _lib.VALUE_ARRAY, self._device(o)
        elif not isinstance(o, tuple) and hasattr(o, "__cuda_array_interface__"):  # CuPy, PyTorch, Numba
            from .cuda import as_cuda_array
            d = as_cuda_array(o)
            self.keep.append(d)
            v.kind, v.v.p = _lib.VALUE_ARRAY, self._device(d)
        elif isinstance(o, tuple):
            items = (Value * max(len(o), 1))()
            for j, x in enumerate(o):
                self._set(items[j], x, i)
            t = Tuple(len(o), ctypes.cast(items, ctypes.POINTER(Value)))
            self.keep += [items, t]
            v.kind, v.v.p = _lib.VALUE_TUPLE, ctypes.addressof(t)
        else:
            raise TypingError(f"non-precise type {type(o).__module__}.{type(o).__qualname__}: "
                              f"kjit cannot pass argument {i} of this type to compiled code")

    def _wrap(self, a, i):
        """kjit_array_wrap of the array's own buffer (a copy only when NumPy's is misaligned)."""
        if a.dtype not in _DTYPE_CODE:
            raise TypingError(f"argument {i}: arrays of dtype {a.dtype} are not supported by kjit")
        flags = a.flags
        if not flags.aligned:
            a = np.ascontiguousarray(a)
        nd = a.ndim
        if nd == 0:
            raise TypingError(f"argument {i}: 0-d arrays are not supported by kjit")
        # NumPy's shape and strides are npy_intp arrays: int64 here, passed as they are
        shape = strides = None
        if flags.c_contiguous:
            shape = _SHAPES[nd](*a.shape)
        else:
            shape = _SHAPES[nd](*a.shape)
            strides = _SHAPES[nd](*a.strides)
        err = _lib.Error()
        data = a.__array_interface__["data"][0] or 1  # an empty array may have no buffer
        p = lib.kjit_array_wrap(self.ctx, data, _DTYPE_CODE[a.dtype], nd, shape, strides, ctypes.byref(err))
        if not p:
            raise TypingError(f"argument {i}: {err.message.decode()}")
        self.keep.append(a)
        self.wrapped.append(p)
        if self.for_kernel:
            self.host_arrays.append(p)
        return p

    def _device(self, d):
        """A device array's kjit_array. One shared with another library, given to code that runs on the host
        (a call, a kernel on the cpu target), has its host copy made current first and its device copy after
        (free)."""
        if d._shared and not self.for_kernel:
            d._sync_host()
            self.shared.append(d)
        return d._kjit_array()

    def copy_back(self):
        """After a kernel: bring host arrays' data back from the device (Numba's copy-out)."""
        for p in self.host_arrays:
            lib.kjit_array_data(p)

    def free(self):
        for p in self.wrapped:
            lib.kjit_array_free(p)
        self.wrapped = []
        for d in self.shared:
            d._release_host()
        self.shared = []


def to_python(v, args=()):
    """A result kjit_value as a Python object; takes ownership of arrays (the caller releases the rest).
    args: the objects the call passed (kept alive by results that view their memory)."""
    k = v.kind
    if k == _lib.VALUE_NONE:
        return None
    if k == _lib.VALUE_BOOL:
        return bool(v.v.b)
    if k == _lib.VALUE_INT:
        x = v.v.i
        if v.dtype >= 5 and x < 0:  # unsigned: kjit stores the bits
            x += 2**64
        return x
    if k == _lib.VALUE_FLOAT:
        return v.v.f
    if k == _lib.VALUE_STR:
        return v.v.s.decode() if v.v.s is not None else ""
    if k == _lib.VALUE_ARRAY:
        owner = KjitArrayOwner(v.v.p, args)
        v.kind = _lib.VALUE_NONE  # ours now: kjit_value_release must not free it
        return np.asarray(owner)
    if k == _lib.VALUE_TUPLE:
        t = ctypes.cast(v.v.p, ctypes.POINTER(Tuple)).contents
        return tuple(to_python(t.items[j], args) for j in range(t.n))
    return None
