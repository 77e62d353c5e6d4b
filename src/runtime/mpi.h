/* SPDX-License-Identifier: BSD-2-Clause */
/* MPI, opened at run time (docs/scale-out.md).
 *
 * kjit links no MPI library: Open MPI's libmpi.so.40 (Debian's libopenmpi3)
 * is dlopened when a program that imports mpi4py is compiled, so kjit runs
 * where MPI is absent and only such a program fails, with a clear error.
 * The library is opened RTLD_GLOBAL: Open MPI loads its components as
 * plugins that resolve libmpi's symbols from the global scope.
 *
 * Open MPI's ABI, which the declarations in mpi.c follow (mpi.h of
 * libopenmpi-dev 4.1 is the reference; no MPI header is included): every
 * handle (MPI_Comm, MPI_Datatype, MPI_Op, MPI_Errhandler, MPI_Request) is a
 * pointer, and the predefined ones are the addresses of global objects
 * (MPI_COMM_WORLD is &ompi_mpi_comm_world, MPI_DOUBLE &ompi_mpi_double),
 * found with dlsym; MPI_Status is {int source, tag, error; int cancelled;
 * size_t ucount}; MPI_IN_PLACE is (void *)1. Another MPI (MPICH's integer
 * handles) is refused with a message saying so.
 *
 * MPI_Init runs at the first MPI call of a run (unless the process, an
 * embedding application say, initialised MPI itself) and MPI_Finalize when
 * the last reference goes, only if kjit initialised it. After a run that
 * failed with more than one rank, the release calls MPI_Abort instead, so
 * the other ranks end rather than wait for this one forever. */
#ifndef KJ_MPI_H
#define KJ_MPI_H

#include "array.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct kj_mpi kj_mpi;

/* Open the library (nothing is initialised yet). NULL with the reason in
 * err. `stats`: counters printed there at the last release, or NULL. */
kj_mpi *kj_mpi_open(FILE *stats, char *err, size_t cap);
/* Are $KJIT_MPI_TIMEOUT and $KJIT_MPI_CUDA_AWARE unset or values they take?
 * (kj_mpi_open refuses the others; kjit_ctx_new checks them up front.) */
bool kj_mpi_check_env(char *err, size_t cap);
kj_mpi *kj_mpi_retain(kj_mpi *m);
void kj_mpi_release(kj_mpi *m);
/* A run that used MPI ended with an error: abort the job at release. */
void kj_mpi_note_failure(kj_mpi *m);

/* MPI_Init (once) and the error handler; false with the reason in e.
 * `headers`: this run's point-to-point messages use the header protocol
 * (rt_mpi_p2p.c: device buffers GPU to GPU through CUDA IPC), unless device
 * pointers go to a CUDA-aware library; asked at the first call only, and
 * the same on every rank (one program, one target). */
bool kj_mpi_ensure(kj_mpi *m, bool headers, kj_rt_error *e);
/* Does this run use the header protocol? */
bool kj_mpi_headers(const kj_mpi *m);
/* The smallest collective of device arrays, in bytes, that goes GPU to GPU
 * (rt_mpi_coll.c); smaller ones are staged ($KJIT_MPI_COLL_MIN, 64 KiB). */
int64_t kj_mpi_coll_min(const kj_mpi *m);
int kj_mpi_rank(const kj_mpi *m);
int kj_mpi_size(const kj_mpi *m);
/* Does the library take device pointers (MPIX_Query_cuda_support)? */
bool kj_mpi_cuda_aware(kj_mpi *m);
/* Do device buffers go to MPI as device pointers: the library is CUDA-aware
 * and $KJIT_MPI_CUDA_AWARE is not 0. (=1 with a library that is not is an
 * error of kj_mpi_ensure; any value but 0 or 1, one of kj_mpi_open.) */
bool kj_mpi_direct(kj_mpi *m);
double kj_mpi_wtime(const kj_mpi *m);

/* A buffer: contiguous bytes of `count` elements of dtype. */
typedef struct kj_mpi_buf {
    void *data;
    int64_t count;
    kj_dtype dtype;
} kj_mpi_buf;

