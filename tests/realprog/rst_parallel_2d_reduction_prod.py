# Source: github:numba/numba (commit 5340f052d), docs/source/user/parallel.rst,
#   "Explicit Parallel Loops" code block (two_d_array_reduction_prod).
# Changed: a call with n = 3 printed added (the block only defines the function).
from numba import njit, prange
import numpy as np

@njit(parallel=True)
def two_d_array_reduction_prod(n):
    shp = (13, 17)
    result1 = 2 * np.ones(shp, np.int_)
    tmp = 2 * np.ones_like(result1)

    for i in prange(n):
        result1 *= tmp

    return result1

print(two_d_array_reduction_prod(3))
