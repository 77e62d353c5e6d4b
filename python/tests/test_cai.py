"""GPU arrays shared with other libraries (issue 27 point 5): __cuda_array_interface__ v3 exported by kjit's
device arrays, any exporter accepted by cuda.as_cuda_array and by kernels without a copy; DLPack both ways. Without a GPU these
run on the fake CUDA driver that the build makes (tests/unit/fake_libcuda.c), in a process of their own
(cai_fake_gpu.py): zero copy is checked by pointer identity, in the driver's memory and at its launches."""
import os
import subprocess
import sys

import numpy as np
import pytest

import kjit
from kjit import cuda

HERE = os.path.dirname(os.path.abspath(__file__))


def fake_driver():
    lib = os.environ.get("KJIT_LIBRARY") or os.path.join(HERE, "..", "..", "build", "libkjit.so")
    path = os.path.join(os.path.dirname(os.path.abspath(lib)), "tests", "libfakecuda.so")
    return path if os.path.exists(path) else None


@pytest.mark.skipif(fake_driver() is None, reason="the build's fake CUDA driver (tests/libfakecuda.so) is missing")
def test_interface_on_fake_driver(tmp_path):
    env = dict(os.environ, KJIT_LIBCUDA=fake_driver(), KJIT_TARGET="cuda", KJIT_NO_CACHE="1",
               FAKE_CUDA_SYNC_LOG=str(tmp_path / "syncs.log"))
    r = subprocess.run([sys.executable, os.path.join(HERE, "cai_fake_gpu.py")], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split("\n")[:6] == ["ok export", "ok import", "ok errors", "ok dlpack", "ok fast launch",
                                         "ok stream waits"], \
        r.stdout


def test_cpu_target_has_no_interface():
    # Without a GPU (here the cpu target of CI) a device array exports nothing: hasattr is False.
    if cuda.is_available():
        pytest.skip("a GPU is present")
    d = cuda.to_device(np.arange(3.0))
    assert not hasattr(d, "__cuda_array_interface__")
    assert cuda.is_cuda_array(d)
    with pytest.raises(TypeError, match="doesn't implement the cuda array interface"):
        cuda.as_cuda_array([1, 2])


def _gpu_libs():
    out = []
    for name in ("cupy", "torch"):
        try:
            out.append(__import__(name))
        except ImportError:
            pass
    return out


gpu = pytest.mark.skipif(not cuda.is_available(), reason="needs a GPU")


@gpu
@pytest.mark.parametrize("lib", _gpu_libs() or [pytest.param(None, marks=pytest.mark.skip("no CuPy or PyTorch"))])
def test_cupy_torch_zero_copy(lib):
    @cuda.jit
    def twice(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= 2

    old = kjit.config.TARGET
    kjit.config.TARGET = "cuda"
    try:
        if lib.__name__ == "cupy":
            a = lib.arange(8, dtype=lib.float32)
            ptr = a.data.ptr
        else:
            a = lib.arange(8, dtype=lib.float32, device="cuda")
            ptr = a.data_ptr()
        d = cuda.as_cuda_array(a)
        assert d.__cuda_array_interface__["data"][0] == ptr
        twice[1, 32](a)
        twice[1, 32](d)
        got = a.get() if lib.__name__ == "cupy" else a.cpu().numpy()
        assert got.tolist() == [4.0 * k for k in range(8)]
        back = lib.asarray(d)  # kjit's export read by the library: the same memory
        assert (back.data.ptr if lib.__name__ == "cupy" else back.data_ptr()) == ptr
        assert cuda.from_dlpack(a).__cuda_array_interface__["data"][0] == ptr  # DLPack both ways
        back = lib.from_dlpack(d)
        assert (back.data.ptr if lib.__name__ == "cupy" else back.data_ptr()) == ptr
    finally:
        kjit.config.TARGET = old


def test_gpu_benchmark_runs():
    # benchmarks/python/bench_gpu.py, which the GPU machine runs: here its GPU rows say why they are skipped.
    script = os.path.join(HERE, "..", "..", "benchmarks", "python", "bench_gpu.py")
    r = subprocess.run([sys.executable, script, "--quick", "--repeat", "1"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "launch, device array (kjit cpu target)" in r.stdout
    if not cuda.is_available():
        assert "launch, device array (kjit GPU)              skipped: no GPU" in r.stdout
