"""numba.cuda.random for the package (kjit.cuda.random, `numba.cuda.random` under `python3 -m kjit`): numba-cuda's
xoroshiro128+ generators. The states are made on the host as numba-cuda makes them (random.py,
init_xoroshiro128p_states_cpu; kjit's compiled host code does the same in src/runtime/cuda_random.c): state 0 from
the seed by SplitMix64, jumped `subsequence_start` times by 2**64 steps, each next state the one before jumped
once more. The generator functions are called in kernels, which kjit compiles (docs/cuda.md "Random numbers").

A states array is stored as kjit's kernels take it, an (n, 2) uint64 array (s0, s1 of each generator in a row),
and shows what numba-cuda's 1-d array of xoroshiro128p_dtype records shows: shape (n,), strides (16,)."""

import numpy as np

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
xoroshiro128p_type = None  # numba-cuda's Numba type of a record; kjit's kernels type states themselves

_M64 = (1 << 64) - 1
_JUMP = (0xbeac0467eba5facb, 0xd86b048b86aa9922)


def _next(s0, s1):
    s1 ^= s0
    return (((s0 << 55) | (s0 >> 9)) & _M64) ^ s1 ^ ((s1 << 14) & _M64), ((s1 << 36) | (s1 >> 28)) & _M64


def _jump_slow(s0, s1):
    a0 = a1 = 0
    for word in _JUMP:
        for b in range(64):
            if word >> b & 1:
                a0 ^= s0
                a1 ^= s1
            s0, s1 = _next(s0, s1)
    return a0, a1


_TABLES = []


def _tables():
    """The jump is linear over GF(2): for each byte k of the 128-bit state (s0 | s1 << 64) and each of its 256
    values, the jumped state of that byte alone; a jump is then the XOR of 16 look-ups."""
    if not _TABLES:
        cols = []
        for b in range(128):
            a0, a1 = _jump_slow((1 << b) & _M64, (1 << b) >> 64)
            cols.append(a0 | a1 << 64)
        for k in range(16):
            t = [0] * 256
            for v in range(1, 256):
                low = v & -v
                t[v] = t[v ^ low] ^ cols[8 * k + low.bit_length() - 1]
            _TABLES.append(t)
    return _TABLES


def _jump(s):
    out = 0
    for k, t in enumerate(_tables()):
        out ^= t[(s >> (8 * k)) & 0xFF]
    return out


def _seed_state(seed):
    z = (seed + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return z | z << 64


def _fill(words, seed, subsequence_start):
    n = words.shape[0]
    if subsequence_start < 0:
        raise OverflowError(f"can't convert negative subsequence_start {subsequence_start} to uint64")
    if n < 1:
        return
    s = _seed_state(int(seed) & _M64)
    for _ in range(int(subsequence_start)):
        s = _jump(s)
    flat = [0] * (2 * n)
    for i in range(n):
        if i:
            s = _jump(s)
        flat[2 * i], flat[2 * i + 1] = s & _M64, s >> 64
    words[...] = np.array(flat, dtype=np.uint64).reshape(n, 2)


def _states_array(shape):
    """cuda.device_array(n, dtype=xoroshiro128p_dtype): zeroed states for init_xoroshiro128p_states."""
    from .cuda import DeviceNDArray
    if isinstance(shape, tuple) and len(shape) == 1:
        shape = shape[0]
    if not isinstance(shape, (int, np.integer)):
        raise ValueError(f"kjit: an array of xoroshiro128p_dtype states is 1-d (n or (n,)), not {shape!r}")
    n = int(shape)
    host = np.zeros((n, 2), dtype=np.uint64)
    return DeviceNDArray(None, None, _host=host, _meta=((n,), xoroshiro128p_dtype, (16,), True, True))


def _words(states):
    """The (n, 2) uint64 host words of a states array, made current for writing."""
    if getattr(states, "_meta", None) is None or states._meta[1] != xoroshiro128p_dtype:
        raise TypeError("init_xoroshiro128p_states: states must be an array made by create_xoroshiro128p_states "
                        "or cuda.device_array(n, dtype=xoroshiro128p_dtype)")
    return states._sync_host()


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Initialise the states in place (numba-cuda's init_xoroshiro128p_states)."""
    _fill(_words(states), seed, subsequence_start)
    states._release_host()


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """n generator states on the device (numba-cuda's create_xoroshiro128p_states)."""
    if n < 0:
        raise ValueError(f"create_xoroshiro128p_states: n must be non-negative, not {n}")
    states = _states_array(int(n))
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


def _kernel_only(name):
    def f(*args, **kwargs):
        from .errors import KjitUsageError
        raise KjitUsageError(f"cuda.random.{name} is only available inside a kernel compiled by kjit")
    f.__name__ = name
    return f


for _n in ("xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64", "xoroshiro128p_normal_float32",
           "xoroshiro128p_normal_float64", "xoroshiro128p_next", "xoroshiro128p_jump", "init_xoroshiro128p_state"):
    globals()[_n] = _kernel_only(_n)
del _n
