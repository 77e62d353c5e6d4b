/* SPDX-License-Identifier: BSD-2-Clause */
/* Python's slice.indices(n) for the runtime's sequences (str.c, list_slice.c). */
#ifndef KJ_RT_PYSLICE_H
#define KJ_RT_PYSLICE_H

#include <stdint.h>

/* Clamp start and stop for a length n as slice.indices() does; missing
 * bounds (has bit 1: start given, 2: stop given) default by the step's
 * sign. Returns the number of elements the slice selects. */
static inline int64_t kj_slice_indices(int64_t n, int64_t *start, int64_t *stop, int64_t step, int32_t has)
{
    int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
    if (!(has & 1)) *start = step < 0 ? hi : lo;
    else if (*start < 0) *start = *start + n < lo ? lo : *start + n;
    else if (*start > hi) *start = hi;
    if (!(has & 2)) *stop = step < 0 ? lo : hi;
    else if (*stop < 0) *stop = *stop + n < lo ? lo : *stop + n;
    else if (*stop > hi) *stop = hi;
    if (step > 0) return *stop > *start ? (*stop - *start + step - 1) / step : 0;
    return *start > *stop ? (*start - *stop - step - 1) / -step : 0;
}

#endif
