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
# NUMBA_NUM_THREADS, and KJIT_NUM_THREADS over it (point 6)
KJIT_STATS=1 NUMBA_NUM_THREADS=4 k run --target parallel "$here/stats.k"
has "NUMBA_NUM_THREADS=4" err "^kjit stats: thread pool: 4 threads,"
KJIT_STATS=1 KJIT_NUM_THREADS=2 NUMBA_NUM_THREADS=4 k run --target parallel "$here/stats.k"
has "KJIT_NUM_THREADS=2 wins" err "^kjit stats: thread pool: 2 threads,"
# the second run of the same program finds its code in the cache
KJIT_STATS=1 k run --target cpu "$here/stats.k"
has "stats cache" err '^kjit stats: host code: 1 modules \(1 from the cache\)$'
# without KJIT_STATS nothing is printed
k run --target parallel "$here/stats.k"
if [ -s "$tmp/err" ]; then fail "no stats: stderr not empty: $(head -c 300 "$tmp/err")"; fi

# ---- progress on a terminal, nothing elsewhere (point 5) ----
# a program whose compile takes seconds: 600 functions through LLVM
python3 - "$tmp/big.k" <<'PY'
import sys
n = 600
src = ["import numpy as np", ""]
for i in range(n):
    src += [f"def f{i}(a, k):", "    s = 0.0", "    for j in range(a.shape[0]):",
            f"        s += np.sin(a[j] * k + {i}) * np.cos(a[j] - k) / (1.0 + a[j] * a[j])", "    return s", ""]
src += ["def main(n=10):", "    a = np.arange(n) * 0.5", "    t = 0.0"]
src += [f"    t += f{i}(a, {i}.0)" for i in range(n)]
src += ["    print(t > -1e300)"]
open(sys.argv[1], "w").write("\n".join(src) + "\n")
PY
# 400 runs of 5 to 20 ms: past the second after which the line shows
bench=(bench --target cpu,parallel --sweep n=2000000,4000000 --repeat 100 "$here/stats.k")
k "${bench[@]}"
status "bench, not a terminal" 0
grep -q 'kjit bench:' "$tmp/err" && fail "bench: a progress line on a stderr that is not a terminal"
grep -q $'\r' "$tmp/out" "$tmp/err" && fail "bench: a carriage return in output that is not a terminal"
k run --no-cache "$tmp/big.k"
status "long compile, not a terminal" 0
[ -s "$tmp/err" ] && fail "long compile: stderr not empty on a non-terminal: $(head -c 300 "$tmp/err")"
if script -qec true /dev/null >/dev/null 2>&1; then
    # on a terminal (script(1) gives the command one; stdout and stderr both land in its output)
    script -qec "$(printf '%q ' "$kjit" "${bench[@]}")" /dev/null >"$tmp/out" 2>&1 </dev/null
    rc=$?
    status "bench on a terminal" 0
    has "bench on a terminal" out $'\r\033\\[Kkjit bench: (cpu|parallel) on n=[0-9]+, repeat [0-9]+/100 \\([0-9]+/400 runs, [0-9]+ s, about [0-9]+ s left\\)'
    script -qec "$(printf '%q ' "$kjit" run --no-cache "$tmp/big.k")" /dev/null >"$tmp/out" 2>&1 </dev/null
    rc=$?
    status "long compile on a terminal" 0
    has "long compile on a terminal" out "^kjit: compiling $tmp/big.k: [a-zA-Z ()]+ \\([0-9]+\\.[0-9] s so far\\)"
    has "long compile on a terminal" out "^kjit: compiled $tmp/big.k in [0-9]+\\.[0-9] s"
    has "long compile on a terminal" out '^True'
    # a short compile on a terminal says nothing
    script -qec "$(printf '%q ' "$kjit" run "$here/index.k")" /dev/null >"$tmp/out" 2>&1 </dev/null
    grep -q 'kjit: compil' "$tmp/out" && fail "short compile on a terminal: $(head -c 300 "$tmp/out")"
else
    echo "note: no script(1): progress on a terminal not tested"
fi

