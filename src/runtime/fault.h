/* SPDX-License-Identifier: BSD-2-Clause */
/* The fault handler: a SIGSEGV, SIGBUS, SIGFPE or SIGILL raised while a
 * thread runs compiled code (inside kj_rt_call_entry) prints
 *
 *   kjit: fatal: SIGSEGV in compiled function NAME (file.k:LINE); rerun with --boundscheck
 *
 * on stderr and ends the process with status KJ_FAULT_EXIT (70). A signal
 * outside compiled code goes to the handler that was installed before
 * (or the default action). The handler runs on an alternate signal stack,
 * so a fault from an exhausted stack is reported too.
 *
 * Installing is explicit: `kjit run` always does it, an embedding
 * application only when it opts in (kjit_install_fault_handler, kjit.h);
 * without that the application's own handlers are left alone. In builds
 * with AddressSanitizer, whose own handler reports faults with more
 * detail, kj_fault_install declines. */
#ifndef KJ_FAULT_H
#define KJ_FAULT_H

#include <stdbool.h>
#include <stddef.h>

enum { KJ_FAULT_EXIT = 70 }; /* EX_SOFTWARE of sysexits.h */

typedef struct kj_rt kj_rt;

/* Install the handler for the process (once; later calls do nothing) and
 * an alternate signal stack for the calling thread. False with the reason
 * in err (cap bytes) when it cannot be installed. */
bool kj_fault_install(char *err, size_t cap);

/* kj_rt_call_entry around the outermost call of a run: `rt` is what the
 * handler names while this thread runs compiled code. enter returns the
 * run this thread was in before (NULL: none), for leave to restore. */
kj_rt *kj_fault_enter(kj_rt *rt);
void kj_fault_leave(kj_rt *prev);

#endif
