"""NumPy's figures for benchmarks/cpu/vecmath.k: the same work as NumPy
expressions and ufuncs, the same "NAME SECONDS" / "check NAME VALUE" lines.

    python3 vecmath_numpy.py [N] [REPS]
"""
import sys
import time

import numpy as np


def bench(name, f, reps, i, j):
    out = f()
    best = 1e30
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    print(name, best)
    print("check", name, float(out[i, j]))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    np.random.seed(0)
    a = np.random.rand(n, n).astype(np.float32)
    b = np.random.rand(n, n).astype(np.float32)
    a64 = a.astype(np.float64)
    b64 = b.astype(np.float64)
    i, j = n // 2, n // 3
    expr = lambda: a * b + np.sin(a) + np.cos(b)
    bench("vectorize_expr_f32", expr, reps, i, j)
    bench("host_expr_f32", expr, reps, i, j)
    bench("sin_f32", lambda: np.sin(a), reps, i, j)
    bench("exp_f32", lambda: np.exp(a), reps, i, j)
    bench("log_f32", lambda: np.log(b), reps, i, j)
    bench("tanh_f32", lambda: np.tanh(a), reps, i, j)
    bench("sin_f64", lambda: np.sin(a64), reps, i, j)
    bench("exp_f64", lambda: np.exp(a64), reps, i, j)
    bench("pow_f64", lambda: a64 ** b64, reps, i, j)


main()
