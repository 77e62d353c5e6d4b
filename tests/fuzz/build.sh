#!/usr/bin/env bash
# Builds the libFuzzer targets into BUILD_DIR (default build-fuzz/) and copies
# their seed corpora next to them:
#   tests/fuzz/build.sh [BUILD_DIR]
#   BUILD_DIR/fuzz_frontend BUILD_DIR/corpus -max_total_time=60      (.k sources)
#   BUILD_DIR/fuzz_npy BUILD_DIR/corpus_npy -max_total_time=60       (.npy files)
#
# Every library source (src/**/*.c except the CLI) is compiled with clang and
# -fsanitize=fuzzer,address,undefined; meson is not involved, so a fuzz build
# never disturbs the normal one.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-build-fuzz}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"

cc=${KJIT_FUZZ_CC:-clang-22}
# shellcheck disable=SC2054  # the commas belong to -fsanitize=
cflags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
        -Iinclude -Isrc -D_GNU_SOURCE -std=c17 -Wall -Wextra
        -isystem "${CUDA_HOME:-/usr/local/cuda}/include") # cuda.h: the driver's types (never linked)
libs=(-lpthread -lm -ldl)

mapfile -t srcs < <(find src -name '*.c' -not -path 'src/cli/*' | sort)

# The library links LLVM (codegen); add it only when the sources use it.
if grep -rqs --include='*.[ch]' 'llvm-c/' src; then
    llvm_config=${LLVM_CONFIG:-llvm-config-22}
    # -isystem, as meson.build does: LLVM's headers are not ours to warn on.
    cflags+=(-isystem "$("$llvm_config" --includedir)"
             -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS)
    # llvm-config prints the -L and -l parts on separate lines.
    read -r -a f <<<"$("$llvm_config" --link-shared --ldflags --libs | tr '\n' ' ')"
    libs+=("${f[@]}")
fi

# One object per source, compiled in parallel, then one link.
objdir="$out/fuzz-obj"
rm -rf "$objdir"
mkdir -p "$objdir"
jobs=$(nproc 2>/dev/null || echo 2)
objs=()
status=0
running=0
targets=(fuzz_frontend fuzz_npy)
for src in "${srcs[@]}" "${targets[@]/#/tests/fuzz/}"; do
    src=${src%.c}.c
    obj="$objdir/$(echo "${src%.c}" | tr / _).o"
    objs+=("$obj")
    "$cc" "${cflags[@]}" -c "$src" -o "$obj" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
if [ "$status" -ne 0 ]; then
    echo "fuzz build: compilation failed" >&2
    exit 1
fi
# One binary per target: the library's objects and that target's own.
lib_objs=()
for obj in "${objs[@]}"; do
    case "$obj" in */tests_fuzz_fuzz_*.o) ;; *) lib_objs+=("$obj") ;; esac
done
for t in "${targets[@]}"; do
    "$cc" "${cflags[@]}" "${lib_objs[@]}" "$objdir/tests_fuzz_$t.o" "${libs[@]}" -o "$out/$t"
done

# The seed corpora are copied: libFuzzer adds the inputs it finds to the
# directory it is given, and the checked-in corpus must stay as it is.
for c in corpus corpus_npy; do
    rm -rf "${out:?}/$c"
    cp -r "tests/fuzz/$c" "$out/$c"
    echo "fuzz build: corpus $out/$c, $(find "$out/$c" -type f | wc -l) seeds"
done
echo "fuzz build: ${targets[*]/#/$out/}"
