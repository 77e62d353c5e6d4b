/* SPDX-License-Identifier: BSD-2-Clause */
/* The thread pool (src/runtime/pool.h): every task runs exactly once with a
 * worker index in range, many small tasks, nested runs go inline, the
 * pool shuts down with its last reference, the thread count from the
 * environment; and the runtime's parallel loop over it (kj_rt_parallel_for):
 * chunks cover the range, an error raised on a worker comes back to the
 * caller's entry call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/pool.h"
#include "runtime/rt.h"

typedef struct count_ctx {
    atomic_int *hits;      /* per task */
    atomic_int bad_worker; /* tasks that saw a worker index out of range */
    int size;
    kj_pool *pool;         /* for nested runs */
    atomic_int nested_hits;
    atomic_int nested_not_inline;
} count_ctx;

static void count_task(void *p, int64_t task, int worker)
{
    count_ctx *c = p;
    atomic_fetch_add(&c->hits[task], 1);
    if (worker < 0 || worker >= c->size) atomic_fetch_add(&c->bad_worker, 1);
}

static void check_all_once(const count_ctx *c, int64_t n)
{
    for (int64_t t = 0; t < n; t++) assert_int_equal(atomic_load(&c->hits[t]), 1);
    assert_int_equal(atomic_load(&c->bad_worker), 0);
}

static void test_many_small_tasks(void **state)
{
    (void)state;
    enum { N = 200000 };
    kj_pool *p = kj_pool_new(4);
    assert_int_equal(kj_pool_size(p), 4);
    count_ctx c = {.hits = calloc(N, sizeof(atomic_int)), .size = 4};
    for (int round = 0; round < 20; round++) {
        memset(c.hits, 0, N * sizeof(atomic_int));
        kj_pool_run(p, round == 0 ? N : 1000 + round, count_task, &c);
        check_all_once(&c, round == 0 ? N : 1000 + round);
    }
    kj_pool_run(p, 0, count_task, &c); /* nothing */
    kj_pool_release(p);
    free(c.hits);
}

/* Each task runs 10 nested tasks on the same pool: inline, on worker 0 of
 * the nested run, all of them. */
static void nested_inner(void *p, int64_t task, int worker)
{
    (void)task;
    count_ctx *c = p;
    atomic_fetch_add(&c->nested_hits, 1);
    if (worker != 0) atomic_fetch_add(&c->nested_not_inline, 1);
}

static void nested_outer(void *p, int64_t task, int worker)
{
    count_ctx *c = p;
    count_task(p, task, worker);
    kj_pool_run(c->pool, 10, nested_inner, c);
}

static void test_nested_runs_inline(void **state)
{
    (void)state;
    enum { N = 500 };
    kj_pool *p = kj_pool_new(3);
    count_ctx c = {.hits = calloc(N, sizeof(atomic_int)), .size = 3, .pool = p};
    kj_pool_run(p, N, nested_outer, &c);
    check_all_once(&c, N);
    assert_int_equal(atomic_load(&c.nested_hits), N * 10);
    assert_int_equal(atomic_load(&c.nested_not_inline), 0);
    /* the pool is usable again afterwards */
    memset(c.hits, 0, N * sizeof(atomic_int));
    kj_pool_run(p, N, count_task, &c);
    check_all_once(&c, N);
    kj_pool_release(p);
    free(c.hits);
}

/* Workers other than 0 do take tasks when tasks are slow enough. */
static void slow_task(void *p, int64_t task, int worker)
{
    (void)task;
    atomic_int *seen = p;
    atomic_fetch_or(seen, 1 << worker);
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
}

static void test_workers_take_part(void **state)
{
    (void)state;
    kj_pool *p = kj_pool_new(2);
    atomic_int seen = 0;
    kj_pool_run(p, 50, slow_task, &seen);
    assert_int_equal(atomic_load(&seen), 3);
    kj_pool_release(p);
}

/* Pools come and go (threads joined by the last release); references. */
static void test_shutdown(void **state)
{
    (void)state;
    enum { N = 64 };
    count_ctx c = {.hits = calloc(N, sizeof(atomic_int)), .size = 8};
    for (int k = 0; k < 50; k++) {
        kj_pool *p = kj_pool_new(1 + k % 8);
        c.size = kj_pool_size(p);
        kj_pool *q = kj_pool_retain(p);
        if (k % 3) {
            memset(c.hits, 0, N * sizeof(atomic_int));
            kj_pool_run(p, N, count_task, &c);
            check_all_once(&c, N);
        }
        kj_pool_release(p);
        if (k % 2) {
            memset(c.hits, 0, N * sizeof(atomic_int));
            kj_pool_run(q, N, count_task, &c); /* still alive through q */
            check_all_once(&c, N);
        }
        kj_pool_release(q);
    }
    kj_pool_release(NULL);
    free(c.hits);
}

