"""np.random.Generator arguments (KJIT_VALUE_RNG), as Numba passes them: by reference. Compiled code draws from
a kjit_rng holding the bit generator's PCG64 state and advances it in place; after the call the state is
written back to the Generator, so that a draw in Python continues the stream (numba/core/boxing.py: a Generator
argument shares its bit generator with the caller)."""

import ctypes

import numpy as np

from . import _lib
from .errors import TypingError

_M64 = (1 << 64) - 1


def is_generator(o):
    return isinstance(o, np.random.Generator)


def rng_value(o, i, keep, after):
    """The address of a kjit_rng (16-byte aligned) with o's state; `after` gets the write-back."""
    bg = o.bit_generator
    if not isinstance(bg, np.random.PCG64):
        raise TypingError(f"argument {i}: a numpy Generator over {type(bg).__name__} cannot be passed: kjit's "
                          f"compiled Generator is PCG64 (np.random.default_rng's)")
    st = bg.state
    buf = ctypes.create_string_buffer(ctypes.sizeof(_lib.Rng) + 32)
    addr = (ctypes.addressof(buf) + 15) & ~15
    r = _lib.Rng.from_address(addr)
    s, inc = st["state"]["state"], st["state"]["inc"]
    r.state_lo, r.state_hi, r.inc_lo, r.inc_hi = s & _M64, s >> 64, inc & _M64, inc >> 64
    r.has_uint32, r.uinteger = bool(st["has_uint32"]), st["uinteger"]
    keep.append(buf)

    def write_back():
        bg.state = {"bit_generator": "PCG64",
                    "state": {"state": r.state_lo | (r.state_hi << 64), "inc": r.inc_lo | (r.inc_hi << 64)},
                    "has_uint32": int(r.has_uint32), "uinteger": r.uinteger}
    after.append(write_back)
    return addr
