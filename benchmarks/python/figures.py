"""Issue 27's figures in one run, each as a ratio against its reference measured in the same run
(benchmarks/python/run_device.sh runs this; docs/python.md, "Performance").

    python3 benchmarks/python/figures.py [--repeat N] [--quick]

1. First call of a small @njit function and of a kernel, kjit against Numba (goal <= 1/10 of Numba's), two
   ways: the whole first call in a fresh process (from before `import numpy` to the return of the first call)
   and its compile part alone (that first call minus a warm call of the same function after it; the imports
   and the arguments' set-up are outside both). kjit with an empty cache directory (cold: LLVM runs) and,
   for context, with a warm one (its disk cache); Numba without a cache, as it runs by default.
2. Call overhead of an @njit function with two array arguments that returns at once (goal <= Numba's).
3. Launch overhead of a tiny kernel from a Python loop (goal <= CuPy RawKernel's, same grid and work).
4. Kernel speed: the same kernel (saxpy) timed in the same way under `python3 -m kjit` and under `kjit run`
   (goal: equal).
Without a GPU the GPU rows say "skipped" and why, and kjit's rows run on its cpu target; a row whose
reference is missing (no Numba, no CuPy) says so. Medians of --repeat fresh processes; per-call figures are
the best of --repeat loops."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)
os.environ["KJIT_LIBRARY"] = os.path.abspath(os.environ.get("KJIT_LIBRARY") or os.path.join(ROOT, "build", "libkjit.so"))

import numba_np2  # noqa: E402,F401  (before any numba import: numba-cuda under NumPy 2.4)
import numpy as np  # noqa: E402

# A fresh process: PROGRAM defines `first()` (definition and first call) and `again()` (the same call warm);
# SETUP makes the arguments. Prints {"whole": s, "compile": s} (whole: from before `import numpy`).
FRESH = r'''
import time
t0 = time.perf_counter()
import sys
import numpy as np
import numba_np2
if sys.argv[1] == "kjit":
    import kjit as jit_pkg
    jit_pkg.config.TARGET = sys.argv[2]
else:
    import numba as jit_pkg
from_ = jit_pkg
# SETUP
t1 = time.perf_counter()
# PROGRAM
t2 = time.perf_counter()
again()
t3 = time.perf_counter()
import json
print(json.dumps({"whole": t2 - t0, "compile": (t2 - t1) - (t3 - t2)}))
'''

NJIT_SETUP = "x = np.ones(10); y = np.ones(10)"
NJIT_PROGRAM = r'''
@from_.njit
def dot(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s
dot(x, y)
def again():
    dot(x, y)
'''

KERNEL_SETUP = r'''
if sys.argv[1] != "kjit":
    import numba.cuda  # `import numba` alone leaves numba.cuda out
d = from_.cuda.to_device(np.ones(128))  # Numba: the GPU context made and d copied, outside the first call
if sys.argv[1] == "kjit" and sys.argv[2] == "cuda":
    d.__cuda_array_interface__  # kjit's to_device copies lazily: this makes the device copy (and the context)
from_.cuda.synchronize()
'''
KERNEL_PROGRAM = r'''
@from_.cuda.jit
def scale(a, f):
    i = from_.cuda.grid(1)
    if i < a.size:
        a[i] *= f
scale[4, 32](d, 2.0)
from_.cuda.synchronize()
def again():
    scale[4, 32](d, 2.0)
    from_.cuda.synchronize()
'''

OVERHEAD = r'''
import sys, time, json
import numpy as np
import numba_np2
if sys.argv[1] == "kjit":
    import kjit as jit_pkg
else:
    import numba as jit_pkg
@jit_pkg.njit
def f(x, y):
    return 0
x = np.ones(8); y = np.ones(8)
f(x, y)
n = int(sys.argv[2])
best = 1e9
for _ in range(5):
    t0 = time.perf_counter()
    for _ in range(n):
        f(x, y)
    best = min(best, (time.perf_counter() - t0) / n)
print(json.dumps(best))
'''

# The same kernel both ways: `kjit run` (its host code compiled by kjit) and `python3 -m kjit` (host code in
# CPython). A launch loop between two synchronizes, best of 5 loops, per launch.
SPEED = r'''
from numba import cuda
import numpy as np
import time


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


def main():
    n = N_ELEMENTS
    reps = N_REPS
    x = cuda.to_device(np.ones(n, dtype=np.float32))
    y = cuda.to_device(np.ones(n, dtype=np.float32))
    out = cuda.device_array(n, dtype=np.float32)
    a = np.float32(2.0)
    blocks = (n + 255) // 256
    saxpy[blocks, 256](a, x, y, out)
    cuda.synchronize()
    best = 1e9
    for k in range(5):
        t0 = time.perf_counter()
        for r in range(reps):
            saxpy[blocks, 256](a, x, y, out)
        cuda.synchronize()
        t = (time.perf_counter() - t0) / reps
        if t < best:
            best = t
    print("kernel-s", best)
    print("check", out.copy_to_host()[n - 1] == 3.0)
'''


def env_for(extra=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python"), HERE] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.update(extra or {})
    return env


def run_script(text, args, env, timeout=600):
    """Run text as a file (kjit and Numba read decorated functions' source from their file); its last line."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, dir=tempfile.gettempdir()) as f:
        f.write(text)
    try:
        r = subprocess.run([sys.executable, f.name] + args, env=env, capture_output=True, text=True,
                           timeout=timeout)
        if r.returncode:
            raise RuntimeError(f"{' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[-800:]}")
        return json.loads(r.stdout.strip().splitlines()[-1])
    finally:
        os.unlink(f.name)


def fresh(setup, program, pkg, target, env):
    return run_script(FRESH.replace("# SETUP", setup).replace("# PROGRAM", program), [pkg, target], env)


def medians(samples):
    return {k: statistics.median(s[k] for s in samples) for k in samples[0]}


def attempt(fn):
    """fn()'s value, or the reason it failed as a "skipped: ..." string."""
    try:
        return fn()
    except Exception as e:  # a missing module, a library that cannot start, a failed subprocess
        return f"skipped: {type(e).__name__}: {str(e).strip().splitlines()[-1][:200] if str(e).strip() else ''}"


def numba_cuda_ok():
    try:
        from numba import cuda as ncuda
        return (ncuda, None) if ncuda.is_available() else (None, "Numba sees no GPU")
    except Exception as e:
        return None, f"no numba.cuda ({type(e).__name__}: {e})"


def has_numba():
    try:
        import numba  # noqa: F401
        return None
    except Exception as e:
        return f"no Numba ({type(e).__name__})"


def first_call_figures(gpu, repeat):
    out = []
    target = "cuda" if gpu else "cpu"
    for what, setup, program in (("@njit dot", NJIT_SETUP, NJIT_PROGRAM),
                                 (f"kernel ({'GPU' if gpu else 'kjit cpu target'})", KERNEL_SETUP, KERNEL_PROGRAM)):
        is_kernel = "kernel" in what
        t = "cuda" if is_kernel and gpu else "cpu"

        def cold():
            with tempfile.TemporaryDirectory() as d:
                return fresh(setup, program, "kjit", t, env_for({"KJIT_CACHE_DIR": d}))
        warm_dir = tempfile.mkdtemp()
        warm_env = env_for({"KJIT_CACHE_DIR": warm_dir})
        kc = attempt(lambda: medians([cold() for _ in range(repeat)]))
        kw = attempt(lambda: (fresh(setup, program, "kjit", t, warm_env),
                              medians([fresh(setup, program, "kjit", t, warm_env) for _ in range(repeat)]))[1])
        if is_kernel and not gpu:
            nb = "skipped: no GPU (Numba's kernels need one; its simulator is an interpreter)"
        elif is_kernel:
            _, why = numba_cuda_ok()
            nb = f"skipped: {why}" if why else attempt(
                lambda: medians([fresh(setup, program, "numba", target, env_for()) for _ in range(repeat)]))
        else:
            why = has_numba()
            nb = f"skipped: {why}" if why else attempt(
                lambda: medians([fresh(setup, program, "numba", "cpu", env_for()) for _ in range(repeat)]))
        for part, label in (("whole", "whole, fresh process"), ("compile", "compile part (first - warm call)")):
            pick = lambda v: v[part] if isinstance(v, dict) else v  # noqa: E731
            out.append((f"first call, {what}, {label}", pick(kc), pick(nb), "Numba", 0.10))
            out.append(("  ... kjit with a warm disk cache", pick(kw), pick(nb), "Numba", None))
    return out


def overhead_figures(repeat, n):
    k = attempt(lambda: min(run_script(OVERHEAD, ["kjit", str(n)], env_for()) for _ in range(repeat)))
    why = has_numba()
    nb = f"skipped: {why}" if why else attempt(
        lambda: min(run_script(OVERHEAD, ["numba", str(n)], env_for()) for _ in range(repeat)))
    return [("call overhead, @njit f(x, y), two arrays", k, nb, "Numba", 1.0)]


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


def launch_figures(gpu, repeat, n):
    import kjit
    from kjit import cuda
    from figures_kernels import bump

    if not gpu:
        kjit.config.TARGET = "cpu"
        d = cuda.to_device(np.zeros(32))
        k = attempt(lambda: per_call(lambda: bump[1, 32](d), n, repeat))
        fake = fake_launch(repeat, n)
        return [("launch from a loop, kjit device array (cpu target: its run included)", k,
                 "skipped: no GPU", "CuPy RawKernel", 1.0),
                ("launch from a loop, kjit on the fake CUDA driver (no GPU: kjit's own cost)", fake,
                 "skipped: no GPU", "CuPy RawKernel", 1.0)]
    kjit.config.TARGET = "cuda"
    d = cuda.to_device(np.zeros(1 << 10))
    k = attempt(lambda: per_call(lambda: bump[4, 256](d), n, repeat, cuda.synchronize))
    try:
        import cupy as cp
        raw = cp.RawKernel(r'''extern "C" __global__ void bump(double *a, long long n) {
            long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i < n) a[i] += 1; }''', "bump")
        a = cp.zeros(1 << 10)
        size = np.int64(a.size)
        ref = attempt(lambda: per_call(lambda: raw((4,), (256,), (a, size)), n, repeat,
                                       cp.cuda.Device().synchronize))
        ka = attempt(lambda: per_call(lambda: bump[4, 256](a), n, repeat, cuda.synchronize))
    except Exception as e:
        ref = ka = f"skipped: no CuPy ({type(e).__name__})"
    ncuda, why = numba_cuda_ok()
    if ncuda:
        @ncuda.jit
        def nbump(a):
            i = ncuda.grid(1)
            if i < a.size:
                a[i] += 1
        nd = ncuda.to_device(np.zeros(1 << 10))
        nb = attempt(lambda: per_call(lambda: nbump[4, 256](nd), n, repeat, ncuda.synchronize))
    else:
        nb = f"skipped: {why}"
    return [("launch from a loop, kjit device array", k, ref, "CuPy RawKernel", 1.0),
            ("launch from a loop, CuPy array into a kjit kernel", ka, ref, "CuPy RawKernel", None),
            ("launch from a loop, kjit device array", k, nb, "Numba", None)]


FAKE_LAUNCH = r'''
import sys, time, json
import numpy as np
import kjit
from kjit import cuda
kjit.config.TARGET = "cuda"
@cuda.jit
def bump(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1
d = cuda.to_device(np.zeros(32))
n = int(sys.argv[1])
bump[1, 32](d)
best = 1e9
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    for _ in range(n):
        bump[1, 32](d)
    cuda.synchronize()
    best = min(best, (time.perf_counter() - t0) / n)
print(json.dumps(best))
'''


def fake_driver():
    lib = os.environ["KJIT_LIBRARY"]
    p = os.path.join(os.path.dirname(os.path.abspath(lib)), "tests", "libfakecuda.so")
    return p if os.path.exists(p) else None


def fake_launch(repeat, n):
    """Per-launch time on the fake driver, whose cuLaunchKernel does nothing: what kjit's launch path costs."""
    drv = fake_driver()
    if drv is None:
        return "skipped: no build/tests/libfakecuda.so"
    return attempt(lambda: run_script(FAKE_LAUNCH, [str(n), str(repeat)],
                                      env_for({"KJIT_LIBCUDA": drv, "KJIT_NO_CACHE": "1"})))


def kjit_binary():
    for p in (os.environ.get("KJIT_BIN"), os.path.join(os.path.dirname(os.path.abspath(os.environ["KJIT_LIBRARY"])),
                                                       "kjit")):
        if p and os.path.exists(p):
            return p
    return None


def speed_figures(gpu):
    n, reps = (1 << 26, 50) if gpu else (1 << 16, 20)
    text = SPEED.replace("N_ELEMENTS", str(n)).replace("N_REPS", str(reps))
    target = "cuda" if gpu else "cpu"
    label = f"kernel speed, saxpy 2^{n.bit_length() - 1} float32 ({'GPU' if gpu else 'cpu target'})"
    binary = kjit_binary()
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "speed.k")
        with open(prog, "w") as f:
            f.write(text)

        def seconds(cmd, env):
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=d)
            if r.returncode:
                raise RuntimeError(f"exit {r.returncode}: {r.stderr.strip()[-600:]}")
            lines = dict(ln.split(" ", 1) for ln in r.stdout.strip().splitlines() if " " in ln)
            if lines.get("check") != "True":
                raise RuntimeError(f"wrong result: {r.stdout.strip()}")
            return float(lines["kernel-s"])
        py = attempt(lambda: seconds([sys.executable, "-m", "kjit", prog], env_for({"KJIT_TARGET": target})))
        run = "skipped: no kjit binary beside the library" if binary is None else attempt(
            lambda: seconds([binary, "run", "--target", target, prog], env_for()))
    return [(label + ", python3 -m kjit", py, run, "kjit run", "equal")]


