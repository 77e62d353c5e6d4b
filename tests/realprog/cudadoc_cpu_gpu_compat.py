# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/doc_examples/test_cpu_gpu_compat.py,
#   TestCpuGpuCompat.test_ex_cpu_gpu_compat (magictoken.ex_cpu_gpu_compat_*).
# Changed: the test body is the module's statements; np.testing.assert_equal(expect, results)
#   prints expect and results.copy_to_host().
import numpy as np
from math import pi

import numba
from numba import cuda

X = cuda.to_device([1, 10, 234])
Y = cuda.to_device([2, 2, 4014])
Z = cuda.to_device([3, 14, 2211])
results = cuda.to_device([0.0, 0.0, 0.0])


@numba.jit
def business_logic(x, y, z):
    return 4 * z * (2 * x - (4 * y) / 2 * pi)


print(business_logic(1, 2, 3))  # -126.79644737231007


@cuda.jit
def f(res, xarr, yarr, zarr):
    tid = cuda.grid(1)
    if tid < len(xarr):
        # The function decorated with numba.jit may be directly reused
        res[tid] = business_logic(xarr[tid], yarr[tid], zarr[tid])


f.forall(len(X))(results, X, Y, Z)
print(results)
# [-126.79644737113675, -8338.677564592232, 7675664.4121768265]

expect = [
    business_logic(x, y, z) for x, y, z in zip(X, Y, Z)
]
print(expect)
print(results.copy_to_host())
