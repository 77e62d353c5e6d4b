"""Python objects to kjit_value arguments and kjit_value results back (no copies)."""

import ctypes

import numpy as np

from . import _lib, _values_cplx, _values_dict, _values_dtype, _values_gen, _values_list, _values_namedtuple
from ._lib import lib, Value, Tuple
from .errors import TypingError
from .typed import Dict as _TypedDict
from . import _values_poly, _values_record, _values_rng

_DTYPE_CODE = {np.dtype(n): i for i, n in enumerate(_lib.DTYPES)}
_CODE_DTYPE = [np.dtype(n) for n in _lib.DTYPES]
_INT_KINDS = {np.dtype(n) for n in _lib.DTYPES[1:9]}
_SCALAR_CODE = {np.dtype(n): i for i, n in enumerate(_lib.DTYPES[:11])}  # NumPy scalars kjit_value holds


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
        code = lib.kjit_array_dtype(ptr)
        dtype = _values_record.dtype_of(lib.kjit_array_record(ptr).contents) if code == _lib.KJIT_RECORD \
            else _values_cplx.result_dtype(ptr) or _CODE_DTYPE[code]
        data = lib.kjit_array_data(ptr) or 0
        shape = tuple(shape[i] for i in range(ndim))
        strides = tuple(strides[i] for i in range(ndim))
        self.__array_interface__ = {
            "version": 3, "typestr": dtype.str, "data": (data, False), "shape": shape, "strides": strides,
        }
        if dtype.names is not None:  # an array of records
            self.__array_interface__["descr"] = dtype.descr
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
        self.after = []     # write-backs after the call (a Generator's state: _values_rng.py)
        self.dicts = []     # (typed.Dict, its kjit_dict): written back after the call (_values_dict.py)
        self.for_kernel = for_kernel
        self.ctx = ctx
        self.lists = []  # (index, list or set, kjit_list) of list and set arguments (_values_list.py)
        self.arrays_by_ptr = {}  # kjit_array address -> the ndarray it wraps
        n = len(objs)
        self.values = (Value * max(n, 1))()
        try:
            for i, o in enumerate(objs):
                self._set(self.values[i], o, i, True)
        except BaseException:
            self.free()
            raise
        self.n = n

    def _set(self, v, o, i, top=False):
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
        elif _values_cplx.set_scalar(v, o, i):  # complex, datetime64, timedelta64
            pass
        elif isinstance(o, np.generic) and o.dtype in _SCALAR_CODE:
            code = _SCALAR_CODE[o.dtype]
            if o.dtype in _INT_KINDS:
                v.kind, v.dtype = _lib.VALUE_INT, code
                v.v.i = int(o) if o.dtype.kind == "i" else int(o) - (2**64 if int(o) >= 2**63 else 0)
            else:
                v.kind, v.dtype, v.v.f = _lib.VALUE_FLOAT, code, float(o)
        elif isinstance(o, str):
            b = o.encode()
            self.keep.append(b)
            v.kind, v.v.s = _lib.VALUE_STR, b
        elif isinstance(o, np.ndarray) and _values_record.is_record_dtype(o.dtype):
            v.kind, v.v.p = _lib.VALUE_ARRAY, self._wrapped(_values_record.wrap_array(o, i, self.ctx, self.keep))
        elif isinstance(o, np.void) and _values_record.is_record_dtype(o.dtype):
            v.kind, v.v.p = _lib.VALUE_RECORD, _values_record.record_value(o, i, self.keep)
        elif _values_poly.is_polynomial(o):
            self._set(v, _values_poly.items(o), i)
            v.dtype = _values_poly.TUPLE_POLYNOMIAL
        elif _values_rng.is_generator(o):
            v.kind, v.v.p = _lib.VALUE_RNG, _values_rng.rng_value(o, i, self.keep, self.after)
        elif isinstance(o, np.ndarray):
            v.kind, v.v.p = _lib.VALUE_ARRAY, self._wrap(o, i)
        elif hasattr(o, "_kjit_record"):  # a DeviceRecord (_cuda_record.py)
            v.kind, v.v.p = _lib.VALUE_RECORD, _values_record.record_value(o._kjit_record(), i, self.keep)
        elif isinstance(o, (bytes, bytearray, memoryview)):
            a, kind = _values_cplx.buffer_array(o)
            self.keep.append(o)
            v.kind, v.dtype, v.v.buf.kind = _lib.VALUE_BYTES, 5, kind
            v.v.buf.a = self._wrap(a, i)
        elif hasattr(o, "_kjit_array"):  # a kjit device array
            v.kind, v.v.p = _lib.VALUE_ARRAY, self._device(o)
        elif not isinstance(o, tuple) and hasattr(o, "__cuda_array_interface__"):  # CuPy, PyTorch, Numba
            from .cuda import as_cuda_array
            d = as_cuda_array(o)
            self.keep.append(d)
            v.kind, v.v.p = _lib.VALUE_ARRAY, self._device(d)
        elif isinstance(o, (list, set)):
            _values_list.set_value(self, v, o, i, top)
        elif isinstance(o, _TypedDict):
            _values_dict.arg(self, v, o, i)
        elif isinstance(o, dict) or _values_gen.is_generator(o):
            raise TypingError(_values_dict.untyped(o, i))
        elif isinstance(o, tuple):
            items = (Value * max(len(o), 1))()
            for j, x in enumerate(o):
                self._set(items[j], x, i)
            t = Tuple(len(o), ctypes.cast(items, ctypes.POINTER(Value)))
            self.keep += [items, t]
            v.kind, v.v.p = _lib.VALUE_TUPLE, ctypes.addressof(t)
        elif _values_dtype.is_dtype(o):
            _values_dtype.set_value(v, o, i)
        else:
            raise TypingError(f"non-precise type {type(o).__module__}.{type(o).__qualname__}: "
                              f"kjit cannot pass argument {i} of this type to compiled code")

    def _wrap(self, a, i):
        """kjit_array_wrap of the array's own buffer (a copy only when NumPy's is misaligned)."""
        time = None
        if a.dtype.kind in "Mm":
            a, time = _values_cplx.time_array(a, i)
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
        if time:
            _values_cplx.mark_time(p, time)
        self.arrays_by_ptr[p] = a
        if self.for_kernel:
            self.host_arrays.append(p)
        return p

    def _wrapped(self, p):
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
        if self.lists:
            lists, self.lists = self.lists, []
            _values_list.reflect(self, lists)
        after, self.after = self.after, []
        for f in after:
            f()
        if self.dicts:
            _values_dict.write_back(self, lambda x: to_python(x, self.keep))
        for p in self.wrapped:
            lib.kjit_array_free(p)
        self.wrapped = []
        for d in self.shared:
            d._release_host()
        self.shared = []


