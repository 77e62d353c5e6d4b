"""numba.cuda's names for kjit: kernels, device arrays, streams and events.

Kernels launch through kjit_launch on the unit's target: the GPU for `cuda` (auto with a GPU), else the CPU
(blocks in turn, GPU semantics kept), which is what CI runs. Host NumPy arrays given to a kernel are used in
place on the CPU; on the GPU kjit copies them to the device and back around the launch, as Numba does.
The names used only inside kernels (grid, threadIdx, shared.array, atomic.add, syncthreads, ...) exist so
that code referring to them imports; kjit compiles them, CPython never runs them."""

import ctypes
import math
import time

import numpy as np

from . import _cai, _cuda_views, _dispatch, _dlpack, _funcargs, _lib, _readonly
from . import _cuda_random as random  # numba.cuda.random (kjit.cuda.random; __main__ aliases it)
from ._dispatch import Dispatcher, check_options, _bind
from ._exc import error_of
from ._source import Piece
from ._lib import lib
from ._values import Args, _DTYPE_CODE
from . import _values_record
from ._cuda_record import DeviceRecord
from .errors import KjitUsageError, TypingError


def _kernel_only(name):
    def f(*args, **kwargs):
        raise KjitUsageError(f"cuda.{name} is only available inside a kernel compiled by kjit")
    f.__name__ = name
    return f


class _KernelOnlyNamespace:
    def __init__(self, prefix, names):
        for n in names:
            setattr(self, n, _kernel_only(f"{prefix}.{n}"))


class _Dim3Name:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr in ("x", "y", "z"):
            raise KjitUsageError(f"cuda.{self._name}.{attr} is only available inside a kernel compiled by kjit")
        raise AttributeError(attr)


threadIdx, blockIdx, blockDim, gridDim = (_Dim3Name(n) for n in ("threadIdx", "blockIdx", "blockDim", "gridDim"))
laneid = warpsize = None  # values inside kernels only
grid = _kernel_only("grid")
gridsize = _kernel_only("gridsize")
syncthreads = _kernel_only("syncthreads")
syncthreads_count = _kernel_only("syncthreads_count")
syncthreads_and = _kernel_only("syncthreads_and")
syncthreads_or = _kernel_only("syncthreads_or")
syncwarp = _kernel_only("syncwarp")
threadfence = _kernel_only("threadfence")
threadfence_block = _kernel_only("threadfence_block")
shfl_sync = _kernel_only("shfl_sync")
shfl_down_sync = _kernel_only("shfl_down_sync")
shfl_up_sync = _kernel_only("shfl_up_sync")
shfl_xor_sync = _kernel_only("shfl_xor_sync")
all_sync = _kernel_only("all_sync")
any_sync = _kernel_only("any_sync")
ballot_sync = _kernel_only("ballot_sync")
activemask = _kernel_only("activemask")
popc = _kernel_only("popc")
clz = _kernel_only("clz")
ffs = _kernel_only("ffs")
fma = _kernel_only("fma")
shared = _KernelOnlyNamespace("shared", ["array"])
local = _KernelOnlyNamespace("local", ["array"])
const = _KernelOnlyNamespace("const", ["array_like"])
atomic = _KernelOnlyNamespace("atomic", ["add", "sub", "max", "min", "and_", "or_", "xor", "exch", "inc", "dec",
                                         "compare_and_swap", "cas", "nanmax", "nanmin"])


def _dim3(v, what):
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3:
        raise ValueError(f"kjit: {what} must have 1 to 3 dimensions, got {v}")
    if any(x < 0 or x >= 2**32 for x in v):
        raise ValueError(f"kjit: {what} {v} out of range")
    v = v + (1,) * (3 - len(v))
    return _lib.Dim3(*v)


