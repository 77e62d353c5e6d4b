/* SPDX-License-Identifier: BSD-2-Clause */
/* mpi4py's API for generated code (docs/scale-out.md): kj_rt_mpi, one entry
 * for every communicator method, over the library binding of mpi.c.
 *
 * Buffers are operands (src/abi/rtfns.def): an array descriptor of any dtype, or a
 * scalar in memory (comm.allreduce(x), comm.bcast(x)). A buffer that is not
 * C-contiguous (a halo column a[:, 0], a strided view) goes through a
 * contiguous temporary: packed before a send, unpacked after a receive (at
 * the Wait of an Irecv). mpi4py refuses such buffers; kjit accepts them,
 * a deliberate extension. Requests live in the run's table and are freed
 * with the run. */
#include "rt_mpi_int.h"

#include "../abi/abi.h"
#include "../abi/abi_mpi.h"
#include "gpu.h"
#include "rt_host.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void kj_rt_mpi_free(kj_rt *rt)
{
    kj_rt_mpi_state *s = rt->mpi_run;
    if (!s) return;
    for (size_t k = 0; k < s->n; k++) {
        free(s->v[k].buf.tmp);
        kj_rtm_p2p_free(&s->v[k]);
        kj_array_release(s->v[k].keep);
    }
    free(s->no_ipc);
    for (size_t k = 0; k < s->npins; k++) kj_gpu_pinned_free(rt->gpu, s->pins[k].p);
    free(s->v);
    free(s->pins);
    free(s);
    rt->mpi_run = NULL;
}

_Noreturn void kj_rtm_fail(kj_rt *rt, const char *what, const kj_rt_error *e, int32_t line, int32_t col)
{
    kj_rt_error x = {.exc = e->exc};
    /* the call's name, then as much of the message as fits */
    size_t n = (size_t)snprintf(x.message, sizeof x.message, "%s: ", what);
    if (n < sizeof x.message) memcpy(x.message + n, e->message, strnlen(e->message, sizeof x.message - n - 1));
    kj_rt_raise_error(rt, &x, line, col);
}

/* ---- staging blocks ---- */

/* A free block of at least n bytes (its index, -1 with e on failure). */
int kj_rtm_pin_take(kj_rt *rt, size_t n, kj_rt_error *e)
{
    kj_rt_mpi_state *s = rt->mpi_run;
    size_t k = s->npins;
    for (size_t j = 0; j < s->npins; j++) {
        if (s->pins[j].busy) continue;
        if (s->pins[j].bytes >= n) {
            s->pins[j].busy = true;
            return (int)j;
        }
        if (k == s->npins) k = j; /* a free block too small: grown below */
    }
    if (k == s->npins) {
        if (s->npins == s->cap_pins) {
            s->cap_pins = s->cap_pins ? 2 * s->cap_pins : 4;
            s->pins = realloc(s->pins, s->cap_pins * sizeof *s->pins);
            if (!s->pins) abort();
        }
        s->pins[s->npins++] = (pin_block){0};
    }
    pin_block *b = &s->pins[k];
    kj_gpu_pinned_free(rt->gpu, b->p);
    size_t want = n < 4096 ? 4096 : n;
    if (want < 2 * b->bytes) want = 2 * b->bytes; /* grow geometrically */
    b->bytes = 0;
    if (!(b->p = kj_gpu_pinned_alloc(rt->gpu, want, e))) return -1;
    b->bytes = want;
    b->busy = true;
    return (int)k;
}

/* ---- buffers ---- */

/* Copy between the strided array d and the contiguous bytes at c (C order):
 * pack (array → c) or unpack (c → array). */
static char *copy_dims(const kj_abi_array *d, int nd, int k, char *at, char *c, size_t isz, bool pack)
{
    int64_t n = kj_abi_array_shape(d, nd, k), st = kj_abi_array_stride(d, nd, k);
    for (int64_t i = 0; i < n; i++, at += st) {
        if (k + 1 < nd) {
            c = copy_dims(d, nd, k + 1, at, c, isz, pack);
            continue;
        }
        if (pack) memcpy(c, at, isz);
        else memcpy(at, c, isz);
        c += isz;
    }
    return c;
}

