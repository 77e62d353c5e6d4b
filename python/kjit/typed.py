"""numba.typed for kjit: List and Dict for host code.

Dict is a numba.typed.Dict: a dict with a key and a value type (given to Dict.empty, else those of its first
entry), which converts what is stored to them and prints as Numba prints it ({a: 1}). It passes to compiled
code, which works on a dict of its own made of the entries; the entries the code leaves are written back into
this one after the call (_values_dict.py), so that the caller sees the code's changes, as with Numba. A dict
compiled code returns is one of these. List is a Python list with an item type (List below)."""

import numpy as np

from . import types as _types


class List(list):
    """numba.typed.List: a list with an item type (given to empty_list, else that of its first item), which
    converts what is stored to it (2 appended to a float64 list is 2.0), as Numba's typed list does. It passes
    to compiled code as a list of that type, an empty one too (_values_list.py), and takes the code's changes
    back in place."""

    def __init__(self, iterable=()):
        super().__init__()
        self._item_type = None
        self.extend(iterable)

    @classmethod
    def empty_list(cls, item_type=None, allocated=0):
        lst = cls()
        lst._item_type = item_type
        return lst

    @property
    def item_type(self):
        return self._item_type

    def _conv(self, x):
        if self._item_type is None:
            self._item_type = typeof(x)
        return cast(self._item_type, x)

    def append(self, x):
        super().append(self._conv(x))

    def insert(self, i, x):
        super().insert(i, self._conv(x))

    def extend(self, iterable):
        for x in list(iterable):
            self.append(x)

    def __setitem__(self, i, x):
        if isinstance(i, slice):
            super().__setitem__(i, [self._conv(y) for y in x])
        else:
            super().__setitem__(i, self._conv(x))

    def __iadd__(self, other):
        self.extend(other)
        return self

    def copy(self):
        c = List.empty_list(self._item_type)
        c.extend(self)
        return c


def typeof(x):
    """Numba's typeof for what a typed.Dict holds."""
    if isinstance(x, (bool, np.bool_)):
        return _types.boolean
    if isinstance(x, int):
        return _types.int64
    if isinstance(x, float):
        return _types.float64
    if isinstance(x, str):
        return _types.unicode_type
    if isinstance(x, np.generic) and hasattr(_types, str(x.dtype)):
        return getattr(_types, str(x.dtype))
    if isinstance(x, tuple):
        ts = [typeof(i) for i in x]
        if ts and all(t == ts[0] for t in ts):
            return _types.UniTuple(ts[0], len(ts))
        return _types.Tuple(ts)
    if isinstance(x, np.ndarray) and hasattr(_types, str(x.dtype)):
        return _types.Array(getattr(_types, str(x.dtype)), x.ndim, "C" if x.flags.c_contiguous else "A")
    # anything else (a nested Dict, a list, None): stored as it is; such a dict does not pass to compiled code
    return _types.Type(f"pyobject({type(x).__name__})")


def cast(t, x):
    """x as a value of type t, as Numba converts what a typed container stores."""
    if isinstance(t, _types.BaseTuple) and isinstance(x, tuple) and len(x) == len(t.types):
        return tuple(cast(u, i) for u, i in zip(t.types, x))
    if isinstance(t, _types.Array) or t.dtype is None:
        return x
    kind = t.dtype.kind
    if kind == "b":
        return bool(x)
    if kind in "iu" and isinstance(x, (int, np.integer)):
        return int(x)
    if kind == "f" and isinstance(x, (int, float, np.integer, np.floating)):
        return float(x)
    return x


class Dict(dict):
    """numba.typed.Dict."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self._kjit_types = None
        if args or kwargs:
            self.update(*args, **kwargs)

    @classmethod
    def empty(cls, key_type=None, value_type=None, n_keys=0):
        d = cls()
        if key_type is not None and value_type is not None:
            d._kjit_types = (key_type, value_type)
        return d

    @property
    def _dict_type(self):
        kt, vt = self._kjit_types or ("undefined", "undefined")
        return f"DictType[{kt},{vt}]"

    def __setitem__(self, key, value):
        if self._kjit_types is None:
            self._kjit_types = (typeof(key), typeof(value))
        kt, vt = self._kjit_types
        super().__setitem__(cast(kt, key), cast(vt, value))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *args, **kwargs):
        for k, v in dict(*args, **kwargs).items():
            self[k] = v

    def copy(self):
        d = Dict()
        d._kjit_types = self._kjit_types
        d.update(self)
        return d

    def __str__(self):
        return "{" + ", ".join(f"{k}: {v}" for k, v in self.items()) + "}"

    def __repr__(self):
        return f"{self._dict_type}<iv=None>({self})"
