#!/bin/sh
# Issue 25's speed goals in one run, kjit against NumPy, one table:
#   np.dot of 4096² float64 within 1.1x of NumPy (both on OpenBLAS, all cores);
#   np.sort, np.unique, np.median, np.histogram of 10^7 float64 <= NumPy's time
#   (argsort and percentile shown too; one thread);
#   10^7 normals <= NumPy's time (the other legacy draws shown too; one thread).
#
#   benchmarks/cpu/issue25.sh KJIT [PY]
#
# KJIT is the kjit binary (build/kjit; it needs nothing else but
# libopenblas.so.0 for the dot row); PY (/usr/bin/python3) a Python with
# NumPy 1.x or 2.x (Numba is not needed: the programs are plain NumPy). Uses
# dot.k, sortstat.k and random.k of this folder. Each case runs once untimed,
# then R times (median); kjit and NumPy alternate ROUNDS times (median of the
# rounds). $ISSUE25_R (3), $ISSUE25_ROUNDS (2), $ISSUE25_N (10^7) and
# $ISSUE25_DOT_N (4096) change the sizes; the defaults take about 3 minutes
# on a quiet 16-core machine, under 10 on a loaded 2-core one. The ratio is
# NumPy's time / kjit's: >= 1 is kjit as fast or faster. "same" compares a
# check value of both results: one element or count for dot and sortstat.k,
# for random.k an exact integer hash of every element's bits (a float sum
# would differ between NumPy 1.x and 2.x, which block their sums differently).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
py=${2:-/usr/bin/python3}
r=${ISSUE25_R:-3}
rounds=${ISSUE25_ROUNDS:-2}
n=${ISSUE25_N:-10000000}
dn=${ISSUE25_DOT_N:-4096}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-issue25.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$py" -c 'import numpy' 2>/dev/null || { echo "issue25.sh: $py has no NumPy" >&2; exit 2; }
for p in dot sortstat random; do
    m=$n
    [ "$p" = dot ] && m=$dn
    sed -e "s/^N = .*/N = $m/" -e "s/^R = .*/R = $r/" "$here/$p.k" >"$tmp/$p.k"
done

# The BLAS NumPy runs on: threadpoolctl's account when it is installed, else
# NumPy 2's build record, else the library its process mapped for a product.
npblas=$("$py" -c '
import os, numpy as np
np.dot(np.ones((64, 64)), np.ones((64, 64)))
try:
    from threadpoolctl import threadpool_info
    b = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    if b:
        print(", ".join("%s %s (%s threads)" % (i["internal_api"], i.get("version"), i["num_threads"]) for i in b))
        raise SystemExit
except ImportError:
    pass
name = ""
try:
    d = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    name = "%s %s " % (d.get("name"), d.get("version"))
except Exception:
    pass
libs = sorted({os.path.realpath(l.split()[-1]) for l in open("/proc/self/maps") if "blas" in l.split()[-1].lower()})
print(name + " ".join("/".join(x.split("/")[-2:]) for x in libs) or "unknown")')
kblas=$(ldconfig -p 2>/dev/null | sed -n 's/.*libopenblas\.so\.0 .*=> //p' | head -n 1)

echo "issue 25 goals, $(date -u '+%Y-%m-%d %H:%M UTC'); $(lscpu | sed -n 's/^Model name: *//p') ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "kjit $("$kjit" --version | head -n 1) (BLAS: ${kblas:-no libopenblas.so.0}); NumPy $("$py" -c 'import numpy; print(numpy.__version__)') (BLAS: $npblas)"
echo "medians of $r runs and of $rounds alternating rounds; sort/stat/random on one thread, dot on all cores"

# Runs program $1 under kjit and NumPy, $rounds times alternately, with the
# environment in $2; kjit's lines to $tmp/$1.k.txt, NumPy's to $1.p.txt.
# A kjit failure leaves its first error line in $tmp/$1.err.
both() {
    : >"$tmp/$1.k.txt"
    : >"$tmp/$1.p.txt"
    i=0
    while [ "$i" -lt "$rounds" ]; do
        if ! env $2 KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/$1.k" >>"$tmp/$1.k.txt" 2>"$tmp/$1.err"; then
            return 1
        fi
        env $2 "$py" "$tmp/$1.k" >>"$tmp/$1.p.txt"
        i=$((i + 1))
    done
}

one="OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 KJIT_NUM_THREADS=1"
dot_ok=1
both dot "" || dot_ok=0
both sortstat "$one" || { echo "kjit failed on sortstat.k: $(head -n 3 "$tmp/sortstat.err")" >&2; exit 1; }
both random "$one" || { echo "kjit failed on random.k: $(head -n 3 "$tmp/random.err")" >&2; exit 1; }
if [ "$dot_ok" = 0 ]; then
    reason=$(grep -m 1 -o 'needs libopenblas[^,]*\|cannot be opened\|Error.*' "$tmp/dot.err" | head -n 1)
    case "$(cat "$tmp/dot.err")" in
    *openblas* | *blas*) echo "dot skipped: no OpenBLAS ($reason)" >"$tmp/dot.k.txt" ;;
    *) echo "kjit failed on dot.k: $(head -n 3 "$tmp/dot.err")" >&2; exit 1 ;;
    esac
fi

# Table: case names of sortstat.k are its op numbers.
awk -v rounds="$rounds" -v n="$n" -v dn="$dn" '
BEGIN {
    split("sort argsort unique median histogram percentile", sname, " ")
    goal["dot"] = 0.91; goal["sort"] = 1; goal["unique"] = 1; goal["median"] = 1; goal["histogram"] = 1; goal["normal"] = 1
}
function med(t, w, c,    v, i, j, x) {
    for (i = 1; i <= c; i++) v[i] = t[w, i]
    for (i = 2; i <= c; i++) {
        x = v[i]
        for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
        v[j + 1] = x
    }
    return v[int((c + 1) / 2)]
}
$1 == "dot" && $2 == "skipped:" { skipped = $0; next }
{
    w = $1
    if (FILENAME ~ /sortstat/) w = sname[$1 + 1]
    side = FILENAME ~ /\.k\.txt$/ ? "k" : "p"
    if (!(w in seen)) { seen[w] = 1; order[++m] = w }
    cnt[side, w]++
    t[side, w, cnt[side, w]] = $2
    chk[side, w] = $3
}
END {
    printf "%-16s %9s %10s %10s %8s %6s %s\n", "case", "size", "kjit ms", "numpy ms", "ratio", "goal", "same"
    if (skipped != "") printf "%-16s %9s %s\n", "dot", dn "^2", substr(skipped, 5)
    for (i = 1; i <= m; i++) {
        w = order[i]
        for (j = 1; j <= cnt["k", w]; j++) kt[w, j] = t["k", w, j]
        for (j = 1; j <= cnt["p", w]; j++) pt[w, j] = t["p", w, j]
        k = med(kt, w, cnt["k", w]); p = med(pt, w, cnt["p", w])
        g = w in goal ? sprintf(">=%.2f", goal[w]) : "-"
        ok = w in goal ? (p / k >= goal[w] ? " met" : " NOT met") : ""
        printf "%-16s %9s %10.1f %10.1f %7.2fx %6s %s%s\n", w, w == "dot" ? dn "^2" : n, k, p, p / k, g,
            chk["k", w] == chk["p", w] ? "yes" : "NO", ok
    }
}' "$tmp/dot.k.txt" "$tmp/dot.p.txt" "$tmp/sortstat.k.txt" "$tmp/sortstat.p.txt" "$tmp/random.k.txt" "$tmp/random.p.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
