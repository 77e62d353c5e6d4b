#!/usr/bin/env bash
# The command a user expects (issue 30, points 1-3): every command's help,
# "did you mean" for commands, options and targets, `kjit cache` with its
# size bound and `clear` beside running compiles, `kjit sysinfo` on the fake
# CUDA driver and without one.
#   tests/cli/run.sh KJIT FAKE_LIBCUDA
set -uo pipefail
kjit=$(realpath "$1")
fake=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache
unset KJIT_CACHE_MAX KJIT_NO_CACHE KJIT_STATS KJIT_NUM_THREADS NUMBA_NUM_THREADS KJIT_LIBCUDA KJIT_MPI_LIBRARY
failed=0
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}
k() { # kjit ARGS: status in $rc, output in $tmp/out and $tmp/err
    "$kjit" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
expect() { # CASE STATUS TEXT: the last command exited with STATUS and printed TEXT
    [ "$rc" -eq "$2" ] || fail "$1: exit status $rc, want $2: $(head -c 600 "$tmp/out" "$tmp/err" | tr '\n' '|')"
    grep -qF -- "$3" "$tmp/out" "$tmp/err" || fail "$1: no '$3' in: $(head -c 800 "$tmp/out" "$tmp/err" | tr '\n' '|')"
}
absent() { # CASE TEXT: the last command did not print TEXT
    ! grep -qF -- "$2" "$tmp/out" "$tmp/err" || fail "$1: '$2' printed: $(head -c 600 "$tmp/out" "$tmp/err" | tr '\n' '|')"
}

# ---- 1. help ----
k --help
expect overview 0 "commands:"
cp "$tmp/out" "$tmp/overview"
for c in check ir run llvm asm ptx bench cache sysinfo help version; do
    k "$c" --help
    expect "$c --help" 0 "usage: kjit $c"
    expect "$c --help example" 0 "example:"
    cmp -s "$tmp/out" "$tmp/overview" && fail "$c --help prints the overview"
    cp "$tmp/out" "$tmp/one"
    k help "$c"
    expect "help $c" 0 "usage: kjit $c"
    cmp -s "$tmp/out" "$tmp/one" || fail "kjit help $c differs from kjit $c --help"
done
k run -h
expect "run -h" 0 "usage: kjit run"
k run --help --targt=x
expect "--help wins" 0 "usage: kjit run"
k help
expect "help alone" 0 "commands:"

# ---- 1. did you mean ----
echo 'print(1)' >"$tmp/p.k"
k chek "$tmp/p.k"
expect "chek" 2 "kjit: error: unknown command 'chek'; did you mean 'check'?"
k benhc "$tmp/p.k"
expect "benhc" 2 "did you mean 'bench'?"
k sysinf
expect "sysinf" 2 "did you mean 'sysinfo'?"
k help chek
expect "help chek" 2 "unknown command 'chek'; did you mean 'check'?"
k chek --help
expect "chek --help" 2 "did you mean 'check'?"
k zzzzzzz "$tmp/p.k"
expect "no suggestion" 2 "unknown command 'zzzzzzz'"
absent "no suggestion" "did you mean"
k run --targt=cpu "$tmp/p.k"
expect "--targt" 2 "kjit: error: unknown option '--targt=cpu'; did you mean '--target'?"
k run --targt cpu "$tmp/p.k"
expect "--targt value" 2 "unknown option '--targt'; did you mean '--target'?"
k run --boundschek "$tmp/p.k"
expect "--boundschek" 2 "did you mean '--boundscheck'?"
k run --no-cahce "$tmp/p.k"
expect "--no-cahce" 2 "did you mean '--no-cache'?"
k run --target=paralel "$tmp/p.k"
expect "paralel" 2 "kjit: error: invalid --target 'paralel'; did you mean 'parallel'?"
k run --target=cud "$tmp/p.k"
expect "cud" 2 "did you mean 'cuda'?"
k run --target=gpu "$tmp/p.k"
expect "gpu" 2 "invalid --target 'gpu'; did you mean 'cpu'?"
k run --target=xyzzy "$tmp/p.k"
expect "xyzzy" 2 "invalid --target 'xyzzy' (expected cpu, parallel, cuda or auto)"
k cache cler
expect "cache cler" 2 "unknown 'kjit cache' action 'cler'; did you mean 'clear'?"
k sysinfo extra
expect "sysinfo extra" 2 "'kjit sysinfo' takes none"

# ---- 2. the cache ----
prog() { # N: a program of its own (its own cache entry)
    printf 'def f(x):\n    return x * %d + 1\n\ndef main(n=3):\n    print(f(n))\n' "$1" >"$tmp/p$1.k"
}
for i in $(seq 1 12); do prog "$i"; done
k cache
expect "empty cache" 0 "entries:   0"
expect "empty cache dir" 0 "directory: $tmp/cache"
expect "default bound" 0 "bound:     1024.0 MiB"
k run "$tmp/p1.k"
expect "p1" 0 "4"
k cache --json
expect "cache json" 0 '"entries": 1,'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["entries"]==1 and d["bytes"]>0 and d["max_bytes"]==1<<30' "$tmp/out" ||
    fail "cache --json is not the expected JSON"
one=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bytes"])' "$tmp/out")
k run "$tmp/p1.k"
expect "p1 again" 0 "4"
k cache
expect "a disk hit is counted" 0 "hits:      1 "
for bad in garbage 10X -5 0 1.5G 99999999999999999999999; do
    KJIT_CACHE_MAX=$bad k cache
    expect "KJIT_CACHE_MAX=$bad cache" 2 "KJIT_CACHE_MAX=$bad is not a size"
    KJIT_CACHE_MAX=$bad k run "$tmp/p1.k"
    expect "KJIT_CACHE_MAX=$bad run" 2 "KJIT_CACHE_MAX=$bad is not a size"
done
KJIT_CACHE_MAX=2GiB k cache
expect "2GiB" 0 "bound:     2048.0 MiB"
KJIT_CACHE_MAX=512K k cache
expect "512K" 0 "bound:     0.5 MiB"
# a bound of three entries (each program's entry is about the same size):
# after twelve programs at most three remain, the newest among them
max=$((one * 3 + one / 2))
for i in $(seq 2 12); do
    KJIT_CACHE_MAX=$max k run "$tmp/p$i.k"
    expect "p$i under the bound" 0 "$((i * 3 + 1))"
done
KJIT_CACHE_MAX=$max k cache --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["bytes"] <= int(sys.argv[2]) and 1 <= d["entries"] <= 3, d' "$tmp/out" "$max" || fail "eviction: $(cat "$tmp/out")"
k cache clear
expect "clear" 0 "removed"
k cache
expect "cleared" 0 "entries:   0"
expect "hits kept over a clear" 0 "hits:      1 "
KJIT_CACHE_MAX=garbage k cache clear
expect "clear with a bad bound" 2 "KJIT_CACHE_MAX=garbage is not a size"

# ---- 2. kjit cache clear while other processes compile ----
# Compiles (each a new program, then the same again: a write then a read)
# race a loop of clears; every run must succeed and print the right thing.
(while [ ! -e "$tmp/done" ]; do
    "$kjit" cache clear >/dev/null 2>>"$tmp/clear.err" || echo "clear failed" >>"$tmp/clear.err"
    echo >>"$tmp/clears"
done) &
clearer=$!
for round in 1 2 3; do
    for i in $(seq 1 12); do
        out=$("$kjit" run "$tmp/p$i.k" 2>>"$tmp/run.err")
        [ "$out" = "$((i * 3 + 1))" ] || fail "concurrent clear: p$i round $round printed '$out' ($?)"
    done
done
touch "$tmp/done"
wait "$clearer"
[ "$(wc -l <"$tmp/clears")" -ge 10 ] || fail "concurrent clear: only $(wc -l <"$tmp/clears") clears ran"
[ -s "$tmp/clear.err" ] && fail "concurrent clear: $(head -c 400 "$tmp/clear.err")"
[ -s "$tmp/run.err" ] && fail "concurrent runs: $(head -c 400 "$tmp/run.err")"
# afterwards the cache is whole: every entry left reads back (a damaged one
# would be a miss and be rewritten; the outputs stay right)
for i in $(seq 1 12); do
    out=$("$kjit" run "$tmp/p$i.k" 2>&1)
    [ "$out" = "$((i * 3 + 1))" ] || fail "after the clears: p$i printed '$out'"
done
find "$tmp/cache" -name '.tmp-*' | grep -q . && fail "temporary files left in the cache"

# ---- 3. sysinfo ----
KJIT_LIBCUDA=$fake k sysinfo
expect "sysinfo fake" 0 "CUDA driver:"
expect "sysinfo fake driver" 0 "13.0"
expect "sysinfo fake GPUs" 0 "GPUs:"
expect "sysinfo fake GPU 0" 0 "GPU 0:"
expect "sysinfo fake GPU name" 0 "compute capability 9.0 (sm_90)"
expect "sysinfo fake SMs" 0 "132 SMs"
for key in "kjit version:" "LLVM version:" "NVPTX backend:" "host:" "host vector features:" "thread pool:" \
    "libdevice:" "MPI library:" "MPI CUDA-aware:" "BLAS/LAPACK:" "cache:"; do
    expect "sysinfo $key" 0 "$key"
done
expect "sysinfo BLAS" 0 "BLAS/LAPACK:           not found"
expect "sysinfo cache" 0 "$tmp/cache"
cp "$tmp/out" "$tmp/sys.txt"
KJIT_LIBCUDA=$fake k sysinfo --json
expect "sysinfo --json" 0 '"GPU 0": "fake, compute capability 9.0'
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
text = [l.split(":", 1)[0] for l in open(sys.argv[2]) if l.strip()]
assert list(d) == text, (list(d), text)' "$tmp/out" "$tmp/sys.txt" || fail "sysinfo --json: not every line"
k --json sysinfo
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" || fail "kjit --json sysinfo: not JSON"
k cache --json=x.json
expect "cache --json=FILE" 2 "option '--json' is for 'kjit bench' only"
KJIT_NUM_THREADS=3 k sysinfo
expect "sysinfo threads" 0 "3 threads (from KJIT_NUM_THREADS)"
NUMBA_NUM_THREADS=5 k sysinfo
expect "sysinfo numba threads" 0 "5 threads (from NUMBA_NUM_THREADS)"
# nothing there: no driver, no MPI, no cache directory: "not found", exit 0
KJIT_LIBCUDA=$tmp/no-libcuda.so KJIT_MPI_LIBRARY=$tmp/no-libmpi.so k sysinfo
expect "no driver" 0 "CUDA driver:           not found"
expect "no GPU" 0 "GPUs:                  not found"
expect "no MPI" 0 "MPI library:           not found"
expect "no MPI aware" 0 "MPI CUDA-aware:        not found"
absent "no driver" "GPU 0:"
env -u KJIT_CACHE_DIR -u XDG_CACHE_HOME -u HOME KJIT_LIBCUDA=$tmp/no-libcuda.so "$kjit" sysinfo --json >"$tmp/out" 2>"$tmp/err"
rc=$?
expect "no cache dir" 0 '"cache": "not found'
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" || fail "sysinfo --json without anything: not JSON"
KJIT_CACHE_MAX=garbage k sysinfo
expect "sysinfo bad max" 0 "cache:                 not usable: KJIT_CACHE_MAX=garbage is not a size"

# ---- float16 atomics: the GPU has atom.add.noftz.f16 from sm_70 (issue 26) ----
cat >"$tmp/h.k" <<'EOF'
import numpy as np
from numba import cuda


@cuda.jit
def k(out, x):
    cuda.atomic.add(out, 0, x[cuda.grid(1)])


def main():
    k[1, 4](np.zeros(1, dtype=np.float16), np.ones(4, dtype=np.float16))
EOF
k ptx --arch sm_60 "$tmp/h.k"
expect "f16 atomic sm_60" 1 "h.k:7:5: error: cuda.atomic.add on float16 needs sm_70 or newer (atom.add.noftz.f16), not sm_60"
k ptx --arch sm_70 "$tmp/h.k" # LLVM's PTX 6.0 for sm_70 has no f16 atom: a compare-and-swap loop
expect "f16 atomic sm_70" 0 ".global.cas.b32"

# ---- grid.sync(): acquire/release at gpu scope, which LLVM's NVPTX has from sm_70 (it aborted on sm_60) ----
cat >"$tmp/g.k" <<'EOF'
import numpy as np
from numba import cuda


@cuda.jit
def k(a):
    cuda.cg.this_grid().sync()


def main():
    k[2, 32](np.zeros(1))
EOF
k ptx --arch sm_60 "$tmp/g.k"
expect "grid.sync sm_60" 1 "g.k:7:5: error: grid.sync() needs sm_70 or newer (ld.acquire.gpu, fence.acq_rel.gpu), not sm_60"
k ptx --arch sm_70 "$tmp/g.k"
expect "grid.sync sm_70" 0 "ld.acquire.gpu"
k ptx --arch sm_90 "$tmp/h.k"
expect "f16 atomic sm_90" 0 "atom.global.add.noftz.f16"

# ---- cuda.const.array_like: the constant bank holds 64 KiB (issue 26) ----
cat >"$tmp/c.k" <<'EOF'
import numpy as np
from numba import cuda

A = np.zeros(5000)
B = np.ones(5000)


@cuda.jit
def k(out):
    a = cuda.const.array_like(A)
    b = cuda.const.array_like(B)
    out[0] = a[cuda.threadIdx.x] + b[cuda.threadIdx.x]


def main():
    k[1, 1](np.zeros(1))
EOF
k ptx --arch sm_90 "$tmp/c.k"
expect "const bank" 1 "c.k:11:9: error: cuda.const.array_like(B): the constant arrays of this program take 80000 bytes, over the GPU's 65536-byte constant bank"
sed -i 's/5000/4000/' "$tmp/c.k"
k ptx --arch sm_90 "$tmp/c.k"
expect "const bank fits" 0 ".const .align 16 .b8 kjit_const_B[32000]"

# ---- lineinfo=True on a device function only: its kernel keeps its lines (issue 26 point 8) ----
cat >"$tmp/l.k" <<'EOF'
import numpy as np
from numba import cuda


@cuda.jit(device=True, lineinfo=True)
def twice(x):
    return 2.0 * x


@cuda.jit
def k(a):
    a[0] = twice(a[0])


def main():
    k[1, 1](np.ones(1))
EOF
k ptx --arch sm_90 "$tmp/l.k"
expect "lineinfo device only" 0 "	.loc	1 7 "

if [ "$failed" -ne 0 ]; then
    echo "$failed failures"
    exit 1
fi
echo "cli: all passed"
