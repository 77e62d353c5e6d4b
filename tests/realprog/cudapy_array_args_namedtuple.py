# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_namedtuple.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a and b.
import numpy as np
from collections import namedtuple
from numba import cuda


@cuda.jit
def f(r1, r2, x):
    r1[0] = x.x
    r1[1] = x.y
    r2[0] = x.r


Point = namedtuple('Point', ('x', 'y', 'r'))
x = Point(1, 2, 2.236)
r1 = np.zeros(2, dtype=np.int64)
r2 = np.zeros(1, dtype=np.float64)
f[1, 1](r1, r2, x)
print(r1[0], x.x)
print(r1[1], x.y)
print(r2[0], x.r)
