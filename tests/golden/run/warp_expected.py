"""The expected output of the warp-operation programs (parallel_warp_*.k),
from NumPy: Numba 0.56's CUDA simulator has no warp operations, so
make_expected.sh calls this instead of running them. Each function computes
with NumPy, warp by warp (32 consecutive threads), what the kernels compute
with shuffles and votes, and prints it as the program's main() does.

    /usr/bin/python3 warp_expected.py NAME   (NAME: sum, ballot, scan, diverge, device)
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


def popc(m):
    return bin(m).count("1")


def expect_diverge():
    x = (np.arange(96, dtype=np.int64) * 5) % 23
    out = np.zeros(96, dtype=np.int64)
    for w in range(3):  # halves: each half's sum, the upper one of doubled values
        lo, hi = x[32 * w:32 * w + 16], x[32 * w + 16:32 * w + 32]
        out[32 * w:32 * w + 16] = lo.sum()
        out[32 * w + 16:32 * w + 32] = 2 * hi.sum()
    print(out[::8])
    for w in range(3):  # groups
        v = x[32 * w:32 * w + 32]
        g = np.empty(32, dtype=np.int64)
        g[:8] = v[7]
        g[8:16] = v[8:16] + v[np.arange(8, 16) ^ 4]
        g[16:31] = v[17:32]
        g[31] = v[31]
        out[32 * w:32 * w + 32] = g
    print(out[:40])
    print(out[80:])
    t = np.zeros(96, dtype=np.int64)
    for b in range(2):  # trips: blocks of 48, warps of 32 and 16 lanes
        for lo, n in ((0, 32), (32, 16)):
            lanes = np.arange(n)
            for lane in lanes:
                acc = 0
                for k in range(lane % 4 + 1):
                    act = lanes[lanes % 4 + 1 > k]
                    acc += len(act) * 100 + np.count_nonzero(act % 2 == 0)
                t[48 * b + lo + lane] = acc
    print(t[:8], t[32:40], t[44:52])
    ld = np.zeros(64, dtype=np.int64)
    for w in range(2):  # leader: iteration k runs the lanes with k <= lane % 5 + 1 and (lane + k) % 3 != 0
        lanes = np.arange(32)
        for k in range(1, 7):
            act = lanes[(k <= lanes % 5 + 1) & ((lanes + k) % 3 != 0)]
            if len(act):
                ld[32 * w + act] += x[32 * w + act.min()] * k
    print(ld)
    e = np.zeros(96, dtype=np.int64)
    for b in range(2):  # early: lanes with x % 7 == 3 return
        for lo, n in ((0, 32), (32, 16)):
            idx = 48 * b + lo + np.arange(n)
            run = idx[x[idx] % 7 != 3]
            lanes = run - 48 * b - lo
            val = len(run) * 1000 + np.count_nonzero(x[run] % 2 == 1) * 10 + int(np.all(lanes < 30))
            e[run] = val
    print(e)
    kp = np.arange(32, dtype=np.int64) + 100 * 1000  # keep: lanes 16.. keep d = 100
    pairs = np.arange(0, 16, 2)
    kp[pairs] = kp[pairs + 1] = 3 * 1000 + (2 * pairs + 1) * 8  # v doubles 4 times from the pair's sum
    print(kp)


def lowest(bits):
    """first_lane: the lowest index where bits holds, -1 when none."""
    where = np.flatnonzero(bits)
    return int(where[0]) if len(where) else -1


def expect_device():
    x = (np.arange(256, dtype=np.int64) * 3) % 11
    out = np.zeros((256, 4), dtype=np.int64)
    for w in range(8):
        v = x[32 * w:32 * w + 32]
        rows = slice(32 * w, 32 * w + 32)
        out[rows, 0] = v.sum()
        out[rows, 1] = lowest(v % 5 == 4)
        out[32 * w:32 * w + 16, 3] = lowest(v[:16] % 7 == 6)
        out[32 * w + 16:32 * w + 32, 3] = 16
    for b in range(2):
        out[128 * b:128 * b + 128, 2] = x[128 * b:128 * b + 128].sum()
    print(out[::8])
    print(out[:, 2].sum(), out[:, 1].sum())


if __name__ == "__main__":
    {"sum": expect_sum, "ballot": expect_ballot, "scan": expect_scan, "diverge": expect_diverge,
     "device": expect_device}[sys.argv[1]]()
