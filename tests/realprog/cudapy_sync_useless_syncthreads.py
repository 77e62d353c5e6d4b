# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_sync.py,
#   TestCudaSync.test_useless_syncthreads (_test_useless with useless_syncthreads).
# Changed: the test body is the module's statements, with the kernel function it uses;
#   np.testing.assert_equal(a, b) prints a and b.
import numpy as np
from numba import cuda


def useless_syncthreads(ary):
    i = cuda.grid(1)
    cuda.syncthreads()
    ary[i] = i


compiled = cuda.jit("void(int32[::1])")(useless_syncthreads)
nelem = 10
ary = np.empty(nelem, dtype=np.int32)
exp = np.arange(nelem, dtype=np.int32)
compiled[1, nelem](ary)
print(ary)
print(exp)
