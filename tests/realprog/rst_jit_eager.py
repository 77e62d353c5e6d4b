# Source: github:numba/numba (commit 5340f052d), docs/source/user/jit.rst,
#   "Eager compilation" code block (f with the signature int32(int32, int32)).
# Changed: a call f(1, 2) printed added (the block only defines f).
from numba import jit, int32

@jit(int32(int32, int32))
def f(x, y):
    # A somewhat trivial example
    return x + y

print(f(1, 2))
