# @njit functions whose results are strings made at run time (test_str_results.py): before, the C API
# handed back a pointer into memory the run had freed (garbled text, UnicodeDecodeError).
from kjit import njit


@njit
def greet(name, n):
    return f"hello {name} #{n}"


@njit
def shout(s):
    return s.upper() + "!"


@njit
def parts(s):
    return s.strip(), len(s), s.replace(" ", "_")


@njit
def first_chars(s):
    it = iter(s)
    return next(it) + next(it)


@njit
def constant():
    return "a literal"
