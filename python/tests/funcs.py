# Decorated functions the tests call: kjit compiles them from this file's source.
import math

import numpy as np

import kjit
from kjit import cuda, float32, float64, guvectorize, int64, njit, vectorize

SCALE = 3
OFFSETS = (1.5, -2.0)
SIG = "float64(float64, float64)"


@njit
def saxpy(a, x, y):
    for i in range(x.shape[0]):
        y[i] = a * x[i] + y[i]


@njit
def helper(v):
    return v * SCALE + OFFSETS[0]


@njit(fastmath=True, boundscheck=False)
def uses_helper(x):
    s = 0.0
    for i in range(x.size):
        s += helper(x[i])
    return s


@njit
def tail_view(a):
    return a[1:]


@njit
def make(n):
    return np.arange(n, dtype=np.float32) * 2, n + 1, math.sqrt(4.0), n > 2


@njit(["int64(int64, int64)", "float64(float64, float64)"])
def eager_add(a, b):
    return a + b


@kjit.jit(nopython=True, cache=True)
def with_default(a, b=10):
    return a + b


@njit(boundscheck=True)
def at(a, i):
    return a[i]


@njit
def bad_type(x):
    return x + "s"


@njit
def raises(x):
    assert x <= 2, "x is too big"
    return x


@njit
def unknown_global(x):
    return x + not_defined_anywhere  # noqa: F821


@vectorize([float64(float64, float64), float32(float32, float32)])
def hypot2(a, b):
    return math.sqrt(a * a + b * b)


@vectorize([SIG], identity=0)
def plus(a, b):
    return a + b


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
def cumsum(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = s


@cuda.jit
def square_kernel(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * a[i]


@cuda.jit
def block_sum(a, out):
    tile = cuda.shared.array(32, dtype=float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for j in range(cuda.blockDim.x):
            s += tile[j]
        out[cuda.blockIdx.x] = s


@cuda.jit(boundscheck=True)
def poke(a, i):
    a[i] = 1.0


def plain(x):
    return x * 2


twice = njit(plain)
