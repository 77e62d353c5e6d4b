"""python3 -m kjit script.py [args]: run a Numba program with `numba` resolved to kjit.

Host code runs in CPython; functions decorated with numba's decorators compile with kjit."""

import os
import sys
import types


def alias_numba():
    """Make `import numba`, `numba.cuda`, `numba.types`, `numba.typed` give kjit's modules."""
    import kjit
    import kjit.core  # noqa: F401  (numba.core)
    for name, mod in (("numba", kjit), ("numba.cuda", kjit.cuda), ("numba.types", kjit.types),
                      ("numba.typed", kjit.typed), ("numba.cuda.random", kjit.cuda.random), ("numba.core.errors", kjit.errors),
                      ("numba.config", kjit.config), ("numba.core", kjit.core),
                      ("numba.core.types", kjit.types), ("numba.core.config", kjit.config)):
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
    run_script(script, call_main=script.endswith(".k") and not _has_main_guard(script))
    return 0


def run_script(path, call_main):
    """Run `path` as the __main__ module (as `python3 path` does), kept in sys.modules so that kjit finds
    its source and globals at every later call; then `main()` when `call_main` (`kjit run` calls a .k file's
    main itself, guard or not)."""
    with open(path, "rb") as f:
        code = compile(f.read(), path, "exec")
    mod = types.ModuleType("__main__")
    mod.__file__ = path
    mod.__builtins__ = __builtins__
    sys.modules["__main__"] = mod
    exec(code, mod.__dict__)
    if call_main and callable(mod.__dict__.get("main")):
        mod.main()


def _has_main_guard(path):
    import ast
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    return any(isinstance(n, ast.If) and "__main__" in ast.unparse(n.test) for n in tree.body)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
