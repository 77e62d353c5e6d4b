# Decorated functions of test_numba_api.py (kjit compiles them from this file's source).
import numpy as np

import kjit
from kjit import njit, jit, prange, vectorize, guvectorize, objmode


@njit(parallel=True)
def thread_ids(n):
    out = np.empty(n, dtype=np.int64)
    for i in prange(n):
        out[i] = kjit.get_thread_id()
    return out


@njit
def chunk_in_jit():
    return kjit.get_parallel_chunksize(), kjit.get_num_threads()


@njit
def set_chunk_in_jit(n):
    return kjit.set_parallel_chunksize(n)


@njit
def with_objmode(x):
    with objmode(y='int64', z='float64[:]'):
        y = x * 2.5
        z = np.ones(2) * x
    return y, z


@vectorize(['float64(float64, float64)', 'int64(int64, int64)'])
def addmul(x, y):
    return x + 2 * y


@vectorize(['float64(float64)'])
def triple(x):
    return x * 3


@vectorize
def dyn_add(a, b):
    return a + b


@guvectorize("(n)->()")
def dyn_sum(a, out):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    out[0] = s


@jit(boundscheck=True)
def raises(k):
    if k == 0:
        raise ValueError("negative", 2)
    if k == 1:
        raise KeyError("missing")
    if k == 2:
        raise ValueError(3)
    if k == 3:
        raise IndexError
    if k == 4:
        raise ValueError("(1, 2)")
    if k == 5:
        d = {1: 2.0}
        return d[k]
    a = np.zeros(2)
    return a[k]
