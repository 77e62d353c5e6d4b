#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this after installing
# packages). Each step adds to one tally:
#
#   1. normal build (build/): meson test = unit tests + golden programs
#   2. ASan+UBSan build (build-asan/): the same meson tests
#   3. libFuzzer targets (front end, .npy reader), each run for
#      KJIT_FUZZ_SECONDS (default 60)
#   4. the valid programs under CPython + Numba (scripts/check-numba.sh)
#   5. MPI programs under mpirun, kjit against one rank and mpi4py (tests/mpi/run.sh)
#   6. the Python package (python/tests, pytest; also the meson test `python`) and `pip install ./python`
#
# A meson test counts as one test (the golden runner is one meson test and
# prints its own per-program counts); a build that fails counts as one
# failure; each fuzz target's run and the Numba check count as one test each.
# The last line is `N passed, N failed`; exit 1 when anything failed.
#
# Knobs: KJIT_JOBS (parallel jobs, default nproc), KJIT_FUZZ_SECONDS,
# KJIT_ASAN_CC (compiler of the sanitizer build, default clang-22),
# KJIT_SKIP_ASAN=1, KJIT_SKIP_FUZZ=1, KJIT_SKIP_NUMBA=1, KJIT_SKIP_MPI=1, KJIT_SKIP_PYTHON=1.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${KJIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
fuzz_seconds=${KJIT_FUZZ_SECONDS:-60}
start=$(date +%s)
passed=0
failed=0
failures=()

step() { printf '\n===== %s =====\n' "$*"; }

# record NAME STATUS: one test, passed when STATUS is 0.
record() {
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures+=("$1")
    fi
}

# summary_count LOG LABEL: the number on meson's summary line `LABEL: N`.
summary_count() {
    sed -n "s/^$2:[[:space:]]*\([0-9][0-9]*\).*/\1/p" "$1" | tail -n 1
}

# meson_tests BUILD_DIR: run its meson tests and add meson's counts.
meson_tests() {
    local dir=$1 log rc ok xfail fail xpass timeout
    log=$(mktemp)
    set +e
    meson test -C "$dir" --print-errorlogs --num-processes "$jobs" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    set -e
    ok=$(summary_count "$log" 'Ok')
    xfail=$(summary_count "$log" 'Expected Fail')
    fail=$(summary_count "$log" 'Fail')
    xpass=$(summary_count "$log" 'Unexpected Pass')
    timeout=$(summary_count "$log" 'Timeout')
    rm -f "$log"
    if [ -z "$ok" ]; then
        # No summary: meson itself failed (bad build dir, no tests...).
        record "meson test -C $dir (exit $rc, no summary)" 1
        return
    fi
    passed=$((passed + ok + ${xfail:-0}))
    failed=$((failed + ${fail:-0} + ${xpass:-0} + ${timeout:-0}))
    if [ $((${fail:-0} + ${xpass:-0} + ${timeout:-0})) -gt 0 ]; then
        failures+=("meson test -C $dir: $((${fail:-0} + ${xpass:-0} + ${timeout:-0})) failed")
    elif [ "$rc" -ne 0 ]; then
        record "meson test -C $dir (exit $rc)" 1
    fi
    # The golden runner's own per-program tally, from meson's log.
    grep -h '^golden: ' "$dir/meson-logs/testlog.txt" 2>/dev/null | sed "s|^|$dir: |" || true
}

# build_and_test BUILD_DIR [MESON_OPTION...]
build_and_test() {
    local dir=$1
    shift
    if bash scripts/build.sh "$dir" "$@"; then
        meson_tests "$dir"
    else
        record "build $dir" 1
    fi
}

step "normal build (build/) and tests"
build_and_test build

if [ "${KJIT_SKIP_ASAN:-0}" != 1 ]; then
    step "ASan+UBSan build (build-asan/) and tests"
    # halt_on_error: a UBSan report must fail the test, not scroll by.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
    # clang: gcc 12 reports false -Wformat-truncation errors on vsnprintf(NULL, 0, ...)
    # once -fsanitize=undefined is on; clang's sanitizers are also the fuzzer's.
    asan_cc=${KJIT_ASAN_CC:-clang-22}
    command -v "$asan_cc" >/dev/null 2>&1 || asan_cc=cc
    # LLVM shared here: hiding a static LLVM's symbols (--exclude-libs) also
    # hides the ASan runtime's, which the test programs then cannot link.
    CC=$asan_cc build_and_test build-asan -Db_sanitize=address,undefined -Db_lundef=false \
        -Dllvm_static=false
fi

if [ "${KJIT_SKIP_FUZZ:-0}" != 1 ]; then
    step "libFuzzer: front end and .npy reader (build-fuzz/, ${fuzz_seconds}s each)"
    if bash tests/fuzz/build.sh build-fuzz; then
        for target in fuzz_frontend fuzz_npy; do
            set +e
            (unset ASAN_OPTIONS UBSAN_OPTIONS; bash tests/fuzz/run.sh build-fuzz "$fuzz_seconds" "$target")
            rc=$?
            set -e
            record "$target" "$rc"
        done
    else
        record "fuzz build" 1
    fi
fi

if [ "${KJIT_SKIP_NUMBA:-0}" != 1 ]; then
    step "programs under CPython + Numba (CUDA simulator), and kjit run against them"
    set +e
    KJIT=build/kjit bash scripts/check-numba.sh
    rc=$?
    set -e
    record "numba reference run (scripts/check-numba.sh)" "$rc"
fi

if [ "${KJIT_SKIP_MPI:-0}" != 1 ]; then
    step "MPI programs: mpirun -n 2 and -n 4 on the cpu target, against one rank and mpirun python3"
    set +e
    # without mpirun it skips, unless KJIT_REQUIRE_MPI=1 (.ci/run, which installs Open MPI)
    bash tests/mpi/run.sh build/kjit
    rc=$?
    set -e
    record "MPI programs (tests/mpi/run.sh)" "$rc"
fi

if [ "${KJIT_SKIP_PYTHON:-0}" != 1 ]; then
    step "the Python package: pip install ./python into a venv, then python3 -m kjit from it"
    # (its pytest suite ran above as the meson test `python`)
    set +e
    venv=$(mktemp -d)
    root=$PWD
    /usr/bin/python3 -m venv --system-site-packages "$venv" &&
        "$venv/bin/pip" install -q --no-index ./python &&
        (cd tests/golden/run && KJIT_LIBRARY="$root/build/libkjit.so" KJIT_TARGET=cpu \
            "$venv/bin/python" -m kjit builtin_sum.k | cmp - builtin_sum.expected)
    rc=$?
    rm -rf "$venv"
    set -e
    record "pip install ./python and python3 -m kjit" "$rc"
fi

step "summary"
for f in ${failures[@]+"${failures[@]}"}; do
    echo "FAILED: $f"
done
echo "took $(($(date +%s) - start))s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