class CUDADispatcher(Dispatcher):
    """@cuda.jit: a kernel, launched `k[blocks, threads](args)`; or a device function (device=True)."""

    def __call__(self, *args, **kwargs):
        if self.targetoptions.get("device"):
            raise KjitUsageError(f"device function '{self.__name__}' can only be called from kernels")
        raise KjitUsageError(f"kernel '{self.__name__}' is launched, not called: "
                             f"{self.__name__}[blocks, threads](...) (missing launch configuration)")

    def __init__(self, py_func, sigs, options):
        self._launches = {}  # configuration -> _Launch: launches from a loop check theirs once
        super().__init__(py_func, sigs, options)

    def __getitem__(self, config):
        try:
            return self._launches[config]
        except (KeyError, TypeError):
            return self._new_launch(config)

    def _new_launch(self, config):
        if self.targetoptions.get("device"):
            raise KjitUsageError(f"device function '{self.__name__}' cannot be launched")
        launches = self._launches
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError("kjit: a launch takes [blocks, threads], [blocks, threads, stream] or "
                             "[blocks, threads, stream, shared_bytes]")
        launch = _Launch(self, config)
        if len(launches) < 256:
            try:
                launches[config] = launch
            except TypeError:
                pass
        return launch

    def decorator_text(self):
        sig = self._sig_text()
        opts = self._opts_text(["device", "fastmath", "inline", "debug", "lineinfo", "max_registers"])
        return f"@_kjit_numba.cuda.jit({sig or ''}{opts if sig else opts.lstrip(', ')})"

    def extra_pieces(self):
        out = super().extra_pieces()
        if not self.targetoptions.get("device"):
            # Launches with dynamic shared memory go through compiled host code: kjit_launch has no such
            # argument, a launch written in the source does.
            import inspect
            n = self.kjit_name
            ps = [f"a{i}" for i in range(len(inspect.signature(self.py_func).parameters))]
            out.append(Piece(f"def _kjit_launch_{n}(grid, block, shared, {', '.join(ps)}):\n"
                             f"    {n}[grid, block, 0, shared]({', '.join(ps)})\n", None, 0))
        return out

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        if ntasks < 0:  # Numba's ForAll, with its wording
            raise ValueError("Can't create ForAll with negative task count")
        tpb = tpb or 128
        return self[max(1, math.ceil(ntasks / tpb)), tpb, stream, sharedmem]

    def launch(self, args, griddim, blockdim, stream=0, sharedmem=0):
        return self[griddim, blockdim, stream, sharedmem](*args)

    def inspect_ptx(self):
        err = _lib.Error()
        from ._lib import take_string
        text = take_string(lib.kjit_module_ptx(self.compile_now().module, self.kjit_name.encode(),
                                               ctypes.byref(err)))
        if not text:
            raise TypingError(err.message.decode())
        return text


# k[blocks, threads] objects are called through the C extension's vectorcall where it is built
# (_fast.Launch, kjit/_launch_type.h: a typed cache of prepared launches), else through __call__ below.
_LBase = _dispatch._fast.Launch if _dispatch._fast is not None and hasattr(_dispatch._fast, "Launch") else object


class _Launch(_LBase):
    def __init__(self, kernel, config):
        self.kernel = kernel
        self.grid = _dim3(config[0], "the grid")
        self.block = _dim3(config[1], "the block")
        self.stream = config[2] if len(config) > 2 else 0
        self.shared = int(config[3]) if len(config) > 3 else 0
        self.dims = tuple(tuple(int(x) for x in c) if isinstance(c, tuple) else int(c) for c in config[:2])
        self._bound = None
        if _LBase is not object:
            g, b = self.grid, self.block
            self._kjit_launch_setup(self._slow_call, self._fast_raise, kernel.py_func.__code__.co_argcount,
                                    (g.x, g.y, g.z), (b.x, b.y, b.z))

    def _fast_raise(self, r):
        self._bound[0].raise_error(r[0], error_of(r))

    def _bind_fast(self, c, on_gpu):
        """Launches with seen argument types go straight to c's kernel through a prepared launch (not for
        units that print: the Python path flushes their output around each launch; nor for launches with
        dynamic shared memory, which go through compiled host code)."""
        target = _target_name()
        if self._bound is not None and self._bound[0] is c and self._bound[1] is target:
            return
        self._bound = (c, target)
        if c.prints or self.shared:
            self._kjit_bind(None, None, None, False, None)
        else:
            self._kjit_bind(c, c.fn_addr(self.kernel.kjit_name), target, on_gpu, _context_ptr() if on_gpu else None)

    def _slow_call(self, *args, **kwargs):
        k = self.kernel
        if kwargs:
            args = _bind(k.py_func, args, kwargs)
        if _funcargs.needs_binding(args, _dispatch.is_dispatcher):  # namedtuples: a launch in host code
            return _funcargs.call(k, args, _dispatch.is_dispatcher, _dispatch._FunctionArgsWrapper, self)
        if self.shared:
            k._ready()
            k._call(f"_kjit_launch_{k.kjit_name}", (self.dims[0], self.dims[1], self.shared) + tuple(args))
            return
        c = k._compiled
        if c is None or c.target != _target_name():
            c = k.compile_now()
        on_gpu = c.on_gpu
        if on_gpu is None:
            on_gpu = c.on_gpu = lib.kjit_module_target(c.module) == _lib.TARGETS["cuda"]
        self._launch(k, c, on_gpu, args)
        if _LBase is not object:
            self._bind_fast(c, on_gpu)

    def _launch(self, k, c, on_gpu, args):
        fast = _dispatch._fast
        if fast is not None and not _readonly.has_readonly(args):
            if c.prints:
                import sys
                sys.stdout.flush()
            r = fast.launch(c.fn_addr(k.kjit_name), self.dims[0], self.dims[1], args, on_gpu)
            if r is None:
                return
            if r is not NotImplemented:
                c.raise_error(r[0], error_of(r))
        f = c.fn(k.kjit_name)
        a = Args(args, None, for_kernel=on_gpu)
        err = _lib.Error()
        if c.prints:
            import sys
            sys.stdout.flush()
        try:
            if _readonly.has_readonly(args):
                _readonly.check(f, k.kjit_name, args, a.values, a.n, k.__dict__.setdefault("_readonly_memo", {}))
            code = lib.kjit_launch(f, self.grid, self.block, a.values, a.n, ctypes.byref(err))
            if not code:
                a.copy_back()
        finally:
            a.free()
        if code:
            c.raise_error(code, err)

    if _LBase is object:
        __call__ = _slow_call


