#!/usr/bin/env bash
# Runs a fuzz target built by tests/fuzz/build.sh for a bounded time, in a
# scratch directory (crash inputs land there):
#   tests/fuzz/run.sh BUILD_DIR [SECONDS [TARGET]]
# SECONDS defaults to 60, TARGET to fuzz_frontend (corpus BUILD_DIR/corpus);
# fuzz_npy uses BUILD_DIR/corpus_npy. Exits 0 when libFuzzer found nothing;
# otherwise prints the failing input and keeps the scratch directory.
set -euo pipefail
dir=$(cd "$1" && pwd)
secs=${2:-60}
target=${3:-fuzz_frontend}
case "$target" in
    fuzz_frontend) corpus=$dir/corpus ;;
    *) corpus=$dir/corpus_${target#fuzz_} ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/kjit-fuzz.XXXXXX")
cd "$work"
export KJIT_CACHE_DIR="$work/cache"

set +e
# A fixed seed: the run explores the same inputs in the same order on every
# machine (a slower one only stops earlier), so CI repeats what was checked.
"$dir/$target" "$corpus" -seed="${KJIT_FUZZ_SEED:-1}" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/" -print_final_stats=1 >"$work/fuzz.log" 2>&1
rc=$?
set -e

if [ "$rc" -eq 0 ]; then
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$work/fuzz.log" || true
    echo "fuzz: $target: no failure in ${secs}s ($(find "$corpus" -type f | wc -l) inputs in corpus)"
    rm -rf "$work"
    exit 0
fi

tail -n 60 "$work/fuzz.log"
for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    [ -e "$f" ] || continue
    echo "fuzz: failing input $f:"
    od -A d -c "$f" | head -n 40
done
echo "fuzz: $target FAILED (exit $rc); log and inputs kept in $work"
exit "$rc"
