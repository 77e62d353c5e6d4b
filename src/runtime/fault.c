/* SPDX-License-Identifier: BSD-2-Clause */
/* The fault handler of compiled code (fault.h): sigaction on an alternate
 * signal stack, a message written with write(2), _exit.
 *
 * The one exception to "no mutable globals": signal dispositions belong to
 * the process, and a handler receives no context pointer, so the handlers
 * it replaced (to pass on signals that are not ours) are kept in a static
 * table, and the run a thread is in (what the message names) in a
 * thread-local pointer. Both are set outside the handler; the handler only
 * reads them. */
#include "fault.h"
#include "rt.h"
#include "../util/asan.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


enum { ALT_STACK_BYTES = 64 * 1024, NSIGS = 4 };

static const int sigs[NSIGS] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static const char *const sig_names[NSIGS] = {"SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL"};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_bool installed;
static bool install_failed;
static struct sigaction previous[NSIGS]; /* what the handler replaced */
static pthread_key_t alt_key;           /* frees a thread's alternate stack when it ends */
static _Thread_local kj_rt *current;     /* the run this thread is in, NULL outside compiled code */
static _Thread_local bool has_alt_stack;

/* ---- the handler (async-signal-safe: no stdio, no malloc) ---- */

typedef struct msg {
    char buf[1024];
    size_t n;
} msg;

static void put(msg *m, const char *s)
{
    while (s && *s && m->n < sizeof m->buf - 1) m->buf[m->n++] = *s++;
}

static void put_int(msg *m, int32_t v)
{
    char d[16];
    int k = 0;
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    do d[k++] = (char)('0' + u % 10); while ((u /= 10) && k < 15);
    if (v < 0) d[k++] = '-';
    while (k > 0 && m->n < sizeof m->buf - 1) m->buf[m->n++] = d[--k];
}

/* Pass a signal that is not ours to the handler installed before, or
 * take the default action: reset it, then return to the faulting
 * instruction, which faults again (a signal sent with kill is raised
 * again instead). */
static void pass_on(int k, int sig, siginfo_t *info, void *uctx)
{
    const struct sigaction *old = &previous[k];
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, info, uctx);
        return;
    }
    if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
        return;
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (info->si_code <= 0) raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
    int k = 0;
    while (k < NSIGS - 1 && sigs[k] != sig) k++;
    const kj_rt *rt = current;
    if (!rt) {
        pass_on(k, sig, info, uctx);
        return;
    }
    msg m = {.n = 0};
    put(&m, "kjit: fatal: ");
    put(&m, sig_names[k]);
    put(&m, " in compiled function ");
    put(&m, rt->fn_name ? rt->fn_name : "?");
    if (rt->file || rt->fn_line > 0) {
        put(&m, " (");
        put(&m, rt->file ? rt->file : "line");
        if (rt->fn_line > 0) {
            put(&m, ":");
            put_int(&m, rt->fn_line);
        }
        put(&m, ")");
    }
    put(&m, "; rerun with --boundscheck\n");
    ssize_t w = write(STDERR_FILENO, m.buf, m.n);
    (void)w; /* nothing more can be done */
    _exit(KJ_FAULT_EXIT);
}

/* ---- installing ---- */

static void free_alt_stack(void *p)
{
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    free(p);
}

/* An alternate signal stack for the calling thread, unless it has one
 * (its own, or the application's). */
static void ensure_alt_stack(void)
{
    if (has_alt_stack) return;
    has_alt_stack = true;
    stack_t old;
    if (sigaltstack(NULL, &old) == 0 && !(old.ss_flags & SS_DISABLE)) return;
    void *p = malloc(ALT_STACK_BYTES);
    if (!p) return;
    stack_t st = {.ss_sp = p, .ss_size = ALT_STACK_BYTES, .ss_flags = 0};
    if (sigaltstack(&st, NULL) != 0 || pthread_setspecific(alt_key, p) != 0) {
        free_alt_stack(p);
        return;
    }
}

static void install_once(void)
{
    if (pthread_key_create(&alt_key, free_alt_stack) != 0) {
        install_failed = true;
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < NSIGS; k++)
        if (sigaction(sigs[k], NULL, &previous[k]) != 0) install_failed = true;
    for (int k = 0; k < NSIGS && !install_failed; k++)
        if (sigaction(sigs[k], &sa, NULL) != 0) install_failed = true;
    atomic_store(&installed, !install_failed);
}

bool kj_fault_install(char *err, size_t cap)
{
#if KJ_ASAN
    (void)once, (void)install_once; /* compiled in every build, used in those without ASan */
    snprintf(err, cap, "this kjit is built with AddressSanitizer, whose own handler reports faults");
    return false;
#else
    pthread_once(&once, install_once);
    if (!atomic_load(&installed)) {
        snprintf(err, cap, "cannot install the signal handlers");
        return false;
    }
    ensure_alt_stack();
    return true;
#endif
}

kj_rt *kj_fault_enter(kj_rt *rt)
{
    kj_rt *prev = current;
    current = rt;
    if (atomic_load_explicit(&installed, memory_order_relaxed)) ensure_alt_stack();
    return prev;
}

void kj_fault_leave(kj_rt *prev) { current = prev; }
