#!/usr/bin/env python3
"""The CUDA speed benchmarks (docs/performance.md, "CUDA speed"), one command on
any machine with a GPU, a CUDA toolkit (nvcc) and a kjit build:

    benchmarks/cuda/run.py [--kjit build/kjit] [--lib build] [--quick] [--out FILE]

Everything is measured in the same run: the .k benchmarks of this folder under
kjit (--target cuda), their CUDA C twins (kernels.cu, built with nvcc -O3
-arch=sm_90: --fmad=false as the reference of kjit's default mode, which does
not contract a*b + c; nvcc's default as the reference of kjit's fastmath),
the same .k files under Numba (numba_run.py) and the same expressions under
CuPy (cupy_ref.py) when those are installed, launch overhead and cold start
through the C API (launch_api.c), host<->device copies and whole-process
start. Prints every raw row, then the table with ratios."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def rows(text):
    """'label words... value [True|False]' lines → {label: value}; a False
    check is kept as label + '-check'."""
    out = {}
    for line in text.splitlines():
        tok = line.split()
        if not tok:
            continue
        ok = None
        if tok[-1] in ("True", "False"):
            ok = tok.pop() == "True"
        try:
            v = float(tok[-1])
        except ValueError:
            continue
        label = "-".join(tok[:-1]) if len(tok) > 1 else tok[0]
        if label == "check":
            continue
        out[label] = v
        if ok is not None:
            out[label + "-ok"] = ok
    return out


def run(cmd, env=None, timeout=600, check=True):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    wall = time.perf_counter() - t0
    if check and p.returncode != 0:
        print("FAILED:", " ".join(cmd), "\n", p.stdout[-2000:], p.stderr[-4000:], file=sys.stderr)
    print("$", " ".join(cmd), f"({wall:.1f} s)")
    print(p.stdout.rstrip())
    sys.stdout.flush()
    return p.stdout, p.stderr, wall, p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kjit", default=os.path.join(ROOT, "build", "kjit"))
    ap.add_argument("--lib", default=None, help="directory with libkjit.so (default: next to --kjit)")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions, no Numba/CuPy")
    ap.add_argument("--out", default=None, help="also write the table here")
    a = ap.parse_args()
    kjit = os.path.abspath(a.kjit)
    lib = os.path.abspath(a.lib or os.path.dirname(kjit))
    tmp = tempfile.mkdtemp(prefix="kjit-cuda-bench-")
    env = dict(os.environ, KJIT_CACHE_DIR=os.path.join(tmp, "cache"))
    reps = "5" if a.quick else "20"
    py = sys.executable
    have_numba = not a.quick and subprocess.run([py, "-c", "import numba"], capture_output=True).returncode == 0
    have_cupy = not a.quick and subprocess.run([py, "-c", "import cupy"], capture_output=True).returncode == 0
    k = lambda f: os.path.join(HERE, f)

    # CUDA C references, three builds in parallel
    builds = {"nofma": ["-fmad=false"], "fma": [], "fast": ["--use_fast_math"]}
    procs = {b: subprocess.Popen(["nvcc", "-O3", "-arch=sm_90", *fl, k("kernels.cu"), "-o", os.path.join(tmp, "k_" + b)])
             for b, fl in builds.items()}
    cc = shutil.which("cc") or shutil.which("gcc")
    launch_bin = os.path.join(tmp, "launch_api")
    lp = subprocess.Popen([cc, "-O2", "-I", os.path.join(ROOT, "include"), k("launch_api.c"), "-o", launch_bin,
                           "-L", lib, "-l:libkjit.so.0", "-Wl,-rpath," + lib, "-ldl"])
    for p in [*procs.values(), lp]:
        if p.wait():
            sys.exit("a reference failed to build")
    ref = {b: rows(run([os.path.join(tmp, "k_" + b), "all", reps])[0]) for b in builds}
    ref["nofma"].update(rows(run([os.path.join(tmp, "k_nofma"), "bandwidth", reps])[0]))

    # kjit
    kj = {}
    kargs = {"sgemm.k": [], "transfer.k": [], "jacobi.k": []}
    # launches from a host loop: the median of three runs (a run's figure varies by a few µs); plain launches
    # (KJIT_NO_GRAPHS=1), then the loop replayed as a CUDA graph (runtime/gpu_graph.c), whose run must still
    # end with x[0] == reps + 1 (launch-graph-ok)
    kj["launch-us"] = statistics.median(rows(run([kjit, "run", "--target=cuda", k("launch.k")],
                                                 dict(env, KJIT_NO_GRAPHS="1"))[0])["launch-us"] for _ in range(3))
    graph_runs = [run([kjit, "run", "--target=cuda", k("launch.k")], dict(env, KJIT_STATS="1")) for _ in range(3)]
    kj["launch-graph-us"] = statistics.median(rows(r[0])["launch-us"] for r in graph_runs)
    kj["launch-graph-ok"] = all("check True" in r[0] for r in graph_runs)
    print("\n".join(l for l in graph_runs[0][1].splitlines() if "graphs" in l or "launches of" in l))
    for f in ["saxpy.k", "stencil.k", "elementwise.k", "matmul.k", "sgemm.k", "transfer.k", "jacobi.k"]:
        extra = ["reps=" + reps] if f not in ("jacobi.k", "launch.k", "transfer.k") else []
        out, err, _, _ = run([kjit, "run", "--target=cuda", k(f), *extra], dict(env, KJIT_STATS="1"))
        kj.update(rows(out))
        print(err)
    # thread-layout specialisation: layout.k remapped, and as written
    out, err, _, _ = run([kjit, "run", "--target=cuda", k("layout.k"), "reps=" + reps], dict(env, KJIT_STATS="1"))
    kj.update(rows(out))
    print(err)
    out = run([kjit, "run", "--target=cuda", k("layout.k"), "reps=" + reps], dict(env, KJIT_NO_SPECIALISE="1"))[0]
    kj.update({l + "-as-written": v for l, v in rows(out).items()})
    kj.update({l + "-8192": v for l, v in rows(run([kjit, "run", "--target=cuda", k("sgemm.k"), "n=8192", "reps=5"], env)[0]).items()})
    stats = run([kjit, "run", "--target=cuda", k("jacobi.k")], dict(env, KJIT_STATS="1"))[1]
    print(stats)
    api_env = dict(env, CUDA_CACHE_DISABLE="1", LD_LIBRARY_PATH=lib, KJIT_STATS="1")
    out, err, _, _ = run([launch_bin, "2000" if a.quick else "10000"], api_env)
    kj.update(rows(out))
    print(err)

    # whole process: cold (every cache off) and warm kjit run of the stencil example; a bare CUDA process
    ex = os.path.join(ROOT, "lang", "examples", "stencil.k")
    def walls(cmd, e, n=5):
        return statistics.median(run(cmd, e)[2] for _ in range(n)) * 1e3
    cold_env = dict(env, KJIT_NO_CACHE="1", CUDA_CACHE_DISABLE="1")
    kj["process-cold-ms"] = walls([kjit, "run", "--target=cuda", ex], cold_env)
    run([kjit, "run", "--target=cuda", ex], env)
    kj["process-warm-ms"] = walls([kjit, "run", "--target=cuda", ex], env)
    ref["nofma"]["process-start-ms"] = walls([os.path.join(tmp, "k_nofma"), "init"], env)
    print(run([kjit, "run", "--target=cuda", ex], dict(cold_env, KJIT_STATS="1"))[1])

    # Numba and CuPy
    nb = {}
    if have_numba:
        for f in ["saxpy.k", "stencil.k", "elementwise.k", "matmul.k", "transfer.k", "launch.k"]:
            extra = ["reps=" + reps] if f not in ("launch.k", "transfer.k") else []
            nb.update(rows(run([py, k("numba_run.py"), k(f), *extra], env, check=True)[0]))
        nb.update(rows(run([py, k("numba_run.py"), k("jacobi.k"), "sweeps=100"], env)[0]))
    cu = rows(run([py, k("cupy_ref.py"), reps], env)[0]) if have_cupy else {}

    table(kj, ref, nb, cu, a.out)
    shutil.rmtree(tmp, ignore_errors=True)


def fmt(v):
    return "—" if v is None else (f"{v:.4g}" if isinstance(v, float) else str(v))


def table(kj, ref, nb, cu, out):
    lines = ["", "| benchmark | kjit | reference | kjit/ref | Numba | CuPy | target |", "|---|---|---|---|---|---|---|"]

    def row(name, kv, rv, rname, target, nv=None, cv=None, unit="ms", inverse=False):
        ratio = None
        if kv is not None and rv:
            ratio = (rv / kv) if inverse else (kv / rv)
        lines.append(f"| {name} | {fmt(kv)} {unit} | {rname} {fmt(rv)} | {fmt(ratio)} | {fmt(nv)} | {fmt(cv)} | {target} |")

    fmad, fma = ref["nofma"], ref["fma"]
    for base, cbase in [("saxpy", "saxpy"), ("stencil", "stencil"), ("matmul", "matmul")]:
        row(base + " f32", kj.get(base + "-f32"), fmad.get(cbase), "C fmad=false", "≤ 1.03", nb.get(base + "-f32"),
            cu.get(cbase) if base != "matmul" else None)
        row(base + " literals", kj.get(base + "-literal"), fmad.get(cbase), "C fmad=false", "≤ 1.03",
            nb.get(base + "-literal"))
        row(base + " fastmath", kj.get(base + "-fastmath"), fma.get(cbase), "C nvcc default", "—",
            nb.get(base + "-fastmath"))
    # issue 28.1: the naive-layout kernels against the same naive CUDA C and kjit's coalesced kernel
    for blk in ("16x16", "32x8"):
        nv = kj.get("layout-naive-" + blk)
        row(f"stencil naive layout {blk}, remapped", nv, fmad.get("layout-naive-" + blk), "naive C fmad=false", "≤ 0.40")
        row(f"stencil naive layout {blk}, remapped", nv, kj.get("layout-coalesced-" + blk), "kjit coalesced", "≤ 1.05")
        row(f"stencil naive layout {blk}, as written", kj.get("layout-naive-" + blk + "-as-written"),
            fmad.get("layout-naive-" + blk), "naive C fmad=false", "report")
    row("stencil coalesced 16x16", kj.get("layout-coalesced-16x16"), fmad.get("layout-coalesced-16x16"),
        "C fmad=false", "≤ 1.03")
    row("a[i, j] + b[j, i] 16x16, remapped", kj.get("layout-mixed-16x16"), fmad.get("layout-mixed-16x16"),
        "naive C", "report")
    row("a[i, j] + b[j, i] 16x16, as written", kj.get("layout-mixed-16x16-as-written"),
        fmad.get("layout-mixed-16x16"), "naive C", "report")
    row("elementwise", kj.get("elementwise"), fmad.get("elementwise"), "C fmad=false", "≤ 1.03",
        nb.get("elementwise"), cu.get("elementwise"))
    row("elementwise fastmath", kj.get("elementwise-fastmath"), fma.get("elementwise"), "C nvcc default", "—",
        nb.get("elementwise-fastmath"))
    for e in (1, 10, 100, 1000):
        row(f"sin x{e}", kj.get(f"sin-x-{e}"), fmad.get(f"sin-x-{e}"), "C fmad=false", "≤ 1.03", nb.get(f"sin-x-{e}"))
        row(f"sin x{e} fastmath", kj.get(f"sin-x-{e}-fastmath"), fma.get(f"sin-x-{e}"), "C nvcc default", "—",
            nb.get(f"sin-x-{e}-fastmath"))
    bw = fmad.get("device-copy-GBps")
    for name, kv, elems in [("saxpy", kj.get("saxpy-f32"), (1 << 26) * 3), ("elementwise", kj.get("elementwise"), 10 ** 8 * 3)]:
        gbps = elems * 4 / (kv * 1e-3) / 1e9 if kv else None
        row(name + " bandwidth", gbps, bw, "device copy GB/s", "≥ 0.85", unit="GB/s")
    row("h2d 256 MiB", kj.get("h2d-GBps"), fmad.get("h2d-pinned-GBps"), "pinned GB/s", "≥ 0.80", nb.get("h2d-GBps"), unit="GB/s")
    row("d2h 256 MiB", kj.get("d2h-GBps"), fmad.get("d2h-pinned-GBps"), "pinned GB/s", "≥ 0.80", nb.get("d2h-GBps"), unit="GB/s")
    row("launch, C API", kj.get("kjit_launch-us"), kj.get("cuLaunchKernel-us"), "cuLaunchKernel", "≤ 1.1", unit="µs")
    row("launch, C API prepared", kj.get("kjit_launch_prepared-us"), kj.get("cuLaunchKernel-us"), "cuLaunchKernel",
        "≤ 1.05", unit="µs")
    row("launch, .k host loop", kj.get("launch-us"), kj.get("cuLaunchKernel-us"), "cuLaunchKernel", "≤ 1.2",
        nb.get("launch-us"), unit="µs")
    row("launch, .k host loop, graph", kj.get("launch-graph-us"), kj.get("cuLaunchKernel-us"), "cuLaunchKernel",
        "≤ 0.5", unit="µs")
    row("cold stencil → launched (C API, caches off)", kj.get("cold-stencil-ms"), 15.0, "target", "≤ 15 ms")
    row("kjit run stencil.k cold", kj.get("process-cold-ms"), fmad.get("process-start-ms"), "CUDA process start", "report")
    row("kjit run stencil.k warm", kj.get("process-warm-ms"), fmad.get("process-start-ms"), "CUDA process start", "≤ 2")
    row("jacobi sweep, host arrays vs device arrays", kj.get("jacobi-host-arrays-us-per-sweep"),
        kj.get("jacobi-device-arrays-us-per-sweep"), "device arrays", "≤ 1.05", nb.get("jacobi-host-arrays-us-per-sweep"), unit="µs")
    for m in ("4096", "8192"):
        label = "sgemm-" + m if m == "4096" else "sgemm-8192-8192"
        cub = cu.get("matmul-cublas-" + m)
        kv = kj.get(label)
        lines.append(f"| sgemm {m} (.k, fastmath) | {fmt(kv)} ms | cuBLAS {fmt(cub)} | "
                     f"{fmt(cub / kv if kv and cub else None)} of cuBLAS | — | {fmt(cub)} | ≥ 0.5 |")
    checks = [l for d in (kj, nb) for l, v in d.items() if l.endswith("-ok") and v is False]
    lines.append("")
    lines.append("checks failed: " + (", ".join(checks) if checks else "none"))
    text = "\n".join(lines)
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
