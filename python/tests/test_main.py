"""`python3 -m kjit PROGRAM` runs golden programs (tests/golden/run) with numba resolved to kjit, printing
what CPython + Numba print (NAME.expected).

Two ways: PROGRAMS, each in a process of its own through `python3 -m kjit`; and every golden program that
CPython + Numba run (each run/ program without a `# kjit-only:` line: 375 when this was written) in one
process (golden_batch.py, which runs each as `python3 -m kjit` does; about a minute here): its output, and an
err_ program's exception. KNOWN_GAPS are those `python3 -m kjit` does not run as CPython + Numba do yet, each
with the reason; each must still fail (strict xfail), so that a fixed one leaves the list."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RUN = os.path.join(ROOT, "tests", "golden", "run")
PROGRAMS = ["builtin_sum", "cuda_host", "cuda_reduce", "decorator_calls", "decorator_rebind", "signature_objects",
            "ufunc_reduce", "gufunc_lazy", "kernel_dynshared", "parallel_minmax", "script_decorator_calls",
            "with_rebind"]


def run(args, cwd):
    env = dict(os.environ, KJIT_TARGET="cpu", PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-m", "kjit"] + args, cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("name", PROGRAMS)
def test_golden_program(name):
    r = run([name + ".k"], RUN)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(RUN, name + ".expected")) as f:
        assert r.stdout == f.read()


def test_numba_script_unmodified(tmp_path):
    p = tmp_path / "prog.py"
    p.write_text("import sys\nimport numpy as np\nimport numba\nfrom numba import njit, cuda\n\n"
                 "@njit\ndef f(a):\n    return a.sum() * 2\n\n"
                 "@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n\n"
                 "a = np.arange(4.0)\nk[1, 4](a)\nprint(f(a), numba.__name__, sys.argv[1:])\n")
    r = run([str(p), "x", "y"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "20.0 kjit ['x', 'y']\n"


def test_missing_script():
    r = run(["no_such_file.py"], ROOT)
    assert r.returncode == 2 and "no_such_file.py" in r.stderr


# Programs CPython + Numba run that `python3 -m kjit` does not run yet: name -> why (the error it gives).
KNOWN_GAPS = {
    'nep50': 'host code only (nothing compiled): its .expected is NumPy 2\'s (NEP 50 promotion); CPython\'s '
             'NumPy 1.24 here promotes by value (np.float32(0.1) * 2.0 is float64)',
}

# err_ programs whose exception CPython words differently under NumPy 1 (NAME.stderr holds NumPy 2's, as kjit
# words it): name -> the last line under NumPy 1.x (Debian's 1.24 here).
NUMPY1_WORDING = {
    'err_index_mask_shape': 'IndexError: boolean index did not match indexed array along dimension 0; dimension is 5 '
                            'but corresponding boolean dimension is 4',
}

BATCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden_batch.py")


def numba_programs():
    """The run/ programs CPython + Numba run: those with an expected output and no `# kjit-only:` line."""
    out = []
    for f in sorted(os.listdir(RUN)):
        name = f[:-2]
        if not f.endswith(".k") or not os.path.exists(os.path.join(RUN, name + ".expected")):
            continue
        with open(os.path.join(RUN, f), encoding="utf-8") as fh:
            if any(line.startswith("# kjit-only:") for line in fh):
                continue
        out.append(name)
    return out


def run_batch(names, path, env):
    """golden_batch.py over names: ({name: (output, error, exception line)} of those it finished, the one that
    ended the process or None, the process's CompletedProcess)."""
    if path.exists():
        path.unlink()
    r = subprocess.run([sys.executable, BATCH, str(path)] + names, env=env, capture_output=True, text=True,
                       timeout=120 * len(names) + 300)
    done, started = {}, None
    if path.exists():
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                if rec.get("start"):
                    started = rec["name"]
                else:
                    done[rec["name"]] = (rec["out"], rec["error"], rec["exc"])
                    started = None
    if started is None and r.returncode:
        pytest.fail(f"golden_batch.py: status {r.returncode}: {r.stderr[-2000:]}")
    return done, started, r


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """{name: (output, error, exception line)} of the selected programs, run in one process. A program that
    ends the process is run again alone in a fresh one (it fails if it ends that one too: else it was the
    victim of an earlier program), and the batch goes on after it."""
    names = numba_programs()
    path = tmp_path_factory.mktemp("batch") / "results.jsonl"
    env = dict(os.environ, KJIT_TARGET="cpu", PYTHONPATH=os.path.join(ROOT, "python"))
    # a cache of its own: the shared one's lock, taken by every kjit process of the machine, cost more here
    # than compiling afresh
    env.setdefault("KJIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    results, pos = {}, 0
    while pos < len(names):
        done, crashed, _ = run_batch(names[pos:], path, env)
        results.update(done)
        if crashed is None:
            break
        alone, again, r = run_batch([crashed], path, env)
        results[crashed] = alone.get(crashed) or ("", f"the process ended (status {r.returncode}), alone too: "
                                                      f"{r.stderr[-2000:]}", None)
        pos = names.index(crashed) + 1
    return results


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_GAPS[n], strict=True))
                                  if n in KNOWN_GAPS else n for n in numba_programs()])
def test_numba_program_under_python(name, batch):
    """Its output; an err_ program's exception too (the last line of NAME.stderr, CPython's traceback)."""
    out, error, exc = batch[name]
    stderr = os.path.join(RUN, name + ".stderr")
    if os.path.exists(stderr):
        with open(stderr) as f:
            want = f.read().rstrip("\n").splitlines()[-1]
        if name in NUMPY1_WORDING and int(np.__version__.split(".")[0]) < 2:
            want = NUMPY1_WORDING[name]
        assert exc == want, error
    else:
        assert error is None, error
    with open(os.path.join(RUN, name + ".expected")) as f:
        assert out == f.read()
