/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit cache [clear]` and `kjit sysinfo [--json]`: clients of the C API's
 * kjit_cache_info_get / kjit_cache_clear / kjit_sysinfo. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `s` as a JSON string (quotes, backslashes and control characters escaped). */
static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

static double mib(uint64_t b) { return (double)b / 1048576.0; }

int kjit_cli_cache(const char *sub, bool json)
{
    kjit_error err = {0};
    kjit_cache_info ci;
    /* first: KJIT_CACHE_MAX=garbage is refused by `clear` too, as by every command */
    if (kjit_cache_info_get(NULL, &ci, &err) != KJIT_OK) {
        fprintf(stderr, "kjit: error: %s\n", err.message);
        return EXIT_USAGE;
    }
    if (sub) { /* clear (main.c refuses other actions) */
        uint64_t n = 0;
        if (kjit_cache_clear(NULL, &n, &err) != KJIT_OK) {
            fprintf(stderr, "kjit: error: %s\n", err.message);
            return EXIT_USAGE;
        }
        printf("removed %llu entries from %s\n", (unsigned long long)n, ci.dir);
        return EXIT_OK;
    }
    if (json) {
        printf("{\"dir\": ");
        json_str(ci.dir);
        printf(", \"entries\": %llu, \"bytes\": %llu, \"max_bytes\": %llu, \"hits\": %llu}\n",
               (unsigned long long)ci.entries, (unsigned long long)ci.bytes, (unsigned long long)ci.max_bytes,
               (unsigned long long)ci.hits);
        return EXIT_OK;
    }
    printf("directory: %s\n", ci.dir[0] ? ci.dir : "none (no KJIT_CACHE_DIR, XDG_CACHE_HOME or HOME)");
    printf("entries:   %llu\n", (unsigned long long)ci.entries);
    printf("size:      %.1f MiB (%llu bytes)\n", mib(ci.bytes), (unsigned long long)ci.bytes);
    printf("bound:     %.1f MiB (KJIT_CACHE_MAX; least recently used entries go first)\n", mib(ci.max_bytes));
    printf("hits:      %llu (entries read from the directory since it was created)\n", (unsigned long long)ci.hits);
    return EXIT_OK;
}

int kjit_cli_sysinfo(bool json)
{
    int n = kjit_sysinfo(NULL, 0);
    kjit_sysinfo_line *v = calloc((size_t)n, sizeof *v);
    if (!v) return EXIT_ERRORS;
    int got = kjit_sysinfo(v, n); /* the same lines, unless a device came or went meanwhile */
    if (got < n) n = got;
    size_t w = 0;
    for (int i = 0; i < n; i++)
        if (strlen(v[i].key) > w) w = strlen(v[i].key);
    if (json) printf("{\n");
    for (int i = 0; i < n; i++) {
        if (json) {
            printf("  ");
            json_str(v[i].key);
            printf(": ");
            json_str(v[i].value);
            printf("%s\n", i + 1 < n ? "," : "");
        } else {
            printf("%s:%*s  %s\n", v[i].key, (int)(w - strlen(v[i].key)), "", v[i].value);
        }
    }
    if (json) printf("}\n");
    free(v);
    return EXIT_OK;
}