if _LBase is not object:
    _dispatch._fast.enable_vectorcall(_Launch)


def _target_name():
    from . import config
    return config.TARGET


def jit(func_or_sig=None, device=False, **options):
    """numba.cuda.jit: @cuda.jit, @cuda.jit(device=True), @cuda.jit('void(float32[:])', ...)."""
    check_options("cuda", options)
    options["device"] = device
    if callable(func_or_sig) and not hasattr(func_or_sig, "return_type"):
        return CUDADispatcher(func_or_sig, None, options)
    sigs = func_or_sig

    def wrap(f):
        return CUDADispatcher(f, sigs, options)
    return wrap


class ReduceDispatcher(Dispatcher):
    """cuda.reduce / cuda.Reduce: a binary function folded over a 1-d array (host or device)."""

    def decorator_text(self):
        return "@_kjit_numba.cuda.reduce"

    def extra_pieces(self):
        n = self.kjit_name
        return super().extra_pieces() + [
            Piece(f"def _kjit_fold_{n}(a, init):\n    return {n}(a, init=init)\n", None, 0)]

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        self._ready()
        if size is not None:
            arr = arr[:size]
        r = self._call(f"_kjit_fold_{self.kjit_name}", (arr, init), raw=True)
        value = r[1].type(r[0]) if isinstance(r, tuple) and len(r) == 2 and isinstance(r[1], np.dtype) else r
        if res is not None:
            res[0] = value
            return None
        return value


def reduce(fn):
    return ReduceDispatcher(fn, None, {})


Reduce = reduce


def pinned(*arrays):
    """Numba page-locks the arrays inside this block; kjit's copies do not need it."""
    import contextlib
    return contextlib.nullcontext()


mapped = pinned


def defer_cleanup():
    """Numba defers freeing device memory inside this block; kjit frees when Python drops the array."""
    import contextlib
    return contextlib.nullcontext()


# ---- device arrays ----

def _context_ptr():
    from ._dispatch import _context
    return _context()


