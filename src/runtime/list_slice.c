/* SPDX-License-Identifier: BSD-2-Clause */
/* List slicing for generated code (rtfns.def): lst[a:b:c] (a new list),
 * lst[a:b:c] = other (a plain slice may change the length, an extended one
 * takes exactly as many elements as it selects, as CPython's list does),
 * del lst[i] and del lst[a:b:c]. Bounds are Python's slice.indices(). A
 * list of arrays keeps one reference per element held: copied elements
 * are retained, removed ones handed to the run (list.c's convention). */
#include "list.h"
#include "pyslice.h"

#include "array.h"
#include "rt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *owner_at(const kj_list *l, int64_t i)
{
    void *o;
    memcpy(&o, l->data + i * l->itemsize + l->owner_off, sizeof o);
    return o;
}

static char *at(const kj_list *l, int64_t i) { return l->data + i * l->itemsize; }

static void step_ok(kj_rt *rt, int64_t step, int32_t line, int32_t col)
{
    if (step == 0) kj_rt_raise(rt, KJ_RT_VALUE, "slice step cannot be zero", line, col);
}

void *kj_rt_list_slice(kj_rt *rt, void *list, int64_t start, int64_t stop, int64_t step, int32_t has,
                       int32_t line, int32_t col)
{
    kj_list *l = list;
    step_ok(rt, step, line, col);
    int64_t m = kj_slice_indices(l->len, &start, &stop, step, has);
    kj_list *r = kj_rt_list_new(rt, l->itemsize, m, l->owner_off);
    for (int64_t k = 0; k < m; k++) {
        memcpy(at(r, k), at(l, start + k * step), (size_t)l->itemsize);
        if (l->owner_off >= 0) kj_array_retain(owner_at(r, k));
    }
    return r;
}

/* Remove the m elements start, start+step, ... (step > 0 after
 * normalising), closing the gaps in one pass. */
static void remove_run(kj_rt *rt, kj_list *l, int64_t start, int64_t step, int64_t m)
{
    if (m <= 0) return;
    if (step < 0) { /* the same elements, walked upwards */
        start += (m - 1) * step;
        step = -step;
    }
    int64_t w = start;
    for (int64_t r = start; r < l->len; r++) {
        bool gone = r <= start + (m - 1) * step && (r - start) % step == 0;
        if (gone) {
            if (l->owner_off >= 0) kj_rt_list_drop(rt, owner_at(l, r));
            continue;
        }
        if (w != r) memcpy(at(l, w), at(l, r), (size_t)l->itemsize);
        w++;
    }
    l->len = w;
}

void kj_rt_list_delslice(kj_rt *rt, void *list, int64_t start, int64_t stop, int64_t step, int32_t has,
                         int32_t line, int32_t col)
{
    kj_list *l = list;
    step_ok(rt, step, line, col);
    int64_t m = kj_slice_indices(l->len, &start, &stop, step, has);
    remove_run(rt, l, start, step, m);
}

void kj_rt_list_delitem(kj_rt *rt, void *list, int64_t i, int32_t line, int32_t col)
{
    kj_list *l = list;
    if (i < 0) i += l->len;
    if (i < 0 || i >= l->len) kj_rt_raise(rt, KJ_RT_INDEX, "list assignment index out of range", line, col);
    remove_run(rt, l, i, 1, 1);
}

void kj_rt_list_setslice(kj_rt *rt, void *list, int64_t start, int64_t stop, int64_t step, int32_t has,
                         void *other, int32_t line, int32_t col)
{
    kj_list *l = list, *o = other;
    step_ok(rt, step, line, col);
    if (o == l) o = kj_rt_list_copy(rt, l); /* lst[a:b] = lst reads the list as it was */
    int64_t m = kj_slice_indices(l->len, &start, &stop, step, has);
    if (step != 1) { /* an extended slice: element for element */
        if (o->len != m) {
            char msg[128];
            snprintf(msg, sizeof msg, "attempt to assign sequence of size %lld to extended slice of size %lld",
                     (long long)o->len, (long long)m);
            kj_rt_raise(rt, KJ_RT_VALUE, msg, line, col);
        }
        for (int64_t k = 0; k < m; k++) {
            char *p = at(l, start + k * step);
            if (l->owner_off >= 0) kj_rt_list_drop(rt, owner_at(l, start + k * step));
            memcpy(p, at(o, k), (size_t)l->itemsize);
            if (l->owner_off >= 0) kj_array_retain(owner_at(l, start + k * step));
        }
        return;
    }
    if (stop < start) stop = start; /* lst[3:1] = x inserts at 3 */
    remove_run(rt, l, start, 1, stop - start);
    int64_t tail = l->len - start;
    for (int64_t k = 0; k < o->len; k++) kj_rt_list_grow(rt, l); /* room for o->len more */
    if (o->len == 0) return;
    if (tail > 0) memmove(at(l, start + o->len), at(l, start), (size_t)(tail * l->itemsize));
    memcpy(at(l, start), o->data, (size_t)(o->len * l->itemsize));
    if (l->owner_off >= 0)
        for (int64_t k = 0; k < o->len; k++) kj_array_retain(owner_at(l, start + k));
}
