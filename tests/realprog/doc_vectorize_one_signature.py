# Source: github:numba/numba (commit 5340f052d), numba/tests/doc_examples/test_examples.py,
#   DocsExamplesTest.test_vectorize_one_signature.
# Changed: the test body is the module's statements; each self.assert*/np.testing.assert_*(a, b)
#   prints its values (assertIsInstance(x, T): isinstance(x, T)).
# magictoken.ex_vectorize_one_signature.begin
from numba import vectorize, float64

@vectorize([float64(float64, float64)])
def f(x, y):
    return x + y
# magictoken.ex_vectorize_one_signature.end
