"""Numba's thread-pool API from Python (user/threading-layer.rst "Setting the Number of Threads", "Getting a
Thread ID"; user/parallel.rst "Scheduling"): numba.set_num_threads, get_num_threads, get_thread_id,
set_parallel_chunksize, get_parallel_chunksize and `with parallel_chunksize(n):`.

The settings are the run context's (kjit_ctx_threads_get/_set, include/kjit.h): the values compiled code
starts with, so that Python and @njit functions see the same ones; what compiled code sets stays set, as in
Numba. A setting made here applies to every kjit context the package has made (one per configuration) and to
those it makes later; Numba keeps them per thread, kjit per context."""

import ctypes

from . import _lib
from ._lib import lib

NUM, CHUNKSIZE, MAX, CPUS = range(4)
_set = {}  # what was set from Python: {NUM: n, CHUNKSIZE: n}, for the contexts made after


def _contexts():
    from ._dispatch import _contexts as made
    return list(made.values())


def _current():
    from ._dispatch import _context
    return _context()


def apply_to(ctx):
    """A new context starts with what Python set (_dispatch._context calls it)."""
    for which, value in _set.items():
        lib.kjit_ctx_threads_set(ctx, which, value, None)


def _set_all(which, value):
    err = _lib.Error()
    ctx = _current()
    if lib.kjit_ctx_threads_set(ctx, which, value, ctypes.byref(err)):
        raise ValueError(err.message.decode())
    for other in _contexts():
        if other != ctx:
            lib.kjit_ctx_threads_set(other, which, value, None)
    _set[which] = value


def _int(n, message):
    if isinstance(n, bool) or not hasattr(n, "__index__"):
        raise TypeError(message)
    return n.__index__()


def set_num_threads(n):
    """numba.set_num_threads: the threads later parallel loops use, 1..NUMBA_NUM_THREADS (else ValueError)."""
    _set_all(NUM, _int(n, "The number of threads specified must be an integer"))


def get_num_threads():
    return lib.kjit_ctx_threads_get(_current(), NUM)


def get_thread_id():
    """numba.get_thread_id: 0 in Python code (outside a parallel loop's workers)."""
    return 0


def set_parallel_chunksize(n):
    """numba.set_parallel_chunksize: iterations per chunk of later parallel loops (0: kjit's schedule); the
    previous size back. ValueError for n < 0."""
    old = get_parallel_chunksize()
    _set_all(CHUNKSIZE, _int(n, "The parallel chunksize must be an integer"))
    return old


def get_parallel_chunksize():
    return lib.kjit_ctx_threads_get(_current(), CHUNKSIZE)


class parallel_chunksize:
    """numba.parallel_chunksize(n): `with parallel_chunksize(n):` sets the chunk size for its body and puts
    the previous one back at its end."""

    def __init__(self, size):
        self.size = size
        self._old = None

    def __enter__(self):
        self._old = set_parallel_chunksize(self.size)

    def __exit__(self, *exc):
        set_parallel_chunksize(self._old)


def config_threads():
    """(NUMBA_NUM_THREADS, NUMBA_DEFAULT_NUM_THREADS) as libkjit counts them: the pool's size
    (KJIT_NUM_THREADS, else NUMBA_NUM_THREADS, else the CPUs this process may run on) and the CPUs."""
    n, cpus = lib.kjit_ctx_threads_get(None, MAX), lib.kjit_ctx_threads_get(None, CPUS)
    return (n if n > 0 else cpus), cpus
