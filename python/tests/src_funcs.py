"""Functions for test_source_values.py: what the package gathers from source (imports of modules kjit knows,
functions passed as values, lambdas, *args, dtypes as values)."""
import heapq
from collections import namedtuple
import operator
import random
from operator import add

import numpy as np

import kjit

K = 10


@kjit.njit
def op_mix(a, b):
    f = operator.mul
    return f(a, b), add(a, b), operator.neg(a)


@kjit.njit
def heap_smallest(n):
    h = [n - i for i in range(n)]
    heapq.heapify(h)
    return heapq.heappop(h), heapq.heappop(h)


@kjit.njit
def seeded(seed):
    random.seed(seed)
    return random.random()


@kjit.njit
def plus(x, y):
    return x + y


@kjit.njit
def times(x, y):
    return x * y


@kjit.njit
def apply2(f, a, b):
    return f(a, b)


twice = kjit.njit(lambda x: 2 * x)


@kjit.njit
def apply1(f, x):
    return f(x)


def make_adder():
    """A lambda made inside a function and reading a module constant."""
    return kjit.njit(lambda x: x + K)


def two_lambdas():
    """Two lambdas on one line: told apart by their columns."""
    return kjit.njit(lambda x: x + 1), kjit.njit(lambda x: x * 100)


@kjit.njit
def count(*args):
    return len(args)


@kjit.njit
def head_rest(a, *rest):
    return a, rest


@kjit.njit
def zeros_of(n, dt):
    return np.zeros(n, dtype=dt)


@kjit.njit
def dtype_of(a):
    return a.dtype


@kjit.vectorize(["float32(float32)", "float64(float64)"])
def third(x):
    return x / 3


Point = namedtuple("Point", ["x", "y"])


@kjit.njit
def norm2(p):
    return p.x * p.x + p.y * p.y


@kjit.njit
def swap(p):
    return Point(y=p.x, x=p.y)


@kjit.njit
def scaled(f, p, k):
    return f(p.x, k), f(p.y, k)


@kjit.cuda.jit
def fill_line(out, p):
    i = kjit.cuda.grid(1)
    if i < out.size:
        out[i] = p.x * i + p.y
