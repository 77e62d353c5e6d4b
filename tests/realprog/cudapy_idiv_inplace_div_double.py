# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_idiv.py,
#   TestCudaIDiv.test_inplace_div_double.
# Changed: the test body is the module's statements; self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda, float32, float64, int32, void


@cuda.jit(void(float64[:, :], int32, int32))
def div_double(grid, l_x, l_y):
    for x in range(l_x):
        for y in range(l_y):
            grid[x, y] /= 2.0


x = np.ones((2, 2), dtype=np.float64)
grid = cuda.to_device(x)
div_double[1, 1](grid, 2, 2)
y = grid.copy_to_host()
print(np.all(y == 0.5))
