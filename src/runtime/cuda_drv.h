/* SPDX-License-Identifier: BSD-2-Clause */
/* The CUDA driver, opened at run time.
 *
 * kjit never links libcuda: `kj_cu_open` dlopens libcuda.so.1, takes
 * cuGetProcAddress from it and asks that for every other entry point, so the
 * binary builds and runs where there is no GPU (the table then stays
 * unopened and --target cuda says "no CUDA driver found").
 *
 * The table is a plain struct of function pointers: tests fill one with a
 * fake driver (tests/unit/test_cuda_drv.c) to check the logic above it
 * without a GPU. Nothing here keeps global state; a kj_cu belongs to its
 * opener (one per kjit context).
 *
 * Errors are values: functions that can fail return false and write
 * "cuXxx: CUDA_ERROR_NAME: description" into err (cap bytes). */
#ifndef KJ_CUDA_DRV_H
#define KJ_CUDA_DRV_H

#include <cuda.h>
#include <cudaProfiler.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every driver entry point kjit calls: X(name, version), the version being
 * the CUDA version whose ABI of that symbol we want (passed to
 * cuGetProcAddress with the name as written here). Each field's type is
 * __typeof__ of cuda.h's prototype. cuda.h #defines many names to their
 * newer ABI (cuMemAlloc → cuMemAlloc_v2), and the field names expand the
 * same way, which callers never notice as long as they write
 * cu->cuMemAlloc; the version must then be the one that introduced that
 * ABI (3020 for the _v2 memory calls), or the pointer would not match the
 * field's type. */
#define KJ_CU_FUNCS(X)                               \
    X(cuInit, 2000)                                  \
    X(cuDriverGetVersion, 2020)                      \
    X(cuGetErrorName, 6000)                          \
    X(cuGetErrorString, 6000)                        \
    X(cuDeviceGetCount, 2000)                        \
    X(cuDeviceGet, 2000)                             \
    X(cuDeviceGetName, 2000)                         \
    X(cuDeviceGetAttribute, 2000)                    \
    X(cuDevicePrimaryCtxRetain, 7000)                \
    X(cuDevicePrimaryCtxRelease, 11000)              \
    X(cuDevicePrimaryCtxReset, 11000)                \
    X(cuCtxSetCurrent, 4000)                         \
    X(cuCtxGetCurrent, 4000)                         \
    X(cuCtxSynchronize, 2000)                        \
    X(cuMemGetInfo, 3020)                            \
    X(cuMemAlloc, 3020)                              \
    X(cuMemFree, 3020)                               \
    X(cuMemHostRegister, 6050)                       \
    X(cuMemHostUnregister, 4000)                     \
    X(cuMemHostAlloc, 2020)                          \
    X(cuMemFreeHost, 2000)                           \
    X(cuMemcpyHtoD, 3020)                            \
    X(cuMemcpyDtoH, 3020)                            \
    X(cuMemcpyDtoD, 3020)                            \
    X(cuMemsetD8, 3020)                              \
    X(cuModuleLoadDataEx, 2010)                      \
    X(cuModuleUnload, 2000)                          \
    X(cuModuleGetFunction, 2000)                     \
    X(cuModuleGetGlobal, 3020)                       \
    X(cuFuncGetAttribute, 2020)                      \
    X(cuFuncSetAttribute, 9000)                      \
    X(cuLaunchKernel, 4000)                          \
    X(cuLaunchCooperativeKernel, 9000)               \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050) \
    X(cuLinkCreate, 6050)                            \
    X(cuLinkAddData, 6050)                           \
    X(cuLinkComplete, 5050)                          \
    X(cuLinkDestroy, 5050)                           \
    X(cuStreamCreate, 2000)                          \
    X(cuStreamDestroy, 4000)                         \
    X(cuStreamSynchronize, 2000)                     \
    X(cuEventCreate, 2000)                           \
    X(cuEventDestroy, 4000)                          \
    X(cuEventRecord, 2000)                           \
    X(cuEventSynchronize, 2000)                      \
    X(cuEventElapsedTime, 2000)                      \
    X(cuStreamWaitEvent, 3020)                       \
    X(cuMemcpyDtoDAsync, 3020)                       \
    X(cuMemcpyDtoHAsync, 3020)                       \
    X(cuMemGetAddressRange, 3020)                    \
    X(cuIpcGetMemHandle, 4010)                       \
    X(cuIpcOpenMemHandle, 11000)                     \
    X(cuIpcCloseMemHandle, 4010)                     \
    X(cuIpcGetEventHandle, 4010)                     \
    X(cuIpcOpenEventHandle, 4010)

