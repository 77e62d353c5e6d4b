"""@vectorize and @guvectorize: kjit ufuncs, applied to arrays through an @njit wrapper in the unit
(kjit_call applies a ufunc to scalars only; the wrapper is compiled code that applies it to arrays)."""

import inspect

import numpy as np

from . import _ufunc_meth
from ._dispatch import Dispatcher
from ._source import Piece

_HEADER = Piece("import numba as _kjit_numba\n", None, 0)


def _wrapper(name, wrapper, params, body):
    return Piece(f"@_kjit_numba.njit\ndef {wrapper}({', '.join(params)}):\n    {body}\n", None, 0)


_AXES = (0, 1, 2, 3, -1, -2, -3, None)
_CHARS = {"bool": "?", "boolean": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "l", "uint8": "B",
          "uint16": "H", "uint32": "I", "uint64": "L", "float32": "f", "float64": "d", "intp": "l"}


def _reduce_name(n, axis):
    return f"_kjit_reduce_{n}_{'none' if axis is None else ('m' + str(-axis) if axis < 0 else axis)}"


def _type_chars(sig, nin=None):
    """NumPy's form of a loop's types: 'float64(float64, float64)' -> 'dd->d'; a gufunc's
    'void(float64[:], int64, float64[:])' with nin 2 -> 'dl->d'."""
    text = str(sig).replace(" ", "")
    ret, _, args = text.partition("(")
    chars = [_CHARS.get(a.split("[")[0].split("(")[-1].lower(), "?") for a in _split_args(args[:-1])]
    if nin is None:
        return "".join(chars) + "->" + _CHARS.get(ret, "?")
    return "".join(chars[:nin]) + "->" + "".join(chars[nin:])


