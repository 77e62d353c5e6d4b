"""Exceptions raised by compiled code, made as CPython makes them: the class from the message's "Name: ",
the arguments as the raise gave them (kjit_error_exc_args, include/kjit.h), so that str(e), repr(e) and
e.args are CPython's: `raise ValueError("negative", 2)` arrives as ValueError('negative', 2), a KeyError with
its key ('missing', not "'missing'")."""

import ast
import builtins
import ctypes

import numpy as np

from . import _lib
from ._lib import lib

UNKNOWN, NONE, STR, REPR, TUPLE = range(5)


def _literal(text):
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _args(rest, form):
    """The exception's arguments from str() of it, or None where they cannot be had back (then the
    message is the one argument, as before)."""
    if form == NONE:
        return ()
    if form == REPR:
        ok, v = _literal(rest)
        return (v,) if ok else None
    if form == TUPLE:
        ok, v = _literal(rest)
        return v if ok and isinstance(v, tuple) else None
    return None


def runtime_exception(message, form=UNKNOWN):
    """The Python exception an error raised in compiled code stands for ("IndexError: ...")."""
    name, sep, rest = message.partition(": ")
    if not sep:
        name, rest = message, ""
    cls = np.AxisError if name == "AxisError" else getattr(builtins, name, None)  # NumPy's: axis= arguments
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        return RuntimeError(message)
    args = _args(rest, form)
    if args is None:
        return cls(rest) if sep or form == STR else cls()
    return cls(*args)


def from_error(err):
    """The exception of a kjit_error (a run-time error)."""
    return runtime_exception(err.message.decode("utf-8", "replace"), lib.kjit_error_exc_args(ctypes.byref(err)))


def error_of(r):
    """The kjit_error of a C call path's (status, message, file, line, col): the message's whole buffer copied
    (ctypes' constructor stops at its NUL, and kjit_error_exc_args reads past it)."""
    err = _lib.Error(r[0], b"", r[2], r[3], r[4])
    msg = r[1][:_MESSAGE_SIZE]
    ctypes.memmove(ctypes.addressof(err) + _lib.Error.message.offset, msg, len(msg))
    return err


_MESSAGE_SIZE = _lib.Error.message.size
