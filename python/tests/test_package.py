"""kjit's Python package: decorators, calls, zero copies, kernels on the cpu target, errors."""
import ctypes
import inspect
import os

import numpy as np
import pytest

import funcs
import kjit

FUNCS_FILE = os.path.abspath(funcs.__file__)


def line_of(fn, text):
    """The line of `text` in fn's source file."""
    lines, first = inspect.getsourcelines(fn.py_func)
    for i, ln in enumerate(lines):
        if text in ln:
            return first + i
    raise AssertionError(text)


def test_public_names():
    for name in ["jit", "njit", "vectorize", "guvectorize", "prange", "cuda", "float32", "int64", "void",
                 "types", "typed", "config", "TypingError"]:
        assert hasattr(kjit, name), name
    for name in ["jit", "grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim", "shared", "local",
                 "const", "atomic", "syncthreads", "to_device", "device_array", "device_array_like", "stream",
                 "synchronize", "event", "reduce"]:
        assert hasattr(kjit.cuda, name), name
    assert str(kjit.float32[:, ::1]) == "float32[:, ::1]"
    assert str(kjit.void(kjit.float64[:], kjit.int64)) == "none(float64[:], int64)"


def test_njit_mutates_in_place():
    x = np.arange(5.0)
    y = np.ones(5)
    funcs.saxpy(2.0, x, y)
    assert y.tolist() == [1.0, 3.0, 5.0, 7.0, 9.0]


def test_zero_copy_in_and_out():
    a = np.arange(6, dtype=np.int32)
    v = funcs.tail_view(a)  # a view kjit made of the argument: the same memory, no copy either way
    assert v.ctypes.data == a.ctypes.data + a.itemsize
    v[0] = 99
    assert a[1] == 99
    # a strided argument is passed with its strides, not copied
    b = np.arange(12.0).reshape(3, 4)[:, ::2]
    funcs.saxpy(1.0, b[0], b[1])
    assert b[1].tolist() == [4.0, 8.0]


def test_results_and_helpers():
    arr, n, r, flag = funcs.make(4)
    assert arr.dtype == np.float32 and arr.tolist() == [0, 2, 4, 6]
    assert (n, r, flag) == (5, 2.0, True) and type(n) is int and type(flag) is bool
    assert arr.base is not None  # owns kjit's memory through its base
    x = np.arange(3.0)
    assert funcs.uses_helper(x) == pytest.approx(sum(v * 3 + 1.5 for v in x))


def test_signatures_and_options():
    assert funcs.eager_add._compiled is not None  # signatures in the decorator compile eagerly
    assert funcs.eager_add(2, 3) == 5 and funcs.eager_add(0.5, 0.25) == 0.75
    assert funcs.with_default(1) == 11 and funcs.with_default(1, b=2) == 3
    assert funcs.uses_helper.targetoptions["fastmath"] is True
    funcs.uses_helper(np.arange(2.0))
    assert ("array(float64, 1d, C)",) in funcs.uses_helper.signatures
    with pytest.raises(KeyError, match="Unrecognized options"):
        kjit.njit(not_an_option=1)
    assert funcs.twice(21) == 42 and funcs.twice.py_func(1) == 2


def test_vectorize():
    a = np.array([3.0, 5.0])
    b = np.array([4.0, 12.0])
    assert funcs.hypot2(a, b).tolist() == [5.0, 13.0]
    r = funcs.hypot2(np.float32(3), np.float32(4))
    assert isinstance(r, np.float64) and r == 5  # NumPy's first loop the inputs cast to safely, as Numba
    assert funcs.plus.reduce(np.arange(5.0)) == 10.0
    assert funcs.plus.identity == 0 and funcs.plus.nin == 2 and funcs.hypot2.types == ["dd->d", "ff->f"]


def test_guvectorize():
    out = np.zeros(4)
    funcs.cumsum(np.arange(4.0), out)
    assert out.tolist() == [0.0, 1.0, 3.0, 6.0]
    assert funcs.cumsum(np.ones(3)).tolist() == [1.0, 2.0, 3.0]


def test_kernel_on_cpu_target():
    a = np.arange(10.0)
    out = np.zeros(10)
    funcs.square_kernel[2, 8](a, out)
    assert out.tolist() == (a * a).tolist()
    out2 = np.zeros(10)
    funcs.square_kernel[(2,), (8,), kjit.cuda.stream()](a, out2)
    assert out2.tolist() == out.tolist()
    sums = np.zeros(2)
    funcs.block_sum[2, 32](np.ones(40), sums)
    assert sums.tolist() == [32.0, 8.0]


def test_kernel_errors_and_configurations():
    a = np.zeros(4)
    funcs.poke[np.int64(1), (1, 1)](a, 2)  # NumPy ints and tuples as the configuration
    assert a.tolist() == [0.0, 0.0, 1.0, 0.0]
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 4"):
        funcs.poke[1, 1](a, 9)
    with pytest.raises(ValueError):
        funcs.poke[1](a, 0)


