# Source: github:numba/numba (commit 5340f052d), numba/tests/doc_examples/test_examples.py,
#   DocsExamplesTest.test_moving_average.
# Changed: the test body is the module's statements; each self.assert*/np.testing.assert_*(a, b)
#   prints its values (assertIsInstance(x, T): isinstance(x, T)).
# magictoken.ex_moving_average.begin
import numpy as np

from numba import guvectorize

@guvectorize(['void(float64[:], intp[:], float64[:])'],
             '(n),()->(n)')
def move_mean(a, window_arr, out):
    window_width = window_arr[0]
    asum = 0.0
    count = 0
    for i in range(window_width):
        asum += a[i]
        count += 1
        out[i] = asum / count
    for i in range(window_width, len(a)):
        asum += a[i] - a[i - window_width]
        out[i] = asum / count

arr = np.arange(20, dtype=np.float64).reshape(2, 10)
print(arr)
print(move_mean(arr, 3))
# magictoken.ex_moving_average.end
