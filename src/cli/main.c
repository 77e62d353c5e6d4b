/* SPDX-License-Identifier: BSD-2-Clause */
/* The `kjit` command: a thin client of the public API (kjit.h) only.
 *
 *   kjit check FILE.k               errors, if any, to stderr
 *   kjit ir FILE.k                  the typed IR to stdout
 *   kjit run FILE.k [NAME=VALUE]    compile and call main (run.c)
 *   kjit llvm FILE.k / asm FILE.k   the generated LLVM IR / assembly
 *   kjit ptx FILE.k [--arch sm_XY] [--kernel NAME]   the kernels' PTX
 *   kjit bench FILE.k [--target LIST] [--sweep ...]   main timed per target (bench.c)
 *   kjit cache [clear] / sysinfo [--json]   the compile cache, what kjit finds (admin.c)
 *   kjit help [COMMAND] | [COMMAND] --help   kjit version | --version   (texts in help.c)
 *
 * Exit status: 0 success, 1 the program has errors or cannot be read,
 * 2 bad usage, 3 a run-time error. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_STDIN_BYTES = 64 << 20 }; /* the same limit the library puts on files */
enum { MAX_REPEAT = 1000 };          /* kjit bench --repeat */

static const char usage_line[] = "usage: kjit <command> [options] FILE.k";

typedef struct cli {
    const char *cmd;  /* check, ir, run, llvm, asm, help, version */
    const char *file;
    char **params;    /* run: the NAME=VALUE arguments */
    int nparams;
    kjit_options opt;
    kjit_diag_format fmt;
    bool fmt_given;
    const char *kernel; /* ptx --kernel */
    const char *targets; /* --target as given (bench: a list) */
    kjit_bench_args bench; /* bench's own options */
    const char *bench_opt; /* the first bench-only option given, for other commands' error */
    bool help;             /* --help / -h: the command's help */
    bool json_flag;        /* cache/sysinfo --json */
} cli;

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage problem: the message, the usage line, exit status 2. */
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kjit_cli_verror(fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s\nrun 'kjit help' for the commands and options\n", usage_line);
    return EXIT_USAGE;
}

/* "unknown WHAT 'name'", with "; did you mean 'x'?" when one is close. */
static int unknown(const char *what, const char *name, const char *closest)
{
    if (closest) return usage_error("unknown %s '%s'; did you mean '%s'?", what, name, closest);
    return usage_error("unknown %s '%s'", what, name);
}

static int bad_target(const char *v)
{
    const char *near = kjit_cli_closest_target(v);
    if (near) return usage_error("invalid --target '%s'; did you mean '%s'?", v, near);
    return usage_error("invalid --target '%s' (expected cpu, parallel, cuda or auto)", v);
}

/* Commands whose --json is a switch (bench's takes a file). */
static bool json_is_switch(const char *cmd)
{
    return cmd && (!strcmp(cmd, "cache") || !strcmp(cmd, "sysinfo"));
}

static bool parse_format(const char *s, kjit_diag_format *out)
{
    if (!strcmp(s, "human")) *out = KJIT_DIAG_HUMAN;
    else if (!strcmp(s, "short")) *out = KJIT_DIAG_SHORT;
    else if (!strcmp(s, "json")) *out = KJIT_DIAG_JSON;
    else return false;
    return true;
}

static bool parse_target(const char *s, kjit_target *out)
{
    if (!strcmp(s, "auto")) *out = KJIT_TARGET_AUTO;
    else if (!strcmp(s, "cpu")) *out = KJIT_TARGET_CPU;
    else if (!strcmp(s, "parallel")) *out = KJIT_TARGET_PARALLEL;
    else if (!strcmp(s, "cuda")) *out = KJIT_TARGET_CUDA;
    else return false;
    return true;
}

/* A positive decimal count, all of `s`. */
static bool parse_count(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > INT_MAX || *s == '+' || *s == ' ') return false;
    *out = (int)v;
    return true;
}

/* sm_ and 2 or 3 digits, then optionally a or f: the rule kjit_ctx_new
 * applies to options.arch, checked here to say which option is wrong. */
static bool valid_arch(const char *v)
{
    size_t d = strncmp(v, "sm_", 3) ? 0 : strspn(v + 3, "0123456789");
    const char *rest = v + 3 + d;
    return (d == 2 || d == 3) && (!*rest || ((*rest == 'a' || *rest == 'f') && !rest[1]));
}

