"""Functions of test_rng_records.py (kjit compiles them from this file's source)."""
import numpy as np
from kjit import njit, cuda

pt = np.dtype([('x', np.float64), ('y', np.int32)])


@njit
def draws(rng, n):
    s = 0.0
    for i in range(n):
        s += rng.random()
    return s, rng.integers(0, 1000), rng.normal()


@njit
def fails_after_a_draw(rng):
    x = rng.random()
    if x < 2.0:
        raise ValueError("after a draw")
    return x


@njit
def fill(a):
    for i in range(a.shape[0]):
        a[i].x = i * 1.5
        a[i]['y'] = i - 2
    return a[1]


@njit
def bump(r, k):
    r.x = r.x + k
    r['y'] += 1


@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i].x * a[i].y
    return s


@cuda.jit
def kern(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i].x = i * 0.5
        a[i].y = i * 3


@njit
def head(a, n):
    return a[:n]


@njit
def make(n):
    z = np.zeros(n, dtype=pt)
    for i in range(n):
        z[i].x = i + 0.5
    return z


@njit
def poly_parts(p):
    return p.coef, p.domain, p.window


@njit
def poly_make(c):
    return np.polynomial.polynomial.Polynomial(c)
