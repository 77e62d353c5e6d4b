# Source: github:numba/numba (commit 5340f052d), docs/source/user/5minguide.rst,
#   the first code block ("How does Numba work?" example, go_fast).
# Changed: nothing.
from numba import jit
import numpy as np

x = np.arange(100).reshape(10, 10)

@jit
def go_fast(a): # Function is compiled to machine code when called the first time
    trace = 0.0
    for i in range(a.shape[0]):   # Numba likes loops
        trace += np.tanh(a[i, i]) # Numba likes NumPy functions
    return a + trace              # Numba likes NumPy broadcasting

print(go_fast(x))