def to_python(v, args=(), unit=None):
    """A result kjit_value as a Python object; takes ownership of arrays (the caller releases the rest).
    args: the objects the call passed (kept alive by results that view their memory)."""
    k = v.kind
    if k == _lib.VALUE_NONE:
        return None
    r = _values_cplx.to_python(v, lambda p: np.asarray(KjitArrayOwner(p, args)))
    if r is not NotImplemented:
        return r
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
    if k == _lib.VALUE_GENERATOR:  # unit: the compiled unit, whose raise_error maps the body's exceptions
        return _values_gen.Generator(v, args, unit, lambda x: to_python(x, args))
    if k == _lib.VALUE_DICT:
        return _values_dict.result(v, lambda x: to_python(x, args))
    if k == _lib.VALUE_TUPLE:
        t = ctypes.cast(v.v.p, ctypes.POINTER(Tuple)).contents
        r = tuple(to_python(t.items[j], args) for j in range(t.n))
        if v.dtype == _values_poly.TUPLE_POLYNOMIAL:
            return _values_poly.result(*r)
        return _values_namedtuple.box(v.v.p, r)
    if k in (_lib.VALUE_LIST, _lib.VALUE_SET):
        return _values_list.to_python(v, args)
    if k == _values_dtype.VALUE_DTYPE:
        return _values_dtype.result(v)
    if k == _lib.VALUE_RECORD:
        return _values_record.record_result(v.v.p)
    return None
