# @njit functions the C dispatcher's tests call (test_dispatch_fast.py).
import numpy as np

from kjit import njit


@njit
def first_sum(a, b):
    return a[0] + b[0]


@njit
def scale_into(out, x, k):
    for i in range(x.shape[0]):
        out[i] = x[i] * k


@njit
def mixed(i, x, flag):
    return i * 2 + x if flag else -1.0


@njit(boundscheck=True)
def at(a, i):
    return a[i]


@njit
def tail(a):
    return a[1:]


@njit
def with_default(a, k=3):
    return a.sum() * k


@njit
def total(a):
    return a.sum()


SEEN = np.zeros(1)
