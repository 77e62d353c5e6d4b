"""Python lists and sets as kjit_list arguments (KJIT_VALUE_LIST, KJIT_VALUE_SET: Numba's reflected list and
set) and kjit_list results back as Python lists and sets.

An argument is checked as Numba's typeof and unboxing check it (the same error classes and wording): an empty
one cannot be typed, the items must have one type (the first item's), and a list or set inside a list or set
cannot be reflected. After the call, a top-level list or set that the compiled code changed (kjit_list.owned:
the C API wrote its new items) is updated in place, the same Python object, as Numba reflects it; NumPy arrays
among the new items that are the arguments' own come back as those very objects."""

import ctypes

import numpy as np

from . import _lib
from ._lib import lib, Value, List


def numba_name(o):
    """Numba's name of typeof(o), for its error messages (int64, unicode_type, array(float64, 1d, C), ...)."""
    if isinstance(o, (bool, np.bool_)):
        return "bool"
    if isinstance(o, int):
        return "int64"
    if isinstance(o, float):
        return "float64"
    if isinstance(o, complex):
        return "complex128"
    if isinstance(o, str):
        return "unicode_type"
    if o is None:
        return "none"
    if isinstance(o, np.generic):
        return str(o.dtype)
    if isinstance(o, np.ndarray):
        layout = "C" if o.flags.c_contiguous else "F" if o.flags.f_contiguous else "A"
        return f"array({o.dtype}, {o.ndim}d, {layout}{'' if o.flags.writeable else ', readonly'})"
    if isinstance(o, tuple):
        names = [numba_name(x) for x in o]
        if names and all(n == names[0] for n in names):
            return f"UniTuple({names[0]} x {len(names)})"
        return "Tuple(" + ", ".join(names) + ")"
    if isinstance(o, (list, set)):
        kind = "list" if isinstance(o, list) else "set"
        inner = numba_name(next(iter(o))) if o else "undefined"
        return f"reflected {kind}({inner})<iv=None>"
    return "pyobject"


def check(o):
    """Numba's errors for a list or set it cannot pass: empty, of items of several types, of lists or sets."""
    kind = "list" if isinstance(o, list) else "set"
    if not o:
        raise ValueError(f"cannot compute fingerprint of empty {kind}")
    first = next(iter(o))
    if isinstance(first, (list, set)):
        raise TypeError(f"cannot reflect element of reflected container: {numba_name(o)}")
    want = numba_name(first)
    for x in o:
        got = numba_name(x)
        if got != want:
            raise TypeError(f"can't unbox heterogeneous list: {want} != {got}" if kind == "list"
                            else "can't unbox heterogeneous set")


# an example item of a numba type's kind, for an empty typed.List (the C API types an empty list by items[0])
_EXAMPLES = {"int64": 0, "float64": 0.0, "boolean": False, "bool": False, "unicode_type": ""}


def _example(o):
    t = getattr(o, "item_type", None) if not o else None
    return _EXAMPLES.get(str(t)) if t is not None else None


def set_value(args, v, o, i, top):
    """Fill kjit_value v with list or set o (argument i); a top-level one is noted for reflection. An empty
    typed.List of a known item type passes with an example item (n 0)."""
    example = _example(o)
    if example is None:
        check(o)
    seq = list(o)
    items = (Value * max(len(seq), 1))()
    for j, x in enumerate(seq):
        args._set(items[j], x, i)
    if example is not None:
        args._set(items[0], example, i)
    lst = List(len(seq), ctypes.cast(items, ctypes.POINTER(Value)), False, 0)
    args.keep += [items, lst, seq]
    v.kind = _lib.VALUE_LIST if isinstance(o, list) else _lib.VALUE_SET
    v.v.p = ctypes.addressof(lst)
    if top:
        args.lists.append((i, o, lst))


class ArgLists:
    """Kept with a call's objects (Args.keep): argument index -> its list or set, for results that are one of
    them (kjit_list.from_arg: Numba returns that very object)."""

    def __init__(self, by_index):
        self.by_index = by_index


def _item(v, arrays, keep):
    """An item of a reflected list: an argument's own array as that object, else converted."""
    from ._values import to_python
    if v.kind == _lib.VALUE_ARRAY and v.v.p in arrays:
        return arrays[v.v.p]  # the kjit_array stays in the item: kjit_list_release frees that reference
    return to_python(v, keep)


def reflect(args, lists):
    """After the call (also one that raised): each list or set argument that kjit reflected into, updated in
    place from its new items."""
    arrays = dict(args.arrays_by_ptr)
    for _, o, lst in lists:
        if not lst.owned:
            continue
        try:
            new = [_item(lst.items[j], arrays, args.keep) for j in range(lst.n)]
        finally:
            lib.kjit_list_release(ctypes.addressof(lst))
        if isinstance(o, list):
            o[:] = new
        else:
            o.clear()
            o.update(new)
    args.keep.append(ArgLists({i: o for i, o, _ in lists}))


def to_python(v, keep):
    """A list or set result as a Python list or set (an argument's own one as that object)."""
    from ._values import to_python as item
    lst = ctypes.cast(v.v.p, ctypes.POINTER(List)).contents
    if lst.from_arg:
        for k in keep or ():
            if isinstance(k, ArgLists) and lst.from_arg - 1 in k.by_index:
                return k.by_index[lst.from_arg - 1]
    items = [item(lst.items[j], keep) for j in range(lst.n)]
    return items if v.kind == _lib.VALUE_LIST else set(items)
