/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench`: one target's compiled program and its runs (bench_run.c),
 * for bench.c. */
#ifndef KJ_BENCH_RUN_H
#define KJ_BENCH_RUN_H

#include "bench.h"
#include "cli.h"

/* Where the events of a run go: the sample being measured (NULL between
 * runs) and the GPU compile time of the compile under way. */
typedef struct bench_acc {
    bench_sample *cur;
    double gpu_compile;
} bench_acc;

typedef struct bench_runner {
    kjit_ctx *ctx;
    kjit_module *m;
    kjit_fn *main;
    FILE *out; /* what main prints, read back after each run */
    bench_acc acc;
} bench_runner;

/* Compile a->file for target t twice, into an empty cache directory
 * `cache_dir` and then from it, timing both (into t); r keeps the second.
 * false: t is skipped (no GPU) or failed, t->reason says why. */
bool bench_runner_open(bench_runner *r, bench_target *t, const kjit_bench_args *a, const char *cache_dir);
void bench_runner_close(bench_runner *r);

/* One run of main(args): timed and broken down into s. *output: what it
 * printed (malloc'd; NULL: not wanted). false: t failed, t->reason says how. */
bool bench_run_once(bench_runner *r, bench_target *t, const kjit_value *args, int nargs, bench_sample *s,
                    char **output, kjit_diag_format fmt);

/* The first line (1-based) where two outputs differ, numbers compared
 * within relative tolerance tol; 0 when they agree. */
int bench_first_difference(const char *a, const char *b, double tol);
/* Line `line` (1-based) of text into buf, for the message. */
const char *bench_line(const char *text, int line, char *buf, size_t cap);

#endif
