/* SPDX-License-Identifier: BSD-2-Clause */
/* The header protocol: point-to-point messages of a run on the cuda target
 * (docs/scale-out.md), so that device buffers go GPU to GPU between the
 * ranks of one node without a CUDA-aware MPI.
 *
 * Only the sender knows whether its buffer is on the device, and MPI
 * matches a receive before the receiver sees what was sent; so every
 * message starts with a small header, sent on the program's communicator
 * with the program's tag (MPI matches headers exactly as it would have
 * matched the messages, ANY_SOURCE and ANY_TAG included). Then either:
 *
 *   bytes  the payload follows on a duplicate communicator, same tag (MPI
 *          keeps the order of a source's messages with one tag), sent at
 *          once, from host memory or a staging block as before;
 *   ipc    the header carries a CUDA IPC handle of the sender's device
 *          view and an event after the launches that wrote it; the receiver
 *          copies peer to peer (gpu_ipc.c) and acks on the duplicate
 *          communicator; the send completes at the ack, after which the
 *          sender may write its buffer again. When the receiver's GPU
 *          cannot map the sender's memory (another machine, no peer
 *          access), its ack says so and the sender stages the bytes
 *          instead, and sends no more ipc headers to that rank.
 *
 * While a request waits, the others progress: a sender whose ack refused
 * the copy posts its bytes even while its rank waits on something else,
 * so two ranks that receive before they complete their sends never wait
 * for each other. Every rank of a run uses the protocol or none does
 * (mpi.h: kj_mpi_ensure). */
#include "rt_mpi_int.h"

#include "gpu.h"

#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

enum { MAGIC = 0x6b6a6d70, KIND_BYTES = 1, KIND_IPC = 2 };

typedef struct p2p_hdr {
    uint32_t magic, kind;
    int64_t bytes;
    kj_gpu_ipc_desc ipc;
} p2p_hdr;

typedef struct p2p {
    p2p_hdr hdr;                /* sent, or received into */
    int32_t ack;                /* 1: copied; 0: send the bytes */
    kj_mpi_req hreq, preq, areq; /* the header, the payload, the ack */
    bool ipc, acked, posted;    /* a send: an ipc header; its ack came; its payload is posted */
    int slot;                   /* a send's exported event, a receive's fence; -1: none */
    bool checked;
    int64_t peer, tag;
} p2p;

static bool fail_protocol(kj_rt_error *e, int64_t from)
{
    return kj_rt_errorf(e, "RuntimeError",
                        "a message from rank %" PRId64 " without kjit's header (every rank of a run on the cuda "
                        "target must be kjit's)",
                        from);
}

static kj_mpi_buf bytes_of(void *p, size_t n) { return (kj_mpi_buf){p, (int64_t)n, KJ_DT_UINT8}; }

/* A collective's header goes ahead of its payload on the data channel
 * (MPI keeps their order), where no message of the program can match it. */
static kj_mpi_chan header_chan(const mpi_req *q) { return q->coll ? KJ_MPI_CH_DATA : KJ_MPI_CH_USER; }

/* ---- progress ---- */

/* Stage a device send whose receiver could not copy it, and post its bytes. */
static bool send_bytes_instead(kj_rt *rt, mpi_req *q, kj_rt_error *e)
{
    p2p *p = q->p2p;
    if (!kj_rtm_prepare(rt, &q->buf, B_SEND, e)) return false;
    if (!kj_mpi_isend_on(rt->mpi, KJ_MPI_CH_DATA, &q->buf.b, p->peer, p->tag, &p->preq, e)) return false;
    p->posted = true;
    return true;
}

/* Has the ack of ipc send q come? Then its event is free, and if the
 * receiver could not copy, its bytes are posted. */
