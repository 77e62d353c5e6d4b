"""kjit from Python: Numba's decorators, compiled by kjit.

    import kjit
    @kjit.njit
    def dot(x, y): ...

Decorated functions compile from their source at their first call (docs/python.md); host code stays
CPython. `python3 -m kjit script.py` runs an unmodified Numba program with `numba` resolved to kjit."""

from . import config, cuda, errors, typed, types
from ._dispatch import CPUDispatcher, Dispatcher, check_options
from ._objmode import objmode
from ._lib import lib as _lib_handle
from ._ufunc import GUFuncDispatcher, UFuncDispatcher
from .errors import KjitError, NumbaError, TypingError, UnsupportedError
from .types import (boolean, bool_, b1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32,
                    float64, double, intp, uintp, intc, uintc, byte, void, none, f4, f8, i1, i2, i4, i8, u1, u2,
                    u4, u8, complex64, complex128)

__version__ = _lib_handle.kjit_version().decode()


def _is_sigs(x):
    return isinstance(x, (str, list, tuple, types.Signature, types.Type))


def jit(signature_or_function=None, locals=None, cache=False, pipeline_class=None, boundscheck=None, **options):
    """numba.jit: @jit, @jit(nopython=True, ...), @jit('f8(f8)'). Always compiled (nopython mode)."""
    check_options("jit", options)
    options.update(cache=cache, boundscheck=boundscheck)
    if options.get("forceobj"):
        raise UnsupportedError("kjit has no object mode (forceobj=True)")
    if callable(signature_or_function) and not _is_sigs(signature_or_function):
        return CPUDispatcher(signature_or_function, None, options)
    sigs = signature_or_function

    def wrap(f):
        return CPUDispatcher(f, sigs, options)
    return wrap


def njit(*args, **kws):
    """numba.njit: jit(nopython=True)."""
    kws["nopython"] = True
    return jit(*args, **kws)




def vectorize(ftylist_or_function=(), **kws):
    """numba.vectorize: a ufunc (types from the signatures, or from the arguments at each call)."""
    check_options("vectorize", kws)
    if callable(ftylist_or_function) and not _is_sigs(ftylist_or_function):
        return UFuncDispatcher(ftylist_or_function, None, kws)

    def wrap(f):
        return UFuncDispatcher(f, ftylist_or_function or None, kws)
    return wrap


def guvectorize(*args, **kws):
    """numba.guvectorize(signatures, layout, ...) or guvectorize(layout) (dynamic)."""
    check_options("vectorize", {k: v for k, v in kws.items() if k not in ("writable_args",)})
    if len(args) == 1 and isinstance(args[0], str):
        sigs, layout = None, args[0]
    elif len(args) == 2:
        sigs, layout = args
    else:
        raise TypeError("guvectorize(signatures, layout, **options) or guvectorize(layout, **options)")

    def wrap(f):
        return GUFuncDispatcher(f, sigs, layout, kws)
    return wrap


def stencil(*a, **k):
    raise UnsupportedError("kjit does not compile @stencil")


prange = range


from ._threads import (set_num_threads, get_num_threads, get_thread_id, set_parallel_chunksize,  # noqa: E402
                       get_parallel_chunksize, parallel_chunksize)


