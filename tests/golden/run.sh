#!/usr/bin/env bash
# Golden-test runner: checks kjit against the programs under tests/golden/
# and lang/examples/.
#
#   tests/golden/run.sh [--update] KJIT GOLDEN_DIR EXAMPLES_DIR [FAKE_LIBCUDA]
#
#   GOLDEN_DIR/valid/*.k, GOLDEN_DIR/valid_kjit_only/*.k, EXAMPLES_DIR/*.k
#       `kjit check NAME.k` exits 0 and prints nothing.
#   GOLDEN_DIR/ir/NAME.k + NAME.expected
#       `kjit ir NAME.k`, run inside ir/, exits 0 and its stdout equals
#       NAME.expected.
#   GOLDEN_DIR/llvm/NAME.k + NAME.expected
#       `kjit llvm -O0 --target=cpu [OPTIONS] NAME.k`, run inside llvm/, exits
#       0 and its stdout, less what depends on the machine (the target
#       triple and datalayout lines, target-cpu/-features attributes),
#       equals NAME.expected. OPTIONS come from a `# kjit-options: ...` line
#       of the program (e.g. `--target=parallel`); -O0 pins the IR kjit
#       hands to LLVM, before LLVM's passes, which tune for this CPU.
#       A program with `--target=cuda` runs on the fake CUDA driver
#       FAKE_LIBCUDA (tests/unit/fake_libcuda.c), so that its host code is
#       the same with a GPU, without one, and in CI; it fails without it.
#       The LLVM IR is pinned from a gcc-built kjit: with KJIT_PIN_CC (which
#       meson sets to the compiler's id) naming another compiler, each
#       program must still compile but its text is not compared (C leaves
#       the order of a call's arguments unspecified, and the code generator
#       builds instructions inside argument lists: clang's kjit emits some
#       independent instructions in another order).
#   GOLDEN_DIR/errors/NAME.k + NAME.expected
#       `kjit check --diag-format=short NAME.k`, run inside errors/ so paths
#       print as `NAME.k:3:5: error: ...`, exits 1 and its stderr equals
#       NAME.expected.
#   GOLDEN_DIR/run/NAME.k + NAME.expected [+ NAME.stderr]
#       `kjit run --target cpu NAME.k`, run inside run/, prints NAME.expected
#       on stdout (made by CPython + NumPy: run/make_expected.sh) and exits 0;
#       with NAME.stderr (a run-time error), its stderr equals NAME.stderr
#       and it exits 3. Skipped, saying so, while `kjit run` does not exist.
#   GOLDEN_DIR/faults/NAME.k + NAME.stderr
#       `kjit run --target cpu NAME.k`, run inside faults/, faults in compiled
#       code: its stderr equals NAME.stderr (the fault handler's message) and
#       it exits 70. Skipped, saying so, in AddressSanitizer builds, where
#       ASan's own handler reports the fault.
#
# --update (or KJIT_GOLDEN_UPDATE=1) rewrites the .expected files of ir/,
# llvm/ and errors/ from kjit's current output instead of comparing; review
# the diff.
# It never touches run/: those come from Python.
# Prints one line (and a diff) per failure, then `golden: N passed, N failed`;
# exits 1 when anything failed.
set -u

update=${KJIT_GOLDEN_UPDATE:-0}
if [ "${1:-}" = "--update" ]; then
    update=1
    shift
