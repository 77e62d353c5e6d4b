#!/bin/sh
# The parallel ufunc benchmark (issue 10): a*b + sin(a) + cos(b) over N x N
# float32 as a @vectorize (ufunc.k), kjit's cpu target (one thread) against
# its parallel target (the thread pool: KJIT_NUM_THREADS, else every CPU),
# and Numba's target='parallel' when python3 has Numba. Prints each time
# (best of REPS calls) and the ratios. Targets on a 16-core host:
# cpu/parallel >= 12 and kjit parallel faster than Numba parallel.
#
#   benchmarks/parallel/run.sh [BUILDDIR] [N] [REPS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build-release}" && pwd)
n=${2:-10000}
reps=${3:-5}
kjit="$build/kjit"
py=${PYTHON:-/usr/bin/python3}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores); n=$n, best of $reps"
echo "kjit: $("$kjit" --version) ($build); threads: ${KJIT_NUM_THREADS:-${NUMBA_NUM_THREADS:-all CPUs}}"
run_kjit() { KJIT_NO_CACHE=1 "$kjit" run --target "$1" "$here/ufunc.k" n="$n" reps="$reps"; }
cpu_out=$(run_kjit cpu)
par_out=$(run_kjit parallel)
cpu=$(echo "$cpu_out" | sed -n 1p)
par=$(echo "$par_out" | sed -n 1p)
# the same element on both targets (the loop is elementwise: bit for bit)
if [ "$(echo "$cpu_out" | sed -n 2p)" != "$(echo "$par_out" | sed -n 2p)" ]; then
    echo "results differ: cpu $(echo "$cpu_out" | sed -n 2p), parallel $(echo "$par_out" | sed -n 2p)" >&2
    exit 1
fi
echo "kjit cpu:       $cpu s"
echo "kjit parallel:  $par s"
awk -v c="$cpu" -v p="$par" 'BEGIN { printf "cpu/parallel:   %.2fx\n", c / p }'
if "$py" -c "import numba" 2>/dev/null; then
    nb=$("$py" "$here/numba_ufunc.py" "$n" "$reps" parallel | sed -n 1p)
    echo "numba parallel: $nb s"
    awk -v nb="$nb" -v p="$par" 'BEGIN { printf "numba/kjit parallel: %.2fx (> 1: kjit faster)\n", nb / p }'
else
    echo "numba parallel: skipped (no numba in $py)"
fi
