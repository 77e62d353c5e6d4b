# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_namedunituple.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a and b.
import numpy as np
from collections import namedtuple
from numba import cuda


@cuda.jit
def f(r, x):
    r[0] = x.x
    r[1] = x.y


Point = namedtuple('Point', ('x', 'y'))
x = Point(1, 2)
r = np.zeros(len(x), dtype=np.int64)
f[1, 1](r, x)
print(r[0], x.x)
print(r[1], x.y)
