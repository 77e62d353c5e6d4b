"""kjit's Python package on the GPU against Numba and CuPy, in one run: launch overhead from a Python loop,
the cost of sharing GPU arrays (__cuda_array_interface__ both ways), first-call latency of a kernel, and
kernel speed. For the GPU machine (issue 27 points 5 and 6; docs/python.md "Performance"):

    /usr/bin/python3 benchmarks/python/bench_gpu.py [--repeat N] [--quick]

Without a GPU (or without Numba's CUDA, CuPy or PyTorch) their rows say "skipped" and why; the rows that
need no GPU (launches on kjit's cpu target) still run, so the script is checked on CI machines too.
Per-launch figures: best of --repeat loops of n launches, each loop ended by a synchronize, divided by n.
First call: its compile part in a fresh process (figures.py's: the GPU context made before the timer, the
first launch less a second one), medians of --repeat."""

import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)
os.environ.setdefault("KJIT_LIBRARY", os.path.join(ROOT, "build", "libkjit.so"))

import numba_np2  # noqa: E402,F401  (numba-cuda under NumPy 2.4: before any numba import)
import numpy as np  # noqa: E402

import kjit  # noqa: E402
from kjit import cuda  # noqa: E402


@cuda.jit
def bump(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def saxpy(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]


def per_call(fn, n, repeat, sync=lambda: None):
    fn()
    sync()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def optional(name):
    try:
        return __import__(name), None
    except Exception as e:  # ImportError, or a library that cannot start (no driver)
        return None, f"no {name} ({type(e).__name__})"


def numba_cuda():
    try:
        from numba import cuda as ncuda
        return (ncuda, None) if ncuda.is_available() else (None, "Numba sees no GPU")
    except Exception as e:
        return None, f"no numba.cuda ({type(e).__name__})"


def launch_rows(gpu, n, repeat):
    rows = []
    kjit.config.TARGET = "cpu"
    host = np.zeros(32)
    rows.append(("launch, host array (kjit cpu target)", per_call(lambda: bump[1, 32](host), n, repeat)))
    d = cuda.to_device(np.zeros(32))
    rows.append(("launch, device array (kjit cpu target)", per_call(lambda: bump[1, 32](d), n, repeat)))
    if not gpu:
        for label in ("launch, device array (kjit GPU)", "launch, host array (kjit GPU, copies)",
                      "launch, CuPy array (kjit GPU, CAI)", "launch, torch tensor (kjit GPU, CAI)",
                      "launch, device array (Numba)", "launch, RawKernel (CuPy)"):
            rows.append((label, "skipped: no GPU"))
        return rows
    kjit.config.TARGET = "cuda"
    d = cuda.to_device(np.zeros(1 << 10))
    rows.append(("launch, device array (kjit GPU)", per_call(lambda: bump[4, 256](d), n, repeat, cuda.synchronize)))
    h = np.zeros(1 << 10)
    rows.append(("launch, host array (kjit GPU, copies)", per_call(lambda: bump[4, 256](h), n // 10, repeat,
                                                                    cuda.synchronize)))
    cp, why = optional("cupy")
    if cp:
        a = cp.zeros(1 << 10)
        rows.append(("launch, CuPy array (kjit GPU, CAI)", per_call(lambda: bump[4, 256](a), n, repeat,
                                                                     cuda.synchronize)))
    else:
        rows.append(("launch, CuPy array (kjit GPU, CAI)", f"skipped: {why}"))
    torch, why = optional("torch")
    if torch and torch.cuda.is_available():
        t = torch.zeros(1 << 10, dtype=torch.float64, device="cuda")
        rows.append(("launch, torch tensor (kjit GPU, CAI)", per_call(lambda: bump[4, 256](t), n, repeat,
                                                                       cuda.synchronize)))
    else:
        rows.append(("launch, torch tensor (kjit GPU, CAI)", f"skipped: {why or 'torch sees no GPU'}"))
    ncuda, why = numba_cuda()
    if ncuda:
        @ncuda.jit
        def nbump(a):
            i = ncuda.grid(1)
            if i < a.size:
                a[i] += 1
        nd = ncuda.to_device(np.zeros(1 << 10))
        rows.append(("launch, device array (Numba)", per_call(lambda: nbump[4, 256](nd), n, repeat,
                                                               ncuda.synchronize)))
    else:
        rows.append(("launch, device array (Numba)", f"skipped: {why}"))
    if cp:
        k = cp.RawKernel(r'''extern "C" __global__ void bump(double *a, long long n) {
            long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i < n) a[i] += 1; }''', "bump")
        a = cp.zeros(1 << 10)
        rows.append(("launch, RawKernel (CuPy)", per_call(lambda: k((4,), (256,), (a, np.int64(a.size))), n, repeat,
                                                           cp.cuda.Device().synchronize)))
    else:
        rows.append(("launch, RawKernel (CuPy)", f"skipped: {why}"))
    return rows


def interop_rows(gpu, n, repeat):
    labels = ("kjit array -> __cuda_array_interface__", "CuPy array -> cuda.as_cuda_array (kjit)",
              "kjit array -> cupy.asarray", "torch tensor -> cuda.as_cuda_array (kjit)")
    if not gpu:
        return [(label, "skipped: no GPU") for label in labels]
    kjit.config.TARGET = "cuda"
    d = cuda.to_device(np.zeros(1 << 10))
    rows = [(labels[0], per_call(lambda: d.__cuda_array_interface__, n, repeat))]
    cp, why = optional("cupy")
    if cp:
        a = cp.zeros(1 << 10)
        rows.append((labels[1], per_call(lambda: cuda.as_cuda_array(a), n, repeat)))
        rows.append((labels[2], per_call(lambda: cp.asarray(d), n, repeat)))
    else:
        rows += [(labels[1], f"skipped: {why}"), (labels[2], f"skipped: {why}")]
    torch, why = optional("torch")
    if torch and torch.cuda.is_available():
        t = torch.zeros(1 << 10, dtype=torch.float64, device="cuda")
        rows.append((labels[3], per_call(lambda: cuda.as_cuda_array(t), n, repeat)))
    else:
        rows.append((labels[3], f"skipped: {why or 'torch sees no GPU'}"))
    return rows


def first_call_rows(gpu, repeat):
    """A kernel's first call on the GPU, its compile part as issue 27 means it (figures.py's FRESH): the GPU
    context made and the argument on the device before the timer, for kjit and Numba alike, then the first
    launch's time less a second launch's (the context's creation is the driver's, not the compile's)."""
    if not gpu:
        return [("first call, kernel (GPU), compile part", "skipped: no GPU")]
    import tempfile
    import figures

    def kjit_run(env):
        return figures.fresh(figures.KERNEL_SETUP, figures.KERNEL_PROGRAM, "kjit", "cuda", env)["compile"]

    def cold():
        with tempfile.TemporaryDirectory() as d:
            return kjit_run(figures.env_for({"KJIT_CACHE_DIR": d}))
    warm_env = figures.env_for({"KJIT_CACHE_DIR": tempfile.mkdtemp()})
    kjit_run(warm_env)
    rows = [("first call, kernel (kjit GPU, cold), compile part", statistics.median(cold() for _ in range(repeat))),
            ("first call, kernel (kjit GPU, warm), compile part", statistics.median(
                kjit_run(warm_env) for _ in range(repeat)))]
    ncuda, why = numba_cuda()
    rows.append(("first call, kernel (Numba), compile part", statistics.median(
        figures.fresh(figures.KERNEL_SETUP, figures.KERNEL_PROGRAM, "numba", "cuda", figures.env_for())["compile"]
        for _ in range(repeat)) if ncuda else f"skipped: {why}"))
    return rows


def speed_rows(gpu, repeat):
    if not gpu:
        return [("saxpy 2^24 float32 (kjit GPU)", "skipped: no GPU")]
    kjit.config.TARGET = "cuda"
    n = 1 << 24
    x, y = np.ones(n, dtype=np.float32), np.ones(n, dtype=np.float32)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    blocks = (n + 255) // 256
    rows = [("saxpy 2^24 float32 (kjit GPU)", per_call(lambda: saxpy[blocks, 256](np.float32(2.0), dx, dy), 20,
                                                      repeat, cuda.synchronize))]
    ncuda, why = numba_cuda()
    if ncuda:
        @ncuda.jit
        def nsaxpy(a, x, y):
            i = ncuda.grid(1)
            if i < x.size:
                y[i] = a * x[i] + y[i]
        nx, ny = ncuda.to_device(x), ncuda.to_device(y)
        rows.append(("saxpy 2^24 float32 (Numba)", per_call(lambda: nsaxpy[blocks, 256](np.float32(2.0), nx, ny), 20,
                                                           repeat, ncuda.synchronize)))
    else:
        rows.append(("saxpy 2^24 float32 (Numba)", f"skipped: {why}"))
    return rows


def show(rows):
    for label, v in rows:
        if isinstance(v, str):
            print(f"{label:44} {v}")
        elif v >= 1e-2:
            print(f"{label:44} {v * 1e3:10.1f} ms")
        else:
            print(f"{label:44} {v * 1e6:10.2f} us")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="fewer launches per loop (a check that it runs)")
    o = ap.parse_args()
    n = 2000 if o.quick else 20000
    gpu = cuda.is_available()
    print(f"kjit {getattr(kjit, '__version__', '?')}, GPU: "
          f"{'yes' if gpu else 'none (GPU rows skipped)'}")
    rows = launch_rows(gpu, n, o.repeat) + interop_rows(gpu, n, o.repeat)
    rows += first_call_rows(gpu, o.repeat) + speed_rows(gpu, o.repeat)
    show(rows)


if __name__ == "__main__":
    main()