static void test_threads_from_env(void **state)
{
    (void)state;
    char err[200] = "";
    int n = 0;
    unsetenv("KJIT_NUM_THREADS");
    unsetenv("NUMBA_NUM_THREADS");
    assert_true(kj_pool_threads_from_env(&n, err, sizeof err));
    assert_true(n >= 1);
    setenv("NUMBA_NUM_THREADS", "3", 1);
    assert_true(kj_pool_threads_from_env(&n, err, sizeof err));
    assert_int_equal(n, 3);
    setenv("KJIT_NUM_THREADS", "5", 1); /* first */
    assert_true(kj_pool_threads_from_env(&n, err, sizeof err));
    assert_int_equal(n, 5);
    static const char *const bad[] = {"abc", "0", "-2", "4x", "100000"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        setenv("KJIT_NUM_THREADS", bad[k], 1);
        err[0] = 0;
        assert_false(kj_pool_threads_from_env(&n, err, sizeof err));
        assert_non_null(strstr(err, "KJIT_NUM_THREADS="));
        assert_non_null(strstr(err, "is not a thread count"));
    }
    setenv("KJIT_NUM_THREADS", "", 1); /* empty: unset */
    setenv("NUMBA_NUM_THREADS", "x", 1);
    assert_false(kj_pool_threads_from_env(&n, err, sizeof err));
    assert_non_null(strstr(err, "NUMBA_NUM_THREADS='x'"));
    unsetenv("KJIT_NUM_THREADS");
    unsetenv("NUMBA_NUM_THREADS");
}

/* ---- kj_rt_parallel_for ---- */

typedef struct loop_env {
    int64_t *out;      /* out[i] = i * 3 */
    int64_t fail_at;   /* raise IndexError at this index (-1: never) */
    int64_t total;     /* the reduction's result */
    int64_t order[64]; /* chunk begins in the order combined */
    int ncombined;
    atomic_int chunks;
} loop_env;

static void loop_chunk(kj_rt *rt, void *p, int64_t begin, int64_t end, void *acc)
{
    loop_env *e = p;
    atomic_fetch_add(&e->chunks, 1);
    int64_t sum = 0;
    for (int64_t i = begin; i < end; i++) {
        if (i == e->fail_at) kj_rt_raise_index(rt, i, 0, e->fail_at, 7, (int32_t)(i % 1000));
        e->out[i] = i * 3;
        sum += i;
    }
    if (acc) {
        ((int64_t *)acc)[0] = sum;
        ((int64_t *)acc)[1] = begin;
    }
}

static void loop_combine(kj_rt *rt, void *p, void *acc)
{
    (void)rt;
    loop_env *e = p;
    e->total += ((int64_t *)acc)[0];
    if (e->ncombined < 64) e->order[e->ncombined++] = ((int64_t *)acc)[1];
}

typedef struct loop_call {
    loop_env *e;
    int64_t n, min_chunk;
} loop_call;

static void loop_entry(kj_rt *rt, void **args, void *ret)
{
    (void)ret;
    loop_call *c = (loop_call *)args;
    kj_rt_parallel_for(rt, loop_chunk, c->e, c->n, c->min_chunk, 16, loop_combine);
}

static kj_rt_kind run_loop(kj_pool *pool, loop_env *e, int64_t n, int64_t min_chunk, kj_rt *rt)
{
    kj_rt_init(rt, "loop.k");
    rt->pool = pool;
    loop_call c = {e, n, min_chunk};
    return kj_rt_call_entry(rt, loop_entry, (void **)&c, NULL);
}

