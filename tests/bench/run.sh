#!/usr/bin/env bash
# `kjit bench` without a GPU (docs/bench.md): the report, JSON (schema),
# CSV and SVG (XML) of cpu and parallel sweeps (tests/bench/check.py), one
# target without a sweep, `--target cuda` without a GPU (skipped, the others
# run), and every bad input of issue 12. On the fake driver
# (tests/unit/fake_libcuda.c: launches do nothing) the cuda target's events
# (copies, launches) and two cases a real GPU cannot give on demand:
# targets that disagree, and a program that fails on one target only.
#   tests/bench/run.sh KJIT ROOT FAKE_LIBCUDA
set -uo pipefail
kjit=$1
root=$2
fake=$3
ex=$root/lang/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache
failed=0
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}
# CASE STATUS TEXT: the last bench exited with STATUS and printed TEXT (stdout or stderr)
expect() {
    [ "$rc" -eq "$2" ] || fail "$1: exit status $rc, want $2: $(head -c 600 "$tmp/out" "$tmp/err" | tr '\n' '|')"
    grep -qF -- "$3" "$tmp/out" "$tmp/err" || fail "$1: no '$3' in: $(head -c 800 "$tmp/out" "$tmp/err" | tr '\n' '|')"
}
bench() {
    "$kjit" bench "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
nogpu=$tmp/no/libcuda.so.1 # KJIT_LIBCUDA: no driver, also on a machine with one

# cpu and parallel over a range sweep: report and the three files
KJIT_LIBCUDA=$nogpu bench "$ex/vector_add.k" --target cpu,parallel,cuda --sweep n=1000:100000:x10 --repeat 2 \
    --plot "$tmp/v.svg" --json "$tmp/v.json" --csv "$tmp/v.csv"
expect sweep 0 "main(n) for n in 1000 .. 100000 (3 values), 2 timed runs after a warm-up"
expect sweep-outputs 0 "outputs: the same on every target that ran"
expect sweep-cuda-skipped 0 "cuda: skipped: "
expect sweep-cuda-why 0 "kjit: warning: target cuda skipped: "
expect sweep-compile 0 "cached"
expect sweep-breakdown 0 "breakdown at n = 100000 (the median run)"
expect sweep-kernel 0 "  vector_add"
expect sweep-model 0 "model t(n) = overhead + bytes(n)/bandwidth + work(n)/throughput"
expect sweep-crossover 0 "crossover parallel vs cpu: "
python3 "$root/tests/bench/check.py" "$tmp/v.json" "$tmp/v.csv" "$tmp/v.svg" n 1000,10000,100000 cpu,parallel ||
    fail "files of the cpu,parallel sweep"
grep -q '"name": "cuda", "status": "skipped", "reason": "' "$tmp/v.json" || fail "json: cuda skipped, with why"

# a list sweep (given out of order: sorted), one target, float tolerance option
bench "$ex/sin_iter.k" --sweep iters=100,1,10 n=2000 --repeat 1 --tolerance 1e-9 \
    --plot "$tmp/s.svg" --json "$tmp/s.json" --csv "$tmp/s.csv"
expect list 0 "main(iters) for iters in 1 .. 100 (3 values), 1 timed run after a warm-up"
expect list-tol 0 "relative tolerance of 1e-09"
python3 "$root/tests/bench/check.py" "$tmp/s.json" "$tmp/s.csv" "$tmp/s.svg" iters 1,10,100 cpu || fail "files of the list sweep"

# no sweep: main's defaults, still timed and broken down
bench "$ex/stencil.k" --target parallel --repeat 1
expect defaults 0 "main() with its defaults, 1 timed run after a warm-up"
expect defaults-breakdown 0 "breakdown at the defaults"
expect defaults-kernel 0 "  smooth"

# bad input
bench "$ex/vector_add.k" --sweep m=1,2
expect no-param 2 "kjit: error: --sweep: main() has no parameter 'm'"
expect no-param-list 2 "  n=1000 (int)"
bench "$ex/vector_add.k" --sweep n=10,abc
expect bad-value 2 "--sweep: invalid value 'abc' for parameter 'n' (int: expected an integer)"
bench "$ex/vector_add.k" --sweep n=1.5,2
expect float-for-int 2 "invalid value '1.5' for parameter 'n'"
bench "$ex/vector_add.k" --sweep n=0,10
expect not-positive 2 "is not a positive number"
bench "$ex/vector_add.k" --sweep n=10:1000:x1
expect bad-factor 2 "F > 1"
bench "$ex/vector_add.k" --sweep n=1000:10:x10
expect bad-range 2 "ends below its start"
bench "$ex/vector_add.k" --sweep n
expect bad-sweep 2 "--sweep: expected NAME=v1,v2,... or NAME=start:stop:xFACTOR"
bench "$ex/vector_add.k" --target cpu,gpu
expect bad-target 2 "invalid --target 'gpu' for bench"
bench "$ex/vector_add.k" --target cpu,cpu
expect twice-target 2 "'cpu' given twice"
bench "$ex/vector_add.k" --plot "$tmp/no/such/dir/out.svg"
expect unwritable-plot 1 "cannot write --plot file '$tmp/no/such/dir/out.svg': No such file or directory"
"$kjit" run "$ex/vector_add.k" --sweep n=1,2 >"$tmp/out" 2>"$tmp/err"
rc=$?
expect bench-only 2 "option '--sweep' is for 'kjit bench' only"
KJIT_LIBCUDA=$nogpu bench "$ex/vector_add.k" --target cuda
expect only-cuda 3 "no target could run the program"

# the fake driver: events of the cuda target, outputs that differ, a program
# that fails on one target
if [ -n "$fake" ]; then
    KJIT_LIBCUDA=$fake bench "$root/tests/fake_gpu/coherence.k" --target cuda --repeat 1 --json "$tmp/f.json"
    expect fake-cuda 0 "host->device"
    python3 - "$tmp/f.json" <<'PY' || fail "fake-cuda json: the copies and launches of coherence.k"
import json, sys
run = json.load(open(sys.argv[1]))["targets"][0]["runs"][0]["breakdown"]
assert run["h2d"] == {**run["h2d"], "count": 3, "bytes": 24000}, run["h2d"]
assert run["d2h"]["count"] == 2 and run["d2h"]["bytes"] == 16000, run["d2h"]
assert run["d2d"]["count"] == 1 and run["d2d"]["bytes"] == 8000, run["d2d"]
assert [(k["name"], k["launches"]) for k in run["kernels"]] == [("inc", 5)], run["kernels"]
PY
    KJIT_LIBCUDA=$fake bench "$ex/vector_add.k" --target cpu,cuda --sweep n=100,1000
    expect disagree 1 "kjit: error: the targets print different output at n=100"
    expect disagree-line 1 "  line 2 on cuda"
    KJIT_LIBCUDA=$fake bench "$root/tests/fake_gpu/out_of_memory.k" --target cpu,cuda --repeat 1
    expect fails-on-one 3 "kjit: error: main failed on target cuda:"
    expect fails-on-one-why 3 "MemoryError: out of device memory"
    expect fails-on-one-others 3 "cuda: failed: "
    expect fails-on-one-cpu 3 "breakdown at the defaults"
fi
echo "bench: $failed failed"
[ $failed -eq 0 ]
