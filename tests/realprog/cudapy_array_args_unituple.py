# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_unituple.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a and b.
import numpy as np
from numba import cuda


@cuda.jit
def f(r, x):
    r[0] = x[0]
    r[1] = x[1]
    r[2] = x[2]


x = (1, 2, 3)
r = np.zeros(len(x), dtype=np.int64)
f[1, 1](r, x)
for i in range(len(x)):
    print(r[i], x[i])
