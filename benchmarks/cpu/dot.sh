#!/bin/sh
# np.dot of two float64 N x N matrices, kjit against NumPy in one run (issue
# 25: 4096² within 1.1x of NumPy, both on OpenBLAS).
#
#   benchmarks/cpu/dot.sh KJIT [N [R [ROUNDS]]]
#
# KJIT is the kjit binary; N (4096) the side; R (5) the timed products after
# one untimed one (median kept); the two programs run ROUNDS (3) times,
# alternately, and each keeps the median of its rounds. Both use OpenBLAS
# with the same threads (OPENBLAS_NUM_THREADS, default: every core): kjit
# dlopens libopenblas.so.0, NumPy reaches it through libblas.so.3 (Debian's
# alternative; the script prints the library NumPy's process mapped, and
# stops when it is not OpenBLAS, since the comparison would then be of two
# BLAS libraries). Prints the milliseconds of each, NumPy's / kjit's (>= 1:
# kjit at least as fast) and whether one element of the products has the
# same bits.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
n=${2:-4096}
r=${3:-5}
rounds=${4:-3}
py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-dot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed -e "s/^N = .*/N = $n/" -e "s/^R = .*/R = $r/" "$here/dot.k" >"$tmp/dot.k"

blas=$("$py" -c '
import numpy as np
np.dot(np.ones((2, 2)), np.ones((2, 2)))
import os
libs = sorted({l.split()[-1] for l in open("/proc/self/maps") if "blas" in l.split()[-1]})
print(" ".join(os.path.realpath(x) for x in libs))')
echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores); OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-unset}"
echo "kjit: $("$kjit" --version); numpy: $("$py" -c 'import numpy; print(numpy.__version__)') on $blas"
case "$blas" in
*openblas*) ;;
*) echo "NumPy does not run on OpenBLAS here: install libopenblas0 (scripts/install-deps.sh)"; exit 1 ;;
esac
echo "np.dot ${n}x${n} float64, median of $r, median of $rounds rounds"
: >"$tmp/kjit.txt"
: >"$tmp/numpy.txt"
i=0
while [ "$i" -lt "$rounds" ]; do
    KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/dot.k" >>"$tmp/kjit.txt"
    "$py" "$tmp/dot.k" >>"$tmp/numpy.txt"
    i=$((i + 1))
done
sort -n -k2 "$tmp/kjit.txt" | sed -n "$(((rounds + 1) / 2))p" >"$tmp/k"
sort -n -k2 "$tmp/numpy.txt" | sed -n "$(((rounds + 1) / 2))p" >"$tmp/p"
read -r _ km kc <"$tmp/k"
read -r _ pm pc <"$tmp/p"
awk -v km="$km" -v pm="$pm" -v kc="$kc" -v pc="$pc" 'BEGIN {
    printf "%-6s %10s %10s %11s  %s\n", "op", "kjit ms", "numpy ms", "numpy/kjit", "same bits"
    printf "%-6s %10.1f %10.1f %10.3fx  %s\n", "dot", km, pm, pm / km, kc == pc ? "yes" : "NO (" kc " vs " pc ")"
}'
