"""Functions passed as arguments: `apply(f, x)` from Python with `f` a @jit function.

Numba types a dispatcher argument as that very function (a specialisation per function passed). kjit binds
it when it compiles, as `kjit run` does for a call written in compiled code: the call runs a wrapper

    @njit
    def _kjit_fa_apply_0(_p1):
        return apply(f, _p1)

compiled in a unit of its own with `apply`, `f` and what they reach (_source.build_unit), one wrapper per
combination of functions passed; the other arguments go on as they are."""

from ._source import Piece


def has_function(args, is_dispatcher):
    """Whether any argument is a dispatcher (the Python path only: the C fast path never sees one)."""
    for a in args:
        if is_dispatcher(a):
            return True
    return False


def call(disp, args, is_dispatcher, wrapper_class):
    """disp(*args) with the function arguments bound in a wrapper (made at the first call with them)."""
    specs = disp.__dict__.setdefault("_kjit_fn_specs", {})
    # a dispatcher is keyed by identity; the wrapper keeps it alive, so its id stays its own
    key = tuple(id(a) if is_dispatcher(a) else 0 for a in args)
    w = specs.get(key)
    if w is None:
        w = specs[key] = _wrapper(disp, args, len(specs), is_dispatcher, wrapper_class)
    return w(*[a for a in args if not is_dispatcher(a)])


def _wrapper(disp, args, n, is_dispatcher, wrapper_class):
    disp.source_piece()  # learns the name the unit gives it (`k = jit(f)`: k)
    g = {disp.kjit_name: disp}
    params, passed = [], []
    for i, a in enumerate(args):
        if is_dispatcher(a):
            a.source_piece()
            if g.get(a.kjit_name, a) is not a:
                from .errors import UnsupportedError
                raise UnsupportedError(f"kjit: two different functions named '{a.kjit_name}' passed to "
                                       f"'{disp.kjit_name}' in one call")
            g[a.kjit_name] = a
            passed.append(a.kjit_name)
        else:
            params.append(f"_p{i}")
            passed.append(f"_p{i}")
    name = f"_kjit_fa_{disp.kjit_name}_{n}"
    text = f"def {name}({', '.join(params)}):\n    return {disp.kjit_name}({', '.join(passed)})\n"
    exec(compile(text, "<kjit function arguments>", "exec"), g)  # noqa: S102 (text made here from names)
    return wrapper_class(g[name], Piece("@_kjit_numba.njit\n" + text, None, 0))
