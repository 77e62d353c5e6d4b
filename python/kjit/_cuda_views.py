"""numba-cuda's DeviceNDArray views (numba_cuda/numba/cuda/cudadrv/devicearray.py, as Numba's simulator shows
them): reshape, ravel, T / transpose, view(dtype), split, squeeze, slices, flags, and copies to the host that keep
their strides. A view is the same memory, never a copy: on the cpu targets a kjit_array over the host memory at
the view's offset; with a GPU, kjit_array_wrap_device over the device copy at that offset (the array it views is
kept alive, its device copy counted as current from then on, as for __cuda_array_interface__).

A view's shape, strides and offset are found by applying NumPy's own operation to a "dummy": an array with the
device array's shape and strides over one element (np.lib.stride_tricks.as_strided), whose memory is never read."""

import numpy as np

from . import _cai


def dummy(shape, dtype, strides):
    """An array of this layout whose memory must not be read (one element stands for all)."""
    base = np.zeros(1, dtype=dtype)
    return np.lib.stride_tricks.as_strided(base, shape=shape, strides=strides, writeable=False), \
        base.__array_interface__["data"][0]


def strided_copy(h):
    """A host copy of h keeping its strides, over a buffer of the bytes they span (numba-cuda's copy_to_host)."""
    if h.size == 0 or any(s < 0 for s in h.strides) or h.flags.c_contiguous:
        return h.copy()
    span = sum((n - 1) * s for n, s in zip(h.shape, h.strides)) + h.itemsize
    out = np.ndarray(h.shape, h.dtype, buffer=np.empty(span, np.uint8), strides=h.strides)
    out[...] = h
    return out


def strided_zeros(shape, dtype, strides):
    """Zeros laid out by the given strides (device_array(..., strides=)), over the bytes they span."""
    dtype = np.dtype(dtype)
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
    strides = (int(strides),) if isinstance(strides, (int, np.integer)) else tuple(int(s) for s in strides)
    if len(strides) != len(shape):
        raise ValueError("strides not match ndim")
    if any(s < 0 or s % dtype.itemsize for s in strides):
        raise ValueError(f"kjit: strides {strides} must be non-negative multiples of the item size {dtype.itemsize}")
    span = 0 if 0 in shape else sum((n - 1) * s for n, s in zip(shape, strides)) + dtype.itemsize
    return np.ndarray(shape, dtype, buffer=np.zeros(max(span, 1), np.uint8), strides=strides)


def c_strides(shape, itemsize):
    out, s = [], itemsize
    for n in reversed(shape):
        out.append(s)
        s *= max(n, 1)
    return tuple(reversed(out))


