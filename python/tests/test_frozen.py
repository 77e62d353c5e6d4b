"""Module-level NumPy arrays read by compiled functions, frozen at the first compile (kjit_compile_globals)."""
import numpy as np
import pytest

import frozen_funcs as ff
import kjit


def test_arrays_are_read_as_numpy_reads_them():
    assert [ff.lookup(i, j) for i in range(2) for j in range(3)] == ff.TABLE.ravel().tolist()
    s, n = ff.weights_sum()
    assert n == 5 and s == pytest.approx(float(ff.WEIGHTS.sum()), rel=1e-6)
    assert [ff.fort(i, j) for i in range(2) for j in range(3)] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert ff.big(0) == 2**63 + 5 and ff.big(1) == 7


def test_frozen_at_first_compile():
    first = ff.read_mutable()
    ff.MUTABLE[0] = 42.0  # Numba does not see a global's change after compiling either
    try:
        assert first == 1.0 and ff.read_mutable() == 1.0
    finally:
        ff.MUTABLE[0] = 1.0


def test_write_is_a_typing_error():
    with pytest.raises(kjit.TypingError, match="Cannot modify readonly array: 'WRITTEN'"):
        ff.write_global(1.0)


def test_unsupported_dtype_names_the_array():
    with pytest.raises(kjit.UnsupportedError, match="module-level NumPy array 'COMPLEX' \\(complex128, 1d\\)"):
        ff.read_complex()


def test_kernel_reads_frozen_array():
    out = np.zeros(3, dtype=np.int64)
    ff.row_kernel[1, 3](out)
    assert out.tolist() == [40, 50, 60]
