# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_powi.py,
#   TestCudaPowi.test_powi_binop (with the module-level cu_mat_power_binop).
# Changed: the test body is the module's statements; self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda, float64, int8, void


def cu_mat_power_binop(A, power, power_A):
    y, x = cuda.grid(2)

    m, n = power_A.shape
    if x >= n or y >= m:
        return

    power_A[y, x] = A[y, x] ** power


dec = cuda.jit(void(float64[:, :], int8, float64[:, :]))
kernel = dec(cu_mat_power_binop)

power = 2
A = np.arange(10, dtype=np.float64).reshape(2, 5)
Aout = np.empty_like(A)
kernel[1, A.shape](A, power, Aout)
print(np.allclose(Aout, A ** power))
