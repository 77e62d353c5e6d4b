# Source: numba 0.56.4 (github:numba/numba), numba/tests/doc_examples/test_jitclass.py,
#   DocsJitclassUsageTest.test_ex_jitclass.
# Changed: the test body is the module's statements; each self.assert*(a, b) prints its
#   values.
# magictoken.ex_jitclass.begin
import numpy as np
from numba import int32, float32    # import the types
from numba.experimental import jitclass

spec = [
    ('value', int32),               # a simple scalar field
    ('array', float32[:]),          # an array field
]

@jitclass(spec)
class Bag(object):
    def __init__(self, value):
        self.value = value
        self.array = np.zeros(value, dtype=np.float32)

    @property
    def size(self):
        return self.array.size

    def increment(self, val):
        for i in range(self.size):
            self.array[i] += val
        return self.array

    @staticmethod
    def add(x, y):
        return x + y

n = 21
mybag = Bag(n)
# magictoken.ex_jitclass.end

print(isinstance(mybag, Bag))
print(mybag.value, n)
print(mybag.array, np.zeros(n, dtype=np.float32))
print(mybag.size, n)
print(mybag.increment(3), 3 * np.ones(n, dtype=np.float32))
print(mybag.increment(6), 9 * np.ones(n, dtype=np.float32))
print(mybag.add(1, 1), 2)
print(Bag.add(1, 2), 3)
