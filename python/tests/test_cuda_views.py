"""numba-cuda's device-array surface in the package (kjit/_cuda_views.py), numba.cuda.random, the devices, and tuple
arguments of kernels. On the cpu target a view is a kjit array over the same host memory: checked by pointer
identity and by a kernel writing through the view. views_fake_gpu.py runs the same views on the fake CUDA driver,
where a view is kjit_array_wrap_device of the device copy at its offset."""
import os
import subprocess
import sys

import numpy as np
import pytest

from kjit import cuda
from kjit.errors import TypingError

HERE = os.path.dirname(os.path.abspath(__file__))


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def fill2(a, v):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = v + i * 10 + j


@cuda.jit
def tuple_kernel(out, t, w):
    i = cuda.grid(1)
    a, b = t
    if i < out.size:
        out[i] = a[i] * w[0] + b[i] * w[1] + w[i % len(w)]


@cuda.jit
def empty_tuple(r, x):
    r[0] = len(x)


def data_ptr(a):
    return a.__array_interface__["data"][0]


def test_views_share_memory():
    d = cuda.to_device(np.arange(12.0))
    r = d.reshape(3, 4)
    assert r.shape == (3, 4) and r.strides == (32, 8) and r.is_c_contiguous()
    assert data_ptr(r._host) == data_ptr(d._host)
    s = d[2:6]
    assert data_ptr(s._host) == data_ptr(d._host) + 16 and s.shape == (4,)
    add_one[1, 8](s)  # a kernel writing through the view writes the array
    assert list(d.copy_to_host()[:7]) == [0, 1, 3, 4, 5, 6, 6]
    t = r.T
    assert t.shape == (4, 3) and t.strides == (8, 32) and t.is_f_contiguous() and not t.is_c_contiguous()
    fill2[(1, 1), (4, 4)](t, 100.0)
    assert d.copy_to_host()[1] == 110.0  # d[1] is r[0, 1] is t[1, 0]
    assert r.ravel().shape == (12,) and r.transpose().strides == (8, 32)
    assert d.reshape((2, 6), order="F").strides == (8, 16)


def test_view_split_flags_squeeze():
    d = cuda.to_device(np.arange(10, dtype=np.int32))
    parts = list(d.split(4))
    assert [p.shape for p in parts] == [(4,), (4,), (2,)]
    assert data_ptr(parts[1]._host) == data_ptr(d._host) + 16
    v = d.view(np.int16)
    assert v.shape == (20,) and v.strides == (2,) and v.dtype == np.int16
    with pytest.raises(ValueError):
        cuda.to_device(np.zeros(3, dtype=np.int16)).view(np.int32)
    f = cuda.device_array((2, 3), order="F")
    assert f.flags["F_CONTIGUOUS"] and f.flags.f_contiguous and not f.flags["C_CONTIGUOUS"]
    assert cuda.device_array((1, 5, 1)).squeeze().shape == (5,)
    with pytest.raises(NotImplementedError, match="requires copying"):  # numba-cuda: not contiguous
        cuda.device_array((4, 4))[:, ::2].reshape(8)
    with pytest.raises(ValueError, match="changes the size"):
        cuda.device_array(6).reshape(4)
    assert cuda.device_array(12).reshape(-1, 3).shape == (4, 3)
    with pytest.raises(ValueError, match="only support 1d"):
        list(cuda.device_array((2, 2)).split(1))
    # an element is read, not viewed; an index NumPy answers with a copy gives a copy
    assert d[3] == 3 and list(d[[1, 2]].copy_to_host()) == [1, 2]
    d.setitem(slice(0, 2), 7, stream=0)
    assert list(d.getitem(slice(0, 3)).copy_to_host()) == [7, 7, 2]
    assert data_ptr(d.bind(0)._host) == data_ptr(d._host)


