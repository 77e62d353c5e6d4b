"""@njit functions of test_values_cplx.py (the package compiles them from this file's source)."""
import numpy as np
from kjit import njit


@njit
def rotate(a):
    for i in range(a.shape[0]):
        a[i] = a[i] * 1j
    return a[1:]


@njit
def square(z):
    return z * z


@njit
def later(d, t):
    return d + t, t * 2


@njit
def add_hours(a, t):
    for i in range(a.shape[0]):
        a[i] = a[i] + t
    return a[::-1]


@njit
def halve(h):
    for i in range(h.shape[0]):
        h[i] = h[i] / np.float16(2)
    return h[::2]


@njit
def poke(b):
    b[0] = 33
    return len(b)


@njit
def middle(b):
    return b[1:-1]


@njit
def first(m):
    m[0] = 7.5
    return m[1]


@njit
def day(n):
    return np.datetime64(0, 'D') + np.timedelta64(n, 'D')
