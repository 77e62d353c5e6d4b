/* SPDX-License-Identifier: BSD-2-Clause */
/* Open MPI opened at run time (see mpi.h for the ABI this file assumes). */
#include "mpi.h"

#include "../abi/abi_mpi.h"
#include "../util/env.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Open MPI's ABI ---- */

typedef void *MPI_Comm, *MPI_Datatype, *MPI_Op, *MPI_Errhandler, *MPI_Request;
typedef struct {
    int source, tag, error;
    int cancelled;
    size_t ucount;
} MPI_Status;

enum { MPI_SUCCESS = 0, MPI_MAX_ERROR_STRING = 256 };
#define MPI_IN_PLACE ((void *)1)

/* name, return type, parameters */
#define KJ_MPI_FUNCS(X)                                                                                    \
    X(MPI_Initialized, int, (int *))                                                                       \
    X(MPI_Finalized, int, (int *))                                                                         \
    X(MPI_Init, int, (int *, char ***))                                                                    \
    X(MPI_Finalize, int, (void))                                                                           \
    X(MPI_Abort, int, (MPI_Comm, int))                                                                     \
    X(MPI_Comm_rank, int, (MPI_Comm, int *))                                                               \
    X(MPI_Comm_size, int, (MPI_Comm, int *))                                                               \
    X(MPI_Comm_set_errhandler, int, (MPI_Comm, MPI_Errhandler))                                            \
    X(MPI_Comm_dup, int, (MPI_Comm, MPI_Comm *))                                                           \
    X(MPI_Error_string, int, (int, char *, int *))                                                         \
    X(MPI_Isend, int, (const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *))                \
    X(MPI_Irecv, int, (void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *))                      \
    X(MPI_Ibarrier, int, (MPI_Comm, MPI_Request *))                                                        \
    X(MPI_Ibcast, int, (void *, int, MPI_Datatype, int, MPI_Comm, MPI_Request *))                          \
    X(MPI_Iallreduce, int, (const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request *))     \
    X(MPI_Ireduce, int, (const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Request *))  \
    X(MPI_Wait, int, (MPI_Request *, MPI_Status *))                                                        \
    X(MPI_Test, int, (MPI_Request *, int *, MPI_Status *))                                                 \
    X(MPI_Get_count, int, (const MPI_Status *, MPI_Datatype, int *))                                       \
    X(MPI_Iprobe, int, (int, int, MPI_Comm, int *, MPI_Status *))                                          \
    X(MPI_Wtime, double, (void))

/* The predefined objects whose addresses are handles: dtypes in kj_dtype's order. */
static const char *const DTYPE_SYMS[KJ_DT_COUNT] = {
    [KJ_DT_BOOL] = "ompi_mpi_c_bool",     [KJ_DT_INT8] = "ompi_mpi_int8_t",
    [KJ_DT_INT16] = "ompi_mpi_int16_t",   [KJ_DT_INT32] = "ompi_mpi_int32_t",
    [KJ_DT_INT64] = "ompi_mpi_int64_t",   [KJ_DT_UINT8] = "ompi_mpi_uint8_t",
    [KJ_DT_UINT16] = "ompi_mpi_uint16_t", [KJ_DT_UINT32] = "ompi_mpi_uint32_t",
    [KJ_DT_UINT64] = "ompi_mpi_uint64_t", [KJ_DT_FLOAT32] = "ompi_mpi_float",
    [KJ_DT_FLOAT64] = "ompi_mpi_double",  [KJ_DT_COMPLEX64] = "ompi_mpi_c_float_complex",
    [KJ_DT_COMPLEX128] = "ompi_mpi_c_double_complex",
    [KJ_DT_FLOAT16] = "ompi_mpi_uint16_t", /* Open MPI has no half: its bits move as uint16 (never reduced) */
};

