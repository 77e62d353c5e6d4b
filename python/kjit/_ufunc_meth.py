"""The NumPy ufunc methods of a @vectorize dispatcher from Python (Numba's DUFunc hands them to NumPy):
at, accumulate, outer, reduceat, and the loops of a dynamic ufunc (.types / .ntypes as calls add them).

at, accumulate and outer run in compiled code, through @njit wrappers in the unit (kjit compiles
f.at / f.accumulate / f.outer: src/ir/infer_ufunc_meth.c); what those take narrower than NumPy (at's index
of any form, accumulate's axis as a value) is brought to their form here first, with NumPy's own errors
(an index out of bounds, values of the wrong shape) raised before anything is written, as NumPy's at does."""

import numpy as np

from ._source import Piece

AXES = (0, 1, 2, 3, -1, -2, -3, None)


def _suffix(axis):
    return "none" if axis is None else ("m" + str(-axis) if axis < 0 else str(axis))


def _wrapper(name, params, body):
    return Piece(f"@_kjit_numba.njit\ndef {name}({', '.join(params)}):\n    {body}\n", None, 0)


def pieces(n, nin):
    """The wrappers of ufunc n's methods (kjit compiles each for the types of its first call only)."""
    if nin == 1:
        return [_wrapper(f"_kjit_at_{n}", ["a", "i"], f"{n}.at(a, i)")]
    if nin != 2:
        return []
    out = [_wrapper(f"_kjit_at_{n}", ["a", "i", "b"], f"{n}.at(a, i, b)"),
           _wrapper(f"_kjit_outer_{n}", ["a", "b"], f"return {n}.outer(a, b)")]
    for axis in AXES:  # kjit's accumulate axis is a constant: one wrapper each
        out.append(_wrapper(f"_kjit_accumulate_{n}_{_suffix(axis)}", ["a"], f"return {n}.accumulate(a, axis={axis})"))
    return out


def _binary(uf, what):
    if uf.nin != 2:
        raise ValueError(f"{what} only supported for binary functions")


def at(uf, a, indices, b=None):
    """ufunc.at(a, indices, b=None): a[i] = f(a[i], b[k]) for each k, unbuffered (a repeated index applies f
    again). Any index NumPy takes: it becomes flat positions in a (NumPy's IndexError for a bad one), b is
    broadcast to them (NumPy's ValueError), then compiled code applies f along them."""
    if uf.nin > 2:
        raise ValueError("Only unary and binary ufuncs supported at this time")
    if not isinstance(a, np.ndarray):
        raise TypeError("first operand must be array")
    if (b is None) != (uf.nin == 1):
        raise ValueError("second operand needed for ufunc" if b is None else "second operand provided when ufunc is unary")
    pos = np.arange(a.size, dtype=np.intp).reshape(a.shape)[indices]
    shape = np.shape(pos)
    pos = np.ravel(pos)
    flat = a.reshape(-1)
    inplace = np.shares_memory(flat, a)
    uf._ready()
    name = f"_kjit_at_{uf.kjit_name}"
    if b is None:
        uf._call(name, (flat, pos))
    else:
        vals = np.asarray(b)
        vals = np.ravel(np.broadcast_to(vals, shape)) if vals.ndim else vals[()]
        uf._call(name, (flat, pos, vals))
    if not inplace:
        a[...] = flat.reshape(a.shape)


def accumulate(uf, array, axis=0, dtype=None, out=None):
    """ufunc.accumulate(array, axis=0, out=None): the running f along the axis."""
    _binary(uf, "accumulate")
    if dtype is not None:
        raise NotImplementedError("kjit: ufunc.accumulate from Python takes no dtype")
    a = np.asarray(array)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if axis is not None and not isinstance(axis, (int, np.integer)):
        raise TypeError("an integer is required (got type " + type(axis).__name__ + ")")
    if axis is not None and not -a.ndim <= axis < a.ndim:
        raise np.AxisError(int(axis), a.ndim)
    if axis is None and a.ndim != 1:
        raise ValueError("accumulate does not allow multiple axes")
    if axis is not None and axis not in AXES:
        axis = axis - a.ndim if axis >= 0 else axis  # an axis past 3 by its negative form
        if axis not in AXES:
            raise NotImplementedError(f"kjit: ufunc.accumulate along axis {axis} of a {a.ndim}-d array")
    uf._ready()
    r = uf._call(f"_kjit_accumulate_{uf.kjit_name}_{_suffix(axis)}", (a,))
    if out is not None:
        out[...] = r
        return out
    return r


