/* SPDX-License-Identifier: BSD-2-Clause */
/* Debian's Open MPI, saying it is CUDA-aware: `KJIT_MPI_LIBRARY=.../libfakeawarempi.so`
 * makes kjit open this library, which links libmpi (every other MPI symbol
 * comes from there, as dlsym searches a library's dependencies), so that
 * MPIX_Query_cuda_support() is 1. With the fake driver, whose device memory
 * is host memory, the direct path (device pointers handed to MPI) then runs
 * without a GPU (tests/fake_gpu/run.sh). */
int MPIX_Query_cuda_support(void);

int MPIX_Query_cuda_support(void) { return 1; }