struct kj_mpi {
    void *lib;
#define X(name, ret, params) ret(*name) params;
    KJ_MPI_FUNCS(X)
#undef X
    int (*query_cuda)(void); /* MPIX_Query_cuda_support, absent from builds without CUDA */
    MPI_Comm world;
    MPI_Comm data; /* the header protocol's payloads and acks (a duplicate of world), or NULL */
    MPI_Errhandler errors_return;
    MPI_Op ops[4]; /* by KJ_MPI_OP_* */
    MPI_Datatype dtypes[KJ_DT_COUNT];
    atomic_int refs;
    bool ready, we_initialised, failed;
    int rank, size;
    double timeout_s; /* $KJIT_MPI_TIMEOUT, 0 when unset */
    int force_aware;  /* $KJIT_MPI_CUDA_AWARE: 0, 1, or -1 when unset */
    int ipc;          /* $KJIT_MPI_IPC: 0 (no header protocol, no CUDA IPC), or -1 when unset */
    int64_t coll_min; /* $KJIT_MPI_COLL_MIN: the smallest device collective that goes GPU to GPU, bytes */
    bool aware;       /* MPIX_Query_cuda_support() said 1 (asked once, at MPI_Init) */
    FILE *stats;
    /* KJIT_STATS counters: buffers and bytes per kj_mpi_path */
    atomic_llong messages, bytes, path_n[KJ_MPI_NPATHS], path_bytes[KJ_MPI_NPATHS];
};

__attribute__((format(printf, 3, 4))) static void *failf(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return NULL;
}

