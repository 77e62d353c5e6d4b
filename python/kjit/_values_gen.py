"""Generators that @jit functions return (KJIT_VALUE_GENERATOR): a Python iterator whose next() resumes the
compiled body through kjit_generator_next; StopIteration at its end, an exception from the body as kjit_call's
errors are (the unit's raise_error)."""

import ctypes
import types

from . import _lib
from ._lib import lib, Value


def is_generator(o):
    """A generator object: Python's, or one a @jit function returned."""
    return isinstance(o, (Generator, types.GeneratorType))


class Generator:
    """What calling a @jit generator function gives, as Numba's generator objects: iterate it, next() it."""

    __slots__ = ("_v", "_keep", "_unit", "_to_python", "__weakref__")

    def __init__(self, v, keep, unit, to_python):
        self._v = Value(v.kind, v.dtype)
        self._v.v.p = v.v.p
        v.kind = _lib.VALUE_NONE  # ours now: the caller's kjit_value_release must not free it
        self._keep = keep  # the arguments' objects: the generator's frame reads their memory
        self._unit, self._to_python = unit, to_python

    def __iter__(self):
        return self

    def __next__(self):
        if self._v is None:
            raise StopIteration
        out, done, err = Value(), ctypes.c_bool(), _lib.Error()
        code = lib.kjit_generator_next(ctypes.byref(self._v), ctypes.byref(out), ctypes.byref(done),
                                       ctypes.byref(err))
        if code:
            self.close()
            if self._unit is not None:
                self._unit.raise_error(code, err)
            from ._exc import from_error
            raise from_error(err)
        if done.value:
            self.close()
            raise StopIteration
        try:
            return self._to_python(out)
        finally:
            lib.kjit_value_release(ctypes.byref(out))

    def close(self, release=lib.kjit_value_release, byref=ctypes.byref):
        """Release the frame and what the body made (as Python's close(): the generator is done). The
        functions are bound at definition: __del__ may run at interpreter exit, after module globals go."""
        if self._v is not None:
            release(byref(self._v))
            self._v = None
            self._keep = None

    def __del__(self):
        self.close()

    def __repr__(self):
        return f"<kjit generator object at {id(self):#x}>"
