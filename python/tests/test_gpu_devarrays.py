"""Device-array views, numba.cuda.random and tuple launches on a real GPU (the fake-driver half is
views_fake_gpu.py, the cpu half test_cuda_views.py): a view is the device copy at its offset (pointer identity), a
kernel writing through a view writes the array, copy_to_host keeps strides, a kernel's draws from states made by
create_xoroshiro128p_states are numba-cuda's numbers, tuples of host arrays go to the GPU and back, and the device's
uuid is the driver's (numba-cuda's, where it imports).

Each test skips without a GPU (test_gpu_interop.py's _need_gpu); benchmarks/python/run_device.sh runs them.
Without pytest, `python3 test_gpu_devarrays.py` runs them itself."""
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

from test_gpu_interop import _need_gpu, _numba_cuda, _on_cpu_after, kjit_ptr  # noqa: E402
from kjit import cuda  # noqa: E402
from kjit.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float64  # noqa: E402,F401


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def fill2(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = i * 10 + j


@cuda.jit
def draw(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        for k in range(out.shape[1]):
            out[i, k] = xoroshiro128p_uniform_float64(states, i)


@cuda.jit
def tuple_kernel(t, w, out):
    i = cuda.grid(1)
    a, b = t
    if i < out.size:
        out[i] = a[i] * w[0] + b[i] * w[1]
        b[i] = -1.0


def test_views_on_gpu():
    _need_gpu()
    try:
        d = cuda.to_device(np.arange(12.0))
        s, r = d[2:6], d.reshape(3, 4)
        assert kjit_ptr(s) == kjit_ptr(d) + 16 and kjit_ptr(r) == kjit_ptr(d) and kjit_ptr(r.T) == kjit_ptr(d)
        add_one[1, 32](s)
        assert d.copy_to_host().tolist() == [0, 1, 3, 4, 5, 6] + list(range(6, 12))
        parts = list(d.split(5))
        add_one[1, 32](parts[2])
        assert d.copy_to_host()[10:].tolist() == [11.0, 12.0]
        assert d.view(np.int64).shape == (12,) and kjit_ptr(d.view(np.int64)) == kjit_ptr(d)
        f = cuda.device_array((4, 3), np.float64, strides=(8, 32))
        fill2[(1, 1), (4, 4)](f)
        h = f.copy_to_host()
        assert h.strides == (8, 32) and h.tolist() == [[i * 10 + j for j in range(3)] for i in range(4)]
    finally:
        _on_cpu_after()


# tests/golden/run/cuda_random_states_shape.expected: numba-cuda's first draws of seed 7
FIRST_DRAWS = [[0.779659, 0.920683, 0.205102], [0.096315, 0.054409, 0.238959], [0.971131, 0.784911, 0.658583]]


def test_random_on_gpu():
    _need_gpu()
    try:
        states = create_xoroshiro128p_states(40, seed=7)
        out = np.zeros((40, 3))
        draw[2, 32](states, out)
        assert np.round(out[:3], 6).tolist() == FIRST_DRAWS, out[:3]
    finally:
        _on_cpu_after()


def test_tuple_launch_on_gpu():
    _need_gpu()
    try:
        a, b, out = np.arange(5.0), np.full(5, 2.0), np.zeros(5)
        tuple_kernel[1, 32]((a, b), (0.5, np.float32(1.5)), out)
        assert out.tolist() == [k * 0.5 + 3.0 for k in range(5)]
        assert b.tolist() == [-1.0] * 5  # a host array inside a tuple comes back, as Numba copies it out
    finally:
        _on_cpu_after()


def test_device_uuid():
    _need_gpu()
    try:
        dev = cuda.current_context().device
        assert re.fullmatch(r"GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", dev.uuid), dev.uuid
        assert dev.uuid != "GPU-00000000-0000-0000-0000-000000000000" and dev.compute_capability[0] >= 5
        try:
            ncuda = _numba_cuda()
        except unittest.SkipTest:
            return
        assert ncuda.current_context().device.uuid == dev.uuid
    finally:
        _on_cpu_after()


if __name__ == "__main__":
    import traceback
    failed = 0
    for name, fn in sorted(dict(globals()).items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print(f"ok       {name}")
            except unittest.SkipTest as e:
                print(f"skipped  {name}: {e}")
            except Exception:
                failed += 1
                print(f"FAILED   {name}\n{traceback.format_exc()}")
    sys.exit(1 if failed else 0)
