#!/bin/sh
# np.sort, np.argsort, np.unique, np.median, np.histogram and np.percentile
# of N float64,
# kjit against NumPy in one run, one thread (issue 25: sort, unique, median
# and histogram of 10**7 at least NumPy's speed).
#
#   benchmarks/cpu/sortstat.sh KJIT [N [R [ROUNDS]]]
#
# KJIT is the kjit binary; N (10000000) the elements; R (5) the timed
# repetitions of each case after one untimed one (the median is kept). The
# two programs run ROUNDS (3) times, alternately, and each case keeps the
# median of its rounds (a loaded machine's speed moves between processes).
# $PYTHON (/usr/bin/python3) must have NumPy. Prints per case the
# milliseconds of each, NumPy's time / kjit's (>= 1: kjit at least as fast)
# and whether the two results agree (one element of each, round-trip
# digits; argsort's may differ where NumPy's quicksort orders ties
# otherwise: these random doubles have none).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
n=${2:-10000000}
r=${3:-5}
rounds=${4:-3}
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-sortstat.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed -e "s/^N = .*/N = $n/" -e "s/^R = .*/R = $r/" "$here/sortstat.k" >"$tmp/sortstat.k"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 KJIT_NUM_THREADS=1

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores), $(date -u +%Y-%m-%d)"
echo "kjit: $("$kjit" --version); numpy: $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "data: $n float64, median of $r, median of $rounds rounds; kjit --target cpu"
echo
: >"$tmp/kjit.txt"
: >"$tmp/numpy.txt"
i=0
while [ "$i" -lt "$rounds" ]; do
    KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/sortstat.k" >>"$tmp/kjit.txt"
    "$py" "$tmp/sortstat.k" >>"$tmp/numpy.txt"
    i=$((i + 1))
done
awk -v rounds="$rounds" '
BEGIN { split("sort argsort unique median histogram percentile", name, " ") }
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
f == 1 { w = $1; kr[w]++; kt[w, kr[w]] = $2; kc[w] = $3; if (kr[w] == 1) order[++n] = w }
f == 2 { w = $1; nr[w]++; nt[w, nr[w]] = $2; nc[w] = $3 }
END {
    for (i = 1; i <= n; i++) { w = order[i]; k[w] = med(kt, w); np[w] = med(nt, w) }
    printf "%-10s %10s %10s %11s  %s\n", "op", "kjit ms", "numpy ms", "numpy/kjit", "same result"
    for (i = 1; i <= n; i++) {
        w = order[i]
        printf "%-10s %10.2f %10.2f %10.2fx  %s\n", name[w + 1], k[w], np[w], np[w] / k[w], kc[w] == nc[w] ? "yes" : "NO (" kc[w] " vs " nc[w] ")"
    }
}' "$tmp/kjit.txt" "$tmp/numpy.txt"
