/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench`'s report on stdout, and its JSON and CSV files (the JSON's
 * schema is in docs/bench.md). */
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COL = 30 };

const char *bench_fmt_time(double s, char *buf, size_t cap)
{
    if (s >= 1) snprintf(buf, cap, "%.3g s", s);
    else if (s >= 1e-3) snprintf(buf, cap, "%.3g ms", 1e3 * s);
    else snprintf(buf, cap, "%.3g us", 1e6 * s);
    return buf;
}

const char *bench_fmt_bytes(double b, char *buf, size_t cap)
{
    if (b >= 1e9) snprintf(buf, cap, "%.3g GB", b / 1e9);
    else if (b >= 1e6) snprintf(buf, cap, "%.3g MB", b / 1e6);
    else if (b >= 1e3) snprintf(buf, cap, "%.3g kB", b / 1e3);
    else snprintf(buf, cap, "%.0f B", b);
    return buf;
}

/* Did any target run (its status ok after the runs)? How many failed? */
static bool ran(const bench_data *d)
{
    for (int t = 0; t < d->ntargets; t++)
        if (d->tg[t].status == BENCH_OK) return true;
    return false;
}

static int failed(const bench_data *d)
{
    int n = 0;
    for (int t = 0; t < d->ntargets; t++) n += d->tg[t].status == BENCH_FAILED;
    return n;
}

static const char *label(const bench_data *d) { return d->param ? d->param : "run"; }

/* The last value every running target measured, or -1. */
static int largest(const bench_data *d)
{
    for (int i = d->nvalues - 1; i >= 0; i--)
        for (int t = 0; t < d->ntargets; t++)
            if (d->tg[t].cells && d->tg[t].cells[i].ran) return i;
    return -1;
}

static void header(const bench_data *d, FILE *f, const char *first)
{
    fprintf(f, "%-16s", first);
    for (int t = 0; t < d->ntargets; t++)
        if (d->tg[t].status == BENCH_OK) fprintf(f, "%-*s", COL, d->tg[t].name);
    fputc('\n', f);
}

static void intro(const bench_data *d, FILE *f)
{
    fprintf(f, "kjit bench %s: main(", d->file);
    if (d->param) fprintf(f, "%s) for %s in %s .. %s (%d values)", d->param, d->param, d->vtext[0],
                          d->vtext[d->nvalues - 1], d->nvalues);
    else fprintf(f, ") with its defaults");
    fprintf(f, ", %d timed run%s after a warm-up (median, min-max)\n", d->repeat, d->repeat == 1 ? "" : "s");
    for (int t = 0; t < d->ntargets; t++) {
        const bench_target *tg = &d->tg[t];
        if (tg->status == BENCH_OK) continue;
        char first[300];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(tg->reason, "\n"), tg->reason);
        fprintf(f, "%s: %s: %s\n", tg->name, tg->status == BENCH_SKIPPED ? "skipped" : "failed", first);
    }
    if (!ran(d)) {
        fprintf(f, "outputs: none compared: %s\n", failed(d) == d->ntargets ? "every target failed" : "no target ran");
        return;
    }
    fprintf(f, "outputs: %s (numbers within a relative tolerance of %g)\n\n",
            d->outputs_agree ? "the same on every target that ran" : "DIFFERENT", d->tol);
}

/* The median and spread of every run, a column per target that ran. */
static void times(const bench_data *d, FILE *f)
{
    header(d, f, label(d));
    for (int i = 0; i < d->nvalues; i++) {
        fprintf(f, "%-16s", d->param ? d->vtext[i] : "defaults");
        for (int t = 0; t < d->ntargets; t++) {
            if (d->tg[t].status != BENCH_OK) continue;
            char cell[80] = "-", a[24], b[24], c[24]; /* three times, " (", "-", ")" */
            const bench_cell *x = &d->tg[t].cells[i];
            if (x->ran)
                snprintf(cell, sizeof cell, "%s (%s-%s)", bench_fmt_time(x->med.total, a, sizeof a),
                         bench_fmt_time(x->min, b, sizeof b), bench_fmt_time(x->max, c, sizeof c));
            fprintf(f, "%-*s", COL, cell);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void row_times(const bench_data *d, FILE *f, const char *name, double (*get)(const bench_target *))
{
    fprintf(f, "%-16s", name);
    for (int t = 0; t < d->ntargets; t++) {
        char b[32];
        if (d->tg[t].status == BENCH_OK) fprintf(f, "%-*s", COL, bench_fmt_time(get(&d->tg[t]), b, sizeof b));
    }
    fputc('\n', f);
}

static double cold(const bench_target *t) { return t->compile_cold; }
static double cached(const bench_target *t) { return t->compile_cached; }

static void compiles(const bench_data *d, FILE *f)
{
    header(d, f, "compile");
    row_times(d, f, "cold", cold);
    row_times(d, f, "cached", cached);
    for (int t = 0; t < d->ntargets; t++) {
        const bench_target *tg = &d->tg[t];
        char a[24], b[24];
        if (tg->status == BENCH_OK && tg->gpu_compile_cold > 0)
            fprintf(f, "  %s: of which the kernels' GPU code %s cold, %s cached (the cold compile also opens the GPU)\n",
                    tg->name, bench_fmt_time(tg->gpu_compile_cold, a, sizeof a),
                    bench_fmt_time(tg->gpu_compile_cached, b, sizeof b));
    }
    fputc('\n', f);
}

static void copy_row(const bench_data *d, FILE *f, int i, int dir, const char *name)
{
    bool any = false;
    for (int t = 0; t < d->ntargets; t++)
        any |= d->tg[t].status == BENCH_OK && d->tg[t].cells[i].ran && d->tg[t].cells[i].med.copies[dir];
    if (!any) return;
    fprintf(f, "%-16s", name);
    for (int t = 0; t < d->ntargets; t++) {
        if (d->tg[t].status != BENCH_OK) continue;
        const bench_sample *s = &d->tg[t].cells[i].med;
        char cell[64], a[24], b[24];
        snprintf(cell, sizeof cell, "%s in %u, %s", bench_fmt_bytes((double)s->copy_bytes[dir], a, sizeof a),
                 s->copies[dir], bench_fmt_time(s->copy_s[dir], b, sizeof b));
        fprintf(f, "%-*s", COL, d->tg[t].cells[i].ran && s->copies[dir] ? cell : "-");
    }
    fputc('\n', f);
}

static void kernel_rows(const bench_data *d, FILE *f, int i)
{
    for (int t = 0; t < d->ntargets; t++) {
        if (d->tg[t].status != BENCH_OK || !d->tg[t].cells[i].ran) continue;
        const bench_sample *s0 = &d->tg[t].cells[i].med;
        for (unsigned k = 0; k < s0->nk; k++) {
            bool seen = false; /* listed for an earlier target */
            for (int u = 0; u < t && !seen; u++)
                for (unsigned j = 0; d->tg[u].status == BENCH_OK && d->tg[u].cells[i].ran && j < d->tg[u].cells[i].med.nk; j++)
                    seen |= !strcmp(d->tg[u].cells[i].med.k[j].name, s0->k[k].name);
            if (seen) continue;
            fprintf(f, "  %-13.13s ", s0->k[k].name);
            for (int u = 0; u < d->ntargets; u++) {
                if (d->tg[u].status != BENCH_OK) continue;
                char cell[64] = "-", a[24];
                const bench_sample *s = &d->tg[u].cells[i].med;
                for (unsigned j = 0; d->tg[u].cells[i].ran && j < s->nk; j++)
                    if (!strcmp(s->k[j].name, s0->k[k].name))
                        snprintf(cell, sizeof cell, "%u x, %s", s->k[j].launches, bench_fmt_time(s->k[j].seconds, a, sizeof a));
                fprintf(f, "%-*s", COL, cell);
            }
            fputc('\n', f);
        }
    }
}

static double pick(const bench_data *d, int t, int i, int what)
{
    const bench_sample *s = &d->tg[t].cells[i].med;
    return what == 0 ? s->total : what == 1 ? s->kernel_s : s->host_s;
}

static void breakdown(const bench_data *d, FILE *f)
{
    int i = largest(d);
    if (i < 0) return;
    fprintf(f, "breakdown at %s%s%s (the median run):\n", d->param ? d->param : "the defaults", d->param ? " = " : "",
            d->param ? d->vtext[i] : "");
    header(d, f, "");
    static const char *names[] = {"total", "kernels", "host code"};
    for (int what = 0; what < 3; what++) {
        fprintf(f, "%-16s", names[what]);
        for (int t = 0; t < d->ntargets; t++) {
            char b[32];
            if (d->tg[t].status == BENCH_OK)
                fprintf(f, "%-*s", COL, d->tg[t].cells[i].ran ? bench_fmt_time(pick(d, t, i, what), b, sizeof b) : "-");
        }
        fputc('\n', f);
        if (what == 1) kernel_rows(d, f, i);
    }
    copy_row(d, f, i, BENCH_H2D, "host->device");
    copy_row(d, f, i, BENCH_D2H, "device->host");
    copy_row(d, f, i, BENCH_D2D, "device->device");
    fputc('\n', f);
}

static void model(const bench_data *d, FILE *f)
{
    bool any = false;
    for (int t = 0; t < d->ntargets; t++) any |= d->tg[t].status == BENCH_OK && d->tg[t].fit.ok;
    if (!any) {
        if (d->param) fprintf(f, "model: not fitted (it needs at least two values of %s)\n", d->param);
        return;
    }
    fprintf(f, "model t(%s) = overhead + bytes(%s)/bandwidth + work(%s)/throughput, work(%s) = %s^p:\n", d->param,
            d->param, d->param, d->param, d->param);
    for (int t = 0; t < d->ntargets; t++) {
        const bench_fit *m = &d->tg[t].fit;
        if (d->tg[t].status != BENCH_OK || !m->ok) continue;
        char a[24];
        fprintf(f, "  %-12s overhead %s", d->tg[t].name, bench_fmt_time(m->overhead, a, sizeof a));
        if (m->bandwidth > 0) fprintf(f, ", bandwidth %.3g GB/s", m->bandwidth / 1e9);
        else fprintf(f, ", no copies");
        if (m->throughput > 0) fprintf(f, ", p = %.2f, throughput %.3g %s^p/s", m->work_exp, m->throughput, d->param);
        else fprintf(f, ", no time grows with %s", d->param);
        fprintf(f, " (fit within %.0f%% rms)\n", 100 * m->rms_rel);
    }
    fputc('\n', f);
}

static void crossovers(const bench_data *d, FILE *f)
{
    for (int k = 0; k < d->ncross; k++) {
        const bench_cross *c = &d->cross[k];
        const char *a = d->tg[c->a].name, *b = d->tg[c->b].name, *slow = c->faster_small == c->a ? b : a;
        fprintf(f, "crossover %s vs %s: ", b, a);
        if (c->measured_ok) fprintf(f, "measured %s = %.3g (%s faster above)", d->param, c->measured, slow);
        else fprintf(f, "none in range (%s faster at every value measured)", d->tg[c->faster_small].name);
        if (c->predicted_ok) fprintf(f, "; predicted %s = %.3g", d->param, c->predicted);
        else fprintf(f, "; predicted: none between %.3g and %.3g", d->x[0] / 100, d->x[d->nvalues - 1] * 100);
        if (c->changes > 1) fprintf(f, " (the faster one changes %d times: the two are close, or the times noisy)", c->changes);
        fputc('\n', f);
    }
}

/* text to f without the spaces the columns leave at the ends of lines */
static void put_trimmed(const char *text, FILE *f)
{
    while (*text) {
        size_t n = strcspn(text, "\n"), end = n;
        while (end && text[end - 1] == ' ') end--;
        fwrite(text, 1, end, f);
        if (text[n]) fputc('\n', f);
        text += n + (text[n] != 0);
    }
}

int bench_report_text(const bench_data *d, FILE *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) abort();
    intro(d, m);
    if (ran(d)) { /* else the tables would be empty */
        times(d, m);
        compiles(d, m);
        breakdown(d, m);
        model(d, m);
        crossovers(d, m);
    }
    fclose(m);
    errno = 0;
    put_trimmed(text, f);
    free(text);
    bool lost = fflush(f) != 0 || ferror(f);
    return lost ? (errno ? errno : EIO) : 0;
}

/* ---- JSON ---- */

static void jstr(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void jnum(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.9g", v);
    else fputs("null", f);
}

static void jcopy(FILE *f, const char *name, const bench_sample *s, int dir)
{
    fprintf(f, "\"%s\": {\"count\": %u, \"bytes\": %" PRIu64 ", \"s\": ", name, s->copies[dir], s->copy_bytes[dir]);
    jnum(f, s->copy_s[dir]);
    fputc('}', f);
}

static void jrun(FILE *f, const bench_data *d, const bench_cell *c, int i)
{
    const bench_sample *s = &c->med;
    fputs("{\"value\": ", f);
    jnum(f, d->x[i]);
    fputs(", \"median_s\": ", f);
    jnum(f, s->total);
    fputs(", \"min_s\": ", f);
    jnum(f, c->min);
    fputs(", \"max_s\": ", f);
    jnum(f, c->max);
    fputs(", \"repeats_s\": [", f);
    for (int r = 0; r < c->nrep; r++) {
        if (r) fputs(", ", f);
        jnum(f, c->rep[r].total);
    }
    fputs("], \"breakdown\": {\"kernels_s\": ", f);
    jnum(f, s->kernel_s);
    fputs(", \"host_s\": ", f);
    jnum(f, s->host_s);
    fputs(", ", f);
    jcopy(f, "h2d", s, BENCH_H2D);
    fputs(", ", f);
    jcopy(f, "d2h", s, BENCH_D2H);
    fputs(", ", f);
    jcopy(f, "d2d", s, BENCH_D2D);
    fputs(", \"kernels\": [", f);
    for (unsigned k = 0; k < s->nk; k++) {
        fputs(k ? ", {\"name\": " : "{\"name\": ", f);
        jstr(f, s->k[k].name);
        fprintf(f, ", \"launches\": %u, \"s\": ", s->k[k].launches);
        jnum(f, s->k[k].seconds);
        fputc('}', f);
    }
    fputs("]}}", f);
}

static void jfit(FILE *f, const bench_fit *m)
{
    if (!m->ok) {
        fputs("null", f);
        return;
    }
    fputs("{\"overhead_s\": ", f);
    jnum(f, m->overhead);
    fputs(", \"bandwidth_bytes_per_s\": ", f);
    jnum(f, m->bandwidth);
    fputs(", \"throughput\": ", f);
    jnum(f, m->throughput);
    fputs(", \"work_exponent\": ", f);
    jnum(f, m->work_exp);
    fputs(", \"bytes_coefficient\": ", f);
    jnum(f, m->bytes_coef);
    fputs(", \"bytes_exponent\": ", f);
    jnum(f, m->bytes_exp);
    fputs(", \"rms_relative_error\": ", f);
    jnum(f, m->rms_rel);
    fputc('}', f);
}

static void jtarget(FILE *f, const bench_data *d, const bench_target *t)
{
    static const char *status[] = {"ok", "skipped", "failed"};
    fputs("    {\"name\": ", f);
    jstr(f, t->name);
    fprintf(f, ", \"status\": \"%s\", \"reason\": ", status[t->status]);
    jstr(f, t->status == BENCH_OK ? NULL : t->reason);
    fputs(",\n     \"compile\": ", f);
    if (t->status == BENCH_SKIPPED || (t->status == BENCH_FAILED && t->compile_cached == 0)) fputs("null", f);
    else {
        fputs("{\"cold_s\": ", f);
        jnum(f, t->compile_cold);
        fputs(", \"cached_s\": ", f);
        jnum(f, t->compile_cached);
        fputs(", \"gpu_cold_s\": ", f);
        jnum(f, t->gpu_compile_cold);
        fputs(", \"gpu_cached_s\": ", f);
        jnum(f, t->gpu_compile_cached);
        fputc('}', f);
    }
    fputs(",\n     \"runs\": [", f);
    bool first = true;
    for (int i = 0; t->cells && i < d->nvalues; i++) {
        if (!t->cells[i].ran) continue;
        fputs(first ? "\n      " : ",\n      ", f);
        jrun(f, d, &t->cells[i], i);
        first = false;
    }
    fputs("],\n     \"fit\": ", f);
    jfit(f, &t->fit);
    fputc('}', f);
}

bool bench_write_json(const bench_data *d, FILE *f)
{
    fputs("{\n  \"kjit_bench\": 1,\n  \"file\": ", f);
    jstr(f, d->file);
    fputs(",\n  \"param\": ", f);
    jstr(f, d->param);
    fputs(",\n  \"values\": [", f);
    for (int i = 0; d->param && i < d->nvalues; i++) {
        if (i) fputs(", ", f);
        jnum(f, d->x[i]);
    }
    fprintf(f, "],\n  \"repeat\": %d,\n  \"tolerance\": ", d->repeat);
    jnum(f, d->tol);
    fprintf(f, ",\n  \"outputs_agree\": %s,\n  \"targets\": [\n",
            !ran(d) ? "null" : d->outputs_agree ? "true" : "false"); /* null: nothing compared */
    for (int t = 0; t < d->ntargets; t++) {
        jtarget(f, d, &d->tg[t]);
        fputs(t + 1 < d->ntargets ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"crossovers\": [", f);
    for (int k = 0; k < d->ncross; k++) {
        const bench_cross *c = &d->cross[k];
        fputs(k ? ",\n    {\"targets\": [" : "\n    {\"targets\": [", f);
        jstr(f, d->tg[c->a].name);
        fputs(", ", f);
        jstr(f, d->tg[c->b].name);
        fputs("], \"measured\": ", f);
        if (c->measured_ok) jnum(f, c->measured);
        else fputs("null", f);
        fputs(", \"predicted\": ", f);
        if (c->predicted_ok) jnum(f, c->predicted);
        else fputs("null", f);
        fputs(", \"faster_at_smallest\": ", f);
        jstr(f, d->tg[c->faster_small].name);
        fprintf(f, ", \"changes\": %d", c->changes);
        fputc('}', f);
    }
    fputs("]\n}\n", f);
    return !ferror(f);
}

/* ---- CSV ---- */

bool bench_write_csv(const bench_data *d, FILE *f)
{
    static const char *status[] = {"ok", "skipped", "failed"};
    fputs("target,status,param,value,repeat,total_s,kernels_s,host_s,h2d_bytes,h2d_s,d2h_bytes,d2h_s,d2d_bytes,d2d_s\n", f);
    for (int t = 0; t < d->ntargets; t++) {
        const bench_target *tg = &d->tg[t];
        bool any = false;
        for (int i = 0; tg->cells && i < d->nvalues; i++)
            for (int r = 0; tg->cells[i].ran && r < tg->cells[i].nrep; r++) {
                const bench_sample *s = &tg->cells[i].rep[r];
                fprintf(f, "%s,%s,%s,%s,%d,%.9g,%.9g,%.9g", tg->name, status[tg->status], d->param ? d->param : "",
                        d->param ? d->vtext[i] : "", r + 1, s->total, s->kernel_s, s->host_s);
                for (int k = 0; k < BENCH_NCOPY; k++) fprintf(f, ",%" PRIu64 ",%.9g", s->copy_bytes[k], s->copy_s[k]);
                fputc('\n', f);
                any = true;
            }
        if (!any) fprintf(f, "%s,%s,%s,,,,,,,,,,,\n", tg->name, status[tg->status], d->param ? d->param : "");
    }
    return !ferror(f);
}
