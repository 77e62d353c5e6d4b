"""The @jit dispatcher's call path in C (kjit/_dispatch_type.h): a typed cache of prepared calls."""
import numpy as np
import pytest

import dispatch_funcs as df
import kjit
from kjit import _dispatch

pytestmark = pytest.mark.skipif(_dispatch._CBase is object, reason="the C extension (kjit/_fast.c) is not built")


def state(f):
    return f._kjit_fast_state()  # (bound, number of prepared calls)


def test_seen_types_take_prepared_calls():
    a, b = np.arange(3.0), np.ones(4)
    assert df.first_sum(a, b) == 1.0  # compiles (Python path), then binds
    assert state(df.first_sum) == (True, 1)
    for k in range(5):  # other arrays and shapes of the same types: the prepared call
        a = np.full(k + 1, float(k))
        assert df.first_sum(a, b) == k + 1.0
    assert state(df.first_sum) == (True, 1)
    assert df.first_sum(np.arange(3, dtype=np.int32), b) == 1.0  # a new key: Python path, then prepared
    assert state(df.first_sum) == (True, 2)
    assert df.first_sum(np.arange(6.0)[::2], b) == 1.0  # strided: another key (layout A)
    assert state(df.first_sum) == (True, 3)
    assert df.first_sum(np.arange(6.0)[::2], b) == 1.0
    assert state(df.first_sum) == (True, 3)
    assert df.first_sum.signatures[0] == ("array(float64, 1d, C)", "array(float64, 1d, C)")


def test_in_place_writes_and_scalars():
    x = np.arange(4, dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    for k in range(3):
        df.scale_into(out, x, float(k))
        assert out.tolist() == [0.0, k, 2.0 * k, 3.0 * k]
    out2 = np.zeros(4, dtype=np.float32)
    df.scale_into(out2, x, 2.0)  # another array of the same type, same memory written as NumPy's
    assert out2.ctypes.data != out.ctypes.data and out2.tolist() == [0.0, 2.0, 4.0, 6.0]
    for k in range(3):
        assert df.mixed(k, 0.5, True) == k * 2 + 0.5
        assert df.mixed(k, 0.5, False) == -1.0
    r = df.mixed(2**62, 1.0, True)  # int64 arithmetic as Numba's
    assert type(r) is float
    assert type(df.mixed(1, 2.0, True)) is float


def test_errors_from_prepared_calls():
    a = np.arange(3.0)
    assert df.at(a, 2) == 2.0
    assert df.at(a, 1) == 1.0
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 3"):
        df.at(a, 7)
    with pytest.raises(IndexError):
        df.at(np.arange(2.0), 2)
    assert df.at(a, 0) == 0.0


def test_another_dtype_at_a_position_gets_its_own_wrapper():
    # kjit_array_rewrap keeps a wrapper's dtype: int32 then float64 at the same position must not read the
    # float64 memory as int32 (it did: 0 for 1.0)
    i32, f64 = np.arange(3, dtype=np.int32), np.arange(3.0)
    for _ in range(2):
        assert df.at(i32, 1) == 1 and df.at(f64, 1) == 1.0 and df.at(f64, 2) == 2.0
    assert type(df.at(f64, 1)) is float and type(df.at(i32, 1)) is int


def test_array_results_and_views():
    a = np.arange(5.0)
    views = [df.tail(a) for _ in range(4)]  # each result holds the argument's wrapper: a new one next call
    for v in views:
        assert v.tolist() == [1.0, 2.0, 3.0, 4.0] and v.ctypes.data == a.ctypes.data + 8
    b = np.arange(3.0)
    assert df.tail(b).tolist() == [1.0, 2.0]


def test_keywords_defaults_and_arity():
    a = np.arange(4.0)
    assert df.with_default(a) == 18.0
    assert df.with_default(a, 2) == 12.0
    assert df.with_default(a, k=1) == 6.0
    assert df.with_default(a, 2) == 12.0
    with pytest.raises(TypeError):
        df.with_default()


def test_other_arguments_take_the_python_path():
    assert df.total(np.arange(4.0)) == 6.0
    assert df.total(np.arange(4.0)) == 6.0
    with pytest.raises(kjit.TypingError, match="dtype >f8"):  # big-endian: the Python path, which refuses it
        df.total(np.arange(4.0).astype(">f8"))
    assert df.mixed(np.int64(3), np.float32(0.5), True) == 6.5  # NumPy scalars: the Python path
    with pytest.raises(kjit.TypingError):
        df.total({})
    assert df.total(np.arange(4.0)) == 6.0


def test_target_change_rebinds():
    a = np.arange(4.0)
    assert df.total(a) == 6.0
    old = kjit.config.TARGET
    try:
        kjit.config.TARGET = "parallel"
        assert df.total(a) == 6.0
        assert df.total(a) == 6.0
    finally:
        kjit.config.TARGET = old
    assert df.total(a) == 6.0
    assert df.total(a) == 6.0


def test_same_layout_reuses_the_wrapper_and_a_changed_one_does_not():
    # a call with the same data pointer, shape and strides at a position passes the kept wrapper as it is;
    # any change of the three must be seen
    a = np.arange(6.0)
    for _ in range(3):
        assert df.total(a) == 15.0
    a[0] = 100.0  # the same memory, written by Python: read again
    assert df.total(a) == 115.0
    assert df.total(a[:3]) == 103.0  # same pointer, another shape
    assert df.total(a[::2]) == 100.0 + 2.0 + 4.0  # same pointer, another stride (another key)
    assert df.total(a[::2]) == 106.0
    assert df.total(a[1:]) == 15.0  # another pointer, same rank
    v = df.tail(a)  # the result holds the wrapper of `a`
    assert df.total(a) == 115.0 and df.tail(a).tolist() == v.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    b = np.ones(6)
    assert df.total(b) == 6.0 and v.ctypes.data == a.ctypes.data + 8
