#!/usr/bin/env bash
# meson test `python`: pytest over python/tests with the given libkjit.so.
# Uses /usr/bin/python3 (Debian's, with NumPy, Numba and pytest) when it has
# them, else python3 on PATH; exit 77 (skip) when neither has numpy and pytest.
set -euo pipefail
lib=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
# A sanitizer build's library needs its runtime loaded first into Python (which is not built with it);
# Python's own allocations at exit are not kjit's leaks.
if nm -D "$lib" 2>/dev/null | grep ' U __asan_init' >/dev/null; then  # not -q: pipefail and SIGPIPE
    rt=$("${KJIT_ASAN_CC:-clang-22}" -print-file-name=libclang_rt.asan-x86_64.so 2>/dev/null || true)
    [ -f "$rt" ] || { echo "python tests skipped: no ASan runtime to preload ($rt)"; exit 77; }
    export LD_PRELOAD=$rt
    export ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-halt_on_error=1}
fi
for py in /usr/bin/python3 python3; do
    if "$py" -c 'import numpy, pytest' 2>/dev/null; then
        export KJIT_LIBRARY=$lib
        # the calls again through the ctypes path alone (without the C fast path, kjit/_fast.c)
        KJIT_NO_FAST=1 "$py" -m pytest -q -p no:cacheprovider "$here/test_package.py" "$here/test_views_readonly.py" \
            "$here/test_numba_api.py"
        exec "$py" -m pytest -q -p no:cacheprovider "$here"
    fi
done
echo "python tests skipped: no python3 with numpy and pytest (Debian: python3-numpy python3-pytest)"
exit 77