/* The value of `--name=VALUE` or `--name VALUE` when arg is option `name`;
 * NULL when arg is another option. Consumes the next argument for the
 * second form (*i advances); *missing is set when there is none. */
static const char *opt_value(const char *arg, const char *name, int argc, char **argv, int *i,
                             bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n)) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n]) return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

/* One option argv[*i]. Returns -1 to go on, else an exit status. */
static int parse_option(cli *c, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *v;
    bool missing = false;
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) c->help = true;
    else if (!strcmp(arg, "--json") &&
             (json_is_switch(c->cmd) || (!c->cmd && *i + 1 < argc && json_is_switch(argv[*i + 1]))))
        c->json_flag = true; /* kjit sysinfo --json, kjit --json sysinfo */
    else if (!strcmp(arg, "--version")) c->cmd = "version";
    else if (arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3]) c->opt.opt_level = arg[2] - '0';
    else if (!strcmp(arg, "--boundscheck")) c->opt.boundscheck = 1;
    else if (!strcmp(arg, "--no-cache")) c->opt.cache = 0;
    else if ((v = opt_value(arg, "--diag-format", argc, argv, i, &missing))) {
        if (!parse_format(v, &c->fmt))
            return usage_error("invalid --diag-format '%s' (expected human, short or json)", v);
        c->fmt_given = true;
    } else if ((v = opt_value(arg, "--max-errors", argc, argv, i, &missing))) {
        if (!parse_count(v, &c->opt.max_errors))
            return usage_error("invalid --max-errors '%s' (expected a positive number)", v);
    } else if ((v = opt_value(arg, "--target", argc, argv, i, &missing))) {
        c->targets = v; /* bench checks its list itself */
        if (!strchr(v, ',') && !parse_target(v, &c->opt.target)) return bad_target(v);
    } else if ((v = opt_value(arg, "--sweep", argc, argv, i, &missing))) {
        c->bench.sweep = v;
        c->bench_opt = "--sweep";
    } else if ((v = opt_value(arg, "--repeat", argc, argv, i, &missing))) {
        /* each run's samples are kept, per value and target: a bound keeps
         * them in memory (calloc of 10^9 of them failed and aborted) */
        if (!parse_count(v, &c->bench.repeat) || c->bench.repeat > MAX_REPEAT)
            return usage_error("invalid --repeat '%s' (expected a number of runs from 1 to %d)", v, MAX_REPEAT);
        c->bench_opt = "--repeat";
    } else if ((v = opt_value(arg, "--tolerance", argc, argv, i, &missing))) {
        char *end;
        c->bench.tol = strtod(v, &end);
        if (end == v || *end || !(c->bench.tol >= 0) || c->bench.tol >= 1)
            return usage_error("invalid --tolerance '%s' (expected a relative tolerance in [0, 1), e.g. 1e-5)", v);
        c->bench_opt = "--tolerance";
    } else if ((v = opt_value(arg, "--plot", argc, argv, i, &missing))) {
        c->bench.plot = v;
        c->bench_opt = "--plot";
    } else if ((v = opt_value(arg, "--json", argc, argv, i, &missing))) {
        c->bench.json = v;
        c->bench_opt = "--json";
    } else if ((v = opt_value(arg, "--csv", argc, argv, i, &missing))) {
        c->bench.csv = v;
        c->bench_opt = "--csv";
    } else if ((v = opt_value(arg, "--arch", argc, argv, i, &missing))) {
        if (!valid_arch(v)) return usage_error("invalid --arch '%s' (expected sm_XY, e.g. sm_90)", v);
        c->opt.arch = v;
    } else if ((v = opt_value(arg, "--kernel", argc, argv, i, &missing))) {
        c->kernel = v;
    } else if (missing) {
        return usage_error("option '%s' needs a value", arg);
    } else {
        return unknown("option", arg, kjit_cli_closest_option(arg));
    }
    return -1;
}

/* The command line: options anywhere, then the command, its file and (for
 * run) NAME=VALUE arguments.
 * Returns -1 when the command should run, else an exit status. */
