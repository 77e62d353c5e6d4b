"""collections.namedtuple values: results come back as instances of their class, as Numba boxes a NamedTuple.

kjit_tuple_name (C API, since 0.5) names a tuple result's namedtuple class; the classes are those the compiled
units read (registered by _source.build_unit), by their typename. Arguments are bound in a wrapper that builds
the instance in compiled code (_funcargs.py)."""

import ctypes

from ._lib import lib

_classes = {}  # typename -> the class last compiled under that name

_tuple_name = getattr(lib, "kjit_tuple_name", None)
if _tuple_name is not None:
    _tuple_name.restype = ctypes.c_char_p
    _tuple_name.argtypes = [ctypes.c_void_p]


def is_class(v):
    return isinstance(v, type) and issubclass(v, tuple) and hasattr(v, "_fields")


def is_instance(v):
    return isinstance(v, tuple) and hasattr(type(v), "_fields")


def register(cls):
    _classes[cls.__name__] = cls


def box(tuple_ptr, items):
    """The tuple result at tuple_ptr (its items converted): an instance of its namedtuple class, if any."""
    name = _tuple_name(tuple_ptr) if _tuple_name is not None else None
    cls = _classes.get(name.decode()) if name else None
    if cls is None or len(cls._fields) != len(items):
        return items
    return cls(*items)
