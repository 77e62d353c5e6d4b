#!/bin/sh
# Reductions of a float32 M x M array, kjit against NumPy in one run, one
# thread (issue 11: sum/mean/std of 10000² f32 at least NumPy's speed):
# sum, mean, std, min, max over the whole array (axis None) and along axes
# 0 and 1.
#
#   benchmarks/cpu/reduce.sh KJIT [M [R [ROUNDS]]]
#
# KJIT is the kjit binary; M (10000) the side of the array; R (7) the timed
# repetitions of each case after one untimed one (the median is kept; the
# array is written before anything is timed, so first-touch page faults are
# outside the timings). The two programs run ROUNDS (3) times, alternately,
# and each case keeps the median of its rounds: a run's memory bandwidth
# moves by 10 % from one process to the next on the GPU machine's host. $PYTHON (python3) must have NumPy. Prints per case
# the milliseconds of each, NumPy's time / kjit's (>= 1: kjit at least as
# fast) and whether the two results have the same bits (one element's
# round-trip digits).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
m=${2:-10000}
r=${3:-7}
rounds=${4:-3}
py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-reduce.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed -e "s/^M = .*/M = $m/" -e "s/^R = .*/R = $r/" "$here/reduce.k" >"$tmp/reduce.k"
# TARGET=parallel runs kjit on the parallel target with every core (NumPy
# keeps its one thread): whole-array float reductions then use the pool.
target=${TARGET:-cpu}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
[ "$target" = parallel ] || export KJIT_NUM_THREADS=1

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores)"
echo "kjit: $("$kjit" --version); numpy: $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "array: ${m}x${m} float32, median of $r, median of $rounds rounds; kjit --target $target"
: >"$tmp/kjit.txt"
: >"$tmp/numpy.txt"
i=0
while [ "$i" -lt "$rounds" ]; do
    KJIT_NO_CACHE=1 "$kjit" run --target "$target" "$tmp/reduce.k" >>"$tmp/kjit.txt"
    "$py" "$tmp/reduce.k" >>"$tmp/numpy.txt"
    i=$((i + 1))
done

awk -v rounds="$rounds" '
# the median of the rounds values of case w in t (t[w, 1..rounds])
function med(t, w,    v, i, j, x) {
    for (i = 1; i <= rounds; i++) v[i] = t[w, i]
    for (i = 2; i <= rounds; i++) {
        x = v[i]
        for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
        v[j + 1] = x
    }
    return v[int((rounds + 1) / 2)]
}
FNR == 1 { f++ }
f == 1 { w = $1 " " $2; kr[w]++; kt[w, kr[w]] = $3; kc[w] = $4; if (kr[w] == 1) order[++n] = w }
f == 2 { w = $1 " " $2; nr[w]++; nt[w, nr[w]] = $3; nc[w] = $4 }
END {
    for (i = 1; i <= n; i++) { w = order[i]; k[w] = med(kt, w); np[w] = med(nt, w) }
    printf "%-6s %-5s %10s %10s %11s  %s\n", "op", "axis", "kjit ms", "numpy ms", "numpy/kjit", "same bits"
    for (i = 1; i <= n; i++) {
        w = order[i]
        split(w, p, " ")
        printf "%-6s %-5s %10.2f %10.2f %10.2fx  %s\n", p[1], p[2], k[w], np[w], np[w] / k[w], kc[w] == nc[w] ? "yes" : "NO (" kc[w] " vs " nc[w] ")"
    }
}' "$tmp/kjit.txt" "$tmp/numpy.txt"
