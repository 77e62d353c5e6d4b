#!/usr/bin/env bash
# `meson install` into a DESTDIR (issue 30 point 7): the program, the
# library, kjit.h, kjit.pc whose Cflags name only the installed include
# directory (an application builds against the installed header alone), the
# man page, the bash completion (it completes commands and options), the
# docs, LICENSE and CHANGELOG.md.
#   tests/packaging/install.sh BUILDDIR CC [CC ARGS...]
set -uo pipefail
build=$(realpath "$1")
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v meson >/dev/null || { echo "no meson on PATH"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}
dest=$tmp/dest
meson install -C "$build" --no-rebuild --destdir "$dest" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
prefix=$(meson introspect "$build" --buildoptions | python3 -c \
    'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
root=$dest$prefix
for f in bin/kjit include/kjit.h share/man/man1/kjit.1 share/bash-completion/completions/kjit \
    share/doc/kjit/LICENSE share/doc/kjit/CHANGELOG.md share/doc/kjit/README.md share/doc/kjit/cli.md \
    share/doc/kjit/language.md share/doc/kjit/embedding.md; do
    [ -s "$root/$f" ] || fail "not installed: $f"
done

# kjit.pc: Cflags only -I${includedir}
# The Python package (python/meson.build), with _paths.py naming the installed library.
pkg=$(find "$root" -path '*/kjit/__init__.py' | head -1)
if [ -z "$pkg" ]; then
    python3 -c 'import sys' 2>/dev/null && fail "the Python package kjit is not installed"
else
    grep -q "^LIBDIR = \"$prefix/" "$(dirname "$pkg")/_paths.py" || fail "kjit/_paths.py: $(cat "$(dirname "$pkg")/_paths.py")"
    [ -f "$(dirname "$pkg")/__main__.py" ] || fail "kjit/__main__.py not installed"
fi

pc=$(find "$root" -name kjit.pc | head -1)
[ -n "$pc" ] || fail "no kjit.pc installed"
if [ -n "$pc" ]; then
    grep -qx 'Cflags: -I${includedir}' "$pc" || fail "kjit.pc Cflags: $(grep Cflags "$pc")"
    flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$root" --cflags kjit)
    # shellcheck disable=SC2086 # flags are words
    "$@" -std=c17 -Wall -Wextra -Werror -c -o "$tmp/embed.o" "$src/lang/examples/embed/embed.c" $flags ||
        fail "embed.c does not compile against the installed kjit.h alone ($flags)"
fi

# the man page: generated from the help, so it lists the commands; man renders it
man1=$root/share/man/man1/kjit.1
grep -q '^\.TH KJIT 1' "$man1" || fail "kjit.1: no .TH"
for w in '^\.SH COMMANDS' '^\.SH OPTIONS' 'check FILE\.k' '--target=cpu'; do
    grep -qE -- "$w" "$man1" || fail "kjit.1: no /$w/"
done
if command -v man >/dev/null; then
    MANWIDTH=100 man -l "$man1" 2>"$tmp/manerr" >"$tmp/man" || fail "man -l kjit.1 failed: $(cat "$tmp/manerr")"
    grep -q 'bench FILE.k' "$tmp/man" || fail "the rendered man page has no bench"
fi

# the completion: valid bash, completes commands, options and --target's values
comp=$root/share/bash-completion/completions/kjit
bash -n "$comp" || fail "the completion is not valid bash"
complete_words() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kjit; echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
[ "$(complete_words kjit che)" = check ] || fail "completion of 'kjit che': $(complete_words kjit che)"
[ "$(complete_words kjit run --no-c)" = --no-cache ] || fail "completion of '--no-c': $(complete_words kjit run --no-c)"
[ "$(complete_words kjit run --target = par)" = parallel ] ||
    fail "completion of '--target=par': $(complete_words kjit run --target = par)"
[ "$(complete_words kjit bench --diag-format j)" = json ] || fail "completion of '--diag-format j'"
[ "$(complete_words kjit help sy)" = sysinfo ] || fail "completion of 'kjit help sy': $(complete_words kjit help sy)"
[ "$(complete_words kjit cache c)" = clear ] || fail "completion of 'kjit cache c': $(complete_words kjit cache c)"

exit $((failed > 0))
