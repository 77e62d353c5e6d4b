"""numba.core for kjit: the submodules Numba programs import from it (`from numba.core import types`)."""

from . import config, errors, types  # noqa: F401
