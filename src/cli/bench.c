/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench FILE.k` (docs/bench.md): main on each target, for each value
 * of one swept parameter; the outputs compared, each run's time broken down
 * from the runtime's events, the time model fitted per target and the
 * crossovers found; a report on stdout, and SVG, JSON and CSV files.
 * Only <kjit.h> is used (through bench_run.c). */
#include "bench.h"
#include "bench_run.h"
#include "cli.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_VALUES = 64, VALUE_TEXT = 48 };

/* The swept values of main's parameter `param`, ascending. */
typedef struct sweep {
    int param; /* -1: no sweep */
    int n;
    char (*text)[VALUE_TEXT];
    double x[MAX_VALUES];
    kjit_value v[MAX_VALUES];
} sweep;

/* What a bench owns while it runs. */
typedef struct bench {
    const kjit_bench_args *a;
    bench_data d;
    bench_runner run[BENCH_MAX_TARGETS];
    bench_out out[3]; /* --plot, --json, --csv */
    char cache_dir[512];
    kjit_fn *main;    /* of the checked module */
    kjit_value *vals; /* main's arguments: defaults, NAME=VALUE, the swept value */
    int nparams;
    sweep sw;
    double started;
} bench;

static int error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kjit_cli_verror(fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- options ---- */

static int parse_targets(bench *b)
{
    static const struct {
        const char *name;
        kjit_target t;
    } known[] = {{"cpu", KJIT_TARGET_CPU}, {"parallel", KJIT_TARGET_PARALLEL}, {"cuda", KJIT_TARGET_CUDA}};
    const char *p = b->a->targets ? b->a->targets : "cpu";
    while (*p) {
        size_t n = strcspn(p, ",");
        int k = 0;
        while (k < 3 && (strlen(known[k].name) != n || strncmp(p, known[k].name, n))) k++;
        if (k == 3) return error(EXIT_USAGE, "invalid --target '%.*s' for bench (expected a list of cpu, parallel, cuda)", (int)n, p);
        for (int j = 0; j < b->d.ntargets; j++)
            if (b->d.tg[j].kind == (int)known[k].t) return error(EXIT_USAGE, "--target: '%s' given twice", known[k].name);
        b->d.tg[b->d.ntargets++] = (bench_target){.name = known[k].name, .kind = (int)known[k].t};
        p += n;
        if (*p == ',') p++;
    }
    return b->d.ntargets ? -1 : error(EXIT_USAGE, "--target: no target given");
}

/* --plot, --json, --csv before the program is read: none may be the
 * program, or one another. */
static int check_outputs(bench *b)
{
    const char *paths[3] = {b->a->plot, b->a->json, b->a->csv}, *opts[3] = {"--plot", "--json", "--csv"};
    for (int k = 0; k < 3; k++) b->out[k] = (bench_out){.opt = opts[k], .path = paths[k]};
    char why[2 * BENCH_PATH];
    int bad = bench_outs_check(b->out, 3, b->a->file, why, sizeof why);
    return bad ? error(bad == 2 ? EXIT_USAGE : EXIT_ERRORS, "%s", why) : -1;
}

/* Their temporary files now: an unwritable path is found before the runs. */
static int open_outputs(bench *b)
{
    for (int k = 0; k < 3; k++)
        if (b->out[k].path && !bench_out_open(&b->out[k]))
            return error(EXIT_ERRORS, "cannot write %s file '%s': %s", b->out[k].opt, b->out[k].path, strerror(errno));
    return -1;
}

/* ---- the sweep ---- */

/* Add value `text` of parameter i to the sweep. */
static int add_value(bench *b, const char *name, const char *text)
{
    sweep *sw = &b->sw;
    kjit_value v = b->vals[sw->param];
    if (sw->n == MAX_VALUES) return error(EXIT_USAGE, "--sweep: at most %d values", MAX_VALUES);
    if (strlen(text) >= VALUE_TEXT || !kjit_cli_parse_value(text, &v))
        return kjit_cli_param_error(b->main, b->vals, "--sweep: invalid value '%s' for parameter '%s' (%s: expected %s)",
                                    text, name, kjit_cli_type_name(&v), kjit_cli_expected(&v));
    double x = v.kind == KJIT_VALUE_INT ? (double)v.v.i : v.v.f;
    if (!(x > 0) || !isfinite(x))
        return kjit_cli_param_error(b->main, b->vals,
                                    "--sweep: value '%s' of '%s' is not a positive number (times are modelled and "
                                    "plotted on logarithmic axes)", text, name);
    int at = sw->n;
    while (at > 0 && sw->x[at - 1] > x) at--; /* kept ascending */
    if (at > 0 && sw->x[at - 1] == x) return error(EXIT_USAGE, "--sweep: value '%s' given twice", text);
    memmove(&sw->x[at + 1], &sw->x[at], (size_t)(sw->n - at) * sizeof *sw->x);
    memmove(&sw->v[at + 1], &sw->v[at], (size_t)(sw->n - at) * sizeof *sw->v);
    memmove(&sw->text[at + 1], &sw->text[at], (size_t)(sw->n - at) * sizeof *sw->text);
    sw->x[at] = x;
    sw->v[at] = v;
    snprintf(sw->text[at], VALUE_TEXT, "%s", text);
    sw->n++;
    return -1;
}

/* start:stop:xF — start, start*F, start*F^2, ... up to stop (ints rounded). */
static int add_range(bench *b, const char *name, const char *spec)
{
    char s0[VALUE_TEXT], s1[VALUE_TEXT];
    const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || c1 - spec >= VALUE_TEXT || c2 - c1 - 1 >= VALUE_TEXT)
        return error(EXIT_USAGE, "--sweep: expected NAME=start:stop:xFACTOR, got '%s=%s'", name, spec);
    snprintf(s0, sizeof s0, "%.*s", (int)(c1 - spec), spec);
    snprintf(s1, sizeof s1, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    const char *f = c2 + 1;
    if (*f == 'x' || *f == '*') f++;
    else if (!strncmp(f, "\xc3\x97", 2)) f += 2; /* × */
    char *end;
    double factor = strtod(f, &end);
    if (f == c2 + 1 || *end || !(factor > 1) || !isfinite(factor))
        return error(EXIT_USAGE, "--sweep: the factor of '%s' must be written xF with F > 1 (e.g. 1000:1000000:x10)", spec);
    kjit_value lo = b->vals[b->sw.param], hi = lo;
    int rc;
    if (!kjit_cli_parse_value(s0, &lo)) return add_value(b, name, s0); /* its error */
    if (!kjit_cli_parse_value(s1, &hi)) return add_value(b, name, s1);
    bool is_int = lo.kind == KJIT_VALUE_INT;
    double x0 = is_int ? (double)lo.v.i : lo.v.f, x1 = is_int ? (double)hi.v.i : hi.v.f;
    if (x1 < x0) return error(EXIT_USAGE, "--sweep: the range '%s' ends below its start", spec);
    char prev[VALUE_TEXT] = "";
    for (double x = x0; x <= x1 * (1 + 1e-9); x *= factor) {
        char t[VALUE_TEXT];
        if (is_int) snprintf(t, sizeof t, "%lld", (long long)llround(x));
        else snprintf(t, sizeof t, "%.10g", x);
        if (!strcmp(t, prev)) continue; /* small ints: the same after rounding */
        if ((rc = add_value(b, name, t)) >= 0) return rc;
        snprintf(prev, sizeof prev, "%s", t);
        if (x <= 0) break; /* start 0 (rejected above) */
    }
    return -1;
}

static int parse_sweep(bench *b)
{
    sweep *sw = &b->sw;
    sw->param = -1;
    if (!b->a->sweep) return -1;
    const char *spec = b->a->sweep, *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        return error(EXIT_USAGE, "--sweep: expected NAME=v1,v2,... or NAME=start:stop:xFACTOR, got '%s'", spec);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
    for (int i = 0; i < b->nparams; i++)
        if (!strcmp(kjit_fn_param_name(b->main, i), name)) sw->param = i;
    if (sw->param < 0) return kjit_cli_param_error(b->main, b->vals, "--sweep: main() has no parameter '%s'", name);
    const kjit_value *v = &b->vals[sw->param];
    if (v->kind != KJIT_VALUE_INT && v->kind != KJIT_VALUE_FLOAT)
        return kjit_cli_param_error(b->main, b->vals,
                                    "--sweep: parameter '%s' is a %s; only int and float parameters can be swept",
                                    name, kjit_cli_type_name(v));
    sw->text = calloc(MAX_VALUES, sizeof *sw->text);
    if (!sw->text) abort();
    if (strchr(eq + 1, ':')) return add_range(b, name, eq + 1);
    char *list = strdup(eq + 1), *save = NULL;
    int rc = -1;
    for (char *t = strtok_r(list, ",", &save); t && rc < 0; t = strtok_r(NULL, ",", &save)) rc = add_value(b, name, t);
    free(list);
    return rc;
}

/* main's defaults and the NAME=VALUE overrides, from a checked compile
 * (which also prints the program's diagnostics once); then the sweep. */
static int check_program(bench *b, kjit_ctx **ctx, kjit_module **m)
{
    kjit_options o = b->a->opt;
    o.check_only = 1;
    o.target = KJIT_TARGET_CPU;
    kjit_error err = {0};
    *ctx = kjit_ctx_new(&o, &err);
    if (!*ctx) return error(EXIT_USAGE, "%s", err.message);
    *m = kjit_compile_file(*ctx, b->a->file, &err);
    char *diags = kjit_ctx_diagnostics(*ctx, b->a->fmt);
    fputs(diags, stderr);
    free(diags);
    if (!*m) {
        if (err.code == KJIT_ERR_IO && err.message[0]) fprintf(stderr, "kjit: error: %s\n", err.message);
        return EXIT_ERRORS;
    }
    b->main = kjit_module_get(*m, "main");
    if (!b->main) return error(EXIT_ERRORS, "the program has no main() to run");
    b->nparams = kjit_fn_param_count(b->main);
    b->vals = calloc((size_t)b->nparams + 1, sizeof *b->vals);
    if (!b->vals) abort();
    for (int i = 0; i < b->nparams; i++) kjit_fn_param_default(b->main, i, &b->vals[i]);
    int rc = kjit_cli_apply_params(b->main, b->vals, b->a->params, b->a->nparams);
    return rc >= 0 ? rc : parse_sweep(b);
}

/* ---- running ---- */

static int make_cache_dir(bench *b)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(b->cache_dir, sizeof b->cache_dir, "%s/kjit-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(b->cache_dir)) return error(EXIT_ERRORS, "cannot make a cache directory '%s': %s", b->cache_dir, strerror(errno));
    return -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* On a terminal (stderr), once the bench has run a second: one line,
 * rewritten in place, with the target, the sweep value, the repeat and the
 * time left (from the mean time of the runs so far). Nothing otherwise. */
static void progress(bench *b, int value, int target, int repeat, int done, int total)
{
    if (!isatty(STDERR_FILENO)) return;
    double t = now() - b->started;
    if (t < 1.0) return;
    const char *p = b->sw.param >= 0 ? kjit_fn_param_name(b->main, b->sw.param) : NULL;
    char eta[32] = "";
    if (done > 0) snprintf(eta, sizeof eta, ", about %.0f s left", t / done * (total - done));
    fprintf(stderr, "\r\033[Kkjit bench: %s on %s%s%s, repeat %d/%d (%d/%d runs, %.0f s%s)", b->d.tg[target].name,
            p ? p : "defaults", p ? "=" : "", p ? b->sw.text[value] : "", repeat + 1, b->d.repeat, done, total, t, eta);
    fflush(stderr);
}

static int cmp_total(const void *x, const void *y)
{
    double a = ((const bench_sample *)x)->total, c = ((const bench_sample *)y)->total;
    return (a > c) - (a < c);
}

/* The median run (the lower middle for an even count) and the spread. */
static void summarise(bench_cell *c)
{
    bench_sample *sorted = malloc((size_t)c->nrep * sizeof *sorted);
    if (!sorted) abort();
    memcpy(sorted, c->rep, (size_t)c->nrep * sizeof *sorted);
    qsort(sorted, (size_t)c->nrep, sizeof *sorted, cmp_total);
    c->med = sorted[(c->nrep - 1) / 2];
    c->min = sorted[0].total;
    c->max = sorted[c->nrep - 1].total;
    free(sorted);
}

/* Report target t's failure at value i and stop running it. */
static void target_failed(bench *b, int t, int i)
{
    bench_target *tg = &b->d.tg[t];
    fflush(stdout);
    if (b->sw.param >= 0)
        fprintf(stderr, "kjit: error: main failed on target %s at %s=%s:\n%s\n", tg->name,
                kjit_fn_param_name(b->main, b->sw.param), b->sw.text[i], tg->reason);
    else fprintf(stderr, "kjit: error: main failed on target %s:\n%s\n", tg->name, tg->reason);
}

/* Value i on every target still running: a warm-up run whose output is
 * compared, then the timed repeats. Returns -1, or EXIT_ERRORS when the
 * outputs differ. */
static int run_value(bench *b, int i, int *done, int total)
{
    if (b->sw.param >= 0) b->vals[b->sw.param] = b->sw.v[i];
    char *ref = NULL;
    int ref_t = -1, rc = -1;
    for (int t = 0; t < b->d.ntargets && rc < 0; t++) {
        bench_target *tg = &b->d.tg[t];
        if (tg->status != BENCH_OK) continue;
        bench_cell *c = &tg->cells[i];
        bench_sample warm;
        char *out = NULL;
        bool ok = bench_run_once(&b->run[t], tg, b->vals, b->nparams, &warm, &out, b->a->fmt);
        c->rep = calloc((size_t)b->d.repeat, sizeof *c->rep);
        if (!c->rep) abort();
        for (int r = 0; ok && r < b->d.repeat; r++, ++*done) {
            progress(b, i, t, r, *done, total);
            ok = bench_run_once(&b->run[t], tg, b->vals, b->nparams, &c->rep[r], NULL, b->a->fmt);
            c->nrep = r + 1;
        }
        if (!ok) {
            target_failed(b, t, i);
            free(out);
            continue;
        }
        summarise(c);
        c->ran = true;
        int line = ref ? bench_first_difference(ref, out, b->d.tol) : 0;
        if (line) {
            char l1[512], l2[512];
            const char *p = b->sw.param >= 0 ? kjit_fn_param_name(b->main, b->sw.param) : NULL;
            fflush(stdout);
            fprintf(stderr,
                    "kjit: error: the targets print different output%s%s%s%s (numbers compared within a relative "
                    "tolerance of %g; --tolerance changes it)\n  line %d on %-9s %s\n  line %d on %-9s %s\n",
                    p ? " at " : "", p ? p : "", p ? "=" : "", p ? b->sw.text[i] : "", b->d.tol, line,
                    b->d.tg[ref_t].name, bench_line(ref, line, l1, sizeof l1), line, tg->name,
                    bench_line(out, line, l2, sizeof l2));
            b->d.outputs_agree = false;
            rc = EXIT_ERRORS;
        }
        if (!ref) ref = out, ref_t = t;
        else free(out);
    }
    free(ref);
    return rc;
}

static int run_all(bench *b)
{
    int n = b->d.nvalues, total = 0, done = 0;
    for (int t = 0; t < b->d.ntargets; t++) {
        bench_target *tg = &b->d.tg[t];
        tg->cells = calloc((size_t)n, sizeof *tg->cells);
        if (!tg->cells) abort();
        if (bench_runner_open(&b->run[t], tg, b->a, b->cache_dir)) {
            total += n * b->d.repeat;
            continue;
        }
        if (tg->status == BENCH_SKIPPED) fprintf(stderr, "kjit: warning: target %s skipped: %s\n", tg->name, tg->reason);
        else fprintf(stderr, "kjit: error: the program does not compile for target %s:\n%s\n", tg->name, tg->reason);
    }
    int rc = -1;
    for (int i = 0; i < n && rc < 0; i++) rc = run_value(b, i, &done, total);
    if (isatty(STDERR_FILENO) && now() - b->started >= 1.0) fputs("\r\033[K", stderr);
    return rc;
}

/* ---- the analysis ---- */

static void fit_targets(bench *b)
{
    bench_data *d = &b->d;
    for (int t = 0; t < d->ntargets; t++) {
        bench_point p[MAX_VALUES];
        int n = 0;
        for (int i = 0; i < d->nvalues; i++) {
            const bench_cell *c = &d->tg[t].cells[i];
            if (!c->ran) continue;
            const bench_sample *s = &c->med;
            double copy = s->copy_s[BENCH_H2D] + s->copy_s[BENCH_D2H] + s->copy_s[BENCH_D2D];
            p[n++] = (bench_point){.x = d->x[i], .total = s->total, .copy_s = copy,
                                   .work_s = s->total - copy,
                                   .bytes = (double)(s->copy_bytes[BENCH_H2D] + s->copy_bytes[BENCH_D2H])};
        }
        d->tg[t].fit = bench_fit_model(p, n);
    }
}

/* Each target against the first (cpu when it ran). */
static void find_crossovers(bench *b)
{
    bench_data *d = &b->d;
    int base = 0;
    while (base < d->ntargets && d->tg[base].status != BENCH_OK) base++;
    for (int t = base + 1; t < d->ntargets && d->nvalues > 1; t++) {
        if (d->tg[t].status != BENCH_OK) continue;
        double xa[MAX_VALUES], ta[MAX_VALUES], tb[MAX_VALUES];
        int n = 0;
        for (int i = 0; i < d->nvalues; i++)
            if (d->tg[base].cells[i].ran && d->tg[t].cells[i].ran) {
                xa[n] = d->x[i];
                ta[n] = d->tg[base].cells[i].med.total;
                tb[n++] = d->tg[t].cells[i].med.total;
            }
        if (n < 2) continue;
        bench_cross *c = &d->cross[d->ncross++];
        *c = (bench_cross){.a = base, .b = t, .faster_small = ta[0] <= tb[0] ? base : t};
        for (int i = 0; i + 1 < n; i++) c->changes += (ta[i] <= tb[i]) != (ta[i + 1] <= tb[i + 1]);
        c->measured_ok = bench_cross_measured(xa, ta, tb, n, &c->measured);
        c->predicted_ok = bench_cross_predicted(&d->tg[base].fit, &d->tg[t].fit, xa[0] / 100, xa[n - 1] * 100,
                                                &c->predicted);
    }
}

/* ---- the files ---- */

static int write_files(bench *b)
{
    bool (*const write[3])(const bench_data *, FILE *) = {bench_write_svg, bench_write_json, bench_write_csv};
    int rc = -1;
    for (int k = 0; k < 3; k++) {
        bench_out *o = &b->out[k];
        if (o->path && !bench_out_commit(o, write[k], &b->d) && rc < 0)
            rc = error(EXIT_ERRORS, "cannot write %s file '%s': %s", o->opt, o->path, strerror(errno));
    }
    return rc;
}

static void set_up_data(bench *b)
{
    bench_data *d = &b->d;
    d->file = b->a->file;
    d->repeat = b->a->repeat;
    d->tol = b->a->tol;
    d->outputs_agree = true;
    static const char *none = "";
    if (b->sw.param >= 0) {
        d->param = kjit_fn_param_name(b->main, b->sw.param);
        d->nvalues = b->sw.n;
        d->x = b->sw.x;
        d->vtext = calloc((size_t)b->sw.n, sizeof *d->vtext);
        if (!d->vtext) abort();
        for (int i = 0; i < b->sw.n; i++) d->vtext[i] = b->sw.text[i];
    } else {
        static double one = 1;
        d->nvalues = 1;
        d->x = &one;
        d->vtext = &none;
    }
}

/* The exit status once everything ran: 3 when a target failed or none
 * could run. */
static int outcome(const bench_data *d)
{
    int ok = 0, failed = 0;
    for (int t = 0; t < d->ntargets; t++) {
        ok += d->tg[t].status == BENCH_OK;
        failed += d->tg[t].status == BENCH_FAILED;
    }
    if (!ok) return error(EXIT_RUNTIME, "no target could run the program");
    return failed ? EXIT_RUNTIME : EXIT_OK;
}

static void release(bench *b, kjit_ctx *ctx, kjit_module *m)
{
    for (int t = 0; t < b->d.ntargets; t++) {
        bench_runner_close(&b->run[t]);
        for (int i = 0; b->d.tg[t].cells && i < b->d.nvalues; i++) free(b->d.tg[t].cells[i].rep);
        free(b->d.tg[t].cells);
    }
    for (int k = 0; k < 3; k++) bench_out_discard(&b->out[k]);
    if (b->cache_dir[0]) nftw(b->cache_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (b->sw.param >= 0) free((void *)b->d.vtext);
    free(b->sw.text);
    free(b->vals);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
}

int kjit_cli_bench(const kjit_bench_args *a)
{
    bench b = {.a = a, .started = now()};
    b.d.repeat = a->repeat;
    kjit_ctx *ctx = NULL;
    kjit_module *m = NULL;
    int rc = parse_targets(&b);
    if (rc < 0) rc = check_outputs(&b);
    if (rc < 0) rc = check_program(&b, &ctx, &m);
    if (rc < 0) rc = open_outputs(&b);
    if (rc < 0) rc = make_cache_dir(&b);
    if (rc < 0) {
        set_up_data(&b);
        kjit_install_fault_handler(NULL); /* as kjit run: a fault in compiled code is reported */
        rc = run_all(&b);
    }
    if (rc < 0) {
        fit_targets(&b);
        find_crossovers(&b);
        int lost = bench_report_text(&b.d, stdout);
        rc = lost ? error(EXIT_ERRORS, "cannot write the report: %s", strerror(lost)) : write_files(&b);
        if (rc < 0) rc = outcome(&b.d);
    }
    release(&b, ctx, m);
    return rc;
}