static void test_parallel_for(void **state)
{
    (void)state;
    enum { N = 100003 };
    kj_pool *pool = kj_pool_new(4);
    loop_env e = {.out = calloc(N, sizeof(int64_t)), .fail_at = -1};
    kj_rt rt;
    assert_int_equal(run_loop(pool, &e, N, 1, &rt), KJ_RT_OK);
    for (int64_t i = 0; i < N; i++) assert_int_equal(e.out[i], i * 3);
    assert_int_equal(e.total, (int64_t)N * (N - 1) / 2);
    assert_int_equal(atomic_load(&e.chunks), 16); /* 4 per thread */
    assert_int_equal(e.ncombined, 16);
    for (int k = 1; k < e.ncombined; k++) assert_true(e.order[k] > e.order[k - 1]); /* chunk order */
    kj_rt_dispose(&rt);

    /* small: one chunk, inline */
    e = (loop_env){.out = e.out, .fail_at = -1};
    assert_int_equal(run_loop(pool, &e, 100, 1000, &rt), KJ_RT_OK);
    assert_int_equal(atomic_load(&e.chunks), 1);
    assert_int_equal(e.total, 4950);
    kj_rt_dispose(&rt);

    /* an error on a worker comes back to the caller's entry call */
    for (int rep = 0; rep < 20; rep++) {
        e = (loop_env){.out = e.out, .fail_at = 70001};
        assert_int_equal(run_loop(pool, &e, N, 1, &rt), KJ_RT_INDEX);
        assert_int_equal(rt.line, 7);
        assert_int_equal(rt.col, 1);
        assert_non_null(strstr(rt.message, "index 70001 is out of bounds"));
        assert_int_equal(e.ncombined, 0); /* no combining after an error */
        kj_rt_dispose(&rt);
    }
    /* the same loop without a pool: serial, the same error */
    e = (loop_env){.out = e.out, .fail_at = 70001};
    assert_int_equal(run_loop(NULL, &e, N, 1, &rt), KJ_RT_INDEX);
    assert_int_equal(atomic_load(&e.chunks), 1);
    kj_rt_dispose(&rt);
    free(e.out);
    kj_pool_release(pool);
}

/* A worker's context owns nothing of its parent's run (issue 22, point 1):
 * the parent's spare memory, events, streams, arrays and MPI requests stay
 * the parent's. Each worker's entry call releases what its context holds
 * after every chunk, so a copied spare list was freed once per worker and
 * again by the parent (a double free from a loop that dropped a large
 * array before a prange). */
typedef struct own_env {
    const kj_rt *parent;
    atomic_int foreign; /* chunks on a worker that saw any of the parent's state */
    atomic_int on_workers;
} own_env;

static void own_chunk(kj_rt *rt, void *p, int64_t begin, int64_t end, void *acc)
{
    (void)begin, (void)end, (void)acc;
    own_env *e = p;
    if (rt == e->parent) return;
    atomic_fetch_add(&e->on_workers, 1);
    if (rt->nspare || rt->spare[0].data || rt->mpi_run || rt->events || rt->streams || rt->jb == e->parent->jb ||
        (rt->arrays && rt->arrays == e->parent->arrays) || !rt->in_parallel || rt->pool != e->parent->pool ||
        rt->out != e->parent->out || rt->file != e->parent->file)
        atomic_fetch_add(&e->foreign, 1);
}

static void own_entry(kj_rt *rt, void **args, void *ret)
{
    (void)ret;
    own_env *e = (own_env *)args;
    rt->spare[0] = (struct kj_rt_spare){malloc(1 << 22), 1 << 22}; /* what kj_rt_collect leaves */
    rt->nspare = 1;
    for (int rep = 0; rep < 3; rep++) kj_rt_parallel_for(rt, own_chunk, e, 1000, 1, 0, NULL);
}

static void test_workers_own_nothing_of_parent(void **state)
{
    (void)state;
    kj_pool *pool = kj_pool_new(4);
    kj_rt rt;
    kj_rt_init(&rt, "own.k");
    rt.pool = pool;
    own_env e = {.parent = &rt};
    assert_int_equal(kj_rt_call_entry(&rt, own_entry, (void **)&e, NULL), KJ_RT_OK);
    assert_true(atomic_load(&e.on_workers) > 0);
    assert_int_equal(atomic_load(&e.foreign), 0);
    assert_int_equal(rt.nspare, 0); /* freed once, by the parent's entry call */
    kj_rt_dispose(&rt);
    kj_pool_release(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_small_tasks),
        cmocka_unit_test(test_nested_runs_inline),
        cmocka_unit_test(test_workers_take_part),
        cmocka_unit_test(test_shutdown),
        cmocka_unit_test(test_threads_from_env),
        cmocka_unit_test(test_parallel_for),
        cmocka_unit_test(test_workers_own_nothing_of_parent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
