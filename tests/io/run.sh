#!/usr/bin/env bash
# The `kjit` command's files, streams and settings (issue 22, points 7, 8,
# 9, 13, 17, 21, 22, 23): bench outputs that are its input, written through
# temporary files; output lost to a full device is an error; the cache after
# an .npy file changes type; np.save through symbolic links; --repeat's
# bound; environment variables that are garbage; NAME=VALUE floats as
# Python's float() reads them; a bench where every target fails.
#   tests/io/run.sh KJIT
set -uo pipefail
kjit=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-io.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache
unset KJIT_BOUNDSCHECK KJIT_NO_CACHE KJIT_NO_FUSE KJIT_STATS KJIT_DEVICE KJIT_MPI_TIMEOUT KJIT_NUM_THREADS
failed=0
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}
# `kjit ARGS` in $tmp: status in $rc, output in $tmp/out and $tmp/err
k() {
    (cd "$tmp" && "$kjit" "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
# CASE STATUS TEXT: the last command exited with STATUS and printed TEXT (stdout or stderr)
expect() {
    [ "$rc" -eq "$2" ] || fail "$1: exit status $rc, want $2: $(head -c 600 "$tmp/out" "$tmp/err" | tr '\n' '|')"
    grep -qF -- "$3" "$tmp/out" "$tmp/err" || fail "$1: no '$3' in: $(head -c 800 "$tmp/out" "$tmp/err" | tr '\n' '|')"
}

cat >"$tmp/hello.k" <<'EOF'
def main(n=3):
    print("hello", n)
EOF
# prints 200 kB: more than stdio's buffer, so writes fail while main runs
cat >"$tmp/loud.k" <<'EOF'
def main(n=20000):
    for i in range(n):
        print(i, "0123456789")
EOF
cat >"$tmp/fails.k" <<'EOF'
def main(n=3):
    assert n < 2
    print(n)
EOF

# ---- 17: environment variables that are garbage are refused ----
for v in KJIT_MPI_TIMEOUT=abc KJIT_MPI_TIMEOUT=-1 KJIT_MPI_TIMEOUT=0 KJIT_MPI_TIMEOUT=nan KJIT_DEVICE=abc \
    KJIT_DEVICE=-1 KJIT_DEVICE=1x KJIT_NO_CACHE=abc KJIT_NO_FUSE=2 KJIT_STATS=maybe KJIT_NUM_THREADS=abc \
    KJIT_BOUNDSCHECK=abc KJIT_MPI_CUDA_AWARE=2 KJIT_MPI_IPC=on OMPI_COMM_WORLD_LOCAL_RANK=x SLURM_LOCALID=-2; do
    (cd "$tmp" && env "$v" "$kjit" run hello.k) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    expect "env $v" 2 "kjit: error: ${v%%=*}="
done
for v in KJIT_MPI_TIMEOUT=2.5 KJIT_MPI_TIMEOUT=30 KJIT_DEVICE=0 KJIT_NO_CACHE=1 KJIT_NO_CACHE=0 KJIT_NO_FUSE=yes \
    KJIT_STATS=off KJIT_NUM_THREADS=2 OMPI_COMM_WORLD_LOCAL_RANK=1; do
    (cd "$tmp" && env "$v" "$kjit" run hello.k) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    expect "env $v" 0 "hello 3"
done

# ---- 22: NAME=VALUE floats as Python's float() reads them ----
cat >"$tmp/float.k" <<'EOF'
def main(x=0.5):
    print(x)
EOF
check_float() { # VALUE PRINTED
    k run float.k "x=$1"
    [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$2" ] ||
        fail "x=$1: status $rc, printed '$(cat "$tmp/out")', want '$2': $(tr '\n' '|' <"$tmp/err")"
}
check_float 1e-320 1e-320
check_float 5e-324 5e-324
check_float 1e309 inf
check_float -1e309 -inf
check_float 1_000.5 1000.5
check_float 1_0e1_0 100000000000.0
check_float .5_5 0.55
check_float 1. 1.0
check_float Infinity inf
check_float -iNF -inf
check_float +nan nan
check_float " 2.5 " 2.5
for bad in 1__0 _1 1_ 1_.5 1._5 1e_5 0x10 inf_ 1e . e5 "" nan1 infinit "1 5" 1,5; do
    k run float.k "x=$bad"
    expect "x='$bad' refused" 2 "invalid value '$bad' for parameter 'x' (float: expected a number)"
done

# ---- 8: output lost to a full device is an error ----
if [ -w /dev/full ]; then
    (cd "$tmp" && "$kjit" run hello.k) >/dev/full 2>"$tmp/err"
    rc=$?
    [ "$rc" -ne 0 ] || fail "run > /dev/full: exit status 0"
    grep -qF "No space left on device" "$tmp/err" || fail "run > /dev/full: no OS error in: $(tr '\n' '|' <"$tmp/err")"
    (cd "$tmp" && "$kjit" run loud.k) >/dev/full 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 3 ] || fail "run loud > /dev/full: exit status $rc, want 3"
    grep -qF "OSError: cannot write the output: No space left on device" "$tmp/err" ||
        fail "run loud > /dev/full: no OSError in: $(tr '\n' '|' <"$tmp/err")"
    for cmd in help version "check hello.k --version" "ir hello.k" "bench hello.k --repeat 1"; do
        (cd "$tmp" && "$kjit" $cmd) >/dev/full 2>"$tmp/err"
        rc=$?
        [ "$rc" -eq 1 ] || fail "$cmd > /dev/full: exit status $rc, want 1"
        grep -qF "No space left on device" "$tmp/err" || fail "$cmd > /dev/full: no OS error: $(tr '\n' '|' <"$tmp/err")"
    done
    k bench hello.k --repeat 1 --json /dev/full
    expect "bench --json /dev/full" 1 "cannot write --json file '/dev/full': No space left on device"
    [ -c /dev/full ] || fail "/dev/full is no longer a device"
else
    echo "io: /dev/full not writable here: the full-device cases skipped"
fi

# ---- 7: a bench output that is an input is refused; outputs go through temporary files ----
cp "$tmp/hello.k" "$tmp/prog.k"
k bench prog.k --repeat 1 --json prog.k
expect "bench --json PROG" 2 "--json file 'prog.k' is the program"
cmp -s "$tmp/hello.k" "$tmp/prog.k" || fail "bench --json PROG: the program was changed"
cp "$tmp/hello.k" "$tmp/prog.k"
ln "$tmp/prog.k" "$tmp/hard.k"
k bench prog.k --repeat 1 --csv hard.k
expect "bench --csv HARDLINK" 2 "--csv file 'hard.k' is the program"
cp "$tmp/hello.k" "$tmp/prog.k"
ln -s prog.k "$tmp/soft.svg"
k bench prog.k --repeat 1 --plot soft.svg
expect "bench --plot SYMLINK" 2 "--plot file 'soft.svg' is the program"
cp "$tmp/hello.k" "$tmp/prog.k"
k bench ./prog.k --repeat 1 --json "$tmp/prog.k"
expect "bench --json PROG by another name" 2 "is the program"
cmp -s "$tmp/hello.k" "$tmp/prog.k" || fail "bench --json PROG by another name: the program was changed"
cp "$tmp/hello.k" "$tmp/prog.k"
k bench prog.k --repeat 1 --json out.json --csv ./out.json
expect "bench --json F --csv F" 2 "--csv file './out.json' is the same file as --json"
[ -e "$tmp/out.json" ] && fail "bench --json F --csv F: wrote out.json"
mkdir "$tmp/res"
echo old >"$tmp/res/r.json"
ln -s res/r.json "$tmp/r-link.json"
k bench prog.k --repeat 1 --json r-link.json --csv res/r.csv --plot res/r.svg
expect "bench outputs" 0 "outputs: the same on every target that ran"
[ -L "$tmp/r-link.json" ] || fail "bench --json LINK: the link was replaced"
grep -q '"kjit_bench": 1' "$tmp/res/r.json" || fail "bench --json LINK: not written through the link"
[ "$(ls "$tmp/res" | tr '\n' ' ')" = "r.csv r.json r.svg " ] ||
    fail "bench outputs: the directory holds $(ls -a "$tmp/res" | tr '\n' ' ')"
# /dev/stdout is appended to, after the report, into a file or a pipe
k bench prog.k --repeat 1 --json /dev/stdout
expect "bench --json /dev/stdout (a file)" 0 '"kjit_bench": 1'
grep -qF "outputs: the same" "$tmp/out" || fail "bench --json /dev/stdout (a file): the report was lost"
(cd "$tmp" && "$kjit" bench prog.k --repeat 1 --csv /dev/stdout | cat) >"$tmp/out" 2>"$tmp/err"
rc=$?
expect "bench --csv /dev/stdout (a pipe)" 0 "target,status,param,value"
grep -qF "outputs: the same" "$tmp/out" || fail "bench --csv /dev/stdout (a pipe): the report was lost"
# a bench that stops after its outputs were checked (no directory for its
# cache) leaves an existing file as it was
echo old >"$tmp/res/r.json"
(cd "$tmp" && TMPDIR=$tmp/none "$kjit" bench prog.k --repeat 1 --json res/r.json) >"$tmp/out" 2>"$tmp/err"
rc=$?
expect "bench stopped early" 1 "cannot make a cache directory"
[ "$(cat "$tmp/res/r.json")" = old ] || fail "bench stopped early: the old --json file changed"
[ "$(ls "$tmp/res" | tr '\n' ' ')" = "r.csv r.json r.svg " ] ||
    fail "bench stopped early: the directory holds $(ls -a "$tmp/res" | tr '\n' ' ')"

# ---- 13: --repeat is bounded ----
k bench hello.k --repeat 1000000000
expect "bench --repeat 1e9" 2 "invalid --repeat '1000000000' (expected a number of runs from 1 to 1000)"

# ---- 23: every target failing is said so, with a non-zero exit ----
k bench fails.k --target cpu,parallel --repeat 1 --json all-failed.json
expect "bench all failed" 3 "outputs: none compared: every target failed"
grep -qF "outputs: the same" "$tmp/out" && fail "bench all failed: says the outputs are the same"
grep -qF "compile" "$tmp/out" && fail "bench all failed: prints the empty tables"
grep -qF '"outputs_agree": null' "$tmp/all-failed.json" || fail "bench all failed: json outputs_agree is not null"

# ---- 9: the cache after an .npy file changes type ----
mkdir "$tmp/npy"
cat >"$tmp/npy/save_f64.k" <<'EOF'
import numpy as np

def main():
    np.save("x.npy", np.arange(3.0))
EOF
cat >"$tmp/npy/save_i32.k" <<'EOF'
import numpy as np

def main():
    np.save("x.npy", np.arange(6, dtype=np.int32).reshape(2, 3))
EOF
cat >"$tmp/npy/save_f64_f.k" <<'EOF'
import numpy as np

def main():
    np.save("x.npy", np.arange(6.0).reshape(3, 2).T)  # Fortran order
EOF
cat >"$tmp/npy/load.k" <<'EOF'
import numpy as np

def main():
    a = np.load("x.npy")
    print(a.sum(), a.ndim)
EOF
load_prints() { # SAVER PRINTED
    (cd "$tmp/npy" && "$kjit" run "$1" && "$kjit" run load.k) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$2" ] ||
        fail "np.load after $1: status $rc, printed '$(cat "$tmp/out")', want '$2': $(tr '\n' '|' <"$tmp/err")"
}
load_prints save_f64.k "3.0 1"
load_prints save_i32.k "15 2"
load_prints save_f64_f.k "15.0 2"
load_prints save_f64.k "3.0 1"

# ---- 21: np.save writes through a symbolic link ----
mkdir -p "$tmp/links/data" "$tmp/links/sub"
cat >"$tmp/links/save.k" <<'EOF'
import numpy as np

def main(name="x"):
    np.save(name, np.arange(4.0))
EOF
cat >"$tmp/links/load.k" <<'EOF'
import numpy as np

def main():
    print(np.load("data/real.npy"))
    print(np.load("data/new.npy"))
EOF
echo old >"$tmp/links/data/real.npy"
chmod 640 "$tmp/links/data/real.npy"
ln -s data/real.npy "$tmp/links/link.npy"       # relative to the link's directory
ln -s ../data/new.npy "$tmp/links/sub/dangling.npy" # a link to a file not there yet
ln -s ../link.npy "$tmp/links/sub/chain.npy"     # a link to a link
(cd "$tmp/links" && "$kjit" run save.k name=link.npy && "$kjit" run save.k name=sub/dangling &&
    "$kjit" run save.k name=sub/chain.npy && "$kjit" run load.k) >"$tmp/out" 2>"$tmp/err"
rc=$?
expect "np.save through links" 0 "[0. 1. 2. 3.]"
[ "$(grep -c '0. 1. 2. 3.' "$tmp/out")" = 2 ] || fail "np.save through links: printed $(tr '\n' '|' <"$tmp/out")"
for l in link.npy sub/dangling.npy sub/chain.npy; do
    [ -L "$tmp/links/$l" ] || fail "np.save through links: $l is no longer a link"
done
[ "$(stat -c %a "$tmp/links/data/real.npy")" = 640 ] || fail "np.save through links: the target's mode changed"
[ "$(ls -a "$tmp/links/data" | tr '\n' ' ')" = ". .. new.npy real.npy " ] ||
    fail "np.save through links: data/ holds $(ls -a "$tmp/links/data" | tr '\n' ' ')"

echo "io: $failed failed"
[ $failed -eq 0 ]
