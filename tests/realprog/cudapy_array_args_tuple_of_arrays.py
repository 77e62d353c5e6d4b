# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_tuple_of_arrays.
# Changed: the test body is the module's statements; np.testing.assert_equal(a, b) prints a and b.
import numpy as np
from numba import cuda


@cuda.jit
def f(x):
    i = cuda.grid(1)
    if i < len(x[0]):
        x[0][i] = x[1][i] + x[2][i]


N = 10
x0 = np.zeros(N)
x1 = np.ones_like(x0)
x2 = x1 * 3
x = (x0, x1, x2)
f[1, N](x)
print(x0)
print(x1 + x2)
