"""numba.types for kjit: the scalar types, array types and signatures, as objects for Python code.

Compiled code reads decorators and signatures from the source text, so these objects matter only where
Python itself uses them (a signature held in a variable, np.dtype(kjit.float32), printing)."""

import numpy as np


class Type:
    def __init__(self, name, dtype=None):
        self.name = name
        self.dtype = np.dtype(dtype) if dtype is not None else None

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Type) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1 and self.dtype is not None:
            return self.dtype.type(args[0])
        raise TypeError(f"{self.name}(...) takes types (a signature) or one value")

    def __getitem__(self, idx):
        idx = idx if isinstance(idx, tuple) else (idx,)
        layout = "A"
        if isinstance(idx[-1], slice) and idx[-1].step == 1:
            layout = "C"
        elif isinstance(idx[0], slice) and idx[0].step == 1 and len(idx) > 1:
            layout = "F"
        return Array(self, len(idx), layout)

    # NumPy: np.zeros(3, dtype=kjit.float32)
    @property
    def __numpy_dtype__(self):
        return self.dtype


class Array(Type):
    def __init__(self, dtype, ndim, layout="A", readonly=False):
        # Numba's spelling of the type in a signature string: float32[:, ::1]
        dims = [":"] * ndim
        if layout == "C":
            dims[-1] = "::1"
        elif layout == "F":
            dims[0] = "::1"
        super().__init__(f"{dtype}[{', '.join(dims)}]")
        self.elem, self.ndim, self.layout = dtype, ndim, layout


class Signature:
    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    def __repr__(self):
        return f"{self.return_type}({', '.join(map(str, self.args))})"


_SCALARS = {
    "boolean": "bool", "bool_": "bool", "b1": "bool",
    "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float32": "float32", "float64": "float64", "double": "float64", "f4": "float32", "f8": "float64",
    "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "u1": "uint8", "u2": "uint16",
    "u4": "uint32", "u8": "uint64", "intp": "int64", "uintp": "uint64", "intc": "int32", "uintc": "uint32",
    "byte": "uint8", "complex64": "complex64", "complex128": "complex128",
}
for _n, _d in _SCALARS.items():
    globals()[_n] = Type(_d if _n not in ("boolean", "bool_", "b1") else "bool", _d)
void = none = Type("none")
unicode_type = Type("unicode_type")
float_ = float32
int_ = int64
string = unicode_type

class BaseTuple(Type):
    """A tuple type; `types`: its items' types (typed.Dict keys and values use them)."""

    def __init__(self, name, types_):
        super().__init__(name)
        self.types = tuple(types_)


def UniTuple(dtype, count):
    return BaseTuple(f"UniTuple({dtype}, {count})", [dtype] * count)


def Tuple(types_):
    return BaseTuple(f"Tuple({', '.join(map(str, types_))})", types_)