def test_device_arrays():
    h = np.arange(8.0)
    d = kjit.cuda.to_device(h)
    out = kjit.cuda.device_array_like(h)
    funcs.square_kernel[1, 8](d, out)
    kjit.cuda.synchronize()
    assert out.copy_to_host().tolist() == (h * h).tolist()
    assert out.shape == (8,) and out.dtype == np.float64


def test_kernel_misuse():
    with pytest.raises(TypeError, match="launched, not called"):
        funcs.square_kernel(np.zeros(1), np.zeros(1))


def test_typing_error_names_original_file_and_line():
    with pytest.raises(kjit.TypingError) as e:
        funcs.unknown_global(1)
    line = line_of(funcs.unknown_global, "not_defined_anywhere")
    msg = str(e.value)
    assert f"{FUNCS_FILE}:{line}:" in msg
    assert "not_defined_anywhere" in msg and "^" in msg  # kjit's caret
    with pytest.raises(kjit.TypingError) as e:
        funcs.bad_type(1)
    assert f"{FUNCS_FILE}:{line_of(funcs.bad_type, 'x + ')}:" in str(e.value)


def test_runtime_errors_keep_class_and_message():
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 3") as e:
        funcs.at(np.zeros(3), 7)
    assert f"{FUNCS_FILE}:{line_of(funcs.at, 'return a[i]')}" in e.value.__notes__[0]
    with pytest.raises(AssertionError, match="^x is too big$"):
        funcs.raises(5)
    assert funcs.raises(1) == 1


def test_bad_arguments():
    with pytest.raises(kjit.TypingError, match="argument 0"):
        funcs.at({}, 0)
    with pytest.raises(kjit.TypingError, match="argument 0"):
        funcs.at(np.zeros(2, dtype=object), 0)


def test_source_not_found():
    ns = {"njit": kjit.njit}
    exec("@njit\ndef f(x):\n    return x\n", ns)
    with pytest.raises(kjit.UnsupportedError, match="source of 'f' cannot be found"):
        ns["f"](1)


def test_library_found_and_versioned():
    assert kjit.__version__.startswith("0.")
    assert os.path.exists(kjit._lib_handle.path) or "/" not in kjit._lib_handle.path
    assert ctypes.sizeof(kjit._lib.Value) == 24  # kind, dtype, a 16-byte union (complex: two doubles, since 0.5)


def test_fast_path_loaded_where_built():
    # meson builds kjit/_fast.c beside the library (build/python/); the ctypes path runs with KJIT_NO_FAST=1
    lib_dir = os.path.dirname(os.path.abspath(kjit._lib_handle.path))
    built = any(f.startswith("_fast") for f in os.listdir(os.path.join(lib_dir, "python"))) \
        if os.path.isdir(os.path.join(lib_dir, "python")) else False
    if os.environ.get("KJIT_NO_FAST") == "1" or not built:
        pytest.skip("no fast path here")
    assert kjit._dispatch._fast is not None


def _axpy(r, x, y):
    i = kjit.cuda.grid(1)
    if i < len(r):
        r[i] = x[i] + y[i]


def _add(x, y):
    return x + y


def test_cuda_compile_ptx():
    # numba-cuda's test_compiler.py facts: an .entry and no func_retval for a kernel, a .visible .func for a
    # device function, the inferred or declared return type
    f32 = kjit.float32
    ptx, resty = kjit.cuda.compile_ptx(_axpy, (f32[:], f32[:], f32[:]))
    assert ".visible .entry" in ptx and "func_retval" not in ptx and ".visible .func" not in ptx
    assert str(resty) == "none"
    ptx, resty = kjit.cuda.compile_ptx(_add, (f32, f32), device=True)
    assert ".visible .func" in ptx and "func_retval" in ptx and ".visible .entry" not in ptx
    assert resty == f32
    ptx, resty = kjit.cuda.compile(_add, "int16(int16, int16)", cc=(8, 0))
    assert ".target sm_80" in ptx and str(resty) == "int16"
    codes, resty = kjit.cuda.compile_all(_add, (f32, f32), output="ptx")
    assert len(codes) == 1 and ".visible .func" in codes[0] and resty == f32
    ptx, _ = kjit.cuda.compile_ptx_for_current_device(_axpy, "void(float64[:], float64[:], float64[:])")
    assert ".visible .entry" in ptx
    with pytest.raises(Exception, match="LTO-IR"):
        kjit.cuda.compile_all(_add, (f32, f32))
    with pytest.raises(TypeError, match="unexpected keyword"):
        kjit.cuda.compile_ptx(_add, (f32, f32), nonsense=1)
