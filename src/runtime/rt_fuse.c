/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's broadcast error for a fused array expression (src/ir/kir_fuse.c).
 *
 * A fused expression checks the shapes of all its operands at once, but
 * NumPy evaluates one operator at a time and names the two shapes of the
 * first operator that fails, intermediate results included. The fused ufunc
 * carries its tree in postfix (`kir_func.fuse_tree`): on a failure the
 * runtime replays the broadcasts in NumPy's order to find that operator. */
#include "rt_host.h"

#include "../abi/abi.h"
#include "array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

typedef struct shape {
    int ndim;
    int64_t d[KJ_ABI_MAX_DIMS];
} shape;

/* NumPy's broadcast of n shapes; false when they do not broadcast. */
static bool broadcast(const shape *s, int n, shape *out)
{
    out->ndim = 0;
    for (int k = 0; k < n; k++)
        if (s[k].ndim > out->ndim) out->ndim = s[k].ndim;
    for (int d = 0; d < out->ndim; d++) out->d[d] = 1;
    for (int k = 0; k < n; k++) {
        int off = out->ndim - s[k].ndim;
        for (int d = 0; d < s[k].ndim; d++) {
            int64_t x = s[k].d[d], *y = &out->d[off + d];
            if (x == *y || x == 1) continue;
            if (*y != 1) return false;
            *y = x;
        }
    }
    return true;
}

static void message(char *msg, size_t cap, const shape *s, int n)
{
    size_t len = (size_t)snprintf(msg, cap, "operands could not be broadcast together with shapes ");
    for (int k = 0; k < n && len < cap; k++) {
        char b[200];
        kj_shape_str(b, sizeof b, s[k].ndim, s[k].d);
        len += (size_t)snprintf(msg + len, cap - len, "%s ", b);
    }
}

bool kj_rt_fused_broadcast_error(const char *tree, int nops, const int32_t *ndims, const int64_t *shapes,
                                 char *msg, size_t cap, int32_t *line, int32_t *col)
{
    shape st[MAX_DEPTH];
    int sp = 0;
    for (const char *p = tree; *p; p++) {
        if (*p >= 'a' && *p <= 'z') { /* an operand */
            int k = *p - 'a';
            if (k >= nops || sp == MAX_DEPTH) return false;
            st[sp].ndim = ndims[k];
            memcpy(st[sp].d, shapes + (size_t)k * KJ_ABI_MAX_DIMS, sizeof st[sp].d);
            sp++;
        } else if (*p == '.') { /* a constant */
            if (sp == MAX_DEPTH) return false;
            st[sp++].ndim = 0;
        } else if (*p >= '1' && *p <= '3') { /* an operator of that many operands, "nL:C;" */
            int n = *p - '0';
            char *end;
            long l = strtol(p + 1, &end, 10), c = *end == ':' ? strtol(end + 1, &end, 10) : 0;
            if (sp < n || *end != ';') return false;
            p = end;
            shape r;
            if (!broadcast(&st[sp - n], n, &r)) {
                message(msg, cap, &st[sp - n], n);
                *line = (int32_t)l, *col = (int32_t)c;
                return true;
            }
            sp -= n;
            st[sp++] = r;
        } else {
            return false;
        }
    }
    return false;
}
