# Source: github:numba/numba (commit 5340f052d), docs/source/user/parallel.rst,
#   "Explicit Parallel Loops" code block (prange_test).
# Changed: a call on np.arange(100) printed added (the block only defines the function).
import numpy as np
from numba import njit, prange

@njit(parallel=True)
def prange_test(A):
    s = 0
    # Without "parallel=True" in the jit-decorator
    # the prange statement is equivalent to range
    for i in prange(A.shape[0]):
        s += A[i]
    return s

print(prange_test(np.arange(100)))
