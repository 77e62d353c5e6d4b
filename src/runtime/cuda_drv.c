/* SPDX-License-Identifier: BSD-2-Clause */
/* The CUDA driver, opened at run time (see cuda_drv.h).
 *
 * libcuda is dlopened and every entry point comes from cuGetProcAddress
 * with the CUDA version whose ABI cuda.h describes, never from dlsym: the
 * driver exports several ABIs under one name (cuMemAlloc and cuMemAlloc_v2,
 * per-thread-stream variants), and cuGetProcAddress is the driver's own
 * answer to "which one matches this version". */
#include "cuda_drv.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ptxas and the JIT write their messages into buffers we own: 8 KiB holds
 * pages of ptxas errors, and a longer log would be cut in err anyway. */
enum { JIT_LOG_CAP = 8192, JIT_NOPTS = 4 };

__attribute__((format(printf, 3, 4))) static bool failf(char *err, size_t cap, const char *fmt, ...)
{
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool kj_cu_fail(const kj_cu *cu, CUresult r, const char *what, char *err, size_t cap)
{
    /* Both lookups answer CUDA_ERROR_INVALID_VALUE for a code this driver
     * does not know (one newer than itself): then the number is all we have. */
    const char *name = NULL, *desc = NULL;
    if (cu->cuGetErrorName && cu->cuGetErrorName(r, &name) != CUDA_SUCCESS) name = NULL;
    if (cu->cuGetErrorString && cu->cuGetErrorString(r, &desc) != CUDA_SUCCESS) desc = NULL;
    if (!name) return failf(err, cap, "%s: CUDA error %d%s%s", what, (int)r, desc ? ": " : "", desc ? desc : "");
    return failf(err, cap, "%s: %s%s%s", what, name, desc ? ": " : "", desc ? desc : "");
}

/* ------------------------------------------------------------------------ */
/* Opening the driver                                                        */
/* ------------------------------------------------------------------------ */

/* cuGetProcAddress_v2 (CUDA 12+) reports why a symbol is missing; the
 * original (CUDA 11.3+) lacks that fifth argument. */
typedef CUresult (*get_proc_v2_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
typedef CUresult (*get_proc_v1_fn)(const char *, void **, int, cuuint64_t);

typedef struct {
    get_proc_v2_fn v2;
    get_proc_v1_fn v1;
} proc_lookup;

/* The entry point `symbol` with the ABI of CUDA `version`, or NULL. */
static void *lookup(const proc_lookup *g, const char *symbol, int version)
{
    void *p = NULL;
    if (g->v2) {
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        CUresult r = g->v2(symbol, &p, version, CU_GET_PROC_ADDRESS_DEFAULT, &status);
        return r == CUDA_SUCCESS && status == CU_GET_PROC_ADDRESS_SUCCESS ? p : NULL;
    }
    return g->v1(symbol, &p, version, CU_GET_PROC_ADDRESS_DEFAULT) == CUDA_SUCCESS ? p : NULL;
}

/* Fills every entry point of KJ_CU_FUNCS. Returns the name of the first the
 * driver lacks, or NULL. `#name` is the name as written in KJ_CU_FUNCS
 * (cuMemAlloc), which is what cuGetProcAddress wants with the version;
 * the field is cuda.h's macro expansion of it (cuMemAlloc_v2). */
static const char *resolve_all(kj_cu *cu, const proc_lookup *g)
{
#define KJ_CU_RESOLVE(name, ver)                                         \
    cu->name = (__typeof__(cu->name))lookup(g, #name, ver);             \
    if (!cu->name) return #name;
    KJ_CU_FUNCS(KJ_CU_RESOLVE)
#undef KJ_CU_RESOLVE
#define KJ_CU_RESOLVE_OPT(name, ver) cu->name = (__typeof__(cu->name))lookup(g, #name, ver);
    KJ_CU_OPT_FUNCS(KJ_CU_RESOLVE_OPT)
#undef KJ_CU_RESOLVE_OPT
    return NULL;
}

bool kj_cu_open(kj_cu *cu, char *err, size_t cap)
{
    memset(cu, 0, sizeof *cu);
    const char *env = getenv("KJIT_LIBCUDA");
    const char *path = env && *env ? env : "libcuda.so.1";
    /* RTLD_LOCAL: the driver's symbols stay out of the global namespace, so
     * they cannot satisfy (or clash with) an embedder's own CUDA use. */
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        return failf(err, cap, "no CUDA driver found (%s)", why ? why : path);
    }
    proc_lookup g = {.v2 = (get_proc_v2_fn)dlsym(lib, "cuGetProcAddress_v2")};
    if (!g.v2) g.v1 = (get_proc_v1_fn)dlsym(lib, "cuGetProcAddress");
    const char *missing = g.v2 || g.v1 ? resolve_all(cu, &g) : "cuGetProcAddress";
    if (missing) {
        dlclose(lib);
        memset(cu, 0, sizeof *cu);
        return failf(err, cap, "no CUDA driver found (%s lacks %s)", path, missing);
    }
    cu->lib = lib;
    cu->opened = true;
    return true;
}

void kj_cu_close(kj_cu *cu)
{
    if (!cu) return;
    if (cu->lib) dlclose(cu->lib);
    memset(cu, 0, sizeof *cu);
}

bool kj_cu_has_graphs(const kj_cu *cu)
{
    return cu->cuGraphCreate && cu->cuGraphDestroy && cu->cuGraphAddKernelNode && cu->cuGraphInstantiateWithFlags &&
           cu->cuGraphExecDestroy && cu->cuGraphLaunch;
}

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

static bool read_props(const kj_cu *cu, CUdevice d, kj_cu_props *p, char *err, size_t cap)
{
    memset(p, 0, sizeof *p);
    const struct {
        CUdevice_attribute attr;
        int *out;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &p->cc_major},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &p->cc_minor},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &p->sm_count},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &p->max_threads_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &p->max_block[0]},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &p->max_block[1]},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &p->max_block[2]},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &p->max_grid[0]},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &p->max_grid[1]},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &p->max_grid[2]},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &p->max_shared_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &p->max_shared_per_block_optin},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &p->warp_size},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        CUresult r = cu->cuDeviceGetAttribute(attrs[i].out, attrs[i].attr, d);
        if (r != CUDA_SUCCESS) return kj_cu_fail(cu, r, "cuDeviceGetAttribute", err, cap);
    }
    /* One byte short, so that a name of exactly that length stays terminated. */
    CUresult r = cu->cuDeviceGetName(p->name, (int)sizeof p->name - 1, d);
    if (r != CUDA_SUCCESS) return kj_cu_fail(cu, r, "cuDeviceGetName", err, cap);
    r = cu->cuDriverGetVersion(&p->driver_version);
    if (r != CUDA_SUCCESS) return kj_cu_fail(cu, r, "cuDriverGetVersion", err, cap);
    return true;
}

