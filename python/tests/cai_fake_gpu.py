"""Run by test_cai.py in a process of its own on the fake CUDA driver (KJIT_LIBCUDA; its device memory is
host memory, so ctypes can read and write it, and its launch observer reports the parameters each kernel
launch received). Each check prints one line "ok NAME" or fails with an AssertionError."""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import kjit  # noqa: E402
from kjit import cuda  # noqa: E402

kjit.config.TARGET = "cuda"


class Exporter:
    """Another library's GPU array, as far as the interface goes: a pointer and a layout."""

    def __init__(self, ptr, shape, typestr="<f8", strides=None, **extra):
        self.__cuda_array_interface__ = dict({"shape": shape, "typestr": typestr, "data": (ptr, False),
                                              "version": 3, "strides": strides, "stream": None}, **extra)


def _readonly_exporter(p):
    e = Exporter(p, (8,))
    e.__cuda_array_interface__["data"] = (p, True)
    return e


def device_doubles(ptr, n):
    return (ctypes.c_double * n).from_address(ptr)


@cuda.jit
def copy_kernel(x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = x[i]


HOOK = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)
seen = []


@HOOK
def observe(gb, params, user):  # copy_kernel(x, y): x's data, shape, stride, then y's
    seen.append((ctypes.c_uint64.from_address(params[0]).value, ctypes.c_uint64.from_address(params[3]).value))


fake = ctypes.CDLL(os.environ["KJIT_LIBCUDA"])
fake.fake_cuda_on_launch.argtypes = [HOOK, ctypes.c_void_p]
fake.fake_cuda_on_launch(observe, None)


def check_export():
    d = cuda.to_device(np.arange(8.0))
    cai = d.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (8,) and cai["typestr"] == "<f8" and cai["strides"] is None
    assert cai["stream"] == 1 and cai["data"][1] is False
    mem = device_doubles(cai["data"][0], 8)
    assert list(mem) == list(range(8))  # the device copy is current at the address given
    mem[3] = 42.0  # another library writes it: the host sees it
    assert d.copy_to_host()[3] == 42.0
    mem[4] = 7.0  # and again, after a read
    assert d.copy_to_host()[4] == 7.0
    d[5] = -1.0  # a host write reaches the device memory at once
    assert mem[5] == -1.0 and d.__cuda_array_interface__["data"][0] == cai["data"][0]
    f = cuda.to_device(np.zeros((3, 4), dtype=np.float32, order="F"))
    fc = f.__cuda_array_interface__
    assert fc["strides"] == (4, 12) and fc["typestr"] == "<f4" and fc["shape"] == (3, 4)
    assert cuda.is_cuda_array(d) and cuda.is_cuda_array(Exporter(cai["data"][0], (8,)))
    assert not cuda.is_cuda_array(np.zeros(3))
    print("ok export")


def check_import_zero_copy():
    d = cuda.to_device(np.arange(8.0))
    p = d.__cuda_array_interface__["data"][0]
    e = Exporter(p + 8, (4,), strides=(16,))  # elements 1, 3, 5, 7 of d's memory
    w = cuda.as_cuda_array(e)
    assert w.__cuda_array_interface__["data"][0] == p + 8  # the same memory: no copy
    assert w.__cuda_array_interface__["strides"] == (16,)
    assert w.copy_to_host().tolist() == [1.0, 3.0, 5.0, 7.0] and w.shape == (4,) and w.strides == (16,)
    device_doubles(p, 8)[7] = 70.0  # the exporter writes: kjit reads it
    assert w.copy_to_host()[3] == 70.0
    w[0] = -2.0  # kjit writes: the exporter sees it
    assert device_doubles(p, 8)[1] == -2.0
    assert cuda.as_cuda_array(w) is w
    ro = cuda.as_cuda_array(_readonly_exporter(p))
    assert ro.__cuda_array_interface__["data"] == (p, True)  # the exporter's read-only flag is kept
    seen.clear()
    copy_kernel[1, 32](e, d)  # an exporting object passed straight to a kernel: its pointer, as it is
    assert seen == [(p + 8, p)], (seen, p)
    copy_kernel[1, 32](w, d)
    assert seen[-1] == (p + 8, p)
    import weakref
    r = weakref.ref(e)
    del e
    assert r() is not None  # kept alive by w
    del w
    assert r() is None
    print("ok import")


def check_errors():
    host = np.zeros(4)
    for bad, exc, text in [
            (Exporter(host.ctypes.data, (4,)), kjit.TypingError, "is not device memory of this GPU context"),
            (Exporter(1, (4,), typestr="<M8[D]"), kjit.TypingError, "dtype datetime64[D] are not supported"),
            (Exporter(1, (4,), typestr=">f8"), kjit.TypingError, "native byte order"),
            (Exporter(1, (4,), mask=object()), NotImplementedError, "Masked arrays are not supported"),
            (Exporter(1, (4,), stream=0), ValueError, "Zero is not a valid stream"),
            (Exporter(1, (4,), version=9), kjit.TypingError, "version 9")]:
        try:
            cuda.as_cuda_array(bad)
        except exc as e:
            assert text in str(e), (text, str(e))
        else:
            raise AssertionError(f"no {exc.__name__} for {bad.__cuda_array_interface__}")
    d = cuda.to_device(np.arange(8.0))
    p = d.__cuda_array_interface__["data"][0]
    try:
        cuda.as_cuda_array(Exporter(p, (9,)))
    except kjit.TypingError as e:
        assert "past the end of its allocation" in str(e)
    else:
        raise AssertionError("a range past the allocation was accepted")
    try:
        cuda.as_cuda_array(np.zeros(2))
    except TypeError as e:
        assert "doesn't implement the cuda array interface" in str(e)
    print("ok errors")