fi
if [ $# -ne 3 ] && [ $# -ne 4 ]; then
    echo "usage: $0 [--update] KJIT GOLDEN_DIR EXAMPLES_DIR [FAKE_LIBCUDA]" >&2
    exit 2
fi

# Absolute paths: the error programs are run from inside their directory.
abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
kjit=$(abspath "$1")
golden=$(cd "$2" && pwd)
examples=$(cd "$3" && pwd)
# Which compiler built kjit (meson says; by hand gcc is assumed): llvm/'s
# texts are compared only for gcc's.
pin_cc=${KJIT_PIN_CC:-gcc}
fake_libcuda=""
[ $# -eq 4 ] && fake_libcuda=$(abspath "$4")
if [ ! -x "$kjit" ]; then
    echo "golden: kjit binary '$kjit' not found or not executable" >&2
    exit 2
fi

# A hung compiler must fail one program, not the whole run.
limit=""
if command -v timeout >/dev/null 2>&1; then
    limit="timeout ${KJIT_GOLDEN_TIMEOUT:-30}"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
updated=0

pass() { passed=$((passed + 1)); }

# fail LABEL REASON [EXPECTED_FILE ACTUAL_FILE]
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
    if [ $# -ge 4 ]; then
        diff -u --label "$1 (expected)" --label "$1 (actual)" "$3" "$4" | sed 's/^/    /'
    fi
}

# describe_rc RC: a readable account of an exit status.
describe_rc() {
    if [ "$1" -eq 124 ] && [ -n "$limit" ]; then
        echo "timed out"
    elif [ "$1" -gt 128 ]; then
        echo "killed by signal $(($1 - 128)) (exit $1)"
    else
        echo "exit $1"
    fi
}

# check_valid LABEL FILE: `kjit check` exits 0 and prints nothing.
check_valid() {
    local label=$1 file=$2 rc
    $limit "$kjit" check "$file" >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$label" "kjit check: $(describe_rc $rc), expected exit 0"
        sed 's/^/    /' "$tmp/out" | head -n 20
    elif [ -s "$tmp/out" ]; then
        fail "$label" "kjit check printed output, expected none"
        sed 's/^/    /' "$tmp/out" | head -n 20
    else
        pass
    fi
}

# file_options FILE: the options of its `# kjit-options: ...` line (none
# when it has no such line), one word each.
file_options() {
    sed -n 's/^# kjit-options:[[:space:]]*//p' "$1" | head -n 1
}

# llvm_filter: drop from `kjit llvm` output what depends on the machine
# rather than on the program: the host's triple and datalayout, and the
# CPU name and features should attributes ever carry them.
llvm_filter() {
    sed -E -e '/^target (datalayout|triple) = /d' \
        -e 's/ "(target-cpu|target-features|tune-cpu)"="[^"]*"//g'
}

# check_text LABEL DIR NAME CMD...: CMD (run inside DIR) exits 0 and its
# stdout, through $filter when set, equals NAME.expected; with compare=0 it
# need only exit 0 (and is never rewritten).
check_text() {
    local label=$1 dir=$2 name=$3 rc
    shift 3
    (cd "$dir" && $limit "$kjit" "$@") >"$tmp/raw" 2>"$tmp/err"
    rc=$?
    ${filter:-cat} <"$tmp/raw" >"$tmp/out"
    if [ "$update" = 1 ] && [ "${compare:-1}" = 1 ]; then
        cp "$tmp/out" "$dir/$name.expected"
        updated=$((updated + 1))
    fi
    if [ $rc -ne 0 ]; then
        fail "$label" "kjit $1: $(describe_rc $rc), expected exit 0"
        sed 's/^/    /' "$tmp/err" | head -n 20
    elif [ "${compare:-1}" = 0 ]; then
        pass
    elif [ ! -f "$dir/$name.expected" ]; then
        fail "$label" "missing $name.expected (run with KJIT_GOLDEN_UPDATE=1)"
    elif ! cmp -s "$dir/$name.expected" "$tmp/out"; then
        fail "$label" "$1 output differs" "$dir/$name.expected" "$tmp/out"
    else
        pass
    fi
}

# check_ir LABEL DIR NAME: `kjit ir NAME.k` stdout equals NAME.expected.
check_ir() {
    # shellcheck disable=SC2046 # the options are words
    filter='' check_text "$1" "$2" "$3" ir $(file_options "$2/$3.k") "$3.k"
}

# check_llvm LABEL DIR NAME: `kjit llvm -O0 --target=cpu OPTIONS NAME.k`,
# filtered, equals NAME.expected (a later --target wins). Without the
# cache, which kjit llvm would otherwise fill with the GPU's code.
check_llvm() {
    local opts
    opts=$(file_options "$2/$3.k")
    case " $opts " in *" --target=cuda "*)
        if [ -z "$fake_libcuda" ] || [ ! -f "$fake_libcuda" ]; then
            fail "$1" "--target=cuda needs the fake CUDA driver (run.sh's 4th argument)"
            return
        fi ;;
    esac
    local compare=1
    [ "$pin_cc" = gcc ] || compare=0
    # shellcheck disable=SC2086 # the options are words
    KJIT_LIBCUDA=$fake_libcuda KJIT_NO_CACHE=1 filter=llvm_filter \
        check_text "$1" "$2" "$3" llvm -O0 --target=cpu $opts "$3.k"
}

# check_error LABEL DIR NAME: `kjit check --diag-format=short NAME.k` exits 1
# and its stderr equals NAME.expected.
check_error() {
    local label=$1 dir=$2 name=$3 rc
    (cd "$dir" && $limit "$kjit" check --diag-format=short "$name.k") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$update" = 1 ]; then
        cp "$tmp/err" "$dir/$name.expected"
        updated=$((updated + 1))
    fi
    if [ $rc -ne 1 ]; then
        fail "$label" "kjit check: $(describe_rc $rc), expected exit 1"
        sed 's/^/    /' "$tmp/err" | head -n 20
    elif [ -s "$tmp/out" ]; then
        fail "$label" "kjit check printed to stdout, expected only diagnostics on stderr"
    elif [ ! -f "$dir/$name.expected" ]; then
        fail "$label" "missing $name.expected (run with KJIT_GOLDEN_UPDATE=1)"
    elif ! cmp -s "$dir/$name.expected" "$tmp/err"; then
        fail "$label" "diagnostics differ" "$dir/$name.expected" "$tmp/err"
    else
        pass
    fi
}

for sub in valid valid_kjit_only; do
    for f in "$golden/$sub"/*.k; do
        [ -e "$f" ] || continue
        check_valid "$sub/$(basename "$f")" "$f"
    done
done

for f in "$examples"/*.k; do
    [ -e "$f" ] || continue
    check_valid "examples/$(basename "$f")" "$f"
done

for f in "$golden/ir"/*.k; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .k)
    check_ir "ir/$name.k" "$golden/ir" "$name"
done

if [ "$pin_cc" != gcc ]; then
    echo "golden: llvm/ programs compile but their IR is not compared: it is pinned from a gcc-built kjit, this one was built by $pin_cc (README.md)"
fi
for f in "$golden/llvm"/*.k; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .k)
    check_llvm "llvm/$name.k" "$golden/llvm" "$name"
done

for f in "$golden/errors"/*.k; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .k)
    check_error "errors/$name.k" "$golden/errors" "$name"
done

# check_run LABEL DIR NAME [TARGET]: `kjit run --target TARGET NAME.k`
# (default cpu) prints NAME.expected, and NAME.stderr (Python's traceback of
# the uncaught exception) with exit 1 when that file exists.
check_run() {
    local label=$1 dir=$2 name=$3 target=${4:-cpu} rc want=0
    (cd "$dir" && $limit "$kjit" run --target "$target" "$name.k") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ -f "$dir/$name.stderr" ] && want=1
    if [ $rc -ne $want ]; then
        fail "$label" "kjit run: $(describe_rc $rc), expected exit $want"
        sed 's/^/    /' "$tmp/err" | head -n 20
    elif [ ! -f "$dir/$name.expected" ]; then
        fail "$label" "missing $name.expected (run run/make_expected.sh)"
    elif ! cmp -s "$dir/$name.expected" "$tmp/out"; then
        fail "$label" "stdout differs" "$dir/$name.expected" "$tmp/out"
    elif [ $want -eq 1 ] && ! cmp -s "$dir/$name.stderr" "$tmp/err"; then
        fail "$label" "stderr differs" "$dir/$name.stderr" "$tmp/err"
    else
        pass
    fi
}

# `kjit run` may not exist yet in this build: skip the section then.
run_probe=$("$kjit" run 2>&1 </dev/null)
if printf '%s' "$run_probe" | grep -qi "unknown command"; then
    echo "golden: skipping run/: this kjit has no 'run' command yet"
else
    for f in "$golden/run"/*.k; do
        [ -e "$f" ] || continue
        name=$(basename "$f" .k)
        check_run "run/$name.k" "$golden/run" "$name"
        # parallel_*: the same output on the parallel target, with the
        # machine's thread count and with 3 threads (chunks over workers)
        case $name in parallel_*)
            check_run "run/$name.k (parallel)" "$golden/run" "$name" parallel
            KJIT_NUM_THREADS=3 check_run "run/$name.k (parallel, 3 threads)" "$golden/run" "$name" parallel ;;
        esac
    done
fi

# check_fault LABEL DIR NAME: `kjit run --target cpu NAME.k` prints
# NAME.stderr on stderr and exits 70 (the fault handler, docs/cli.md).
check_fault() {
    local label=$1 dir=$2 name=$3 rc
    (cd "$dir" && $limit "$kjit" run --target cpu "$name.k") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if grep -q AddressSanitizer "$tmp/err"; then
        echo "golden: skipping $label: ASan reports the fault in this build"
    elif [ $rc -ne 70 ]; then
        fail "$label" "kjit run: $(describe_rc $rc), expected exit 70"
        sed 's/^/    /' "$tmp/err" | head -n 20
    elif ! cmp -s "$dir/$name.stderr" "$tmp/err"; then
        fail "$label" "stderr differs" "$dir/$name.stderr" "$tmp/err"
    else
        pass
    fi
}

if ! printf '%s' "$run_probe" | grep -qi "unknown command"; then
    for f in "$golden/faults"/*.k; do
        [ -e "$f" ] || continue
        name=$(basename "$f" .k)
        check_fault "faults/$name.k" "$golden/faults" "$name"
    done
fi

if [ "$update" = 1 ]; then
    echo "golden: rewrote $updated .expected files (review them with git diff)"
fi
echo "golden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
