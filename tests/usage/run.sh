#!/usr/bin/env bash
# The command's reports and settings (issue 30, points 4-6): KJIT_STATS=1
# on the host targets, progress only on a terminal, Numba's environment
# variables (honoured, KJIT_* wins, garbage refused naming the variable).
#   tests/usage/run.sh KJIT SRCDIR
set -uo pipefail
kjit=$(realpath "$1")
here=$(realpath "$2")/tests/usage
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-usage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache
unset KJIT_BOUNDSCHECK KJIT_NO_CACHE KJIT_NO_FUSE KJIT_STATS KJIT_DEVICE KJIT_MPI_TIMEOUT KJIT_NUM_THREADS \
    KJIT_OPT KJIT_DISABLE_JIT NUMBA_NUM_THREADS NUMBA_BOUNDSCHECK NUMBA_CACHE_DIR NUMBA_OPT NUMBA_DISABLE_JIT
failed=0
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}
# `kjit ARGS`: status in $rc, output in $tmp/out and $tmp/err
k() {
    "$kjit" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
# CASE FILE PATTERN: FILE has a line matching the extended regex PATTERN
has() {
    grep -qE -- "$3" "$tmp/$2" || fail "$1: no /$3/ in $2: $(head -c 800 "$tmp/$2" | tr '\n' '|')"
}
status() {
    [ "$rc" -eq "$2" ] || fail "$1: exit status $rc, want $2: $(head -c 600 "$tmp/out" "$tmp/err" | tr '\n' '|')"
}

# ---- KJIT_STATS=1 on the host targets (point 4) ----
ms='[0-9]+\.[0-9]+ ms'
for target in cpu parallel; do
    KJIT_STATS=1 k run --target "$target" "$here/stats.k"
    status "stats $target" 0
    has "stats $target" out '^4000\.0$'
    has "stats $target" err "^kjit stats: compile: parse $ms, sema $ms, KIR passes $ms, target/pool/MPI $ms, host code \(LLVM\) $ms, GPU code \(PTX, cubin, load\) $ms$"
    has "stats $target" err '^kjit stats: host code: 1 modules \(0 from the cache\)$'
    has "stats $target" err "^kjit stats: launches of twice on the host: 2, $ms$"
done
# the parallel target: its pool's threads and parallel regions (the kernel's
# blocks, the prange loop)
KJIT_STATS=1 KJIT_NUM_THREADS=3 k run --target parallel "$here/stats.k"
has "stats pool" err "^kjit stats: thread pool: 3 threads, [1-9][0-9]* parallel regions, $ms$"
# the second run of the same program finds its code in the cache
KJIT_STATS=1 k run --target cpu "$here/stats.k"
has "stats cache" err '^kjit stats: host code: 1 modules \(1 from the cache\)$'
# without KJIT_STATS nothing is printed
k run --target parallel "$here/stats.k"
if [ -s "$tmp/err" ]; then fail "no stats: stderr not empty: $(head -c 300 "$tmp/err")"; fi

exit $((failed > 0))
