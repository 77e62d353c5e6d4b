#!/usr/bin/env bash
# MPI tests on the cpu target (docs/scale-out.md):
#   tests/mpi/run.sh KJIT [ROOT]
# - lang/examples/mpi_*.k and tests/mpi/progs/*.k: `mpirun -n 2` and
#   `mpirun -n 4 --oversubscribe` of `kjit run --target cpu` print exactly
#   what one rank prints (kjit run without mpirun), which is the example's
#   .expected; and so does `mpirun -n N python3 PROG.k` (Debian's mpi4py +
#   Numba, the CUDA simulator for kernels), as scripts/check-numba.sh runs them.
# - tests/mpi/kjit_only/*.k: programs mpi4py refuses (strided buffers), the
#   same comparison without Python.
# - tests/mpi/errors/*.k: under `mpirun -n 2` kjit exits non-zero within the
#   time limit (no hang) and stderr holds the `# expect:` line's text; `# args:`
#   and `# env:` lines add kjit options and environment.
# Prints one line per failure, then `mpi: N passed, N failed`. Without
# mpirun (a machine without Open MPI) it says so and skips, unless
# KJIT_REQUIRE_MPI=1 (scripts/test-all.sh sets it on CI machines).
set -uo pipefail
kjit=${1:?usage: tests/mpi/run.sh KJIT [ROOT]}
root=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
kjit=$(cd "$(dirname "$kjit")" && pwd)/$(basename "$kjit")
cd "$root" || exit 2

if ! command -v mpirun >/dev/null 2>&1; then
    echo "mpi: SKIPPED: no mpirun on PATH (apt-get install openmpi-bin python3-mpi4py)"
    if [ "${KJIT_REQUIRE_MPI:-0}" = 1 ]; then
        echo "mpi: 0 passed, 1 failed"
        exit 1
    fi
    echo "mpi: 0 passed, 0 failed"
    exit 0
fi

# Open MPI as root (CI runs as root), in a container: no ptrace-based
# single-copy, no ssh agent, only the loopback and shared memory.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=false
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 KJIT_NUM_THREADS=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export NUMBA_CACHE_DIR="$tmp/numba" PYTHONDONTWRITEBYTECODE=1

py=""
for cand in ${KJIT_PYTHON:-} /usr/bin/python3 python3; do
    if "$cand" -c 'import mpi4py, numba, numpy' >/dev/null 2>&1; then
        py=$cand
        break
    fi
done
[ -n "$py" ] || echo "mpi: no python3 with mpi4py and numba: the Python comparisons are skipped"

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    [ -z "${2:-}" ] || sed 's/^/    /' "$2" | head -n 20
}

limit=${KJIT_MPI_TEST_TIMEOUT:-240}
mpi() { timeout "$limit" mpirun --oversubscribe -n "$@"; }

# same PROG NAME OUT: OUT equals one rank's output (tmp/one)
same() {
    if cmp -s "$tmp/one" "$3"; then pass; else
        diff -u --label "1 rank" --label "$2" "$tmp/one" "$3" >"$tmp/diff"
        fail "$1: $2 prints something else than one rank" "$tmp/diff"
    fi
}

run_valid() {
    local f=$1 python=$2 n
    if ! (cd "$(dirname "$f")" && timeout "$limit" "$kjit" run --target cpu "$(basename "$f")") \
        >"$tmp/one" 2>"$tmp/err"; then
        fail "$f: kjit run (1 rank, no mpirun) failed" "$tmp/err"
        return
    fi
    if [ -f "${f%.k}.expected" ]; then
        if cmp -s "$tmp/one" "${f%.k}.expected"; then pass; else
            fail "$f: 1 rank does not print $(basename "${f%.k}.expected")" "$tmp/one"
        fi
    fi
    for n in 2 4; do
        if (cd "$(dirname "$f")" && mpi "$n" "$kjit" run --target cpu "$(basename "$f")") \
            >"$tmp/out" 2>"$tmp/err"; then
            same "$f" "mpirun -n $n kjit" "$tmp/out"
        else
            fail "$f: mpirun -n $n kjit run failed" "$tmp/err"
        fi
        [ "$python" = 1 ] && [ -n "$py" ] || continue
        if (cd "$(dirname "$f")" && NUMBA_ENABLE_CUDASIM=1 mpi "$n" "$py" "$(basename "$f")") \
            >"$tmp/out" 2>"$tmp/err"; then
            same "$f" "mpirun -n $n python3" "$tmp/out"
        else
            fail "$f: mpirun -n $n python3 failed" "$tmp/err"
        fi
    done
}

run_error() {
    local f=$1 expect args envs
    expect=$(sed -n 's/^# expect: //p' "$f" | head -n 1)
    args=$(sed -n 's/^# args: //p' "$f" | head -n 1)
    envs=$(sed -n 's/^# env: //p' "$f" | head -n 1)
    # shellcheck disable=SC2086 # args and envs are word lists
    (cd "$(dirname "$f")" && env $envs timeout 120 mpirun -n 2 "$kjit" run --target cpu $args "$(basename "$f")") \
        >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -eq 0 ]; then
        fail "$f: exit 0, expected an error" "$tmp/err"
    elif [ $rc -eq 124 ]; then
        fail "$f: still running after 120 s (a rank hangs)" "$tmp/err"
    elif ! grep -qF -- "$expect" "$tmp/err"; then
        echo "expected: $expect" >>"$tmp/err"
        fail "$f: the error is not the expected one" "$tmp/err"
    else
        pass
    fi
}

for f in lang/examples/mpi_*.k tests/mpi/progs/*.k; do run_valid "$f" 1; done
for f in tests/mpi/kjit_only/*.k; do run_valid "$f" 0; done
for f in tests/mpi/errors/*.k; do run_error "$f"; done

echo "mpi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
