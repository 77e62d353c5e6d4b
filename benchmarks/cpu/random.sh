#!/bin/sh
# np.random draws, kjit against NumPy in one run, one thread (issue 25:
# random draws of 10^7 normals at most NumPy's time): normal,
# standard_normal, uniform, exponential and poisson of N values.
#
#   benchmarks/cpu/random.sh KJIT [N [R [ROUNDS]]]
#
# KJIT is the kjit binary; N (10^7) the draws per call; R (5) the timed
# repetitions of each case after one untimed one (median kept). The two
# programs run ROUNDS (3) times, alternately, and each case keeps the median
# of its rounds. $PYTHON (python3) must have NumPy. Prints per case the
# milliseconds of each, NumPy's time / kjit's (>= 1: kjit at least as fast)
# and whether the draws are the same (random.k's exact check of every element's bits).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
n=${2:-10000000}
r=${3:-5}
rounds=${4:-3}
py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-random.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed -e "s/^N = .*/N = $n/" -e "s/^R = .*/R = $r/" "$here/random.k" >"$tmp/random.k"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 KJIT_NUM_THREADS=1

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores)"
echo "kjit: $("$kjit" --version); numpy: $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "draws: $n, median of $r, median of $rounds rounds"
: >"$tmp/kjit.txt"
: >"$tmp/numpy.txt"
i=0
while [ "$i" -lt "$rounds" ]; do
    KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/random.k" >>"$tmp/kjit.txt"
    "$py" "$tmp/random.k" >>"$tmp/numpy.txt"
    i=$((i + 1))
done

awk -v rounds="$rounds" '
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
f == 1 { w = $1; kr[w]++; kt[w, kr[w]] = $2; kc[w] = $3; if (kr[w] == 1) order[++n] = w }
f == 2 { w = $1; nr[w]++; nt[w, nr[w]] = $2; nc[w] = $3 }
END {
    printf "%-16s %10s %10s %11s  %s\n", "draw", "kjit ms", "numpy ms", "numpy/kjit", "same numbers"
    for (i = 1; i <= n; i++) {
        w = order[i]; k = med(kt, w); np = med(nt, w)
        printf "%-16s %10.2f %10.2f %10.2fx  %s\n", w, k, np, np / k, kc[w] == nc[w] ? "yes" : "NO (" kc[w] " vs " nc[w] ")"
    }
}' "$tmp/kjit.txt" "$tmp/numpy.txt"