class DeviceNDArray(_cuda_views.DeviceViews):
    """An array on the device: host memory of its own and a kjit_array that kjit keeps on the GPU between
    launches (on the cpu target the two are the same memory). Values go in and out through
    copy_to_device / copy_to_host, as with Numba. `__cuda_array_interface__` (v3) exports its device copy;
    `as_cuda_array` makes one over another library's device memory (no copy)."""

    _shared = False  # the device copy is seen outside kjit: host accesses hand it back current

    def __init__(self, shape, dtype, strides=None, order="C", _host=None, _meta=None):
        if _host is None:
            _host = np.zeros(shape, dtype=dtype, order=order) if strides is None else \
                _cuda_views.strided_zeros(shape, dtype, strides)
        if _host.dtype not in _DTYPE_CODE and not _values_record.is_record_dtype(_host.dtype):
            raise TypingError(f"kjit: device arrays of dtype {_host.dtype} are not supported")
        self._host = _host
        # _meta: what the array shows, where it is not its host array's (random states: (n,) records)
        self._meta = _meta or (_host.shape, _host.dtype, _host.strides, _host.flags.c_contiguous,
                               _host.flags.f_contiguous)
        self._args = Args([_host], _context_ptr())
        self._ptr = self._args.wrapped[0]

    @classmethod
    def _from_interface(cls, obj, cai, sync=True):
        """A device array over the memory an object's __cuda_array_interface__ describes (no copy)."""
        shape, dtype, strides, ptr, readonly, stream = _cai.check_interface(cai)
        if sync and _cai.must_wait(stream):
            # The exporter's stream (named, or unknown: an interface before v3) is in this GPU context: waiting
            # for the context covers it. Work on the legacy default stream (1) is ordered before kjit's, which is
            # queued there too.
            synchronize()
        return cls._foreign(obj, shape, dtype, strides, ptr, readonly)

    @classmethod
    def _foreign(cls, obj, shape, dtype, strides, ptr, readonly=False):
        """A device array over foreign device memory (no copy); obj is kept alive with it."""
        self = cls.__new__(cls)
        self._args = None
        self._owner = _cai.DeviceOwner(_cai.wrap(_context_ptr(), shape, dtype, strides, ptr), obj)
        self._ptr = self._owner._ptr
        self._host = None  # made at the first host access, which copies the device's bytes back
        strides = tuple(strides) if strides is not None else _cuda_views.c_strides(shape, dtype.itemsize)
        flags = _cuda_views.dummy(shape, dtype, strides)[0].flags  # NumPy's, as a host array of this layout
        self._meta = (tuple(shape), dtype, strides, flags.c_contiguous, flags.f_contiguous)
        self._shared = True
        self._readonly = readonly  # the exporter's flag, given again by this array's own interface
        return self

    def _kjit_array(self):
        return self._ptr

    def _sync_host(self):
        """The host copy made current (kjit brings the device's back; it then counts as stale there)."""
        if self._host is None:
            self._host = np.asarray(self._owner)
        else:
            lib.kjit_array_data(self._ptr)
        return self._host

    def _release_host(self):
        """After a host access of a shared array: its device copy made current again, since another library
        reads and writes it there."""
        if self._shared:
            _cai.device_ptr(_context_ptr(), self._ptr)

    @property
    def __cuda_array_interface__(self):
        ptr = _cai.device_ptr(_context_ptr(), self._ptr)
        self._shared = True
        shape, dtype, strides, c, _ = self._meta
        return _cai.interface(shape, dtype, strides, c, ptr, getattr(self, "_readonly", False))

    def __dlpack_device__(self):
        _cai.device_ptr(_context_ptr(), self._ptr)  # AttributeError without a GPU, as for the interface
        return (_dlpack.KDL_CUDA, 0)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over the device copy (no copy). kjit's work is on the legacy default stream: a
        consumer on another stream gets it after a synchronize. The keywords of DLPack 1.0's consumers
        (PyTorch, CuPy) are taken: the capsule is the legacy one, which max_version allows."""
        if copy:
            raise BufferError("kjit exports its device arrays without a copy only (copy=True asked)")
        if dl_device is not None and tuple(dl_device) != (_dlpack.KDL_CUDA, 0):
            raise BufferError(f"kjit's device arrays are on CUDA device 0, not {tuple(dl_device)}")
        ptr = _cai.device_ptr(_context_ptr(), self._ptr)
        self._shared = True
        if stream not in (None, 1):
            synchronize()
        shape, dtype, strides, _, _ = self._meta
        return _dlpack.export_tensor(self, ptr, shape, dtype, strides)

    shape = property(lambda self: self._meta[0])
    dtype = property(lambda self: self._meta[1])
    strides = property(lambda self: self._meta[2])
    ndim = property(lambda self: len(self._meta[0]))
    size = property(lambda self: int(np.prod(self._meta[0], dtype=np.int64)))
    nbytes = property(lambda self: self.size * self._meta[1].itemsize)
    alloc_size = nbytes

    def __len__(self):
        if not self._meta[0]:
            raise TypeError("len() of unsized object")
        return self._meta[0][0]

    def copy_to_host(self, ary=None, stream=0):
        h = self._sync_host()
        out = _cuda_views.strided_copy(h) if ary is None else ary  # its strides kept, as numba-cuda
        if ary is not None:
            ary[...] = h
        self._release_host()
        return out

    def copy_to_device(self, ary, stream=0):
        src = ary.copy_to_host() if isinstance(ary, DeviceNDArray) else np.asarray(ary)
        self._sync_host()[...] = src
        self._release_host()

    def is_c_contiguous(self):
        return self._meta[3]

    def is_f_contiguous(self):
        return self._meta[4]

    def __getitem__(self, idx):
        v = self._getitem_view(idx)  # a view of the same memory (_cuda_views.py)
        if v is not None:
            return v
        r = self._sync_host()[idx]
        out = r if not isinstance(r, np.ndarray) else DeviceNDArray(None, None, _host=r)
        self._release_host()
        return out

    def __setitem__(self, idx, value):
        self._sync_host()[idx] = value
        self._release_host()

    def __repr__(self):
        # As Numba's simulator and `kjit run` print a device array: its values.
        s = str(self._sync_host())
        self._release_host()
        return s

    def __array__(self, dtype=None):
        h = self._sync_host()
        if self._shared:
            h = h.copy()
            self._release_host()
        return h if dtype is None else h.astype(dtype)

    def __del__(self):
        a = getattr(self, "_args", None)
        if a is not None:
            a.free()


def _init_fast_launch():
    """Give the C launch path (_launch_type.h) the library's prepared launches, DeviceNDArray and NumPy's
    scalar types in kjit_dtype order."""
    fast = _dispatch._fast
    if fast is None or not hasattr(fast, "init_launch"):
        return
    addr = lambda f: ctypes.cast(f, ctypes.c_void_p).value  # noqa: E731
    fast.init_launch(addr(lib.kjit_launch_prepare), addr(lib.kjit_launch_prepared), addr(lib.kjit_launch_plan_free),
                     addr(lib.kjit_array_ndim), addr(lib.kjit_array_shape), addr(lib.kjit_array_strides),
                     addr(lib.kjit_array_dtype), DeviceNDArray, tuple(np.dtype(n).type for n in _lib.DTYPES[:11]),
                     addr(lib.kjit_array_wrap_device))


_init_fast_launch()


def to_device(obj, stream=0, copy=True, to=None):
    if isinstance(obj, (DeviceNDArray, DeviceRecord)):
        return obj
    if isinstance(obj, np.void) and obj.dtype.names is not None:  # numba-cuda's DeviceRecord
        return DeviceRecord(obj) if to is None else (to.copy_to_device(obj) or to)
    h = np.array(obj, copy=True, order="K")
    if to is not None:
        to.copy_to_device(h)
        return to
    return DeviceNDArray(None, None, _host=h)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    if np.dtype(dtype) == random.xoroshiro128p_dtype:
        return random._states_array(shape)
    return DeviceNDArray(shape, dtype, strides=strides, order=order)


def device_array_like(ary, stream=0):
    return device_array(ary.shape, ary.dtype, order="F" if ary.flags.f_contiguous and ary.ndim > 1 else "C")


def _on_gpu():
    """Do device arrays live on the GPU (kernels launch there)? Else their host memory is their memory."""
    return _target_name() in ("cuda", "auto") and is_available()


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    return np.empty(shape, dtype=dtype, order=order)


mapped_array = pinned_array


def pinned_array_like(ary):
    return np.empty_like(ary)


def from_dlpack(obj):
    """A kjit device array over the CUDA tensor obj exports through __dlpack__ (CuPy, PyTorch), without a copy;
    the producer's deleter runs when the array goes."""
    shape, dtype, strides, ptr, owner = _dlpack.import_tensor(obj)
    if dtype not in _DTYPE_CODE:
        raise TypingError(f"DLPack: arrays of dtype {dtype} are not supported by kjit")
    return DeviceNDArray._foreign(owner, shape, dtype, strides, ptr)


