# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_tuple_of_tuples_and_scalars.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a.
import numpy as np
from numba import cuda


@cuda.jit
def f(r, x):
    r[0] = len(x)
    r[1] = len(x[0])
    r[2] = x[0][0]
    r[3] = x[0][1]
    r[4] = x[0][2]
    r[5] = x[1]


x = ((6, 5, 4), 7)
r = np.ones(9, dtype=np.int64)
f[1, 1](r, x)
print(r[0])
print(r[1])
print(r[2])
print(r[3])
print(r[4])
print(r[5])
