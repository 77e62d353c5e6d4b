"""Arguments bound when kjit compiles: functions and namedtuples passed from Python.

Numba types a dispatcher argument as that very function (a specialisation per function passed), and a
namedtuple as NamedTuple(its class, item types). kjit binds both in compiled code, as `kjit run` does for a call
written there: `apply(f, p, x)` with `f` a @jit function and `p` a Point runs a wrapper

    @njit
    def _kjit_fa_apply_0(_p1, _p2):
        return apply(f, Point(_p1[0], _p1[1]), _p2)

compiled in a unit of its own with `apply`, `f`, the class and what they reach (_source.build_unit), one wrapper
per combination of functions and classes passed; a namedtuple travels as its plain tuple, the other arguments as
they are."""

import sys

from ._source import Piece
from . import _values_namedtuple as nt


def needs_binding(args, is_dispatcher):
    """Whether any argument is a dispatcher or a namedtuple (the Python path only: the C fast path never takes
    one)."""
    for a in args:
        if is_dispatcher(a) or (isinstance(a, tuple) and nt.is_instance(a)):
            return True
    return False


def call(disp, args, is_dispatcher, wrapper_class, launch=None):
    """disp(*args) with the functions and namedtuples bound in a wrapper (made at the first call with them);
    with `launch` (kernel[grid, block, stream, shared]: a _Launch), that launch of kernel `disp`, written in the
    wrapper (compiled host code launches it, as `kjit run` does)."""
    specs = disp.__dict__.setdefault("_kjit_fn_specs", {})
    # keyed by the function's or the class's identity; the wrapper keeps them alive, so the ids stay theirs
    key = tuple(id(a) if is_dispatcher(a) else id(type(a)) if nt.is_instance(a) else 0 for a in args)
    w = specs.get(key)
    if w is None:
        w = specs[key] = _wrapper(disp, args, len(specs), is_dispatcher, wrapper_class, launch is not None)
    rest = [tuple(a) if nt.is_instance(a) else a for a in args if not is_dispatcher(a)]
    if launch is not None:
        return w(launch.dims[0], launch.dims[1], launch.shared, *rest)
    return w(*rest)


def _class_name(cls):
    """The module-level name that binds a namedtuple class (Numba too needs it global)."""
    module = sys.modules.get(cls.__module__)
    for name, value in (vars(module).items() if module is not None else ()):
        if value is cls:
            return name, module
    from .errors import UnsupportedError
    raise UnsupportedError(f"kjit: the namedtuple class '{cls.__qualname__}' of an argument is not bound to a "
                           "module-level name: kjit compiles it from the assignment that makes it")


def _bind(g, name, value, disp):
    if g.get(name, value) is not value:
        from .errors import UnsupportedError
        raise UnsupportedError(f"kjit: two different values named '{name}' passed to '{disp.kjit_name}' in "
                               "one call")
    g[name] = value


def _wrapper(disp, args, n, is_dispatcher, wrapper_class, kernel):
    disp.source_piece()  # learns the name the unit gives it (`k = jit(f)`: k)
    g, bound = {}, {disp.kjit_name: disp}
    params, passed = [], []
    for i, a in enumerate(args):
        if is_dispatcher(a):
            a.source_piece()
            _bind(bound, a.kjit_name, a, disp)
            passed.append(a.kjit_name)
        elif nt.is_instance(a):
            name, module = _class_name(type(a))
            # the module's globals: the assignment that makes the class reads them (namedtuple, ...)
            g.update(vars(module))
            _bind(bound, name, type(a), disp)
            params.append(f"_p{i}")
            passed.append(f"{name}({', '.join(f'_p{i}[{k}]' for k in range(len(a)))})")
        else:
            params.append(f"_p{i}")
            passed.append(f"_p{i}")
    g.update(bound)
    name = f"_kjit_fa_{disp.kjit_name}_{n}"
    if kernel:  # the launch configuration: the wrapper's first parameters
        text = f"def {name}({', '.join(['_grid', '_block', '_shared'] + params)}):\n" \
               f"    {disp.kjit_name}[_grid, _block, 0, _shared]({', '.join(passed)})\n"
    else:
        text = f"def {name}({', '.join(params)}):\n    return {disp.kjit_name}({', '.join(passed)})\n"
    exec(compile(text, "<kjit bound arguments>", "exec"), g)  # noqa: S102 (text made here from names)
    return wrapper_class(g[name], Piece("@_kjit_numba.njit\n" + text, None, 0))
