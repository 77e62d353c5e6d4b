/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench --plot`: an SVG a browser renders. Left, time against the
 * swept parameter on log-log axes, one line per target (the median, a bar
 * from the fastest to the slowest run, the fitted model dashed) with the
 * crossovers marked; right, a stacked bar per target at the largest value:
 * copies, kernels, host code. Elements carry classes (axis, series, model,
 * crossover, bar) that tests/bench/check.py looks for. */
#include "bench.h"

#include <math.h>
#include <string.h>

enum { W = 980, H = 460 };
static const double PX0 = 90, PX1 = 610, PY0 = 50, PY1 = 390; /* the plot's area */
static const double BX0 = 700, BX1 = 950;                     /* the bars' */
static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c"};

typedef struct axes {
    double lx0, lx1, ly0, ly1; /* log10 of the ranges */
} axes;

static void esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

static double px(const axes *a, double x) { return PX0 + (log10(x) - a->lx0) / (a->lx1 - a->lx0) * (PX1 - PX0); }
static double py(const axes *a, double y) { return PY1 - (log10(y) - a->ly0) / (a->ly1 - a->ly0) * (PY1 - PY0); }

static bool usable(const bench_data *d, int t) { return d->tg[t].status == BENCH_OK && d->tg[t].cells; }

/* The ranges, a little wider than the data (half a decade for one value). */
static axes ranges(const bench_data *d)
{
    double x0 = d->x[0], x1 = d->x[d->nvalues - 1], y0 = INFINITY, y1 = 0;
    for (int t = 0; t < d->ntargets; t++)
        for (int i = 0; usable(d, t) && i < d->nvalues; i++)
            if (d->tg[t].cells[i].ran) {
                y0 = fmin(y0, d->tg[t].cells[i].min);
                y1 = fmax(y1, d->tg[t].cells[i].max);
            }
    if (!(y1 > 0)) y0 = 1e-6, y1 = 1;
    if (!(y0 > 0)) y0 = y1 / 1e3;
    axes a = {log10(x0), log10(x1), log10(y0), log10(y1)};
    double px_pad = a.lx1 > a.lx0 ? 0.05 * (a.lx1 - a.lx0) : 0.5, py_pad = a.ly1 > a.ly0 ? 0.08 * (a.ly1 - a.ly0) : 0.5;
    a.lx0 -= px_pad, a.lx1 += px_pad, a.ly0 -= py_pad, a.ly1 += py_pad;
    return a;
}

static void tick_label(FILE *f, double v, bool time)
{
    char buf[32];
    if (time) bench_fmt_time(v, buf, sizeof buf);
    else snprintf(buf, sizeof buf, "%g", v);
    esc(f, buf);
}

/* Decade ticks, and gridlines; at least the two ends when the range holds
 * fewer than two decades. */
static void ticks(FILE *f, const axes *a, bool xaxis)
{
    double l0 = xaxis ? a->lx0 : a->ly0, l1 = xaxis ? a->lx1 : a->ly1;
    double marks[32];
    int n = 0;
    for (double e = ceil(l0); e <= l1 && n < 30; e++) marks[n++] = pow(10, e);
    if (n < 2) {
        n = 0;
        marks[n++] = pow(10, l0 + 0.1 * (l1 - l0));
        marks[n++] = pow(10, l1 - 0.1 * (l1 - l0));
    }
    for (int k = 0; k < n; k++) {
        if (xaxis) {
            double x = px(a, marks[k]);
            fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, PY0, x, PY1);
            fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, PY1 + 18);
        } else {
            double y = py(a, marks[k]);
            fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", PX0, y, PX1, y);
            fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", PX0 - 6, y + 4);
        }
        tick_label(f, marks[k], !xaxis);
        fputs("</text>\n", f);
    }
}

static void frame(FILE *f, const bench_data *d, const axes *a)
{
    fprintf(f, "<text class=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">kjit bench ", W / 2);
    const char *slash = strrchr(d->file, '/'); /* the file's name: a plot is read away from its machine */
    esc(f, slash ? slash + 1 : d->file);
    fputs(d->param ? ": main(" : ": main() with its defaults", f);
    if (d->param) esc(f, d->param), fputc(')', f);
    fputs("</text>\n", f);
    ticks(f, a, true);
    ticks(f, a, false);
    fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", PX0, PY1, PX1, PY1);
    fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", PX0, PY0, PX0, PY1);
    fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (PX0 + PX1) / 2, PY1 + 40);
    esc(f, d->param ? d->param : "(no sweep)");
    fputs(" (log scale)</text>\n", f);
    fprintf(f, "<text class=\"label\" x=\"20\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 20 %.1f)\">"
               "time of main, median (log scale)</text>\n", (PY0 + PY1) / 2, (PY0 + PY1) / 2);
}

static void series(FILE *f, const bench_data *d, const axes *a, int t, int slot)
{
    const bench_target *tg = &d->tg[t];
    const char *c = colors[t % 3];
    fprintf(f, "<polyline class=\"series\" data-target=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", tg->name, c);
    for (int i = 0; i < d->nvalues; i++)
        if (tg->cells[i].ran) fprintf(f, "%.1f,%.1f ", px(a, d->x[i]), py(a, tg->cells[i].med.total));
    fputs("\"/>\n", f);
    for (int i = 0; i < d->nvalues; i++) {
        const bench_cell *cell = &tg->cells[i];
        if (!cell->ran) continue;
        double x = px(a, d->x[i]);
        fprintf(f, "<line class=\"spread\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
                py(a, cell->min), x, py(a, cell->max), c);
        fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x, py(a, cell->med.total), c);
    }
    if (tg->fit.ok) {
        fprintf(f, "<polyline class=\"model\" data-target=\"%s\" fill=\"none\" stroke=\"%s\" stroke-dasharray=\"5,4\" "
                   "stroke-width=\"1\" points=\"", tg->name, c);
        for (int s = 0; s <= 48; s++) {
            double x = pow(10, a->lx0 + (a->lx1 - a->lx0) * s / 48), y = bench_fit_predict(&tg->fit, x);
            if (y > 0 && log10(y) >= a->ly0 && log10(y) <= a->ly1) fprintf(f, "%.1f,%.1f ", px(a, x), py(a, y));
        }
        fputs("\"/>\n", f);
    }
    double ly = PY0 + 14 + 18 * slot;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n", PX0 + 10, ly, PX0 + 34, ly, c);
    fprintf(f, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", PX0 + 40, ly + 4, tg->name);
}

static void crossover_marks(FILE *f, const bench_data *d, const axes *a)
{
    for (int k = 0; k < d->ncross; k++) {
        const bench_cross *c = &d->cross[k];
        for (int which = 0; which < 2; which++) {
            bool ok = which ? c->predicted_ok : c->measured_ok;
            double x = which ? c->predicted : c->measured;
            if (!ok || log10(x) < a->lx0 || log10(x) > a->lx1) continue;
            fprintf(f, "<line class=\"crossover\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
                       "stroke-dasharray=\"%s\"/>\n", px(a, x), PY0, px(a, x), PY1, which ? "2,3" : "6,3");
            fprintf(f, "<text class=\"crossover\" x=\"%.1f\" y=\"%.1f\" fill=\"#d62728\" font-size=\"11\">%s/%s %s ",
                    px(a, x) + 4, PY0 + 70 + 14 * (2 * k + which), d->tg[c->b].name, d->tg[c->a].name,
                    which ? "predicted" : "crossover");
            esc(f, d->param);
            fprintf(f, " = %.3g</text>\n", x);
        }
    }
}

/* Stacked bars of the median run at the largest value measured. */
static void bars(FILE *f, const bench_data *d)
{
    int i = d->nvalues - 1, n = 0;
    double top = 0;
    for (int t = 0; t < d->ntargets; t++)
        if (usable(d, t) && d->tg[t].cells[i].ran) top = fmax(top, d->tg[t].cells[i].med.total), n++;
    if (!n || !(top > 0)) return;
    fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">breakdown at ", (BX0 + BX1) / 2, PY0 - 6);
    if (d->param) esc(f, d->param), fprintf(f, " = %s", d->vtext[i]);
    else fputs("the defaults", f);
    fputs("</text>\n", f);
    static const char *parts[] = {"host->device", "kernels", "device->host", "device->device", "host code"};
    static const char *pcol[] = {"#9467bd", "#2ca02c", "#8c564b", "#e377c2", "#7f7f7f"};
    double bw = (BX1 - BX0) / (1.6 * n), x = BX0 + 0.3 * bw;
    for (int t = 0; t < d->ntargets; t++) {
        if (!usable(d, t) || !d->tg[t].cells[i].ran) continue;
        const bench_sample *s = &d->tg[t].cells[i].med;
        double v[5] = {s->copy_s[BENCH_H2D], s->kernel_s, s->copy_s[BENCH_D2H], s->copy_s[BENCH_D2D], s->host_s};
        double y = PY1;
        for (int p = 0; p < 5; p++) {
            double h = v[p] / top * (PY1 - PY0 - 20);
            if (h <= 0) continue;
            fprintf(f, "<rect class=\"bar\" data-target=\"%s\" data-part=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                       "height=\"%.1f\" fill=\"%s\"><title>%s: %.3g s</title></rect>\n",
                    d->tg[t].name, parts[p], x, y - h, bw, h, pcol[p], parts[p], v[p]);
            y -= h;
        }
        char b[32];
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x + bw / 2, y - 4,
                bench_fmt_time(s->total, b, sizeof b));
        fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x + bw / 2,
                PY1 + 18, d->tg[t].name);
        x += 1.6 * bw;
    }
    fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", BX0, PY1, BX1, PY1);
    for (int p = 0; p < 5; p++) {
        double ly = PY1 + 36 + 13 * p;
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                   "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>\n",
                BX0, ly - 9, pcol[p], BX0 + 14, ly, parts[p] + 0);
    }
}

bool bench_write_svg(const bench_data *d, FILE *f)
{
    axes a = ranges(d);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
               W, H + 40, W, H + 40);
    frame(f, d, &a);
    for (int t = 0, slot = 0; t < d->ntargets; t++)
        if (usable(d, t)) series(f, d, &a, t, slot++);
    crossover_marks(f, d, &a);
    bars(f, d);
    fputs("</svg>\n", f);
    return !ferror(f);
}
