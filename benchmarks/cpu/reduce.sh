#!/bin/sh
# Reductions of a float32 M x M array, kjit against NumPy in one run, one
# thread (issue 11: sum/mean/std of 10000² f32 at least NumPy's speed):
# sum, mean, std, min, max over the whole array (axis None) and along axes
# 0 and 1.
#
#   benchmarks/cpu/reduce.sh KJIT [M [R]]
#
# KJIT is the kjit binary; M (10000) the side of the array; R (7) the timed
# repetitions of each case after one untimed one (the median is kept; the
# array is written before anything is timed, so first-touch page faults are
# outside the timings). $PYTHON (python3) must have NumPy. Prints per case
# the milliseconds of each, NumPy's time / kjit's (>= 1: kjit at least as
# fast) and whether the two results have the same bits (one element's
# round-trip digits).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
m=${2:-10000}
r=${3:-7}
py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-reduce.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed -e "s/^M = .*/M = $m/" -e "s/^R = .*/R = $r/" "$here/reduce.k" >"$tmp/reduce.k"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 KJIT_NUM_THREADS=1

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores)"
echo "kjit: $("$kjit" --version); numpy: $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "array: ${m}x${m} float32, median of $r"
KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/reduce.k" >"$tmp/kjit.txt"
"$py" "$tmp/reduce.k" >"$tmp/numpy.txt"

awk '
FNR == 1 { f++ }
f == 1 { k[$1 " " $2] = $3; kc[$1 " " $2] = $4; order[++n] = $1 " " $2 }
f == 2 { np[$1 " " $2] = $3; nc[$1 " " $2] = $4 }
END {
    printf "%-6s %-5s %10s %10s %11s  %s\n", "op", "axis", "kjit ms", "numpy ms", "numpy/kjit", "same bits"
    for (i = 1; i <= n; i++) {
        w = order[i]
        split(w, p, " ")
        printf "%-6s %-5s %10.2f %10.2f %10.2fx  %s\n", p[1], p[2], k[w], np[w], np[w] / k[w], kc[w] == nc[w] ? "yes" : "NO (" kc[w] " vs " nc[w] ")"
    }
}' "$tmp/kjit.txt" "$tmp/numpy.txt"
