# @njit functions returning and taking typed.Dicts and returning generators (test_dict_gen.py).
import numpy as np

from kjit import njit


@njit
def squares(n):
    d = {}
    for i in range(n):
        d[i] = i * 0.5
    return d


@njit
def edit(d, k):
    d[k] = d[k] + 100.0
    d.pop(0)
    d[50] = 2.25
    return len(d)


@njit
def lookup(d, k):
    return d[k]


@njit
def by_name():
    return {'a': 1, 'b' + 'c': 2}


@njit
def tuple_keys(d):
    return d[(1, 2)] + len(d)


@njit
def arrays():
    d = {}
    d[0] = np.arange(3) * 1.0
    return d


@njit
def set_first(d, x):
    a = d[0]
    a[0] = x


@njit
def bump(d):
    d[0] += 1.0


@njit
def count(n):
    for i in range(n):
        yield i * i


@njit
def rows(a):
    for i in range(a.shape[0]):
        yield a[i] * 2.0


@njit
def words(n):
    for i in range(n):
        yield 'w' + str(i)


@njit
def failing(n):
    yield 1
    if n > 0:
        raise ValueError('negative')
    yield 2
