"""Issue 27 point 4's leftovers: a result that views a NumPy argument keeps it alive (every call path), and a
read-only NumPy array given to code that writes it is refused as Numba's typing refuses it (test_package.py's
run under KJIT_NO_FAST=1 covers the ctypes path: run.sh runs this file that way too)."""
import gc
import weakref

import numpy as np
import pytest

import kjit
from kjit import cuda


@kjit.njit
def tail(a):
    return a[1:]


@kjit.njit
def halves(a):
    return a[:2], a[2:] + 1.0


@kjit.njit
def fresh(a):
    return a * 2.0


@kjit.njit
def store(a):
    a[0] = 5.0


@kjit.njit
def store_view(a):
    b = a[1:]
    b[0] = 1.0


@kjit.njit
def store_through_call(a):
    store(a)


@kjit.njit
def read(a):
    return a[0] + a.sum()


@cuda.jit
def kernel_store(a):
    a[0] = 1.0


@cuda.jit
def kernel_read(a, out):
    out[0] = a[0]


def _views_survive(f):
    refs, views = [], []
    for k in range(4):  # the first call compiles (Python path), later ones take the prepared call
        a = np.arange(10.0) + k
        refs.append(weakref.ref(a))
        views.append(f(a))
        del a
    gc.collect()
    junk = [np.full(10, -1.0) for _ in range(200)]  # memory a freed argument would be reused for
    return refs, views, junk


def test_view_result_keeps_argument_alive():
    refs, views, _ = _views_survive(tail)
    for k, v in enumerate(views):
        assert v.tolist() == [float(i + k) for i in range(1, 10)]
    assert all(r() is not None for r in refs)
    del views, v
    gc.collect()
    assert all(r() is None for r in refs)  # and no longer than the view


def test_tuple_of_views_and_fresh_results():
    a = np.arange(4.0)
    r = weakref.ref(a)
    first, second = halves(a)
    del a
    gc.collect()
    assert first.tolist() == [0.0, 1.0] and second.tolist() == [3.0, 4.0] and r() is not None
    b = np.arange(3.0)
    rb = weakref.ref(b)
    out = fresh(b)
    del b
    gc.collect()
    assert rb() is None and out.tolist() == [0.0, 2.0, 4.0]  # new memory holds no argument


def _readonly(n=3):
    a = np.arange(float(n))
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("f", [store, store_view, store_through_call], ids=lambda f: f.__name__)
def test_readonly_written_is_refused(f):
    for _ in range(2):  # also once the types are known
        with pytest.raises(kjit.TypingError, match=r"Cannot modify readonly array of type: readonly array\(float64, "
                                                   r"1d, C\) \(argument 0 of '" + f.__name__):
            f(_readonly())
    w = np.zeros(3)
    f(w)  # a writable array of the same type is written
    assert w.tolist() != [0.0, 0.0, 0.0]


def test_readonly_read_is_fine():
    a = _readonly()
    for _ in range(3):
        assert read(a) == 3.0
    b = _readonly(6)[::2]  # strided, read-only
    assert read(b) == 6.0


def test_readonly_kernel_argument():
    with pytest.raises(kjit.TypingError, match="Cannot modify readonly array of type: readonly array"):
        kernel_store[1, 1](_readonly())
    out = np.zeros(1)
    kernel_read[1, 1](_readonly(), out)
    assert out[0] == 0.0
