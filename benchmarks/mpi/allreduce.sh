#!/usr/bin/env bash
# comm.Allreduce of device arrays on the GPUs of one host (docs/scale-out.md):
#     benchmarks/mpi/allreduce.sh KJIT [GPUS] [SIZES]
# defaults: GPUS="2 4" (those above the machine's count are left out),
# SIZES="1 1024 262144 16777216" float32 elements. For each, one rank per GPU
# runs benchmarks/mpi/allreduce.k with the device path at every size
# (KJIT_MPI_COLL_MIN=0: GPU to GPU through
# CUDA IPC, reduced on the GPU) and, in the same run, with KJIT_MPI_IPC=0
# (staged through page-locked host memory, reduced by MPI on the host), and
# prints the time per call of each and their ratio (issue 29, point 3).
set -uo pipefail
kjit=$(realpath "${1:?usage: allreduce.sh KJIT [GPUS] [SIZES]}")
gpus=${2:-2 4}
sizes=${3:-1 1024 262144 16777216}
prog=$(cd "$(dirname "$0")" && pwd)/allreduce.k
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
command -v mpirun >/dev/null 2>&1 || { echo "allreduce: no mpirun on PATH"; exit 2; }
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
"$kjit" run --target cuda "$prog" n=16 reps=1 >/dev/null || exit 1
printf '%-5s %10s %14s %14s %8s %s\n' gpus elements "device (us)" "staged (us)" ratio checked
for g in $gpus; do
    [ "${have:-0}" -ge "$g" ] || continue
    for n in $sizes; do
        dev=$(KJIT_MPI_COLL_MIN=0 mpirun -x KJIT_MPI_COLL_MIN -n "$g" "$kjit" run --target cuda "$prog" n="$n")
        stg=$(KJIT_MPI_IPC=0 mpirun -x KJIT_MPI_IPC -n "$g" "$kjit" run --target cuda "$prog" n="$n")
        read -r _ td okd <<<"$dev"
        read -r _ ts oks <<<"$stg"
        printf '%-5s %10s %14.1f %14.1f %8.3f %s\n' "$g" "$n" "$td" "$ts" "$(awk -v a="$td" -v b="$ts" 'BEGIN { print a / b }')" "$okd$oks"
    done
done