static bool c_contiguous(const kj_abi_array *d, int nd, size_t isz)
{
    int64_t want = (int64_t)isz;
    for (int k = nd - 1; k >= 0; k--) {
        int64_t n = kj_abi_array_shape(d, nd, k);
        if (n == 0) return true;
        if (n != 1 && kj_abi_array_stride(d, nd, k) != want) return false;
        want *= n;
    }
    return true;
}

static size_t nbytes(const rbuf *b) { return (size_t)b->b.count * kj_dtype_size(b->b.dtype); }

/* The operand (p, nd, dt) as a buffer: its elements, not yet where MPI
 * takes them (prepare does that). */
void kj_rtm_buf_of(const void *p, int32_t nd, int32_t dt, rbuf *out)
{
    memset(out, 0, sizeof *out);
    out->b.dtype = (kj_dtype)dt;
    out->nd = nd;
    out->mode = B_NONE;
    out->pin = -1;
    if (nd == 0) { /* a scalar in memory */
        out->b.data = (void *)p;
        out->b.count = 1;
        return;
    }
    out->is_array = true;
    memcpy(&out->desc, p, kj_abi_array_bytes(nd));
    kj_rt_header(&out->view, p, nd, dt);
    int64_t count = 1;
    for (int k = 0; k < nd; k++) count *= kj_abi_array_shape(&out->desc, nd, k);
    out->b.count = count;
    out->b.data = kj_abi_array_data(&out->desc);
}

/* A device-resident view: straight to a CUDA-aware MPI, else through a
 * staging block (filled now for a send). */
static bool prepare_device(kj_rt *rt, rbuf *o, kj_rt_error *e)
{
    if (kj_mpi_direct(rt->mpi)) {
        o->path = KJ_MPI_DIRECT;
        return kj_gpu_mpi_device_ptr(rt->gpu, &o->view, &o->b.data, e);
    }
    o->path = KJ_MPI_PINNED;
    if ((o->pin = kj_rtm_pin_take(rt, nbytes(o), e)) < 0) return false;
    o->b.data = rt->mpi_run->pins[o->pin].p;
    return o->mode == B_RECV || kj_gpu_view_download(rt->gpu, &o->view, o->b.data, e);
}

/* Make b's bytes what MPI may read, where it takes them, for `mode`: a
 * device-resident view on the device (gpu.h), any other array through its
 * host copy, made current (and the device copy stale, for a receive) as for
 * host code; a strided one through a packed temporary. */
bool kj_rtm_prepare(kj_rt *rt, rbuf *o, bmode mode, kj_rt_error *e)
{
    o->mode = mode;
    o->path = KJ_MPI_HOST;
    if (!o->is_array || mode == B_NONE) return true;
    kj_array *v = &o->view;
    bool writes = mode != B_SEND;
    if (rt->gpu && kj_gpu_mpi_on_device(v, writes)) return prepare_device(rt, o, e);
    if (v->base && v->base->mirror) o->path = KJ_MPI_HOST_COPY;
    if (v->base && !kj_gpu_host_access(v->base, writes, e)) return false;
    size_t isz = kj_dtype_size(o->b.dtype);
    if (c_contiguous(&o->desc, o->nd, isz)) return true;
    o->tmp = malloc(o->b.count ? nbytes(o) : 1);
    if (!o->tmp)
        return kj_rt_errorf(e, "MemoryError", "no memory for a packed copy of %" PRId64 " elements", o->b.count);
    o->b.data = o->tmp;
    if (mode != B_RECV) copy_dims(&o->desc, o->nd, 0, kj_abi_array_data(&o->desc), o->tmp, isz, true);
    return true;
}

