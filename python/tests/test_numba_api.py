"""Numba's API surface in the package: the thread-pool functions, objmode, the ufunc methods of @vectorize
(at, accumulate, outer, reduceat, the loops of dynamic ufuncs) and exceptions from compiled code with their
arguments (issue 27, session 16)."""
import numpy as np
import pytest

import api_funcs as F
import kjit
from kjit import _dispatch


@pytest.fixture
def restore_threads():
    yield
    kjit.set_num_threads(kjit.config.NUMBA_NUM_THREADS)
    kjit.set_parallel_chunksize(0)


def test_thread_settings_shared_with_compiled_code(restore_threads):
    assert kjit.config.NUMBA_NUM_THREADS >= 1 and kjit.config.NUMBA_DEFAULT_NUM_THREADS >= 1
    assert kjit.get_num_threads() == kjit.config.NUMBA_NUM_THREADS
    assert kjit.get_thread_id() == 0
    kjit.set_num_threads(1)
    assert kjit.get_num_threads() == 1
    assert F.chunk_in_jit() == (0, 1)          # compiled code starts with Python's settings
    assert F.thread_ids(200).max() == 0
    assert kjit.set_parallel_chunksize(4) == 0
    assert F.chunk_in_jit() == (4, 1)
    assert F.set_chunk_in_jit(6) == 4           # and what it sets stays set
    assert kjit.get_parallel_chunksize() == 6
    with kjit.parallel_chunksize(2):
        assert kjit.get_parallel_chunksize() == 2
        assert F.chunk_in_jit()[0] == 2
    assert kjit.get_parallel_chunksize() == 6


def test_thread_settings_reach_other_contexts(restore_threads):
    kjit.set_parallel_chunksize(3)
    saved = kjit.config.OPT
    try:
        kjit.config.OPT = 2  # another configuration: another kjit context
        ctx = _dispatch._context()
        assert kjit._lib.lib.kjit_ctx_threads_get(ctx, 1) == 3
        assert kjit.get_parallel_chunksize() == 3
    finally:
        kjit.config.OPT = saved


def test_thread_settings_errors(restore_threads):
    with pytest.raises(ValueError, match="between 1 and"):
        kjit.set_num_threads(0)
    with pytest.raises(ValueError, match="between 1 and"):
        kjit.set_num_threads(kjit.config.NUMBA_NUM_THREADS + 1)
    with pytest.raises(ValueError, match="^chunksize must be greater than or equal to zero$"):
        kjit.set_parallel_chunksize(-1)
    with pytest.raises(TypeError, match="must be an integer"):
        kjit.set_num_threads(1.5)
    assert kjit.get_parallel_chunksize() == 0


def test_objmode():
    y, z = F.with_objmode(3)
    assert y == 7 and list(z) == [3.0, 3.0]
    with kjit.objmode(a="int64"):  # outside a decorated function: nothing happens, as in Numba
        a = 1
    assert a == 1


def test_ufunc_at():
    a = np.arange(6.0).reshape(2, 3)
    ref = a.copy()
    np.add.at(ref, (np.array([0, 1, 1]), np.array([2, 0, 0])), 2 * np.array([1.0, 2.0, 3.0]))
    F.addmul.at(a, (np.array([0, 1, 1]), np.array([2, 0, 0])), np.array([1.0, 2.0, 3.0]))
    assert np.array_equal(a, ref)
    b = np.arange(10.0)[::2]  # not contiguous: written back
    F.triple.at(b, [1, 1, 4])
    assert list(b) == [0.0, 18.0, 4.0, 6.0, 24.0]
    c = np.arange(4)
    F.addmul.at(c, slice(1, 3), 1.5)  # float loop, truncated into int64 (NumPy's unsafe cast)
    assert list(c) == [0, 4, 5, 3]
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        F.addmul.at(c, [0, 4], 1)
    with pytest.raises(ValueError):
        F.addmul.at(c, [0, 1], np.ones(3))
    assert list(c) == [0, 4, 5, 3]
    with pytest.raises(ValueError, match="second operand needed"):
        F.addmul.at(c, [0])


def test_ufunc_accumulate_outer_reduceat():
    a = np.arange(24).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1):
        assert np.array_equal(F.addmul.accumulate(a, axis=axis), np.frompyfunc(lambda x, y: x + 2 * y, 2, 1)
                              .accumulate(a, axis=axis).astype(np.int64))
    out = np.zeros(4)
    assert F.addmul.accumulate(np.ones(4), out=out) is out and list(out) == [1.0, 3.0, 5.0, 7.0]
    with pytest.raises(np.AxisError):
        F.addmul.accumulate(a, axis=3)
    with pytest.raises(ValueError, match="only supported for binary"):
        F.triple.accumulate(np.ones(3))
    assert np.array_equal(F.addmul.outer(np.arange(3), np.arange(2.0)),
                          np.arange(3)[:, None] + 2 * np.arange(2.0)[None, :])
    x = np.arange(8.0)
    idx = [0, 4, 1, 6]
    ref = np.frompyfunc(lambda p, q: p + 2 * q, 2, 1).reduceat(x, idx).astype(np.float64)
    assert np.array_equal(F.addmul.reduceat(x, idx), ref)
    m = np.arange(12.0).reshape(3, 4)
    assert np.array_equal(F.addmul.reduceat(m, [0, 2], axis=1),
                          np.frompyfunc(lambda p, q: p + 2 * q, 2, 1).reduceat(m, [0, 2], axis=1).astype(float))
    with pytest.raises(IndexError):
        F.addmul.reduceat(x, [0, 9])


def test_dynamic_ufunc_types():
    assert F.dyn_add.types == [] and F.dyn_add.ntypes == 0
    assert F.dyn_add(1, 2) == 3
    assert F.dyn_add.types == ["ll->l"]
    r = F.dyn_add(np.int16(3), np.int16(4))  # int16 casts safely to the int64 loop: none compiled
    assert r == 7 and r.dtype == np.int64 and F.dyn_add.types == ["ll->l"]
    assert list(F.dyn_add(np.arange(2.0), 1)) == [1.0, 2.0]
    assert F.dyn_add.types == ["ll->l", "dl->d"] and F.dyn_add.ntypes == 2  # as Numba 0.56 names them
    assert F.dyn_add(True, False) == 1 and F.dyn_add.ntypes == 2
    assert F.addmul.types == ["dd->d", "ll->l"]  # signatures given: those
    o = np.zeros(1)
    F.dyn_sum(np.arange(3.0), o)
    assert o[0] == 3.0 and F.dyn_sum.types == ["d->d"]
    F.dyn_sum(np.arange(3), o)  # int64 casts safely to float64: the loop there
    assert F.dyn_sum.types == ["d->d"]


def test_exception_arguments():
    want = {0: ValueError("negative", 2), 1: KeyError("missing"), 2: ValueError(3), 3: IndexError(),
            4: ValueError("(1, 2)"), 5: KeyError(5)}
    for _ in range(2):  # the first call compiles (the Python path), the second may take the C path
        for k, exc in want.items():
            with pytest.raises(type(exc)) as info:
                F.raises(k)
            assert info.value.args == exc.args and str(info.value) == str(exc), k
    with pytest.raises(IndexError) as info:
        F.raises(7)
    assert info.value.args == ("index 7 is out of bounds for axis 0 with size 2",)
