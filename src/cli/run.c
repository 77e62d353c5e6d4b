/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit run FILE.k [NAME=VALUE ...]`: call the program's main with its
 * parameters' defaults, each overridden by a NAME=VALUE argument whose
 * VALUE is read as the type of the default (int, float, bool, str).
 * Only <kjit.h> is used. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Python's name for the type of a default: int, float, bool, str (NumPy's
 * for other widths: a default np.int32(3) is an int32). */
const char *kjit_cli_type_name(const kjit_value *v)
{
    switch (v->kind) {
    case KJIT_VALUE_BOOL: return "bool";
    case KJIT_VALUE_STR: return "str";
    case KJIT_VALUE_INT: return v->dtype == KJIT_INT64 ? "int" : kjit_dtype_name(v->dtype);
    case KJIT_VALUE_FLOAT: return v->dtype == KJIT_FLOAT64 ? "float" : kjit_dtype_name(v->dtype);
    default: return "?";
    }
}

/* main's parameters, one per line, for a usage error. */
static void list_params(kjit_fn *fn, const kjit_value *vals)
{
    int n = kjit_fn_param_count(fn);
    if (n == 0) {
        fputs("main() takes no parameters\n", stderr);
        return;
    }
    fputs("main's parameters (override with NAME=VALUE):\n", stderr);
    for (int i = 0; i < n; i++) {
        const char *def = kjit_fn_param_default_text(fn, i);
        fprintf(stderr, "  %s=%s (%s)\n", kjit_fn_param_name(fn, i), def ? def : "?", kjit_cli_type_name(&vals[i]));
    }
}

int kjit_cli_param_error(kjit_fn *fn, const kjit_value *vals, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A bad NAME=VALUE: the problem, main's parameters, exit status 2. */
void kjit_cli_verror(const char *fmt, va_list ap)
{
    fputs("kjit: error: ", stderr);
    vfprintf(stderr, fmt, ap);
}

int kjit_cli_param_error(kjit_fn *fn, const kjit_value *vals, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kjit_cli_verror(fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    list_params(fn, vals);
    return EXIT_USAGE;
}

/* A decimal integer as Python's int() reads it (sign, digits, single
 * underscores between digits), within int64. */
static bool parse_int(const char *s, int64_t *out)
{
    char digits[64];
    size_t n = 0;
    const char *p = s;
    if (*p == '+' || *p == '-') digits[n++] = *p++;
    if (*p < '0' || *p > '9') return false;
    for (; *p; p++) {
        if (*p == '_' && p[1] >= '0' && p[1] <= '9' && p[-1] >= '0' && p[-1] <= '9') continue;
        if (*p < '0' || *p > '9' || n + 1 >= sizeof digits) return false;
        digits[n++] = *p;
    }
    digits[n] = 0;
    errno = 0;
    long long v = strtoll(digits, NULL, 10);
    if (errno == ERANGE) return false;
    *out = v;
    return true;
}

/* Digits with single underscores between them (Python's digitpart) at
 * *p, copied without the underscores to *o; false when there are none. */
static bool digit_part(const char **p, char **o)
{
    const char *s = *p;
    if (*s < '0' || *s > '9') return false;
    for (; (*s >= '0' && *s <= '9') || (*s == '_' && s[1] >= '0' && s[1] <= '9'); s++)
        if (*s != '_') *(*o)++ = *s;
    *p = s;
    return true;
}

/* A float as Python's float() reads a string: surrounding whitespace, a
 * sign, then inf / infinity / nan in any case, or digits with `_` between
 * them, a point, an exponent; no hexadecimal. Out of range is not an error
 * there: 1e309 is inf, 1e-320 a subnormal, 1e-400 zero. */
static bool parse_float(const char *s, double *out)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char *text = malloc(n + 2), *o = text;
    if (!text) abort();
    const char *p = s, *end = s + n;
    if (*p == '+' || *p == '-') *o++ = *p++;
    size_t word = (size_t)(end - p);
    bool ok;
    if ((word == 3 && (!strncasecmp(p, "inf", 3) || !strncasecmp(p, "nan", 3))) ||
        (word == 8 && !strncasecmp(p, "infinity", 8))) {
        memcpy(o, p, word);
        o += word;
        p = end;
        ok = true;
    } else {
        bool whole = digit_part(&p, &o), frac = false;
        if (*p == '.') {
            *o++ = *p++;
            frac = digit_part(&p, &o);
        }
        ok = whole || frac;
        if (ok && (*p == 'e' || *p == 'E')) {
            *o++ = *p++;
            if (*p == '+' || *p == '-') *o++ = *p++;
            ok = digit_part(&p, &o);
        }
    }
    *o = 0;
    ok = ok && p == end;
    if (ok) *out = strtod(text, NULL); /* correctly rounded; ERANGE only says inf, subnormal or 0 */
    free(text);
    return ok;
}

static bool parse_bool(const char *s, bool *out)
{
    if (!strcmp(s, "True") || !strcmp(s, "1")) *out = true;
    else if (!strcmp(s, "False") || !strcmp(s, "0")) *out = false;
    else return false;
    return true;
}

/* `text` as a value of the type of `*v` (the default, overwritten). */
bool kjit_cli_parse_value(const char *text, kjit_value *v)
{
    int64_t i;
    double f;
    bool b;
    switch (v->kind) {
    case KJIT_VALUE_INT:
        if (!parse_int(text, &i)) return false;
        v->v.i = i;
        return true;
    case KJIT_VALUE_FLOAT:
        if (!parse_float(text, &f)) return false;
        v->v.f = v->dtype == KJIT_FLOAT32 ? (double)(float)f : f;
        return true;
    case KJIT_VALUE_BOOL:
        if (!parse_bool(text, &b)) return false;
        v->v.b = b;
        return true;
    case KJIT_VALUE_STR: v->v.s = text; return true;
    default: return false;
    }
}

const char *kjit_cli_expected(const kjit_value *v)
{
    switch (v->kind) {
    case KJIT_VALUE_INT: return "an integer";
    case KJIT_VALUE_FLOAT: return "a number";
    case KJIT_VALUE_BOOL: return "True, False, 1 or 0";
    default: return "a value";
    }
}

/* Apply the NAME=VALUE arguments to vals. Returns -1, or an exit status. */
int kjit_cli_apply_params(kjit_fn *fn, kjit_value *vals, char **params, int nparams)
{
    int n = kjit_fn_param_count(fn);
    bool *given = calloc((size_t)n + 1, sizeof *given);
    if (!given) abort();
    int rc = -1;
    for (int k = 0; k < nparams && rc < 0; k++) {
        char *eq = strchr(params[k], '=');
        if (!eq || eq == params[k]) {
            rc = kjit_cli_param_error(fn, vals, "expected NAME=VALUE, got '%s'", params[k]);
            break;
        }
        *eq = 0; /* argv is ours to change */
        const char *name = params[k], *text = eq + 1;
        int i = 0;
        while (i < n && strcmp(kjit_fn_param_name(fn, i), name)) i++;
        if (i == n) rc = kjit_cli_param_error(fn, vals, "main() has no parameter '%s'", name);
        else if (given[i]) rc = kjit_cli_param_error(fn, vals, "parameter '%s' given twice", name);
        else if (!kjit_cli_parse_value(text, &vals[i]))
            rc = kjit_cli_param_error(fn, vals, "invalid value '%s' for parameter '%s' (%s: expected %s)", text, name,
                             kjit_cli_type_name(&vals[i]), kjit_cli_expected(&vals[i]));
        else given[i] = true;
    }
    free(given);
    return rc;
}

/* Report a failed call: an exception raised at a line of the program as
 * Python's traceback, exit 1 (as `python3 prog.py`; the short and JSON
 * diagnostic formats keep their one line, for tools, with exit 1); another run-time error (no GPU, a failed write) like a
 * diagnostic, exit 3; a compile error at call time (1); a usage error (2). */
static int call_failed(kjit_module *m, const kjit_error *err, kjit_diag_format fmt)
{
    fflush(stdout); /* the program's output first, then the error */
    if (err->code == KJIT_ERR_RUNTIME && err->line > 0 && err->file[0] && fmt == KJIT_DIAG_HUMAN) {
        kjit_cli_traceback(err);
        return EXIT_ERRORS;
    }
    char *s = kjit_error_format(m, err, fmt);
    if (err->code == KJIT_ERR_USAGE) fprintf(stderr, "kjit: error: %s\n", err->message);
    else fputs(s, stderr);
    free(s);
    return err->code == KJIT_ERR_RUNTIME && err->line <= 0 ? EXIT_RUNTIME
           : err->code == KJIT_ERR_USAGE ? EXIT_USAGE
                                         : EXIT_ERRORS;
}

int kjit_cli_run(kjit_module *m, char **params, int nparams, kjit_diag_format fmt)
{
    /* a file without main runs its module-level statements: <module> */
    kjit_fn *fn = kjit_module_get(m, "main");
    if (!fn) fn = kjit_module_get(m, "<module>");
    if ((!fn || !strcmp(kjit_fn_name(fn), "<module>")) && nparams > 0) {
        fprintf(stderr, "kjit: error: '%s': a program without main() takes no NAME=VALUE parameters\n", params[0]);
        return EXIT_USAGE;
    }
    /* only imports and definitions (a library, or a doc example that only
     * defines a function): nothing to run, as `python3 file.py` runs nothing */
    if (!fn) return EXIT_OK;
    int n = kjit_fn_param_count(fn);
    kjit_value *vals = calloc((size_t)n + 1, sizeof *vals);
    if (!vals) abort();
    for (int i = 0; i < n; i++) kjit_fn_param_default(fn, i, &vals[i]); /* sema checked they exist */
    int rc = kjit_cli_apply_params(fn, vals, params, nparams);
    if (rc < 0) {
        kjit_error err;
        /* a fault in the program's code: a message and KJIT_FAULT_EXIT_STATUS
         * instead of a bare signal (declined in sanitizer builds, whose own
         * handler reports it) */
        kjit_install_fault_handler(NULL);
        rc = kjit_call(fn, vals, n, NULL, &err) ? call_failed(m, &err, fmt) : EXIT_OK;
    }
    free(vals);
    if (fflush(stdout) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "kjit: error: cannot write the output: %s\n", strerror(errno));
        rc = EXIT_ERRORS;
    }
    return rc;
}
