# The expected output of cuda_libdevice.k from CPython, NumPy and C's libm
# (through ctypes), as libdevice documents each function:
#   /usr/bin/python3 tests/golden/run/cuda_libdevice.ref.py > tests/golden/run/cuda_libdevice.expected
import ctypes
import ctypes.util
import struct

import numpy as np

m = ctypes.CDLL(ctypes.util.find_library("m"))
D, F, I = ctypes.c_double, ctypes.c_float, ctypes.c_int


def c(name, res, *args):
    fn = getattr(m, name)
    fn.restype = res
    fn.argtypes = [type(a) for a in args]
    return fn(*args)


f32 = np.float32
d = [0.75, 2.5, 7.25, 1.0, 2.0, 2.5]
f = [0.5, 3.0, 4.0, 1.5, -2.5]
ex, mn, rq = I(), D(), I()
sn, cs, sf, cf = D(), D(), F(), F()
c("sincos", None, D(d[0]), ctypes.pointer(sn), ctypes.pointer(cs))
c("sincosf", None, F(f[0]), ctypes.pointer(sf), ctypes.pointer(cf))
out = [
    c("sin", D, D(d[0])), c("cosf", F, F(f[0])), c("exp10", D, D(d[1])), c("lgamma", D, D(d[2])),
    c("j0", D, D(d[0])), np.nextafter(d[3], d[4]), c("ldexp", D, D(d[0]), I(3)), c("fmod", D, D(d[2]), D(d[0])),
    c("remainder", D, D(d[2]), D(d[0])), c("hypotf", F, F(f[1]), F(f[2])), c("erfc", D, D(d[0])),
    np.rint(d[5]), c("round", D, D(d[5])), 1.0, 0.0, c("expf", F, F(f[0])), d[0] + d[1],
    float(f32(f[1]) / f32(f[2])), np.sqrt(d[2]), c("fma", D, D(d[0]), D(d[1]), D(d[2])),
    c("pow", D, D(d[2]), D(5.0)), 1.0, float(f32(16777217)), 1.0, c("scalbnf", F, F(f[1]), I(-2)),
    c("cbrt", D, D(-d[2])), sn.value, cs.value,
    c("frexp", D, D(d[2]), ctypes.pointer(ex)), ex.value,
    c("modf", D, D(d[5]), ctypes.pointer(mn)), mn.value,
    c("remquo", D, D(d[2]), D(d[0]), ctypes.pointer(rq)), rq.value, sf.value, cf.value,
]
for k, v in enumerate(out):
    print(k, float(v))


def s32(v):
    return int(np.array(v & 0xFFFFFFFF, dtype=np.uint32).view(np.int32))


def s64(v):
    return int(np.array(v & (2**64 - 1), dtype=np.uint64).view(np.int64))


def brev(v, w):
    return int(format(v & (2**w - 1), f"0{w}b")[::-1], 2)


def ffs(v):
    return (v & -v).bit_length()


def b24(v, signed):
    v &= 0xFFFFFF
    return v - (1 << 24) if signed and v >= 1 << 23 else v


def perm(x, y, s):
    v = (y << 32) | x
    return sum(((v >> (8 * ((s >> (4 * k)) & 7))) & 0xFF) << (8 * k) for k in range(4))


i = [255, 1, 40, 0, -7, 1 << 30, 3 << 22, 0x33221100, 0x77665544, 0x4321]
l = [(1 << 40) - 1, 1, 1 << 36, -9, 1 << 62]
u = lambda v: v & 0xFFFFFFFF
ul = lambda v: v & (2**64 - 1)
o = [
    bin(i[0]).count("1"), bin(l[0]).count("1"), s32(brev(i[1], 32)), s64(brev(l[1], 64)), 31, 63,
    ffs(i[2]), ffs(l[2]), ffs(i[3]), abs(i[4]), abs(l[3]), min(i[4], i[0]), s32(min(u(i[4]), u(i[0]))),
    s64(max(ul(l[3]), ul(l[0]))), s32((i[5] * i[5]) >> 32), s32((u(i[4]) * u(i[4])) >> 32),
    s64((l[4] * l[4]) >> 64), s64((ul(l[3]) * ul(l[3])) >> 64), (i[5] + i[5]) >> 1, (i[0] + i[2] + 1) >> 1,
    s32((u(i[4]) + u(i[4])) >> 1), s32(abs(i[4] - i[0]) + i[2]), s32(abs(u(i[4]) - u(i[0])) + i[2]),
    s32(b24(i[6], True) * b24(i[2], True)), s32(b24(i[6], False) * b24(i[2], False)), perm(i[7], i[8], i[9]),
    int(np.rint(-2.5)), int(np.floor(-2.5)), int(np.ceil(-2.5)), int(np.trunc(-2.5)), int(np.rint(-2.5)),
    2**31 - 1,  # 1e20 saturates, as PTX's cvt.rzi.s32.f64
    0,  # NaN converts to 0
    0,  # -1.0 to unsigned saturates at 0
    s32(struct.unpack("<I", struct.pack("<f", 1.0))[0]),
    struct.unpack("<Q", struct.pack("<d", 3.0))[0] >> 32, struct.unpack("<Q", struct.pack("<d", 3.0))[0] & 0xFFFFFFFF,
    1, 1, 1, 0, c("ilogb", I, D(3.0)), c("llround", ctypes.c_longlong, D(-2.5)),
    struct.unpack("<q", struct.pack("<d", 3.0))[0],
]
for k, v in enumerate(o):
    print(k, v)
