"""`python3 -m kjit PROGRAM` runs golden programs (tests/golden/run) with numba resolved to kjit, printing
what CPython + Numba print (NAME.expected)."""
import os
import subprocess
import sys

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