/* The primary context (rather than cuCtxCreate) is the one the CUDA runtime
 * and other libraries in the process share, so kjit's allocations are
 * usable by them and no second context takes device memory. */
static bool retain_current(const kj_cu *cu, CUdevice d, CUcontext *ctx, char *err, size_t cap)
{
    CUcontext c = NULL;
    CUresult r = cu->cuDevicePrimaryCtxRetain(&c, d);
    if (r != CUDA_SUCCESS) return kj_cu_fail(cu, r, "cuDevicePrimaryCtxRetain", err, cap);
    r = cu->cuCtxSetCurrent(c);
    if (r != CUDA_SUCCESS) {
        kj_cu_fail(cu, r, "cuCtxSetCurrent", err, cap);
        cu->cuDevicePrimaryCtxRelease(d); /* ours to give back: the caller gets no context */
        return false;
    }
    *ctx = c;
    return true;
}

bool kj_cu_device_open(const kj_cu *cu, int ordinal, CUdevice *dev, CUcontext *ctx, kj_cu_props *props,
                       char *err, size_t cap)
{
    if (!cu->opened) return failf(err, cap, "no CUDA driver found");
    /* The driver answers CUDA_ERROR_NO_DEVICE from cuInit itself when it is
     * installed but sees no GPU (none present, or CUDA_VISIBLE_DEVICES=""). */
    CUresult r = cu->cuInit(0);
    if (r == CUDA_ERROR_NO_DEVICE) return failf(err, cap, "no CUDA device");
    if (r != CUDA_SUCCESS) return kj_cu_fail(cu, r, "cuInit", err, cap);
    int count = 0;
    r = cu->cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS) return kj_cu_fail(cu, r, "cuDeviceGetCount", err, cap);
    if (count <= 0) return failf(err, cap, "no CUDA device");
    if (ordinal < 0 || ordinal >= count)
        return failf(err, cap, "no CUDA device %d (the driver reports %d)", ordinal, count);
    CUdevice d = 0;
    r = cu->cuDeviceGet(&d, ordinal);
    if (r != CUDA_SUCCESS) return kj_cu_fail(cu, r, "cuDeviceGet", err, cap);
    /* Properties first: they need no context, so a failure leaves nothing
     * to release. */
    if (!read_props(cu, d, props, err, cap)) return false;
    if (!retain_current(cu, d, ctx, err, cap)) return false;
    *dev = d;
    return true;
}

/* ------------------------------------------------------------------------ */
/* PTX and modules                                                           */
/* ------------------------------------------------------------------------ */