typedef void *kj_mpi_req; /* an MPI_Request */

/* The non-blocking operations everything is built on (blocking calls are
 * these then kj_mpi_wait, so that a debug run can bound every wait). The
 * reduction `op` is KJ_MPI_OP_* (abi_mpi.h); send NULL: in place. Each
 * returns false with "MPI_Isend: <MPI's error string>" in e. */
bool kj_mpi_isend(kj_mpi *m, const kj_mpi_buf *b, int64_t dest, int64_t tag, kj_mpi_req *r, kj_rt_error *e);
bool kj_mpi_irecv(kj_mpi *m, const kj_mpi_buf *b, int64_t source, int64_t tag, kj_mpi_req *r, kj_rt_error *e);
bool kj_mpi_ibarrier(kj_mpi *m, kj_mpi_req *r, kj_rt_error *e);
/* The channels of the header protocol: the program's messages and the
 * headers; the payloads that follow a header; the receivers' acks. */
typedef enum { KJ_MPI_CH_USER, KJ_MPI_CH_DATA, KJ_MPI_CH_ACK } kj_mpi_chan;
/* The tag of kjit's own collective messages on the data and ack channels:
 * above every tag a program may use (0..32767). */
enum { KJ_MPI_COLL_TAG = 32768 };
bool kj_mpi_isend_on(kj_mpi *m, kj_mpi_chan ch, const kj_mpi_buf *b, int64_t dest, int64_t tag, kj_mpi_req *r,
                     kj_rt_error *e);
bool kj_mpi_irecv_on(kj_mpi *m, kj_mpi_chan ch, const kj_mpi_buf *b, int64_t source, int64_t tag, kj_mpi_req *r,
                     kj_rt_error *e);
/* Has r completed (then it is freed, and *source and *tag, either of them
 * may be NULL, say what matched)? False with e on an error. */
bool kj_mpi_test(kj_mpi *m, kj_mpi_req *r, bool *done, int *source, int *tag, kj_rt_error *e);
bool kj_mpi_ibcast(kj_mpi *m, const kj_mpi_buf *b, int64_t root, kj_mpi_req *r, kj_rt_error *e);
bool kj_mpi_iallreduce(kj_mpi *m, const void *send, const kj_mpi_buf *recv, int op, kj_mpi_req *r,
                       kj_rt_error *e);
bool kj_mpi_ireduce(kj_mpi *m, const void *send, const kj_mpi_buf *recv, int op, int64_t root, kj_mpi_req *r,
                    kj_rt_error *e);
/* Wait for r. timeout_s > 0 bounds the wait (a RuntimeError naming `what`
 * after that long without completion). *count: the elements of dtype
 * received (for a receive; may be NULL). */
bool kj_mpi_wait(kj_mpi *m, kj_mpi_req *r, const char *what, double timeout_s, kj_dtype dtype, int64_t *count,
                 kj_rt_error *e);

/* How long a wait may take: $KJIT_MPI_TIMEOUT seconds when set, else 60
 * in a checked (--boundscheck) call and unbounded otherwise (0). */
double kj_mpi_timeout(const kj_mpi *m, bool checked);
/* Wait (bounded by timeout_s when > 0) for a message from source with tag
 * (-1: any) and tell its size in bytes and its sender, without receiving it. */
bool kj_mpi_probe(kj_mpi *m, int64_t source, int64_t tag, const char *what, double timeout_s, int64_t *bytes,
                  int *from, kj_rt_error *e);

/* How a buffer's bytes went, for KJIT_STATS: a host array's memory; a
 * device array's as device pointers (CUDA-aware MPI), through a page-locked
 * staging buffer, or through its host copy (a strided view). */
typedef enum { KJ_MPI_HOST, KJ_MPI_DIRECT, KJ_MPI_PINNED, KJ_MPI_HOST_COPY, KJ_MPI_IPC, KJ_MPI_NPATHS } kj_mpi_path;
void kj_mpi_count(kj_mpi *m, int64_t bytes, kj_mpi_path path);

#endif
