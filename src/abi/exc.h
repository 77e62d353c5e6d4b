/* SPDX-License-Identifier: BSD-2-Clause */
/* The Python exception classes that compiled code raises: the run-time
 * error kinds (kj_rt_kind, runtime/rt.h), the classes a `raise` statement
 * may name, and each one's base class (what `except BASE` would catch).
 * A row's position is its kind's number, part of the ABI (abi.h's
 * KJ_ABI_VERSION): new rows go at the end. Columns: the kind's enum suffix,
 * the class name, its base's suffix (OK: Exception itself, the root), and
 * whether a program may raise it by name (0: only the runtime raises it, as
 * NumPy's AxisError, which `raise` cannot name without importing it). */
#ifndef KJ_ABI_EXC_H
#define KJ_ABI_EXC_H

#define KJ_EXC_CLASSES(X)                                            \
    X(OK, "no error", OK, 0)                                         \
    X(ZERO_DIVISION, "ZeroDivisionError", ARITHMETIC, 1)             \
    X(INDEX, "IndexError", LOOKUP, 1)                                \
    X(ASSERTION, "AssertionError", EXCEPTION, 1)                     \
    X(VALUE, "ValueError", EXCEPTION, 1)                             \
    X(OVERFLOW, "OverflowError", ARITHMETIC, 1)                      \
    X(MEMORY, "MemoryError", EXCEPTION, 1)                           \
    X(RUNTIME, "RuntimeError", EXCEPTION, 1)                         \
    X(TYPE, "TypeError", EXCEPTION, 1)                               \
    X(OS, "OSError", EXCEPTION, 1)                                   \
    X(FILE_NOT_FOUND, "FileNotFoundError", OS, 1)                    \
    X(RECURSION, "RecursionError", RUNTIME, 1)                       \
    X(AXIS, "AxisError", VALUE, 0)                                   \
    X(EXCEPTION, "Exception", OK, 1)                                 \
    X(KEY, "KeyError", LOOKUP, 1)                                    \
    X(NOT_IMPLEMENTED, "NotImplementedError", RUNTIME, 1)            \
    X(ARITHMETIC, "ArithmeticError", EXCEPTION, 1)                   \
    X(LOOKUP, "LookupError", EXCEPTION, 1)                           \
    X(ATTRIBUTE, "AttributeError", EXCEPTION, 1)                     \
    X(FLOATING_POINT, "FloatingPointError", ARITHMETIC, 1)           \
    X(UNICODE, "UnicodeError", VALUE, 1)                             \
    X(STOP_ITERATION, "StopIteration", EXCEPTION, 1)                 \
    X(NAME, "NameError", EXCEPTION, 1)                               \
    X(PERMISSION, "PermissionError", OS, 1)                          \
    X(LINALG, "LinAlgError", VALUE, 0)

#endif
