#!/usr/bin/env bash
# Builds the libFuzzer targets into BUILD_DIR (default build-fuzz/) and copies
# the seed corpus next to them:
#   tests/fuzz/build.sh [BUILD_DIR]
#   BUILD_DIR/fuzz_frontend BUILD_DIR/corpus -max_total_time=60
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

# Later parts of the library link LLVM and libffi; add them only once used.
if grep -rqs --include='*.[ch]' 'llvm-c/' src; then
    llvm_config=${LLVM_CONFIG:-llvm-config-22}
    # -isystem, as meson.build does: LLVM's headers are not ours to warn on.
    cflags+=(-isystem "$("$llvm_config" --includedir)"
             -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS)
    # llvm-config prints the -L and -l parts on separate lines.
    read -r -a f <<<"$("$llvm_config" --link-shared --ldflags --libs | tr '\n' ' ')"
    libs+=("${f[@]}")
fi
if grep -rqs --include='*.[ch]' '<ffi.h>' src; then
    read -r -a f <<<"$(pkg-config --cflags --libs libffi)"
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
for src in "${srcs[@]}" tests/fuzz/fuzz_frontend.c; do
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
"$cc" "${cflags[@]}" "${objs[@]}" "${libs[@]}" -o "$out/fuzz_frontend"

# The seed corpus is copied: libFuzzer adds the inputs it finds to the
# directory it is given, and the checked-in corpus must stay as it is.
rm -rf "$out/corpus"
cp -r tests/fuzz/corpus "$out/corpus"
echo "fuzz build: $out/fuzz_frontend (corpus: $out/corpus, $(find "$out/corpus" -type f | wc -l) seeds)"
