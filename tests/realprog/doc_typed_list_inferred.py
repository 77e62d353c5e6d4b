# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_typed_list_usage.py,
#   DocsTypedListUsageTest.test_ex_inferred_list.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_inferred_list.begin
from numba import njit
from numba.typed import List

@njit
def foo(mylist):
    for i in range(10, 20):
        mylist.append(i)
    return mylist

# Instantiate a typed-list, outside of a jit context
l = List()
# Append a value to it, this will set the type to int32/int64
# (depending on platform)
l.append(42)
# The usual list operations, getitem, pop and length are supported
print(l[0])   # 42
l[0] = 23
print(l[0])   # 23
print(len(l)) # 1
l.pop()
print(len(l)) # 0

# And you can use the typed-list as an argument for a jit compiled
# function
l = foo(l)
print(len(l)) # 10

# You can also directly construct a typed-list from an existing
# Python list
py_list = [2, 3, 5]
numba_list = List(py_list)
print(len(numba_list)) # 3

# magictoken.ex_inferred_list.end
