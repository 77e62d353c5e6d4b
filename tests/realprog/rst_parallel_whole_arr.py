# Source: github:numba/numba (commit 5340f052d), docs/source/user/parallel.rst,
#   "Explicit Parallel Loops" code block (prange_ok_result_whole_arr).
# Changed: a call on np.arange(10.0) printed added (the block only defines the function).
from numba import njit, prange
import numpy as np

@njit(parallel=True)
def prange_ok_result_whole_arr(x):
    n = x.shape[0]
    y = np.zeros(4)
    for i in prange(n):
        y += x[i]
    return y

print(prange_ok_result_whole_arr(np.arange(10.0)))
