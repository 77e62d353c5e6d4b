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
    'err_gen_permuted_axis': 'TypingError: a numpy Generator cannot be passed yet',
    'err_gen_permuted_out_shape': 'TypingError: a numpy Generator cannot be passed yet',
    'bytes_basic': 'TypingError: a builtins.bytes argument cannot be passed',
    'bytes_memoryview': 'TypingError: a builtins.bytearray argument cannot be passed',
    'cmath_inverse': 'TypingError: a builtins.complex argument cannot be passed',
    'complex_array_axis': 'TypingError: arrays of dtype complex128 cannot be passed yet',
    'complex_array_jit': 'TypingError: arrays of dtype complex128 cannot be passed yet',
    'datetime_arrays': 'TypingError: arrays of dtype datetime64[D] cannot be passed yet (the C API has no datetime dtypes)',
    'datetime_basic': 'TypingError: a numpy.datetime64 argument cannot be passed yet (the C API has no datetime dtypes)',
    'complex_array_make': 'TypingError: arrays of dtype complex128 cannot be passed yet',
    'complex_arrays': 'TypingError: kjit: device arrays of dtype complex128 are not supported',
    'complex_np_parts': 'TypingError: a builtins.complex argument cannot be passed',
    'complex_power': 'TypingError: a builtins.complex argument cannot be passed',
    'complex_scalars': 'TypingError: a builtins.complex argument cannot be passed',
    'cuda_device_array': "AttributeError: 'DeviceNDArray' object has no attribute 'reshape'",
    'cuda_device_array_split': "AttributeError: 'DeviceNDArray' object has no attribute 'split'",
    'cuda_device_array_view': "AttributeError: 'DeviceNDArray' object has no attribute 'view'",
    'cuda_device_array_strides': "the package's cuda.device_array ignores strides= (a C-ordered array)",
    'cuda_gpus_iter': "AttributeError: the package's current_context().device has no uuid",
    'cuda_random_states_shape': "ModuleNotFoundError: No module named 'numba.cuda.random'; 'numba.cuda' is not a ...",
    'dict_host_print': "ModuleNotFoundError: No module named 'numba.core'",
    'dict_str_keys': "ModuleNotFoundError: No module named 'numba.core'",
    'dicts_basic': "TypingError: 'squares' returns DictType[int64,float64]: not returned by kjit_call yet",
    'dispatch_jit': 'output differs',
    'dtype_args': 'TypingError: a builtins.type argument cannot be passed',
    'dtype_values': 'TypingError: a builtins.type argument cannot be passed',
    'err_dict_key': 'raises "TypingError: \'make\' returns DictType[int64,float64]: not returned by kjit_call ...',
    'err_dict_str_key': 'raises "TypingError: \'make\' returns DictType[str,float64]: not returned by kjit_cal...',
    'err_generator_stop': 'TypingError: a generator cannot be returned by kjit_call yet',
    'generators_iter': "TypingError: 'gen' returns generator(yield_type=int64), which kjit_call cannot return yet",
    'err_list_index': "raises 'TypingError: a builtins.list argument cannot be passed', CPython 'IndexError: list...",
    'err_pystd_randrange': 'raises "TypingError: err_pystd_randrange.k:10:12: error: unknown name \'random\'\\...',
    'err_set_remove': "raises 'TypingError: a builtins.set argument cannot be passed', CPython 'KeyError: (3, 0.5)'",
    'err_split_empty_sep': 'raises "TypingError: \'parts\' returns list(str): not returned by kjit_call yet", ...',
    'err_typed_dict_key': "raises 'TypingError: a kjit.typed.Dict argument cannot be passed', CPython 'KeyError: 5'",
    'float16_atomic': 'TypingError: argument 0: arrays of dtype float16 are not supported by kjit',
    'func_values': 'TypingError: a kjit._dispatch.CPUDispatcher argument cannot be passed',
    'generators': 'TypingError: a generator cannot be returned by kjit_call yet',
    'generators_values': 'TypingError: a generator cannot be returned by kjit_call yet',
    'genexpr_host': 'TypingError: a builtins.list argument cannot be passed',
    'isinstance_static': 'TypingError: a builtins.complex argument cannot be passed',
    'issue23_rebind_dtype': "TypingError: 'mk' returns dtype(float32): not returned by kjit_call yet",
    'iter_next': 'TypingError: a builtins.list argument cannot be passed',
    'kernel_tuple_args': "TypingError: kernel 'scalars': kjit_launch cannot pass a tuple argument yet",
    'lambda_inner': 'UnsupportedError: lambda_inner.k:31: invalid syntax',
    'lambda_module': 'TypingError: a kjit._dispatch.CPUDispatcher argument cannot be passed',
    'list_cmp': 'TypingError: a builtins.list argument cannot be passed',
    'list_ctor': "TypingError: 'squares' returns list(int64): not returned by kjit_call yet",
    'list_search': "TypingError: 'search' returns (int64, int64, int64, int64, list(int64)): not returned by kji...",
    'list_slice': 'TypingError: a builtins.list argument cannot be passed',
    'list_sort': 'TypingError: a builtins.list argument cannot be passed',
    'list_sort_tuples': 'TypingError: a builtins.list argument cannot be passed',
    'listcomp': "TypingError: 'squares' returns list(int64): not returned by kjit_call yet",
    'lists_basic': 'TypingError: a builtins.list argument cannot be passed',
    'lists_in': 'TypingError: a builtins.list argument cannot be passed',
    'lists_methods': 'TypingError: a builtins.list argument cannot be passed',
    'lists_ops': "TypingError: 'grid' returns (list(float64), list(int64), list(int64)): not returned by kjit_...",
    'list_iadd': "TypingError: 'grow' returns (list(int64), int64), which kjit_call cannot return yet",
    'namedtuple': "TypingError: namedtuple.k:14:14: error: (int64, int64) has no attribute 'x'",
    'nep50': 'output differs',
    'np_polynomial_class': 'TypingError: a Polynomial cannot be passed yet',
    'parallel_cuda_random': "ModuleNotFoundError: No module named 'numba.cuda.random'; 'numba.cuda' is not a package",
    'parallel_grid_sync': "AttributeError: 'DeviceNDArray' object has no attribute 'flags'",
    'parallel_pystd_heapq': "TypingError: parallel_pystd_heapq.k:13:5: error: unknown name 'heapq'",
    'parallel_pystd_random': "TypingError: parallel_pystd_random.k:16:5: error: unknown name 'random'",
    'parallel_random_generator_dists': 'TypingError: a numpy.random._generator.Generator argument cannot be passed',
    'pybuiltins': 'TypingError: a builtins.list argument cannot be passed',
    'pyops_operator': "TypingError: pyops_operator.k:9:9: error: unknown name 'operator'",
    'pyops_operator_kernel': "TypingError: pyops_operator_kernel.k:10:18: error: unknown name 'operator'",
    'pyops_set': "TypingError: 'jitted' returns (list(int64), list(int64), list(int64), bool, bool, int64): no...",
    'random_generator_pick': 'TypingError: a numpy Generator cannot be passed yet',
    'random_generator_permuted': 'TypingError: a numpy Generator cannot be passed yet',
    'record_array_display': 'TypingError: non-precise type numpy.void: records cannot be passed yet',
    'record_basic': 'TypingError: arrays of structured dtypes cannot be passed yet',
    'record_device': 'TypingError: device arrays of structured dtypes are not supported yet',
    'record_kernel': 'TypingError: device arrays of structured dtypes are not supported yet',
    'set_subset': 'TypingError: a set cannot be passed yet',
    'sets_basic': "TypingError: 'build' returns set(int64): not returned by kjit_call yet",
    'sorted_key': 'TypingError: a builtins.list argument cannot be passed',
    'str_minmax': 'TypingError: a list of strings cannot be passed yet',
    'tuple_constructor': "TypingError: kernel 'count': kjit_launch cannot pass a tuple argument yet",
    'tuple_runtime_index_kernel': "TypingError: kernel 'scale': kjit_launch cannot pass a tuple argument yet",
    'typed_dict': "ModuleNotFoundError: No module named 'numba.core'",
    'typed_list': "ModuleNotFoundError: No module named 'numba.core'",
    'ufunc_types_dynamic': 'TypingError: non-precise type builtins.complex: kjit cannot pass argument 0 ... '
                           '(half(1 + 2j): the C API has no complex values yet; the rest matches)',
    'varargs': 'TypingError: split() takes 2 positional arguments but 1 was given',
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