static bool poll_ack(kj_rt *rt, mpi_req *q, kj_rt_error *e)
{
    p2p *p = q->p2p;
    bool done = false;
    if (p->acked) return true;
    if (!kj_mpi_test(rt->mpi, &p->areq, &done, NULL, NULL, e)) return false;
    if (!done) return true;
    p->acked = true;
    kj_gpu_ipc_release(rt->gpu, p->slot);
    p->slot = -1;
    if (p->ack == 1) return true;
    rt->mpi_run->no_ipc[p->peer] = 1;
    return send_bytes_instead(rt, q, e);
}

/* Look once at every other send waiting for its ack. */
static bool progress(kj_rt *rt, kj_rt_error *e)
{
    kj_rt_mpi_state *s = rt->mpi_run;
    for (size_t k = 0; k < s->n; k++) {
        mpi_req *q = &s->v[k];
        if (q->live && q->p2p && !q->recv && q->p2p->ipc && !poll_ack(rt, q, e)) return false;
    }
    return true;
}

/* Wait for r, making progress on the run's other requests meanwhile. */
static bool await(kj_rt *rt, kj_mpi_req *r, double timeout, int *source, int *tag, kj_rt_error *e)
{
    kj_mpi *m = rt->mpi;
    double end = timeout > 0 ? kj_mpi_wtime(m) + timeout : 0;
    for (;;) {
        bool done = false;
        if (!kj_mpi_test(m, r, &done, source, tag, e)) return false;
        if (done) return true;
        if (!progress(rt, e)) return false;
        if (end > 0 && kj_mpi_wtime(m) > end)
            return kj_rt_errorf(e, "RuntimeError",
                                "not complete after %g s on rank %d (did another rank fail, or call a different "
                                "operation?)",
                                timeout, kj_mpi_rank(m));
        sched_yield();
    }
}

/* ---- sends ---- */

static bool ipc_possible(kj_rt *rt, const mpi_req *q, int64_t dest)
{
    kj_rt_mpi_state *s = rt->mpi_run;
    /* a collective's device buffer goes peer to peer even where its host
     * copy is current too: its receiver reduces or keeps it on the device */
    return q->buf.is_array && rt->gpu && dest != kj_mpi_rank(rt->mpi) && !s->no_ipc[dest] &&
           kj_gpu_mpi_on_device(&q->buf.view, q->coll);
}

static bool start_send(kj_rt *rt, mpi_req *q, kj_rt_error *e)
{
    p2p *p = q->p2p;
    kj_mpi *m = rt->mpi;
    p->hdr.bytes = q->buf.b.count * (int64_t)kj_dtype_size(q->buf.b.dtype);
    if (ipc_possible(rt, q, p->peer)) {
        if ((p->slot = kj_gpu_ipc_export(rt->gpu, &q->buf.view, &p->hdr.ipc, e)) < 0) return false;
        p->ipc = true;
        p->hdr.kind = KIND_IPC;
        q->buf.path = KJ_MPI_IPC;
        kj_mpi_buf a = bytes_of(&p->ack, sizeof p->ack), h = bytes_of(&p->hdr, sizeof p->hdr);
        return kj_mpi_irecv_on(m, KJ_MPI_CH_ACK, &a, p->peer, p->tag, &p->areq, e) &&
               kj_mpi_isend_on(m, header_chan(q), &h, p->peer, p->tag, &p->hreq, e);
    }
    p->hdr.kind = KIND_BYTES;
    if (!kj_rtm_prepare(rt, &q->buf, B_SEND, e)) return false;
    kj_mpi_buf h = bytes_of(&p->hdr, sizeof p->hdr);
    if (!kj_mpi_isend_on(m, header_chan(q), &h, p->peer, p->tag, &p->hreq, e)) return false;
    p->posted = true;
    return kj_mpi_isend_on(m, KJ_MPI_CH_DATA, &q->buf.b, p->peer, p->tag, &p->preq, e);
}

