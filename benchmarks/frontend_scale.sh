#!/usr/bin/env bash
# Front-end scaling: `kjit check` on generated programs of growing size, to
# show the front end stays linear (issue 13: 100 000 lines of
# `x_i = undefined_i` took 29 s; the target is <= 1 s).
#   benchmarks/frontend_scale.sh [KJIT] [MAX_LINES]    (default build/kjit, 100000)
# For each shape and size it prints the lines, the wall time in seconds
# (best of 3), lines per second and the peak memory. The shapes:
#   undefined  def main(): N lines `x_i = undefined_i` (N unknown names: errors)
#   chain      def main(): N lines `x_i = x_{i-1} + 1` (valid: typed and lowered)
#   module     N module-level constants `c_i = i` and a main using the last
# Linear means lines/s stays about the same as N grows.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kjit=${1:-$root/build/kjit}
max=${2:-100000}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

gen() { # shape n > file
    awk -v shape="$1" -v n="$2" 'BEGIN {
        if (shape == "undefined") {
            print "def main():"
            for (i = 0; i < n; i++) printf "    x_%d = undefined_%d\n", i, i
        } else if (shape == "chain") {
            print "def main():"
            print "    x_0 = 0"
            for (i = 1; i < n; i++) printf "    x_%d = x_%d + 1\n", i, i - 1
            printf "    print(x_%d)\n", n - 1
        } else {
            for (i = 0; i < n; i++) printf "c_%d = %d\n", i, i
            print "def main():"
            printf "    print(c_%d)\n", n - 1
        }
    }'
}

# Best of 3 wall times in seconds, and the peak RSS (KB) of the last run.
measure() { # file
    local best="" t0 t1 dt rss=0
    for _ in 1 2 3; do
        t0=$(date +%s%N)
        if command -v /usr/bin/time >/dev/null 2>&1; then
            /usr/bin/time -f %M -o "$tmp/rss" "$kjit" check "$1" >/dev/null 2>&1 || true
            rss=$(tail -n 1 "$tmp/rss")
        else
            "$kjit" check "$1" >/dev/null 2>&1 || true
        fi
        t1=$(date +%s%N)
        dt=$(((t1 - t0) / 1000))
        if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then best=$dt; fi
    done
    echo "$best $rss"
}

printf '%-10s %8s %10s %12s %10s\n' shape lines seconds lines/s peak_MB
for shape in undefined chain module; do
    n=$((max / 16))
    [ "$n" -ge 1 ] || n=1
    while :; do
        gen "$shape" "$n" >"$tmp/p.k"
        lines=$(wc -l <"$tmp/p.k")
        read -r us rss < <(measure "$tmp/p.k")
        awk -v s="$shape" -v l="$lines" -v us="$us" -v rss="$rss" 'BEGIN {
            sec = us / 1e6
            printf "%-10s %8d %10.3f %12.0f %10.1f\n", s, l, sec, (sec > 0 ? l / sec : 0), rss / 1024 }'
        [ "$n" -lt "$max" ] || break
        n=$((n * 2))
        [ "$n" -le "$max" ] || n=$max
    done
done
