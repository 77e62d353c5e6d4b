/* SPDX-License-Identifier: BSD-2-Clause */
/* Collectives on device arrays without a round trip through the host
 * (docs/scale-out.md): comm.Bcast, comm.Reduce and comm.Allreduce on the
 * cuda target, when every rank's buffers are device-resident.
 *
 * They are built on the header protocol (rt_mpi_p2p.c), on kjit's own tag
 * and channel, so each message goes GPU to GPU through CUDA IPC where the
 * GPUs reach each other and is staged otherwise:
 *
 *   Bcast      the root sends to every other rank at once; each pulls.
 *   Reduce     every other rank sends to the root, which combines each
 *              contribution into its result in rank order with a kernel that
 *              reads the sender's memory where it is (gpu_combine.c).
 *   Allreduce  Reduce to rank 0, then Bcast from it.
 *
 * Linear in the number of ranks: meant for the GPUs of one node (up to 8),
 * where each step is one peer copy or one kernel. Whether to take this path
 * is agreed first (one 4-byte allreduce): a rank whose buffer is in host
 * memory sends every rank through MPI as before. Sums add in rank order
 * from the root's own buffer, so every rank gets the same bits. */
#include "rt_mpi_int.h"

#include "../abi/abi_mpi.h"
#include "gpu.h"

#include <string.h>

/* This rank's buffer (p, nd, dt) as the device path takes it, or false. */
static bool device_buf(const void *p, int32_t nd, int32_t dt, rbuf *b)
{
    if (!p || nd == 0) return false;
    kj_rtm_buf_of(p, nd, dt, b);
    return kj_gpu_mpi_on_device(&b->view, true);
}

/* Every rank says whether it can; all take the device path or none. */
static bool agreed(kj_rt *rt, bool mine, const char *what, double timeout, int32_t line, int32_t col)
{
    int32_t v = mine;
    kj_mpi_buf b = {&v, 1, KJ_DT_INT32};
    kj_mpi_req r = NULL;
    kj_rt_error e = {0};
    if (!kj_mpi_iallreduce(rt->mpi, NULL, &b, KJ_MPI_OP_MIN, &r, &e) ||
        !kj_mpi_wait(rt->mpi, &r, what, timeout, KJ_DT_INT32, NULL, &e))
        kj_rtm_fail(rt, what, &e, line, col);
    return v == 1;
}

/* Start one message of a collective in q (not one of the program's requests). */
static void start(kj_rt *rt, mpi_req *q, const char *what, bool recv, const void *p, int32_t nd, int32_t dt,
                  int64_t peer, int combine, int32_t line, int32_t col)
{
    memset(q, 0, sizeof *q);
    q->what = what;
    q->recv = recv;
    q->coll = true;
    q->combine = combine;
    kj_rtm_p2p_start(rt, q, p, nd, dt, peer, KJ_MPI_COLL_TAG, false, line, col);
}

static void bcast(kj_rt *rt, const char *what, const void *p, int32_t nd, int32_t dt, int64_t root, double timeout,
                  int32_t line, int32_t col)
{
    int me = kj_mpi_rank(rt->mpi), n = kj_mpi_size(rt->mpi);
    mpi_req q;
    if (me != root) {
        start(rt, &q, what, true, p, nd, dt, root, 0, line, col);
        kj_rtm_p2p_wait(rt, &q, timeout, line, col);
        return;
    }
    mpi_req *qs = calloc((size_t)n, sizeof *qs);
    if (!qs) abort();
    for (int r = 0; r < n; r++)
        if (r != me) start(rt, &qs[r], what, false, p, nd, dt, r, 0, line, col);
    for (int r = 0; r < n; r++)
        if (r != me) kj_rtm_p2p_wait(rt, &qs[r], timeout, line, col);
    free(qs);
}