def is_cuda_array(obj):
    """numba.cuda.is_cuda_array: a kjit device array, or any object that exports __cuda_array_interface__."""
    return isinstance(obj, DeviceNDArray) or _cai.exported_interface(obj) is not None


def as_cuda_array(obj, sync=True):
    """numba.cuda.as_cuda_array: a kjit device array over obj's device memory, without a copy (obj is kept
    alive with it). With sync (the default), work queued on the exporter's stream is waited for first."""
    if isinstance(obj, DeviceNDArray):
        return obj
    cai = _cai.exported_interface(obj)
    if cai is None:
        raise TypeError("*obj* doesn't implement the cuda array interface.")
    return DeviceNDArray._from_interface(obj, cai, sync)


def synchronize():
    err = _lib.Error()
    if lib.kjit_sync(_context_ptr(), ctypes.byref(err)):
        raise RuntimeError(err.message.decode())


class Stream:
    """kjit's launches are ordered on one stream per context: a stream is accepted and synchronises all."""

    def synchronize(self):
        synchronize()

    def auto_synchronize(self):
        import contextlib

        @contextlib.contextmanager
        def cm():
            yield self
            self.synchronize()
        return cm()


def stream():
    return Stream()


default_stream = per_thread_default_stream = legacy_default_stream = stream


