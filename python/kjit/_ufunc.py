"""@vectorize and @guvectorize: kjit ufuncs, applied to arrays through an @njit wrapper in the unit
(kjit_call applies a ufunc to scalars only; the wrapper is compiled code that applies it to arrays)."""

import inspect

import numpy as np

from ._dispatch import Dispatcher
from ._source import Piece

_HEADER = Piece("import numba as _kjit_numba\n", None, 0)


def _wrapper(name, wrapper, params, body):
    return Piece(f"@_kjit_numba.njit\ndef {wrapper}({', '.join(params)}):\n    {body}\n", None, 0)


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
        return super().extra_pieces() + [
            _HEADER,
            _wrapper(n, f"_kjit_apply_{n}", ps, f"return {n}({', '.join(ps)})"),
            _wrapper(n, f"_kjit_reduce_{n}", ["a"], f"return {n}.reduce(a)"),
        ]

    def __call__(self, *args, **kwargs):
        if kwargs.get("out") is not None and len(args) == self.nin:
            out = kwargs.pop("out")
            out[...] = self(*args)
            return out
        if kwargs:
            raise TypeError(f"kjit ufunc '{self.__name__}' takes no keyword arguments but out=")
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional arguments but {len(args)} were given")
        if any(isinstance(a, (np.ndarray, list)) or hasattr(a, "_kjit_array") for a in args):
            args = tuple(np.asarray(a) if isinstance(a, list) else a for a in args)
            return self._call(f"_kjit_apply_{self.kjit_name}", args)
        return self._call(self.kjit_name, args)

    def reduce(self, a, axis=0):
        if axis != 0:
            raise NotImplementedError("kjit: ufunc.reduce from Python takes axis=0 only")
        return self._call(f"_kjit_reduce_{self.kjit_name}", (np.asarray(a),))


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

    def __call__(self, *args):
        if len(args) == self.nargs:
            self._call(f"_kjit_apply_{self.kjit_name}", args)
            return None
        if len(args) == self.nin:
            return self._call(f"_kjit_new_{self.kjit_name}", args)
        raise TypeError(f"{self.__name__}() takes {self.nin} or {self.nargs} arguments but {len(args)} were given")
