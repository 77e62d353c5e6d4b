# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_typed_list_usage.py,
#   DocsTypedListUsageTest.test_ex_inferred_list_jit.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_inferred_list_jit.begin
from numba import njit
from numba.typed import List

@njit
def foo():
    # Instantiate a typed-list
    l = List()
    # Append a value to it, this will set the type to int32/int64
    # (depending on platform)
    l.append(42)
    # The usual list operations, getitem, pop and length are
    # supported
    print(l[0])   # 42
    l[0] = 23
    print(l[0])   # 23
    print(len(l)) # 1
    l.pop()
    print(len(l)) # 0
    return l

foo()

# magictoken.ex_inferred_list_jit.end
