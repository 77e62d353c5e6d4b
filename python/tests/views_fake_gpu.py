"""Run by test_cuda_views.py in a process of its own on the fake CUDA driver (KJIT_LIBCUDA; its device memory is
host memory, and its launch observer reports each launch's parameters): device-array views are the device copy at
their offset (kjit_array_wrap_device), not copies; tuple arguments reach cuLaunchKernel as their leaves. Each check
prints "ok NAME" or fails with an AssertionError."""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import kjit  # noqa: E402
from kjit import cuda  # noqa: E402

kjit.config.TARGET = "cuda"

HOOK = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)
seen = []


@HOOK
def observe(gb, params, user):  # the first array's data, shape, stride
    seen.append([ctypes.c_uint64.from_address(params[k]).value for k in range(3)])


fake = ctypes.CDLL(os.environ["KJIT_LIBCUDA"])
fake.fake_cuda_on_launch.argtypes = [HOOK, ctypes.c_void_p]
fake.fake_cuda_on_launch(observe, None)


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def pair(t, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = t[0][i] + t[1]


def dev_ptr(d):
    return d.__cuda_array_interface__["data"][0]


def check_views():
    assert cuda._on_gpu()
    d = cuda.to_device(np.arange(12.0))
    base = dev_ptr(d)
    s = d[2:6]
    assert s._host is None and dev_ptr(s) == base + 16 and s.shape == (4,)
    r = d.reshape(3, 4)
    assert dev_ptr(r) == base and dev_ptr(r.T) == base and r.T.strides == (8, 32)
    parts = list(d.split(5))
    assert [dev_ptr(p) for p in parts] == [base, base + 40, base + 80]
    assert dev_ptr(d.view(np.int32)) == base
    # a write to the view's device memory is seen through the array it views (no copy between them)
    (ctypes.c_double * 4).from_address(dev_ptr(s))[1] = 99.0
    assert d.copy_to_host()[3] == 99.0 and s.copy_to_host()[1] == 99.0
    f = cuda.device_array((4, 3), np.float64, strides=(8, 32))
    assert f.strides == (8, 32) and f.copy_to_host().strides == (8, 32)
    print("ok views")


def check_kernel_through_view():
    d = cuda.to_device(np.arange(12.0))
    base = dev_ptr(d)
    seen.clear()
    add_one[1, 8](d[4:8])
    assert seen[-1][0] == base + 32 and seen[-1][1] == 4 and seen[-1][2] == 8, seen
    print("ok kernel through view")


def check_tuple_launch():
    a, out = np.arange(5.0), np.zeros(5)
    seen.clear()
    pair[1, 8]((a, 2.0), out)
    ptr, shape, stride = seen[-1]
    assert shape == 5 and stride == 8
    assert list((ctypes.c_double * 5).from_address(ptr)) == list(a)  # a, in the tuple, was uploaded
    print("ok tuple launch")


check_views()
check_kernel_through_view()
check_tuple_launch()
