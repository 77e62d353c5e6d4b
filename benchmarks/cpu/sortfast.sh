#!/bin/sh
# kjit's sorts against its plain path and NumPy (issue 25): np.sort of
# float64/float32/int64/int32/uint64/uint32, np.argsort of float64,
# np.unique of 2000 distinct float64 / int64 values and of distinct
# float64, at each size of SIZES, one thread.
#
#   benchmarks/cpu/sortfast.sh KJIT [SIZES [R [ROUNDS]]]
#
# KJIT is the kjit binary; SIZES ("1000 100000 10000000") the element
# counts; R (3) the timed repetitions of each case after one untimed one
# (median kept; small sizes time 10^7/N calls a repetition). Three
# programs run ROUNDS (2) times, alternately, and each case keeps the
# median of its rounds: kjit as it runs by default (the AVX-512 quicksort
# on CPUs that have AVX-512F, np.unique's hash pass), kjit with
# KJIT_SORT_PLAIN=1 (the LSD radix sorts), and $PYTHON (/usr/bin/python3)
# with NumPy. Columns: milliseconds a call, plain / kjit (the fast path's
# speedup) and numpy / kjit (>= 1: kjit at least as fast), and whether the
# three check values (one element of the result) agree.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
sizes=${2:-1000 100000 10000000}
r=${3:-3}
rounds=${4:-2}
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-sortfast.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 KJIT_NUM_THREADS=1

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores; $(grep -q avx512f /proc/cpuinfo && echo AVX-512F || echo no AVX-512F)), $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "kjit: $("$kjit" --version | head -n 1); numpy: $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "median of $r, median of $rounds rounds; kjit --target cpu"
printf '%-14s %9s %10s %10s %10s %7s %7s %s\n' case size "kjit ms" "plain ms" "numpy ms" plain/k numpy/k same
for n in $sizes; do
    k=$((10000000 / n))
    [ "$k" -ge 1 ] || k=1
    sed -e "s/^N = .*/N = $n/" -e "s/^R = .*/R = $r/" -e "s/^K = .*/K = $k/" "$here/sortfast.k" >"$tmp/sortfast.k"
    : >"$tmp/k.txt"
    : >"$tmp/p.txt"
    : >"$tmp/n.txt"
    i=0
    while [ "$i" -lt "$rounds" ]; do
        KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/sortfast.k" >>"$tmp/k.txt"
        KJIT_SORT_PLAIN=1 KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/sortfast.k" >>"$tmp/p.txt"
        "$py" "$tmp/sortfast.k" >>"$tmp/n.txt"
        i=$((i + 1))
    done
    awk -v n="$n" '
    BEGIN { split("sort_f64 sort_f32 sort_i64 sort_i32 sort_u64 sort_u32 argsort_f64 unique_few_f64 unique_few_i64 unique_f64", name, " ") }
    function med(side, w, c,    v, i, j, x) {
        for (i = 1; i <= c; i++) v[i] = t[side, w, i]
        for (i = 2; i <= c; i++) {
            x = v[i]
            for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
            v[j + 1] = x
        }
        return v[int((c + 1) / 2)]
    }
    FNR == 1 { f++ }
    { w = $1; c[f, w]++; t[f, w, c[f, w]] = $2; chk[f, w] = $3; if (f == 1 && c[f, w] == 1) order[++m] = w }
    END {
        for (i = 1; i <= m; i++) {
            w = order[i]
            k = med(1, w, c[1, w]); p = med(2, w, c[2, w]); q = med(3, w, c[3, w])
            same = chk[1, w] == chk[2, w] && chk[1, w] == chk[3, w] ? "yes" : "NO"
            printf "%-14s %9d %10.3f %10.3f %10.3f %6.2fx %6.2fx %s\n", name[w + 1], n, k, p, q, p / k, q / k, same
        }
    }' "$tmp/k.txt" "$tmp/p.txt" "$tmp/n.txt"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
