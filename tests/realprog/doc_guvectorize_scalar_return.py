# Source: github:numba/numba (commit 5340f052d), numba/tests/doc_examples/test_examples.py,
#   DocsExamplesTest.test_guvectorize_scalar_return.
# Changed: the test body is the module's statements; each self.assert*/np.testing.assert_*(a, b)
#   prints its values (assertIsInstance(x, T): isinstance(x, T)).
# magictoken.ex_guvectorize_scalar_return.begin
from numba import guvectorize, int64
import numpy as np

@guvectorize([(int64[:], int64, int64[:])], '(n),()->()')
def g(x, y, res):
    acc = 0
    for i in range(x.shape[0]):
        acc += x[i] + y
    res[0] = acc
# magictoken.ex_guvectorize_scalar_return.end

# magictoken.ex_guvectorize_scalar_return_call.begin
a = np.arange(5)
result = g(a, 2)
# At this point, result == 20.
# magictoken.ex_guvectorize_scalar_return_call.end

print(isinstance(result, np.integer))
print(result, 20)