# ---- Numba's variables (point 6): honoured, KJIT_* wins, garbage refused ----
# CASE PATTERN ENV...: `kjit ir index.k` under ENV has (or, with !PATTERN,
# has not) main's boundscheck
bc() {
    local case=$1 want=$2
    shift 2
    env "$@" "$kjit" ir "$here/index.k" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    status "$case" 0
    if [ "$want" = on ]; then has "$case" out '^main main\[int\].* boundscheck$'
    elif grep -q 'boundscheck' "$tmp/out"; then fail "$case: boundscheck on: $(head -1 "$tmp/out")"; fi
}
bc "NUMBA_BOUNDSCHECK=1" on NUMBA_BOUNDSCHECK=1
bc "NUMBA_BOUNDSCHECK=yes" on NUMBA_BOUNDSCHECK=yes
bc "no variable" off
bc "KJIT_BOUNDSCHECK=0 wins" off KJIT_BOUNDSCHECK=0 NUMBA_BOUNDSCHECK=1
bc "KJIT_BOUNDSCHECK empty: NUMBA's" on KJIT_BOUNDSCHECK= NUMBA_BOUNDSCHECK=1
# NUMBA_OPT: the default of -O; KJIT_OPT wins over it, -O over both
k llvm -O0 "$here/index.k" && cp "$tmp/out" "$tmp/o0"
k llvm -O3 "$here/index.k" && cp "$tmp/out" "$tmp/o3"
cmp -s "$tmp/o0" "$tmp/o3" && fail "NUMBA_OPT: -O0 and -O3 give the same LLVM IR"
NUMBA_OPT=0 k llvm "$here/index.k"
cmp -s "$tmp/out" "$tmp/o0" || fail "NUMBA_OPT=0 is not -O0"
NUMBA_OPT=max k llvm "$here/index.k"
cmp -s "$tmp/out" "$tmp/o3" || fail "NUMBA_OPT=max is not -O3"
KJIT_OPT=3 NUMBA_OPT=0 k llvm "$here/index.k"
cmp -s "$tmp/out" "$tmp/o3" || fail "KJIT_OPT=3 does not win over NUMBA_OPT=0"
NUMBA_OPT=0 k llvm -O3 "$here/index.k"
cmp -s "$tmp/out" "$tmp/o3" || fail "-O3 does not win over NUMBA_OPT=0"
# NUMBA_CACHE_DIR: the cache's directory when KJIT_CACHE_DIR is not set
(unset KJIT_CACHE_DIR; NUMBA_CACHE_DIR=$tmp/numba-cache "$kjit" run "$here/index.k" >/dev/null 2>&1)
[ -n "$(ls -A "$tmp/numba-cache" 2>/dev/null)" ] || fail "NUMBA_CACHE_DIR: nothing cached there"
NUMBA_CACHE_DIR=$tmp/numba-cache2 k run "$here/index.k"
[ -e "$tmp/numba-cache2" ] && fail "NUMBA_CACHE_DIR used though KJIT_CACHE_DIR is set"
# garbage, named, exit 2, even where kjit's variable or an option wins
KJIT_NUM_THREADS=2 NUMBA_NUM_THREADS=abc k check "$here/index.k"
status "NUMBA_NUM_THREADS=abc under KJIT_NUM_THREADS" 2
has "NUMBA_NUM_THREADS=abc" err "^kjit: error: NUMBA_NUM_THREADS='abc' is not a thread count"
for v in NUMBA_BOUNDSCHECK=maybe NUMBA_OPT=4 NUMBA_OPT=fast KJIT_OPT=-1 KJIT_OPT=2x; do
    env "$v" "$kjit" check "$here/index.k" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    status "$v" 2
    has "$v" err "^kjit: error: ${v%%=*}="
done
KJIT_BOUNDSCHECK=1 NUMBA_BOUNDSCHECK=maybe k check --boundscheck "$here/index.k"
status "NUMBA_BOUNDSCHECK=maybe under KJIT_BOUNDSCHECK" 2
KJIT_OPT=2 NUMBA_OPT=9 k check -O1 "$here/index.k"
status "NUMBA_OPT=9 under KJIT_OPT and -O1" 2
has "NUMBA_OPT=9" err "NUMBA_OPT='9' is not an optimisation level"

exit $((failed > 0))
