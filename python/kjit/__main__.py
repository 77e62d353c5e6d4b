"""python3 -m kjit script.py [args]: run a Numba program with `numba` resolved to kjit.

Host code runs in CPython; functions decorated with numba's decorators compile with kjit."""

import os
import runpy
import sys


def alias_numba():
    """Make `import numba`, `numba.cuda`, `numba.types`, `numba.typed` give kjit's modules."""
    import kjit
    for name, mod in (("numba", kjit), ("numba.cuda", kjit.cuda), ("numba.types", kjit.types),
                      ("numba.typed", kjit.typed), ("numba.core.errors", kjit.errors),
                      ("numba.config", kjit.config)):
        sys.modules[name] = mod


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python3 -m kjit SCRIPT.py [ARGS...]\n"
              "Runs SCRIPT with `numba` resolved to kjit: decorated functions compile with kjit.\n"
              "KJIT_TARGET=cpu|parallel|cuda|auto picks the target (default auto).",
              file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    script = argv[0]
    if not os.path.exists(script):
        print(f"python3 -m kjit: cannot open '{script}': no such file", file=sys.stderr)
        return 2
    alias_numba()
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
