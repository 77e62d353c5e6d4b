# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_typed_list_usage.py,
#   DocsTypedListUsageTest.test_ex_nested_list.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_nested_list.begin
from numba.typed import List

# typed-lists can be nested in typed-lists
mylist = List()
for i in range(10):
    l = List()
    for i in range(10):
        l.append(i)
    mylist.append(l)
# mylist is now a list of 10 lists, each containing 10 integers
print(mylist)

# magictoken.ex_nested_list.end
