#!/bin/sh
# CUDA-style kernels on every core (issue 10): kernels.k on kjit's cpu target
# (blocks one after the other) and its parallel target (blocks over the
# thread pool); prints each time and cpu/parallel (target on a 16-core
# host: >= 10). The results must be the same on both targets.
#   benchmarks/parallel/kernels.sh [BUILDDIR] [N] [M]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
n=${2:-4096}
m=${3:-512}
run() { KJIT_NO_CACHE=1 "$build/kjit" run --target "$1" "$here/kernels.k" n="$n" m="$m"; }
cpu=$(run cpu)
par=$(run parallel)
echo "machine: $(nproc) cores; n=$n (stencil), m=$m (matmul), best of 3 launches each"
for k in stencil matmul; do
    c=$(echo "$cpu" | awk -v k=$k '$1 == k {print $2}')
    p=$(echo "$par" | awk -v k=$k '$1 == k {print $2}')
    cv=$(echo "$cpu" | awk -v k=$k '$1 == k {print $3}')
    pv=$(echo "$par" | awk -v k=$k '$1 == k {print $3}')
    [ "$cv" = "$pv" ] || { echo "$k: results differ: cpu $cv, parallel $pv" >&2; exit 1; }
    echo "$k: cpu $c s, parallel $p s, cpu/parallel $(awk -v a="$c" -v b="$p" 'BEGIN {printf "%.2f", a / b}')x"
done
