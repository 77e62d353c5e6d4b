# Source: github:numba/numba (commit 5340f052d), docs/source/user/stencil.rst,
#   the first code block (kernel1) and the "Basic usage" session that calls it.
# Changed: the interactive session's statements are the script's, each shown value printed.
from numba import stencil
import numpy as np

@stencil
def kernel1(a):
    return 0.25 * (a[0, 1] + a[1, 0] + a[0, -1] + a[-1, 0])

input_arr = np.arange(100).reshape((10, 10))
print(input_arr)
output_arr = kernel1(input_arr)
print(output_arr)
print(input_arr.dtype)
print(output_arr.dtype)
