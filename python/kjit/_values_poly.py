"""numpy.polynomial.Polynomial arguments and results, as Numba boxes them (numba/np/polynomial/polynomial_core.py):
typed from the object's coef, domain and window arrays, passed as a tuple of the three tagged
KJIT_TUPLE_POLYNOMIAL (their memory without a copy); a Polynomial result is Polynomial(coef, domain, window)."""

from numpy.polynomial import Polynomial

TUPLE_POLYNOMIAL = 1  # kjit.h's KJIT_TUPLE_POLYNOMIAL, in a tuple value's dtype


def is_polynomial(o):
    return isinstance(o, Polynomial)


def items(o):
    return o.coef, o.domain, o.window


def result(coef, domain, window):
    return Polynomial(coef, domain, window)
