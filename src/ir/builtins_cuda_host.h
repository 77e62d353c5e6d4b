/* SPDX-License-Identifier: BSD-2-Clause */
/* numba.cuda's host API beyond the device (docs/cuda.md § Streams, §
 * Profiling, § The device): the default, legacy, per-thread and external
 * streams, the profiler's start and stop, cuda.gpus.current,
 * numba.cuda.random's xoroshiro128p_dtype (for cuda.device_array),
 * kernel.max_cooperative_grid_blocks(blockdim) (occupancy), as built-in
 * rows (included by builtins.h), typed by builtins_cuda_host.c and generated
 * by llvm_cuda_host.c over rt_cuda_host.c. */
#ifndef KJ_BUILTINS_CUDA_HOST_H
#define KJ_BUILTINS_CUDA_HOST_H

/* The first row is KJ_B_CUDA_DEFAULT_STREAM, the last KJ_B_GPUS_CURRENT. */
#define KJ_BUILTINS_CUDA_HOST(X) \
    X(CUDA_DEFAULT_STREAM, "cuda.default_stream", KJ_BF_HOST, "") \
    X(CUDA_LEGACY_DEFAULT_STREAM, "cuda.legacy_default_stream", KJ_BF_HOST, "") \
    X(CUDA_PER_THREAD_DEFAULT_STREAM, "cuda.per_thread_default_stream", KJ_BF_HOST, "") \
    X(CUDA_EXTERNAL_STREAM, "cuda.external_stream", KJ_BF_HOST, "ptr") \
    X(CUDA_PROFILE_START, "cuda.profile_start", KJ_BF_HOST, "") \
    X(CUDA_PROFILE_STOP, "cuda.profile_stop", KJ_BF_HOST, "") \
    X(KERNEL_MAX_COOP, "kernel.max_cooperative_grid_blocks", KJ_BF_HOST | KJ_BF_METHOD, "blockdim, dynsmemsize=") \
    X(XORO_DTYPE, "cuda.random.xoroshiro128p_dtype", KJ_BF_HOST | KJ_BF_ATTR, "") \
    X(GPUS_CURRENT, "gpus.current", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD, "")

/* The special stream handles of the driver API (cuda.h's CU_STREAM_LEGACY,
 * CU_STREAM_PER_THREAD), as kj_rt_cuda_stream's `kind`; 0 is the default
 * stream (NULL), 3 a stream another library made (its pointer). */
enum { KJ_STREAM_DEFAULT = 0, KJ_STREAM_LEGACY = 1, KJ_STREAM_PER_THREAD = 2, KJ_STREAM_EXTERNAL = 3 };

#endif
