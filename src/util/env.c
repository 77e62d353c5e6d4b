/* SPDX-License-Identifier: BSD-2-Clause */
/* Strict readers of environment variables (env.h). */
#include "env.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The value, or NULL when unset or empty. */
static const char *value(const char *name)
{
    const char *s = getenv(name);
    return s && *s ? s : NULL;
}

const char *kj_env_either(const char *kjit, const char *numba) { return value(kjit) ? kjit : numba; }

kj_env_status kj_env_flag(const char *name, bool *out, char *err, size_t cap)
{
    static const char *const on[] = {"1", "yes", "true", "on"};
    static const char *const off[] = {"0", "no", "false", "off"};
    const char *s = value(name);
    if (!s) return KJ_ENV_UNSET;
    for (size_t i = 0; i < sizeof on / sizeof *on; i++) {
        if (!strcasecmp(s, on[i]) || !strcasecmp(s, off[i])) {
            *out = !strcasecmp(s, on[i]);
            return KJ_ENV_SET;
        }
    }
    snprintf(err, cap, "%s=%.40s is not a known value (use 1/0, yes/no, true/false or on/off)", name, s);
    return KJ_ENV_BAD;
}

kj_env_status kj_env_int(const char *name, int64_t lo, int64_t hi, const char *what, int64_t *out, char *err,
                         size_t cap)
{
    const char *s = value(name);
    if (!s) return KJ_ENV_UNSET;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    /* digits only after an optional '-': strtoll also takes spaces and '+' */
    bool digits = (s[0] >= '0' && s[0] <= '9') || (s[0] == '-' && s[1] >= '0' && s[1] <= '9');
    if (!digits || errno || *end || v < lo || v > hi) {
        snprintf(err, cap, "%s='%.40s' is not %s (expected an integer from %lld to %lld)", name, s, what,
                 (long long)lo, (long long)hi);
        return KJ_ENV_BAD;
    }
    *out = v;
    return KJ_ENV_SET;
}

kj_env_status kj_env_seconds(const char *name, double *out, char *err, size_t cap)
{
    const char *s = value(name);
    if (!s) return KJ_ENV_UNSET;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* decimal only: strtod also reads spaces, hexadecimal, inf and nan */
    bool decimal = strspn(s, "0123456789.eE+-") == strlen(s);
    if (!decimal || end == s || *end || errno || !(v > 0) || !isfinite(v)) {
        snprintf(err, cap, "%s='%.40s' is not a number of seconds (expected a positive number, e.g. 30 or 2.5)",
                 name, s);
        return KJ_ENV_BAD;
    }
    *out = v;
    return KJ_ENV_SET;
}
