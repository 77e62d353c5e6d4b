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


def _tables_of(cols):
    """Look-up tables of the GF(2)-linear map whose image of bit b of the 128-bit state (s0 | s1 << 64) is cols[b]:
    for each byte k of the state and each of its 256 values, the image of that byte alone."""
    out = []
    for k in range(16):
        t = [0] * 256
        for v in range(1, 256):
            low = v & -v
            t[v] = t[v ^ low] ^ cols[8 * k + low.bit_length() - 1]
        out.append(t)
    return out


def _apply(tables, s):
    out = 0
    for k, t in enumerate(tables):
        out ^= t[(s >> (8 * k)) & 0xFF]
    return out


_POWERS = []  # _POWERS[k]: the tables of the jump applied 2**k times


def _power(k):
    """The jump is linear over GF(2): the tables of jump**(2**k), made by squaring."""
    if not _POWERS:
        cols = []
        for b in range(128):
            a0, a1 = _jump_slow((1 << b) & _M64, (1 << b) >> 64)
            cols.append(a0 | a1 << 64)
        _POWERS.append(_tables_of(cols))
    while len(_POWERS) <= k:
        t = _POWERS[-1]
        _POWERS.append(_tables_of([_apply(t, _apply(t, 1 << b)) for b in range(128)]))
    return _POWERS[k]


_SPLIT = {}  # id of a _POWERS entry -> its tables as two (16, 256) uint64 arrays (s0 and s1 words)


def _apply_all(tables, lo, hi):
    """The map of `tables` (a _POWERS entry) applied to many states at once (lo, hi: their s0 and s1 words)."""
    if id(tables) not in _SPLIT:
        _SPLIT[id(tables)] = (np.array([[x & _M64 for x in t] for t in tables], dtype=np.uint64),
                              np.array([[x >> 64 for x in t] for t in tables], dtype=np.uint64))
    t_lo, t_hi = _SPLIT[id(tables)]
    out_lo, out_hi = np.zeros_like(lo), np.zeros_like(hi)
    for k in range(16):
        byte = ((lo if k < 8 else hi) >> np.uint64(8 * (k % 8))) & np.uint64(0xFF)
        byte = byte.astype(np.intp)
        out_lo ^= t_lo[k][byte]
        out_hi ^= t_hi[k][byte]
    return out_lo, out_hi


def _seed_state(seed):
    z = (seed + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return z | z << 64


def _fill(words, seed, subsequence_start):
    """State i is state 0 jumped i times: states [m, 2m) are states [0, m) jumped m times, a map applied to all
    of them at once (log2(n) rounds of NumPy look-ups)."""
    n = words.shape[0]
    subsequence_start = int(subsequence_start)
    if subsequence_start < 0:
        raise OverflowError(f"can't convert negative subsequence_start {subsequence_start} to uint64")
    if n < 1:
        return
    s = _seed_state(int(seed) & _M64)
    for k in range(min(subsequence_start, _M64).bit_length()):  # subsequence_start jumps
        if subsequence_start >> k & 1:
            s = _apply(_power(k), s)
    lo, hi = np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.uint64)
    lo[0], hi[0] = s & _M64, s >> 64
    m, k = 1, 0
    while m < n:
        c = min(m, n - m)
        lo[m:m + c], hi[m:m + c] = _apply_all(_power(k), lo[:c], hi[:c])
        m, k = 2 * m, k + 1
    words[:, 0], words[:, 1] = lo, hi


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
