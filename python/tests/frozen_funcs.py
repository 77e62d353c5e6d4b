# Module-level NumPy arrays read by compiled functions: frozen at compile time, as Numba freezes globals.
import numpy as np

from kjit import cuda, njit

TABLE = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
WEIGHTS = np.linspace(0.0, 1.0, 9).astype(np.float32)[::2]  # strided: frozen in C order all the same
FORT = np.asfortranarray(np.arange(6.0).reshape(2, 3))
BIG = np.array([2**63 + 5, 7], dtype=np.uint64)
MUTABLE = np.array([1.0, 2.0])
WRITTEN = np.zeros(3)
COMPLEX = np.array([1 + 2j])


@njit
def lookup(i, j):
    return TABLE[i, j]


@njit
def weights_sum():
    return WEIGHTS.sum(), WEIGHTS.shape[0]


@njit
def fort(i, j):
    return FORT[i, j]


@njit
def big(i):
    return BIG[i]


@njit
def read_mutable():
    return MUTABLE[0]


@njit
def write_global(x):
    WRITTEN[0] = x


@njit
def read_complex():
    return COMPLEX[0]


@cuda.jit
def row_kernel(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = TABLE[1, i] * 10