static void buf_with(kj_rt *rt, const void *p, int32_t nd, int32_t dt, bmode mode, rbuf *out, const char *what,
                     int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    kj_rtm_buf_of(p, nd, dt, out);
    if (!kj_rtm_prepare(rt, out, mode, &e)) kj_rtm_fail(rt, what, &e, line, col);
}

/* After MPI is done with b (`ok`: it succeeded): what it received into the
 * array (unpacked, uploaded, or the device copy marked the valid one), and
 * the temporary and staging block given back. */
bool kj_rtm_buf_done(kj_rt *rt, rbuf *b, bool ok, kj_rt_error *e)
{
    bool received = ok && (b->mode == B_RECV || b->mode == B_BOTH);
    bool done = true;
    if (received && b->path == KJ_MPI_DIRECT) kj_gpu_mpi_received(&b->view);
    if (received && b->path == KJ_MPI_PINNED) done = kj_gpu_view_upload(rt->gpu, &b->view, b->b.data, e);
    if (received && b->tmp)
        copy_dims(&b->desc, b->nd, 0, kj_abi_array_data(&b->desc), b->tmp, kj_dtype_size(b->b.dtype), false);
    free(b->tmp);
    b->tmp = NULL;
    if (b->pin >= 0) rt->mpi_run->pins[b->pin].busy = false;
    b->pin = -1;
    return done;
}

const char *kj_rtm_describe(const rbuf *b, char *s, size_t cap)
{
    snprintf(s, cap, "%" PRId64 " %s (%" PRId64 " bytes)", b->b.count, kj_dtype_name(b->b.dtype),
             b->b.count * (int64_t)kj_dtype_size(b->b.dtype));
    return s;
}

/* ---- the run's state ---- */

static kj_mpi *need(kj_rt *rt, const char *what, int32_t line, int32_t col)
{
    kj_rt_error e = {0};
    if (!rt->mpi) {
        kj_rt_errorf(&e, "RuntimeError", "MPI is not available here (the program does not import mpi4py)");
        kj_rtm_fail(rt, what, &e, line, col);
    }
    if (!kj_mpi_ensure(rt->mpi, rt->gpu != NULL, &e)) kj_rtm_fail(rt, what, &e, line, col);
    if (!rt->mpi_run) {
        rt->mpi_run = calloc(1, sizeof *rt->mpi_run);
        if (!rt->mpi_run) abort();
    }
    return rt->mpi;
}

static int64_t new_req(kj_rt *rt)
{
    kj_rt_mpi_state *s = rt->mpi_run;
    for (size_t k = 0; k < s->n; k++)
        if (!s->v[k].live) {
            memset(&s->v[k], 0, sizeof *s->v); /* its buffer, state and array went at its wait */
            return (int64_t)k + 1;
        }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) abort();
    }
    memset(&s->v[s->n], 0, sizeof *s->v);
    return (int64_t)++s->n;
}

void kj_rtm_count(kj_rt *rt, const rbuf *b)
{
    kj_mpi_count(rt->mpi, (int64_t)nbytes(b), b->path);
}

/* Wait for request h (1-based), unpack what it received. A request already
 * completed returns at once, as in mpi4py (it is then MPI_REQUEST_NULL). */
static void wait_req(kj_rt *rt, int64_t h, double timeout, int32_t line, int32_t col)
{
    kj_rt_mpi_state *s = rt->mpi_run;
    if (h < 1 || (size_t)h > s->n) {
        kj_rt_error e;
        kj_rt_errorf(&e, "RuntimeError", "not a request of this run");
        kj_rtm_fail(rt, "Request.Wait", &e, line, col);
    }
    if (!s->v[h - 1].live) return;
    mpi_req *q = &s->v[h - 1];
    kj_rt_error e = {0};
    q->live = false;
    if (q->p2p) {
        kj_rtm_p2p_wait(rt, q, timeout, line, col);
        kj_array_release(q->keep);
        q->keep = NULL;
        return;
    }
    bool ok = kj_mpi_wait(rt->mpi, &q->req, q->what, timeout, q->buf.b.dtype, NULL, &e);
    if (!kj_rtm_buf_done(rt, &q->buf, ok, ok ? &e : &(kj_rt_error){0})) ok = false;
    kj_array_release(q->keep);
    q->keep = NULL;
    if (!ok) {
        char d[96];
        if (q->recv && strstr(e.message, "truncat"))
            snprintf(e.message + strlen(e.message), sizeof e.message - strlen(e.message),
                     " (the message is larger than the receive buffer of %s)", kj_rtm_describe(&q->buf, d, sizeof d));
        kj_rtm_fail(rt, q->what, &e, line, col);
    }
}

