# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_tuple_of_array_scalar_tuple.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a.
import numpy as np
from numba import cuda


@cuda.jit
def f(r, x):
    r[0] = x[0][0]
    r[1] = x[0][1]
    r[2] = x[1]
    r[3] = x[2][0]
    r[4] = x[2][1]


z = np.arange(2, dtype=np.int64)
x = (2 * z, 10, (4, 3))
r = np.zeros(5, dtype=np.int64)
f[1, 1](r, x)
print(r[0])
print(r[1])
print(r[2])
print(r[3])
print(r[4])
