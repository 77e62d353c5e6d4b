#!/usr/bin/env bash
# kjit bench over the examples of docs/bench.md on cpu, parallel and cuda
# (issue 12), for the GPU machine. For each example: OUTDIR/NAME.txt (the
# report), NAME.svg, NAME.json, NAME.csv; then a table of each target's
# median time and its speed-up over cpu at every value (summary.txt), and,
# when a Chromium is installed, OUTDIR/NAME.png: one SVG rendered headless,
# to check by eye.
#
#   benchmarks/bench/run.sh KJIT OUTDIR [EXAMPLE ...]
#
# EXAMPLE: vector_add sin_iter stencil matmul monte_carlo_pi (default: all;
# about 5 minutes in all on a 16-core host with an H100; give a few at a
# time to stay under a time limit). QUICK=1: smaller sweeps (a smoke test,
# e.g. without a GPU: cuda is then reported as skipped). REPEAT=N: timed
# runs per value (default 2).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
kjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
ex=$root/lang/examples
repeat=${REPEAT:-2}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(vector_add sin_iter stencil matmul monte_carlo_pi)

# NAME -> the sweep and fixed parameters
args_for() {
    local q=${QUICK:-0}
    case $1 in
    vector_add) [ "$q" = 1 ] && echo "--sweep n=1000:100000:x10" || echo "--sweep n=1000:10000000:x10" ;;
    sin_iter) [ "$q" = 1 ] && echo "--sweep iters=1,10,100 n=10000" || echo "--sweep iters=1,10,100,1000 n=1000000" ;;
    stencil) [ "$q" = 1 ] && echo "--sweep n=64:256:x2 m=256 check=False" || echo "--sweep n=64:8192:x2 m=2048 check=False" ;;
    matmul) [ "$q" = 1 ] && echo "--sweep size=32:128:x2 check=False" || echo "--sweep size=32:1024:x2 check=False" ;;
    monte_carlo_pi) [ "$q" = 1 ] && echo "--sweep n=10000:1000000:x10" || echo "--sweep n=100000:100000000:x10" ;;
    *) echo "unknown example '$1'" >&2; return 1 ;;
    esac
}

echo "machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p') ($(nproc) cores)," \
    "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo none)"
echo "kjit: $("$kjit" --version)"
status=0
for name in "${names[@]}"; do
    a=$(args_for "$name") || { status=2; continue; }
    echo "== $name: kjit bench $name.k --target cpu,parallel,cuda $a --repeat $repeat"
    # shellcheck disable=SC2086 # $a is a list of arguments
    "$kjit" bench "$ex/$name.k" --target cpu,parallel,cuda $a --repeat "$repeat" \
        --plot "$out/$name.svg" --json "$out/$name.json" --csv "$out/$name.csv" >"$out/$name.txt" 2>"$out/$name.err"
    rc=$?
    cat "$out/$name.txt" "$out/$name.err"
    [ $rc -eq 0 ] || { echo "$name: exit status $rc"; status=1; }
done

# The table: median times and speed-ups over cpu measured in this run.
python3 - "$out" "${names[@]}" <<'PY' | tee "$out/summary.txt"
import json, os, sys
out, names = sys.argv[1], sys.argv[2:]
print(f"{'example':<16}{'param':>12}  {'cpu':>10}  {'parallel':>10} {'x cpu':>7}  {'cuda':>10} {'x cpu':>7}")
for name in names:
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        continue
    d = json.load(open(path))
    runs = {t["name"]: {r["value"]: r["median_s"] for r in t["runs"]} for t in d["targets"]}
    for v in d["values"]:
        cpu = runs.get("cpu", {}).get(v)
        row = f"{name:<16}{d['param'] + '=' + format(v, 'g'):>12}  " + (f"{cpu * 1e3:>8.3f}ms" if cpu else f"{'-':>10}")
        for t in ("parallel", "cuda"):
            s = runs.get(t, {}).get(v)
            row += f"  {s * 1e3:>8.3f}ms {cpu / s:>6.2f}x" if s and cpu else f"  {'-':>10} {'-':>7}"
        print(row)
    for c in d["crossovers"]:
        m = "none in range" if c["measured"] is None else format(c["measured"], ".3g")
        p = "none" if c["predicted"] is None else format(c["predicted"], ".3g")
        print(f"{name:<16}crossover {c['targets'][1]} vs {c['targets'][0]}: measured {m}, predicted {p}")
    for t in d["targets"]:
        f = t["fit"]
        if t["status"] != "ok":
            print(f"{name:<16}{t['name']}: {t['status']}: {t['reason'].splitlines()[0]}")
        elif f:
            bw = f"{f['bandwidth_bytes_per_s'] / 1e9:.3g} GB/s" if f["bandwidth_bytes_per_s"] else "no copies"
            print(f"{name:<16}{t['name']} model: overhead {f['overhead_s'] * 1e6:.3g} us, bandwidth {bw}, "
                  f"p = {f['work_exponent']:.2f}, rms {100 * f['rms_relative_error']:.0f}%")
PY

# One SVG as a browser draws it.
for browser in chromium chromium-browser google-chrome headless_shell; do
    command -v "$browser" >/dev/null 2>&1 || continue
    svg=$out/${names[0]}.svg
    [ -f "$svg" ] && "$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars --window-size=1000,520 \
        --screenshot="$out/${names[0]}.png" "file://$svg" >/dev/null 2>&1 &&
        echo "screenshot: $out/${names[0]}.png"
    break
done
exit $status