class Event:
    """Times host-side: record() waits for the device, so elapsed_time is the work between two records."""

    def __init__(self, timing=True):
        self._t = None

    def record(self, stream=0):
        synchronize()
        self._t = time.perf_counter()

    def synchronize(self):
        synchronize()

    def wait(self, stream=0):
        synchronize()

    def query(self):
        return True

    def elapsed_time(self, end):
        return (end._t - self._t) * 1000.0


def event(timing=True):
    return Event(timing)


def event_elapsed_time(start, end):
    return start.elapsed_time(end)


def _sysinfo():
    n = lib.kjit_sysinfo(None, 0)
    lines = (_lib.SysinfoLine * n)()
    lib.kjit_sysinfo(lines, n)
    return [(ln.key.decode(), ln.value.decode()) for ln in lines]


_GPUS_FOUND = []  # _gpu_lines() once per process: kjit_sysinfo also walks the disk cache (seconds when large)


def _gpu_lines():
    if not _GPUS_FOUND:
        _GPUS_FOUND.append([(k, v) for k, v in _sysinfo() if k.startswith("GPU ") and not v.startswith("not found")])
    return _GPUS_FOUND[0]


def is_available():
    return bool(_gpu_lines())


def detect():
    gpus_ = _gpu_lines()
    print(f"Found {len(gpus_)} CUDA devices")
    for k, v in gpus_:
        print(f"id {k[4:]}    {v}")
    return bool(gpus_)


class _Device:
    """numba-cuda's Device (cudadrv/driver.py): id, name, compute_capability, uuid."""

    def __init__(self, i, desc):
        self.id = i
        self.name = desc.split(", compute capability")[0]
        m = __import__("re").search(r"compute capability (\d+)\.(\d+)", desc)
        self.compute_capability = (int(m.group(1)), int(m.group(2))) if m else None
        self._uuid = None

    @property
    def uuid(self):
        """As numba-cuda formats cuDeviceGetUuid's 16 bytes: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (all zeros
        for the cpu target's device 0, as Numba's simulator)."""
        if self._uuid is None:
            b = _device_uuid(self.id) if self.compute_capability else bytes(16)
            h = b.hex()
            self._uuid = f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
        return self._uuid

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}'>"

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


class _Gpus(list):
    @property
    def current(self):
        return self[0] if self else None


def __getattr__(name):
    # `gpus` asks the driver: only when used, not at import.
    if name == "gpus":  # without a GPU: device 0, the cpu target, as compiled code's cuda.gpus (docs/cuda.md)
        return _Gpus([_Device(int(k[4:]), v) for k, v in _gpu_lines()] or [_Device(0, "cpu target")])
    raise AttributeError(f"module 'kjit.cuda' has no attribute '{name}'")


def _device_uuid(i):
    """cuDeviceGetUuid of device i, through the driver kjit itself loads ($KJIT_LIBCUDA, else libcuda.so.1)."""
    import os
    cu = ctypes.CDLL(os.environ.get("KJIT_LIBCUDA") or "libcuda.so.1")
    dev, out = ctypes.c_int(), ctypes.create_string_buffer(16)
    get = getattr(cu, "cuDeviceGetUuid", None)
    if get is None or cu.cuInit(0) or cu.cuDeviceGet(ctypes.byref(dev), i) or get(out, dev):
        raise RuntimeError(f"kjit: cuDeviceGetUuid failed for device {i}")
    return out.raw


