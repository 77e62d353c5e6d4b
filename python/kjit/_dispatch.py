"""Dispatchers: what @jit, @vectorize, @guvectorize and @cuda.jit return.

The first call compiles a unit (the function, the decorated functions it reaches, the imports and frozen
module values: _source.py) with kjit_compile; kjit_call / kjit_launch then specialise for the arguments'
types as Numba's dispatcher does, caching each specialisation (in memory and in kjit's disk cache)."""

import ctypes
import functools
import re
import sys
import threading

import numpy as _np

from . import _lib, config
from ._lib import lib, take_string
from ._source import SourceError, build_unit, function_piece, _names, Piece
from . import _readonly, _funcargs, _threads
from ._values import Args, to_python
from . import _values_list
from ._exc import error_of, from_error
from .errors import TypingError, UnsupportedError, KjitUsageError

_lock = threading.RLock()


def _load_fast():
    """The C fast path (kjit/_fast.c): installed beside the package, or in the build tree next to the
    library (build/python/); None where it was not built ($KJIT_NO_FAST=1 turns it off)."""
    import glob
    import importlib.machinery
    import importlib.util
    import os
    if os.environ.get("KJIT_NO_FAST") == "1":
        return None
    try:
        from . import _fast as mod
    except ImportError:
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        found = glob.glob(os.path.join(os.path.dirname(os.path.abspath(lib.path)), "python", "_fast" + suffix))
        if not found:
            return None
        spec = importlib.util.spec_from_file_location("kjit._fast", found[0])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    addr = lambda f: ctypes.cast(f, ctypes.c_void_p).value  # noqa: E731
    mod.init(addr(lib.kjit_call), addr(lib.kjit_array_wrap), addr(lib.kjit_array_free), _np.ndarray,
             addr(lib.kjit_launch), addr(lib.kjit_array_data))
    if hasattr(mod, "init_dispatch"):  # the dispatcher's call path in C (_dispatch_type.h)
        mod.init_dispatch(addr(lib.kjit_call_prepare), addr(lib.kjit_call_prepared), addr(lib.kjit_call_plan_free),
                          addr(lib.kjit_array_rewrap), config)
    return mod


_fast = _load_fast()
_contexts = {}  # (target, opt, boundscheck, cache_dir) -> kjit_ctx*


def _context():
    target = config.TARGET
    if target not in _lib.TARGETS:
        raise KjitUsageError(f"kjit.config.TARGET is {target!r}; expected one of {', '.join(_lib.TARGETS)}")
    key = (target, config.OPT, config.BOUNDSCHECK, config.CACHE_DIR)
    with _lock:
        ctx = _contexts.get(key)
        if ctx is None:
            opt = _lib.Options()
            lib.kjit_options_init(ctypes.byref(opt))
            opt.target = _lib.TARGETS[target]
            opt.opt_level = config.OPT
            if config.BOUNDSCHECK is not None:
                opt.boundscheck = int(bool(config.BOUNDSCHECK))
            if config.CACHE_DIR:
                opt._cache_dir = config.CACHE_DIR.encode()
                opt.cache_dir = opt._cache_dir
            err = _lib.Error()
            ctx = lib.kjit_ctx_new(ctypes.byref(opt), ctypes.byref(err))
            if not ctx:
                raise KjitUsageError(err.message.decode())
            _contexts[key] = ctx
            _threads.apply_to(ctx)
        return ctx


_LOC = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<col>\d+):", re.M)


def _remap(text, unit):
    """kjit's diagnostics with the unit's lines mapped back to the original files."""
    def sub(m):
        if m.group("file") != unit.unit_name:
            return m.group(0)
        where = unit.locate(int(m.group("line")))
        if where is None:
            return m.group(0)
        f, line, shift = where
        return f"{f}:{line}:{int(m.group('col')) + shift}:"
    return _LOC.sub(sub, text)


def _compile(ctx, text, unit, err):
    """kjit_compile_globals of the unit's text with its module-level arrays (frozen: copied by kjit now)."""
    arrays = getattr(unit, "arrays", {})
    if not arrays:
        return lib.kjit_compile(ctx, text, len(text), unit.unit_name.encode(), ctypes.byref(err))
    args = Args(list(arrays.values()), None)
    try:
        gl = (_lib.Global * len(arrays))()
        names = [n.encode() for n in arrays]
        for k, n in enumerate(names):
            gl[k].name = n
            gl[k].value = args.values[k]
        return lib.kjit_compile_globals(ctx, text, len(text), unit.unit_name.encode(), gl, len(arrays),
                                        ctypes.byref(err))
    finally:
        args.free()


