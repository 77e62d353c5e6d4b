#!/bin/sh
# The @jit loop benchmark (issue 3, "Performance"): out = a*b + sin(a) + cos(b)
# over 10^7 float32, kjit against the same loop in C, in one run.
#
#   benchmarks/jit_loop.sh [BUILDDIR] [N]
#
# BUILDDIR (default build-release) is a kjit build tree; the driver is built
# against its libkjit through meson's uninstalled pkg-config file, as an
# embedding application would be, with clang-22 -O3 -march=native (the
# reference C loop too). Target: kjit/C ratio <= 1.2.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build-release}" && pwd)
n=${2:-10000000}
cc=${CC:-clang-22}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

flags=$(PKG_CONFIG_PATH="$build/meson-uninstalled" pkg-config --cflags --libs kjit)
# shellcheck disable=SC2086 # flags are words
"$cc" -std=c17 -O3 -march=native -Wall -Wextra -Werror -o "$tmp/bench" \
    "$here/jit_loop/bench.c" "$here/jit_loop/loop.c" $flags -lm -Wl,-rpath,"$build"

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores); $("$cc" --version | head -n1)"
echo "kjit: $("$build/kjit" --version) ($build)"
KJIT_NO_CACHE=1 "$tmp/bench" "$here/jit_loop/loop.k" "$n"
