# Source: github:numba/numba (commit 5340f052d), numba/tests/doc_examples/test_examples.py,
#   DocsExamplesTest.test_guvectorize_dynamic.
# Changed: the test body is the module's statements; each self.assert*/np.testing.assert_*(a, b)
#   prints its values (assertIsInstance(x, T): isinstance(x, T)); the IS_WIN32 branches are left out.
# magictoken.ex_guvectorize_dynamic.begin
from numba import guvectorize
import numpy as np

@guvectorize('(n),()->(n)')
def g(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y
# magictoken.ex_guvectorize_dynamic.end

# magictoken.ex_guvectorize_dynamic_call_one.begin
x = np.arange(5, dtype=np.int64)
y = 10
res = np.zeros_like(x)
g(x, y, res)
# res == array([10, 11, 12, 13, 14])
print(g.types)
# ['ll->l']
# magictoken.ex_guvectorize_dynamic_call_one.end

correct = np.array([10, 11, 12, 13, 14])
print(res, correct)
correct = ['ll->l']
print(g.types, correct)

# magictoken.ex_guvectorize_dynamic_call_two.begin
x = np.arange(5, dtype=np.double)
y = 2.2
res = np.zeros_like(x)
g(x, y, res)
# res == array([2.2, 3.2, 4.2, 5.2, 6.2])
# magictoken.ex_guvectorize_dynamic_call_two.end

# magictoken.ex_guvectorize_dynamic_call_three.begin
print(g.types) # shorthand for g.ufunc.types
# ['ll->l', 'dd->d']
# magictoken.ex_guvectorize_dynamic_call_three.end

correct = ['ll->l', 'dd->d']
print(g.types, correct)

# magictoken.ex_guvectorize_dynamic_call_four.begin
x = np.arange(5, dtype=np.int64)
y = 2
res = np.zeros_like(x)
g(x, y, res)
print(res)
# res == array([2, 3, 4, 5, 6])
# magictoken.ex_guvectorize_dynamic_call_four.end

correct = np.array([2, 3, 4, 5, 6])
print(res, correct)
