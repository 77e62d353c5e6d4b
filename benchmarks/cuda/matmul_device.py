"""a @ b of n x n float32 device arrays, kjit against CuPy in the same run (issue 25's goal: kjit within
1.05x of CuPy at 8192, both through cuBLAS).

    python3 benchmarks/cuda/matmul_device.py --kjit build/kjit [--n 8192] [--reps 20]

kjit runs matmul_device.k (median of CUDA-event timings of `c = a @ b`); CuPy times `p @ q` the same way
(cupy_ref.py's method). Prints one table row per size and the ratio kjit / CuPy."""
import argparse
import os
import subprocess
import sys


def cupy_ms(n, reps):
    import cupy as cp
    p = cp.random.rand(n, n, dtype=cp.float32)
    q = cp.random.rand(n, n, dtype=cp.float32)
    p @ q
    a, b = cp.cuda.Event(), cp.cuda.Event()
    t = []
    for _ in range(reps):
        a.record()
        p @ q
        b.record()
        b.synchronize()
        t.append(cp.cuda.get_elapsed_time(a, b))
    t.sort()
    h = len(t) // 2
    return t[h] if len(t) % 2 else (t[h - 1] + t[h]) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kjit", default="build/kjit")
    ap.add_argument("--n", type=int, nargs="*", default=[4096, 8192])
    ap.add_argument("--reps", type=int, default=20)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    print("| n | kjit `a @ b` ms | CuPy `p @ q` ms | kjit / CuPy (goal <= 1.05) | kjit's check |")
    print("|---|---|---|---|---|")
    for n in a.n:
        out = subprocess.run([a.kjit, "run", "--target=cuda", os.path.join(here, "matmul_device.k"), f"n={n}",
                              f"reps={a.reps}"], capture_output=True, text=True)
        row = [l.split() for l in out.stdout.splitlines() if l.startswith("matmul-device")]
        if out.returncode or not row:
            print(f"| {n} | failed: {out.stderr.strip()[:200]} | | | |")
            continue
        k = float(row[0][2])
        try:
            c = cupy_ms(n, a.reps)
        except ImportError:
            print(f"| {n} | {k:.3f} | no CuPy | | {row[0][3]} |")
            continue
        print(f"| {n} | {k:.3f} | {c:.3f} | {k / c:.3f} | {row[0][3]} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
