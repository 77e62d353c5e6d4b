# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_globals.py,
#   TestCudaTestGlobal.test_global_int_const (with the module-level N and simple_smem).
# Changed: the test body is the module's statements; self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda, int32

N = 100


def simple_smem(ary):
    sm = cuda.shared.array(N, int32)
    i = cuda.grid(1)
    if i == 0:
        for j in range(N):
            sm[j] = j
    cuda.syncthreads()
    ary[i] = sm[i]


compiled = cuda.jit("void(int32[:])")(simple_smem)
nelem = 100
ary = np.empty(nelem, dtype=np.int32)
compiled[1, nelem](ary)
print(np.all(ary == np.arange(nelem, dtype=np.int32)))
