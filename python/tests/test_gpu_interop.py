"""kjit's GPU arrays with CuPy, PyTorch and Numba on a real GPU (issue 27 point 5; the fake-driver half is
test_cai.py): their arrays into kjit kernels without a copy, kjit's device arrays into them without a copy
(pointer identity through __cuda_array_interface__ and DLPack), and work queued on other streams waited for.

Each test skips (unittest.SkipTest, which pytest honours) without a GPU or without the library it needs; the
GPU machine runs them through benchmarks/python/run_device.sh and python/tests/run.sh. Without pytest,
`python3 test_gpu_interop.py` runs them itself and prints one line per test."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks", "python"))

import numba_np2  # noqa: E402,F401  (numba-cuda under NumPy 2.4: before any numba import)
import numpy as np  # noqa: E402

import kjit  # noqa: E402
from kjit import cuda  # noqa: E402


@cuda.jit
def twice(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2


@cuda.jit
def twice2(x):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        x[i, j] *= 2


@cuda.jit
def fill(x, v):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = v


_GPU = []  # cuda.is_available(), asked once (it probes the driver)


def _need_gpu():
    if not _GPU:
        _GPU.append(cuda.is_available())
    if not _GPU[0]:
        raise unittest.SkipTest("needs a GPU")
    if os.environ.get("KJIT_LIBCUDA"):
        raise unittest.SkipTest("needs a real GPU: the fake driver (KJIT_LIBCUDA) runs no kernels")
    kjit.config.TARGET = "cuda"  # restored by _on_cpu_after()


def _on_cpu_after():
    kjit.config.TARGET = os.environ.get("KJIT_TARGET_AFTER", "cpu")  # conftest.py's target for the others


def _cupy():
    _need_gpu()
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        return cupy
    except Exception as e:
        raise unittest.SkipTest(f"no CuPy ({type(e).__name__})")


def _torch():
    _need_gpu()
    try:
        import torch
    except Exception as e:
        raise unittest.SkipTest(f"no PyTorch ({type(e).__name__})")
    if not torch.cuda.is_available():
        raise unittest.SkipTest("PyTorch sees no GPU")
    return torch


def _numba_cuda():
    _need_gpu()
    try:
        from numba import cuda as ncuda
        if ncuda is cuda:
            raise unittest.SkipTest("numba is kjit here (python3 -m kjit)")
        if not ncuda.is_available():
            raise unittest.SkipTest("Numba sees no GPU")
        return ncuda
    except unittest.SkipTest:
        raise
    except Exception as e:
        raise unittest.SkipTest(f"numba.cuda does not import ({type(e).__name__}: {e})")


def kjit_ptr(d):
    return d.__cuda_array_interface__["data"][0]


def blocks(n, tpb=256):
    return (n + tpb - 1) // tpb


def test_cupy_array_into_kernel_without_copy():
    cp = _cupy()
    try:
        a = cp.arange(1000, dtype=cp.float32)
        w = cuda.as_cuda_array(a)
        assert kjit_ptr(w) == a.data.ptr  # the same device memory
        twice[blocks(1000), 256](a)  # the CuPy array itself: kjit launches on its pointer
        twice[blocks(1000), 256](w)
        assert cp.asnumpy(a).tolist() == [4.0 * k for k in range(1000)]
        s = a[1::3]  # a strided view: a copy could not write through
        twice[blocks(s.size), 256](s)
        got = cp.asnumpy(a)
        assert got[1] == 8.0 and got[2] == 8.0 and got[4] == 32.0, got[:8]
    finally:
        _on_cpu_after()


def test_torch_tensor_into_kernel_without_copy():
    torch = _torch()
    try:
        t = torch.arange(1000, dtype=torch.float64, device="cuda")
        w = cuda.as_cuda_array(t)
        assert kjit_ptr(w) == t.data_ptr()
        twice[blocks(1000), 256](t)
        twice[blocks(1000), 256](w)
        assert t.cpu().tolist() == [4.0 * k for k in range(1000)]
        s = t[::2]
        twice[blocks(s.numel()), 256](s)
        got = t.cpu().tolist()
        assert got[2] == 16.0 and got[3] == 12.0
    finally:
        _on_cpu_after()


def test_kjit_array_into_cupy_without_copy():
    cp = _cupy()
    try:
        d = cuda.to_device(np.arange(8.0))
        c = cp.asarray(d)
        assert c.data.ptr == kjit_ptr(d) and c.shape == (8,) and c.dtype == cp.float64
        c += 1  # CuPy writes kjit's memory: kjit sees it
        assert d.copy_to_host().tolist() == [k + 1.0 for k in range(8)]
        twice[1, 32](d)  # kjit writes: CuPy sees it
        assert cp.asnumpy(c).tolist() == [2.0 * (k + 1) for k in range(8)]
        f = cuda.to_device(np.zeros((3, 4), dtype=np.float32, order="F"))
        cf = cp.asarray(f)
        assert cf.data.ptr == kjit_ptr(f) and cf.strides == (4, 12)
    finally:
        _on_cpu_after()


def test_kjit_array_into_torch_without_copy():
    torch = _torch()
    try:
        d = cuda.to_device(np.arange(8.0))
        t = torch.as_tensor(d, device="cuda")
        assert t.data_ptr() == kjit_ptr(d) and tuple(t.shape) == (8,) and t.dtype == torch.float64
        t.add_(1)
        assert d.copy_to_host().tolist() == [k + 1.0 for k in range(8)]
        twice[1, 32](d)
        assert t.cpu().tolist() == [2.0 * (k + 1) for k in range(8)]
    finally:
        _on_cpu_after()


def test_dlpack_both_ways_cupy():
    cp = _cupy()
    try:
        a = cp.arange(6, dtype=cp.float64).reshape(2, 3)
        w = cuda.from_dlpack(a)  # CuPy -> kjit
        assert kjit_ptr(w) == a.data.ptr and w.shape == (2, 3) and w.strides == (24, 8)
        twice2[1, (4, 4)](w)
        assert cp.asnumpy(a).tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
        d = cuda.to_device(np.arange(4, dtype=np.int32))
        back = cp.from_dlpack(d)  # kjit -> CuPy
        assert back.data.ptr == kjit_ptr(d) and back.dtype == cp.int32
        assert cp.asnumpy(back).tolist() == [0, 1, 2, 3]
    finally:
        _on_cpu_after()


def test_dlpack_both_ways_torch():
    torch = _torch()
    try:
        t = torch.arange(6, dtype=torch.float32, device="cuda")
        w = cuda.from_dlpack(t)  # torch -> kjit
        assert kjit_ptr(w) == t.data_ptr()
        twice[1, 32](w)
        assert t.cpu().tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        d = cuda.to_device(np.arange(4.0))
        back = torch.from_dlpack(d)  # kjit -> torch
        assert back.data_ptr() == kjit_ptr(d) and back.device.type == "cuda"
        assert back.cpu().tolist() == [0.0, 1.0, 2.0, 3.0]
    finally:
        _on_cpu_after()


N_STREAM = 1 << 24


def test_cupy_stream_waited_for_by_kjit():
    """Work CuPy queued on a non-blocking stream (which the legacy default stream does not wait for) is done
    before a kjit kernel reads the array: the interface's `stream` (CuPy's current stream when the interface is
    read, as the protocol has it) is honoured."""
    cp = _cupy()
    try:
        s = cp.cuda.Stream(non_blocking=True)
        with s:
            a = cp.zeros(N_STREAM, dtype=cp.float32)
            for _ in range(40):
                a += 1  # ~40 kernels over 64 MiB: still running when kjit launches
            twice[blocks(N_STREAM), 256](a)  # a's interface names s here: kjit waits for it
        cuda.synchronize()
        s.synchronize()
        assert float(a.min()) == 80.0 and float(a.max()) == 80.0
    finally:
        _on_cpu_after()


def test_kjit_work_waited_for_by_cupy_stream():
    """kjit's kernel, on the legacy default stream, is done before CuPy reads its array on a non-blocking
    stream: kjit's interface names its stream (1) and CuPy waits for it on import."""
    cp = _cupy()
    try:
        d = cuda.device_array(N_STREAM, dtype=np.float32)
        for v in range(1, 41):
            fill[blocks(N_STREAM), 256](d, np.float32(v))
        s = cp.cuda.Stream(non_blocking=True)
        with s:
            c = cp.asarray(d)
            total = float(c.sum(dtype=cp.float64))
        s.synchronize()
        assert total == 40.0 * N_STREAM
    finally:
        _on_cpu_after()