/* Start a send or receive of the operand as a request of the run's table. */
static int64_t start(kj_rt *rt, bool recv, const char *what, const void *p, int32_t nd, int32_t dt, int64_t peer,
                     int64_t tag, bool checked, int32_t line, int32_t col)
{
    int64_t h = new_req(rt);
    mpi_req *q = &rt->mpi_run->v[h - 1];
    q->what = what;
    q->recv = recv;
    if (kj_mpi_headers(rt->mpi) && peer != -2) {
        kj_rtm_p2p_start(rt, q, p, nd, dt, peer, tag, checked, line, col);
        q->keep = q->buf.is_array && q->buf.view.base ? kj_array_retain(q->buf.view.base) : NULL;
        return h;
    }
    /* MPI.PROC_NULL: nothing moves, so nothing is staged or made current */
    buf_with(rt, p, nd, dt, peer == -2 ? B_NONE : recv ? B_RECV : B_SEND, &q->buf, what, line, col);
    kj_rt_error e = {0};
    bool ok = recv ? kj_mpi_irecv(rt->mpi, &q->buf.b, peer, tag, &q->req, &e)
                   : kj_mpi_isend(rt->mpi, &q->buf.b, peer, tag, &q->req, &e);
    if (!ok) {
        kj_rtm_buf_done(rt, &q->buf, false, &(kj_rt_error){0});
        kj_rtm_fail(rt, what, &e, line, col);
    }
    q->live = true;
    q->keep = q->buf.is_array && q->buf.view.base ? kj_array_retain(q->buf.view.base) : NULL;
    kj_rtm_count(rt, &q->buf);
    return h;
}

/* --boundscheck: the incoming message must have the receive buffer's size
 * (MPI itself only refuses a larger one, and never a dtype). Returns the
 * sender, so that the receive takes the message that was probed. */
static int64_t check_incoming(kj_rt *rt, const char *what, const void *p, int32_t nd, int32_t dt, int64_t source,
                              int64_t tag, double timeout, int32_t line, int32_t col)
{
    rbuf b;
    int64_t bytes = 0;
    int from = 0;
    kj_rt_error e = {0};
    if (!kj_mpi_probe(rt->mpi, source, tag, what, timeout, &bytes, &from, &e)) kj_rtm_fail(rt, what, &e, line, col);
    if (source == -2) return source; /* MPI_PROC_NULL: nothing comes */
    kj_rtm_buf_of(p, nd, dt, &b);
    int64_t want = b.b.count * (int64_t)kj_dtype_size(b.b.dtype);
    if (bytes == want) return from;
    char d[96];
    kj_rt_errorf(&e, "ValueError", "the message from rank %d is %" PRId64 " bytes but the receive buffer is %s",
                 from, bytes, kj_rtm_describe(&b, d, sizeof d));
    kj_rtm_fail(rt, what, &e, line, col);
}

/* A collective: start it, then wait. */

