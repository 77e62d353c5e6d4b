/* SPDX-License-Identifier: BSD-2-Clause */
/* What generated code and the runtime share for mpi4py's API (docs/scale-out.md):
 * the operation codes of kj_rt_mpi (rt_host.h) and the reduction operators.
 * Communicators are the constant KJ_ABI_MPI_COMM_WORLD (only MPI.COMM_WORLD
 * exists in the language); requests are the integers kj_rt_mpi returns
 * (an index into the run's request table, plus one). */
#ifndef KJ_ABI_MPI_H
#define KJ_ABI_MPI_H

enum { KJ_ABI_MPI_COMM_WORLD = 1 };

typedef enum kj_abi_mpi_op {
    KJ_MPI_GET_RANK,   /* → rank */
    KJ_MPI_GET_SIZE,   /* → size */
    KJ_MPI_BARRIER,
    KJ_MPI_SEND,       /* a, i0 dest, i1 tag */
    KJ_MPI_RECV,       /* a, i0 source, i1 tag */
    KJ_MPI_ISEND,      /* a, i0 dest, i1 tag → request */
    KJ_MPI_IRECV,      /* a, i0 source, i1 tag → request */
    KJ_MPI_SENDRECV,   /* a send, b recv, i0 dest, i1 sendtag, i2 source, i3 recvtag */
    KJ_MPI_BCAST,      /* a (an array, or a scalar in memory: comm.bcast), i0 root */
    KJ_MPI_ALLREDUCE,  /* a send, b recv (NULL: in place in a, comm.allreduce), i0 op */
    KJ_MPI_REDUCE,     /* a send, b recv (NULL: in place in a, comm.reduce), i0 op, i1 root */
    KJ_MPI_WAIT,       /* i0 request */
    KJ_MPI_WAITALL,    /* a: i0 int64 requests */
} kj_abi_mpi_op;

/* MPI.SUM, MPI.MAX, MPI.MIN as values of type op */
typedef enum kj_abi_mpi_reduce { KJ_MPI_OP_SUM = 1, KJ_MPI_OP_MAX, KJ_MPI_OP_MIN } kj_abi_mpi_reduce;

#endif
