# Source: github:numba/numba (commit 5340f052d), docs/source/user/jit.rst,
#   "Lazy compilation" code block (f(x, y) with @jit).
# Changed: two calls printed added (the block only defines f).
from numba import jit

@jit
def f(x, y):
    # A somewhat trivial example
    return x + y

print(f(1, 2))
print(f(1.5, 2.5))
