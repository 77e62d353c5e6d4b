#!/usr/bin/env bash
# Differential reference: runs the valid programs under CPython + Numba (CUDA
# simulator for kernels), since every valid .k program must also be a valid
# Numba program.
#   lang/examples/*.k              must run and print exactly NAME.expected
#   tests/golden/valid/*.k, ir/*.k, llvm/*.k, tests/ptx/*.k
#                                  must run without error
#   tests/golden/valid_kjit_only/  must at least be valid Python
# (valid_kjit_only/ holds valid programs that Numba 0.56 cannot run; a
# pinned program of ir/, llvm/ or tests/ptx/ that it cannot run says why in
# a `# kjit-only: REASON` line, and is only compiled as Python too.)
# Prints one line per failure, then `numba: N passed, N failed`.
#   scripts/check-numba.sh [PROGRAM.k ...]     (default: all of the above)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# The pyenv python3 earlier on PATH may lack Debian's numba; find one that has it.
py=""
for cand in ${KJIT_PYTHON:-} python3 /usr/bin/python3; do
    if "$cand" -c 'import numba, numpy' >/dev/null 2>&1; then
        py=$cand
        break
    fi
done
if [ -z "$py" ]; then
    echo "numba: no python3 with numba found (apt-get install python3-numba)"
    echo "numba: 0 passed, 1 failed"
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-numba.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export NUMBA_ENABLE_CUDASIM=1 NUMBA_CACHE_DIR="$tmp/cache" PYTHONDONTWRITEBYTECODE=1
# numpy's own threads only slow the simulator's many threads down.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

if [ $# -gt 0 ]; then
    progs=("$@")
else
    progs=(lang/examples/*.k tests/golden/valid/*.k tests/golden/ir/*.k tests/golden/llvm/*.k tests/ptx/*.k)
fi

# With KJIT=path/to/kjit, each program's `kjit run` output must also equal
# Numba's, except for the deliberate differences listed (with their reasons)
# in tests/golden/valid/DIFFERENCES and programs kjit cannot run yet there.
kjit_matches() {
    local f=$1 name
    name=$(basename "$f")
    if grep -qs "^$name " tests/golden/valid/DIFFERENCES; then return 0; fi
    case $f in */ir/* | */llvm/* | */ptx/*) return 0 ;; esac
    [ -n "${KJIT:-}" ] || return 0
    (cd "$(dirname "$f")" && timeout 120 "$KJIT" run --target cpu "$(basename "$f")") \
        >"$tmp/kout" 2>"$tmp/kerr" || { cat "$tmp/kerr" >>"$tmp/kout"; return 1; }
    cmp -s "$tmp/out" "$tmp/kout"
}
[ -z "${KJIT:-}" ] || KJIT=$(cd "$(dirname "$KJIT")" && pwd)/$(basename "$KJIT")
passed=0
failed=0
# is_python FILE: it compiles as Python (else says why, as a failure).
is_python() {
    if "$py" -c 'import sys; compile(open(sys.argv[1], "rb").read(), sys.argv[1], "exec")' "$1" \
        2>"$tmp/err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $1: not valid Python"
        sed 's/^/    /' "$tmp/err"
    fi
}

for f in "${progs[@]}"; do
    if grep -q '^# kjit-only:' "$f"; then
        is_python "$f"
        continue
    fi
    # Only the examples' .expected files hold stdout (ir/'s, llvm/'s and
    # ptx/'s hold kjit's IR, LLVM IR and PTX).
    exp=""
    case $f in */examples/*) exp="${f%.k}.expected" ;; esac
    # `python3 prog.k` runs the file as __main__, as the programs expect.
    (cd "$(dirname "$f")" && timeout 300 "$py" "$(basename "$f")") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        failed=$((failed + 1))
        echo "FAIL $f: exit $rc under CPython + Numba"
        tail -n 15 "$tmp/err" | sed 's/^/    /'
    elif grep -q 'object mode' "$tmp/err"; then
        # @jit silently falls back to CPython when nopython typing fails.
        failed=$((failed + 1))
        echo "FAIL $f: Numba fell back to object mode (not a nopython program)"
        grep -A4 'failed type inference' "$tmp/err" | head -n 8 | sed 's/^/    /'
    elif [ -n "$exp" ] && [ -f "$exp" ] && ! cmp -s "$exp" "$tmp/out"; then
        failed=$((failed + 1))
        echo "FAIL $f: output differs from $(basename "$exp")"
        diff -u --label expected --label numba "$exp" "$tmp/out" | sed 's/^/    /'
    elif [ -n "${KJIT:-}" ] && ! kjit_matches "$f"; then
        failed=$((failed + 1))
        echo "FAIL $f: kjit run prints something else than CPython + Numba"
        diff -u --label numba --label kjit "$tmp/out" "$tmp/kout" | head -n 20 | sed 's/^/    /'
    else
        passed=$((passed + 1))
    fi
done
# Programs Numba 0.56 cannot run must still be Python.
if [ $# -eq 0 ]; then
    for f in tests/golden/valid_kjit_only/*.k; do
        [ -e "$f" ] || continue
        is_python "$f"
    done
fi
echo "numba: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
