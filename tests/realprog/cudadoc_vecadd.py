# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/doc_examples/test_vecadd.py,
#   TestVecAdd.test_ex_vecadd (the documented example, magictoken.ex_vecadd).
# Changed: the test body is the module's statements. The two prints of c (random values from
#   NumPy's generator) print instead the test's check np.testing.assert_equal(c, a + b) as
#   np.array_equal.
import numpy as np
from numba import cuda


@cuda.jit
def f(a, b, c):
    # like threadIdx.x + (blockIdx.x * blockDim.x)
    tid = cuda.grid(1)
    size = len(c)

    if tid < size:
        c[tid] = a[tid] + b[tid]


np.random.seed(1)

N = 100000

a = cuda.to_device(np.random.random(N))
b = cuda.to_device(np.random.random(N))
c = cuda.device_array_like(a)

f.forall(len(a))(a, b, c)
print(np.array_equal(c.copy_to_host(), a.copy_to_host() + b.copy_to_host()))

# Enough threads per block for several warps per block
nthreads = 256
# Enough blocks to cover the entire vector depending on its length
nblocks = (len(a) // nthreads) + 1
f[nblocks, nthreads](a, b, c)
print(np.array_equal(c.copy_to_host(), a.copy_to_host() + b.copy_to_host()))