class Compiled:
    """A kjit module made from a unit."""

    def __init__(self, unit, module, target):
        self.unit = unit
        self.module = module
        self.target = target
        self.fns = {}
        self.addrs = {}
        self.on_gpu = None  # kernels run on the GPU (kjit_module_target), asked at the first launch
        self.prints = "print" in unit.text

    def fn(self, name):
        f = self.fns.get(name)
        if f is None:
            f = lib.kjit_module_get(self.module, name.encode())
            if not f:
                raise KjitUsageError(f"kjit: no function '{name}' in the compiled unit")
            self.fns[name] = f
        return f

    def fn_addr(self, name):
        a = self.addrs.get(name)
        if a is None:
            a = self.addrs[name] = self.fn(name)
        return a

    def raise_error(self, code, err):
        """The Python exception for a failed kjit_call / kjit_launch."""
        msg = err.message.decode("utf-8", "replace")
        if code == _lib.KJIT_ERR_RUNTIME:
            exc = from_error(err)
            where = self.unit.locate(err.line) if err.line else None
            if where is not None and hasattr(exc, "add_note"):  # Python 3.11+
                exc.add_note(f"raised by compiled code at {where[0]}:{where[1]}")
            raise exc
        if code == _lib.KJIT_ERR_COMPILE:
            text = take_string(lib.kjit_error_format(self.module, ctypes.byref(err), _lib.DIAG_HUMAN))
            raise TypingError(_remap(text or msg, self.unit).rstrip())
        raise TypingError(_remap(msg, self.unit)) if code == _lib.KJIT_ERR_USAGE else RuntimeError(msg)

    def __del__(self, free=lib.kjit_module_free):
        if self.module:
            free(self.module)
            self.module = None


_TARGET_OPTIONS = {
    "jit": {"nopython", "nogil", "cache", "parallel", "fastmath", "boundscheck", "inline", "error_model",
            "forceobj", "looplift", "locals", "debug", "no_rewrites", "no_cpython_wrapper", "no_cfunc_wrapper",
            "_nrt", "pipeline_class"},
    "vectorize": {"target", "cache", "nopython", "fastmath", "identity", "forceobj", "boundscheck"},
    "cuda": {"device", "inline", "fastmath", "debug", "opt", "lineinfo", "cache", "link", "max_registers",
             "boundscheck"},
}


def check_options(family, options):
    bad = set(options) - _TARGET_OPTIONS[family]
    if bad:
        raise KeyError(f"Unrecognized options: {sorted(bad)}. Known options are {sorted(_TARGET_OPTIONS[family])}")


def is_dispatcher(obj):
    return isinstance(obj, Dispatcher)