class _Context:
    """numba-cuda's Context, as far as host code reads it: its device; synchronize()."""

    def __init__(self, device):
        self.device = device

    def synchronize(self):
        synchronize()


def current_context(devnum=None):
    return _Context(get_current_device())


def get_context(devnum=None):
    return current_context(devnum)


def select_device(i):
    if i != 0:
        raise KjitUsageError("kjit uses device 0 only")
    g = __getattr__("gpus")
    return g[0] if g else _Device(0, "cpu target")


def get_current_device():
    return select_device(0)


def close():
    synchronize()


# --- compiling without launching (numba-cuda's host.rst "Compilation") ---

_COMPILE_OPTS = ("debug", "lineinfo", "device", "fastmath", "cc", "opt", "abi", "abi_info", "output",
                 "forceinline", "launch_bounds")


def _sig_source(sig):
    """A signature as kjit's source writes it: a string, or a tuple of argument types."""
    if isinstance(sig, str):
        return repr(sig)
    if isinstance(sig, (tuple, list)):
        return "(" + "".join(f"{_numba_type_source(t)}, " for t in sig) + ")"
    return repr(str(sig))  # a Numba signature object: float32(float32, float32)


def _numba_type_source(t):
    s = str(t)
    m = __import__("re").fullmatch(r"array\((\w+), (\d)d, ([CFA])\)", s)
    if m:  # array(float32, 1d, C) -> _kjit_numba.float32[::1]
        dims = ", ".join([":"] * int(m.group(2)))
        if m.group(3) == "C":
            dims = ", ".join([":"] * (int(m.group(2)) - 1) + ["::1"])
        return f"_kjit_numba.{m.group(1)}[{dims}]"
    return f"_kjit_numba.{s}"


class _CompileDispatcher(CUDADispatcher):
    """pyfunc as a device function of a unit whose host function calls cuda.compile_ptx (or a relative)
    on it: kjit makes the PTX as in a .k program (src/ir/cuda_compile.c)."""

    def __init__(self, py_func, call):
        self._compile_call = call
        super().__init__(py_func, None, {"device": True})

    def extra_pieces(self):
        n = self.kjit_name
        return Dispatcher.extra_pieces(self) + [
            Piece(f"def _kjit_compile_{n}():\n    c, r = {self._compile_call.format(name=n)}\n"
                  f"    return {'c[0]' if '.compile_all(' in self._compile_call else 'c'}, r\n", None, 0)]

    def run(self):
        self._ready()
        return self._call(f"_kjit_compile_{self.kjit_name}", ())


def _compile(api, pyfunc, sig, kwargs):
    for k in kwargs:
        if k not in _COMPILE_OPTS:
            raise TypeError(f"{api}() got an unexpected keyword argument '{k}'")
    opts = "".join(f", {k}={v!r}" for k, v in kwargs.items())
    d = _CompileDispatcher(pyfunc, f"_kjit_numba.cuda.{api}({{name}}, {_sig_source(sig)}{opts})")
    d.__dict__["_synth"] = True
    code, resty = d.run()
    from . import types as _types
    return code, getattr(_types, resty, resty)


def compile_ptx(pyfunc, sig, **kwargs):
    """numba.cuda.compile_ptx: (PTX text, return type) of pyfunc compiled for sig (a kernel unless
    device=True)."""
    return _compile("compile_ptx", pyfunc, sig, kwargs)


def compile_ptx_for_current_device(pyfunc, sig, **kwargs):
    return _compile("compile_ptx_for_current_device", pyfunc, sig, kwargs)


def compile(pyfunc, sig, **kwargs):  # noqa: A001 (numba-cuda's name)
    """numba.cuda.compile: (code, return type); a device function unless device=False; PTX only."""
    return _compile("compile", pyfunc, sig, kwargs)


def compile_for_current_device(pyfunc, sig, **kwargs):
    return _compile("compile_for_current_device", pyfunc, sig, kwargs)


def compile_all(pyfunc, sig, **kwargs):
    """numba.cuda.compile_all: ([code], return type); output='ptx' (kjit makes no LTO-IR)."""
    code, resty = _compile("compile_all", pyfunc, sig, kwargs)
    return [code], resty  # kjit's host code returns the one PTX (kjit_call returns no list yet)


import sys as _sys  # noqa: E402
_sys.modules.setdefault("kjit.cuda.random", random)
