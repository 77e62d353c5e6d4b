/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of Numba's thread-pool API (user/threading-layer.rst, user/
 * parallel.rst "Scheduling"): set_num_threads(n) gives None, the getters an
 * int, set_parallel_chunksize(n) the previous size. parallel_chunksize(n) is
 * a context manager: `with parallel_chunksize(n):` is typed by
 * infer_launch.c's with-statements; any other use is an error here. The
 * lowering is llvm_threads.c, the settings runtime/rt_threads.c. */
#include "builtins_int.h"

/* The integer argument of a setter, with Numba's message when it is not one. */
static bool count_arg(bctx *c, const char *what)
{
    if (kj_is_int(ty(c, 0))) return int_arg(c, 0);
    kj_error(c->d, c->src, span_of(c, 0), "%s must be an integer", what);
    return false;
}

const kj_type *kj_btype_threads(bctx *c)
{
    switch (c->id) {
    case KJ_B_SET_NUM_THREADS: return count_arg(c, "The number of threads specified") ? none(c) : NULL;
    case KJ_B_SET_PAR_CHUNKSIZE: return count_arg(c, "The parallel chunksize") ? i64(c) : NULL;
    case KJ_B_PAR_CHUNKSIZE:
        kj_error(c->d, c->src, c->call, "parallel_chunksize() is a context manager: use it as "
                 "'with parallel_chunksize(n):'");
        return NULL;
    default: return i64(c); /* the getters and numba.config's thread counts */
    }
}
