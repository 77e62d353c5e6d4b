#!/usr/bin/env python3
"""Issue 10's GPU ufunc table: a*b + sin(a) + cos(b) over n x n float32 as a
@vectorize(target='cuda') under kjit (ufunc.k), against CuPy's
ElementwiseKernel with the same math and Numba's @vectorize(target='cuda'),
all measured in this run on this GPU:

    benchmarks/cuda/ufunc.py [--kjit build/kjit] [--n 10000] [--reps 20]

Device arrays are timed with CUDA events around the call, host arrays with
perf_counter around a call whose inputs changed on the host and whose result
is read back (transfers included). Targets (issue 10): kjit on device arrays
<= 1.03x CuPy, fastmath faster than CuPy, host arrays <= 25 ms."""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def kjit_rows(kjit, n, reps):
    p = subprocess.run([kjit, "run", "--target", "cuda", os.path.join(HERE, "ufunc.k"), f"n={n}", f"reps={reps}"],
                       capture_output=True, text=True, timeout=600)
    print(p.stdout, p.stderr, file=sys.stderr)
    out = {}
    for line in p.stdout.splitlines():
        tok = line.split()
        if len(tok) == 3:
            out[tok[0]] = (float(tok[1]), tok[2] == "True")
    return out


def cupy_rows(n, reps):
    import cupy as cp
    a = cp.random.rand(n, n, dtype=cp.float32)
    b = cp.random.rand(n, n, dtype=cp.float32)
    o = cp.empty_like(a)
    k = cp.ElementwiseKernel("float32 a, float32 b", "float32 o", "o = a * b + sinf(a) + cosf(b)", "kj_elem")
    kf = cp.ElementwiseKernel("float32 a, float32 b", "float32 o", "o = a * b + __sinf(a) + __cosf(b)", "kj_elem_f")

    def timed(fn):
        fn()
        s, e = cp.cuda.Event(), cp.cuda.Event()
        t = []
        for _ in range(reps):
            s.record()
            fn()
            e.record()
            e.synchronize()
            t.append(cp.cuda.get_elapsed_time(s, e))
        return statistics.median(t)

    v = a.reshape(n * n)
    return {"cupy-out": timed(lambda: k(a, b, o)), "cupy-new": timed(lambda: k(a, b)),
            "cupy-fast-out": timed(lambda: kf(a, b, o)), "cupy-sum": timed(lambda: float(v.sum())),
            "cupy-max": timed(lambda: float(v.max()))}


def numba_rows(n, reps):
    import numpy as np
    from numba import cuda, vectorize

    @vectorize(["float32(float32, float32)"], target="cuda")
    def f(a, b):
        return a * b + np.sin(a) + np.cos(b)

    ha = np.random.rand(n, n).astype(np.float32)
    hb = np.random.rand(n, n).astype(np.float32)
    da, db = cuda.to_device(ha), cuda.to_device(hb)
    do = cuda.device_array_like(da)
    f(da, db, out=do)
    s, e = cuda.event(), cuda.event()
    t = []
    for _ in range(reps):
        s.record()
        f(da, db, out=do)
        e.record()
        e.synchronize()
        t.append(cuda.event_elapsed_time(s, e))
    dev = statistics.median(t)
    t = []
    for r in range(min(reps, 5)):
        ha[0, 0] = r
        t0 = time.perf_counter()
        res = f(ha, hb)
        t.append((time.perf_counter() - t0) * 1000)
    return {"numba-device-out": dev, "numba-host-new": statistics.median(t)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kjit", default=os.path.join(HERE, "..", "..", "build", "kjit"))
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    kj = kjit_rows(os.path.abspath(a.kjit), a.n, a.reps)
    ref = {}
    for name, fn in (("cupy", cupy_rows), ("numba", numba_rows)):
        try:
            ref.update(fn(a.n, a.reps))
        except Exception as ex:  # a reference that is not installed is reported, not fatal
            print(f"{name}: skipped ({ex})", file=sys.stderr)
    lines = [f"GPU ufunc a*b + sin(a) + cos(b), {a.n}x{a.n} float32, median of {a.reps} (ms)", "",
             "| row | kjit | reference | ratio | target | check |", "|---|---|---|---|---|---|"]

    def row(label, key, rkey, rname, target):
        kv, ok = kj.get(key, (None, False))
        rv = ref.get(rkey)
        ratio = f"{kv / rv:.2f}" if kv and rv else "—"
        ks = f"{kv:.3f}" if kv is not None else "—"
        rs = f"{rv:.3f} ({rname})" if rv is not None else "—"
        lines.append(f"| {label} | {ks} | {rs} | {ratio} | {target} | {'ok' if ok else 'FAIL'} |")

    row("device arrays, out=", "ufunc-device-out", "cupy-out", "CuPy ElementwiseKernel", "≤ 1.03")
    row("device arrays, new result", "ufunc-device-new", "cupy-new", "CuPy, new result", "—")
    row("device arrays, fastmath", "ufunc-device-fastmath", "cupy-out", "CuPy ElementwiseKernel", "< 1")
    row("device arrays, fastmath vs CuPy __sinf", "ufunc-device-fastmath", "cupy-fast-out", "CuPy __sinf/__cosf", "—")
    row("add.reduce of n*n on the device (scalar back)", "reduce-device", "cupy-sum", "CuPy a.sum() to a float", "≤ 1.0")
    row("np.sum of n*n on the device (scalar back)", "sum-device", "cupy-sum", "CuPy a.sum() to a float", "≤ 1.0")
    row("np.max of n*n on the device (scalar back)", "max-device", "cupy-max", "CuPy a.max() to a float", "≤ 1.0")
    row("device arrays vs Numba", "ufunc-device-out", "numba-device-out", "Numba target='cuda'", "—")
    row("host arrays, out= (transfers in)", "ufunc-host-out", "numba-host-new", "Numba target='cuda'", "≤ 25 ms")
    row("host arrays, new result (transfers in)", "ufunc-host-new", "numba-host-new", "Numba target='cuda'", "≤ 25 ms")
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