/* The JIT options that route its error and info logs into our buffers.
 * The driver reads the option arrays and writes the logs until the link
 * state is destroyed (or the module load returns), so this lives on the
 * caller's stack for that long. */
typedef struct {
    char error[JIT_LOG_CAP];
    char info[JIT_LOG_CAP];
    CUjit_option opts[JIT_NOPTS + 1]; /* + CU_JIT_GENERATE_LINE_INFO */
    void *vals[JIT_NOPTS + 1];
} jit_logs;

static void jit_logs_init(jit_logs *l)
{
    memset(l->error, 0, sizeof l->error);
    memset(l->info, 0, sizeof l->info);
    /* Sizes are unsigned ints passed in the pointer slots; one byte short
     * keeps the zeroed last byte as a terminator whatever the driver writes. */
    l->opts[0] = CU_JIT_ERROR_LOG_BUFFER;
    l->vals[0] = l->error;
    l->opts[1] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
    l->vals[1] = (void *)(uintptr_t)(sizeof l->error - 1);
    l->opts[2] = CU_JIT_INFO_LOG_BUFFER;
    l->vals[2] = l->info;
    l->opts[3] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
    l->vals[3] = (void *)(uintptr_t)(sizeof l->info - 1);
}

/* The log without the blank lines and spaces ptxas puts around it. */
static const char *trim(const char *s, int *len)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
    *len = (int)n;
    return s;
}

/* kj_cu_fail's text, then "\n<label>: <log>" with the error log (the info
 * log when that is empty: some failures only leave a note there). */
static bool jit_fail(const kj_cu *cu, CUresult r, const char *what, const char *label, const jit_logs *l,
                     char *err, size_t cap)
{
    kj_cu_fail(cu, r, what, err, cap);
    int n = 0;
    const char *log = trim(l->error, &n);
    if (!n) log = trim(l->info, &n);
    if (!n || !err || !cap) return false;
    size_t used = strlen(err);
    if (used + 1 < cap) snprintf(err + used, cap - used, "\n%s: %.*s", label, n, log);
    return false;
}

static bool link_add_complete(const kj_cu *cu, CUlinkState link, const char *ptx, void **cubin, size_t *size,
                              const jit_logs *l, char *err, size_t cap)
{
    /* cuLinkAddData takes `void *` but only reads the image. */
    CUresult r = cu->cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, "kjit.ptx", 0, NULL, NULL);
    if (r != CUDA_SUCCESS) return jit_fail(cu, r, "cuLinkAddData", "PTX JIT failed", l, err, cap);
    void *out = NULL;
    size_t n = 0;
    r = cu->cuLinkComplete(link, &out, &n);
    if (r != CUDA_SUCCESS) return jit_fail(cu, r, "cuLinkComplete", "PTX JIT failed", l, err, cap);
    /* The cubin belongs to the link state, which the caller destroys next. */
    void *copy = malloc(n ? n : 1);
    if (!copy) return failf(err, cap, "out of memory for a cubin of %zu bytes", n);
    memcpy(copy, out, n);
    *cubin = copy;
    *size = n;
    return true;
}

bool kj_cu_link_ptx(const kj_cu *cu, const char *ptx, void **cubin, size_t *size, char *err, size_t cap)
{
    *cubin = NULL;
    *size = 0;
    jit_logs l;
    jit_logs_init(&l);
    CUlinkState link = NULL;
    unsigned nopts = JIT_NOPTS;
    /* PTX with line tables (lineinfo=True, llvm_lineinfo.c): keep them in the
     * cubin, as ptxas -lineinfo and numba-cuda's linker do */
    if (strstr(ptx, "\t.loc\t")) {
        l.opts[nopts] = CU_JIT_GENERATE_LINE_INFO;
        l.vals[nopts++] = (void *)(uintptr_t)1;
    }
    CUresult r = cu->cuLinkCreate(nopts, l.opts, l.vals, &link);
    if (r != CUDA_SUCCESS) return jit_fail(cu, r, "cuLinkCreate", "PTX JIT failed", &l, err, cap);
    bool ok = link_add_complete(cu, link, ptx, cubin, size, &l, err, cap);
    cu->cuLinkDestroy(link);
    return ok;
}

bool kj_cu_module_load(const kj_cu *cu, const void *image, CUmodule *mod, char *err, size_t cap)
{
    jit_logs l;
    jit_logs_init(&l);
    CUresult r = cu->cuModuleLoadDataEx(mod, image, JIT_NOPTS, l.opts, l.vals);
    if (r != CUDA_SUCCESS) return jit_fail(cu, r, "cuModuleLoadDataEx", "module load failed", &l, err, cap);
    return true;
}
