# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_sync.py,
#   TestCudaSync.test_threadfence_codegen.
# Changed: the test body is the module's statements, with the kernel function it uses;
#   self.assertEqual(a, b) prints a and b; the PTX inspection (skipped on the simulator) left out.
import numpy as np
from numba import cuda, int32


def use_threadfence(ary):
    ary[0] += 123
    cuda.threadfence()
    ary[0] += 321


sig = (int32[:],)
compiled = cuda.jit(sig)(use_threadfence)
ary = np.zeros(10, dtype=np.int32)
compiled[1, 1](ary)

print(123 + 321, ary[0])
