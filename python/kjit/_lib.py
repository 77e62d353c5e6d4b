"""ctypes bindings of libkjit's C API (include/kjit.h).

The library is found, in order: $KJIT_LIBRARY (a path), a libkjit.so next to
this package (a wheel or `meson install` may put it there), the build tree of
a source checkout (python/../build), pkg-config's libdir for `kjit`, then the
system's loader path."""

import ctypes
import ctypes.util
import os
import subprocess

# The major.minor this package was written against (kjit.h's KJIT_VERSION_*).
API_VERSION = (0, 4)

KJIT_OK, KJIT_ERR_COMPILE, KJIT_ERR_USAGE, KJIT_ERR_RUNTIME, KJIT_ERR_IO = range(5)
TARGETS = {"auto": 0, "cpu": 1, "parallel": 2, "cuda": 3}
DIAG_HUMAN, DIAG_SHORT, DIAG_JSON = range(3)
(VALUE_NONE, VALUE_BOOL, VALUE_INT, VALUE_FLOAT, VALUE_STR, VALUE_ARRAY, VALUE_TUPLE) = range(7)
VALUE_LIST, VALUE_SET = 8, 9  # since 0.5 (kjit_list)
VALUE_RNG, VALUE_RECORD = 12, 13  # since 0.5 (_values_rng.py, _values_record.py)
KJIT_RECORD = 16  # the dtype of arrays of records
VALUE_DICT, VALUE_GENERATOR = 10, 11
VALUE_COMPLEX, VALUE_BYTES = 7, 16  # since 0.5
BUFFER_BYTES, BUFFER_BYTEARRAY, BUFFER_MEMORYVIEW, BUFFER_MEMORYVIEW_RO = range(4)
(FN_MAIN, FN_HELPER, FN_JIT, FN_KERNEL, FN_DEVICE, FN_UFUNC, FN_GUFUNC) = range(7)

MAX_DIMS = 8
# kjit_dtype, in the enum's order, by NumPy's names.
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128", "float16"]
DATETIME64, TIMEDELTA64 = 14, 15  # with a unit: kjit_array_unit / kjit_array_set_unit, Value.v.dt


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 512),
                ("file", ctypes.c_char * 256), ("line", ctypes.c_int), ("col", ctypes.c_int)]


class Options(ctypes.Structure):
    _fields_ = [("target", ctypes.c_int), ("opt_level", ctypes.c_int), ("max_errors", ctypes.c_int),
                ("arch", ctypes.c_char_p), ("cache_dir", ctypes.c_char_p), ("boundscheck", ctypes.c_int),
                ("check_only", ctypes.c_int), ("cache", ctypes.c_int), ("keep", ctypes.c_uint),
                ("out", ctypes.c_void_p), ("on_event", ctypes.c_void_p), ("event_user", ctypes.c_void_p),
                ("progress", ctypes.c_void_p)]


class _Complex(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


class _Datetime(ctypes.Structure):
    _fields_ = [("count", ctypes.c_int64), ("unit", ctypes.c_int32)]


class _Buffer(ctypes.Structure):
    _fields_ = [("a", ctypes.c_void_p), ("kind", ctypes.c_int)]


class _ValueUnion(ctypes.Union):
    _fields_ = [("b", ctypes.c_bool), ("i", ctypes.c_int64), ("f", ctypes.c_double),
                ("s", ctypes.c_char_p), ("p", ctypes.c_void_p),
                ("c", _Complex), ("dt", _Datetime), ("buf", _Buffer)]


class Value(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("dtype", ctypes.c_int), ("v", _ValueUnion)]


class Tuple(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int), ("items", ctypes.POINTER(Value))]


class List(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int64), ("items", ctypes.POINTER(Value)), ("owned", ctypes.c_bool),
                ("from_arg", ctypes.c_int)]


class Dict(ctypes.Structure):
    pass


Dict._fields_ = [("n", ctypes.c_int64), ("keys", ctypes.POINTER(Value)), ("values", ctypes.POINTER(Value)),
                 ("key_type", Value), ("value_type", Value), ("after", ctypes.POINTER(Dict))]


class Global(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", Value)]


class RecordDesc(ctypes.Structure):
    _fields_ = [("nfields", ctypes.c_int), ("names", ctypes.POINTER(ctypes.c_char_p)),
                ("offsets", ctypes.POINTER(ctypes.c_int64)), ("dtypes", ctypes.POINTER(ctypes.c_int)),
                ("itemsize", ctypes.c_int64), ("aligned", ctypes.c_bool)]


class Record(ctypes.Structure):
    _fields_ = [("desc", ctypes.POINTER(RecordDesc)), ("data", ctypes.c_void_p)]


class Rng(ctypes.Structure):  # kjit_rng; C aligns it to 16 bytes (_values_rng.py places it so)
    _fields_ = [("state_lo", ctypes.c_uint64), ("state_hi", ctypes.c_uint64), ("inc_lo", ctypes.c_uint64),
                ("inc_hi", ctypes.c_uint64), ("has_uint32", ctypes.c_bool), ("uinteger", ctypes.c_uint32)]


class Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32), ("z", ctypes.c_uint32)]


class SysinfoLine(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char * 64), ("value", ctypes.c_char * 448)]


_P = ctypes.c_void_p
_I64P = ctypes.POINTER(ctypes.c_int64)
_ERRP = ctypes.POINTER(Error)
_VALP = ctypes.POINTER(Value)

