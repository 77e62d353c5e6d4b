"""Run golden programs (tests/golden/run/NAME.k) one after another in this one process, each as
`python3 -m kjit NAME.k` runs it (numba resolved to kjit, the file as __main__, then main()), and write one JSON
line per program to the file given: {"name", "out", "error", "exc"} (error: the traceback of the exception
that ended the program, exc its last line; None when it ran to its end), after a {"name", "start"} line. One process for many programs
keeps the imports (NumPy, kjit) out of each program's time (test_main.py).

    python3 golden_batch.py RESULTS.jsonl NAME...

Each program's output is taken at file-descriptor level (compiled code prints through C's stdout, not through
sys.stdout): fd 1 goes to a temporary file around the program, with both stdio layers flushed."""
import ctypes
import json
import os
import signal
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
RUN = os.path.join(ROOT, "tests", "golden", "run")
sys.path.insert(0, os.path.join(ROOT, "python"))

import kjit  # noqa: E402
from kjit import __main__ as kjit_main  # noqa: E402

libc = ctypes.CDLL(None)


def flush():
    sys.stdout.flush()
    sys.stderr.flush()
    libc.fflush(None)


class Timeout(Exception):
    pass


def on_alarm(*_):
    raise Timeout("over 120 s")


def exception_line(e):
    """The exception as the last line of a run/ program's NAME.stderr gives it: `ZeroDivisionError: message`,
    `AxisError: ...` (the class's own name, as `kjit run` prints it)."""
    name = type(e).__qualname__
    text = str(e)
    return f"{name}: {text}" if text else name


def run_one(name):
    """(output, None, None) or (output so far, the error's traceback, its last line as Python prints it)."""
    path = os.path.join(RUN, name + ".k")
    saved_argv, saved_path = list(sys.argv), list(sys.path)
    kjit.config.TARGET = "cpu"
    flush()
    with tempfile.TemporaryFile() as out:
        saved = os.dup(1)
        os.dup2(out.fileno(), 1)  # sys.stdout writes fd 1 too
        main_module = sys.modules["__main__"]
        error = exc = None
        signal.alarm(120)
        try:
            sys.argv = [path]
            sys.path.insert(0, RUN)
            kjit_main.run_script(path, call_main=not kjit_main._has_main_guard(path))
        except SystemExit as e:
            if e.code not in (None, 0):
                error = exc = f"SystemExit({e.code!r})"
        except BaseException as e:  # noqa: the program's own exception is its result
            error = traceback.format_exc(limit=-3)
            exc = exception_line(e)
        finally:
            signal.alarm(0)
            flush()
            sys.modules["__main__"] = main_module
            os.dup2(saved, 1)
            os.close(saved)
            sys.argv, sys.path[:] = saved_argv, saved_path
        out.seek(0)
        return out.read().decode("utf-8", "replace"), error, exc


def main(argv):
    kjit_main.alias_numba()
    signal.signal(signal.SIGALRM, on_alarm)
    os.chdir(RUN)
    with open(argv[0], "a") as results:
        for name in argv[1:]:
            results.write(json.dumps({"name": name, "start": True}) + "\n")
            results.flush()  # a program that kills the process is known by its start line
            text, error, exc = run_one(name)
            results.write(json.dumps({"name": name, "out": text, "error": error, "exc": exc}) + "\n")
            results.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
