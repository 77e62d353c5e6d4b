/* SPDX-License-Identifier: BSD-2-Clause */
/* A fake CUDA driver for tests without a GPU: `KJIT_LIBCUDA=.../libfakecuda.so`
 * makes kjit's driver layer (src/runtime/cuda_drv.c) find one device whose
 * memory is host memory. Launches do nothing (no code runs), so what such a
 * test can check is the runtime's own logic: which transfers the lazy
 * coherence makes (KJIT_STATS), errors, the module cache. */
#include <cuda.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Every entry point kjit asks for has its own function of its own type
 * (calling through a pointer of another type is undefined, and UBSan says
 * so); those that need no state just succeed. */
static CUresult init(unsigned f) { return (void)f, CUDA_SUCCESS; }
static CUresult set_current(CUcontext c) { return (void)c, CUDA_SUCCESS; }
static CUresult get_current(CUcontext *c) { return *c = (CUcontext)1, CUDA_SUCCESS; }
/* FAKE_CUDA_SYNC_LOG=path: each cuCtxSynchronize appends a line there (python/tests/cai_fake_gpu.py checks
 * that work on another library's stream is waited for) */
static CUresult synchronize(void)
{
    const char *log = getenv("FAKE_CUDA_SYNC_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) fputs("cuCtxSynchronize\n", f), fclose(f);
    return CUDA_SUCCESS;
}
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
/* The runtime's own kernels (gpu_combine.c: kj_combine_OP_DTYPE, whose
 * name says what they do) run here on the host, so that MPI reductions of
 * device arrays give their answer on this driver; a program's kernels do
 * not run. A combine kernel's handle is COMBINE + 16 * op + dtype index. */
enum { COMBINE = 0x1000 };
static const char *const COMBINE_OPS[] = {"sum", "max", "min"};
static const char *const COMBINE_TYPES[] = {"float64", "float32", "int64", "int32", "uint64", "uint32",
                                            "int16", "uint16", "int8", "uint8"};
#define FAKE_COMBINE(T)                                                                                            \
    for (uint64_t i = 0; i < n; i++) {                                                                             \
        T *d = (T *)(uintptr_t)dst + i, x = ((const T *)(uintptr_t)src)[i];                                          \
        *d = op == 0 ? (T)(*d + x) : op == 1 ? (*d < x ? x : *d) : (x < *d ? x : *d);                             \
    }
static void combine(unsigned op, unsigned t, CUdeviceptr dst, CUdeviceptr src, uint64_t n)
{
    switch (t) {
    case 0: FAKE_COMBINE(double) break;
    case 1: FAKE_COMBINE(float) break;
    case 2: FAKE_COMBINE(int64_t) break;
    case 3: FAKE_COMBINE(int32_t) break;
    case 4: FAKE_COMBINE(uint64_t) break;
    case 5: FAKE_COMBINE(uint32_t) break;
    case 6: FAKE_COMBINE(int16_t) break;
    case 7: FAKE_COMBINE(uint16_t) break;
    case 8: FAKE_COMBINE(int8_t) break;
    default: FAKE_COMBINE(uint8_t) break;
    }
}
/* A test's observer of launches (fake_cuda_on_launch, found with dlsym):
 * called with the grid, block and parameters of each program launch. */
typedef void (*fake_launch_hook)(const unsigned *grid_block, void **params, void *user);
static fake_launch_hook hook;
static void *hook_user;
void fake_cuda_on_launch(fake_launch_hook fn, void *user);
void fake_cuda_on_launch(fake_launch_hook fn, void *user)
{
    hook = fn;
    hook_user = user;
}

static CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       unsigned shared, CUstream s, void **params, void **extra)
{
    (void)shared, (void)s, (void)extra;
    /* FAKE_CUDA_LAUNCH_LOG=1: each launch's dimensions to stderr (the
     * thread-layout specialisation's permuted block, tests/fake_gpu) */
    const char *log = getenv("FAKE_CUDA_LAUNCH_LOG");
    if (log && *log == '1') fprintf(stderr, "fake launch: grid (%u, %u, %u), block (%u, %u, %u)\n", gx, gy, gz, bx, by, bz);
    uintptr_t h = (uintptr_t)f;
    if (hook && h < COMBINE) {
        unsigned gb[6] = {gx, gy, gz, bx, by, bz};
        hook(gb, params, hook_user);
    }
    if (h >= COMBINE)
        combine((unsigned)(h - COMBINE) / 16, (unsigned)(h - COMBINE) % 16, *(CUdeviceptr *)params[0],
                *(CUdeviceptr *)params[1], *(uint64_t *)params[2]);
    return CUDA_SUCCESS; /* a program's kernels: no code runs */
}
static CUresult coop_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                            unsigned bz, unsigned shared, CUstream s, void **params)
{
    return launch(f, gx, gy, gz, bx, by, bz, shared, s, params, NULL);
}
/* 4 blocks per SM of the fake device, whatever the block */
static CUresult occupancy(int *n, CUfunction f, int threads, size_t shared)
{
    return (void)f, (void)threads, (void)shared, *n = 4, CUDA_SUCCESS;
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
static CUresult uuid(CUuuid *u, CUdevice d) /* GPU-00112233-4455-6677-8899-aabbccddeeff for device 0 */
{
    for (int i = 0; i < 16; i++) u->bytes[i] = (char)(i * 17 + (int)d);
    return CUDA_SUCCESS;
}
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

/* Device memory is shared memory (a memfd per block), so that another
 * process can map a block through an IPC handle as it can on a real GPU:
 * the handle carries the owner's pid and the block's fd, opened through
 * /proc. A fake driver may keep state as the real one does: the blocks,
 * for cuMemGetAddressRange and cuMemFree. */
enum { MAX_BLOCKS = 4096 };
typedef struct block {
    char *p;
    size_t n;
    int fd;
} block;
static block blocks[MAX_BLOCKS];

static block *block_of(CUdeviceptr d)
{
    char *p = (char *)(uintptr_t)d;
    for (int k = 0; k < MAX_BLOCKS; k++)
        if (blocks[k].p && p >= blocks[k].p && p < blocks[k].p + blocks[k].n) return &blocks[k];
    return NULL;
}

static CUresult mem_alloc(CUdeviceptr *p, size_t n)
{
    if (n > DEVICE_BYTES) return CUDA_ERROR_OUT_OF_MEMORY;
    n = n ? n : 1;
    for (int k = 0; k < MAX_BLOCKS; k++) {
        if (blocks[k].p) continue;
        int fd = memfd_create("fake-device", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)n) != 0) return CUDA_ERROR_OUT_OF_MEMORY;
        void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) return close(fd), CUDA_ERROR_OUT_OF_MEMORY;
        blocks[k] = (block){m, n, fd};
        *p = (CUdeviceptr)(uintptr_t)m;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult mem_free(CUdeviceptr p)
{
    block *b = block_of(p);
    if (!b) return CUDA_ERROR_INVALID_VALUE;
    munmap(b->p, b->n);
    close(b->fd);
    *b = (block){0};
    return CUDA_SUCCESS;
}
static CUresult address_range(CUdeviceptr *base, size_t *n, CUdeviceptr d)
{
    block *b = block_of(d);
    if (!b) return CUDA_ERROR_NOT_FOUND;
    if (base) *base = (CUdeviceptr)(uintptr_t)b->p;
    if (n) *n = b->n;
    return CUDA_SUCCESS;
}
typedef struct fake_handle {
    int pid, fd;
    size_t n;
} fake_handle;
static CUresult ipc_get(CUipcMemHandle *h, CUdeviceptr d)
{
    block *b = block_of(d);
    if (!b || (char *)(uintptr_t)d != b->p) return CUDA_ERROR_INVALID_VALUE;
    fake_handle f = {getpid(), b->fd, b->n};
    memset(h, 0, sizeof *h);
    memcpy(h->reserved, &f, sizeof f);
    return CUDA_SUCCESS;
}
static CUresult ipc_open(CUdeviceptr *d, CUipcMemHandle h, unsigned flags)
{
    fake_handle f;
    char path[64];
    (void)flags;
    memcpy(&f, h.reserved, sizeof f);
    if (f.pid == getpid()) return CUDA_ERROR_INVALID_CONTEXT; /* as the driver: not in the exporting process */
    if (getenv("FAKE_CUDA_NO_PEER")) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED; /* GPUs that cannot map each other's memory */
    snprintf(path, sizeof path, "/proc/%d/fd/%d", f.pid, f.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return CUDA_ERROR_INVALID_HANDLE;
    void *m = mmap(NULL, f.n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return CUDA_ERROR_INVALID_HANDLE;
    for (int k = 0; k < MAX_BLOCKS; k++)
        if (!blocks[k].p) {
            blocks[k] = (block){m, f.n, -1};
            *d = (CUdeviceptr)(uintptr_t)m;
            return CUDA_SUCCESS;
        }
    munmap(m, f.n);
    return CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult ipc_close(CUdeviceptr d)
{
    block *b = block_of(d);
    if (!b || b->fd != -1) return CUDA_ERROR_INVALID_VALUE;
    munmap(b->p, b->n);
    *b = (block){0};
    return CUDA_SUCCESS;
}
/* Copies and launches are synchronous here: events need carry nothing. */
static CUresult ipc_event_get(CUipcEventHandle *h, CUevent e) { return (void)e, memset(h, 0, sizeof *h), CUDA_SUCCESS; }
static CUresult ipc_event_open(CUevent *e, CUipcEventHandle h) { return (void)h, *e = (CUevent)malloc(1), CUDA_SUCCESS; }
static CUresult stream_wait(CUstream s, CUevent e, unsigned f) { return (void)s, (void)e, (void)f, CUDA_SUCCESS; }
static CUresult dtod_async(CUdeviceptr a, CUdeviceptr b, size_t n, CUstream s)
{
    return (void)s, memmove((void *)(uintptr_t)a, (void *)(uintptr_t)b, n), CUDA_SUCCESS;
}
static CUresult d2h_async(void *h, CUdeviceptr d, size_t n, CUstream s)
{
    return (void)s, memcpy(h, (void *)(uintptr_t)d, n), CUDA_SUCCESS;
}
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
static CUresult function(CUfunction *f, CUmodule m, const char *s)
{
    (void)m;
    *f = (CUfunction)1;
    for (unsigned op = 0; op < 3; op++)
        for (unsigned t = 0; t < sizeof COMBINE_TYPES / sizeof *COMBINE_TYPES; t++) {
            char name[64];
            snprintf(name, sizeof name, "kj_combine_%s_%s", COMBINE_OPS[op], COMBINE_TYPES[t]);
            if (!strcmp(s, name)) *f = (CUfunction)(uintptr_t)(COMBINE + 16 * op + t);
        }
    return CUDA_SUCCESS;
}
/* The module slots' globals (abi.h KJ_ABI_GPU_SLOT, `.visible .global
 * .align A .TYPE __kjit_slot_NAME[N];` in the PTX kjit links): device
 * memory of the PTX's size each, found by cuModuleGetGlobal (every module
 * is handle 1 here: the last PTX's globals, by name, the earlier ones
 * kept). Other globals are not found, as before. FAKE_CUDA_SLOT_LOG=1
 * prints each slot global at each launch: its 8-byte words, a device
 * address as `device` (a host address, or anything else, as a number). */
enum { MAX_GLOBALS = 64 };
typedef struct fake_global {
    char name[64];
    CUdeviceptr d;
    size_t n;
    int f64; /* a .f64 scalar: printed as a float */
} fake_global;
static fake_global globals[MAX_GLOBALS];
static unsigned nglobals;

static size_t ptx_type_bytes(const char *t)
{
    int bits = atoi(t + 2);
    return bits >= 8 ? (size_t)bits / 8 : 0;
}

static void ptx_global(const char *line)
{
    const char *at = strstr(line, "__kjit_slot_"), *type = strstr(line, " .align ");
    if (!at || !type || !(type = strchr(type + 8, '.'))) return;
    fake_global gl = {.n = ptx_type_bytes(type), .f64 = !strncmp(type, ".f64", 4)};
    size_t len = strcspn(at, "[; \n");
    if (len >= sizeof gl.name) return;
    memcpy(gl.name, at, len);
    if (at[len] == '[') gl.n *= (size_t)atol(at + len + 1);
    for (unsigned k = 0; k < nglobals; k++)
        if (!strcmp(globals[k].name, gl.name)) return;
    if (nglobals == MAX_GLOBALS || !gl.n || mem_alloc(&gl.d, gl.n) != CUDA_SUCCESS) return;
    memset((void *)(uintptr_t)gl.d, 0, gl.n);
    globals[nglobals++] = gl;
}

static CUresult link_add(CUlinkState s, CUjitInputType t, void *data, size_t n, const char *name, unsigned no,
                         CUjit_option *o, void **v)
{
    (void)s, (void)n, (void)name, (void)no, (void)o, (void)v;
    for (const char *p = data; t == CU_JIT_INPUT_PTX && p && (p = strstr(p, ".visible .global")); p++) {
        char line[256];
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        ptx_global(line);
    }
    return CUDA_SUCCESS;
}

static CUresult global(CUdeviceptr *p, size_t *n, CUmodule m, const char *s)
{
    (void)m;
    for (unsigned k = 0; k < nglobals; k++)
        if (!strcmp(globals[k].name, s)) {
            if (p) *p = globals[k].d;
            if (n) *n = globals[k].n;
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_NOT_FOUND;
}

static void log_globals(void)
{
    const char *log = getenv("FAKE_CUDA_SLOT_LOG");
    if (!log || *log != '1') return;
    for (unsigned k = 0; k < nglobals; k++) {
        fprintf(stderr, "fake slot %s:", globals[k].name);
        const char *base = (const char *)(uintptr_t)globals[k].d;
        for (size_t w = 0; w + 8 <= globals[k].n; w += 8) {
            int64_t x;
            double f;
            memcpy(&x, base + w, 8);
            memcpy(&f, base + w, 8);
            if (globals[k].f64) fprintf(stderr, " %.17g", f);
            else if (x && block_of((CUdeviceptr)x)) fprintf(stderr, " device");
            else fprintf(stderr, " %lld", (long long)x);
        }
        fprintf(stderr, "\n");
    }
}
static CUresult event_create(CUevent *e, unsigned f) { return (void)f, *e = (CUevent)malloc(1), CUDA_SUCCESS; }
static CUresult event_destroy(CUevent e) { return free(e), CUDA_SUCCESS; }
static CUresult elapsed(float *ms, CUevent a, CUevent b) { return (void)a, (void)b, *ms = 0, CUDA_SUCCESS; }
static CUresult error_name(CUresult r, const char **s) { return (void)r, *s = "CUDA_ERROR_FAKE", CUDA_SUCCESS; }

/* CUDA graphs: a graph is its kernel nodes in order (kjit adds each after
 * the one before); launching an instantiated one replays them through
 * launch(), parameters and all (the combine kernels' three, the only ones
 * whose sizes this driver knows; a program's kernels do not run anyway).
 * FAKE_CUDA_COUNTS=1 prints at exit how many kernels ran through
 * cuLaunchKernel and through graphs; FAKE_CUDA_NO_GRAPHS=1 makes a driver
 * without graphs, FAKE_CUDA_GRAPH_FAIL=1 one that refuses to instantiate. */
typedef struct fake_node {
    CUfunction f;
    unsigned dim[6], shared;
    CUdeviceptr p[3];
    uint64_t n;
} fake_node;
typedef struct fake_graph {
    fake_node *v;
    size_t n;
} fake_graph;
static struct {
    unsigned long launches, graph_launches, graph_kernels;
} counts;
__attribute__((destructor)) static void print_counts(void)
{
    if (getenv("FAKE_CUDA_COUNTS"))
        fprintf(stderr, "fake cuda: %lu cuLaunchKernel, %lu cuGraphLaunch of %lu kernels\n", counts.launches,
                counts.graph_launches, counts.graph_kernels);
}
/* FAKE_CUDA_TRACE=1: a line per kernel run, plain or in a graph, naming its
 * configuration and its first parameter, read as a device address (so only
 * for programs whose kernels all take an array first) as the index of its
 * block and the offset in it: the same sequence with and without graphs
 * means the same launches in the same order. */
static void trace(CUfunction f, const unsigned *d, CUdeviceptr arg0)
{
    if (!getenv("FAKE_CUDA_TRACE") || (uintptr_t)f >= COMBINE) return;
    block *b = block_of(arg0);
    fprintf(stderr, "fake cuda: kernel (%u %u %u) (%u %u %u) arg0 %ld+%ld\n", d[0], d[1], d[2], d[3], d[4], d[5],
            b ? (long)(b - blocks) : -1L, b ? (long)((char *)(uintptr_t)arg0 - b->p) : 0L);
}
static CUresult plain_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned shared, CUstream s, void **params, void **extra)
{
    counts.launches++;
    if (f && (uintptr_t)f < COMBINE) log_globals();
    unsigned d[6] = {gx, gy, gz, bx, by, bz};
    if (params) trace(f, d, *(CUdeviceptr *)params[0]);
    return launch(f, gx, gy, gz, bx, by, bz, shared, s, params, extra);
}
static CUresult graph_create(CUgraph *g, unsigned flags)
{
    (void)flags;
    fake_graph *fg = calloc(1, sizeof *fg);
    return fg ? (*g = (CUgraph)fg, CUDA_SUCCESS) : CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult graph_destroy(CUgraph g)
{
    fake_graph *fg = (fake_graph *)g;
    free(fg->v);
    free(fg);
    return CUDA_SUCCESS;
}
static CUresult graph_add_kernel(CUgraphNode *node, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                 const CUDA_KERNEL_NODE_PARAMS *kp)
{
    fake_graph *fg = (fake_graph *)g;
    /* kjit chains its nodes: each depends on exactly the one before */
    if (ndeps != (fg->n ? 1u : 0u) || (ndeps && deps[0] != (CUgraphNode)(uintptr_t)fg->n)) return CUDA_ERROR_INVALID_VALUE;
    fake_node *v = realloc(fg->v, (fg->n + 1) * sizeof *v);
    if (!v) return CUDA_ERROR_OUT_OF_MEMORY;
    fg->v = v;
    fake_node *x = &v[fg->n++];
    memset(x, 0, sizeof *x);
    x->f = kp->func;
    unsigned d[6] = {kp->gridDimX, kp->gridDimY, kp->gridDimZ, kp->blockDimX, kp->blockDimY, kp->blockDimZ};
    memcpy(x->dim, d, sizeof d);
    x->shared = kp->sharedMemBytes;
    if ((uintptr_t)kp->func >= COMBINE) { /* copied now, as the driver copies every parameter */
        x->p[0] = *(CUdeviceptr *)kp->kernelParams[0];
        x->p[1] = *(CUdeviceptr *)kp->kernelParams[1];
        x->n = *(uint64_t *)kp->kernelParams[2];
    } else if (getenv("FAKE_CUDA_TRACE"))
        x->p[0] = *(CUdeviceptr *)kp->kernelParams[0];
    *node = (CUgraphNode)(uintptr_t)fg->n; /* 1-based: never NULL */
    return CUDA_SUCCESS;
}
static CUresult graph_instantiate(CUgraphExec *e, CUgraph g, unsigned long long flags)
{
    (void)flags;
    if (getenv("FAKE_CUDA_GRAPH_FAIL")) return CUDA_ERROR_NOT_SUPPORTED;
    fake_graph *fg = (fake_graph *)g, *copy = calloc(1, sizeof *copy);
    if (!copy || !(copy->v = malloc((fg->n ? fg->n : 1) * sizeof *copy->v))) return free(copy), CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(copy->v, fg->v, fg->n * sizeof *copy->v);
    copy->n = fg->n;
    *e = (CUgraphExec)copy;
    return CUDA_SUCCESS;
}
static CUresult graph_exec_destroy(CUgraphExec e) { return graph_destroy((CUgraph)e); }
static CUresult graph_launch(CUgraphExec e, CUstream s)
{
    const fake_graph *fg = (const fake_graph *)e;
    counts.graph_launches++;
    for (size_t k = 0; k < fg->n; k++) {
        const fake_node *x = &fg->v[k];
        CUdeviceptr p0 = x->p[0], p1 = x->p[1];
        uint64_t n = x->n;
        void *params[3] = {&p0, &p1, &n};
        CUresult r = launch(x->f, x->dim[0], x->dim[1], x->dim[2], x->dim[3], x->dim[4], x->dim[5], x->shared, s,
                            params, NULL);
        if (r != CUDA_SUCCESS) return r;
        trace(x->f, x->dim, x->p[0]);
        counts.graph_kernels++;
    }
    return CUDA_SUCCESS;
}
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int ver, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    static const struct {
        const char *name;
        void *fn;
    } table[] = {
        {"cuDeviceGetCount", count},         {"cuDeviceGet", device},
        {"cuDeviceGetName", name},           {"cuDeviceGetAttribute", attribute},
        {"cuDeviceGetUuid", uuid},
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
        {"cuFuncSetAttribute", func_set},    {"cuLaunchKernel", plain_launch},
        {"cuLinkAddData", link_add},         {"cuLinkDestroy", link_destroy},
        {"cuStreamCreate", stream_create},   {"cuStreamDestroy", stream_destroy},
        {"cuStreamSynchronize", stream_sync}, {"cuEventRecord", event_record},
        {"cuEventSynchronize", event_sync},  {"cuStreamWaitEvent", stream_wait},
        {"cuMemcpyDtoDAsync", dtod_async},   {"cuMemcpyDtoHAsync", d2h_async},
        {"cuMemGetAddressRange", address_range}, {"cuIpcGetMemHandle", ipc_get},
        {"cuIpcOpenMemHandle", ipc_open},    {"cuIpcCloseMemHandle", ipc_close},
        {"cuIpcGetEventHandle", ipc_event_get}, {"cuIpcOpenEventHandle", ipc_event_open},
        {"cuLaunchCooperativeKernel", coop_launch},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessor", occupancy},
    };
    static const struct {
        const char *name;
        void *fn;
    } graphs[] = {
        {"cuGraphCreate", graph_create},          {"cuGraphDestroy", graph_destroy},
        {"cuGraphAddKernelNode", graph_add_kernel}, {"cuGraphInstantiateWithFlags", graph_instantiate},
        {"cuGraphExecDestroy", graph_exec_destroy}, {"cuGraphLaunch", graph_launch},
    };
    if (!getenv("FAKE_CUDA_NO_GRAPHS"))
        for (size_t k = 0; k < sizeof graphs / sizeof graphs[0]; k++)
            if (!strcmp(symbol, graphs[k].name)) {
                if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
                *pfn = graphs[k].fn;
                return CUDA_SUCCESS;
            }
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
