/* SPDX-License-Identifier: BSD-2-Clause */
/* Run-time events for an application that times itself (kjit_options'
 * on_event, docs/embedding.md; `kjit bench` is one): each kernel launch,
 * each copy between host and device, each compile. The runtime reports
 * them to a sink it is given (kj_rt.sink for launches, the GPU's for
 * copies); the API layer turns them into kjit_events. No sink, no cost but
 * a test: nothing is timed that KJIT_STATS does not already time. */
#ifndef KJ_EVENTS_H
#define KJ_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

/* The same values as kjit_event_kind (kjit.h). */
typedef enum kj_ev_kind {
    KJ_EV_COMPILE = 0, /* host code: generated, or found in the cache */
    KJ_EV_GPU_COMPILE, /* the kernels' GPU code (PTX -> cubin -> loaded) */
    KJ_EV_LAUNCH,      /* a kernel ran (on the GPU: device time between CUDA events) */
    KJ_EV_H2D,
    KJ_EV_D2H,
    KJ_EV_D2D,
} kj_ev_kind;

typedef struct kj_ev_sink {
    /* name: the kernel, or the module's file; valid during the call only */
    void (*fn)(void *user, kj_ev_kind kind, const char *name, uint64_t bytes, double seconds, bool cached);
    void *user;
} kj_ev_sink;

static inline bool kj_ev_on(const kj_ev_sink *s) { return s && s->fn; }

static inline void kj_ev_emit(const kj_ev_sink *s, kj_ev_kind kind, const char *name, uint64_t bytes,
                              double seconds, bool cached)
{
    if (kj_ev_on(s)) s->fn(s->user, kind, name, bytes, seconds, cached);
}

#endif