def fmt(v):
    if isinstance(v, str):
        return v
    return f"{v * 1e3:.1f} ms" if v >= 1e-2 else f"{v * 1e6:.2f} us"


def show(rows):
    print(f"{'figure':78} {'kjit':>10}  {'reference':>22}  {'ratio':>7}  goal")
    for label, k, ref, ref_name, goal in rows:
        ratio = k / ref if not isinstance(k, str) and not isinstance(ref, str) and ref > 0 else None
        if goal == "equal":
            verdict = "" if ratio is None else ("met" if 0.95 <= ratio <= 1.05 else "NOT MET")
            g = "= 1 (+-5%)"
        elif goal is None:
            verdict, g = "", ""
        else:
            verdict = "" if ratio is None else ("met" if ratio <= goal else "NOT MET")
            g = f"<= {goal:g}"
        r = f"{ratio:6.3f}x" if ratio is not None else "-"
        print(f"{label:78} {fmt(k) if not isinstance(k, str) else '-':>10}  "
              f"{(ref_name + ' ' + fmt(ref)) if not isinstance(ref, str) else '-':>22}  {r:>7}  {g} {verdict}")
        for v in (k, ref):
            if isinstance(v, str):
                print(f"{'':6}{v}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="fewer calls per loop (a check that it runs)")
    o = ap.parse_args()
    import kjit
    from kjit import _dispatch, cuda
    gpu = cuda.is_available()
    fast = _dispatch._fast
    print(f"kjit {getattr(kjit, '__version__', '?')} ({_dispatch.lib.path}); Python {sys.version.split()[0]}; "
          f"NumPy {np.__version__}; C fast path: {'yes' if fast is not None else 'NO (ctypes only)'}; "
          f"GPU: {'yes' if gpu else 'none (GPU rows skipped)'}")
    if numba_np2.SET:
        print(f"NumPy 2 shims for numba-cuda: {', '.join(numba_np2.SET)}")
    calls = 20000 if o.quick else 200000
    launches = 2000 if o.quick else 20000
    rows = first_call_figures(gpu, o.repeat)
    rows += overhead_figures(o.repeat, calls)
    rows += launch_figures(gpu, o.repeat, launches)
    rows += speed_figures(gpu)
    show(rows)


if __name__ == "__main__":
    main()