static bool wait_send(kj_rt *rt, mpi_req *q, double timeout, kj_rt_error *e)
{
    p2p *p = q->p2p;
    if (!await(rt, &p->hreq, timeout, NULL, NULL, e)) return false;
    double end = timeout > 0 ? kj_mpi_wtime(rt->mpi) + timeout : 0;
    while (p->ipc && !p->acked) {
        if (!poll_ack(rt, q, e) || !progress(rt, e)) return false;
        if (end > 0 && kj_mpi_wtime(rt->mpi) > end)
            return kj_rt_errorf(e, "RuntimeError", "not complete after %g s on rank %d (did rank %" PRId64
                                " fail, or call a different operation?)", timeout, kj_mpi_rank(rt->mpi), p->peer);
        if (!p->acked) sched_yield();
    }
    return !p->posted || await(rt, &p->preq, timeout, NULL, NULL, e);
}

/* ---- receives ---- */

/* The bytes of the message instead of a copy: the sender is told to send them. */
static bool recv_bytes(kj_rt *rt, mpi_req *q, bool prepared, double timeout, kj_rt_error *e)
{
    p2p *p = q->p2p;
    if (!prepared && !kj_rtm_prepare(rt, &q->buf, B_RECV, e)) return false;
    return kj_mpi_irecv_on(rt->mpi, KJ_MPI_CH_DATA, &q->buf.b, p->peer, p->tag, &p->preq, e) &&
           await(rt, &p->preq, timeout, NULL, NULL, e);
}

/* The bytes of a reduction's contribution (the sender's GPU is out of
 * reach): the last resort, through host memory. The buffer is
 * device-resident (rt_mpi_coll.c takes no other). */
static bool recv_combine_bytes(kj_rt *rt, mpi_req *q, double timeout, kj_rt_error *e)
{
    p2p *p = q->p2p;
    kj_array *v = &q->buf.view;
    size_t n = (size_t)q->buf.b.count * kj_dtype_size(q->buf.b.dtype);
    char *in = malloc(n ? 2 * n : 1);
    if (!in) abort();
    kj_mpi_buf b = {in, q->buf.b.count, q->buf.b.dtype};
    bool ok = kj_mpi_irecv_on(rt->mpi, KJ_MPI_CH_DATA, &b, p->peer, p->tag, &p->preq, e) &&
              await(rt, &p->preq, timeout, NULL, NULL, e) && kj_gpu_view_download(rt->gpu, v, in + n, e);
    if (ok) {
        kj_rtm_combine_host(q->combine, q->buf.b.dtype, in + n, in, q->buf.b.count);
        ok = kj_gpu_view_upload(rt->gpu, v, in + n, e);
    }
    free(in);
    q->buf.path = KJ_MPI_HOST_COPY;
    return ok;
}

static bool send_ack(kj_rt *rt, p2p *p, int32_t ok, double timeout, kj_rt_error *e)
{
    p->ack = ok;
    kj_mpi_buf a = bytes_of(&p->ack, sizeof p->ack);
    return kj_mpi_isend_on(rt->mpi, KJ_MPI_CH_ACK, &a, p->peer, p->tag, &p->areq, e) &&
           await(rt, &p->areq, timeout, NULL, NULL, e);
}

/* An ipc header: copy peer to peer, into the device copy when the receive
 * buffer is device-resident, else into its host memory. */
static bool recv_ipc(kj_rt *rt, mpi_req *q, double timeout, kj_rt_error *e)
{
    p2p *p = q->p2p;
    kj_array *v = &q->buf.view;
    bool dev = kj_gpu_mpi_on_device(v, true);
    if (!dev && !kj_rtm_prepare(rt, &q->buf, B_RECV, e)) return false;
    int r = kj_gpu_ipc_pull(rt->gpu, &p->hdr.ipc, v, dev ? NULL : q->buf.b.data, p->slot, dev ? q->combine : 0, e);
    kj_gpu_ipc_release(rt->gpu, p->slot);
    p->slot = -1;
    if (r < 0) return false;
    if (!send_ack(rt, p, r, timeout, e)) return false;
    if (r == 0 && q->combine) return recv_combine_bytes(rt, q, timeout, e);
    if (r == 0) return recv_bytes(rt, q, !dev, timeout, e);
    q->buf.path = KJ_MPI_IPC;
    if (dev) kj_gpu_mpi_received(v);
    return true;
}