def _split_args(text):
    """Top-level comma-separated items of 'float64[:,:],int64'."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch in "[(" and 1 or (ch in "])" and -1 or 0)
        cur += ch
    if cur:
        out.append(cur)
    return out


class UFuncDispatcher(Dispatcher):
    """@vectorize: a ufunc. Scalars call it directly, arrays through `_kjit_apply_NAME`."""

    def __init__(self, py_func, sigs, options):
        self.nin = len(inspect.signature(py_func).parameters)
        self.nout = 1
        self.nargs = self.nin + 1
        super().__init__(py_func, sigs, options)

    @property
    def ufunc(self):
        return self

    def extra_pieces(self):
        n = self.kjit_name
        ps = [f"a{i}" for i in range(self.nin)]
        out = super().extra_pieces() + [_HEADER, _wrapper(n, f"_kjit_apply_{n}", ps, f"return {n}({', '.join(ps)})")]
        if self.nin == 2:  # reduce along each axis kjit compiles (one wrapper each: kjit's axis is a constant)
            for axis in _AXES:
                out.append(_wrapper(n, _reduce_name(n, axis), ["a"], f"return {n}.reduce(a, axis={axis})"))
        return out + _ufunc_meth.pieces(n, self.nin)

    def decorator_text(self):
        sig = self._sig_text()
        opts = self._opts_text(["identity", "fastmath", "target"])
        return f"@_kjit_numba.vectorize({sig or ''}{opts if sig else opts.lstrip(', ')})"

    @property
    def identity(self):
        i = self.targetoptions.get("identity")
        return None if i == "reorderable" else i

    @property
    def types(self):
        if self._sigs is None:  # dynamic: the loops its calls compiled (_ufunc_meth.loop_for)
            return list(self.__dict__.get("_loops", ()))
        return [_type_chars(s) for s in self._sigs]

    @property
    def ntypes(self):
        return len(self.types)

    def at(self, a, indices, b=None):
        return _ufunc_meth.at(self, a, indices, b)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        return _ufunc_meth.accumulate(self, array, axis, dtype, out)

    def outer(self, a, b):
        return _ufunc_meth.outer(self, a, b)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        return _ufunc_meth.reduceat(self, array, indices, axis, dtype, out)

    def __call__(self, *args, **kwargs):
        if self._sigs is not None or kwargs or len(args) != self.nin:
            return self._apply(*args, **kwargs)
        # dynamic (Numba's DUFunc): a loop compiled before that takes the types safely, else a new one
        loops = self.__dict__.setdefault("_loops", [])
        loop, args = _ufunc_meth.loop_for(loops, args, self.nin)
        r = self._apply(*args)
        if loop is None:
            name = _ufunc_meth.loop_name(args, (r,))
            if name is not None and name not in loops:
                loops.append(name)
        return r

    def _apply(self, *args, **kwargs):
        if len(args) == self.nin + 1 and isinstance(args[-1], np.ndarray) and "out" not in kwargs:
            args, kwargs = args[:-1], dict(kwargs, out=args[-1])  # f(a, b, out): NumPy's positional output
        if kwargs.get("out") is not None and len(args) == self.nin:
            out = kwargs.pop("out")
            out[...] = self(*args)
            return out
        if kwargs:
            raise TypeError(f"kjit ufunc '{self.__name__}' takes no keyword arguments but out=")
        self._ready()
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional arguments but {len(args)} were given")
        if any(isinstance(a, (np.ndarray, list)) or hasattr(a, "_kjit_array") for a in args):
            args = tuple(np.asarray(a) if isinstance(a, list) else a for a in args)
            return self._scalar(self._call(f"_kjit_apply_{self.kjit_name}", args, raw=True))
        return self._scalar(self._call(self.kjit_name, args, raw=True))

    def reduce(self, a, axis=0, dtype=None, out=None):
        if self.nin != 2:
            raise ValueError("reduce only supported for binary functions")
        if axis not in _AXES or dtype is not None or out is not None:
            raise NotImplementedError(f"kjit: ufunc.reduce from Python takes axis in {_AXES}, no dtype or out")
        self._ready()
        return self._scalar(self._call(_reduce_name(self.kjit_name, axis), (np.asarray(a),), raw=True))

    def _scalar(self, r):
        """A ufunc's scalar result is a NumPy scalar of its type, as NumPy's ufuncs return."""
        if isinstance(r, tuple) and len(r) == 2 and isinstance(r[1], np.dtype):
            return r[1].type(r[0])
        return r


class GUFuncDispatcher(Dispatcher):
    """@guvectorize: called with every argument (outputs included) or with the inputs only."""

    def __init__(self, py_func, sigs, layout, options):
        self.layout = layout
        outs = layout.split("->")[1] if "->" in layout else ""
        self.nout = outs.count("(")
        self.nargs = len(inspect.signature(py_func).parameters)
        self.nin = self.nargs - self.nout
        super().__init__(py_func, sigs, options)

    def extra_pieces(self):
        n = self.kjit_name
        ps = [f"a{i}" for i in range(self.nargs)]
        ins = ps[:self.nin]
        return super().extra_pieces() + [
            _HEADER,
            _wrapper(n, f"_kjit_apply_{n}", ps, f"{n}({', '.join(ps)})"),
            _wrapper(n, f"_kjit_new_{n}", ins, f"return {n}({', '.join(ins)})"),
        ]

    @property
    def types(self):
        if self._sigs is None:  # dynamic: the loops its calls compiled
            return list(self.__dict__.get("_loops", ()))
        return [_type_chars(s, self.nin) for s in self._sigs]

    @property
    def ntypes(self):
        return len(self.types)

    identity = None

    def decorator_text(self):
        sig = self._sig_text()
        return f"@_kjit_numba.guvectorize({sig + ', ' if sig else ''}{self.layout!r})"

    def __call__(self, *args):
        if self._sigs is not None or len(args) not in (self.nin, self.nargs):
            return self._apply(*args)
        loops = self.__dict__.setdefault("_loops", [])
        loop, cast = _ufunc_meth.loop_for(loops, args, self.nin)
        if loop is not None and len(args) == self.nin:
            args = cast  # outputs given: kjit writes them in their own types, the inputs as they are
        r = self._apply(*args)
        if loop is None:
            name = _ufunc_meth.loop_name(args[:self.nin], args[self.nin:] if len(args) == self.nargs else
                                         (r if isinstance(r, tuple) else (r,)))
            if name is not None and name not in loops:
                loops.append(name)
        return r

    def _apply(self, *args):
        self._ready()
        if len(args) == self.nargs:
            self._call(f"_kjit_apply_{self.kjit_name}", args)
            return None
        if len(args) == self.nin:
            return self._call(f"_kjit_new_{self.kjit_name}", args)
        raise TypeError(f"{self.__name__}() takes {self.nin} or {self.nargs} arguments but {len(args)} were given")
