#!/bin/sh
# The compile-scaling benchmark (issue 11, point 6): wall time of a cold
# `kjit run` (no cache: parse, check, LLVM -O3, load, run) of a generated
# program of N independent @jit functions (gen.py), with the program split
# into as many modules as KJIT_NUM_THREADS allows: 1, 2, 4, ... up to the
# cores of the machine. Prints the median of RUNS runs for each and its
# ratio to the two-module time. Target on a 16-core host: all cores <= 0.5x
# the time with two modules.
#
#   benchmarks/compile_scale/run.sh KJIT [N] [RUNS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=${1:?usage: run.sh KJIT [N] [RUNS]}
n=${2:-100}
runs=${3:-5}
py=${PYTHON:-/usr/bin/python3}
cores=$(nproc)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-compile-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$py" "$here/gen.py" "$n" > "$tmp/prog.k"
want=$(KJIT_NO_CACHE=1 "$kjit" run "$tmp/prog.k")
if "$py" -c "import numba" 2>/dev/null; then
    ref=$("$py" "$tmp/prog.k")
    [ "$want" = "$ref" ] || { echo "kjit prints $want, Numba $ref" >&2; exit 1; }
fi

# median wall time (ms) of `runs` cold runs with KJIT_NUM_THREADS=$1
median_ms() {
    i=0
    : > "$tmp/times"
    while [ $i -lt "$runs" ]; do
        t0=$(date +%s%N)
        out=$(KJIT_NUM_THREADS=$1 KJIT_NO_CACHE=1 "$kjit" run "$tmp/prog.k")
        t1=$(date +%s%N)
        [ "$out" = "$want" ] || { echo "threads=$1: prints $out, want $want" >&2; exit 1; }
        echo $(( (t1 - t0) / 1000 )) >> "$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.1f", m / 1000 }'
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($cores cores); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "kjit: $("$kjit" --version); program: $n functions (gen.py); cold runs, median of $runs"
threads="1 2"
t=4
while [ $t -lt "$cores" ]; do threads="$threads $t"; t=$((t * 2)); done
[ "$cores" -gt 2 ] && threads="$threads $cores"
two=$(median_ms 2)
printf '%-12s %10s %8s\n' modules ms "vs 2"
for t in $threads; do
    if [ "$t" = 2 ]; then ms=$two; else ms=$(median_ms "$t"); fi
    printf '%-12s %10s %8s\n' "up to $t" "$ms" "$(awk -v a="$ms" -v b="$two" 'BEGIN { printf "%.2fx", a / b }')"
done