static void collective(kj_rt *rt, coll c, const char *what, const void *a, int32_t a_nd, int32_t adt,
                       const void *b, int32_t bnd, int32_t bdt, int64_t i0, int64_t i1, double timeout, int32_t line,
                       int32_t col)
{
    kj_mpi *m = rt->mpi;
    rbuf send = {.mode = B_NONE, .pin = -1}, recv = {.mode = B_NONE, .pin = -1};
    kj_mpi_req r = NULL;
    kj_rt_error e = {0};
    bool ok = true;
    if (c != C_BARRIER && kj_rtm_coll_device(rt, c, what, a, a_nd, adt, b, bnd, bdt, i0, i1, timeout, line, col))
        return;
    if (c == C_BARRIER) {
        ok = kj_mpi_ibarrier(m, &r, &e);
    } else if (c == C_BCAST) {
        bool root = kj_mpi_rank(m) == i0; /* sent at the root, received elsewhere */
        buf_with(rt, a, a_nd, adt, root ? B_SEND : B_RECV, &recv, what, line, col);
        ok = kj_mpi_ibcast(m, &recv.b, i0, &r, &e);
    } else {
        bool in_place = b == NULL, root = c == C_ALLREDUCE || kj_mpi_rank(m) == i1;
        /* Reduce: the result only at the root; in place elsewhere the buffer is only sent */
        if (in_place) buf_with(rt, a, a_nd, adt, root ? B_BOTH : B_SEND, &recv, what, line, col);
        else {
            buf_with(rt, a, a_nd, adt, B_SEND, &send, what, line, col);
            buf_with(rt, b, bnd, bdt, root ? B_RECV : B_NONE, &recv, what, line, col);
            if (send.b.count != recv.b.count || send.b.dtype != recv.b.dtype) {
                char s1[96], s2[96];
                kj_rt_errorf(&e, "ValueError", "the send buffer is %s but the receive buffer is %s",
                             kj_rtm_describe(&send, s1, sizeof s1), kj_rtm_describe(&recv, s2, sizeof s2));
                ok = false;
            }
        }
        if (ok)
            ok = c == C_ALLREDUCE ? kj_mpi_iallreduce(m, in_place ? NULL : send.b.data, &recv.b, (int)i0, &r, &e)
                                  : kj_mpi_ireduce(m, in_place ? NULL : send.b.data, &recv.b, (int)i0, i1, &r, &e);
    }
    if (ok) {
        kj_rtm_count(rt, &recv);
        ok = kj_mpi_wait(m, &r, what, timeout, recv.b.dtype, NULL, &e);
    }
    kj_rtm_buf_done(rt, &send, false, &(kj_rt_error){0});
    if (!kj_rtm_buf_done(rt, &recv, ok, ok ? &e : &(kj_rt_error){0})) ok = false;
    if (!ok) kj_rtm_fail(rt, what, &e, line, col);
}

static const char *const NAMES[] = {
    [KJ_MPI_GET_RANK] = "comm.Get_rank", [KJ_MPI_GET_SIZE] = "comm.Get_size", [KJ_MPI_BARRIER] = "comm.Barrier",
    [KJ_MPI_SEND] = "comm.Send",         [KJ_MPI_RECV] = "comm.Recv",         [KJ_MPI_ISEND] = "comm.Isend",
    [KJ_MPI_IRECV] = "comm.Irecv",       [KJ_MPI_SENDRECV] = "comm.Sendrecv", [KJ_MPI_BCAST] = "comm.Bcast",
    [KJ_MPI_ALLREDUCE] = "comm.Allreduce", [KJ_MPI_REDUCE] = "comm.Reduce",   [KJ_MPI_WAIT] = "Request.Wait",
    [KJ_MPI_WAITALL] = "MPI.Request.Waitall",
};

