#!/usr/bin/env bash
# PTX without a GPU (CI): every kernel (and ufunc kernel) of the examples, the golden programs,
# the pinned programs and the GPU suite's programs is compiled by `kjit ptx --arch sm_90` and
# assembled by `ptxas -arch=sm_90`; tests/ptx/NAME.k must print exactly
# NAME.expected (the hand-off point pinned: kjit's PTX for LLVM 22 and the
# toolkit's libdevice, for sm_90 whatever GPU the machine has).
#   tests/ptx/check.sh KJIT ROOT PTXAS
# KJIT_PTX_UPDATE=1 rewrites the .expected files from kjit's output; review
# the diff (tests/golden/README.md). The texts are pinned from a gcc-built
# kjit: with KJIT_PIN_CC (meson sets it to the compiler's id) naming another
# compiler, the pinned programs are only compiled and assembled (the order
# of a C call's arguments is unspecified, and clang's kjit emits some
# independent instructions in another order).
set -uo pipefail
kjit=$(realpath "$1")
root=$(realpath "$2")
ptxas=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-ptx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}

programs=$(grep -lE "cuda.jit|vectorize" "$root"/lang/examples/*.k "$root"/tests/golden/run/*.k "$root"/tests/golden/valid/*.k \
    "$root"/tests/golden/valid_kjit_only/*.k "$root"/tests/golden/ir/*.k "$root"/tests/golden/llvm/*.k \
    "$root"/tests/ptx/*.k "$root"/tests/gpu/programs/*.k \
    "$root"/tests/gpu/pinned/*.k "$root"/benchmarks/cuda/*.k | sort)
for f in $programs; do
    name=${f#"$root"/}
    if ! (cd "$(dirname "$f")" && "$kjit" ptx --arch=sm_90 "$f" >"$tmp/k.ptx" 2>"$tmp/err"); then
        fail "$name" "kjit ptx: $(head -c 300 "$tmp/err" | tr '\n' '|')"
    elif ! "$ptxas" -arch=sm_90 "$tmp/k.ptx" -o "$tmp/k.cubin" 2>"$tmp/err"; then
        fail "$name" "ptxas: $(head -c 300 "$tmp/err" | tr '\n' '|')"
    else
        passed=$((passed + 1))
    fi
done

pin_cc=${KJIT_PIN_CC:-gcc}
if [ "$pin_cc" != gcc ]; then
    echo "ptx: the pinned PTX of tests/ptx/ is not compared: it is pinned from a gcc-built kjit, this one was built by $pin_cc"
fi
for f in "$root"/tests/ptx/*.k; do
    [ "$pin_cc" = gcc ] || break
    name=${f#"$root"/}
    # lineinfo's .file names the program by its absolute path: pinned from the
    # root; its DWARF sections hold the build's directory as bytes: not pinned
    # a `# kjit-env: NAME=VALUE ...` line: the environment of its kjit (KJIT_INDEX32=1)
    envs=$(sed -n 's/^# kjit-env: //p' "$f")
    env $envs "$kjit" ptx --arch=sm_90 "$f" 2>&1 | sed "s|\"$root/|\"|" | sed '/^	\.section	\.debug_/,$d' >"$tmp/out"
    if [ "${KJIT_PTX_UPDATE:-0}" = 1 ]; then
        cp "$tmp/out" "${f%.k}.expected"
    fi
    if cmp -s "$tmp/out" "${f%.k}.expected"; then
        passed=$((passed + 1))
    else
        fail "$name" "PTX differs from ${name%.k}.expected: $(diff "${f%.k}.expected" "$tmp/out" | head -n 10 | tr '\n' '|')"
    fi
done
# lineinfo=True: .file names the program, .loc lines are in the kernel and
# device function that ask for them and in no other (llvm_lineinfo.c)
f=$root/tests/ptx/lineinfo.k
"$kjit" ptx --arch=sm_90 "$f" >"$tmp/li.ptx" 2>&1
if ! grep -qF ".file	1 \"$f\"" "$tmp/li.ptx"; then
    fail tests/ptx/lineinfo.k "no .file naming $f"
elif ! awk '/^\.(visible|func|entry)/ || /^\.visible \.entry/ { fn = $0 } /^\t\.loc\t/ { n[fn]++ }
            END { ok = 0; for (k in n) { if (k ~ /plain/) exit 1; if (k ~ /scale/) ok++ } exit ok ? 0 : 1 }' "$tmp/li.ptx"; then
    fail tests/ptx/lineinfo.k ".loc lines missing in scale or present in plain"
elif grep -q "	\.loc	" <("$kjit" ptx --arch=sm_90 "$root/tests/ptx/saxpy.k" 2>&1); then
    fail tests/ptx/lineinfo.k "saxpy (no lineinfo) has .loc lines"
else
    passed=$((passed + 1))
fi
echo "ptx: $passed passed, $failed failed"
[ $failed -eq 0 ]
