"""Kernel launches through the C launch path (kjit/_launch_type.h): `k[blocks, threads](args)` keyed on the
arguments' types, a prepared launch per key. Here on the cpu target (CI); cai_fake_gpu.py checks the GPU
case on the fake driver (device arrays passed by pointer, host arrays copied back)."""
import numpy as np
import pytest

import kjit
import launch_funcs as lf
from kjit import cuda

pytestmark = pytest.mark.skipif(cuda._LBase is object, reason="the C extension (kjit/_fast.c) is not built")


def state(launch):
    return launch._kjit_fast_state()  # (bound, number of prepared launches)


def test_seen_types_take_prepared_launches():
    a = np.zeros(40)
    lf.bump[2, 32](a)  # compiles (Python path), then binds
    L = lf.bump[2, 32]
    assert L is lf.bump[2, 32] and state(L) == (True, 1)
    for k in range(4):
        lf.bump[2, 32](a)
    assert a.tolist() == [5.0] * 40
    b = np.zeros(7)  # another array of the same type: the prepared launch, the new memory
    lf.bump[2, 32](b)
    assert b.tolist() == [1.0] * 7 and state(L) == (True, 1)
    lf.bump[2, 32](np.zeros(3, dtype=np.int32))  # a new key: Python path, then prepared
    assert state(L) == (True, 2)
    s = np.zeros(12)[::3]  # strided: another key
    lf.bump[2, 32](s)
    lf.bump[2, 32](s)
    assert s.tolist() == [2.0] * 4 and state(L) == (True, 3)
    assert state(lf.bump[1, 64]) == (False, 0)  # another configuration: its own launches


def test_scalars_numpy_scalars_and_device_arrays():
    x = cuda.to_device(np.arange(4, dtype=np.float32))
    y = cuda.to_device(np.ones(4, dtype=np.float32))
    for k in range(3):
        lf.axpy[1, 32](np.float32(2), x, y)
    assert y.copy_to_host().tolist() == [1.0, 7.0, 13.0, 19.0]
    assert state(lf.axpy[1, 32]) == (True, 1)
    lf.axpy[1, 32](2.0, x, y)  # a Python float: float64, another key
    lf.axpy[1, 32](2.0, x, y)
    assert y.copy_to_host().tolist() == [1.0, 11.0, 21.0, 31.0] and state(lf.axpy[1, 32]) == (True, 2)
    a = np.zeros(4, dtype=np.int64)
    for i, v in ((0, 5), (1, np.int64(-6)), (2, np.uint8(200)), (3, True)):
        lf.put[1, 1](a, i, v)
    assert a.tolist() == [5, -6, 200, 1]


def test_errors_from_prepared_launches():
    a = np.zeros(3)
    lf.checked[1, 1](a, 2)
    lf.checked[1, 1](a, 1)
    with pytest.raises(IndexError):
        lf.checked[1, 1](a, 7)
    lf.checked[1, 1](a, 0)
    assert a.tolist() == [1.0, 1.0, 1.0]


def test_other_arguments_take_the_python_path():
    a = np.zeros(4)
    lf.bump[1, 32](a)
    lf.bump[1, 32](a=a)  # keywords
    ro = np.zeros(4)
    ro.flags.writeable = False
    with pytest.raises(kjit.TypingError, match="Cannot modify readonly array"):
        lf.bump[1, 32](ro)
    with pytest.raises(kjit.TypingError):
        lf.bump[1, 32]({})
    with pytest.raises(kjit.TypingError, match="takes 1 positional argument but 2 were given"):
        lf.bump[1, 32](a, a)  # another arity
    lf.bump[1, 32](a)
    assert a.tolist() == [3.0] * 4


def test_units_that_print_stay_on_the_python_path(capfd):
    a = np.arange(2.0)
    lf.shout[1, 1](a)
    lf.shout[1, 1](a)
    assert state(lf.shout[1, 1]) == (False, 0)
    assert capfd.readouterr().out == "launched 0.0\nlaunched 0.0\n"


def test_target_change_rebinds():
    a = np.zeros(4)
    lf.bump[1, 4](a)
    old = kjit.config.TARGET
    try:
        kjit.config.TARGET = "parallel"
        lf.bump[1, 4](a)
        lf.bump[1, 4](a)
    finally:
        kjit.config.TARGET = old
    lf.bump[1, 4](a)
    lf.bump[1, 4](a)
    assert a.tolist() == [5.0] * 4 and state(lf.bump[1, 4])[0]