def check_dlpack():
    import gc
    from kjit import _dlpack
    d = cuda.to_device(np.arange(6.0).reshape(2, 3))
    p = d.__cuda_array_interface__["data"][0]
    assert d.__dlpack_device__() == (2, 0)
    w = cuda.from_dlpack(d)  # kjit's export read back by kjit's import: the same memory, the same layout
    assert w.__cuda_array_interface__["data"][0] == p and w.shape == (2, 3) and w.strides == (24, 8)
    assert w.copy_to_host().tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert len(_dlpack._LIVE) == 1
    del w
    gc.collect()
    assert len(_dlpack._LIVE) == 0  # the consumer's drop called the producer's deleter
    cap = d.__dlpack__()
    del cap  # never consumed: the capsule's destructor frees it
    gc.collect()
    assert len(_dlpack._LIVE) == 0
    f = cuda.from_dlpack(cuda.to_device(np.zeros((3, 4), dtype=np.int32, order="F")))
    assert f.strides == (4, 12) and f.dtype == np.int32
    for host in (np.array([1 - 1j, 2j], np.complex64), np.array([1 - 1j, 2j]), np.arange(3, dtype=np.float16)):
        z = cuda.from_dlpack(cuda.to_device(host))  # kDLComplex; kDLFloat of 16 bits
        assert z.dtype == host.dtype and z.copy_to_host().tolist() == host.tolist()

    class HostTensor:
        def __dlpack_device__(self):
            return (1, 0)
    try:
        cuda.from_dlpack(HostTensor())
    except kjit.TypingError as e:
        assert "device type 1 is not CUDA" in str(e)
    else:
        raise AssertionError("a host DLPack tensor was taken")
    print("ok dlpack")


def check_fast_launch():
    """Launches through the C path (_launch_type.h) once their types were seen: each launch's own device
    pointers, the same number of driver launches as Python launches."""
    x, y = cuda.to_device(np.zeros(8)), cuda.to_device(np.zeros(8))
    px, py = x.__cuda_array_interface__["data"][0], y.__cuda_array_interface__["data"][0]
    seen.clear()
    for _ in range(3):
        copy_kernel[2, 32](x, y)
    copy_kernel[2, 32](y, x)
    assert seen == [(px, py)] * 3 + [(py, px)], (seen, px, py)
    if cuda._LBase is not object:
        assert copy_kernel[2, 32]._kjit_fast_state() == (True, 1)
    h = np.zeros(8)
    copy_kernel[2, 32](h, y)  # a host array: copied to the device (its own pointer), on each launch
    copy_kernel[2, 32](h, y)
    assert seen[-1][1] == py and seen[-1][0] not in (px, py, h.ctypes.data)
    z = cuda.to_device(np.zeros(8))
    pz = z.__cuda_array_interface__["data"][0]
    seen.clear()
    for _ in range(3):  # another library's arrays: the same pointers, through kept wrappers after the first
        copy_kernel[3, 32](Exporter(px, (8,)), y)
    for _ in range(2):  # ping-pong between two of them at one position
        copy_kernel[3, 32](Exporter(px, (8,)), y)
        copy_kernel[3, 32](Exporter(pz, (8,)), y)
    copy_kernel[3, 32](Exporter(px + 8, (4,), strides=(16,)), y)  # another layout: its own key
    copy_kernel[3, 32](Exporter(pz, (8,), stream=5), y)  # another stream: the Python path, which waits
    assert seen == [(px, py)] * 3 + [(px, py), (pz, py)] * 2 + [(px + 8, py), (pz, py)], (seen, px, pz, py)
    if cuda._LBase is not object:
        assert copy_kernel[3, 32]._kjit_fast_state() == (True, 2)
    print("ok fast launch")


def check_stream_waits():
    """The producer's work is waited for (cuCtxSynchronize, logged by the fake driver) where the interface
    names a stream other than kjit's (1) or none at all (v2, PyTorch's: a tensor written on a torch.cuda.Stream
    was read by kjit's kernel before that work ended); not for stream None or 1, nor with sync=False."""
    log = os.environ["FAKE_CUDA_SYNC_LOG"]
    d = cuda.to_device(np.arange(8.0))
    p = d.__cuda_array_interface__["data"][0]

    def waits(make):
        open(log, "w").close()
        make()
        with open(log) as f:
            return f.read().count("cuCtxSynchronize")

    def v2():  # PyTorch's form: version 2, no `stream`
        e = Exporter(p, (8,))
        del e.__cuda_array_interface__["stream"]
        e.__cuda_array_interface__["version"] = 2
        return e

    assert waits(lambda: cuda.as_cuda_array(v2())) == 1
    assert waits(lambda: cuda.as_cuda_array(v2(), sync=False)) == 0
    assert waits(lambda: cuda.as_cuda_array(Exporter(p, (8,), stream=0x5000))) == 1
    assert waits(lambda: cuda.as_cuda_array(Exporter(p, (8,), stream=1))) == 0
    assert waits(lambda: cuda.as_cuda_array(Exporter(p, (8,)))) == 0  # stream None: no synchronisation needed
    y = cuda.to_device(np.zeros(8))
    for _ in range(2):  # a kernel argument: each launch waits (the C path leaves it to the Python path)
        assert waits(lambda: copy_kernel[1, 32](v2(), y)) == 1
    w = cuda.as_cuda_array(v2())  # wrapped once: one wait, then launches as a kjit device array
    assert waits(lambda: copy_kernel[1, 32](w, y)) == 0
    print("ok stream waits")


check_export()
check_import_zero_copy()
check_errors()
check_dlpack()
check_fast_launch()
check_stream_waits()
