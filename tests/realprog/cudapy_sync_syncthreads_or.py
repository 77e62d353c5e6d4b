# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_sync.py,
#   TestCudaSync.test_syncthreads_or.
# Changed: the test body is the module's statements, with the kernel function it uses;
#   self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda


def use_syncthreads_or(ary_in, ary_out):
    i = cuda.grid(1)
    ary_out[i] = cuda.syncthreads_or(ary_in[i])


compiled = cuda.jit("void(int32[:], int32[:])")(use_syncthreads_or)
nelem = 100
ary_in = np.zeros(nelem, dtype=np.int32)
ary_out = np.zeros(nelem, dtype=np.int32)
compiled[1, nelem](ary_in, ary_out)
print(np.all(ary_out == 0))
ary_in[31] = 1
compiled[1, nelem](ary_in, ary_out)
print(np.all(ary_out == 1))
