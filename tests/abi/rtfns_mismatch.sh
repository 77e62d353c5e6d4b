#!/usr/bin/env bash
# A run-time function whose C definition disagrees with its row of
# src/abi/rtfns.def does not compile (the row makes the prototype rt.h
# declares), and one that agrees does: the row is the only declaration, and
# the compiler holds the runtime to it.
#
#   tests/abi/rtfns_mismatch.sh SOURCE_ROOT CC [CC ARGS...]
set -euo pipefail
root=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

compile() { # a definition of kj_rt_seed with this parameter list
    printf '#include "runtime/rt.h"\nvoid kj_rt_seed(%s) { (void)rt; (void)seed; (void)line; (void)col; }\n' "$1" \
        >"$tmp/def.c"
    "${cc[@]}" -std=c17 -D_GNU_SOURCE -Werror -I"$root/src" -c "$tmp/def.c" -o "$tmp/def.o" 2>"$tmp/err"
}
cc=("$@")

if ! compile 'kj_rt *rt, int64_t seed, int32_t line, int32_t col'; then
    echo "FAIL: the definition that agrees with its row does not compile:" >&2
    cat "$tmp/err" >&2
    exit 1
fi
if compile 'kj_rt *rt, int32_t seed, int32_t line, int32_t col'; then
    echo "FAIL: a definition of kj_rt_seed with an int32_t seed (the row says int64_t) compiles" >&2
    exit 1
fi
grep -q "conflicting types" "$tmp/err" || { echo "FAIL: not a type conflict:" >&2; cat "$tmp/err" >&2; exit 1; }
echo "ok: a definition must agree with its rtfns.def row"
