# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_forall.py,
#   TestForAll.test_forall_1 (with the module-level kernel foo).
# Changed: the test body is the module's statements; np.testing.assert_array_almost_equal(a, b)
#   prints a and b.
import numpy as np
from numba import cuda


@cuda.jit
def foo(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1


arr = np.arange(11)
orig = arr.copy()
foo.forall(arr.size)(arr)
print(arr)
print(orig + 1)
