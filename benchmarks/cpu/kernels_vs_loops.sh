#!/bin/sh
# @cuda.jit kernels on the cpu target against the same work as @jit loops
# (issue 11, point 3; target: kernel <= 1.5x the loop), one thread:
#   benchmarks/cpu/kernels_vs_loops.sh KJIT [N] [S] [REPS]
# runs kernels_vs_loops.k (3x3 stencil on N x N float32; saxpy on S float32
# as a grid-stride kernel and as a thread-per-element kernel), best of REPS
# launches or calls each, results checked equal, and prints the times and
# kernel/loop ratios. Defaults: N=4096, S=16777216 (2^24), REPS=5.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=${1:?usage: kernels_vs_loops.sh KJIT [N] [S] [REPS]}
n=${2:-4096}
s=${3:-16777216}
reps=${4:-5}
out=$(KJIT_NO_CACHE=1 "$kjit" run --target cpu "$here/kernels_vs_loops.k" n="$n" s="$s" reps="$reps")
field() { echo "$out" | awk -v k="$1" -v f="$2" '$1 == k {print $f}'; }
check() {
    [ "$(field "$1" 3)" = "$(field "$2" 3)" ] || { echo "$1: result $(field "$1" 3) differs from $2's $(field "$2" 3)" >&2; exit 1; }
}
check stencil_kernel stencil_loop
check saxpy_stride_kernel saxpy_loop
check saxpy_kernel saxpy_loop
echo "machine: $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')); one thread; n=$n, s=$s, best of $reps"
row() {
    k=$(field "$1" 2)
    l=$(field "$2" 2)
    awk -v name="$3" -v k="$k" -v l="$l" 'BEGIN {printf "%-40s kernel %8.2f ms   loop %8.2f ms   kernel/loop %5.2fx (target <= 1.5)\n", name, k * 1e3, l * 1e3, k / l}'
}
row stencil_kernel stencil_loop "stencil ${n}^2 f32, (32, 8) blocks"
row saxpy_stride_kernel saxpy_loop "saxpy $s f32, grid-stride 256x256"
row saxpy_kernel saxpy_loop "saxpy $s f32, thread per element"
