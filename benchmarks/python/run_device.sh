#!/usr/bin/env bash
# Issue 27's figures and GPU interop checks in one command, for the GPU machine (one H100, NumPy 2.x, CuPy,
# PyTorch, Numba 0.68 with numba-cuda) and for this one (GPU rows skipped):
#
#     benchmarks/python/run_device.sh [--quick] [--repeat N]
#
# run from a checkout whose build/ holds kjit and libkjit.so(.0) (the files carried to the GPU machine).
# 1. The C fast path (python/kjit/_fast.c) for the python3 that runs here: the build's, if it was built for
#    this Python, else compiled now beside the library (build/python/) when this Python has its headers and
#    a C compiler is present (without it the package runs on ctypes alone, and the first line says so).
# 2. benchmarks/python/figures.py: every figure of issue 27 as a ratio against its reference (Numba 0.68,
#    CuPy RawKernel, `kjit run`) measured in the same run.
# 3. python/tests/test_gpu_interop.py: CuPy / PyTorch / Numba arrays in and out of kjit without copies.
# Python: $KJIT_PYTHON, else the first of python3, /usr/bin/python3 that imports NumPy.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
py=
for p in ${KJIT_PYTHON:-} python3 /usr/bin/python3; do
    if "$p" -c 'import numpy' 2>/dev/null; then py=$(command -v "$p"); break; fi
done
[ -n "$py" ] || { echo "run_device.sh: no python3 with NumPy"; exit 1; }
if [ -z "${KJIT_LIBRARY:-}" ]; then
    for l in build/libkjit.so build/libkjit.so.0; do
        [ -e "$l" ] && { KJIT_LIBRARY=$root/$l; break; }
    done
fi
[ -n "${KJIT_LIBRARY:-}" ] || { echo "run_device.sh: no build/libkjit.so(.0): build first or carry it"; exit 1; }
export KJIT_LIBRARY KJIT_PYTHON=$py
export KJIT_BIN=${KJIT_BIN:-$(dirname "$KJIT_LIBRARY")/kjit}
echo "== python: $py ($("$py" --version 2>&1)), library: $KJIT_LIBRARY"

# 1. the fast path for this Python
suffix=$("$py" -c 'import importlib.machinery as m; print(m.EXTENSION_SUFFIXES[0])')
fastdir=$(dirname "$KJIT_LIBRARY")/python
if ! ls "$fastdir/_fast$suffix" >/dev/null 2>&1; then
    inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    npinc=$("$py" -c 'import numpy; print(numpy.get_include())')
    cc=${CC:-cc}
    if [ -f "$inc/Python.h" ] && command -v "$cc" >/dev/null; then
        mkdir -p "$fastdir"
        if "$cc" -O2 -std=gnu17 -shared -fPIC -Iinclude -I"$inc" -DKJ_HAVE_NUMPY_H -isystem "$npinc" \
                python/kjit/_fast.c -o "$fastdir/_fast$suffix"; then
            echo "== built the C fast path for this Python: $fastdir/_fast$suffix"
        else
            echo "== could not build the C fast path ($cc): calls go through ctypes alone"
        fi
    else
        echo "== no Python.h ($inc) or no C compiler: the C fast path is absent, calls go through ctypes alone"
    fi
fi

# 2. the figures
echo "== figures (benchmarks/python/figures.py)"
"$py" benchmarks/python/figures.py "$@"
status=$?

# 3. the GPU interop tests (without pytest: the module's own runner)
echo "== GPU interop (python/tests/test_gpu_interop.py)"
if "$py" -c 'import pytest' 2>/dev/null; then
    "$py" -m pytest -q -p no:cacheprovider -rs python/tests/test_gpu_interop.py python/tests/test_gpu_devarrays.py || status=1
else
    "$py" python/tests/test_gpu_interop.py || status=1
    "$py" python/tests/test_gpu_devarrays.py || status=1
fi
exit $status
