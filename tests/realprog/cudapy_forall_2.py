# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_forall.py,
#   TestForAll.test_forall_2.
# Changed: the test body is the module's statements; np.testing.assert_array_almost_equal(a, b,
#   decimal=3) prints its check (np.allclose with atol 1.5e-3, what decimal=3 tests).
import numpy as np
from numba import cuda


@cuda.jit("void(float32, float32[:], float32[:])")
def bar(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]


x = np.arange(13, dtype=np.float32)
y = np.arange(13, dtype=np.float32)
oldy = y.copy()
a = 1.234
bar.forall(y.size)(a, x, y)
print(np.allclose(y, a * x + oldy, rtol=0, atol=1.5e-3))
