"""What the package compiles from source (python/kjit/_source.py, _funcargs.py, _values_dtype.py): imports of
operator, heapq and random; @jit functions passed as arguments (a specialisation per function, as Numba's);
lambdas made in functions; *args; dtypes passed and returned (KJIT_VALUE_DTYPE); a @vectorize's loop picked
as NumPy picks it."""
import numpy as np
import pytest

import kjit
import src_funcs as sf


def test_imported_modules():
    assert sf.op_mix(3, 4) == (12, 7, -3)
    assert sf.heap_smallest(5) == (1, 2)
    import numba  # the spec: Numba's own generator state, seeded in compiled code
    assert sf.seeded(7) == numba.njit(sf.seeded.py_func)(7)


def test_function_arguments():
    assert sf.apply2(sf.plus, 1, 2) == 3
    assert sf.apply2(sf.times, 3, 2.5) == 7.5  # another function: another specialisation
    assert sf.apply2(sf.plus, 1.5, 2) == 3.5
    assert sf.apply1(sf.twice, 4) == 8 and sf.apply1(sf.twice, 1.5) == 3.0
    assert sf.apply2(f=sf.plus, a=2, b=5) == 7  # by keyword too


def test_lambdas_in_functions():
    add_k = sf.make_adder()
    assert add_k(1) == 11
    assert sf.apply1(add_k, 2.5) == 12.5
    inc, hundred = sf.two_lambdas()
    assert (inc(3), hundred(3)) == (4, 300)


def test_varargs():
    assert (sf.count(), sf.count(1, "x"), sf.count(1, 2, 3)) == (0, 2, 3)
    assert sf.head_rest(1, 2.5, (3, 4)) == (1, (2.5, (3, 4)))
    assert sf.head_rest("a") == ("a", ())


@pytest.mark.parametrize("dt", [np.float32, np.int16, np.uint8, np.dtype("float64"), np.bool_, np.int64])
def test_dtype_arguments(dt):
    a = sf.zeros_of(3, dt)
    assert a.dtype == np.dtype(dt) and a.shape == (3,) and not a.any()


def test_dtype_results():
    r = sf.dtype_of(np.zeros(2, np.float32))
    assert isinstance(r, np.dtype) and r == np.float32  # Numba returns the np.dtype
    assert sf.dtype_of(np.zeros(2, np.uint64)) == np.dtype("uint64")


def test_dtype_not_passable():
    with pytest.raises(kjit.TypingError, match="argument 1: the dtype"):
        sf.zeros_of(2, np.dtype("U3"))


def test_vectorize_picks_numpy_loop():
    assert type(sf.third(1.0)) is np.float64 and sf.third(1.0) == 1.0 / 3
    assert type(sf.third(np.float32(1.0))) is np.float32
    assert type(sf.third(2)) is np.float64  # int64 casts safely to float64 only


def test_namedtuples():
    p = sf.Point(3, 4)
    assert sf.norm2(p) == 25
    r = sf.swap(p)
    assert type(r) is sf.Point and r == (4, 3)  # comes back as its class, as Numba boxes a NamedTuple
    assert sf.norm2(sf.Point(1.5, 2)) == 6.25  # other item types: another specialisation
    assert sf.scaled(sf.times, p, 2) == (6, 8)  # with a function argument in the same call
    out = np.zeros(4)
    sf.fill_line[1, 4](out, sf.Point(x=1.5, y=2))
    assert out.tolist() == [2.0, 3.5, 5.0, 6.5]
