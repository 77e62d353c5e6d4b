#!/bin/sh
# The runtime's min fold per instruction set, with and without huge pages
# (benchmarks/cpu/fold_isa.c): benchmarks/cpu/fold_isa.sh LIBKJIT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-fold.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/fold_isa" "$here/fold_isa.c" -ldl
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'); THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
"$tmp/fold_isa" "$1"
