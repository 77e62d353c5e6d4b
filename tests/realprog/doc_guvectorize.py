# Source: github:numba/numba (commit 5340f052d), numba/tests/doc_examples/test_examples.py,
#   DocsExamplesTest.test_guvectorize.
# Changed: the test body is the module's statements; each self.assert*/np.testing.assert_*(a, b)
#   prints its values (assertIsInstance(x, T): isinstance(x, T)).
# magictoken.ex_guvectorize.begin
from numba import guvectorize, int64
import numpy as np

@guvectorize([(int64[:], int64, int64[:])], '(n),()->(n)')
def g(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y
# magictoken.ex_guvectorize.end

# magictoken.ex_guvectorize_call_one.begin
a = np.arange(5)
result = g(a, 2)
# result == array([2, 3, 4, 5, 6])
# magictoken.ex_guvectorize_call_one.end

print(isinstance(result, np.ndarray))
correct = np.array([2, 3, 4, 5, 6])
print(result, correct)

# magictoken.ex_guvectorize_call_two.begin
a = np.arange(6).reshape(2, 3)
# a == array([[0, 1, 2],
#             [3, 4, 5]])

result1 = g(a, 10)
# result1 == array([[10, 11, 12],
#                   [13, 14, 15]])

result2 = g(a, np.array([10, 20]))
g(a, np.array([10, 20]))
# result2 == array([[10, 11, 12],
#                   [23, 24, 25]])
# magictoken.ex_guvectorize_call_two.end

print(isinstance(result1, np.ndarray))
correct = np.array([[10, 11, 12], [13, 14, 15]])
print(result1, correct)

print(isinstance(result2, np.ndarray))
correct = np.array([[10, 11, 12], [23, 24, 25]])
print(result2, correct)
