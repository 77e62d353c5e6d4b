# Source: github:numba/numba (commit 5340f052d), numba/tests/doc_examples/test_examples.py,
#   DocsExamplesTest.test_vectorize_dynamic.
# Changed: the test body is the module's statements; each self.assert*/np.testing.assert_*(a, b)
#   prints its values (assertIsInstance(x, T): isinstance(x, T)); the IS_WIN32 branches are left out.
# magictoken.ex_vectorize_dynamic.begin
from numba import vectorize

@vectorize
def f(x, y):
    return x * y
# magictoken.ex_vectorize_dynamic.end

# magictoken.ex_vectorize_dynamic_call_one.begin
result = f(3,4)
# result == 12

print(f.types)
# ['ll->l']
# magictoken.ex_vectorize_dynamic_call_one.end

print(result, 12)
correct = ['ll->l']
print(f.types, correct)

# magictoken.ex_vectorize_dynamic_call_two.begin
result = f(1.,2.)
# result == 2.0

print(f.types)
# ['ll->l', 'dd->d']
# magictoken.ex_vectorize_dynamic_call_two.end

print(result, 2.0)
correct = ['ll->l', 'dd->d']
print(f.types, correct)

# magictoken.ex_vectorize_dynamic_call_three.begin
result = f(1,2.)
# result == 2.0

print(f.types)
# ['ll->l', 'dd->d']
# magictoken.ex_vectorize_dynamic_call_three.end

print(result, 2.0)
correct = ['ll->l', 'dd->d']
print(f.types, correct)

# magictoken.ex_vectorize_dynamic_call_four.begin
@vectorize
def g(a, b):
    return a / b

print(g(2.,3.))
# 0.66666666666666663

print(g(2,3))
# 0.66666666666666663

print(g.types)
# ['dd->d']
# magictoken.ex_vectorize_dynamic_call_four.end

correct = ['dd->d']
print(g.types, correct)
