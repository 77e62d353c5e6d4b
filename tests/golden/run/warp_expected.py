"""The expected output of the warp-operation programs (parallel_warp_*.k),
from NumPy: Numba 0.56's CUDA simulator has no warp operations, so
make_expected.sh calls this instead of running them. Each function computes
with NumPy, warp by warp (32 consecutive threads), what the kernels compute
with shuffles and votes, and prints it as the program's main() does.

    /usr/bin/python3 warp_expected.py NAME   (NAME: sum, ballot, scan)
"""
import sys

import numpy as np


def warps(a):
    """a (length a multiple of 32) as one row per warp."""
    return a.reshape(-1, 32)


def expect_sum():
    x = np.arange(256, dtype=np.int32) * 3 - 100
    print(warps(x).sum(axis=1, dtype=np.int32))
    y = np.arange(96, dtype=np.float64) * 0.5
    s = warps(y).sum(axis=1)
    print(s[0], s[0], s[1], s[2])  # every[0], every[31], every[32], every[95]
    z = np.zeros(1024)
    z[:1000] = np.arange(1000, dtype=np.float64)
    blocks = z.reshape(4, 256).sum(axis=1)
    print(blocks, blocks.sum())


def expect_ballot():
    x = ((np.arange(1000) * 37) % 101).astype(np.float32)
    print(np.count_nonzero(x > 50.0))
    out = np.zeros((1000, 4), dtype=np.int64)
    for w in range(32):  # 1000 threads run: the last warp has 8
        lanes = np.arange(32 * w, min(32 * w + 32, 1000))
        bits = np.int64(1) << (lanes - 32 * w)
        active = int(bits.sum())
        ballot = int(bits[x[lanes] > 50].sum())
        out[lanes, 0] = np.int64(np.uint32(ballot).astype(np.int32))  # Numba's int32 ballot
        out[lanes, 1] = int(np.any(x[lanes] > 99))
        out[lanes, 2] = int(np.all(x[lanes] >= 1))
        out[lanes, 3] = active
    print(out[::32])
    print(out[999])


def expect_scan():
    x = (np.arange(128, dtype=np.int64) * 7) % 13 - 4
    incl = np.cumsum(warps(x), axis=1).ravel()
    print(incl[:40])
    print(incl[31::32])
    half = (x.astype(np.float32) * np.float32(0.5))
    rev = warps(half)[:, ::-1].ravel()
    print(rev[:6], rev[60:66])
    y = (np.arange(512, dtype=np.int64) * 5) % 17 - 8
    out = np.cumsum(y.reshape(2, 256), axis=1).ravel()
    print(out[::37])
    print(out[255], out[511])


if __name__ == "__main__":
    {"sum": expect_sum, "ballot": expect_ballot, "scan": expect_scan}[sys.argv[1]]()
