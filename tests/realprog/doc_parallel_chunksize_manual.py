# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_parallel_chunksize.py,
#   ChunksizeExamplesTest.test_chunksize_manual.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_chunksize_manual.begin
from numba import (njit,
                   prange,
                   set_parallel_chunksize,
                   get_parallel_chunksize,
                   )

@njit(parallel=True)
def func1(n):
    acc = 0
    print(get_parallel_chunksize()) # Will print 4.
    for i in prange(n):
        print(get_parallel_chunksize()) # Will print 0.
        acc += i
    print(get_parallel_chunksize()) # Will print 4.
    return acc

@njit(parallel=True)
def func2(n):
    acc = 0
    # This version gets the previous chunksize explicitly.
    old_chunksize = get_parallel_chunksize()
    set_parallel_chunksize(8)
    for i in prange(n):
        acc += i
    set_parallel_chunksize(old_chunksize)
    return acc

# This version saves the previous chunksize as returned
# by set_parallel_chunksize.
old_chunksize = set_parallel_chunksize(4)
result1 = func1(12)
result2 = func2(12)
result3 = func1(12)
set_parallel_chunksize(old_chunksize)
# magictoken.ex_chunksize_manual.end
print(result1, func1.py_func(12))
print(result2, func2.py_func(12))
print(result3, func1.py_func(12))
