"""Lets Numba's CUDA target import and type kernels under NumPy 2.4+ (the GPU machine: Numba 0.68 with
numba-cuda). NumPy 2.4 removed functions that numba-cuda still names while registering its overloads
(`AttributeError: module 'numpy' has no attribute 'row_stack'`); each missing one gets its successor, before
`numba.cuda` is imported. Nothing changes where the old name exists (NumPy 1.x, this machine's Numba 0.56).

Imported by benchmarks/python/*.py and by the scripts they run in fresh processes (bench.FIRST_CALL), and by
python/tests/test_gpu_interop.py; tests/surface/surface.py does the same for the surface oracle."""

import numpy

# (removed name, successor): the three of NumPy 2.4 that numba-cuda names.
RENAMED = (("row_stack", "vstack"), ("in1d", "isin"), ("trapz", "trapezoid"))


def install(np=numpy):
    """Give each removed name its successor; the names set (empty where NumPy still has them)."""
    done = []
    for old, new in RENAMED:
        if not hasattr(np, old) and hasattr(np, new):
            setattr(np, old, getattr(np, new))
            done.append(old)
    return done


SET = install()
