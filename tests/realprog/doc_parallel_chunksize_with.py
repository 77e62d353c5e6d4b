# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_parallel_chunksize.py,
#   ChunksizeExamplesTest.test_chunksize_with.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_chunksize_with.begin
from numba import njit, prange, parallel_chunksize

@njit(parallel=True)
def func1(n):
    acc = 0
    for i in prange(n):
        acc += i
    return acc

@njit(parallel=True)
def func2(n):
    acc = 0
    with parallel_chunksize(8):
        for i in prange(n):
            acc += i
    return acc

with parallel_chunksize(4):
    result1 = func1(12)
    result2 = func2(12)
    result3 = func1(12)
# magictoken.ex_chunksize_with.end
print(result1, func1.py_func(12))
print(result2, func2.py_func(12))
print(result3, func1.py_func(12))
