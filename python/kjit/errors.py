"""kjit's exceptions, named as Numba's (numba.core.errors)."""


class KjitError(Exception):
    """Base of kjit's own errors (Numba's NumbaError)."""


NumbaError = KjitError


class TypingError(KjitError):
    """A decorated function does not compile: kjit's diagnostics, located in the original file."""


class UnsupportedError(TypingError):
    """The function uses something kjit does not compile (its source cannot be found, ...)."""


class KjitUsageError(KjitError, TypeError):
    """A bad call of the API (a kernel called without a launch configuration, ...)."""
