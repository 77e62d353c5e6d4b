# @njit functions taking and returning lists and sets (test_lists.py): Numba's reflected list and set.
from kjit import njit


@njit
def total(xs):
    s = 0
    for x in xs:
        s += x
    return s


@njit
def grow(xs, n):
    for i in range(n):
        xs.append(i * 10)
    xs.sort()
    return len(xs)


@njit
def same(xs):
    xs[0] = xs[0]
    return xs


@njit
def shout(ws):
    ws.append(ws[0].upper() + "!")
    return len(ws)


@njit
def scale_first(arrs):
    arrs.append(arrs[0] * 2.0)
    arrs[0][0] = -1.0
    return len(arrs)


@njit
def pop_then_fail(xs):
    xs.pop()
    return xs[10]


@njit
def nested(n):
    return [[i] * i for i in range(n)], [(i, i * 0.5) for i in range(n)]


@njit
def add_to(s, x):
    s.add(x)
    s.discard(-1)
    return {x, x + 1}


@njit
def in_tuple(t):
    t[1].append(5)
    return t[0]


@njit
def pairs(ps):
    ps.append((ps[-1][0] + 1, "z"))
    return ps[0]