def test_torch_stream_waited_for_by_kjit():
    torch = _torch()
    try:
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            t = torch.zeros(N_STREAM, dtype=torch.float32, device="cuda")
            for _ in range(40):
                t += 1
            d = cuda.as_cuda_array(t)  # inside the stream: its interface names s, which kjit waits for
        twice[blocks(N_STREAM), 256](d)
        cuda.synchronize()
        assert float(t.min()) == 80.0 and float(t.max()) == 80.0
    finally:
        _on_cpu_after()


def test_torch_stream_waited_for_by_kjit_launch():
    """The same with the tensor itself as the kernel argument: PyTorch's interface (version 2) names no stream,
    so kjit waits for the context at each such launch (the lead's H100 run read 57 instead of 80 before)."""
    torch = _torch()
    try:
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            t = torch.zeros(N_STREAM, dtype=torch.float32, device="cuda")
            for _ in range(40):
                t.add_(1)
            twice[blocks(N_STREAM), 256](t)
        cuda.synchronize()
        torch.cuda.synchronize()
        assert float(t.min()) == 80.0 and float(t.max()) == 80.0
    finally:
        _on_cpu_after()


def test_launch_on_a_stream():
    """k[blocks, threads, stream](...) with kjit's stream: the work is done once the stream is synchronized."""
    _need_gpu()
    try:
        st = cuda.stream()
        d = cuda.device_array(N_STREAM, dtype=np.float32)
        fill[blocks(N_STREAM), 256, st](d, np.float32(3))
        twice[blocks(N_STREAM), 256, st](d)
        st.synchronize()
        h = d.copy_to_host()
        assert h.min() == 6.0 and h.max() == 6.0
    finally:
        _on_cpu_after()