static bool resolve(kj_mpi *m, char *err, size_t cap)
{
#define X(name, ret, params)                                                                  \
    if (!(m->name = (ret(*) params)dlsym(m->lib, #name))) {                                   \
        failf(err, cap, "the MPI library has no %s (kjit needs Open MPI 4 or newer)", #name); \
        return false;                                                                         \
    }
    KJ_MPI_FUNCS(X)
#undef X
    m->query_cuda = (int (*)(void))dlsym(m->lib, "MPIX_Query_cuda_support");
    static const char *const syms[] = {"ompi_mpi_comm_world", "ompi_mpi_errors_return", "ompi_mpi_op_sum",
                                       "ompi_mpi_op_max", "ompi_mpi_op_min"};
    void *h[5];
    for (int k = 0; k < 5; k++)
        if (!(h[k] = dlsym(m->lib, syms[k]))) {
            failf(err, cap, "the MPI library has no %s: kjit supports Open MPI's ABI only", syms[k]);
            return false;
        }
    m->world = h[0];
    m->errors_return = h[1];
    m->ops[KJ_MPI_OP_SUM] = h[2];
    m->ops[KJ_MPI_OP_MAX] = h[3];
    m->ops[KJ_MPI_OP_MIN] = h[4];
    for (int k = 0; k < KJ_DT_COUNT; k++)
        if (!(m->dtypes[k] = dlsym(m->lib, DTYPE_SYMS[k]))) {
            failf(err, cap, "the MPI library has no %s", DTYPE_SYMS[k]);
            return false;
        }
    return true;
}

/* Below this size a collective of device arrays is faster staged through
 * host memory than GPU to GPU, whose fixed cost (the peers' events, a
 * kernel, two acks) is about 45 us (H100 pair, benchmarks/mpi/allreduce.sh:
 * the two paths cross between 32 and 64 KiB). */
enum { COLL_MIN_DEFAULT = 64 << 10 };

/* $KJIT_MPI_TIMEOUT (0: unset), $KJIT_MPI_CUDA_AWARE and $KJIT_MPI_IPC (-1: unset),
 * $KJIT_MPI_COLL_MIN; false with the reason in err for a value they do not take. */
static bool read_env(double *timeout_s, int *force_aware, int *ipc, int64_t *coll_min, char *err, size_t cap)
{
    *timeout_s = 0;
    *force_aware = *ipc = -1;
    *coll_min = COLL_MIN_DEFAULT;
    if (kj_env_seconds("KJIT_MPI_TIMEOUT", timeout_s, err, cap) == KJ_ENV_BAD) return false;
    if (kj_env_int("KJIT_MPI_COLL_MIN", 0, INT64_C(1) << 40, "a size in bytes", coll_min, err, cap) == KJ_ENV_BAD)
        return false;
    const char *v = getenv("KJIT_MPI_IPC");
    if (v && *v && strcmp(v, "0") && strcmp(v, "1")) {
        failf(err, cap, "KJIT_MPI_IPC=%.40s: expected 0 (device buffers between ranks through host memory) or 1 "
              "(GPU to GPU through CUDA IPC where the GPUs can, the default)", v);
        return false;
    }
    if (v && *v) *ipc = v[0] == '1';
    const char *aware = getenv("KJIT_MPI_CUDA_AWARE");
    if (!aware || !*aware) return true;
    if (strcmp(aware, "0") && strcmp(aware, "1")) {
        failf(err, cap, "KJIT_MPI_CUDA_AWARE=%.40s: expected 0 (stage device buffers through host memory) or 1 "
              "(pass them to a CUDA-aware MPI)", aware);
        return false;
    }
    *force_aware = aware[0] == '1';
    return true;
}

bool kj_mpi_check_env(char *err, size_t cap)
{
    double t;
    int a, i;
    int64_t c;
    return read_env(&t, &a, &i, &c, err, cap);
}

kj_mpi *kj_mpi_open(FILE *stats, char *err, size_t cap)
{
    /* $KJIT_MPI_LIBRARY names another build of Open MPI (a CUDA-aware one) */
    const char *env = getenv("KJIT_MPI_LIBRARY");
    const char *names[] = {env && *env ? env : "libmpi.so.40", "libmpi.so"};
    kj_mpi *m = calloc(1, sizeof *m);
    if (!m) abort();
    const char *why = "";
    for (size_t k = 0; k < (env && *env ? 1u : 2u) && !m->lib; k++) {
        m->lib = dlopen(names[k], RTLD_NOW | RTLD_GLOBAL);
        if (!m->lib) why = dlerror();
    }
    if (!m->lib) {
        failf(err, cap, "mpi4py: no MPI library found (%s); install Open MPI (apt-get install openmpi-bin)", why);
        free(m);
        return NULL;
    }
    if (!resolve(m, err, cap)) {
        dlclose(m->lib);
        free(m);
        return NULL;
    }
    atomic_init(&m->refs, 1);
    m->stats = stats;
    m->size = 1;
    if (!read_env(&m->timeout_s, &m->force_aware, &m->ipc, &m->coll_min, err, cap)) {
        free(m);
        return NULL; /* the library stays loaded, as at release */
    }
    return m;
}

kj_mpi *kj_mpi_retain(kj_mpi *m)
{
    if (m) atomic_fetch_add(&m->refs, 1);
    return m;
}

void kj_mpi_note_failure(kj_mpi *m)
{
    if (m) m->failed = true;
}

static void print_stats(kj_mpi *m)
{
#define P(k) (long long)m->path_n[k], (long long)m->path_bytes[k]
    fprintf(m->stats,
            "kjit stats: mpi rank %d of %d: %lld messages, %lld bytes; device buffers: direct %lld (%lld bytes), "
            "peer to peer %lld (%lld bytes), pinned staging %lld (%lld bytes), through the host copy %lld (%lld "
            "bytes); host buffers %lld (%lld bytes); the library is %sCUDA-aware%s%s\n",
            m->rank, m->size, (long long)m->messages, (long long)m->bytes, P(KJ_MPI_DIRECT), P(KJ_MPI_IPC),
            P(KJ_MPI_PINNED), P(KJ_MPI_HOST_COPY), P(KJ_MPI_HOST), kj_mpi_cuda_aware(m) ? "" : "not ",
            m->force_aware == 0 ? " (KJIT_MPI_CUDA_AWARE=0)" : "", m->ipc == 0 ? " (KJIT_MPI_IPC=0)" : "");
#undef P
}

void kj_mpi_release(kj_mpi *m)
{
    if (!m || atomic_fetch_sub(&m->refs, 1) != 1) return;
    if (m->ready && m->stats) print_stats(m);
    int fin = 1;
    if (m->ready && m->we_initialised && m->MPI_Finalized(&fin) == MPI_SUCCESS && !fin) {
        /* A failed rank must not wait in MPI_Finalize for ranks that wait
         * for it: end them all (exit status 3, a run-time error's). */
        if (m->failed && m->size > 1) m->MPI_Abort(m->world, 3);
        m->MPI_Finalize();
    }
    /* the library stays loaded: Open MPI cannot be unloaded and loaded again */
    free(m);
}

static bool mpi_fail(kj_mpi *m, int rc, const char *what, kj_rt_error *e)
{
    char s[MPI_MAX_ERROR_STRING + 1] = "";
    int n = 0;
    if (m->MPI_Error_string(rc, s, &n) != MPI_SUCCESS) snprintf(s, sizeof s, "error %d", rc);
    if (!what) return kj_rt_errorf(e, "RuntimeError", "%s", s);
    return kj_rt_errorf(e, "RuntimeError", "%s: %s", what, s);
}

/* KJIT_MPI_CUDA_AWARE=1 with a library that is not: every call fails. */
static bool check_forced(const kj_mpi *m, kj_rt_error *e)
{
    if (m->force_aware != 1 || m->aware) return true;
    return kj_rt_errorf(e, "RuntimeError",
                        "KJIT_MPI_CUDA_AWARE=1 but the MPI library is not CUDA-aware (MPIX_Query_cuda_support() "
                        "is %s); unset it to stage device buffers through host memory, or set KJIT_MPI_LIBRARY to "
                        "a CUDA-aware build of Open MPI",
                        m->query_cuda ? "0" : "absent");
}

bool kj_mpi_ensure(kj_mpi *m, bool headers, kj_rt_error *e)
{
    if (m->ready) return check_forced(m, e);
    int init = 0, fin = 0;
    m->MPI_Initialized(&init);
    m->MPI_Finalized(&fin);
    if (fin) return kj_rt_errorf(e, "RuntimeError", "MPI has been finalized in this process");
    if (!init) {
        int rc = m->MPI_Init(NULL, NULL);
        if (rc != MPI_SUCCESS) return kj_rt_errorf(e, "RuntimeError", "MPI_Init failed (error %d)", rc);
        m->we_initialised = true;
    }
    /* errors come back as codes, turned into kjit errors at the call */
    m->MPI_Comm_set_errhandler(m->world, m->errors_return);
    m->MPI_Comm_rank(m->world, &m->rank);
    m->MPI_Comm_size(m->world, &m->size);
    m->aware = m->query_cuda && m->query_cuda() == 1;
    /* Collective, as MPI_Init is: every rank of a run asks the same (they
     * run one program on one target), at its first MPI call. */
    if (headers && m->ipc != 0 && !(m->force_aware != 0 && m->aware)) {
        int rc = m->MPI_Comm_dup(m->world, &m->data);
        if (rc != MPI_SUCCESS) return mpi_fail(m, rc, "MPI_Comm_dup", e);
    }
    m->ready = true;
    return check_forced(m, e);
}

int kj_mpi_rank(const kj_mpi *m) { return m->rank; }
int kj_mpi_size(const kj_mpi *m) { return m->size; }
double kj_mpi_wtime(const kj_mpi *m) { return m->MPI_Wtime(); }
double kj_mpi_timeout(const kj_mpi *m, bool checked) { return m->timeout_s > 0 ? m->timeout_s : checked ? 60 : 0; }
bool kj_mpi_cuda_aware(kj_mpi *m) { return m->ready && m->aware; }
bool kj_mpi_direct(kj_mpi *m) { return m->force_aware != 0 && kj_mpi_cuda_aware(m); }
bool kj_mpi_headers(const kj_mpi *m) { return m->data != NULL; }

int64_t kj_mpi_coll_min(const kj_mpi *m) { return m->coll_min; }

void kj_mpi_count(kj_mpi *m, int64_t bytes, kj_mpi_path path)
{
    atomic_fetch_add(&m->messages, 1);
    atomic_fetch_add(&m->bytes, bytes);
    atomic_fetch_add(&m->path_n[path], 1);
    atomic_fetch_add(&m->path_bytes[path], bytes);
}

/* MPI counts are ints: a larger buffer is an error, not a silent wrap. */
static bool count_of(const kj_mpi_buf *b, const char *what, int *n, kj_rt_error *e)
{
    if (b->count > INT_MAX)
        return kj_rt_errorf(e, "ValueError", "%s: %" PRId64 " elements is more than MPI's count (int) can hold",
                            what, b->count);
    *n = (int)b->count;
    return true;
}

static bool check_rank(kj_mpi *m, int64_t r, bool any, const char *what, const char *name, kj_rt_error *e)
{
    /* MPI_PROC_NULL (-2) and, for receives, MPI_ANY_SOURCE (-1) are Open MPI's values */
    if ((r >= 0 && r < m->size) || r == -2 || (any && r == -1)) return true;
    return kj_rt_errorf(e, "ValueError", "%s: %s %" PRId64 " is not a rank of COMM_WORLD (size %d)", what, name,
                        r, m->size);
}

static bool check_tag(kj_mpi_chan ch, int64_t tag, bool any, const char *what, kj_rt_error *e)
{
    if ((tag >= 0 && tag <= 32767) || (any && tag == -1) || (ch != KJ_MPI_CH_USER && tag == KJ_MPI_COLL_TAG))
        return true;
    return kj_rt_errorf(e, "ValueError", "%s: tag %" PRId64 " is not in [0, 32767]", what, tag);
}

/* A channel's communicator and tag: the program's messages (and the header
 * protocol's headers) on world, payloads and acks on the duplicate, acks
 * above every tag a program may use (check_tag). */
static MPI_Comm comm_of(const kj_mpi *m, kj_mpi_chan ch, int64_t *tag)
{
    if (ch == KJ_MPI_CH_ACK && *tag >= 0) *tag += 1 << 16;
    return ch == KJ_MPI_CH_USER ? m->world : m->data;
}

bool kj_mpi_isend_on(kj_mpi *m, kj_mpi_chan ch, const kj_mpi_buf *b, int64_t dest, int64_t tag, kj_mpi_req *r,
                     kj_rt_error *e)
{
    int n = 0;
    if (!count_of(b, "MPI_Isend", &n, e) || !check_rank(m, dest, false, "MPI_Isend", "dest", e) ||
        !check_tag(ch, tag, false, "MPI_Isend", e))
        return false;
    MPI_Comm c = comm_of(m, ch, &tag);
    int rc = m->MPI_Isend(b->data, n, m->dtypes[b->dtype], (int)dest, (int)tag, c, r);
    return rc == MPI_SUCCESS || mpi_fail(m, rc, "MPI_Isend", e);
}

bool kj_mpi_irecv_on(kj_mpi *m, kj_mpi_chan ch, const kj_mpi_buf *b, int64_t source, int64_t tag, kj_mpi_req *r,
                     kj_rt_error *e)
{
    int n = 0;
    if (!count_of(b, "MPI_Irecv", &n, e) || !check_rank(m, source, true, "MPI_Irecv", "source", e) ||
        !check_tag(ch, tag, true, "MPI_Irecv", e))
        return false;
    MPI_Comm c = comm_of(m, ch, &tag);
    int rc = m->MPI_Irecv(b->data, n, m->dtypes[b->dtype], (int)source, (int)tag, c, r);
    return rc == MPI_SUCCESS || mpi_fail(m, rc, "MPI_Irecv", e);
}

bool kj_mpi_isend(kj_mpi *m, const kj_mpi_buf *b, int64_t dest, int64_t tag, kj_mpi_req *r, kj_rt_error *e)
{
    return kj_mpi_isend_on(m, KJ_MPI_CH_USER, b, dest, tag, r, e);
}

bool kj_mpi_irecv(kj_mpi *m, const kj_mpi_buf *b, int64_t source, int64_t tag, kj_mpi_req *r, kj_rt_error *e)
{
    return kj_mpi_irecv_on(m, KJ_MPI_CH_USER, b, source, tag, r, e);
}

bool kj_mpi_test(kj_mpi *m, kj_mpi_req *r, bool *done, int *source, int *tag, kj_rt_error *e)
{
    MPI_Status st = {0};
    int flag = 0;
    int rc = m->MPI_Test(r, &flag, &st);
    if (rc != MPI_SUCCESS) return mpi_fail(m, rc, NULL, e);
    *done = flag != 0;
    if (flag && source) *source = st.source;
    if (flag && tag) *tag = st.tag;
    return true;
}

bool kj_mpi_ibarrier(kj_mpi *m, kj_mpi_req *r, kj_rt_error *e)
{
    int rc = m->MPI_Ibarrier(m->world, r);
    return rc == MPI_SUCCESS || mpi_fail(m, rc, "MPI_Ibarrier", e);
}

bool kj_mpi_ibcast(kj_mpi *m, const kj_mpi_buf *b, int64_t root, kj_mpi_req *r, kj_rt_error *e)
{
    int n = 0;
    if (!count_of(b, "MPI_Ibcast", &n, e) || !check_rank(m, root, false, "MPI_Ibcast", "root", e)) return false;
    int rc = m->MPI_Ibcast(b->data, n, m->dtypes[b->dtype], (int)root, m->world, r);
    return rc == MPI_SUCCESS || mpi_fail(m, rc, "MPI_Ibcast", e);
}

static MPI_Op op_of(kj_mpi *m, int op) { return op >= KJ_MPI_OP_SUM && op <= KJ_MPI_OP_MIN ? m->ops[op] : NULL; }

bool kj_mpi_iallreduce(kj_mpi *m, const void *send, const kj_mpi_buf *recv, int op, kj_mpi_req *r,
                       kj_rt_error *e)
{
    int n = 0;
    if (!count_of(recv, "MPI_Iallreduce", &n, e)) return false;
    int rc = m->MPI_Iallreduce(send ? send : MPI_IN_PLACE, recv->data, n, m->dtypes[recv->dtype], op_of(m, op),
                               m->world, r);
    return rc == MPI_SUCCESS || mpi_fail(m, rc, "MPI_Iallreduce", e);
}

bool kj_mpi_ireduce(kj_mpi *m, const void *send, const kj_mpi_buf *recv, int op, int64_t root, kj_mpi_req *r,
                    kj_rt_error *e)
{
    int n = 0;
    if (!count_of(recv, "MPI_Ireduce", &n, e) || !check_rank(m, root, false, "MPI_Ireduce", "root", e))
        return false;
    /* MPI_IN_PLACE is the root's only: elsewhere the buffer is the send buffer */
    const void *s = send ? send : m->rank == root ? MPI_IN_PLACE : recv->data;
    int rc = m->MPI_Ireduce(s, recv->data, n, m->dtypes[recv->dtype], op_of(m, op), (int)root, m->world, r);
    return rc == MPI_SUCCESS || mpi_fail(m, rc, "MPI_Ireduce", e);
}

static bool finish(kj_mpi *m, int rc, const MPI_Status *st, const char *what, kj_dtype dt, int64_t *count,
                   kj_rt_error *e)
{
    (void)what; /* the caller names the call */
    if (rc != MPI_SUCCESS) return mpi_fail(m, rc, NULL, e);
    if (count) {
        int n = 0;
        m->MPI_Get_count(st, m->dtypes[dt], &n);
        *count = n;
    }
    return true;
}

bool kj_mpi_wait(kj_mpi *m, kj_mpi_req *r, const char *what, double timeout_s, kj_dtype dtype, int64_t *count,
                 kj_rt_error *e)
{
    MPI_Status st = {0};
    if (timeout_s <= 0) return finish(m, m->MPI_Wait(r, &st), &st, what, dtype, count, e);
    double end = m->MPI_Wtime() + timeout_s;
    struct timespec nap = {0, 100000}; /* 0.1 ms between polls */
    for (;;) {
        int done = 0;
        int rc = m->MPI_Test(r, &done, &st);
        if (rc != MPI_SUCCESS || done) return finish(m, rc, &st, what, dtype, count, e);
        if (m->MPI_Wtime() > end)
            return kj_rt_errorf(e, "RuntimeError",
                                "not complete after %g s on rank %d (did another rank fail, or call a "
                                "different operation?)",
                                timeout_s, m->rank);
        nanosleep(&nap, NULL);
    }
}

bool kj_mpi_probe(kj_mpi *m, int64_t source, int64_t tag, const char *what, double timeout_s, int64_t *bytes,
                  int *from, kj_rt_error *e)
{
    if (!check_rank(m, source, true, what, "source", e) || !check_tag(KJ_MPI_CH_USER, tag, true, what, e)) return false;
    double end = m->MPI_Wtime() + timeout_s;
    struct timespec nap = {0, 100000};
    for (;;) {
        int found = 0;
        MPI_Status st = {0};
        int rc = m->MPI_Iprobe((int)source, (int)tag, m->world, &found, &st);
        if (rc != MPI_SUCCESS) return mpi_fail(m, rc, what, e);
        if (found) {
            int n = 0;
            m->MPI_Get_count(&st, m->dtypes[KJ_DT_UINT8], &n);
            *bytes = n;
            *from = st.source;
            return true;
        }
        if (timeout_s > 0 && m->MPI_Wtime() > end)
            return kj_rt_errorf(e, "RuntimeError",
                                "%s: no message from rank %" PRId64 " after %g s on rank %d (did that rank fail, "
                                "or send with another tag?)",
                                what, source, timeout_s, m->rank);
        nanosleep(&nap, NULL);
    }
}
