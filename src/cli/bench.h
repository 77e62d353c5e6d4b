/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench` inside (docs/bench.md): the measurements of one bench, the
 * time model fitted to them, and the files written from them.
 *
 *   bench.c         options, running main per target and sweep value,
 *                   the outputs compared, the events gathered
 *   bench_fit.c     the model t(n) = overhead + bytes(n)/bandwidth +
 *                   work(n)/throughput and the crossovers (no I/O: unit-tested)
 *   bench_report.c  the text report, JSON and CSV
 *   bench_svg.c     the plot */
#ifndef KJ_BENCH_H
#define KJ_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { BENCH_MAX_KERNELS = 16, BENCH_MAX_TARGETS = 3 };

/* Copies between host and device, by direction. */
enum { BENCH_H2D, BENCH_D2H, BENCH_D2D, BENCH_NCOPY };

typedef struct bench_kernel {
    char name[64];
    unsigned launches;
    double seconds;
} bench_kernel;

/* One run of main: its wall time and what the events said of it. */
typedef struct bench_sample {
    double total, kernel_s, host_s; /* host: the rest (host code, launch overhead) */
    double copy_s[BENCH_NCOPY];
    uint64_t copy_bytes[BENCH_NCOPY];
    unsigned copies[BENCH_NCOPY];
    bench_kernel k[BENCH_MAX_KERNELS];
    unsigned nk;
} bench_sample;

/* One target at one sweep value: the timed repeats and the median run. */
typedef struct bench_cell {
    bool ran;
    int nrep;
    bench_sample *rep;
    bench_sample med; /* the run of median total time (its breakdown is reported) */
    double min, max;  /* of the totals */
} bench_cell;

/* The fitted model of one target, t(x) = overhead + bytes(x)/bandwidth +
 * x^work_exp/throughput, bytes(x) = bytes_coef * x^bytes_exp. */
typedef struct bench_fit {
    bool ok;                /* at least two sweep values */
    double overhead;        /* seconds */
    double bandwidth;       /* bytes/s of the copies; 0: no copies */
    double throughput;      /* x^work_exp per second; 0: no time grows with x */
    double work_exp;        /* p of work(x) = x^p */
    double bytes_coef, bytes_exp;
    double rms_rel;         /* the fit's relative error at the measured points */
} bench_fit;

/* A point the fit reads: the swept value and the median run's figures. */
typedef struct bench_point {
    double x, total, copy_s, work_s, bytes; /* work_s: all but the copies (kernels and host code) */
} bench_point;

typedef enum { BENCH_OK, BENCH_SKIPPED, BENCH_FAILED } bench_status;

typedef struct bench_target {
    const char *name;
    int kind; /* kjit_target */
    bench_status status;
    char reason[2048]; /* skipped / failed: why (the error as kjit reports it) */
    double compile_cold, compile_cached; /* seconds for kjit_compile_file, empty cache / filled */
    double gpu_compile_cold, gpu_compile_cached; /* of which the kernels' GPU code */
    bench_cell *cells; /* one per sweep value */
    bench_fit fit;
} bench_target;

typedef struct bench_cross {
    int a, b;           /* targets */
    bool measured_ok, predicted_ok;
    double measured;    /* interpolated between the sweep values where the faster target changes */
    double predicted;   /* from the two fits, within [x0 / 100, x1 * 100] */
    int faster_small;   /* the target faster at the smallest value */
    int changes;        /* how often the faster target changes over the sweep (> 1: close or noisy) */
} bench_cross;

typedef struct bench_data {
    const char *file;
    const char *param; /* the swept parameter, or NULL */
    int nvalues;
    const char **vtext; /* each value as given */
    double *x;
    int ntargets;
    bench_target tg[BENCH_MAX_TARGETS];
    int repeat;
    double tol;
    bool outputs_agree;
    bench_cross cross[BENCH_MAX_TARGETS];
    int ncross;
} bench_data;

/* bench_out.c: an output file (--plot, --json, --csv), written through a
 * temporary file beside the file its path names, renamed onto it at the end. */
enum { BENCH_PATH = 4096 };
typedef struct bench_out {
    const char *opt, *path;   /* "--json" and the path as given; path NULL: not asked for */
    char file[BENCH_PATH];    /* the file the path names, links followed */
    char tmp[BENCH_PATH + 16]; /* the temporary file ("": none, or written directly) */
    FILE *f;                  /* open on tmp */
    /* which file: device and inode (of its directory, with name, when not made yet) */
    unsigned long long dev, ino;
    const char *name;
    bool exists, regular;     /* regular: a file (or none yet), not a device or FIFO */
    unsigned mode;            /* an existing file's, kept */
} bench_out;

/* Each asked-for output of outs[0..n): its file found (links followed) and
 * compared with the program's and the others' (by device and inode, not by
 * name). 0, else 1 (a path that cannot be written) or 2 (one that is the
 * program or another output) with the message in why. */
int bench_outs_check(bench_out *outs, int n, const char *program, char *why, size_t cap);
/* Make o's temporary file (or, for a device or FIFO, check it is
 * writable): false with errno set. */
bool bench_out_open(bench_out *o);
/* Write o with write(d, f), flush, close and rename it into place: false
 * with errno set (the temporary file removed). */
bool bench_out_commit(bench_out *o, bool (*write)(const bench_data *, FILE *), const bench_data *d);
/* Remove o's temporary file, if any (a bench that stopped early). */
void bench_out_discard(bench_out *o);

/* bench_fit.c */
bench_fit bench_fit_model(const bench_point *p, int n);
double bench_fit_predict(const bench_fit *f, double x);
/* Where b's measured times cross a's: interpolated in log-log between the
 * neighbouring values where the faster target changes (false: none). */
bool bench_cross_measured(const double *x, const double *ta, const double *tb, int n, double *at);
/* Where the fitted models cross in [lo, hi] (false: nowhere). */
bool bench_cross_predicted(const bench_fit *a, const bench_fit *b, double lo, double hi, double *at);
double bench_median(double *v, int n); /* sorts v */

/* bench_report.c */
/* The report to f; 0, or the errno of a write that failed. */
int bench_report_text(const bench_data *d, FILE *f);
bool bench_write_json(const bench_data *d, FILE *f);
bool bench_write_csv(const bench_data *d, FILE *f);
/* "12.3 ms", "850 us", "1.20 s" */
const char *bench_fmt_time(double s, char *buf, size_t cap);
const char *bench_fmt_bytes(double b, char *buf, size_t cap);

/* bench_svg.c */
bool bench_write_svg(const bench_data *d, FILE *f);

#endif
