/* SPDX-License-Identifier: BSD-2-Clause */
/* A fake CUDA driver for tests without a GPU: `KJIT_LIBCUDA=.../libfakecuda.so`
 * makes kjit's driver layer (src/runtime/cuda_drv.c) find one device whose
 * memory is host memory. Launches do nothing (no code runs), so what such a
 * test can check is the runtime's own logic: which transfers the lazy
 * coherence makes (KJIT_STATS), errors, the module cache. */
#include <cuda.h>

#include <stdlib.h>
#include <string.h>

/* Every entry point kjit asks for has its own function of its own type
 * (calling through a pointer of another type is undefined, and UBSan says
 * so); those that need no state just succeed. */
static CUresult init(unsigned f) { return (void)f, CUDA_SUCCESS; }
static CUresult set_current(CUcontext c) { return (void)c, CUDA_SUCCESS; }
static CUresult get_current(CUcontext *c) { return *c = (CUcontext)1, CUDA_SUCCESS; }
static CUresult synchronize(void) { return CUDA_SUCCESS; }
static CUresult ctx_release(CUdevice d) { return (void)d, CUDA_SUCCESS; }
static CUresult dtod(CUdeviceptr a, CUdeviceptr b, size_t n) { return memmove((void *)(uintptr_t)a, (void *)(uintptr_t)b, n), CUDA_SUCCESS; }
static CUresult module_unload(CUmodule m) { return (void)m, CUDA_SUCCESS; }
static CUresult func_get(int *v, CUfunction_attribute a, CUfunction f)
{
    (void)f;
    *v = a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : a == CU_FUNC_ATTRIBUTE_NUM_REGS ? 32 : 0;
    return CUDA_SUCCESS;
}
static CUresult func_set(CUfunction f, CUfunction_attribute a, int v) { return (void)f, (void)a, (void)v, CUDA_SUCCESS; }
static CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       unsigned shared, CUstream s, void **params, void **extra)
{
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)s, (void)params, (void)extra;
    return CUDA_SUCCESS; /* no code runs */
}
static CUresult link_add(CUlinkState s, CUjitInputType t, void *data, size_t n, const char *name, unsigned no,
                         CUjit_option *o, void **v)
{
    return (void)s, (void)t, (void)data, (void)n, (void)name, (void)no, (void)o, (void)v, CUDA_SUCCESS;
}
static CUresult link_destroy(CUlinkState s) { return (void)s, CUDA_SUCCESS; }
static CUresult stream_create(CUstream *s, unsigned f) { return (void)f, *s = NULL, CUDA_SUCCESS; }
static CUresult stream_destroy(CUstream s) { return (void)s, CUDA_SUCCESS; }
static CUresult stream_sync(CUstream s) { return (void)s, CUDA_SUCCESS; }
static CUresult event_record(CUevent e, CUstream s) { return (void)e, (void)s, CUDA_SUCCESS; }
static CUresult event_sync(CUevent e) { return (void)e, CUDA_SUCCESS; }
static CUresult count(int *n) { return *n = 1, CUDA_SUCCESS; }
static CUresult device(CUdevice *d, int o) { return *d = o, o == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE; }
static CUresult name(char *s, int n, CUdevice d) { return (void)d, strncpy(s, "fake", (size_t)n), CUDA_SUCCESS; }
static CUresult attribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    switch (a) { /* an H100's */
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = 48 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 227 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
    default: *v = 1024; break; /* threads per block, block x and y */
    }
    return CUDA_SUCCESS;
}
static CUresult retain(CUcontext *c, CUdevice d) { return (void)d, *c = (CUcontext)1, CUDA_SUCCESS; }
static CUresult version(int *v) { return *v = 13000, CUDA_SUCCESS; }
enum { DEVICE_BYTES = 64 << 20 }; /* a small device: tests can run out of it */

