"""Complex, datetime64/timedelta64, float16 and bytes/bytearray/memoryview values through the package, as
Numba unboxes and boxes them: zero copies of arrays (checked by pointer), results of the right Python or NumPy
type, the caller seeing the callee's writes."""
import numpy as np
import pytest

import kjit
import values_cplx_funcs as f


def ptr(a):
    return a.__array_interface__["data"][0]


def test_complex_arrays_zero_copy():
    a = np.array([1 + 2j, 3 - 1j, 0.5j])
    r = f.rotate(a)
    assert a.tolist() == [-2 + 1j, 1 + 3j, -0.5 + 0j]  # written in place
    assert r.dtype == np.complex128 and ptr(r) == ptr(a) + 16  # a view of a's memory, no copy
    c = np.array([1 + 1j, 2j], dtype=np.complex64)
    r = f.rotate(c)
    assert r.dtype == np.complex64 and ptr(r) == ptr(c) + 8 and c.tolist() == [-1 + 1j, -2 + 0j]


def test_complex_scalars():
    r = f.square(1 + 2j)
    assert type(r) is complex and r == -3 + 4j
    r = f.square(np.complex128(2j))
    assert type(r) is complex and r == -4
    # np.complex64 specialises for complex64 (float32 parts); Numba boxes the result as a Python complex
    r = f.square(np.complex64(0.1 + 0.2j))
    z = np.complex64(0.1 + 0.2j)
    assert type(r) is complex and r == complex(z * z)
    assert r != (0.1 + 0.2j) ** 2


def test_datetime_scalars_and_arrays():
    d, t = f.later(np.datetime64("2020-01-01"), np.timedelta64(36, "h"))
    assert type(d) is np.datetime64 and d == np.datetime64("2020-01-02T12", "h") and d.dtype == "M8[h]"
    assert type(t) is np.timedelta64 and t.dtype == "m8[h]" and t == np.timedelta64(72, "h")
    nat, _ = f.later(np.datetime64("NaT", "D"), np.timedelta64(1, "D"))
    assert np.isnat(nat)
    a = np.array(["2021-06-01T00", "NaT"], dtype="M8[h]")
    r = f.add_hours(a, np.timedelta64(2, "h"))
    assert a[0] == np.datetime64("2021-06-01T02") and np.isnat(a[1])  # written in place
    assert r.dtype == "M8[h]" and r[1] == np.datetime64("2021-06-01T02") and ptr(r) == ptr(a) + 8
    with pytest.raises(kjit.TypingError, match="argument 1: Cannot determine Numba type of <class 'numpy.timedelta64'>"):
        f.later(np.datetime64("2020-01-01"), np.timedelta64(10, "10s"))


def test_float16_arrays_zero_copy():
    h = np.arange(4, dtype=np.float16)
    r = f.halve(h)
    assert h.tolist() == [0, 0.5, 1, 1.5] and r.dtype == np.float16 and ptr(r) == ptr(h)


def test_buffers():
    ba = bytearray(b"hello")
    assert f.poke(ba) == 5 and ba == bytearray(b"!ello")  # the caller sees the write
    m = memoryview(ba)
    assert f.poke(m) == 5
    r = f.middle(b"(xyz)")
    assert type(r) is bytes and r == b"xyz"
    with pytest.raises(kjit.TypingError):
        f.poke(b"read-only")  # Numba has no setitem on bytes
    a = np.arange(4.0)
    assert f.first(memoryview(a)) == 1.0 and a[0] == 7.5


def test_datetime_result_of_plain_arguments():
    # an int argument takes the C fast path, whose scalar results are ints: a datetime one is not
    for _ in range(3):
        r = f.day(3)
        assert type(r) is np.datetime64 and r == np.datetime64("1970-01-04")
