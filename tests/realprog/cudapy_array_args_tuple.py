# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_tuple.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a and b.
import numpy as np
from numba import cuda


@cuda.jit
def f(r1, r2, x):
    r1[0] = x[0]
    r1[1] = x[1]
    r1[2] = x[2]
    r2[0] = x[3]
    r2[1] = x[4]
    r2[2] = x[5]


x = (1, 2, 3, 4.5, 5.5, 6.5)
r1 = np.zeros(len(x) // 2, dtype=np.int64)
r2 = np.zeros(len(x) // 2, dtype=np.float64)
f[1, 1](r1, r2, x)
for i in range(len(r1)):
    print(r1[i], x[i])
for i in range(len(r2)):
    print(r2[i], x[i + len(r1)])
