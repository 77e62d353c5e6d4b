"""kjit's Python package against Numba on this machine: first-call latency and call overhead.

    /usr/bin/python3 benchmarks/python/bench.py [--repeat N]

First call: a fresh process imports the package, defines a small @njit function and calls it once, timed
from before the import of the JIT to the return of that first call; kjit with an empty cache directory
(cold: LLVM runs) and again with the same directory (warm: the disk cache), Numba without its cache (it
has none unless cache=True). The same for a kernel on kjit's cpu target (Numba 0.56 has no CPU target for
kernels; its CUDA simulator is an interpreter, so none is timed). Call overhead: the per-call time of an
@njit function with two array arguments that returns at once, over many calls from a Python loop.
Kernel launch: a 32-thread kernel launched from a Python loop on kjit's cpu target (its run included).
Medians of N runs (default 5)."""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

FIRST_CALL = r'''
import time, sys
t0 = time.perf_counter()
import numpy as np
import numba_np2  # numba-cuda under NumPy 2.4 (benchmarks/python/numba_np2.py)
if sys.argv[1] == "kjit":
    import kjit as jit_pkg
    jit_pkg.config.TARGET = "cpu"
else:
    import numba as jit_pkg
from_ = jit_pkg
# PROGRAM
print(time.perf_counter() - t0)
'''

NJIT_PROGRAM = r'''
@from_.njit
def dot(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s
dot(np.ones(10), np.ones(10))
'''

KERNEL_PROGRAM = r'''
@from_.cuda.jit
def scale(a, f):
    i = from_.cuda.grid(1)
    if i < a.size:
        a[i] *= f
scale[4, 32](np.ones(128), 2.0)
'''

OVERHEAD = r'''
import sys, time
import numpy as np
import numba_np2  # numba-cuda under NumPy 2.4 (benchmarks/python/numba_np2.py)
if sys.argv[1] == "kjit":
    import kjit as jit_pkg
else:
    import numba as jit_pkg
from_ = jit_pkg
# PROGRAM
x = np.ones(8); y = np.ones(8)
f(x, y)
n = 200000
best = 1e9
for _ in range(5):
    t0 = time.perf_counter()
    for _ in range(n):
        f(x, y)
    best = min(best, (time.perf_counter() - t0) / n)
print(best)
'''

LAUNCH = r'''
import sys, time
import numpy as np
import kjit as jit_pkg
jit_pkg.config.TARGET = "cpu"
from_ = jit_pkg
# PROGRAM
a = np.zeros(32)
k[1, 32](a)
n = 50000
best = 1e9
for _ in range(5):
    t0 = time.perf_counter()
    for _ in range(n):
        k[1, 32](a)
    best = min(best, (time.perf_counter() - t0) / n)
print(best)
'''

LAUNCH_PROGRAM = r'''
@from_.cuda.jit
def k(a):
    i = from_.cuda.grid(1)
    if i < a.size:
        a[i] += 1
'''

OVERHEAD_PROGRAM = r'''
@from_.njit
def f(x, y):
    return 0
'''


def run(script, args, env):
    """Run `script` with the program in place of its `# PROGRAM` line, as a file (kjit and Numba read the
    source of decorated functions from their file)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as prog:
        prog.write(script.replace("# PROGRAM", args[1]))
    try:
        out = subprocess.run([sys.executable, prog.name, args[0]], env=env, capture_output=True,
                             text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])
    finally:
        os.unlink(prog.name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    n = ap.parse_args().repeat
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python"), HERE]))
    env.setdefault("KJIT_LIBRARY", os.path.join(ROOT, "build", "libkjit.so"))
    rows = []

    def median(fn):
        return statistics.median(fn() for _ in range(n))

    for label, program in (("first call, @njit dot", NJIT_PROGRAM), ("first call, kernel (kjit cpu)", KERNEL_PROGRAM)):
        def cold():
            with tempfile.TemporaryDirectory() as d:
                return run(FIRST_CALL, ["kjit", program], dict(env, KJIT_CACHE_DIR=d))
        warm_dir = tempfile.mkdtemp()
        run(FIRST_CALL, ["kjit", program], dict(env, KJIT_CACHE_DIR=warm_dir))
        kc = median(cold)
        kw = median(lambda: run(FIRST_CALL, ["kjit", program], dict(env, KJIT_CACHE_DIR=warm_dir)))
        nb = median(lambda: run(FIRST_CALL, ["numba", program], env)) if "njit" in label else None
        rows.append((label, kc, kw, nb))
    ko = median(lambda: run(OVERHEAD, ["kjit", OVERHEAD_PROGRAM], env))
    no = median(lambda: run(OVERHEAD, ["numba", OVERHEAD_PROGRAM], env))
    kl = median(lambda: run(LAUNCH, ["kjit", LAUNCH_PROGRAM], env))

    print(f"{'':32} {'kjit cold':>10} {'kjit warm':>10} {'Numba':>10}")
    for label, kc, kw, nb in rows:
        print(f"{label:32} {kc * 1e3:8.1f}ms {kw * 1e3:8.1f}ms " + (f"{nb * 1e3:8.1f}ms" if nb else f"{'-':>10}"))
    print(f"{'call overhead, 2 arrays':32} {ko * 1e6:8.2f}us {'':>10} {no * 1e6:8.2f}us")
    print(f"{'launch from a loop (kjit cpu)':32} {kl * 1e6:8.2f}us {'':>10} {'-':>10}")


if __name__ == "__main__":
    main()
