# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_forall.py,
#   TestForAll.test_forall_no_work (with the module-level kernel foo).
# Changed: the test body is the module's statements; a print of the array added (the test
#   asserts only that the launch succeeds).
import numpy as np
from numba import cuda


@cuda.jit
def foo(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1


arr = np.arange(11)
foo.forall(0)(arr)
print(arr)
