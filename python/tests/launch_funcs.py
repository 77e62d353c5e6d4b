# Kernels the C launch path's tests launch (test_launch_fast.py, cai_fake_gpu.py).
from kjit import cuda


@cuda.jit
def bump(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]


@cuda.jit
def put(a, i, v):
    if cuda.grid(1) == 0:
        a[i] = v


@cuda.jit(boundscheck=True)
def checked(a, i):
    if cuda.grid(1) == 0:
        a[i] = 1.0


@cuda.jit
def shout(a):
    if cuda.grid(1) == 0:
        print("launched", a[0])
