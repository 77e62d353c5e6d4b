#!/usr/bin/env bash
# Front-end speed: time `kjit check` on a generated ~2000-line program.
#   benchmarks/check_speed.sh [KJIT] [RUNS]     (default build/kjit, 20 runs)
# Prints the program's size and the median wall time in ms (target: <= 20 ms).
# Uses hyperfine when installed, else a loop timed with date +%s%N.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kjit=${1:-$root/build/kjit}
runs=${2:-20}

py=python3
command -v "$py" >/dev/null 2>&1 || py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prog="$tmp/big.k"
"$py" "$root/benchmarks/gen_check_program.py" >"$prog"
lines=$(wc -l <"$prog")
bytes=$(wc -c <"$prog")
echo "program: $lines lines, $bytes bytes (benchmarks/gen_check_program.py)"

# One untimed run: it must succeed, and it warms the page cache.
if ! "$kjit" check "$prog" >"$tmp/out" 2>&1; then
    echo "check_speed: '$kjit check' failed on the generated program:" >&2
    head -n 20 "$tmp/out" >&2
    exit 1
fi

if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 2 --runs "$runs" --export-json "$tmp/h.json" "$kjit check $prog" >/dev/null
    median=$("$py" -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$tmp/h.json")
    tool=hyperfine
else
    : >"$tmp/times"
    for _ in $(seq "$runs"); do
        t0=$(date +%s%N)
        "$kjit" check "$prog" >/dev/null 2>&1
        t1=$(date +%s%N)
        echo $(((t1 - t0) / 1000)) >>"$tmp/times"   # microseconds
    done
    median=$(sort -n "$tmp/times" | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.2f", m / 1000 }')
    tool="date +%s%N loop"
fi
echo "kjit check: median ${median} ms over $runs runs ($tool; target <= 20 ms)"
