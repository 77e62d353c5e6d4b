/* SPDX-License-Identifier: BSD-2-Clause */
/* An exception nothing caught ends `kjit run` as it ends `python3 prog.py`:
 * a traceback on stderr whose last line is `ValueError: message`, and exit
 * status 1. kjit knows the frame that raised (the line and column compiled
 * into the code), not the calls that led there, so the traceback holds that
 * one frame; its function is the `def` enclosing the line in the source. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The source file, NUL-terminated (NULL when it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = NULL;
    size_t n = 0, cap = 0;
    for (size_t r; ; n += r) {
        if (cap - n < 4096) {
            char *t = realloc(s, cap = cap ? 2 * cap : 65536);
            if (!t) { free(s); fclose(f); return NULL; }
            s = t;
        }
        r = fread(s + n, 1, cap - n - 1, f);
        if (!r) break;
    }
    fclose(f);
    s[n] = 0;
    return s;
}

/* Line `k` (1-based) of text: its start, and in *len its length. */
static const char *line_at(const char *text, int k, size_t *len)
{
    const char *p = text;
    for (int i = 1; i < k && p; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p || !*p) return NULL;
    *len = strcspn(p, "\r\n");
    return p;
}

static size_t indent(const char *l, size_t len)
{
    size_t i = 0;
    while (i < len && (l[i] == ' ' || l[i] == '\t')) i++;
    return i;
}

/* The innermost `def` around line k, as Python names the frame. */
static void frame_name(const char *text, int k, char *out, size_t cap)
{
    snprintf(out, cap, "<module>");
    size_t len, ind = SIZE_MAX;
    const char *l = line_at(text, k, &len);
    if (l) ind = indent(l, len) + 1; /* line k itself may be the def (a RecursionError) */
    for (int i = k; i >= 1 && ind > 0; i--) {
        if (!(l = line_at(text, i, &len))) continue;
        size_t d = indent(l, len);
        if (d == len || l[d] == '#' || d >= ind) continue;
        ind = d;
        if (len - d > 4 && !strncmp(l + d, "def ", 4)) {
            size_t b = d + 4, e = b;
            while (b < len && l[b] == ' ') b++, e++;
            while (e < len && l[e] != '(' && l[e] != ' ') e++;
            snprintf(out, cap, "%.*s", (int)(e - b), l + b);
            return;
        }
    }
}

/* Print err (a run-time error at a line of the program) as a traceback. */
void kjit_cli_traceback(const kjit_error *err)
{
    char *text = slurp(err->file);
    char fn[128];
    if (text) frame_name(text, err->line, fn, sizeof fn);
    else snprintf(fn, sizeof fn, "<module>");
    fprintf(stderr, "Traceback (most recent call last):\n  File \"%s\", line %d, in %s\n", err->file, err->line, fn);
    size_t len;
    const char *l = text ? line_at(text, err->line, &len) : NULL;
    if (l) {
        size_t d = indent(l, len);
        fprintf(stderr, "    %.*s\n", (int)(len - d), l + d);
        if (err->col > 0 && (size_t)err->col > d && (size_t)err->col <= len)
            fprintf(stderr, "    %*s^\n", (int)((size_t)err->col - 1 - d), "");
    }
    fprintf(stderr, "%s\n", err->message);
    free(text);
}
