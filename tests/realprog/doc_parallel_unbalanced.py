# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_parallel_chunksize.py,
#   ChunksizeExamplesTest.test_unbalanced_example.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_unbalanced.begin
from numba import (njit,
                   prange,
                   )
import numpy as np

@njit(parallel=True)
def func1():
    n = 100
    vals = np.empty(n)
    # The work in each iteration of the following prange
    # loop is proportional to its index.
    for i in prange(n):
        cur = i + 1
        for j in range(i):
            if cur % 2 == 0:
                cur //= 2
            else:
                cur = cur * 3 + 1
        vals[i] = cur
    return vals

result = func1()
# magictoken.ex_unbalanced.end
print(result, func1.py_func())