/* Entry points kjit can do without: resolved when the driver has them,
 * left NULL otherwise (kj_cu_has_graphs says whether all of a group are
 * there). CUDA graphs replay host loops of launches (gpu_graph.c).
 * cuGraphAddKernelNode's params struct is the _v2 one of CUDA 12.
 * cuProfilerStart/Stop serve cuda.profile_start/stop (gpu_stream.c), cuDeviceGetUuid Device.uuid. */
#define KJ_CU_OPT_FUNCS(X)                           \
    X(cuGraphCreate, 10000)                          \
    X(cuGraphDestroy, 10000)                         \
    X(cuGraphAddKernelNode, 12000)                   \
    X(cuGraphInstantiateWithFlags, 11040)            \
    X(cuGraphExecDestroy, 10000)                     \
    X(cuGraphLaunch, 10000)                          \
    X(cuProfilerStart, 4000)                         \
    X(cuProfilerStop, 4000)                          \
    X(cuDeviceGetUuid, 11040)

/* The driver's entry points. `opened` is false until kj_cu_open succeeds
 * (or a test fills the table by hand and sets it). */
typedef struct kj_cu {
    bool opened;
    void *lib; /* the dlopen handle; NULL for a fake table */
#define KJ_CU_FIELD(name, ver) __typeof__(&name) name;
    KJ_CU_FUNCS(KJ_CU_FIELD)
    KJ_CU_OPT_FUNCS(KJ_CU_FIELD)
#undef KJ_CU_FIELD
} kj_cu;

/* Open libcuda.so.1 (or $KJIT_LIBCUDA when set, for tests) and fill `cu`.
 * False with "no CUDA driver found (...)" in err when it cannot be opened or
 * lacks an entry point. cuInit is not called here. */
bool kj_cu_open(kj_cu *cu, char *err, size_t cap);
void kj_cu_close(kj_cu *cu);
/* Whether the driver has every graph entry point of KJ_CU_OPT_FUNCS. */
bool kj_cu_has_graphs(const kj_cu *cu);

/* "cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was
 * encountered" for result r of call `what`, into err. Returns false. */
bool kj_cu_fail(const kj_cu *cu, CUresult r, const char *what, char *err, size_t cap);

/* Properties of one device, read with cuDeviceGetAttribute. */
typedef struct kj_cu_props {
    char name[128];
    int cc_major, cc_minor;              /* compute capability: sm_{major}{minor} */
    int sm_count;
    int max_threads_per_block;
    int max_block[3], max_grid[3];
    int max_shared_per_block;            /* static + dynamic without opt-in (48 KiB) */
    int max_shared_per_block_optin;      /* with cuFuncSetAttribute (227 KiB on sm_90) */
    int warp_size;
    int driver_version;                  /* e.g. 13000 */
} kj_cu_props;

/* The primary context of device `ordinal`, made current on this thread,
 * and its properties. cuInit is called first. Errors: "no CUDA device" when
 * the driver reports none (or ordinal >= count). */
bool kj_cu_device_open(const kj_cu *cu, int ordinal, CUdevice *dev, CUcontext *ctx, kj_cu_props *props,
                       char *err, size_t cap);

/* PTX text (NUL-terminated) → a cubin for the current context's device,
 * through cuLinkCreate/AddData/Complete. On success *cubin is malloc'd
 * (*size bytes). On failure the driver's error log (ptxas messages) is in
 * err. */
bool kj_cu_link_ptx(const kj_cu *cu, const char *ptx, void **cubin, size_t *size, char *err, size_t cap);

/* Load a cubin (or PTX) image into the current context, with the driver's
 * error log in err on failure. */
bool kj_cu_module_load(const kj_cu *cu, const void *image, CUmodule *mod, char *err, size_t cap);

#endif
