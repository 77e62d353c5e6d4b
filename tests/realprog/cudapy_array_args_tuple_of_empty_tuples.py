# Source: numba 0.56.4 (github:numba/numba), numba/cuda/tests/cudapy/test_array_args.py,
#   TestCudaArrayArg.test_tuple_of_empty_tuples.
# Changed: the test body is the module's statements; self.assertEqual(a, b) prints a and b.
import numpy as np
from numba import cuda


@cuda.jit
def f(r, x):
    r[0] = len(x)
    r[1] = len(x[0])


x = ((), (), ())
r = np.ones(2, dtype=np.int64)
f[1, 1](r, x)
print(r[0], 3)
print(r[1], 0)