static int parse_args(cli *c, int argc, char **argv)
{
    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_files && !strcmp(arg, "--")) {
            only_files = true;
            continue;
        }
        if (!only_files && arg[0] == '-' && arg[1]) {
            int rc = parse_option(c, argc, argv, &i);
            if (rc >= 0) return rc;
            if (c->help || !strcmp(c->cmd ? c->cmd : "", "version"))
                return -1; /* --help / --version win over everything else */
            continue;
        }
        if (!c->cmd) c->cmd = arg;
        else if (!c->file) c->file = arg;
        else if (!strcmp(c->cmd, "run") || !strcmp(c->cmd, "bench")) c->params[c->nparams++] = argv[i];
        else return usage_error("unexpected argument '%s'", arg);
    }
    if (!c->cmd) return usage_error("missing command");
    if (!kjit_cli_is_command(c->cmd)) return unknown("command", c->cmd, kjit_cli_closest_command(c->cmd));
    if (!strcmp(c->cmd, "help") && c->file && !kjit_cli_is_command(c->file))
        return unknown("command", c->file, kjit_cli_closest_command(c->file));
    if (!strcmp(c->cmd, "help") || !strcmp(c->cmd, "version")) return -1;
    if (c->bench_opt && strcmp(c->cmd, "bench"))
        return usage_error("option '%s' is for 'kjit bench' only", c->bench_opt);
    if (!strcmp(c->cmd, "cache")) {
        static const char *const actions[] = {"clear"};
        if (c->file && strcmp(c->file, "clear"))
            return unknown("'kjit cache' action", c->file, kjit_suggest(c->file, actions, 1));
        return -1;
    }
    if (!strcmp(c->cmd, "sysinfo")) {
        if (c->file) return usage_error("unexpected argument '%s' ('kjit sysinfo' takes none)", c->file);
        return -1;
    }
    if (!c->file) return usage_error("missing FILE.k argument for '%s'", c->cmd);
    if (c->targets && strchr(c->targets, ',') && strcmp(c->cmd, "bench"))
        return usage_error("invalid --target '%s' (a list of targets is for 'kjit bench' only)", c->targets);
    if (!strcmp(c->cmd, "bench") && !strcmp(c->file, "-"))
        return usage_error("'kjit bench' reads a file, not standard input (it compiles it once per target)");
    return -1;
}

