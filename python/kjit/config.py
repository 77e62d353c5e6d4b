"""Settings, read when a function compiles (as numba.config).

TARGET: 'auto' (default; as `kjit run --target auto`: cuda for kernels when a GPU is present, else cpu),
'cpu', 'parallel' or 'cuda'; from $KJIT_TARGET. OPT: 0..3 (default 3, $KJIT_OPT). BOUNDSCHECK: None (the
decorators decide), True or False ($NUMBA_BOUNDSCHECK / $KJIT_BOUNDSCHECK). CACHE_DIR: None for kjit's
default ($KJIT_CACHE_DIR). Change them before the first call of the functions they should apply to."""

import os

from . import _threads


def _env_bool(*names):
    for n in names:
        v = os.environ.get(n)
        if v is not None and v != "":
            return v.strip().lower() in ("1", "yes", "true", "on")
    return None


TARGET = os.environ.get("KJIT_TARGET", "auto")
OPT = int(os.environ.get("KJIT_OPT", "3"))
BOUNDSCHECK = _env_bool("NUMBA_BOUNDSCHECK")
CACHE_DIR = None
# Numba names some programs read; kjit's compiled code does not depend on them.
DISABLE_JIT = False
# the thread pool's size and the CPUs, as libkjit counts them (_threads.py)
NUMBA_NUM_THREADS, NUMBA_DEFAULT_NUM_THREADS = _threads.config_threads()
ENABLE_CUDASIM = False
