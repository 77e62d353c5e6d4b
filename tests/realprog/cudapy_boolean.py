# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_boolean.py,
#   TestCudaBoolean.test_boolean (with the module-level boolean_func).
# Changed: the test body is the module's statements; self.assertTrue(...) prints its value.
import numpy as np
from numba import cuda


def boolean_func(A, vertial):
    if vertial:
        A[0] = 123
    else:
        A[0] = 321


func = cuda.jit('void(float64[:], bool_)')(boolean_func)
A = np.array([0], dtype='float64')
func[1, 1](A, True)
print(A[0] == 123)
func[1, 1](A, False)
print(A[0] == 321)
