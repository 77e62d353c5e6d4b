/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of numba.cuda.libdevice's functions (docs/cuda.md § libdevice):
 * each has the one signature of Numba's libdevicefuncs.py, its row in
 * builtins_libdevice.h. An integer argument converts to the parameter's
 * type (int or float), a float to a float parameter, as Numba's overload
 * resolution does; anything else is a located error that names the
 * function and its signature. Out-pointer parameters are no arguments:
 * their values join the result, a tuple when there are several
 * (sincos(x) -> (sin, cos), frexp(x) -> (mantissa, exponent)). */
#include "builtins.h"

#include "../util/diag.h"

#include <stdio.h>
#include <string.h>

static const kj_libdevice_fn TABLE[] = {
#define ROW(X, name, sig, params, host) {#name, sig, host},
    KJ_LIBDEVICE(ROW, _)
#undef ROW
};

const kj_libdevice_fn *kj_libdevice_get(kj_builtin id)
{
    return kj_builtin_libdevice(id) ? &TABLE[id - KJ_LD_FIRST] : NULL;
}

static const kj_type *letter_type(kj_types *t, char c)
{
    switch (c | 0x20) { /* upper case: an out-pointer of that type */
    case 'f': return kj_t_float(t, 32);
    case 'd': return kj_t_float(t, 64);
    case 'h': return kj_t_int(t, 16, true);
    case 'i': return kj_t_int(t, 32, true);
    case 'l': return kj_t_int(t, 64, true);
    default: return kj_t_none(t);
    }
}

static const char *letter_name(char c)
{
    switch (c | 0x20) {
    case 'f': return "float32";
    case 'd': return "float64";
    case 'h': return "int16";
    case 'i': return "int32";
    case 'l': return "int64";
    default: return "none";
    }
}

/* "libdevice.frexp(float64) -> (float64, int32)" into buf. */
static const char *signature(const kj_libdevice_fn *f, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "libdevice.%s(", f->name);
    const char *sep = "";
    for (const char *p = f->sig + 1; *p && n < cap; p++)
        if (*p >= 'a') {
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", sep, letter_name(*p));
            sep = ", ";
        }
    unsigned nout = f->sig[0] != 'v';
    for (const char *p = f->sig + 1; *p; p++) nout += *p < 'a';
    if (n < cap) n += (size_t)snprintf(buf + n, cap - n, ") -> %s", nout > 1 ? "(" : "");
    sep = "";
    for (const char *p = f->sig; *p && n < cap; p++)
        if ((p == f->sig && *p != 'v') || (p > f->sig && *p < 'a')) {
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", sep, letter_name(*p));
            sep = ", ";
        }
    if (n < cap && nout > 1) snprintf(buf + n, cap - n, ")");
    return buf;
}

static bool converts(const kj_type *from, const kj_type *to)
{
    if (!from || !kj_is_scalar(from) || from->kind == KJ_T_BOOL) return false;
    return kj_is_int(from) || to->kind == KJ_T_FLOAT;
}

const kj_type *kj_builtin_type_libdevice(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                         kj_span call_span, const kj_source *src, kj_diags *d,
                                         const kj_type **conv)
{
    (void)call_span;
    const kj_libdevice_fn *f = kj_libdevice_get(id);
    uint32_t k = 0;
    for (const char *p = f->sig + 1; *p; p++) {
        if (*p < 'a') continue;
        const kj_type *want = letter_type(t, *p);
        if (k >= nargs || !converts(args[k].type, want)) {
            char sig[160];
            kj_diag *dg = kj_error(d, src, k < nargs ? args[k].span : call_span,
                                   "libdevice.%s() argument %u must be %s, not %s", f->name, k + 1,
                                   letter_name(*p), k < nargs && args[k].type ? kj_type_str(args[k].type) : "nothing");
            kj_diag_hint(dg, "its signature is %s", signature(f, sig, sizeof sig));
            return NULL;
        }
        if (conv) conv[k] = want;
        k++;
    }
    const kj_type *el[4];
    uint32_t n = 0;
    for (const char *p = f->sig; *p; p++)
        if ((p == f->sig && *p != 'v') || (p > f->sig && *p < 'a')) el[n++] = letter_type(t, *p);
    return n == 1 ? el[0] : kj_t_tuple(t, el, n);
}
