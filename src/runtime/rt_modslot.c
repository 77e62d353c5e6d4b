/* SPDX-License-Identifier: BSD-2-Clause */
/* Module slots: the values of a script's module-level names that compiled
 * functions read (src/ir/resolve_modslot.c).
 *
 * A script's module-level statements run as the host function <module>; a
 * name bound there once (`A = np.random.rand(5)`, `N = A.shape[0]`) that a
 * @jit function, kernel or host function reads gets a slot. <module> stores
 * the value when it binds the name, readers load it (Numba freezes the value
 * a global has when it compiles a reader; a name bound once has only that
 * value). The slot holds the value's memory form: for an array its
 * descriptor, and a reference to its owner (a host function may bind the
 * name to an array it made through `global`: the slot keeps that alive once
 * the function returns and releases its temporaries).
 *
 * Each slot is its own block (its address never moves); the table belongs
 * to the run's context, and a parallel worker borrows its parent's, which
 * only grows while <module> binds names, never while workers run. */
#include "rt.h"

#include "../abi/exc.h"
#include "../util/alloc.h"
#include "array.h"

#include <stdio.h>
#include <string.h>

enum { SLOT_BYTES = 16 + 64 }; /* a bound flag, the owner, then any scalar or an array descriptor (ndim <= 4) */

struct kj_rt_modslots {
    void **slot;
    size_t n;
};

static void *make(kj_rt *rt, size_t index)
{
    if (!rt->mods) rt->mods = xcalloc(1, sizeof *rt->mods);
    struct kj_rt_modslots *m = rt->mods;
    if (index >= m->n) {
        size_t n = index + 8;
        void **v = xcalloc(n, sizeof *v);
        if (m->n) memcpy(v, m->slot, m->n * sizeof *v);
        free(m->slot);
        m->slot = v, m->n = n;
    }
    if (!m->slot[index]) m->slot[index] = xcalloc(1, SLOT_BYTES);
    return m->slot[index];
}

static void set_owner(char *p, void *owner)
{
    void *old;
    memcpy(&old, p + 8, sizeof old);
    if (owner) kj_array_retain(owner);
    if (old) kj_array_release(old);
    memcpy(p + 8, &owner, sizeof owner);
}

void *kj_rt_module_slot(kj_rt *rt, int32_t index, int32_t set, void *owner, const char *name, int32_t line,
                        int32_t col)
{
    if (index < 0) return NULL;
    if (set && !rt->mods_borrowed) {
        char *p = make(rt, (size_t)index);
        p[0] = 1;
        set_owner(p, owner);
        return p + 16;
    }
    const struct kj_rt_modslots *m = rt->mods;
    char *p = m && (size_t)index < m->n ? m->slot[index] : NULL;
    if (!p || !p[0]) {
        /* Python's message when a function reads a global not bound yet */
        char msg[256];
        snprintf(msg, sizeof msg, "name '%s' is not defined", name ? name : "?");
        kj_rt_raise(rt, KJ_RT_NAME, msg, line, col);
    }
    return p + 16;
}

const void *kj_rt_module_slot_peek(const kj_rt *rt, int32_t index)
{
    const struct kj_rt_modslots *m = rt->mods;
    const char *p = m && index >= 0 && (size_t)index < m->n ? m->slot[index] : NULL;
    return p && p[0] ? p + 16 : NULL;
}

void kj_rt_modslots_free(kj_rt *rt)
{
    /* a worker's borrowed table stays: the worker runs more chunks of the
     * same loop, each ending here (release_all) */
    if (rt->mods_borrowed) return;
    struct kj_rt_modslots *m = rt->mods;
    rt->mods = NULL;
    if (!m) return;
    for (size_t k = 0; k < m->n; k++) {
        if (m->slot[k]) set_owner(m->slot[k], NULL);
        free(m->slot[k]);
    }
    free(m->slot);
    free(m);
}