static bool check_size(const mpi_req *q, bool checked, kj_rt_error *e)
{
    const p2p *p = q->p2p;
    int64_t want = q->buf.b.count * (int64_t)kj_dtype_size(q->buf.b.dtype);
    char d[96];
    if (p->hdr.bytes > want)
        return kj_rt_errorf(e, "RuntimeError",
                            "MPI_ERR_TRUNCATE: message truncated (the message is larger than the receive buffer "
                            "of %s)",
                            kj_rtm_describe(&q->buf, d, sizeof d));
    if (checked && p->hdr.bytes != want)
        return kj_rt_errorf(e, "ValueError",
                            "the message from rank %" PRId64 " is %" PRId64 " bytes but the receive buffer is %s",
                            p->peer, p->hdr.bytes, kj_rtm_describe(&q->buf, d, sizeof d));
    return true;
}

static bool wait_recv(kj_rt *rt, mpi_req *q, double timeout, kj_rt_error *e)
{
    p2p *p = q->p2p;
    int source = 0, tag = 0;
    if (!await(rt, &p->hreq, timeout, &source, &tag, e)) return false;
    p->peer = source;
    p->tag = tag;
    if (p->hdr.magic != MAGIC) return fail_protocol(e, source);
    if (!check_size(q, p->checked, e)) return false;
    if (p->hdr.kind == KIND_IPC) return recv_ipc(rt, q, timeout, e);
    if (q->combine) return recv_combine_bytes(rt, q, timeout, e);
    return recv_bytes(rt, q, false, timeout, e);
}

/* ---- requests ---- */

void kj_rtm_p2p_start(kj_rt *rt, mpi_req *q, const void *ptr, int32_t nd, int32_t dt, int64_t peer, int64_t tag,
                      bool checked, int32_t line, int32_t col)
{
    kj_rt_mpi_state *s = rt->mpi_run;
    kj_rt_error e = {0};
    if (!s->no_ipc) {
        s->no_ipc = calloc((size_t)kj_mpi_size(rt->mpi), 1);
        if (!s->no_ipc) abort();
    }
    p2p *p = q->p2p = calloc(1, sizeof *p);
    if (!p) abort();
    *p = (p2p){.hdr = {.magic = MAGIC}, .slot = -1, .checked = checked, .peer = peer, .tag = tag};
    kj_rtm_buf_of(ptr, nd, dt, &q->buf);
    bool ok;
    if (q->recv) {
        q->buf.mode = B_RECV;
        /* the buffer's launches so far precede a copy into it, not later ones */
        if (q->buf.is_array && kj_gpu_mpi_on_device(&q->buf.view, true))
            ok = (p->slot = kj_gpu_ipc_fence(rt->gpu, &q->buf.view, &e)) >= 0;
        else ok = true;
        kj_mpi_buf h = bytes_of(&p->hdr, sizeof p->hdr);
        ok = ok && kj_mpi_irecv_on(rt->mpi, header_chan(q), &h, peer, tag, &p->hreq, &e);
    } else {
        ok = start_send(rt, q, &e);
    }
    if (!ok) {
        kj_rtm_buf_done(rt, &q->buf, false, &(kj_rt_error){0});
        kj_rtm_fail(rt, q->what, &e, line, col);
    }
    q->live = true;
}

void kj_rtm_p2p_wait(kj_rt *rt, mpi_req *q, double timeout, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    bool ok = q->recv ? wait_recv(rt, q, timeout, &e) : wait_send(rt, q, timeout, &e);
    if (!kj_rtm_buf_done(rt, &q->buf, ok, ok ? &e : &(kj_rt_error){0})) ok = false;
    if (ok) kj_rtm_count(rt, &q->buf);
    kj_rtm_p2p_free(q);
    if (!ok) kj_rtm_fail(rt, q->what, &e, line, col);
}

void kj_rtm_p2p_free(mpi_req *q)
{
    free(q->p2p);
    q->p2p = NULL;
}
