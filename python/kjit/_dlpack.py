"""DLPack's CUDA case both ways (issue 27 point 5): `cuda.from_dlpack(obj)` wraps a CUDA tensor that `obj`
exports through `__dlpack__` without a copy (as `as_cuda_array` does with the CUDA Array Interface), and kjit's
device arrays have `__dlpack__` / `__dlpack_device__`. The structures are DLPack's (dlpack.h, v0.8 ABI:
DLManagedTensor), read and written through ctypes; host (kDLCPU) tensors are NumPy's business."""

import ctypes

import numpy as np

from .errors import TypingError

KDL_CPU, KDL_CUDA = 1, 2
_CODES = {0: "int", 1: "uint", 2: "float", 5: "complex", 6: "bool"}  # kDLInt, kDLUInt, kDLFloat, kDLComplex, kDLBool


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER)]

_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
# The capsule destructor runs while the capsule dies: it gets the raw pointer, never a Python object of it.
_CAPSULE_GET_NAME = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)(("PyCapsule_GetName", _api))
_CAPSULE_GET_POINTER = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _api))
_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _dtype(t):
    kind = _CODES.get(t.code)
    if kind is None or t.lanes != 1:
        raise TypingError(f"DLPack: dtype code {t.code}, {t.bits} bits, {t.lanes} lanes is not supported by kjit")
    return np.dtype("bool" if kind == "bool" else f"{kind}{t.bits}")


class _Consumed:
    """The producer's tensor while kjit uses it: its deleter is called when this goes."""

    def __init__(self, managed, capsule):
        self.managed = managed
        self.capsule = capsule  # the producer's objects behind it stay alive through the capsule too

    def __del__(self):
        m = self.managed
        if m and m.contents.deleter:
            m.contents.deleter(m)
        self.managed = None


def import_tensor(obj):
    """(shape, dtype, strides in bytes, device pointer, owner) of obj's CUDA tensor; the owner calls the
    producer's deleter when dropped."""
    dev = obj.__dlpack_device__() if hasattr(obj, "__dlpack_device__") else None
    if dev is not None and int(dev[0]) != KDL_CUDA:
        raise TypingError(f"DLPack: device type {int(dev[0])} is not CUDA; host tensors go in as NumPy arrays "
                          "(np.from_dlpack)")
    try:
        cap = obj.__dlpack__(stream=1)  # kjit's work is on the legacy default stream: the producer orders to it
    except TypeError:
        cap = obj.__dlpack__()
    p = _api.PyCapsule_GetPointer(cap, b"dltensor")
    m = ctypes.cast(p, ctypes.POINTER(DLManagedTensor))
    _api.PyCapsule_SetName(cap, b"used_dltensor")
    owner = _Consumed(m, cap)
    t = m.contents.dl_tensor
    if t.device.device_type != KDL_CUDA:
        raise TypingError(f"DLPack: device type {t.device.device_type} is not CUDA")
    dt = _dtype(t.dtype)
    shape = tuple(t.shape[k] for k in range(t.ndim))
    strides = tuple(t.strides[k] * dt.itemsize for k in range(t.ndim)) if t.strides else None
    return shape, dt, strides, (t.data or 0) + t.byte_offset, owner


# ---- export ----

_LIVE = {}  # address of a DLManagedTensor made here -> (its ctypes objects, the device array it shows)


@_DELETER
def _delete(m):
    _LIVE.pop(ctypes.addressof(m.contents), None)


@_DESTRUCTOR
def _capsule_gone(cap):
    # a capsule no consumer renamed: nobody took the tensor, so its deleter is ours to call
    if _CAPSULE_GET_NAME(cap) == b"dltensor":
        m = _CAPSULE_GET_POINTER(cap, b"dltensor")
        _LIVE.pop(m, None)


_CODE_OF = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


def export_tensor(array, ptr, shape, dtype, strides):
    """A "dltensor" capsule over device pointer ptr, keeping `array` alive until the consumer's deleter."""
    nd = len(shape)
    m = DLManagedTensor()
    sh = (ctypes.c_int64 * max(nd, 1))(*shape)
    st = (ctypes.c_int64 * max(nd, 1))(*(s // dtype.itemsize for s in strides))
    t = m.dl_tensor
    t.data, t.device, t.ndim, t.byte_offset = ptr, DLDevice(KDL_CUDA, 0), nd, 0
    t.dtype = DLDataType(_CODE_OF[dtype.kind], dtype.itemsize * 8, 1)
    t.shape = ctypes.cast(sh, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(st, ctypes.POINTER(ctypes.c_int64))
    m.deleter = _delete
    addr = ctypes.addressof(m)
    _LIVE[addr] = (m, sh, st, array)
    return _api.PyCapsule_New(addr, b"dltensor", ctypes.cast(_capsule_gone, ctypes.c_void_p))
