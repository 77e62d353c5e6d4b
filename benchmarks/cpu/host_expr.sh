#!/bin/sh
# Host array expressions (a new result, and assigned into an existing array:
# d[:, :] = expr), slicing stencil and reductions (issue 11 points 2 and 5):
# kjit (fused, and with KJIT_NO_FUSE=1: one runtime call per
# operator) against NumPy on the same program, in one run, one thread.
#
#   benchmarks/cpu/host_expr.sh KJIT [N [M [R]]]
#
# KJIT is the kjit binary. N (4096) is the side of the float32 arrays of the
# expression and the stencil, M (10000) that of the reduced array, R (5) the
# repetitions (the best is kept). $PYTHON (python3) must have NumPy. Prints
# a table: milliseconds, NumPy's time / kjit's (the speed-up), the issue's
# target; the check column must agree between kjit and NumPy (the same
# numbers, to NumPy's printing precision).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=$1
n=${2:-4096}
m=${3:-10000}
r=${4:-5}
py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-hostexpr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed -e "s/^N = .*/N = $n/" -e "s/^M = .*/M = $m/" -e "s/^R = .*/R = $r/" "$here/host_expr.k" >"$tmp/host_expr.k"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 KJIT_NUM_THREADS=1

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores)"
echo "kjit: $("$kjit" --version); numpy: $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "sizes: expression and stencil ${n}x${n} float32, reductions ${m}x${m} float32, best of $r"
KJIT_NO_CACHE=1 "$kjit" run --target cpu "$tmp/host_expr.k" >"$tmp/kjit.txt"
KJIT_NO_CACHE=1 KJIT_NO_FUSE=1 "$kjit" run --target cpu "$tmp/host_expr.k" >"$tmp/nofuse.txt"
"$py" "$tmp/host_expr.k" >"$tmp/numpy.txt"

awk '
FNR == 1 { f++ }
f == 1 { k[$1] = $2; kc[$1] = $3; order[++n] = $1 }
f == 2 { u[$1] = $2 }
f == 3 { np[$1] = $2; nc[$1] = $3 }
END {
    t["expr"] = ">= 2"; t["assign"] = "-"; t["stencil"] = ">= 2"; t["sum"] = ">= 1"; t["mean"] = ">= 1"; t["std"] = ">= 1"
    printf "%-10s %10s %10s %10s %9s %8s  %-14s %-14s\n", "work", "kjit ms", "unfused", "numpy ms", "numpy/kjit", "target", "check kjit", "check numpy"
    for (i = 1; i <= n; i++) {
        w = order[i]
        printf "%-10s %10.2f %10.2f %10.2f %9.2fx %8s  %-14.8g %-14.8g\n", w, k[w], u[w], np[w], np[w] / k[w], t[w], kc[w], nc[w]
    }
}' "$tmp/kjit.txt" "$tmp/nofuse.txt" "$tmp/numpy.txt"
