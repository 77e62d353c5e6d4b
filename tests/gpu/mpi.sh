#!/usr/bin/env bash
# MPI on a GPU machine (docs/scale-out.md):  tests/gpu/mpi.sh KJIT [ROOT]
# mpirun comes from PATH (Open MPI; bring it there first). On --target cuda:
# 1. the MPI examples and tests/mpi/{progs,kjit_only}/*.k: 2 ranks sharing the
#    GPU (and 4 where there are as many GPUs or `KJIT_MPI_GPU_RANKS=4`) print
#    exactly what one rank prints without mpirun, which is the .expected file;
# 2. a device-array program (tests/mpi/kjit_only/mpi_device.k) under KJIT_STATS=1:
#    each rank reports its MPI counters and how device buffers went;
# 3. the heat solver at 2048^2 prints the same checksum on 1 and 2 ranks;
# 4. device buffers (tests/fake_gpu/mpi_halo.k, one rank): a halo row of a
#    device grid moves only its bytes, through page-locked staging (or as a
#    device pointer where the library is CUDA-aware), and so do the heat
#    solver's device buffers under mpirun -n 2 go peer to peer (KJIT_STATS lines printed);
# 5. tests/fake_gpu/mpi_ipc.k on two ranks: device buffers through CUDA IPC,
#    and through pinned staging with KJIT_MPI_IPC=0, the same answer.
# Exits 77 (skipped) without a GPU or without mpirun.
set -uo pipefail
kjit=$(realpath "$1")
root=$(realpath "${2:-$(dirname "$0")/../..}")
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-gpu-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
command -v mpirun >/dev/null 2>&1 || { echo "gpu-mpi: skipped: no mpirun on PATH"; exit 77; }
if ! "$kjit" run --target cuda lang/examples/vector_add.k >"$tmp/out" 2>&1; then
    echo "gpu-mpi: skipped: $(head -n 1 "$tmp/out")"
    exit 77
fi
ngpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "${ngpus:-0}" -ge 1 ] || ngpus=1
ranks="2 ${KJIT_MPI_GPU_RANKS:-}"
[ "$ngpus" -ge 4 ] && ranks="2 4"

passed=0
failed=0
fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    [ -z "${2:-}" ] || sed 's/^/    /' "$2" | head -n 20
}
check_same() { # NAME A B
    if cmp -s "$2" "$3"; then passed=$((passed + 1)); else
        diff -u "$2" "$3" >"$tmp/diff"
        fail "$1" "$tmp/diff"
    fi
}

# 1.
for f in lang/examples/mpi_*.k tests/mpi/progs/*.k tests/mpi/kjit_only/*.k; do
    if ! timeout 300 "$kjit" run --target cuda "$f" >"$tmp/one" 2>"$tmp/err"; then
        fail "$f: 1 rank on cuda failed" "$tmp/err"
        continue
    fi
    [ ! -f "${f%.k}.expected" ] || check_same "$f: 1 rank on cuda vs ${f%.k}.expected" "${f%.k}.expected" "$tmp/one"
    for n in $ranks; do
        if timeout 300 mpirun --oversubscribe -n "$n" "$kjit" run --target cuda "$f" >"$tmp/out" 2>"$tmp/err"; then
            check_same "$f: mpirun -n $n on cuda vs 1 rank" "$tmp/one" "$tmp/out"
        else
            fail "$f: mpirun -n $n on cuda failed" "$tmp/err"
        fi
    done
done

# 2.
if KJIT_STATS=1 timeout 300 mpirun -n 2 "$kjit" run --target cuda tests/mpi/kjit_only/mpi_device.k \
    >"$tmp/out" 2>"$tmp/err" && [ "$(grep -c 'kjit stats: mpi rank' "$tmp/err")" -eq 2 ]; then
    passed=$((passed + 1))
    grep 'kjit stats: mpi rank' "$tmp/err"
else
    fail "mpi_device.k: KJIT_STATS=1 under mpirun -n 2 (one mpi line per rank expected)" "$tmp/err"
fi

# 3.
big="n=2048 iters=50"
# shellcheck disable=SC2086
if timeout 600 "$kjit" run --target cuda lang/examples/mpi_heat.k $big >"$tmp/one" 2>"$tmp/err" &&
    timeout 600 mpirun -n 2 "$kjit" run --target cuda lang/examples/mpi_heat.k $big >"$tmp/two" 2>>"$tmp/err"; then
    grep -v '^time:' "$tmp/one" >"$tmp/one.c"
    grep -v '^time:' "$tmp/two" >"$tmp/two.c"
    check_same "mpi_heat.k $big: 2 ranks vs 1" "$tmp/one.c" "$tmp/two.c"
else
    fail "mpi_heat.k $big" "$tmp/err"
fi

# 4.
if KJIT_STATS=1 timeout 300 "$kjit" run --target cuda tests/fake_gpu/mpi_halo.k >"$tmp/out" 2>"$tmp/err" &&
    printf '1000.0 1999.0\n1005.0\n1000.0 1000.0 3000.0\n' | cmp -s - "$tmp/out"; then
    if grep -q 'the library is CUDA-aware' "$tmp/err"; then
        want="device->host 1 transfers, 32000 bytes|direct 2 (16000 bytes)"
    else
        want="device->host 2 transfers, 40000 bytes|pinned staging 2 (16000 bytes)"
    fi
    if grep -q "${want%%|*}" "$tmp/err" && grep -qF "${want#*|}" "$tmp/err"; then
        passed=$((passed + 1))
        grep 'kjit stats: mpi rank' "$tmp/err"
    else
        fail "mpi_halo.k: expected '$want' in KJIT_STATS" "$tmp/err"
    fi
else
    fail "mpi_halo.k on cuda (one rank)" "$tmp/err"
fi
# shellcheck disable=SC2086
if KJIT_STATS=1 timeout 600 mpirun -n 2 "$kjit" run --target cuda lang/examples/mpi_heat.k $big >"$tmp/out" \
    2>"$tmp/err" && [ "$(grep -c 'kjit stats: mpi rank .*peer to peer [1-9]\|kjit stats: mpi rank .*direct [1-9]' "$tmp/err")" -eq 2 ]; then
    passed=$((passed + 1))
    grep 'kjit stats: mpi rank' "$tmp/err"
else
    fail "mpi_heat.k $big: each rank's device buffers peer to peer or direct (KJIT_STATS)" "$tmp/err"
fi

# 5. device buffers GPU to GPU through CUDA IPC (two ranks: on two GPUs where there are, else sharing one),
# and the same answer through pinned staging (KJIT_MPI_IPC=0)
for how in 1 0; do
    if KJIT_MPI_IPC=$how KJIT_STATS=1 timeout 300 mpirun -n 2 "$kjit" run --target cuda tests/fake_gpu/mpi_ipc.k \
        >"$tmp/out" 2>"$tmp/err" && printf '11000.0 11999.0 11005.0 1000.0 1001.0\n' | cmp -s - "$tmp/out"; then
        want="peer to peer 4 (32000 bytes)"
        [ "$how" = 1 ] || want="pinned staging 3 (24000 bytes)"
        if [ "$(grep -c "kjit stats: mpi rank .*$want" "$tmp/err")" -eq 2 ] || grep -q 'the library is CUDA-aware' "$tmp/err"; then
            passed=$((passed + 1))
        else
            fail "mpi_ipc.k, KJIT_MPI_IPC=$how: expected '$want' on both ranks" "$tmp/err"
        fi
    else
        fail "mpi_ipc.k on cuda, two ranks, KJIT_MPI_IPC=$how" "$tmp/err"
    fi
done

echo "gpu-mpi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
