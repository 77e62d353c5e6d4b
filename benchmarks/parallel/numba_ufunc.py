"""Numba's side of benchmarks/parallel/run.sh: the ufunc of ufunc.k with
@vectorize(target=TARGET), best of REPS calls over N x N float32.

    python3 numba_ufunc.py N REPS TARGET
"""
import sys
import time

import numpy as np
from numba import vectorize


def main():
    n, reps, target = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

    @vectorize(['float32(float32, float32)'], target=target)
    def f(a, b):
        return a * b + np.sin(a) + np.cos(b)

    np.random.seed(0)
    a = np.random.rand(n, n).astype(np.float32)
    b = np.random.rand(n, n).astype(np.float32)
    out = f(a, b)
    best = 1e30
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f(a, b)
        best = min(best, time.perf_counter() - t0)
    print(best)
    print(float(out[n // 2, n // 3]))


if __name__ == "__main__":
    main()
