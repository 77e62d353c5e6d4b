# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_tuple_of_tuples.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a.
import numpy as np
from numba import cuda


@cuda.jit
def f(r, x):
    r[0] = len(x)
    r[1] = len(x[0])
    r[2] = len(x[1])
    r[3] = len(x[2])
    r[4] = x[1][0]
    r[5] = x[1][1]
    r[6] = x[2][0]
    r[7] = x[2][1]
    r[8] = x[2][2]


x = ((), (5, 6), (8, 9, 10))
r = np.ones(9, dtype=np.int64)
f[1, 1](r, x)
print(r[0])
print(r[1])
print(r[2])
print(r[3])
print(r[4])
print(r[5])
print(r[6])
print(r[7])
print(r[8])
