# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_sync.py,
#   TestCudaSync.test_coop_smem2d.
# Changed: the test body is the module's statements, with the kernel function it uses;
#   self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda, float32


def coop_smem2d(ary):
    i, j = cuda.grid(2)
    sm = cuda.shared.array((10, 20), float32)
    sm[i, j] = (i + 1) / (j + 1)
    cuda.syncthreads()
    ary[i, j] = sm[i, j]


compiled = cuda.jit("void(float32[:,::1])")(coop_smem2d)
shape = 10, 20
ary = np.empty(shape, dtype=np.float32)
compiled[1, shape](ary)
exp = np.empty_like(ary)
for i in range(ary.shape[0]):
    for j in range(ary.shape[1]):
        exp[i, j] = (i + 1) / (j + 1)
print(np.allclose(ary, exp))
