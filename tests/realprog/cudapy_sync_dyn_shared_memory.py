# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_sync.py,
#   TestCudaSync.test_dyn_shared_memory.
# Changed: the test body is the module's statements, with the kernel function it uses;
#   self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda, float32


def dyn_shared_memory(ary):
    i = cuda.grid(1)
    sm = cuda.shared.array(0, float32)
    sm[i] = i * 2
    cuda.syncthreads()
    ary[i] = sm[i]


compiled = cuda.jit("void(float32[::1])")(dyn_shared_memory)
shape = 50
ary = np.empty(shape, dtype=np.float32)
compiled[1, shape, 0, ary.size * 4](ary)
print(np.all(ary == 2 * np.arange(ary.size, dtype=np.int32)))