def _known_shape(newshape, size):
    """newshape with its one -1 worked out (numba-cuda's wording for what does not fit)."""
    unknown = [i for i, n in enumerate(newshape) if n < 0]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    known = int(np.prod([n for n in newshape if n >= 0], dtype=np.int64))
    if unknown:
        if known == 0 or size % known:
            raise ValueError("cannot infer valid shape for unknown dimension")
        i = unknown[0]
        newshape = newshape[:i] + (size // known,) + newshape[i + 1:]
    elif known != size:
        raise ValueError("reshape changes the size of the array")
    return newshape


class _HostWindow:
    """The host memory of a view on the cpu targets: NumPy arrays made from it keep the viewed array alive."""

    def __init__(self, owner, ptr, shape, dtype, strides):
        self.owner = owner
        self.__array_interface__ = {"version": 3, "typestr": dtype.str, "data": (ptr, False),
                                    "shape": tuple(shape), "strides": tuple(strides),
                                    "descr": dtype.descr}


class DeviceViews:
    """The view methods of DeviceNDArray (cuda.py): its _meta is (shape, dtype, strides, c, f)."""

    def _dummy(self):
        shape, dtype, strides, _, _ = self._meta
        return dummy(shape, dtype, strides)

    def _view(self, shape, dtype, strides, offset):
        """The device array of this layout at byte `offset` of this one's memory (no copy)."""
        from . import cuda
        if self._host is not None and not cuda._on_gpu():
            h = self._host
            ptr = h.__array_interface__["data"][0] + offset
            return cuda.DeviceNDArray(None, None, _host=np.asarray(_HostWindow(h, ptr, shape, dtype, strides)))
        ptr = _cai.device_ptr(cuda._context_ptr(), self._ptr)
        self._shared = True  # its device copy is now seen through the view: host accesses hand it back current
        return cuda.DeviceNDArray._foreign(self, tuple(shape), dtype, tuple(strides), ptr + offset)

    def _view_of(self, r, base):
        """The device array for NumPy's result r of an operation on self's dummy (base: the dummy's address)."""
        return self._view(r.shape, r.dtype, r.strides, r.__array_interface__["data"][0] - base)

    @property
    def flags(self):
        return self._dummy()[0].flags

    def reshape(self, *newshape, order="C"):
        """numba-cuda's reshape (dummyarray.py): a contiguous array's memory read again in C (or F) order of the
        new shape; another layout is NotImplementedError, as there, even where NumPy would make a view."""
        if len(newshape) == 1 and isinstance(newshape[0], (tuple, list)):
            newshape = newshape[0]
        shape, dtype, strides, c, f = self._meta
        newshape = tuple(int(n) for n in newshape)
        if newshape == shape:
            return self._view(shape, dtype, strides, 0)
        if order == "A":
            order = "F" if f else "C"
        if order not in ("C", "F"):
            raise ValueError("order not C|F|A")
        newshape = _known_shape(newshape, int(np.prod(shape, dtype=np.int64)))
        if not (c or f):
            raise NotImplementedError("operation requires copying")
        if order == "C":
            st = c_strides(newshape, dtype.itemsize)
        else:
            st = c_strides(newshape[::-1], dtype.itemsize)[::-1]
        return self._view(newshape, dtype, st, 0)

    def ravel(self, order="C", stream=0):
        return self.reshape(-1, order=order)

    @property
    def T(self):
        return self.transpose()

    def transpose(self, axes=None):
        d, base = self._dummy()
        return self._view_of(d.transpose(axes), base)

    def squeeze(self, axis=None, stream=0):
        d, base = self._dummy()
        return self._view_of(d.squeeze(axis), base)

    def view(self, dtype):
        """numba-cuda's view: the last axis rescaled to another item size (a C-contiguous array only)."""
        dtype = np.dtype(dtype)
        shape, own, strides, c, _ = self._meta
        shape, strides = list(shape), list(strides)
        if own.itemsize != dtype.itemsize:
            if not c:
                raise ValueError("To change to a dtype of a different size, the array must be C-contiguous")
            shape[-1], rem = divmod(shape[-1] * own.itemsize, dtype.itemsize)
            if rem != 0:
                raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size "
                                 "in bytes of the last axis of the array.")
            strides[-1] = dtype.itemsize
        return self._view(shape, dtype, strides, 0)

    def split(self, section, stream=0):
        """Views of `section` elements each, the last one shorter (a 1-d array of unit stride)."""
        shape, dtype, strides, _, _ = self._meta
        if len(shape) != 1:
            raise ValueError("only support 1d array")
        if strides[0] != dtype.itemsize:
            raise ValueError("only support unit stride")
        n = shape[0]
        for begin in range(0, n, section):
            end = min(begin + section, n)
            yield self._view((end - begin,), dtype, strides, begin * dtype.itemsize)

    def getitem(self, item, stream=0):
        """numba-cuda's d.getitem(item, stream): d[item] (kjit orders everything on its one stream)."""
        return self[item]

    def setitem(self, key, value, stream=0):
        self[key] = value

    def bind(self, stream=0):
        """numba-cuda's d.bind(stream): the array again (a view of all of it) for that stream."""
        shape, dtype, strides, _, _ = self._meta
        return self._view(shape, dtype, strides, 0)

    def _getitem_view(self, idx):
        """A view for an index of integers, slices, None and `...` that selects an array; None for an element or
        an index NumPy answers with a copy (lists, arrays: the caller indexes the host copy)."""
        t = idx if isinstance(idx, tuple) else (idx,)
        if not all(x is None or x is Ellipsis or isinstance(x, (slice, int, np.integer)) for x in t):
            return None
        d, base = self._dummy()
        r = d[t if Ellipsis in t else t + (Ellipsis,)]  # `...` last: an element comes as a 0-d view, not read
        if r.ndim == 0 and not any(x is None for x in t):
            return None
        return self._view_of(r, base)
