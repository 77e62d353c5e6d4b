/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit's environment variables, read strictly: unset or empty means "not
 * given"; any other value the variable does not take is an error naming the
 * variable, the value and what it takes, never a silent default
 * (KJIT_MPI_TIMEOUT=abc is not "no timeout", KJIT_DEVICE=abc not device 0).
 * Every reader of a variable goes through these, and kjit_ctx_new checks
 * them all up front (src/api/kjit.c), so a bad value fails at once. */
#ifndef KJ_ENV_H
#define KJ_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum kj_env_status { KJ_ENV_UNSET, KJ_ENV_SET, KJ_ENV_BAD } kj_env_status;

/* A switch: 1/yes/true/on or 0/no/false/off, in any case. */
kj_env_status kj_env_flag(const char *name, bool *out, char *err, size_t cap);
/* A decimal integer in [lo, hi]; `what` names it in the error ("a device
 * ordinal"). */
kj_env_status kj_env_int(const char *name, int64_t lo, int64_t hi, const char *what, int64_t *out, char *err,
                         size_t cap);
/* Of kjit's variable and Numba's of the same meaning (KJIT_BOUNDSCHECK,
 * NUMBA_BOUNDSCHECK): the name to read, kjit's when it is set (not empty),
 * else Numba's. */
const char *kj_env_either(const char *kjit, const char *numba);
/* A positive, finite number of seconds (decimal or exponent notation). */
kj_env_status kj_env_seconds(const char *name, double *out, char *err, size_t cap);

#endif