def test_strides_and_strided_copies():
    d = cuda.device_array((4, 3), np.float64, strides=(8, 32))
    assert d.strides == (8, 32) and d.is_f_contiguous() and d.nbytes == 96
    fill2[(1, 1), (4, 4)](d, 0.0)
    h = d.copy_to_host()
    assert h.strides == (8, 32) and h[3, 2] == 32.0  # numba-cuda keeps the strides
    c = cuda.device_array((3, 4), dtype=np.int32)
    sub = c[1:, ::2]
    assert sub.strides == (16, 8) and sub.copy_to_host().strides == (16, 8)
    with pytest.raises(ValueError, match="strides not match"):
        cuda.device_array((2, 2), strides=(8,))


def test_random_states():
    from kjit.cuda import random as r
    a = r.create_xoroshiro128p_states(5, seed=7)
    assert a.shape == (5,) and a.strides == (16,) and a.nbytes == 80 and a.dtype == r.xoroshiro128p_dtype
    b = cuda.device_array(5, dtype=r.xoroshiro128p_dtype)
    r.init_xoroshiro128p_states(b, seed=7)
    assert np.array_equal(a._host, b._host)
    like = cuda.device_array_like(a)
    assert like.shape == (5,) and like.dtype == r.xoroshiro128p_dtype and not like._host.any()
    # the first state is SplitMix64 of the seed jumped 0 times; the next one it jumped once (slow reference)
    s0, s1 = int(a._host[0, 0]), int(a._host[0, 1])
    assert (s0, s1) == (r._seed_state(7) & r._M64, r._seed_state(7) >> 64)
    assert r._jump_slow(s0, s1) == (int(a._host[1, 0]), int(a._host[1, 1]))
    with pytest.raises(OverflowError):
        r.create_xoroshiro128p_states(2, seed=1, subsequence_start=-1)
    with pytest.raises(Exception, match="only available inside a kernel"):
        r.xoroshiro128p_uniform_float32(a, 0)
    import kjit.cuda.random  # noqa: F401  (a submodule too)


def test_devices():
    gs = cuda.gpus
    assert len(gs) == 1 and [g.id for g in gs] == [0] and gs.current.id == 0
    dev = cuda.current_context().device
    assert dev.uuid == "GPU-00000000-0000-0000-0000-000000000000" and dev.id == 0


def test_tuple_arguments():
    a, b, out = np.arange(6.0), np.full(6, 2.0), np.zeros(6)
    tuple_kernel[1, 8](out, (a, b), (0.5, 1.5, 2.0))
    w = [0.5, 1.5, 2.0]
    assert list(out) == [a[i] * 0.5 + b[i] * 1.5 + w[i % 3] for i in range(6)]
    tuple_kernel[1, 8](out, (a, b), (1.0, 1.0, 1.0))  # a second launch of other values (no prepared plan)
    assert list(out) == list(a + 3.0)
    r = np.ones(1, dtype=np.int64)
    empty_tuple[1, 1](r, ())
    assert r[0] == 0
    with pytest.raises(TypingError):
        tuple_kernel[1, 8](out, (a, {}), (1.0,))


def fake_driver():
    lib = os.environ.get("KJIT_LIBRARY") or os.path.join(HERE, "..", "..", "build", "libkjit.so")
    path = os.path.join(os.path.dirname(os.path.abspath(lib)), "tests", "libfakecuda.so")
    return path if os.path.exists(path) else None


@pytest.mark.skipif(fake_driver() is None, reason="the build's fake CUDA driver (tests/libfakecuda.so) is missing")
def test_views_on_fake_driver():
    env = dict(os.environ, KJIT_LIBCUDA=fake_driver(), KJIT_TARGET="cuda", KJIT_NO_CACHE="1")
    r = subprocess.run([sys.executable, os.path.join(HERE, "views_fake_gpu.py")], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split("\n")[:3] == ["ok views", "ok kernel through view", "ok tuple launch"], r.stdout
