# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_array_ary.
# Changed: the test body is the module's statements; self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda


@cuda.jit('double(double[:],int64)', device=True, inline=True)
def device_function(a, c):
    return a[c]


@cuda.jit('void(double[:],double[:])')
def kernel(x, y):
    i = cuda.grid(1)
    y[i] = device_function(x, i)


x = np.arange(10, dtype=np.double)
y = np.zeros_like(x)
kernel[10, 1](x, y)
print(np.all(x == y))
