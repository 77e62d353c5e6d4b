/* SPDX-License-Identifier: BSD-2-Clause */
/* b'...': a call of bytes.<lit> with the literal's bytes as hex digits (a
 * KIR string constant ends at its first NUL, and bytes may hold \x00), which
 * the runtime decodes into a new readonly uint8 array (llvm_bytes.c,
 * kj_rt_bytes_new). Every evaluation makes its own array, as CPython's bytes
 * literal is one object, immutable, so nobody can tell. */
#include "lower_int.h"

kir_ref kj_lower_bytes_literal(lctx *lc, const kj_expr *e, const kj_type *t)
{
    static const char digits[] = "0123456789abcdef";
    char *hex = kj_arena_alloc(lc->s->a, (size_t)e->str.len * 2 + 1);
    for (uint32_t i = 0; i < e->str.len; i++) {
        unsigned char c = (unsigned char)e->str.s[i];
        hex[2 * i] = digits[c >> 4];
        hex[2 * i + 1] = digits[c & 15];
    }
    hex[2 * e->str.len] = 0;
    kir_ref s = kj_lw_emit(lc, KIR_CONST_STR, kj_t_str(lc->s->types), e->span);
    kir_at(lc->f, s)->s = hex;
    kir_ref r = kj_lw_emit_args(lc, KIR_BUILTIN, t, e->span, &s, 1);
    kir_at(lc->f, r)->aux = KJ_B_BYTES_LIT;
    return r;
}
