/* The `kjit` command: a thin client of the public API (kjit.h) only.
 *
 *   kjit check FILE.k    errors, if any, to stderr
 *   kjit ir FILE.k       the typed IR to stdout
 *   kjit help | --help   kjit version | --version
 *
 * Exit status: 0 success, 1 the program has errors or cannot be read,
 * 2 bad usage. */
#include <kjit.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };
enum { MAX_STDIN_BYTES = 64 << 20 }; /* the same limit the library puts on files */

static const char usage_line[] = "usage: kjit <command> [options] FILE.k";

static const char help_text[] =
    "usage: kjit <command> [options] FILE.k\n"
    "\n"
    "commands:\n"
    "  check FILE.k    check a program for errors; prints nothing when it is valid\n"
    "  ir FILE.k       print the typed IR (KIR) of every compiled function\n"
    "  help            show this help\n"
    "  version         print the version\n"
    "\n"
    "options:\n"
    "  --diag-format=human|short|json   how diagnostics are printed (default human,\n"
    "                                   or $KJIT_DIAG_FORMAT)\n"
    "  --max-errors=N                   report at most N errors (default 20)\n"
    "  --target=cpu|parallel|cuda|auto  where kernels and ufuncs run (default auto)\n"
    "  -O0 -O1 -O2 -O3                  optimisation level (default -O3)\n"
    "  -h, --help                       show this help\n"
    "  --version                        print the version\n"
    "\n"
    "FILE.k may be '-' to read the program from standard input.\n"
    "\n"
    "exit status: 0 success; 1 the program has errors or cannot be read; 2 bad usage.\n";

typedef struct cli {
    const char *cmd;  /* check, ir, help, version */
    const char *file;
    kjit_options opt;
    kjit_diag_format fmt;
    bool fmt_given;
} cli;

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage problem: the message, the usage line, exit status 2. */
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("kjit: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s\nrun 'kjit help' for the commands and options\n", usage_line);
    return EXIT_USAGE;
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
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) c->cmd = "help";
    else if (!strcmp(arg, "--version")) c->cmd = "version";
    else if (arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3]) c->opt.opt_level = arg[2] - '0';
    else if ((v = opt_value(arg, "--diag-format", argc, argv, i, &missing))) {
        if (!parse_format(v, &c->fmt))
            return usage_error("invalid --diag-format '%s' (expected human, short or json)", v);
        c->fmt_given = true;
    } else if ((v = opt_value(arg, "--max-errors", argc, argv, i, &missing))) {
        if (!parse_count(v, &c->opt.max_errors))
            return usage_error("invalid --max-errors '%s' (expected a positive number)", v);
    } else if ((v = opt_value(arg, "--target", argc, argv, i, &missing))) {
        if (!parse_target(v, &c->opt.target))
            return usage_error("invalid --target '%s' (expected cpu, parallel, cuda or auto)", v);
    } else if (missing) {
        return usage_error("option '%s' needs a value", arg);
    } else {
        return usage_error("unknown option '%s'", arg);
    }
    return -1;
}

/* The command line: options anywhere, then the command and its file.
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
            if (!strcmp(c->cmd ? c->cmd : "", "help") || !strcmp(c->cmd ? c->cmd : "", "version"))
                return -1; /* --help / --version win over everything else */
            continue;
        }
        if (!c->cmd) c->cmd = arg;
        else if (!c->file) c->file = arg;
        else return usage_error("unexpected argument '%s'", arg);
    }
    if (!c->cmd) return usage_error("missing command");
    if (!strcmp(c->cmd, "help") || !strcmp(c->cmd, "version")) return -1;
    if (strcmp(c->cmd, "check") && strcmp(c->cmd, "ir"))
        return usage_error("unknown command '%s'", c->cmd);
    if (!c->file) return usage_error("missing FILE.k argument for '%s'", c->cmd);
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

/* check / ir: compile, print the diagnostics (warnings too), then the IR. */
static int run(const cli *c)
{
    kjit_error err = {0};
    kjit_ctx *ctx = kjit_ctx_new(&c->opt, &err);
    if (!ctx) {
        fprintf(stderr, "kjit: error: %s\n", err.message);
        return EXIT_USAGE;
    }
    kjit_module *m = compile(ctx, c->file, &err);
    char *diags = kjit_ctx_diagnostics(ctx, c->fmt);
    fputs(diags, stderr);
    free(diags);
    if (!m && err.code == KJIT_ERR_IO && err.message[0]) fprintf(stderr, "kjit: error: %s\n", err.message);
    int rc = m ? EXIT_OK : EXIT_ERRORS;
    if (m && !strcmp(c->cmd, "ir")) {
        char *ir = kjit_module_ir(m);
        fputs(ir, stdout);
        free(ir);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "kjit: error: cannot write the IR: %s\n", strerror(errno));
            rc = EXIT_ERRORS;
        }
    }
    kjit_module_free(m);
    kjit_ctx_free(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    cli c = {0};
    kjit_options_init(&c.opt);
    int rc = parse_args(&c, argc, argv);
    if (rc >= 0) return rc;
    if (!strcmp(c.cmd, "help")) {
        fputs(help_text, stdout);
        return EXIT_OK;
    }
    if (!strcmp(c.cmd, "version")) {
        printf("kjit %s\n", kjit_version());
        return EXIT_OK;
    }
    const char *env = getenv("KJIT_DIAG_FORMAT");
    if (!c.fmt_given && env && *env && !parse_format(env, &c.fmt))
        return usage_error("invalid KJIT_DIAG_FORMAT '%s' (expected human, short or json)", env);
    return run(&c);
}