static CUresult mem_alloc(CUdeviceptr *p, size_t n)
{
    if (n > DEVICE_BYTES) return CUDA_ERROR_OUT_OF_MEMORY;
    void *m = malloc(n ? n : 1);
    *p = (CUdeviceptr)(uintptr_t)m;
    return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult mem_free(CUdeviceptr p) { return free((void *)(uintptr_t)p), CUDA_SUCCESS; }
static CUresult host_register(void *p, size_t n, unsigned f) { return (void)p, (void)n, (void)f, CUDA_SUCCESS; }
static CUresult host_unregister(void *p) { return (void)p, CUDA_SUCCESS; }
static CUresult host_alloc(void **p, size_t n, unsigned f) { return (void)f, (*p = malloc(n ? n : 1)) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY; }
static CUresult free_host(void *p) { return free(p), CUDA_SUCCESS; }
static CUresult h2d(CUdeviceptr d, const void *h, size_t n) { return memcpy((void *)(uintptr_t)d, h, n), CUDA_SUCCESS; }
static CUresult d2h(void *h, CUdeviceptr d, size_t n) { return memcpy(h, (void *)(uintptr_t)d, n), CUDA_SUCCESS; }
static CUresult memset8(CUdeviceptr d, unsigned char v, size_t n) { return memset((void *)(uintptr_t)d, v, n), CUDA_SUCCESS; }
static CUresult mem_info(size_t *f, size_t *t) { return *f = *t = DEVICE_BYTES, CUDA_SUCCESS; }
static char cubin[] = "fake cubin";
static CUresult link_create(unsigned n, CUjit_option *o, void **v, CUlinkState *s)
{
    return (void)n, (void)o, (void)v, *s = (CUlinkState)1, CUDA_SUCCESS;
}
static CUresult link_complete(CUlinkState s, void **c, size_t *n) { return (void)s, *c = cubin, *n = sizeof cubin, CUDA_SUCCESS; }
static CUresult module_load(CUmodule *m, const void *i, unsigned n, CUjit_option *o, void **v)
{
    return (void)i, (void)n, (void)o, (void)v, *m = (CUmodule)1, CUDA_SUCCESS;
}
static CUresult function(CUfunction *f, CUmodule m, const char *s) { return (void)m, (void)s, *f = (CUfunction)1, CUDA_SUCCESS; }
static CUresult global(CUdeviceptr *p, size_t *n, CUmodule m, const char *s)
{
    return (void)p, (void)n, (void)m, (void)s, CUDA_ERROR_NOT_FOUND;
}
static CUresult event_create(CUevent *e, unsigned f) { return (void)f, *e = (CUevent)malloc(1), CUDA_SUCCESS; }
static CUresult event_destroy(CUevent e) { return free(e), CUDA_SUCCESS; }
static CUresult elapsed(float *ms, CUevent a, CUevent b) { return (void)a, (void)b, *ms = 0, CUDA_SUCCESS; }
static CUresult error_name(CUresult r, const char **s) { return (void)r, *s = "CUDA_ERROR_FAKE", CUDA_SUCCESS; }

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int ver, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    static const struct {
        const char *name;
        void *fn;
    } table[] = {
        {"cuDeviceGetCount", count},         {"cuDeviceGet", device},
        {"cuDeviceGetName", name},           {"cuDeviceGetAttribute", attribute},
        {"cuDevicePrimaryCtxRetain", retain}, {"cuDriverGetVersion", version},
        {"cuMemAlloc", mem_alloc},           {"cuMemFree", mem_free},
        {"cuMemHostRegister", host_register}, {"cuMemHostUnregister", host_unregister},
        {"cuMemHostAlloc", host_alloc},      {"cuMemFreeHost", free_host},
        {"cuMemcpyHtoD", h2d},               {"cuMemcpyDtoH", d2h},
        {"cuMemsetD8", memset8},             {"cuMemGetInfo", mem_info},
        {"cuLinkCreate", link_create},       {"cuLinkComplete", link_complete},
        {"cuModuleLoadDataEx", module_load}, {"cuModuleGetFunction", function},
        {"cuModuleGetGlobal", global},       {"cuEventCreate", event_create},
        {"cuEventDestroy", event_destroy},   {"cuEventElapsedTime", elapsed},
        {"cuGetErrorName", error_name},      {"cuGetErrorString", error_name},
        {"cuInit", init},                    {"cuCtxSetCurrent", set_current}, {"cuCtxGetCurrent", get_current},
        {"cuCtxSynchronize", synchronize},   {"cuDevicePrimaryCtxRelease", ctx_release},
        {"cuDevicePrimaryCtxReset", ctx_release}, {"cuMemcpyDtoD", dtod},
        {"cuModuleUnload", module_unload},   {"cuFuncGetAttribute", func_get},
        {"cuFuncSetAttribute", func_set},    {"cuLaunchKernel", launch},
        {"cuLinkAddData", link_add},         {"cuLinkDestroy", link_destroy},
        {"cuStreamCreate", stream_create},   {"cuStreamDestroy", stream_destroy},
        {"cuStreamSynchronize", stream_sync}, {"cuEventRecord", event_record},
        {"cuEventSynchronize", event_sync},
    };
    (void)ver, (void)flags;
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (!strcmp(symbol, table[k].name)) {
            if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
            *pfn = table[k].fn;
            return CUDA_SUCCESS;
        }
    if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    *pfn = NULL;
    return CUDA_ERROR_NOT_FOUND;
}
