"""Check that .npy files written by kjit load in NumPy with the right values.

Run by tests/unit/test_npy.c (only when a python3 with numpy is available):
    python3 npy_numpy_check.py DIR
DIR holds the files the C test wrote; exits non-zero on the first mismatch.
"""
import sys

import numpy as np


def expect(path, want, fortran=False):
    got = np.load(path)
    if got.dtype != want.dtype or got.shape != want.shape:
        sys.exit(f"{path}: got {got.dtype}{got.shape}, want {want.dtype}{want.shape}")
    if not np.array_equal(got, want, equal_nan=want.dtype.kind == "f"):
        sys.exit(f"{path}: values differ:\n{got}\nwant\n{want}")
    if fortran and not (got.flags.f_contiguous and not got.flags.c_contiguous):
        sys.exit(f"{path}: not loaded in Fortran order")


def main():
    d = sys.argv[1]
    expect(f"{d}/f8.npy", np.arange(6, dtype=np.float64).reshape(2, 3) / 4)
    expect(f"{d}/i4_fortran.npy", np.arange(6, dtype=np.int32).reshape(3, 2).T, fortran=True)
    expect(f"{d}/strided.npy", np.arange(12, dtype=np.int64).reshape(3, 4)[::-1, ::2])
    expect(f"{d}/b1.npy", np.array([True, False, True]))
    expect(f"{d}/u8.npy", np.array([0, 2**64 - 1], dtype=np.uint64))
    expect(f"{d}/f4_nan.npy", np.array([np.nan, np.inf, -0.0, 1e-45], dtype=np.float32))
    expect(f"{d}/i2_0d.npy", np.array(-7, dtype=np.int16))
    expect(f"{d}/empty.npy", np.zeros((0, 3), dtype=np.float32))
    expect(f"{d}/noext.npy", np.array([1, 2, 3], dtype=np.int8))
    print("numpy check ok")


if __name__ == "__main__":
    main()
