"""numba.objmode: `with objmode(y='float64'):` inside a decorated function (Numba's user/withobjmode.rst).

kjit compiles the block with the function (docs/language.md "with objmode"), so in the package the name only
has to exist for `from numba import objmode` / `numba.objmode`; as in Numba, used by Python code outside a
decorated function it is a context manager that does nothing."""


class _ObjModeContext:
    """objmode and objmode(name=type, ...): the annotations are the compiler's; here nothing is done."""

    def __call__(self, *args, **annotations):
        if args:
            raise TypeError("objmode takes only keyword arguments: objmode(name='type', ...)")
        return self

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "<kjit objmode>"


objmode = _ObjModeContext()
