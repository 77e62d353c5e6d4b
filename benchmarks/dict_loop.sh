#!/bin/sh
# The dict benchmark (issue 24, "Performance"): insert n int64 -> float64
# entries into a dict and look them up, hits and misses (dict_loop/dict_loop.k), kjit
# against the same function under Numba on this machine, in one run; prints
# the best times and the ratio kjit/Numba. Goal: <= 1.5.
#
#   benchmarks/dict_loop.sh [BUILDDIR] [N] [REPEAT]
#
# kjit's time is `kjit bench`'s fastest run of main (host code, compile
# excluded); Numba's the fastest call after a first one compiled it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
n=${2:-1000000}
repeat=${3:-5}
prog="$here/dict_loop/dict_loop.k"

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores)"
echo "kjit: $("$build/kjit" --version) ($build); numba: $(/usr/bin/python3 -c 'import numba; print(numba.__version__)')"
best=$("$build/kjit" bench --repeat "$repeat" "$prog" n="$n" | sed -n 's/^defaults .*(\([0-9.]*\) \([mu]*s\)-.*/\1 \2/p')
kjit_s=$(echo "$best" | awk '{ v = $1; if ($2 == "ms") v /= 1e3; else if ($2 == "us") v /= 1e6; printf "%.6f", v }')
numba_s=$(/usr/bin/python3 "$here/dict_loop/numba_time.py" "$prog" "$n" "$repeat" 2>/dev/null)
echo "n = $n, best of $repeat"
echo "kjit  $kjit_s s"
echo "numba $numba_s s"
awk -v k="$kjit_s" -v m="$numba_s" 'BEGIN { printf "ratio kjit/numba %.2f (goal <= 1.5)\n", k / m }'