/* Reduce (send, recv: NULL in place) to root with op. */
static void reduce(kj_rt *rt, const char *what, const void *send, const void *recv, int32_t nd, int32_t dt, int op,
                   int64_t root, double timeout, int32_t line, int32_t col)
{
    int me = kj_mpi_rank(rt->mpi), n = kj_mpi_size(rt->mpi);
    mpi_req q;
    if (me != root) {
        start(rt, &q, what, false, send, nd, dt, root, 0, line, col);
        kj_rtm_p2p_wait(rt, &q, timeout, line, col);
        return;
    }
    const void *dst = recv ? recv : send;
    if (recv) { /* the root's own contribution first */
        rbuf s, d;
        kj_rt_error e = {0};
        kj_rtm_buf_of(send, nd, dt, &s);
        kj_rtm_buf_of(recv, nd, dt, &d);
        if (!kj_gpu_view_combine(rt->gpu, 0, &d.view, &s.view, &e)) kj_rtm_fail(rt, what, &e, line, col);
    }
    for (int r = 0; r < n; r++) {
        if (r == me) continue;
        start(rt, &q, what, true, dst, nd, dt, r, op, line, col);
        kj_rtm_p2p_wait(rt, &q, timeout, line, col);
    }
}

bool kj_rtm_coll_device(kj_rt *rt, coll c, const char *what, const void *a, int32_t a_nd, int32_t adt,
                        const void *b, int32_t bnd, int32_t bdt, int64_t i0, int64_t i1, double timeout,
                        int32_t line, int32_t col)
{
    kj_mpi *m = rt->mpi;
    /* the same on every rank: the program's types, the op, the root (a
     * receive buffer is only the root's business in Reduce: it is checked
     * below, by the ranks that read it, and agreed on) */
    if (!rt->gpu || !kj_mpi_headers(m) || a_nd == 0) return false;
    int64_t root = c == C_BCAST ? i0 : c == C_REDUCE ? i1 : 0;
    if (root < 0 || root >= kj_mpi_size(m)) return false; /* MPI's own error */
    if (c != C_BCAST && !kj_gpu_combine_supported((int)i0, (kj_dtype)adt)) return false;
    rbuf ba, bb;
    kj_rtm_buf_of(a, a_nd, adt, &ba);
    if (ba.b.count * (int64_t)kj_dtype_size(ba.b.dtype) < kj_mpi_coll_min(m)) return false; /* faster staged */
    /* what this rank can do: its buffers on the device, of one size */
    bool mine = device_buf(a, a_nd, adt, &ba);
    if (c != C_BCAST && b) {
        bool root_reads = c == C_ALLREDUCE || kj_mpi_rank(m) == root;
        if (root_reads)
            mine = mine && bnd > 0 && bdt == adt && device_buf(b, bnd, bdt, &bb) && bb.b.count == ba.b.count;
    }
    if (!agreed(rt, mine, what, timeout, line, col)) return false;
    if (c == C_BCAST) {
        bcast(rt, what, a, a_nd, adt, root, timeout, line, col);
        return true;
    }
    reduce(rt, what, a, b, a_nd, adt, (int)i0, root, timeout, line, col);
    if (c == C_ALLREDUCE) bcast(rt, what, b ? b : a, a_nd, adt, 0, timeout, line, col);
    return true;
}

#define COMBINE(T)                                                                                                 \
    do {                                                                                                           \
        T *d = dst;                                                                                                \
        const T *s = src;                                                                                          \
        for (int64_t i = 0; i < n; i++)                                                                            \
            d[i] = op == KJ_MPI_OP_SUM ? (T)(d[i] + s[i]) : op == KJ_MPI_OP_MAX ? (d[i] < s[i] ? s[i] : d[i])      \
                                                                                : (s[i] < d[i] ? s[i] : d[i]);     \
    } while (0)

void kj_rtm_combine_host(int op, kj_dtype dt, void *dst, const void *src, int64_t n)
{
    switch (dt) {
    case KJ_DT_INT8: COMBINE(int8_t); break;
    case KJ_DT_INT16: COMBINE(int16_t); break;
    case KJ_DT_INT32: COMBINE(int32_t); break;
    case KJ_DT_INT64: COMBINE(int64_t); break;
    case KJ_DT_UINT8: COMBINE(uint8_t); break;
    case KJ_DT_UINT16: COMBINE(uint16_t); break;
    case KJ_DT_UINT32: COMBINE(uint32_t); break;
    case KJ_DT_UINT64: COMBINE(uint64_t); break;
    case KJ_DT_FLOAT32: COMBINE(float); break;
    case KJ_DT_FLOAT64: COMBINE(double); break;
    default: break; /* kj_gpu_combine_supported admits no other */
    }
}
