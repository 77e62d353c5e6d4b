"""Read-only NumPy arguments (issue 27 point 4). Numba types a read-only array as `readonly array(...)` and its
typing refuses any write to one ("Cannot modify readonly array"), at compile time. kjit passes arrays without
a copy, so a read-only array given to code that writes it is refused the same way before the call: kjit says
whether the specialisation for these argument types writes the argument (kjit_fn_writes_arg, the analysis
that refuses writes to frozen globals). The C call paths do not take read-only arrays; they come here."""

import ctypes

import numpy as np

from . import _lib
from ._lib import lib
from .errors import TypingError


def has_readonly(args):
    for a in args:
        if isinstance(a, np.ndarray) and not a.flags.writeable:
            return True
    return False


def _type_text(a):
    layout = "C" if a.flags.c_contiguous else "F" if a.flags.f_contiguous else "A"
    return f"readonly array({a.dtype}, {a.ndim}d, {layout})"


def check(fn, name, args, values, n, memo):
    """TypingError when fn (a kjit_fn*) writes one of the read-only arrays among args (values: their
    kjit_values). memo: {(index, types): bool} of the dispatcher, so that each type combination asks once."""
    types = tuple((type(a), a.dtype, a.ndim, a.flags.c_contiguous, a.flags.f_contiguous, a.flags.writeable)
                  if isinstance(a, np.ndarray) else type(a) for a in args)
    for i, a in enumerate(args):
        if not isinstance(a, np.ndarray) or a.flags.writeable:
            continue
        key = (i, types)
        writes = memo.get(key)
        if writes is None:
            out = ctypes.c_bool()
            err = _lib.Error()
            if lib.kjit_fn_writes_arg(fn, values, n, i, ctypes.byref(out), ctypes.byref(err)):
                return  # the call itself reports why these arguments do not compile
            writes = memo[key] = bool(out.value)
        if writes:
            raise TypingError(f"Cannot modify readonly array of type: {_type_text(a)} (argument {i} of "
                              f"'{name}' is a read-only NumPy array, and '{name}' writes it; pass a writable "
                              f"array or a copy: a.copy())")