def test_numba_device_array_into_kjit():
    ncuda = _numba_cuda()
    try:
        nd = ncuda.to_device(np.arange(8.0))
        w = cuda.as_cuda_array(nd)
        assert kjit_ptr(w) == nd.__cuda_array_interface__["data"][0]
        twice[1, 32](nd)  # Numba's device array itself
        twice[1, 32](w)
        assert nd.copy_to_host().tolist() == [4.0 * k for k in range(8)]
        d = cuda.to_device(np.arange(4.0))
        back = ncuda.as_cuda_array(d)  # kjit -> Numba
        assert back.__cuda_array_interface__["data"][0] == kjit_ptr(d)
        assert back.copy_to_host().tolist() == [0.0, 1.0, 2.0, 3.0]
    finally:
        _on_cpu_after()


def _main():
    """Without pytest: run every test_ function, print ok / skipped / FAILED, exit 1 on a failure."""
    import traceback
    failed = 0
    for name, fn in sorted(globals().items()):
        if not name.startswith("test_") or not callable(fn):
            continue
        try:
            fn()
            print(f"ok       {name}")
        except unittest.SkipTest as e:
            print(f"skipped  {name}: {e}")
        except Exception:
            failed += 1
            print(f"FAILED   {name}\n{traceback.format_exc()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(_main())
