# The expected output of float16_cuda_fp16.k from NumPy: each cuda.fp16
# function as kjit defines it (docs/cuda.md): exact float16 arithmetic (NumPy
# computes it in float32 and rounds, which gives the same bits), hfma as one
# rounding of the exact a*b + c (double), the functions in float32 and rounded.
import numpy as np

h, f = np.float16, np.float32
a = np.array([-2.5, -0.7, 0.0, 0.3333, 1.5, 2.5, 3.0, 7.25], dtype=h)
b = np.array([0.5, 1.0, 2.0, 0.3333, 3.0, 0.1, 3.0, 100.0], dtype=h)
c = np.array([1.0, -1.0, 0.25, 0.001, 2.0, -0.5, 1e-3, 60000.0], dtype=h)
with np.errstate(all="ignore"):
    for x, y, z in zip(a, b, c):
        fx, fy = f(x), f(y)
        row = [x + y, x - y, x * y, h(fx / fy), h(np.float64(x) * np.float64(y) + np.float64(z)), -x, abs(-y),
               h(np.sqrt(fy)), h(f(1) / np.sqrt(fy)), h(np.exp(fx)), h(np.exp2(fx)), h(np.power(f(10), fx)),
               h(np.log(fy)), h(np.log2(fy)), h(np.log10(fy)), h(np.sin(fx)), h(np.cos(fx)), np.ceil(x),
               np.floor(x), np.rint(x), np.trunc(x), h(f(1) / fy), np.fmax(x, y), np.fmin(x, y)]
        print(np.array(row, dtype=h))
    print(np.array([[x == y, x != y, x > y, x >= y, x < y, x <= y] for x, y in zip(a, b)]))