/* Standard input, whole, for FILE '-'. */
static char *read_stdin(size_t *len)
{
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    while (buf && n <= MAX_STDIN_BYTES) {
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) free(buf);
            buf = nb;
            if (!buf) break;
        }
        size_t got = fread(buf + n, 1, cap - n, stdin);
        n += got;
        if (got == 0) break;
    }
    if (!buf || ferror(stdin) || n > MAX_STDIN_BYTES) {
        fprintf(stderr, "kjit: error: cannot read standard input: %s\n",
                !buf ? "out of memory" : n > MAX_STDIN_BYTES ? "larger than 64 MB" : strerror(errno));
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static kjit_module *compile(kjit_ctx *ctx, const char *file, kjit_error *err)
{
    if (strcmp(file, "-")) return kjit_compile_file(ctx, file, err);
    size_t len = 0;
    char *text = read_stdin(&len);
    if (!text) {
        err->code = KJIT_ERR_IO;
        return NULL;
    }
    kjit_module *m = kjit_compile(ctx, text, len, "<stdin>", err);
    free(text);
    return m;
}

/* Write `text` (malloc'd, freed here) to stdout. */
static int print_text(char *text, const char *what)
{
    fputs(text, stdout);
    free(text);
    if (fflush(stdout) == 0) return EXIT_OK;
    fprintf(stderr, "kjit: error: cannot write the %s: %s\n", what, strerror(errno));
    return EXIT_ERRORS;
}

/* What the command prints, or does, with the compiled module. */
static int use_module(const cli *c, kjit_module *m)
{
    kjit_error err = {0};
    if (!strcmp(c->cmd, "ir")) return print_text(kjit_module_ir(m), "IR");
    if (!strcmp(c->cmd, "run")) return kjit_cli_run(m, c->params, c->nparams, c->fmt);
    if (!strcmp(c->cmd, "ptx")) {
        char *ptx = kjit_module_ptx(m, c->kernel, &err);
        if (ptx) return print_text(ptx, "PTX");
    } else if (!strcmp(c->cmd, "llvm") || !strcmp(c->cmd, "asm")) {
        bool llvm = !strcmp(c->cmd, "llvm");
        char *text = llvm ? kjit_module_llvm_ir(m, &err) : kjit_module_asm(m, &err);
        if (text) return print_text(text, llvm ? "LLVM IR" : "assembly");
    } else {
        return EXIT_OK; /* check */
    }
    char *s = kjit_error_format(m, &err, c->fmt);
    fputs(s, stderr);
    free(s);
    return EXIT_ERRORS;
}

/* The context options a command needs on top of the user's. */
static kjit_options command_options(const cli *c)
{
    kjit_options o = c->opt;
    if (!strcmp(c->cmd, "check") || !strcmp(c->cmd, "ir") || !strcmp(c->cmd, "ptx")) o.check_only = 1;
    if (!strcmp(c->cmd, "llvm")) o.keep |= KJIT_KEEP_LLVM_IR;
    if (!strcmp(c->cmd, "asm")) o.keep |= KJIT_KEEP_ASM;
    return o;
}

/* Compile, print the diagnostics (warnings too), then do the command. */
static int run(const cli *c)
{
    kjit_error err = {0};
    kjit_options o = command_options(c);
    kjit_ctx *ctx = kjit_ctx_new(&o, &err);
    if (!ctx) {
        fprintf(stderr, "kjit: error: %s\n", err.message);
        return EXIT_USAGE;
    }
    kjit_module *m = compile(ctx, c->file, &err);
    char *diags = kjit_ctx_diagnostics(ctx, c->fmt);
    fputs(diags, stderr);
    free(diags);
    int rc = EXIT_ERRORS;
    if (m) rc = use_module(c, m);
    else if (err.code == KJIT_ERR_USAGE) rc = EXIT_USAGE;
    else if (err.code == KJIT_ERR_RUNTIME) rc = EXIT_RUNTIME; /* no CUDA driver or device */
    if (!m && (err.code == KJIT_ERR_IO || err.code == KJIT_ERR_USAGE || err.code == KJIT_ERR_RUNTIME) &&
        err.message[0])
        fprintf(stderr, "kjit: error: %s\n", err.message);
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    return rc;
}

/* Everything after the arguments are parsed. */
static int dispatch(cli *c)
{
    if (c->help) {
        if (c->cmd && !kjit_cli_is_command(c->cmd)) return unknown("command", c->cmd, kjit_cli_closest_command(c->cmd));
        /* kjit run --help: run's; kjit help run --help: run's; kjit help --help: help's */
        kjit_cli_help(c->cmd && strcmp(c->cmd, "help") ? c->cmd : c->file ? c->file : c->cmd);
        return EXIT_OK;
    }
    if (!strcmp(c->cmd, "help")) {
        kjit_cli_help(c->file);
        return EXIT_OK;
    }
    if (!strcmp(c->cmd, "version")) {
        printf("kjit %s\n", kjit_version());
        return EXIT_OK;
    }
    if (!strcmp(c->cmd, "cache")) return kjit_cli_cache(c->file, c->json_flag);
    if (!strcmp(c->cmd, "sysinfo")) return kjit_cli_sysinfo(c->json_flag);
    const char *env = getenv("KJIT_DIAG_FORMAT");
    if (!c->fmt_given && env && *env && !parse_format(env, &c->fmt))
        return usage_error("invalid KJIT_DIAG_FORMAT '%s' (expected human, short or json)", env);
    if (!strcmp(c->cmd, "bench")) {
        kjit_bench_args *b = &c->bench;
        b->file = c->file;
        b->targets = c->targets;
        b->params = c->params;
        b->nparams = c->nparams;
        b->opt = c->opt;
        b->fmt = c->fmt;
        return kjit_cli_bench(b);
    }
    return run(c);
}

/* Whatever a command printed must have reached stdout: a full disk or
 * /dev/full is an error (exit 1), not a silent success. */
static int finish_output(int rc)
{
    errno = 0;
    bool lost = fflush(stdout) != 0 || ferror(stdout);
    if (!lost || rc != EXIT_OK) return rc; /* a failed command has said why already */
    fprintf(stderr, "kjit: error: cannot write the output: %s\n", strerror(errno ? errno : EIO));
    return EXIT_ERRORS;
}

int main(int argc, char **argv)
{
    cli c = {0};
    kjit_options_init(&c.opt);
    if (isatty(STDERR_FILENO)) c.opt.progress = stderr; /* a compile over a second says what it compiles */
    c.bench.repeat = 3;
    c.bench.tol = 1e-5;
    c.params = calloc((size_t)argc + 1, sizeof *c.params);
    if (!c.params) return EXIT_ERRORS;
    int rc = parse_args(&c, argc, argv);
    if (rc < 0) rc = dispatch(&c);
    free(c.params);
    return finish_output(rc);
}
