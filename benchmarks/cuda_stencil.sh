#!/usr/bin/env bash
# The 3x3 stencil kernel on n x n float32 (default 10000), kjit against the
# same kernel in CUDA C built with nvcc -O3 -arch=sm_90, in the same run;
# medians of 20 launches timed with CUDA events. Then the compile times of
# lang/examples/stencil.k on the GPU: cold (no cache) and warm (cache hit),
# medians of 5 whole `kjit run`s, with KJIT_STATS's breakdown of one run.
#   benchmarks/cuda_stencil.sh [KJIT] [N]      (on a machine with a GPU and nvcc)
set -euo pipefail
kjit=${1:-build/kjit}
n=${2:-10000}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

nvcc -O3 -arch=sm_90 benchmarks/cuda/stencil.cu -o "$tmp/stencil"
c=$("$tmp/stencil" "$n" 20 | median)
k=$("$kjit" run --target=cuda benchmarks/cuda/stencil.k n="$n" reps=20 | median)
echo "stencil ${n}x${n} f32 kernel: CUDA C $c ms, kjit $k ms, kjit/C $(awk -v a="$k" -v b="$c" 'BEGIN {printf "%.3f", a / b}')"

wall() { # wall time of one command in ms
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}
cold=$(for r in 1 2 3 4 5; do KJIT_NO_CACHE=1 wall "$kjit" run --target=cuda lang/examples/stencil.k; done | median)
"$kjit" run --target=cuda lang/examples/stencil.k >/dev/null
warm=$(for r in 1 2 3 4 5; do wall "$kjit" run --target=cuda lang/examples/stencil.k; done | median)
echo "kjit run lang/examples/stencil.k --target cuda: cold (no cache) $cold ms, warm (cache hit) $warm ms"
echo "one cold run's breakdown (KJIT_STATS=1):"
KJIT_NO_CACHE=1 KJIT_STATS=1 "$kjit" run --target=cuda lang/examples/stencil.k 2>&1 >/dev/null | sed 's/^/  /'