def outer(uf, a, b):
    """ufunc.outer(a, b): out[i..., j...] = f(a[i...], b[j...])."""
    _binary(uf, "outer product")
    uf._ready()
    return uf._scalar(uf._call(f"_kjit_outer_{uf.kjit_name}", (np.asarray(a), np.asarray(b)), raw=True))


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    """ufunc.reduceat(array, indices, axis=0): f reduced over array[indices[k]:indices[k+1]] along the axis
    (the single item array[indices[k]] where indices[k] >= indices[k+1]; the rest of the axis for the last),
    each reduction compiled code's reduce."""
    _binary(uf, "reduceat")
    if dtype is not None:
        raise NotImplementedError("kjit: ufunc.reduceat from Python takes no dtype")
    a = np.asarray(array)
    idx = np.asarray(indices)
    if idx.ndim != 1 or idx.dtype.kind not in "iu":
        raise TypeError("Cannot cast array data from dtype('float64') to dtype('int64') according to the rule "
                        "'safe'" if idx.dtype.kind == "f" else "index must be a 1-d array of integers")
    ax = axis + a.ndim if axis < 0 else axis
    if not 0 <= ax < a.ndim:
        raise np.AxisError(int(axis), a.ndim)
    n = a.shape[ax]
    parts = []
    for k, i in enumerate(idx):
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {uf.__name__}.reduceat [0, {n})")
        j = idx[k + 1] if k + 1 < len(idx) else n
        if k + 1 < len(idx) and not 0 <= j < n:
            raise IndexError(f"index {j} out-of-bounds in {uf.__name__}.reduceat [0, {n})")
        piece = np.take(a, range(i, j) if i < j else [i], axis=ax)
        parts.append(np.asarray(uf.reduce(piece, axis=ax)))
    r = np.stack(parts, axis=ax) if parts else np.empty(a.shape[:ax] + (0,) + a.shape[ax + 1:], a.dtype)
    if out is not None:
        out[...] = r
        return out
    return r


# --- dynamic ufuncs: the loops the calls compiled (Numba's DUFunc) ---

def _dtype_of(x):
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, bool):
        return np.dtype(np.bool_)
    if isinstance(x, int):
        return np.dtype(np.int64)
    if isinstance(x, float):
        return np.dtype(np.float64)
    if isinstance(x, complex):
        return np.dtype(np.complex128)
    if hasattr(x, "dtype"):
        return np.dtype(x.dtype)
    return None


def _cast(x, dt):
    if isinstance(x, np.ndarray):
        return x if x.dtype == dt else x.astype(dt)
    return dt.type(x)


def loop_for(loops, args, nin):
    """(the loop of `loops` that takes the arguments' types safely, the arguments cast to it), as NumPy's
    type resolution picks it (the first such loop), or (None, args) when none does."""
    dts = [_dtype_of(x) for x in args[:nin]]
    if any(d is None for d in dts):
        return None, args
    for loop in loops:
        ins = [np.dtype(c) for c in loop.split("->")[0]]
        if all(np.can_cast(d, t, "safe") for d, t in zip(dts, ins)):
            cast = tuple(_cast(x, t) if isinstance(x, (np.ndarray, np.generic)) or d != t else x
                         for x, d, t in zip(args[:nin], dts, ins))
            return loop, cast + tuple(args[nin:])
        continue
    return None, args


def loop_name(args, results):
    """'ll->l' from the arguments and results of a call (None where a type is not NumPy's)."""
    ins = [_dtype_of(x) for x in args]
    outs = [_dtype_of(x) for x in results]
    if any(d is None for d in ins + outs):
        return None
    return "".join(d.char for d in ins) + "->" + "".join(d.char for d in outs)
