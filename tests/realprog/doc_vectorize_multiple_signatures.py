# Source: github:numba/numba (commit 5340f052d), numba/tests/doc_examples/test_examples.py,
#   DocsExamplesTest.test_vectorize_multiple_signatures.
# Changed: the test body is the module's statements; each self.assert*/np.testing.assert_*(a, b)
#   prints its values (assertIsInstance(x, T): isinstance(x, T)).
# magictoken.ex_vectorize_multiple_signatures.begin
from numba import vectorize, int32, int64, float32, float64
import numpy as np

@vectorize([int32(int32, int32),
            int64(int64, int64),
            float32(float32, float32),
            float64(float64, float64)])
def f(x, y):
    return x + y
# magictoken.ex_vectorize_multiple_signatures.end

# magictoken.ex_vectorize_return_call_one.begin
a = np.arange(6)
result = f(a, a)
# result == array([ 0,  2,  4,  6,  8, 10])
# magictoken.ex_vectorize_return_call_one.end

print(isinstance(result, np.ndarray))
correct = np.array([0, 2, 4, 6, 8, 10])
print(result, correct)

# magictoken.ex_vectorize_return_call_two.begin
a = np.linspace(0, 1, 6)
result = f(a, a)
# Now, result == array([0. , 0.4, 0.8, 1.2, 1.6, 2. ])
# magictoken.ex_vectorize_return_call_two.end

print(isinstance(result, np.ndarray))
correct = np.array([0., 0.4, 0.8, 1.2, 1.6, 2. ])
print(result, correct)

# magictoken.ex_vectorize_return_call_three.begin
a = np.arange(12).reshape(3, 4)
# a == array([[ 0,  1,  2,  3],
#             [ 4,  5,  6,  7],
#             [ 8,  9, 10, 11]])

result1 = f.reduce(a, axis=0)
# result1 == array([12, 15, 18, 21])

result2 = f.reduce(a, axis=1)
# result2 == array([ 6, 22, 38])

result3 = f.accumulate(a)
# result3 == array([[ 0,  1,  2,  3],
#                   [ 4,  6,  8, 10],
#                   [12, 15, 18, 21]])

result4 = f.accumulate(a, axis=1)
# result3 == array([[ 0,  1,  3,  6],
#                   [ 4,  9, 15, 22],
#                   [ 8, 17, 27, 38]])
# magictoken.ex_vectorize_return_call_three.end

print(isinstance(result1, np.ndarray))
correct = np.array([12, 15, 18, 21])
print(result1, correct)

print(isinstance(result2, np.ndarray))
correct = np.array([6, 22, 38])
print(result2, correct)

print(isinstance(result3, np.ndarray))
correct = np.array([
    [0, 1, 2, 3],
    [4, 6, 8, 10],
    [12, 15, 18, 21]
])
print(result3, correct)

print(isinstance(result4, np.ndarray))
correct = np.array([
    [0, 1, 3, 6],
    [4, 9, 15, 22],
    [8, 17, 27, 38]
])
print(result4, correct)
