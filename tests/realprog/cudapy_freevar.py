# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_freevar.py,
#   TestFreeVar.test_freevar.
# Changed: the test body is the module's statements; a print of A[1] added (the test asserts
#   only that the kernel compiles and runs; A[0] is uninitialised shared memory).
import numpy as np
from numba import cuda
from numba import float32

size = 1024
nbtype = float32


@cuda.jit("(float32[::1], intp)")
def foo(A, i):
    "Dummy function"
    sdata = cuda.shared.array(size,   # size is freevar
                              dtype=nbtype)  # nbtype is freevar
    A[i] = sdata[i]


A = np.arange(2, dtype="float32")
foo[1, 1](A, 0)
print(A[1])
