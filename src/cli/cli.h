/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the `kjit` command's files (main.c: arguments and the
 * compile-only commands; run.c: `kjit run`). Both use only <kjit.h>. */
#ifndef KJ_CLI_H
#define KJ_CLI_H

#include <kjit.h>

#include <stdarg.h>
#include <stdbool.h>

/* Exit status of the command. */
enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

/* Call main of the compiled module `m` with its defaults overridden by the
 * NAME=VALUE arguments in `params[0..nparams)`; run-time errors are printed
 * in diagnostic format `fmt`. Returns the exit status. */
int kjit_cli_run(kjit_module *m, char **params, int nparams, kjit_diag_format fmt);

/* An uncaught exception raised at err->line of the program: Python's
 * traceback on stderr (traceback.c); the caller exits with status 1. */
void kjit_cli_traceback(const kjit_error *err);

/* For run.c's neighbours (bench.c): main's parameters from the command line. */
/* "int", "float", "bool", "str" (NumPy's name for other widths). */
const char *kjit_cli_type_name(const kjit_value *v);
/* "an integer", "a number", ... for an error message. */
const char *kjit_cli_expected(const kjit_value *v);
/* `text` as a value of the type of `*v` (the default, overwritten). */
bool kjit_cli_parse_value(const char *text, kjit_value *v);
/* Apply NAME=VALUE arguments to vals (main's defaults); -1, or an exit
 * status after printing the problem and main's parameters. */
int kjit_cli_apply_params(kjit_fn *fn, kjit_value *vals, char **params, int nparams);
/* "kjit: error: " and the message on stderr, no newline (every command's
 * errors start so). */
void kjit_cli_verror(const char *fmt, va_list ap);
/* Print "kjit: error: ..." and main's parameters; EXIT_USAGE. */
int kjit_cli_param_error(kjit_fn *fn, const kjit_value *vals, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* `kjit bench` (bench.c): the options main.c parsed for it. */
typedef struct kjit_bench_args {
    const char *file;
    const char *targets; /* "cpu,parallel,cuda"; NULL: cpu */
    const char *sweep;   /* NAME=v1,v2,... or NAME=start:stop:xF; NULL: main's defaults only */
    char **params;       /* fixed NAME=VALUE overrides */
    int nparams;
    int repeat;          /* timed runs per point (after one warm-up run) */
    double tol;          /* relative tolerance for numbers in the outputs */
    const char *plot, *json, *csv;
    kjit_options opt;    /* -O, --boundscheck; target and cache are set per target */
    kjit_diag_format fmt;
} kjit_bench_args;

int kjit_cli_bench(const kjit_bench_args *a);

/* help.c: the overview (cmd NULL or unknown) or one command's help, to
 * stdout; the commands; the closest command / option / target to a
 * misspelt one, or NULL (for "did you mean"). */
void kjit_cli_help(const char *cmd);
bool kjit_cli_is_command(const char *cmd);
const char *kjit_cli_closest_command(const char *cmd);
const char *kjit_cli_closest_option(const char *arg);
const char *kjit_cli_closest_target(const char *target);

/* admin.c: `kjit cache [clear]` and `kjit sysinfo`; exit statuses. */
int kjit_cli_cache(const char *sub, bool json);
int kjit_cli_sysinfo(bool json);

#endif
