/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the run's MPI (rt_mpi.c, rt_mpi_p2p.c): buffers, requests and the
 * helpers both files use. */
#ifndef KJ_RT_MPI_INT_H
#define KJ_RT_MPI_INT_H

#include "../abi/abi.h"
#include "mpi.h"
#include "rt_host.h"

enum { KJ_MPI_CHECKED = 0x100 }; /* in op: the call's function has boundscheck */

/* What MPI does with a buffer on this rank: reads it, writes it, both (a
 * reduction in place), or nothing (MPI.PROC_NULL as the peer, the receive
 * buffer of Reduce away from its root). */
typedef enum { B_SEND, B_RECV, B_BOTH, B_NONE } bmode;

/* A buffer as MPI sees it: the array's memory (host or device), a packed
 * temporary, or a page-locked staging block (docs/scale-out.md). */
typedef struct rbuf {
    kj_mpi_buf b;
    void *tmp;         /* owned: the packed copy of a strided array */
    kj_abi_array desc; /* the array, to unpack into */
    kj_array view;     /* the same as the GPU runtime sees it */
    int nd;
    bool is_array;
    bmode mode;
    kj_mpi_path path;
    int pin; /* its staging block in the run's (pin_block), -1: none */
} rbuf;

typedef struct mpi_req {
    kj_mpi_req req;
    bool live;
    const char *what;
    rbuf buf; /* the receive buffer (unpacked at the wait), or the send's temporary */
    bool recv;
    struct p2p *p2p; /* the header protocol's state (rt_mpi_p2p.c), or NULL */
    /* A message of a device collective (rt_mpi_coll.c): its header goes
     * with the payloads, apart from the program's messages; a receive with
     * `combine` (KJ_MPI_OP_*) reduces into its buffer instead of copying. */
    bool coll;
    int combine;
    /* A started request holds its array, as mpi4py's request holds its
     * buffer: the program may drop its name before the Wait. */
    kj_array *keep;
} mpi_req;

/* Page-locked host memory that device buffers are staged through, kept for
 * the run and grown as needed: one block per buffer in flight. */
typedef struct pin_block {
    void *p;
    size_t bytes;
    bool busy;
} pin_block;

typedef struct kj_rt_mpi_state {
    mpi_req *v;
    size_t n, cap;
    pin_block *pins;
    size_t npins, cap_pins;
    unsigned char *no_ipc; /* by rank: its GPU cannot map ours (the header protocol), NULL until known */
} kj_rt_mpi_state;

/* Raise e as `what: message` at line:col (never returns). */
_Noreturn void kj_rtm_fail(kj_rt *rt, const char *what, const kj_rt_error *e, int32_t line, int32_t col);
/* A free staging block of at least n bytes: its index, -1 with e. */
int kj_rtm_pin_take(kj_rt *rt, size_t n, kj_rt_error *e);
/* The operand (p, nd, dt) as a buffer, not yet where MPI takes it. */
void kj_rtm_buf_of(const void *p, int32_t nd, int32_t dt, rbuf *out);
/* Make b's bytes what MPI may read, where it takes them, for mode. */
bool kj_rtm_prepare(kj_rt *rt, rbuf *o, bmode mode, kj_rt_error *e);
/* After MPI is done with b (ok: it succeeded): unpack, upload, give back. */
bool kj_rtm_buf_done(kj_rt *rt, rbuf *b, bool ok, kj_rt_error *e);
const char *kj_rtm_describe(const rbuf *b, char *s, size_t cap);
/* KJIT_STATS: one buffer of b's size went by b's path. */
void kj_rtm_count(kj_rt *rt, const rbuf *b);

/* A collective (rt_mpi.c); the device path of Bcast, Reduce and
 * Allreduce (rt_mpi_coll.c): false when some rank's buffers are not on the
 * device (the caller then goes through MPI as before). */
typedef enum { C_BARRIER, C_BCAST, C_ALLREDUCE, C_REDUCE } coll;
bool kj_rtm_coll_device(kj_rt *rt, coll c, const char *what, const void *a, int32_t a_nd, int32_t adt,
                        const void *b, int32_t bnd, int32_t bdt, int64_t i0, int64_t i1, double timeout,
                        int32_t line, int32_t col);
/* dst[i] = op(dst[i], src[i]) for n elements of dt in host memory. */
void kj_rtm_combine_host(int op, kj_dtype dt, void *dst, const void *src, int64_t n);

/* The header protocol (rt_mpi_p2p.c): start request q, wait for it, and
 * free its state. `checked`: the receive's size must be the message's. */
void kj_rtm_p2p_start(kj_rt *rt, mpi_req *q, const void *p, int32_t nd, int32_t dt, int64_t peer, int64_t tag,
                      bool checked, int32_t line, int32_t col);
void kj_rtm_p2p_wait(kj_rt *rt, mpi_req *q, double timeout, int32_t line, int32_t col);
void kj_rtm_p2p_free(mpi_req *q);

#endif
