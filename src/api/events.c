/* SPDX-License-Identifier: BSD-2-Clause */
/* The C API's events (kjit_options.on_event, docs/embedding.md "Timing"):
 * the runtime reports launches and copies to a kj_ev_sink (events.h); the
 * sink here turns them into kjit_events for the application's hook. */
#include "api_int.h"

static void forward(void *user, kj_ev_kind kind, const char *name, uint64_t bytes, double seconds, bool cached)
{
    const kj_api_events *ev = user;
    if (ev->stats && kind == KJ_EV_LAUNCH) kj_api_stats_launch(ev->stats, name, seconds);
    if (!ev->hook) return;
    kjit_event e = {.kind = (kjit_event_kind)kind, .name = name, .bytes = bytes, .seconds = seconds,
                    .cached = cached};
    ev->hook(&e, ev->user);
}

void kj_api_events_init(kj_api_events *ev, const kjit_options *opt)
{
    *ev = (kj_api_events){.hook = opt->on_event, .user = opt->event_user};
    if (ev->hook) ev->sink = (kj_ev_sink){.fn = forward, .user = ev};
}

void kj_api_events_count(kj_api_events *ev, kj_api_stats *s)
{
    ev->stats = s;
    if (s) ev->sink = (kj_ev_sink){.fn = forward, .user = ev};
}

_Static_assert((int)KJ_EV_COMPILE == (int)KJIT_EVENT_COMPILE && (int)KJ_EV_GPU_COMPILE == (int)KJIT_EVENT_GPU_COMPILE &&
                   (int)KJ_EV_LAUNCH == (int)KJIT_EVENT_LAUNCH && (int)KJ_EV_H2D == (int)KJIT_EVENT_H2D &&
                   (int)KJ_EV_D2H == (int)KJIT_EVENT_D2H && (int)KJ_EV_D2D == (int)KJIT_EVENT_D2D,
               "events.h and kjit.h number the events alike");
