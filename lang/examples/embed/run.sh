#!/bin/sh
# Build embed.c against a kjit build tree the way an application would,
# through pkg-config (the build tree's kjit-uninstalled.pc), then run it and check
# what it prints.
#
#   run.sh BUILDDIR SANITIZE CC [CC ARGS...]
#
# SANITIZE is meson's b_sanitize ("none", "address,undefined", ...): a
# sanitized libkjit needs the application linked with the same runtime.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 BUILDDIR SANITIZE CC [CC ARGS...]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
sanitize=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-embed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

san=""
[ "$sanitize" = none ] || san="-fsanitize=$sanitize"
# The literal command of docs/embedding.md, with the build tree's .pc file.
flags=$(PKG_CONFIG_PATH="$build" pkg-config --cflags --libs kjit)
# only the public header's directory: none of the source tree's internals
case " $(PKG_CONFIG_PATH="$build" pkg-config --cflags kjit) " in
*/src\ * | */cuda/include* | */cuda-*/include* | *targets/*/include*) echo "embed: kjit's Cflags expose internal directories: $flags" >&2; exit 1 ;;
esac
# shellcheck disable=SC2086 # flags are words
"$@" -std=c17 -Wall -Wextra -Werror $san -o "$tmp/embed" "$here/embed.c" $flags -lm \
    -Wl,-rpath,"$build"

KJIT_CACHE_DIR="$tmp/cache" "$tmp/embed" > "$tmp/out"
cat "$tmp/out"
check() {
    if ! grep -qxF "$1" "$tmp/out"; then
        echo "embed: expected the line: $1" >&2
        exit 1
    fi
}
check "saxpy: y[0..3] = 1 3 5 7"
check "dot(x, y) = 333083250.0"
version=$("$build/kjit" --version | sed 's/^kjit //')
check "ok (kjit $version)"