class Dispatcher:
    """A decorated function: compiled from its source at its first call."""

    def __init__(self, py_func, sigs, options):
        self.py_func = py_func
        self.targetoptions = dict(options)
        self._sigs = sigs
        self._compiled = None
        self._types_seen = []
        self._keys_seen = set()
        self.kjit_name = py_func.__name__
        self._piece = None
        functools.update_wrapper(self, py_func)
        # Signatures given: compile now, as Numba does; except for `k = jit(sig)(f)`, whose name kjit
        # learns only once the assignment has run (then at the first call).
        if sigs and self._decorated_in_source():
            self.compile_now()

    def _decorated_in_source(self):
        try:
            return function_piece(self.py_func).text.lstrip().startswith("@")
        except SourceError:
            return True  # compile_now reports it

    # --- what the unit takes from this function ---
    def source_piece(self):
        if self._piece is None:
            self._piece = function_piece(self.py_func)
            if not self._piece.text.lstrip().startswith("@"):
                self._piece = self._undecorated_piece(self._piece)
        return self._piece

    def _undecorated_piece(self, piece):
        """`k = jit(f)`: kjit sees `f` and the assignment that made `k` from it."""
        from ._source import _assignment_piece  # the module's `NAME = decorator(f)`
        module = sys.modules.get(self.py_func.__module__)
        for name, value in self.py_func.__globals__.items():
            if value is self and module is not None:
                hit = _assignment_piece(module, name)
                if hit is not None:
                    self.kjit_name = name
                    self._assign_piece, self._assign_node = hit
                    return piece
        # Decorated by a call kjit cannot see (inside a function, in an expression): write the decorator.
        self._synth = True
        if self.py_func.__name__ == "<lambda>":  # njit(lambda x: ...) inside a function: a def of its own
            from ._source import lambda_piece
            self.kjit_name, piece = lambda_piece(self.py_func)
        return Piece(self.decorator_text() + "\n" + piece.text, piece.filename, piece.first_line - 1,
                     piece.col_shift)

    def decorator_text(self):
        """The decorator, as source, that makes this dispatcher from its function."""
        raise NotImplementedError

    def _sig_text(self):
        sigs = self._sigs
        if sigs is None:
            return None
        if isinstance(sigs, (list, tuple)) and not all(isinstance(x, (str,)) for x in sigs) and \
                not all(hasattr(x, "return_type") for x in sigs):
            return None  # a tuple of argument types: compiled lazily from the arguments
        return repr(sigs) if isinstance(sigs, str) else (
            "[" + ", ".join(repr(x) if isinstance(x, str) else repr(str(x)) for x in sigs) + "]"
            if isinstance(sigs, (list, tuple)) else repr(str(sigs)))

    def _opts_text(self, names):
        return "".join(f", {k}={self.targetoptions[k]!r}" for k in names
                       if self.targetoptions.get(k) not in (None, False))

    def extra_pieces(self):
        p = getattr(self, "_assign_piece", None)
        out = [p] if p is not None else []
        if getattr(self, "_synth", False):
            out.append(Piece("import numba as _kjit_numba\n", None, 0))
        return out

    def _ready(self):
        """Compiled for the current target (the names of the unit's functions known)."""
        c = self._compiled
        return c if c is not None and c.target == config.TARGET else self.compile_now()

    def extra_names(self):
        node = getattr(self, "_assign_node", None)
        return _names(node.value) if node is not None else set()

    # --- compiling ---
    def compile_now(self):
        target = config.TARGET
        c = self._compiled
        if c is not None and c.target == target:
            return c
        with _lock:
            try:
                unit, _ = build_unit(self, is_dispatcher)
            except SourceError as e:
                raise UnsupportedError(str(e)) from None
            ctx = _context()
            err = _lib.Error()
            text = unit.text.encode()
            m = _compile(ctx, text, unit, err)
            if not m:
                diags = take_string(lib.kjit_ctx_diagnostics(ctx, _lib.DIAG_HUMAN))
                raise TypingError(_remap(diags or err.message.decode(), unit).rstrip())
            self._compiled = Compiled(unit, m, target)
            return self._compiled

    @property
    def signatures(self):
        return list(self._types_seen)

    def _note_types(self, args):
        # A cheap key first (type, dtype, ndim): the spelled-out types only for a new one.
        key = tuple((type(a), getattr(a, "dtype", None), getattr(a, "ndim", 0)) for a in args)
        if key not in self._keys_seen:
            self._keys_seen.add(key)
            self._types_seen.append(tuple(_type_name(a) for a in args))

    def inspect_ir(self):
        """kjit's typed IR (KIR) of every specialisation compiled so far."""
        return take_string(lib.kjit_module_ir(self.compile_now().module))

    def inspect_llvm(self):
        err = _lib.Error()
        return take_string(lib.kjit_module_llvm_ir(self.compile_now().module, ctypes.byref(err)))

    def inspect_asm(self):
        err = _lib.Error()
        return take_string(lib.kjit_module_asm(self.compile_now().module, ctypes.byref(err)))

    def _call(self, name, args, raw=False):
        c = self._compiled
        if c is None or c.target != config.TARGET:
            c = self.compile_now()
        f = c.fn(name)
        a = Args(args, None)
        err = _lib.Error()
        result = _lib.Value()
        if c.prints:
            sys.stdout.flush()
        try:
            if _readonly.has_readonly(args):
                _readonly.check(f, name, args, a.values, a.n, self.__dict__.setdefault("_readonly_memo", {}))
            code = lib.kjit_call(f, a.values, a.n, ctypes.byref(result), ctypes.byref(err))
        finally:
            a.free()
        if code:
            c.raise_error(code, err)
        try:
            r = to_python(result, a.keep, c)
            if raw and result.kind in (_lib.VALUE_INT, _lib.VALUE_FLOAT, _lib.VALUE_BOOL) and result.dtype < 11:
                return r, _np.dtype(_lib.DTYPES[result.dtype] if result.kind != _lib.VALUE_BOOL else "bool")
            return r
        finally:
            lib.kjit_value_release(ctypes.byref(result))


