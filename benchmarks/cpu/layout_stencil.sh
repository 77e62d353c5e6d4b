#!/bin/sh
# Thread-layout specialisation on the cpu target (issue 28, point 1; goal: the
# naive-layout stencil kernel <= 1.2x the @jit loop), one thread:
#   benchmarks/cpu/layout_stencil.sh KJIT [N] [REPS]
# runs layout_stencil.k with the specialisation on, then off
# (KJIT_NO_SPECIALISE=1), results checked equal, and prints each kernel's
# time and its ratio to the loop. Defaults: N=4096, REPS=5.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=${1:?usage: layout_stencil.sh KJIT [N] [REPS]}
n=${2:-4096}
reps=${3:-5}
on=$(KJIT_NO_CACHE=1 "$kjit" run --target cpu "$here/layout_stencil.k" n="$n" reps="$reps")
off=$(KJIT_NO_CACHE=1 KJIT_NO_SPECIALISE=1 "$kjit" run --target cpu "$here/layout_stencil.k" n="$n" reps="$reps")
field() { echo "$1" | awk -v k="$2" -v f="$3" '$1 == k {print $f}'; }
for k in naive_16x16 naive_32x8 coalesced_32x8; do
    for o in "$on" "$off"; do
        [ "$(field "$o" $k 3)" = "$(field "$o" loop 3)" ] || { echo "$k: result $(field "$o" $k 3) differs from the loop's $(field "$o" loop 3)" >&2; exit 1; }
    done
done
echo "machine: $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')); one thread; n=$n, best of $reps"
for k in naive_16x16 naive_32x8 coalesced_32x8; do
    awk -v name="$k" -v a="$(field "$on" $k 2)" -v b="$(field "$off" $k 2)" -v la="$(field "$on" loop 2)" \
        -v lb="$(field "$off" loop 2)" 'BEGIN {
        printf "stencil %-16s remapped %8.2f ms (%5.2fx the loop)   as written %8.2f ms (%5.2fx)   goal <= 1.2x\n",
               name, a * 1e3, a / la, b * 1e3, b / lb }'
done
