#!/usr/bin/env bash
# The GPU suite (docs/cuda.md): run where there is a GPU, e.g.
#     meson test -C build --suite gpu   or   tests/gpu/run.sh build/kjit [ROOT [API_GPU]]
#
# 1. Every program with kernels or ufuncs (lang/examples, tests/golden/{run,
#    valid,valid_kjit_only}, tests/gpu/programs) prints on --target cuda
#    exactly what it prints on --target cpu, with the same exit status.
# 2. The fault programs of tests/gpu/faults/ end as their first lines say
#    (`# status: N` and `# stderr: SUBSTRING` lines).
# 3. tests/gpu/pinned/NAME.k print NAME.expected on cuda (programs the cpu
#    target cannot run yet).
# 4. The C API on the GPU (api_gpu.c: kjit_launch, 1000 cycles without a
#    device memory leak, a new context after a fault), when given.
# 5. With KJIT_GPU_SANITIZE=1, compute-sanitizer's memcheck and racecheck
#    report nothing on the programs of step 1.
# Programs listed in tests/gpu/SKIP are not compared (each says why).
# KJIT_GPU_SHARD=K/N runs only every N-th program of step 1 from the K-th
# (0-based), and steps 2-4 only in shard 0: the sanitizer run takes longer
# than one device call allows, so it goes in N calls. KJIT_GPU_LIST=FILE
# runs only the programs of step 1 that FILE names (one path from ROOT a
# line), e.g. those a change added, under the sanitizer.
# Exits 77 (meson's "skipped") where there is no CUDA driver or device.
set -uo pipefail
kjit=$(realpath "$1")
root=$(realpath "${2:-$(dirname "$0")/../..}")
api_gpu=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-gpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KJIT_CACHE_DIR=$tmp/cache

probe=$tmp/probe.k
printf 'from numba import cuda\nimport numpy as np\n\n@cuda.jit\ndef k(x):\n    x[0] = 1.0\n\ndef main():\n    x = np.zeros(1)\n    k[1, 1](x)\n    print(x[0])\n' >"$probe"
if ! "$kjit" run --target=cuda "$probe" >"$tmp/out" 2>&1; then
    echo "gpu: skipped: $(head -n 1 "$tmp/out")"
    exit 77
fi

passed=0
failed=0
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}

# 1. cuda == cpu
programs=$(grep -lE "cuda.jit|vectorize" "$root"/lang/examples/*.k "$root"/tests/golden/run/*.k \
    "$root"/tests/golden/valid/*.k "$root"/tests/golden/valid_kjit_only/*.k "$root"/tests/gpu/programs/*.k | sort)
shard=${KJIT_GPU_SHARD:-0/1}
shard_k=${shard%/*}
shard_n=${shard#*/}
index=-1
for f in $programs; do
    index=$((index + 1))
    [ $((index % shard_n)) -eq "$shard_k" ] || continue
    name=${f#"$root"/}
    if [ -n "${KJIT_GPU_LIST:-}" ] && ! grep -qxF "$name" "$KJIT_GPU_LIST"; then
        continue
    fi
    if grep -q "^$name " "$root/tests/gpu/SKIP"; then
        echo "skip $name: $(grep "^$name " "$root/tests/gpu/SKIP" | sed 's/^[^ ]* *//')"
        continue
    fi
    dir=$(dirname "$f")
    (cd "$dir" && "$kjit" run --target=cpu "$f" >"$tmp/cpu.out" 2>"$tmp/cpu.err")
    cpu_rc=$?
    (cd "$dir" && "$kjit" run --target=cuda "$f" >"$tmp/cuda.out" 2>"$tmp/cuda.err")
    cuda_rc=$?
    if [ $cpu_rc -ne $cuda_rc ]; then
        fail "$name" "exit $cuda_rc on cuda, $cpu_rc on cpu: $(head -c 300 "$tmp/cuda.err")"
    elif ! cmp -s "$tmp/cpu.out" "$tmp/cuda.out"; then
        fail "$name" "output differs: $(diff "$tmp/cpu.out" "$tmp/cuda.out" | head -n 24 | tr '\n' '|')"
    else
        passed=$((passed + 1))
    fi
    if [ "${KJIT_GPU_SANITIZE:-0}" = 1 ] && [ $cuda_rc -eq 0 ]; then
        for tool in memcheck racecheck; do
            start=$SECONDS
            if ! (cd "$dir" && compute-sanitizer --tool "$tool" --error-exitcode 9 "$kjit" run --target=cuda "$f" \
                >"$tmp/san.out" 2>&1); then
                fail "$name" "compute-sanitizer --tool $tool: $(grep -m 8 '=========' "$tmp/san.out" | tr '\n' '|')"
            else
                passed=$((passed + 1))
            fi
            # which programs make a shard slow under the sanitizer
            echo "san $name $tool $((SECONDS - start)) s"
        done
    fi
done

if [ "$shard_k" -ne 0 ]; then
    echo "gpu: $passed passed, $failed failed (shard $shard)"
    [ $failed -eq 0 ]
    exit
fi

# 2. faults
for f in "$root"/tests/gpu/faults/*.k; do
    name=${f#"$root"/}
    want=$(sed -n 's/^# status: //p' "$f" | head -n 1)
    env=$(sed -n 's/^# env: //p' "$f" | head -n 1)
    args=$(sed -n 's/^# args: //p' "$f" | head -n 1)
    (cd "$(dirname "$f")" && env $env "$kjit" run --target=cuda $args "$f" >"$tmp/out" 2>"$tmp/err")
    rc=$?
    ok=1
    [ "$rc" = "$want" ] || ok=0
    while IFS= read -r sub; do
        grep -qF -- "$sub" "$tmp/err" || ok=0
    done < <(sed -n 's/^# stderr: //p' "$f")
    if [ $ok = 1 ]; then
        passed=$((passed + 1))
    else
        fail "$name" "exit $rc (want $want); stderr: $(head -c 400 "$tmp/err" | tr '\n' '|')"
    fi
done

# 3. pinned outputs
for f in "$root"/tests/gpu/pinned/*.k; do
    [ -e "$f" ] || continue
    name=${f#"$root"/}
    (cd "$(dirname "$f")" && "$kjit" run --target=cuda "$f" >"$tmp/out" 2>"$tmp/err")
    if [ $? -eq 0 ] && cmp -s "$tmp/out" "${f%.k}.expected"; then
        passed=$((passed + 1))
    else
        fail "$name" "cuda output differs from ${name%.k}.expected: $(diff "$tmp/out" "${f%.k}.expected" | head -n 6 | tr '\n' '|') $(head -c 300 "$tmp/err")"
    fi
done

# 4. the C API
if [ -n "$api_gpu" ]; then
    if "$api_gpu" >"$tmp/out" 2>&1; then
        passed=$((passed + 1))
        cat "$tmp/out"
    else
        fail api_gpu "$(tr '\n' '|' <"$tmp/out")"
    fi
fi

echo "gpu: $passed passed, $failed failed"
[ $failed -eq 0 ]
