#!/usr/bin/env bash
# Regenerate NAME.expected of the run/ golden programs from CPython + NumPy
# + Numba (the CUDA simulator stands in for the GPU), never from kjit:
#
#   tests/golden/run/make_expected.sh [NAME.k ...]     (default: all)
#
# Uses /usr/bin/python3 (Debian's, with numpy 1.24 and python3-numba).
# Programs marked "# NumPy 2" on some lines (nep50.k) are skipped: their
# .expected holds NumPy 2's output on those lines, edited by hand (see the
# program's header). NAME.stderr files (the run-time error programs) hold
# what `kjit run` prints; check their message against Python's by hand.
# The warp-operation programs (parallel_warp_*.k) get theirs from NumPy
# through warp_expected.py: the simulator has no warp operations.
set -eu
cd "$(dirname "$0")"
py=${PYTHON:-/usr/bin/python3}
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(*.k)
for f in "${files[@]}"; do
    name=${f%.k}
    if grep -q "# NumPy 2" "$f"; then
        echo "skip $f (hand-edited NumPy 2 lines)"
        continue
    fi
    # Numba 0.56 has only Generator.random, and no numpy.polynomial classes (0.59)
    if grep -q "Generator methods in @jit\|numpy.polynomial classes in @jit" "$f"; then
        NUMBA_DISABLE_JIT=1 "$py" "$f" >"$name.expected"
        echo "wrote $name.expected (NUMBA_DISABLE_JIT=1: plain NumPy)"
        continue
    fi
    if grep -q "warp_expected.py" "$f"; then # no warp operations in the simulator
        "$py" warp_expected.py "${name#parallel_warp_}" >"$name.expected"
        echo "wrote $name.expected (warp_expected.py)"
        continue
    fi
    NUMBA_ENABLE_CUDASIM=1 "$py" "$f" >"$name.expected" 2>/dev/null || true
    echo "wrote $name.expected"
done
