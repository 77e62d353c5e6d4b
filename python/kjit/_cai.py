"""GPU arrays shared with other libraries: the CUDA Array Interface (v3) both ways, and DLPack's CUDA case.

Export: a kjit device array's `__cuda_array_interface__` gives the address of its device copy
(`kjit_array_device_ptr`: made current, then counted as the current copy, so that kjit reads it back after
the consumer wrote it). Import: any object that exports the interface (CuPy, PyTorch, Numba's device arrays)
becomes a kjit device array over the same device memory (`kjit_array_wrap_device`): no copy, kernels get the
very pointer; the object is kept alive as long as the kjit array. docs/python.md, "GPU arrays"."""

import ctypes

import numpy as np

from . import _lib
from ._lib import lib
from ._values import _DTYPE_CODE, _SHAPES
from .errors import TypingError

# CAI v3's `stream`: 1 is the legacy default stream, where kjit's launches and copies are queued.
LEGACY_DEFAULT_STREAM = 1
# An interface without a `stream` key (versions 0-2, PyTorch's: version 2 even where the tensor's work is queued on
# a non-blocking torch.cuda.Stream) says nothing of where its producer queued its work.
STREAM_UNKNOWN = "unknown"


def must_wait(stream):
    """Does a consumer of an interface with this `stream` wait before using the memory? v3's None says no
    synchronisation is needed and 1 is kjit's own stream (ordered already); another stream is the producer's,
    and an unknown one may be any of the context's: kjit waits for the context (cuCtxSynchronize), which covers
    every stream of it, where Numba synchronises the named stream and takes no step for an unknown one."""
    return stream is not None and stream != LEGACY_DEFAULT_STREAM


def device_ptr(ctx, ptr):
    """The device address of kjit array `ptr`'s device copy, made current (AttributeError without a GPU, so
    that hasattr(obj, '__cuda_array_interface__') is False there)."""
    out = ctypes.c_uint64()
    err = _lib.Error()
    if lib.kjit_array_device_ptr(ctx, ptr, ctypes.byref(out), ctypes.byref(err)):
        raise AttributeError(f"__cuda_array_interface__: {err.message.decode()}")
    return out.value


def interface(shape, dtype, strides, c_contiguous, ptr, readonly=False):
    """The CAI v3 dict of a kjit device array at device address ptr."""
    return {"shape": tuple(shape), "typestr": dtype.str, "data": (ptr, readonly), "version": 3,
            "strides": None if c_contiguous else tuple(strides), "stream": LEGACY_DEFAULT_STREAM}


def exported_interface(obj):
    """obj's __cuda_array_interface__, or None when it has none (a property that fails counts as none)."""
    try:
        cai = getattr(obj, "__cuda_array_interface__", None)
    except Exception:
        return None
    return cai if isinstance(cai, dict) else None


def _dtype_of(typestr):
    try:
        dt = np.dtype(typestr)
    except TypeError:
        raise TypingError(f"__cuda_array_interface__: typestr {typestr!r} is not a dtype") from None
    if dt.byteorder == ">" or (dt.byteorder == "=" and np.little_endian is False):
        raise TypingError(f"__cuda_array_interface__: typestr {typestr!r}: kjit takes native byte order only")
    dt = dt.newbyteorder("=")
    if dt not in _DTYPE_CODE:
        raise TypingError(f"__cuda_array_interface__: arrays of dtype {dt} are not supported by kjit")
    return dt


def check_interface(cai):
    """(shape, dtype, strides or None, ptr, readonly, stream) of a CAI dict, checked as Numba checks it."""
    version = cai.get("version")
    if not isinstance(version, int) or not 0 <= version <= 3:
        raise TypingError(f"__cuda_array_interface__: version {version!r} (kjit reads versions 0 to 3)")
    if cai.get("mask") is not None:
        raise NotImplementedError("Masked arrays are not supported")
    shape = tuple(int(x) for x in cai["shape"])
    dtype = _dtype_of(cai["typestr"])
    strides = cai.get("strides")
    if strides is not None:
        strides = tuple(int(x) for x in strides)
        if len(strides) != len(shape):
            raise TypingError(f"__cuda_array_interface__: {len(strides)} strides for {len(shape)} dimensions")
    ptr, readonly = cai["data"]
    stream = cai.get("stream", STREAM_UNKNOWN) if version >= 3 else STREAM_UNKNOWN
    if stream == 0:
        raise ValueError("Zero is not a valid stream value (__cuda_array_interface__ v3)")
    if len(shape) > _lib.MAX_DIMS:
        raise TypingError(f"__cuda_array_interface__: {len(shape)} dimensions (kjit takes at most {_lib.MAX_DIMS})")
    return shape, dtype, strides, int(ptr or 0), bool(readonly), stream


def wrap(ctx, shape, dtype, strides, ptr):
    """kjit_array_wrap_device of the foreign memory: a kjit_array* (TypingError naming the reason)."""
    nd = len(shape)
    err = _lib.Error()
    p = lib.kjit_array_wrap_device(ctx, ptr, _DTYPE_CODE[dtype], nd, _SHAPES[nd](*shape),
                                   _SHAPES[nd](*strides) if strides is not None else None, ctypes.byref(err))
    if not p:
        raise TypingError(f"kjit cannot use this GPU array: {err.message.decode()}")
    return p


class DeviceOwner:
    """Owns a kjit_array over foreign device memory (and keeps the exporter alive); NumPy views of its host
    copy are made from it lazily (their first read copies the device's bytes back)."""

    def __init__(self, ptr, exporter):
        self._ptr = ptr
        self.exporter = exporter

    @property
    def __array_interface__(self):
        p = self._ptr
        nd = lib.kjit_array_ndim(p)
        shape, strides = lib.kjit_array_shape(p), lib.kjit_array_strides(p)
        dtype = np.dtype(_lib.DTYPES[lib.kjit_array_dtype(p)])
        return {"version": 3, "typestr": dtype.str, "data": (lib.kjit_array_data(p) or 0, False),
                "shape": tuple(shape[i] for i in range(nd)), "strides": tuple(strides[i] for i in range(nd))}

    def __del__(self, free=lib.kjit_array_free):
        if self._ptr:
            free(self._ptr)
            self._ptr = None