def _type_name(a):
    import numpy as np
    if isinstance(a, np.ndarray):
        layout = "C" if a.flags.c_contiguous else "F" if a.flags.f_contiguous else "A"
        return f"array({a.dtype}, {a.ndim}d, {layout})"
    if isinstance(a, np.generic):
        return str(a.dtype)
    if isinstance(a, tuple):
        return "(" + ", ".join(_type_name(x) for x in a) + ")"
    if isinstance(a, (list, set)):
        return _values_list.numba_name(a)  # "reflected list(int64)<iv=None>", as Numba
    return {bool: "bool", int: "int64", float: "float64", str: "unicode_type"}.get(type(a), type(a).__name__)


# @jit dispatchers are called through the C extension's vectorcall where it is built (_fast.Dispatch:
# a typed cache of prepared calls), else through __call__ below.
_CBase = _fast.Dispatch if _fast is not None and hasattr(_fast, "Dispatch") else object


class CPUDispatcher(Dispatcher, _CBase):
    """@jit / @njit."""

    def __init__(self, py_func, sigs, options):
        if _CBase is not object:
            # *args functions take the Python path (-1 never matches an argument count): their extra
            # arguments travel as one tuple
            self._kjit_fast_setup(self._slow_call, self._fast_convert, self._fast_raise,
                                  -1 if py_func.__code__.co_flags & 0x04 else py_func.__code__.co_argcount)
        Dispatcher.__init__(self, py_func, sigs, options)

    def _fast_convert(self, raw, args=()):
        v = _lib.Value.from_buffer_copy(raw)
        try:
            return to_python(v, args, self._compiled)
        finally:
            lib.kjit_value_release(ctypes.byref(v))

    def _fast_raise(self, r):
        self._compiled.raise_error(r[0], error_of(r))

    def _bind_fast(self, c):
        """Calls with seen argument types go straight to c's function (not for units that print: their
        output is flushed around each call by the Python path)."""
        self._fast_bound = c
        if not c.prints:
            self._kjit_bind(c, c.fn_addr(self.kjit_name), c.target)

    def decorator_text(self):
        sig = self._sig_text()
        head = f"@_kjit_numba.njit({sig}" if sig else "@_kjit_numba.njit(" 
        opts = self._opts_text(["parallel", "fastmath", "boundscheck", "nogil", "inline", "error_model"])
        return (head + opts.lstrip(", ") if not sig else head + opts) + ")"

    def _slow_call(self, *args, **kwargs):
        code = self.py_func.__code__
        if kwargs or len(args) != code.co_argcount or code.co_flags & 0x04:  # 0x04: CO_VARARGS
            args = _bind(self.py_func, args, kwargs)  # keywords and defaults, as Python binds them
        if _funcargs.needs_binding(args, is_dispatcher):
            return _funcargs.call(self, args, is_dispatcher, _FunctionArgsWrapper)
        if len(self._types_seen) < 64:
            self._note_types(args)
        c = self._compiled
        if _fast is not None and c is not None and c.target == config.TARGET:
            if _CBase is not object and self.__dict__.get("_fast_bound") is not c:
                self._bind_fast(c)
            if c.prints:
                sys.stdout.flush()
            r = NotImplemented if _readonly.has_readonly(args) else _fast.call(c.fn_addr(self.kjit_name), args)
            if r is NotImplemented:
                return self._call(self.kjit_name, args)
            t = type(r)
            if t is tuple:
                err = error_of(r)
                c.raise_error(r[0], err)
            if t is bytes:
                return self._fast_convert(r, args)
            return r
        self._ready()  # the unit's name for the function is known once its source is read (a lambda's)
        r = self._call(self.kjit_name, args)
        c = self._compiled
        if _CBase is not object and c is not None and self.__dict__.get("_fast_bound") is not c:
            self._bind_fast(c)
        return r

    if _CBase is object:
        __call__ = _slow_call


if _CBase is not object:
    _fast.enable_vectorcall(CPUDispatcher)


class _FunctionArgsWrapper(CPUDispatcher):
    """The wrapper that binds functions passed as arguments (_funcargs.py): its source is made, not read."""

    def __init__(self, py_func, piece):
        self._piece = piece
        self._synth = True  # the unit imports numba as _kjit_numba for its decorator
        CPUDispatcher.__init__(self, py_func, None, {})
        self._piece = piece


def _bind(py_func, args, kwargs):
    import inspect
    ba = inspect.signature(py_func).bind(*args, **kwargs)
    ba.apply_defaults()
    return tuple(ba.arguments.values())
