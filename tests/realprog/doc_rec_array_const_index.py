# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_rec_array.py,
#   TestExample.test_documentation_example1.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_rec_arr_const_index.begin
import numpy as np
from numba import njit

arr = np.array([(1, 2)], dtype=[('a1', 'f8'), ('a2', 'f8')])
fields_gl = ('a1', 'a2')

@njit
def get_field_sum(rec):
    fields_lc = ('a1', 'a2')
    field_name1 = fields_lc[0]
    field_name2 = fields_gl[1]
    return rec[field_name1] + rec[field_name2]

get_field_sum(arr[0])  # returns 3
# magictoken.ex_rec_arr_const_index.end
print(get_field_sum(arr[0]), 3)
