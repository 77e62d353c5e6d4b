/* SPDX-License-Identifier: BSD-2-Clause */
/* The environment variables the library reads (docs/cli.md has the table),
 * each checked by kjit_ctx_new: a value a variable does not take is a usage
 * error at once, never a silent default, even where an option overrides the
 * variable or the program never needs it. Paths (KJIT_CACHE_DIR,
 * KJIT_LIBCUDA, CUDA_HOME, ...) take any text: a bad one fails where it is
 * used, with the path in the message. */
#include "api_int.h"

#include "util/env.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>

/* Switches: 1/yes/true/on or 0/no/false/off (util/env.h). Numba's
 * variables of the same meaning are checked too (docs/cli.md "Numba's
 * variables"), even where kjit's, set, wins over them. */
static const char *const flags[] = {"KJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK", "KJIT_NO_CACHE", "KJIT_NO_FUSE",
                                    "KJIT_NO_GRAPHS", "KJIT_NO_SPECIALISE", "KJIT_STATS"};
static const char *const opt_vars[] = {"KJIT_OPT", "NUMBA_OPT"};

/* The launchers' node-local rank, in the order device_ordinal reads them. */
static const char *const local_rank[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"};

bool kj_api_env_flag(const char *name, bool dflt)
{
    char why[160];
    bool v = dflt;
    return kj_env_flag(name, &v, why, sizeof why) == KJ_ENV_SET ? v : dflt;
}

/* One of opt_vars: 0..3, or Numba's "max" (its 3 with more loop passes;
 * here 3). */
static kj_env_status opt_level(const char *name, int *out, char *err, size_t cap)
{
    const char *v = getenv(name);
    if (v && !strcasecmp(v, "max")) {
        *out = 3;
        return KJ_ENV_SET;
    }
    int64_t n = 0;
    kj_env_status st = kj_env_int(name, 0, 3, "an optimisation level (or max)", &n, err, cap);
    if (st == KJ_ENV_SET) *out = (int)n;
    return st;
}

int kj_api_opt_level_from_env(int dflt)
{
    char why[200];
    int v = dflt;
    return opt_level(kj_env_either(opt_vars[0], opt_vars[1]), &v, why, sizeof why) == KJ_ENV_SET ? v : dflt;
}

bool kj_api_device_ordinal(int *out, char *err, size_t cap)
{
    int64_t v = 0;
    kj_env_status st = kj_env_int("KJIT_DEVICE", 0, INT_MAX, "a device ordinal", &v, err, cap);
    if (st == KJ_ENV_BAD) return false;
    if (st == KJ_ENV_SET) {
        *out = (int)v;
        return true;
    }
    for (size_t k = 0; k < sizeof local_rank / sizeof *local_rank; k++) {
        st = kj_env_int(local_rank[k], 0, INT_MAX - 1, "a node-local rank", &v, err, cap);
        if (st == KJ_ENV_BAD) return false;
        if (st == KJ_ENV_SET) {
            *out = -1 - (int)v; /* kj_gpu_open: rank r takes device r % count */
            return true;
        }
    }
    *out = 0;
    return true;
}

/* A size: decimal digits, optionally K, M, G or T (powers of 1024),
 * optionally followed by "iB" or "B": 1073741824, 512M, 1G, 2GiB. */
static bool parse_size(const char *s, uint64_t *out)
{
    const char *p = s;
    uint64_t v = 0;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - 9) / 10) return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    static const char units[] = "KMGT";
    const char *u = *p ? strchr(units, *p) : NULL;
    int shift = u ? 10 * (int)(u - units + 1) : 0;
    if (u) p++;
    if (u && (!strcmp(p, "iB") || !strcmp(p, "B"))) p += strlen(p);
    else if (!u && !strcmp(p, "B")) p++;
    if (*p || v == 0 || (shift && v > UINT64_MAX >> shift)) return false;
    *out = v << shift;
    return true;
}

bool kj_api_cache_max(uint64_t *out, char *err, size_t cap)
{
    const char *v = getenv("KJIT_CACHE_MAX");
    *out = KJ_CACHE_DISK_MAX;
    if (!v || !*v || parse_size(v, out)) return true;
    snprintf(err, cap,
             "KJIT_CACHE_MAX=%s is not a size (expected a positive number of bytes, optionally with K, M, G or T, "
             "e.g. 512M or 2G)",
             v);
    return false;
}

bool kj_api_check_env(kjit_error *err)
{
    char why[256];
    bool b, ok = true;
    int n;
    uint64_t max;
    for (size_t k = 0; k < sizeof flags / sizeof *flags && ok; k++)
        ok = kj_env_flag(flags[k], &b, why, sizeof why) != KJ_ENV_BAD;
    for (size_t k = 0; k < sizeof opt_vars / sizeof *opt_vars && ok; k++)
        ok = opt_level(opt_vars[k], &n, why, sizeof why) != KJ_ENV_BAD;
    int64_t threads; /* Numba's, also where KJIT_NUM_THREADS wins and the pool reads it not */
    ok = ok && kj_env_int("NUMBA_NUM_THREADS", 1, KJ_POOL_MAX_THREADS, "a thread count", &threads, why, sizeof why) !=
                   KJ_ENV_BAD;
    ok = ok && kj_api_device_ordinal(&n, why, sizeof why) && kj_pool_threads_from_env(&n, why, sizeof why) &&
         kj_mpi_check_env(why, sizeof why) &&
         kj_api_cache_max(&max, why, sizeof why);
    if (!ok) kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s", why);
    return ok;
}
