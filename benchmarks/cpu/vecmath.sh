#!/bin/sh
# The vector math benchmark (issue 11, point 1), one thread: kjit's
# @vectorize ufuncs and host array expressions over N x N arrays
# (vecmath.k) against NumPy's expressions and ufuncs (vecmath_numpy.py)
# and, when python3 has Numba, Numba's @vectorize of the same file, all in
# this run. Prints best-of-REPS times in ms and NumPy/kjit (> 1: kjit
# faster). Target on the GPU machine's host: vectorize_expr_f32 and
# host_expr_f32 >= 2x NumPy. Every row's checked element must agree with
# NumPy's to 1e-5 (relative).
#
#   benchmarks/cpu/vecmath.sh KJIT [N] [REPS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kjit=${1:?usage: vecmath.sh KJIT [N] [REPS]}
n=${2:-4096}
reps=${3:-10}
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-vecmath.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 KJIT_NUM_THREADS=1 NUMBA_NUM_THREADS=1

KJIT_NO_CACHE=1 "$kjit" run --target cpu "$here/vecmath.k" n="$n" reps="$reps" > "$tmp/kjit"
"$py" "$here/vecmath_numpy.py" "$n" "$reps" > "$tmp/numpy"
if "$py" -c "import numba" 2>/dev/null; then
    (cd "$tmp" && "$py" -c "import runpy, sys; sys.argv = ['vecmath.k']; m = runpy.run_path('$here/vecmath.k'); m['main']($n, $reps)") > "$tmp/numba"
else
    : > "$tmp/numba"
fi

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($cores cores), one thread; n=$n, best of $reps"
echo "kjit: $("$kjit" --version); numpy $("$py" -c 'import numpy; print(numpy.__version__)')$("$py" -c 'import numba; print(", numba", numba.__version__)' 2>/dev/null || true)"
awk '
    FNR == 1 { file++ }
    $1 == "check" { chk[file, $2] = $3; next }
    { t[file, $1] = $2 * 1000; if (file == 1) names[++nn] = $1 }
    END {
        printf "%-20s %10s %10s %10s %12s\n", "work", "kjit ms", "numpy ms", "numba ms", "numpy/kjit"
        bad = 0
        for (k = 1; k <= nn; k++) {
            w = names[k]
            nb = ((3, w) in t) && w !~ /^host/ ? sprintf("%.2f", t[3, w]) : "-" # (host: NumPy in Python)
            printf "%-20s %10.2f %10.2f %10s %11.2fx\n", w, t[1, w], t[2, w], nb, t[2, w] / t[1, w]
            a = chk[1, w]; b = chk[2, w]; d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
            if (d > 1e-5 * (m > 1 ? m : 1)) { printf "  %s: kjit %s, numpy %s\n", w, a, b; bad = 1 }
        }
        exit bad
    }' "$tmp/kjit" "$tmp/numpy" "$tmp/numba"
