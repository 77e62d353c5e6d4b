"""typed.Dict arguments and results (KJIT_VALUE_DICT, include/kjit.h's kjit_dict).

An argument goes in as its entries and key/value types; after the call, the entries the compiled code left
(the kjit_dict's `after`) are written back into the same typed.Dict object. A result comes back as a
typed.Dict of its entries."""

import ctypes

import numpy as np

from . import _lib, types as _types
from ._lib import lib, Value, Tuple
from .errors import TypingError

_CODES = {n: i for i, n in enumerate(_lib.DTYPES)}


def _type_value(v, t, keep):
    """Fill Value v with the type value (kjit.h) of kjit type t."""
    if isinstance(t, _types.BaseTuple):
        items = (Value * max(len(t.types), 1))()
        for j, u in enumerate(t.types):
            _type_value(items[j], u, keep)
        tup = Tuple(len(t.types), ctypes.cast(items, ctypes.POINTER(Value)))
        keep += [items, tup]
        v.kind, v.v.p = _lib.VALUE_TUPLE, ctypes.addressof(tup)
    elif isinstance(t, _types.Array) and str(t.elem) in _CODES:
        v.kind, v.dtype, v.v.i = _lib.VALUE_ARRAY, _CODES[str(t.elem)], t.ndim
    elif t == _types.unicode_type:
        v.kind = _lib.VALUE_STR
    elif t.dtype is not None and t.dtype.name in _CODES:
        code = _CODES[t.dtype.name]
        v.kind = _lib.VALUE_BOOL if code == 0 else _lib.VALUE_INT if code <= 8 else _lib.VALUE_FLOAT
        v.dtype = code
    else:
        raise TypingError(f"a typed.Dict of {t} cannot be passed to compiled code")


def _kjit_type(v):
    """The kjit type object of type value v (a result's)."""
    if v.kind == _lib.VALUE_TUPLE:
        t = ctypes.cast(v.v.p, ctypes.POINTER(Tuple)).contents
        ts = [_kjit_type(t.items[j]) for j in range(t.n)]
        return _types.UniTuple(ts[0], len(ts)) if ts and all(x == ts[0] for x in ts) else _types.Tuple(ts)
    if v.kind == _lib.VALUE_STR:
        return _types.unicode_type
    name = "boolean" if v.kind == _lib.VALUE_BOOL else _lib.DTYPES[v.dtype]
    if v.kind == _lib.VALUE_ARRAY:
        return _types.Array(getattr(_types, _lib.DTYPES[v.dtype]), v.v.i, "A")
    return getattr(_types, name)


def arg(args, v, d, i):
    """Value v: the typed.Dict d (argument i) for Args `args`; noted for the write-back after the call."""
    if d._kjit_types is None:  # Numba's words for an untyped typed.Dict given to compiled code
        raise TypeError("invalid operation on untyped dictionary")
    n = len(d)
    keys, values = (Value * max(n, 1))(), (Value * max(n, 1))()
    for j, (k, x) in enumerate(d.items()):
        args._set(keys[j], k, i)
        args._set(values[j], x, i)
    s = _lib.Dict(n, ctypes.cast(keys, ctypes.POINTER(Value)), ctypes.cast(values, ctypes.POINTER(Value)))
    _type_value(s.key_type, d._kjit_types[0], args.keep)
    _type_value(s.value_type, d._kjit_types[1], args.keep)
    args.keep += [keys, values, s]
    args.dicts.append((d, s))
    v.kind, v.v.p = _lib.VALUE_DICT, ctypes.addressof(s)


def untyped(o, i):
    """Numba's TypingError for argument i, a Python dict or generator (Numba passes neither)."""
    kind = "generator" if not isinstance(o, dict) else "dict"
    return (f"non-precise type pyobject\nDuring: typing of argument {i}\n\nThis error may have been caused "
            f"by the following argument(s):\n- argument {i}: Cannot determine Numba type of <class '{kind}'>")


def _entries(s, to_python):
    return [(to_python(s.keys[j]), to_python(s.values[j])) for j in range(s.n)]


def write_back(args, to_python):
    """After a call: each typed.Dict argument given the entries the compiled code left."""
    for d, s in args.dicts:
        if not s.after:
            continue
        after = s.after.contents
        try:
            items = _entries(after, to_python)
        finally:
            lib.kjit_dict_free(ctypes.addressof(after))
            s.after = None
        dict.clear(d)
        for k, x in items:
            dict.__setitem__(d, k, x)
    args.dicts = []


def result(v, to_python):
    """A typed.Dict of the kjit_dict result v (its arrays ours now; the caller releases the rest)."""
    from .typed import Dict
    s = ctypes.cast(v.v.p, ctypes.POINTER(_lib.Dict)).contents
    d = Dict()
    d._kjit_types = (_kjit_type(s.key_type), _kjit_type(s.value_type))
    for k, x in _entries(s, to_python):
        dict.__setitem__(d, k, x)
    return d
