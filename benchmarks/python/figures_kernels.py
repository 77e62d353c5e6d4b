"""The kernel figures.py launches from a loop (in a file of its own: kjit compiles a kernel from its source)."""
from kjit import cuda


@cuda.jit
def bump(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1
