/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench`: running main on one target. In-process, through the public
 * API: each target has a context of its own (compiled with its own target
 * option), its print() output goes to a temporary file that is read back
 * and compared, and the context's event hook (kjit_options.on_event) breaks
 * each run's time down. In-process rather than child processes: a run's
 * time is then main's alone (no process start, no reading of the cache),
 * the events need no channel between processes, and a failing target is
 * an error value like any other (a fault in compiled code still ends the
 * whole bench, with the fault handler's message). */
#include "bench_run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void add_kernel(bench_sample *s, const char *name, double seconds)
{
    unsigned j = 0;
    while (j < s->nk && strcmp(s->k[j].name, name)) j++;
    if (j == s->nk) {
        if (s->nk == BENCH_MAX_KERNELS) j = BENCH_MAX_KERNELS - 1; /* the rest counted in the last */
        else snprintf(s->k[s->nk++].name, sizeof s->k[0].name, "%s", name);
    }
    s->k[j].launches++;
    s->k[j].seconds += seconds;
}

/* The hook: events of a run add to its sample; the GPU code's compile
 * time is kept for the compile figures. */
static void on_event(const kjit_event *e, void *user)
{
    bench_acc *acc = user;
    bench_sample *s = acc->cur;
    if (e->kind == KJIT_EVENT_GPU_COMPILE) acc->gpu_compile += e->seconds;
    if (!s) return;
    int dir = e->kind == KJIT_EVENT_H2D ? BENCH_H2D : e->kind == KJIT_EVENT_D2H ? BENCH_D2H
            : e->kind == KJIT_EVENT_D2D ? BENCH_D2D : -1;
    if (dir >= 0) {
        s->copies[dir]++;
        s->copy_bytes[dir] += e->bytes;
        s->copy_s[dir] += e->seconds;
    } else if (e->kind == KJIT_EVENT_LAUNCH) {
        add_kernel(s, e->name ? e->name : "?", e->seconds);
    }
}

/* The error of err (a compile's diagnostics, or a run-time error) into t. */
static void fail(bench_target *t, bench_status st, kjit_ctx *ctx, kjit_module *m, const kjit_error *err,
                 kjit_diag_format fmt)
{
    t->status = st;
    char *s = NULL;
    if (err->code == KJIT_ERR_COMPILE && ctx) s = kjit_ctx_diagnostics(ctx, fmt);
    else if (err->code == KJIT_ERR_RUNTIME || err->code == KJIT_ERR_COMPILE) s = kjit_error_format(m, err, fmt);
    snprintf(t->reason, sizeof t->reason, "%s", s && *s ? s : err->message);
    free(s);
    size_t n = strlen(t->reason);
    while (n && t->reason[n - 1] == '\n') t->reason[--n] = 0;
}

/* One compile of the file for t into ctx (made here); its wall time. */
static kjit_module *compile(bench_runner *r, bench_target *t, const kjit_bench_args *a, const char *cache_dir,
                            double *seconds, kjit_error *err)
{
    kjit_options o = a->opt;
    o.target = (kjit_target)t->kind;
    o.cache = 1;
    o.cache_dir = cache_dir;
    o.out = r->out;
    o.on_event = on_event;
    o.event_user = &r->acc;
    r->acc.gpu_compile = 0;
    r->ctx = kjit_ctx_new(&o, err);
    if (!r->ctx) return NULL;
    double t0 = now();
    kjit_module *m = kjit_compile_file(r->ctx, a->file, err);
    *seconds = now() - t0;
    return m;
}

bool bench_runner_open(bench_runner *r, bench_target *t, const kjit_bench_args *a, const char *cache_dir)
{
    memset(r, 0, sizeof *r);
    kjit_error err = {0};
    r->out = tmpfile();
    if (!r->out) {
        t->status = BENCH_FAILED;
        snprintf(t->reason, sizeof t->reason, "cannot make a temporary file for the output: %s", strerror(errno));
        return false;
    }
    /* cold: an empty cache; then cached: a new context finds it all there */
    for (int pass = 0; pass < 2; pass++) {
        double s = 0;
        kjit_module *m = compile(r, t, a, cache_dir, &s, &err);
        if (!m) {
            /* a context for cuda without a driver or device: skipped, not failed */
            fail(t, err.code == KJIT_ERR_RUNTIME ? BENCH_SKIPPED : BENCH_FAILED, r->ctx, NULL, &err, a->fmt);
            return false;
        }
        if (pass == 0) {
            t->compile_cold = s;
            t->gpu_compile_cold = r->acc.gpu_compile;
            kjit_module_free(m);
            kjit_ctx_free(r->ctx);
            r->ctx = NULL;
        } else {
            t->compile_cached = s;
            t->gpu_compile_cached = r->acc.gpu_compile;
            r->m = m;
        }
    }
    r->main = kjit_module_get(r->m, "main");
    return true;
}

void bench_runner_close(bench_runner *r)
{
    kjit_module_free(r->m);
    kjit_ctx_free(r->ctx);
    if (r->out) fclose(r->out);
    memset(r, 0, sizeof *r);
}

/* What main printed since the file was emptied (malloc'd). */
static char *read_output(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    char *buf = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (!buf) abort();
    rewind(f);
    size_t got = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
    buf[got] = 0;
    return buf;
}

static void finish_sample(bench_sample *s)
{
    double k = 0, c = 0;
    for (unsigned j = 0; j < s->nk; j++) k += s->k[j].seconds;
    for (int d = 0; d < BENCH_NCOPY; d++) c += s->copy_s[d];
    s->kernel_s = k;
    s->host_s = s->total - k - c > 0 ? s->total - k - c : 0;
}

bool bench_run_once(bench_runner *r, bench_target *t, const kjit_value *args, int nargs, bench_sample *s,
                    char **output, kjit_diag_format fmt)
{
    memset(s, 0, sizeof *s);
    fflush(r->out);
    rewind(r->out);
    (void)!ftruncate(fileno(r->out), 0); /* a temporary file of ours: does not fail */
    kjit_error err = {0};
    r->acc.cur = s;
    double t0 = now();
    int rc = kjit_call(r->main, args, nargs, NULL, &err);
    s->total = now() - t0;
    r->acc.cur = NULL;
    finish_sample(s);
    if (rc != KJIT_OK) {
        fail(t, BENCH_FAILED, NULL, r->m, &err, fmt);
        return false;
    }
    if (output) *output = read_output(r->out);
    return true;
}

/* ---- comparing outputs ---- */

static bool starts_number(const char *p)
{
    if (*p >= '0' && *p <= '9') return true;
    if (*p == '-' || *p == '+') p++;
    if (*p == '.') p++;
    return *p >= '0' && *p <= '9';
}

static bool close_enough(double a, double b, double tol)
{
    if (a == b || (isnan(a) && isnan(b))) return true;
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= tol * m;
}

/* Lines a and b (up to their '\n' or end) alike? */
static bool same_line(const char *a, const char *b, double tol)
{
    while (*a && *a != '\n' && *b && *b != '\n') {
        if (starts_number(a) && starts_number(b)) {
            char *ea, *eb;
            double x = strtod(a, &ea), y = strtod(b, &eb);
            if (!close_enough(x, y, tol)) return false;
            a = ea;
            b = eb;
            continue;
        }
        if (*a++ != *b++) return false;
    }
    return (!*a || *a == '\n') && (!*b || *b == '\n');
}

static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : p + strlen(p);
}

int bench_first_difference(const char *a, const char *b, double tol)
{
    for (int line = 1;; line++) {
        if (!*a && !*b) return 0;
        if (!*a || !*b || !same_line(a, b, tol)) return line;
        a = next_line(a);
        b = next_line(b);
    }
}

const char *bench_line(const char *text, int line, char *buf, size_t cap)
{
    for (int k = 1; k < line && *text; k++) text = next_line(text);
    if (!*text) return snprintf(buf, cap, "(no line %d: the output ends)", line), buf;
    size_t n = strcspn(text, "\n");
    snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), text);
    return buf;
}
