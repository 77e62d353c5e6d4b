# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_powi.py,
#   TestCudaPowi.test_cpow_complex128_pow (_test_cpow with vec_pow, random_complex).
# Changed: the test body is the module's statements; np.testing.assert_allclose(r, x ** y)
#   prints np.allclose(r, x ** y, rtol=1e-7) (the values come from NumPy's seeded random).
import numpy as np
from numba import cuda


def vec_pow(r, x, y):
    i = cuda.grid(1)

    if i < len(r):
        r[i] = pow(x[i], y[i])


def random_complex(N):
    np.random.seed(123)
    return (np.random.random(1) + np.random.random(1) * 1j)


dtype = np.complex128
N = 32
x = random_complex(N).astype(dtype)
y = random_complex(N).astype(dtype)
r = np.zeros_like(x)

cfunc = cuda.jit(vec_pow)
cfunc[1, N](r, x, y)
print(np.allclose(r, x ** y, rtol=1.0e-7, atol=0))

x = np.asarray([0.0j, 1.0j], dtype=dtype)
y = np.asarray([0.0j, 1.0], dtype=dtype)
r = np.zeros_like(x)

cfunc[1, 2](r, x, y)
print(np.allclose(r, x ** y, rtol=1.0e-7, atol=0))
