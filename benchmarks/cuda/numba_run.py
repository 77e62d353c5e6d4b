"""Run a .k benchmark under CPython + Numba: numba_run.py FILE.k [name=value ...].

The .k files are Python; main's parameters are ints. NumPy 2.5 removed
np.row_stack, which Numba 0.68 still imports."""
import sys
import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack

path = sys.argv[1]
kwargs = {k: int(v) for k, v in (a.split("=", 1) for a in sys.argv[2:])}
env = {"__name__": "kbench"}
exec(compile(open(path).read(), path, "exec"), env)
env["main"](**kwargs)
