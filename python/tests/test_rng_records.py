"""NumPy Generators and records through the package (issue 27): a Generator is passed by reference (the state
compiled code leaves is the bit generator's after the call: NumPy's draws continue the stream), arrays of
structured dtypes without a copy (packed and aligned layouts, strided), numpy.void records by reference."""
import numpy as np
import pytest

import kjit
import rng_record_funcs as rf


def test_generator_state_continues_after_the_call():
    g, ref = np.random.default_rng(12345), np.random.default_rng(12345)
    s, k, z = rf.draws(g, 5)
    assert s == sum(ref.random() for _ in range(5))
    assert k == ref.integers(0, 1000) and z == ref.normal()
    assert g.bit_generator.state == ref.bit_generator.state  # has_uint32 / uinteger too
    assert g.random(3).tolist() == ref.random(3).tolist()


def test_generator_state_written_back_when_the_call_raises():
    g, ref = np.random.default_rng(7), np.random.default_rng(7)
    with pytest.raises(ValueError, match="after a draw"):
        rf.fails_after_a_draw(g)
    ref.random()
    assert g.random() == ref.random()


def test_other_bit_generators_are_refused():
    with pytest.raises(kjit.TypingError, match="MT19937"):
        rf.draws(np.random.Generator(np.random.MT19937(1)), 2)


@pytest.mark.parametrize("dt", [rf.pt, np.dtype([('x', np.float64), ('y', np.int32)], align=True)])
def test_record_arrays_zero_copy_and_layout(dt):
    a = np.zeros(4, dtype=dt)
    r = rf.fill(a)
    assert a['x'].tolist() == [0.0, 1.5, 3.0, 4.5] and a['y'].tolist() == [-2, -1, 0, 1]
    assert isinstance(r, np.void) and r.dtype == dt and (r['x'], r['y']) == (1.5, -1)
    r['x'] = 99.0  # a copy, as Numba boxes a record
    assert a[1]['x'] == 1.5
    assert rf.total(a) == 3.0
    assert rf.total(a[::2]) == 0.0 * -2 + 3.0 * 0  # strided: the records' own strides


def test_record_argument_by_reference():
    a = np.zeros(3, dtype=rf.pt)
    rf.bump(a[2], 0.25)
    rf.bump(a[2], 0.25)
    assert a[2]['x'] == 0.5 and a[2]['y'] == 2


def test_kernel_on_record_device_array():
    a = np.zeros(5, dtype=rf.pt)
    d = kjit.cuda.to_device(a)
    rf.kern[1, 8](d)
    h = d.copy_to_host()
    assert h['x'].tolist() == [0.0, 0.5, 1.0, 1.5, 2.0] and h['y'].tolist() == [0, 3, 6, 9, 12]
    rec = kjit.cuda.to_device(h[1])
    assert rec.dtype == rf.pt and rec.copy_to_host() == h[1]


def test_record_array_results():
    a = np.zeros(4, dtype=rf.pt)
    a['x'] = [1.0, 2.0, 3.0, 4.0]
    h = rf.head(a, 2)
    assert h.dtype == rf.pt and h.shape == (2,)
    assert h.__array_interface__["data"][0] == a.__array_interface__["data"][0]  # a view, no copy
    h[0]['y'] = 7
    assert a[0]['y'] == 7
    z = rf.make(3)
    assert z.dtype == rf.pt and z['x'].tolist() == [0.5, 1.5, 2.5] and z['y'].tolist() == [0, 0, 0]


def test_polynomial_in_and_out():
    p = np.polynomial.Polynomial(np.array([1.0, 2.0, 3.0]), domain=[0.0, 2.0], window=[-1.0, 1.0])
    c, d, w = rf.poly_parts(p)
    assert c.tolist() == [1.0, 2.0, 3.0] and d.tolist() == [0.0, 2.0] and w.tolist() == [-1.0, 1.0]
    assert c.__array_interface__["data"][0] == p.coef.__array_interface__["data"][0]  # no copy
    q = rf.poly_make(np.array([1, 0, 2]))
    assert isinstance(q, np.polynomial.Polynomial)
    assert q.coef.tolist() == [1.0, 0.0, 2.0] and q.domain.tolist() == [-1, 1]