# name: (restype, argtypes)
_SIGNATURES = {
    "kjit_version": (ctypes.c_char_p, []),
    "kjit_options_init": (None, [ctypes.POINTER(Options)]),
    "kjit_ctx_new": (_P, [ctypes.POINTER(Options), _ERRP]),
    "kjit_ctx_free": (None, [_P]),
    "kjit_compile": (_P, [_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, _ERRP]),
    "kjit_compile_globals": (_P, [_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(Global),
                                  ctypes.c_int, _ERRP]),
    "kjit_module_free": (None, [_P]),
    "kjit_ctx_diagnostics": (_P, [_P, ctypes.c_int]),
    "kjit_error_format": (_P, [_P, _ERRP, ctypes.c_int]),
    "kjit_module_ir": (_P, [_P]),
    "kjit_module_llvm_ir": (_P, [_P, _ERRP]),
    "kjit_module_asm": (_P, [_P, _ERRP]),
    "kjit_module_ptx": (_P, [_P, ctypes.c_char_p, _ERRP]),
    "kjit_module_target": (ctypes.c_int, [_P]),
    "kjit_array_wrap": (_P, [_P, _P, ctypes.c_int, ctypes.c_int, _I64P, _I64P, _ERRP]),
    "kjit_array_free": (None, [_P]),
    "kjit_array_wrap_record": (_P, [_P, _P, ctypes.POINTER(RecordDesc), ctypes.c_int, _I64P, _I64P, _ERRP]),
    "kjit_array_new_record": (_P, [_P, ctypes.POINTER(RecordDesc), ctypes.c_int, _I64P, _ERRP]),
    "kjit_array_record": (ctypes.POINTER(RecordDesc), [_P]),
    "kjit_array_data": (_P, [_P]),
    "kjit_array_ndim": (ctypes.c_int, [_P]),
    "kjit_array_shape": (_I64P, [_P]),
    "kjit_array_strides": (_I64P, [_P]),
    "kjit_array_dtype": (ctypes.c_int, [_P]),
    "kjit_array_unit": (ctypes.c_int, [_P]),
    "kjit_array_set_unit": (ctypes.c_int, [_P, ctypes.c_int, ctypes.c_int, _ERRP]),
    "kjit_value_release": (None, [_VALP]),
    "kjit_list_release": (None, [ctypes.c_void_p]),
    "kjit_dict_free": (None, [_P]),
    "kjit_generator_next": (ctypes.c_int, [_VALP, _VALP, ctypes.POINTER(ctypes.c_bool), _ERRP]),
    "kjit_module_get": (_P, [_P, ctypes.c_char_p]),
    "kjit_fn_get_kind": (ctypes.c_int, [_P]),
    "kjit_fn_param_count": (ctypes.c_int, [_P]),
    "kjit_call": (ctypes.c_int, [_P, _VALP, ctypes.c_int, _VALP, _ERRP]),
    "kjit_launch": (ctypes.c_int, [_P, Dim3, Dim3, _VALP, ctypes.c_int, _ERRP]),
    "kjit_sync": (ctypes.c_int, [_P, _ERRP]),
    "kjit_fn_writes_arg": (ctypes.c_int, [_P, _VALP, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_bool),
                                          _ERRP]),
    "kjit_array_device_ptr": (ctypes.c_int, [_P, _P, ctypes.POINTER(ctypes.c_uint64), _ERRP]),
    "kjit_array_wrap_device": (_P, [_P, ctypes.c_uint64, ctypes.c_int, ctypes.c_int, _I64P, _I64P, _ERRP]),
    "kjit_sysinfo": (ctypes.c_int, [ctypes.POINTER(SysinfoLine), ctypes.c_int]),
    "kjit_ctx_threads_get": (ctypes.c_int64, [_P, ctypes.c_int]),
    "kjit_ctx_threads_set": (ctypes.c_int, [_P, ctypes.c_int, ctypes.c_int64, _ERRP]),
    "kjit_error_exc_args": (ctypes.c_int, [_ERRP]),
}


def _candidates():
    env = os.environ.get("KJIT_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libkjit.so")
    try:  # written by `meson install`
        from ._paths import LIBDIR
        yield os.path.join(LIBDIR, "libkjit.so")
    except ImportError:
        pass
    yield os.path.join(here, "..", "..", "build", "libkjit.so")
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "kjit"], capture_output=True,
                                text=True, timeout=10).stdout.strip()
        if libdir:
            yield os.path.join(libdir, "libkjit.so")
    except (OSError, subprocess.SubprocessError):
        pass
    found = ctypes.util.find_library("kjit")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        for name, (res, args) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
        lib.free = ctypes.CDLL(None).free
        lib.free.argtypes = [_P]
        lib.free.restype = None
        lib.path = path
        version = lib.kjit_version().decode()
        got = tuple(int(x) for x in version.split(".")[:2])
        if got != API_VERSION:
            raise ImportError(f"kjit: the library {path} is version {version}, this package needs "
                              f"{API_VERSION[0]}.{API_VERSION[1]}.x")
        return lib
    raise ImportError("kjit: libkjit.so not found; set KJIT_LIBRARY to its path. Tried: " + "; ".join(tried))


lib = _load()


def take_string(ptr):
    """A malloc'd char* from the library as str (freed)."""
    if not ptr:
        return ""
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib.free(ptr)
