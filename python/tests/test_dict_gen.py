"""typed.Dict results and arguments (the code's changes written back into the same object) and generators
returned by @jit functions (iteration, next(), exceptions from the body, StopIteration), through kjit_call's
KJIT_VALUE_DICT and KJIT_VALUE_GENERATOR."""
import numpy as np
import pytest

import dictgen_funcs as f
from kjit import types
from kjit.typed import Dict


def test_dict_result_is_a_typed_dict():
    d = f.squares(4)
    assert isinstance(d, Dict) and dict(d) == {0: 0.0, 1: 0.5, 2: 1.0, 3: 1.5}
    assert str(d) == "{0: 0.0, 1: 0.5, 2: 1.0, 3: 1.5}"  # as Numba prints a typed.Dict
    assert d._kjit_types == (types.int64, types.float64)
    s = f.by_name()
    assert str(s) == "{a: 1, bc: 2}" and s["bc"] == 2


def test_dict_argument_round_trip_keeps_identity():
    d = f.squares(3)
    same = d
    assert f.edit(d, 2) == 3
    assert d is same and dict(d) == {1: 0.5, 2: 101.0, 50: 2.25}  # written back into the same object
    assert f.lookup(d, 50) == 2.25
    with pytest.raises(KeyError) as e:
        f.lookup(d, 7)
    assert str(e.value) == "7"
    assert dict(d) == {1: 0.5, 2: 101.0, 50: 2.25}  # unchanged by the failed call


def test_host_made_dicts_pass():
    t = Dict.empty(key_type=types.UniTuple(types.int64, 2), value_type=types.int64)
    t[(1, 2)] = 3
    assert f.tuple_keys(t) == 4
    e = Dict.empty(key_type=types.int64, value_type=types.float64)
    e[0] = 1  # converted to the value type, as Numba does
    assert e[0] == 1.0 and isinstance(e[0], float)
    f.bump(e)
    assert e[0] == 2.0
    with pytest.raises(TypeError, match="invalid operation on untyped dictionary"):
        f.bump(Dict())  # no types yet: Numba's error
    with pytest.raises(kjit_typing_error(), match="argument 0: Cannot determine Numba type of <class 'dict'>"):
        f.bump({0: 1.0})  # a Python dict: Numba does not pass it either
    with pytest.raises(kjit_typing_error(), match="<class 'generator'>"):
        f.bump(f.count(2))


def test_array_values_share_memory():
    a = f.arrays()
    v = a[0]
    np.testing.assert_array_equal(v, [0.0, 1.0, 2.0])
    f.set_first(a, 42.0)  # the compiled code writes the array the Python dict holds: no copy either way
    assert v[0] == 42.0 and a[0] is not None and a[0][0] == 42.0


def kjit_typing_error():
    import kjit
    return kjit.TypingError


def test_generator_iterates_lazily():
    g = f.count(5)
    assert iter(g) is g
    assert next(g) == 0 and next(g) == 1
    assert list(g) == [4, 9, 16]
    with pytest.raises(StopIteration):
        next(g)
    assert next(f.count(0), -1) == -1
    assert [x for x, _ in zip(f.count(10**9), range(3))] == [0, 1, 4]  # never runs to its end


def test_generator_of_arrays_and_strings():
    a = np.arange(6.0).reshape(3, 2)
    g = f.rows(a)
    del a  # the generator keeps its argument alive
    assert [r.tolist() for r in g] == [[0.0, 2.0], [4.0, 6.0], [8.0, 10.0]]
    assert list(f.words(3)) == ["w0", "w1", "w2"]
    w = f.words(100)
    assert next(w) == "w0"
    del w  # released before its end


def test_generator_exception_from_body():
    g = f.failing(1)
    assert next(g) == 1
    with pytest.raises(ValueError, match="negative"):
        next(g)
    with pytest.raises(StopIteration):  # done after the exception, as Python's generators
        next(g)
    assert list(f.failing(0)) == [1, 2]