int64_t kj_rt_mpi(kj_rt *rt, int32_t op, const void *a, int32_t a_nd, int32_t adt, const void *b, int32_t bnd,
                  int32_t bdt, int64_t i0, int64_t i1, int64_t i2, int64_t i3, int32_t line, int32_t col)
{
    bool checked = op & KJ_MPI_CHECKED;
    op &= ~KJ_MPI_CHECKED;
    const char *what = op >= 0 && op <= KJ_MPI_WAITALL ? NAMES[op] : "MPI";
    kj_mpi *m = need(rt, what, line, col);
    double timeout = kj_mpi_timeout(m, checked);
    switch ((kj_abi_mpi_op)op) {
    case KJ_MPI_GET_RANK: return kj_mpi_rank(m);
    case KJ_MPI_GET_SIZE: return kj_mpi_size(m);
    case KJ_MPI_SEND: wait_req(rt, start(rt, false, what, a, a_nd, adt, i0, i1, false, line, col), timeout, line, col); return 0;
    case KJ_MPI_RECV:
        if (checked && !kj_mpi_headers(m)) i0 = check_incoming(rt, what, a, a_nd, adt, i0, i1, timeout, line, col);
        wait_req(rt, start(rt, true, what, a, a_nd, adt, i0, i1, checked, line, col), timeout, line, col);
        return 0;
    case KJ_MPI_ISEND: return start(rt, false, what, a, a_nd, adt, i0, i1, false, line, col);
    case KJ_MPI_IRECV: return start(rt, true, what, a, a_nd, adt, i0, i1, checked, line, col);
    case KJ_MPI_SENDRECV: {
        int64_t s = start(rt, false, what, a, a_nd, adt, i0, i1, false, line, col);
        if (checked && !kj_mpi_headers(m)) i2 = check_incoming(rt, what, b, bnd, bdt, i2, i3, timeout, line, col);
        int64_t r = start(rt, true, what, b, bnd, bdt, i2, i3, checked, line, col);
        wait_req(rt, r, timeout, line, col);
        wait_req(rt, s, timeout, line, col);
        return 0;
    }
    case KJ_MPI_WAIT: wait_req(rt, i0, timeout, line, col); return 0;
    case KJ_MPI_WAITALL:
        for (int64_t k = 0; k < i0; k++) wait_req(rt, ((const int64_t *)a)[k], timeout, line, col);
        return 0;
    case KJ_MPI_BARRIER: collective(rt, C_BARRIER, what, NULL, 0, 0, NULL, 0, 0, 0, 0, timeout, line, col); return 0;
    case KJ_MPI_BCAST: collective(rt, C_BCAST, what, a, a_nd, adt, NULL, 0, 0, i0, 0, timeout, line, col); return 0;
    case KJ_MPI_ALLREDUCE:
        collective(rt, C_ALLREDUCE, what, a, a_nd, adt, b, bnd, bdt, i0, 0, timeout, line, col);
        return 0;
    case KJ_MPI_REDUCE:
        collective(rt, C_REDUCE, what, a, a_nd, adt, b, bnd, bdt, i0, i1, timeout, line, col);
        return 0;
    }
    return 0;
}

double kj_rt_mpi_wtime(kj_rt *rt, int32_t line, int32_t col)
{
    return kj_mpi_wtime(need(rt, "MPI.Wtime", line, col));
}

/* ---- a GPU per rank ---- */

int64_t kj_rt_gpu_count(kj_rt *rt) { return rt->gpu ? kj_gpu_count(rt->gpu) : 1; }

void kj_rt_select_device(kj_rt *rt, int64_t i, int32_t line, int32_t col)
{
    int64_t n = kj_rt_gpu_count(rt), have = rt->gpu ? kj_gpu_ordinal(rt->gpu) : 0;
    kj_rt_error e;
    if (i < 0 || i >= n) {
        kj_rt_errorf(&e, "RuntimeError", "no CUDA device %" PRId64 " (there %s %" PRId64 ")", i,
                     n == 1 ? "is" : "are", n);
        kj_rtm_fail(rt, "cuda.select_device", &e, line, col);
    }
    if (i == have) return;
    kj_rt_errorf(&e, "RuntimeError",
                 "kjit opened device %" PRId64 " before main ran (local rank %% GPUs, or $KJIT_DEVICE); "
                 "run with KJIT_DEVICE=%" PRId64 " to use device %" PRId64,
                 have, i, i);
    kj_rtm_fail(rt, "cuda.select_device", &e, line, col);
}
