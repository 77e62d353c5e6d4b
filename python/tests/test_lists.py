"""Python lists and sets as arguments and results of @njit functions, as Numba's reflected list and set: the
compiled code's changes are seen in the caller's list (the same object), also when the call raised; results are
new Python lists and sets, an argument returned is that object; Numba's errors for what it cannot pass."""
import numpy as np
import pytest

import list_funcs as lf


def test_reflection_keeps_the_object():
    xs = [5, 3]
    ref = xs
    assert lf.total(xs) == 8
    assert lf.grow(xs, 2) == 4
    assert xs is ref and xs == [0, 3, 5, 10]
    assert lf.grow(xs, 1) == 5 and xs == [0, 0, 3, 5, 10]
    assert lf.same(xs) is xs  # Numba returns the argument itself


def test_strings_arrays_tuples():
    ws = ["ab", "c"]
    assert lf.shout(ws) == 3 and ws == ["ab", "c", "AB!"]
    a = np.arange(3.0)
    arrs = [a]
    assert lf.scale_first(arrs) == 2
    assert arrs[0] is a and a[0] == -1.0  # the argument's own array object, written in place
    assert np.array_equal(arrs[1], [0.0, 2.0, 4.0])
    ps = [(1, "a")]
    assert lf.pairs(ps) == (1, "a") and ps == [(1, "a"), (2, "z")]


def test_reflected_when_raising():
    xs = [1, 2]
    with pytest.raises(IndexError):
        lf.pop_then_fail(xs)
    assert xs == [1]


def test_results_and_sets():
    lists, tuples = lf.nested(3)
    assert lists == [[], [1], [2, 2]] and tuples == [(0, 0.0), (1, 0.5), (2, 1.0)]
    s = {1, 2}
    ref = s
    assert lf.add_to(s, 2) == {2, 3} and s == {1, 2}
    assert lf.add_to(s, 7) == {7, 8} and s is ref and s == {1, 2, 7}


def test_lists_in_tuples_are_not_reflected():
    t = (1, [2])
    assert lf.in_tuple(t) == 1 and t == (1, [2])  # as Numba


def test_numba_errors():
    with pytest.raises(ValueError, match="cannot compute fingerprint of empty list"):
        lf.total([])
    with pytest.raises(ValueError, match="cannot compute fingerprint of empty set"):
        lf.add_to(set(), 1)
    with pytest.raises(TypeError, match=r"can't unbox heterogeneous list: int64 != float64"):
        lf.total([1, 2.5])
    with pytest.raises(TypeError, match="can't unbox heterogeneous set"):
        lf.add_to({1, 2.5}, 1)
    with pytest.raises(TypeError, match=r"cannot reflect element of reflected container: "
                                        r"reflected list\(reflected list\(int64\)<iv=None>\)<iv=None>"):
        lf.total([[1], [2]])


def test_signatures_name_the_reflected_list():
    lf.total([1, 2])
    assert ("reflected list(int64)<iv=None>",) in lf.total.signatures


def test_typed_list_item_type_and_empty_argument():
    """typed.List converts what it stores to its item type, and an empty one passes by that type."""
    from kjit.typed import List
    from kjit import types
    c = List.empty_list(types.float64)
    c.append(3)
    assert c == [3.0] and isinstance(c[0], float)
    a = List()
    a.append(42)
    a.pop()
    assert lf.grow(a, 3) == 3 and a == [0, 10, 20]
