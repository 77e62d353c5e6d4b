# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_sync.py,
#   TestCudaSync.test_syncthreads_count.
# Changed: the test body is the module's statements, with the kernel function it uses;
#   self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda


def use_syncthreads_count(ary_in, ary_out):
    i = cuda.grid(1)
    ary_out[i] = cuda.syncthreads_count(ary_in[i])


compiled = cuda.jit("void(int32[:], int32[:])")(use_syncthreads_count)
ary_in = np.ones(72, dtype=np.int32)
ary_out = np.zeros(72, dtype=np.int32)
ary_in[31] = 0
ary_in[42] = 0
compiled[1, 72](ary_in, ary_out)
print(np.all(ary_out == 70))
