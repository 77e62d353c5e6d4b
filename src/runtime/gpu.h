/* SPDX-License-Identifier: BSD-2-Clause */
/* The GPU side of the runtime: one device context, the program's loaded
 * code, kernel launches and the coherence of host arrays with their device
 * mirrors (docs/cuda.md).
 *
 * Lazy coherence. A host array passed to a kernel gets a mirror on the
 * device, made for the array that owns the memory (views share it). Each
 * side has a valid flag: a launch uploads the mirror only when the device
 * copy is stale, and afterwards counts the host copy stale (the kernel may
 * have written any argument); generated host code calls kj_rt_host_access
 * before it reads or writes an array, which downloads a stale host copy then
 * — not eagerly after the launch, as Numba does — and, for a write, makes
 * the device copy stale. Copies go straight between the array's memory and
 * the device; memory copied a second time is page-locked (gpu_mem.c).
 *
 * Everything is reached from a kj_rt (rt->gpu, rt->code); nothing global.
 * The context is reference counted: mirrors hold a reference, so an array
 * that outlives its kjit context can still free its device memory. */
#ifndef KJ_GPU_H
#define KJ_GPU_H

#include "../abi/abi.h"
#include "array.h"
#include "cuda_drv.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct kj_gpu kj_gpu;
typedef struct kj_gpu_code kj_gpu_code;
typedef struct kj_mirror kj_mirror;
struct kj_abi_kernel;

/* Open device `ordinal` (its primary context); a negative ordinal -1 - r
 * means the device r % count (rank r of a node). NULL with "no CUDA driver
 * found (...)" or "no CUDA device" in err. `stats`: counters are printed
 * to that stream when the last reference goes (KJIT_STATS=1), or NULL. */
kj_gpu *kj_gpu_open(int ordinal, FILE *stats, char *err, size_t cap);
kj_gpu *kj_gpu_retain(kj_gpu *g);
/* Report every copy between host and device to `sink` (events.h) from now
 * on; it is called with the GPU's lock held and must not call kjit. */
struct kj_ev_sink;
void kj_gpu_set_sink(kj_gpu *g, const struct kj_ev_sink *sink);
void kj_gpu_release(kj_gpu *g);
const kj_cu_props *kj_gpu_props(const kj_gpu *g);
/* The device's ordinal, and how many the driver sees. */
int kj_gpu_ordinal(const kj_gpu *g);
int kj_gpu_count(const kj_gpu *g);
/* "sm_90" for the device's compute capability, into buf. */
const char *kj_gpu_arch(const kj_gpu *g, char *buf, size_t cap);

/* PTX → cubin for this device (the driver's error log in err). */
bool kj_gpu_link(kj_gpu *g, const char *ptx, void **cubin, size_t *size, char *err, size_t cap);
/* Load a cubin: the code of one program. */
kj_gpu_code *kj_gpu_load(kj_gpu *g, const void *cubin, char *err, size_t cap);
void kj_gpu_unload(kj_gpu_code *c);
/* Does c define kernel entry `symbol`? (symbol lives as long as c: see
 * gpu.c, function) */
bool kj_gpu_has(kj_gpu_code *c, const char *symbol);
/* Count time spent compiling for the stats (seconds). */
/* For KJIT_STATS: a module compiled (ptx_phases: seconds making the IR,
 * linking libdevice, optimising, emitting PTX; NULL when cached). */
void kj_gpu_note_compile(kj_gpu *g, const double *ptx_phases, double link_seconds, bool cached);

/* Launch kernel k of `code` (abi.h: cfg, args), marshalling arrays to
 * their mirrors. slots[j] is the memory form of the module slot
 * k->slots[j] (NULL when k reads none): written into the module's global
 * for it, an array's device copy made current first. A fault in the kernel
 * is reported in e, naming the kernel, its configuration and file:line of
 * the launch; an error the kernel raised (boundscheck, assert) also sets
 * eline and ecol to where in the kernel it was raised. */
/* Launch specialisation (gpu_spec.c, kir_index32.h): does k have a 32-bit
 * index entry and do the launch's arrays (args, memory forms) and grid
 * (cfg, abi.h's int64[8]) fit it? */
bool kj_gpu_index32_fits(const struct kj_abi_kernel *k, const int64_t *cfg, void *const *args);
bool kj_gpu_launch(kj_gpu *g, kj_gpu_code *code, const struct kj_abi_kernel *k, const int64_t *cfg,
                   void **args, const void *const *slots, const char *file, int32_t line, kj_rt_error *e,
                   int32_t *eline, int32_t *ecol);
/* A prepared launch of kernel k of `code`: its entry found and its
 * argument slots built once, pointing into `args` (abi.h's memory forms,
 * which the caller keeps and rewrites between launches: the scalars, and
 * the arrays' descriptors with the ranks of k's parameters). Per launch it
 * only makes the arrays' device copies current and writes their device
 * addresses: no lookup, no allocation. */
typedef struct kj_gpu_plan kj_gpu_plan;
kj_gpu_plan *kj_gpu_plan_new(kj_gpu *g, kj_gpu_code *code, const struct kj_abi_kernel *k, void **args,
                             kj_rt_error *e);
/* As kj_gpu_launch of the plan's kernel with its arguments (the launch
 * named "through kjit_launch" in errors found later). */
bool kj_gpu_plan_launch(kj_gpu_plan *p, const int64_t *cfg, kj_rt_error *e, int32_t *eline, int32_t *ecol);
void kj_gpu_plan_free(kj_gpu_plan *p);
/* A host loop of launches begins (true: its launches may be replayed as a
 * CUDA graph, gpu_graph.c) and ends (every launch taken is made; false
 * with e on a driver error). */
bool kj_gpu_graph_begin(kj_gpu *g);
bool kj_gpu_graph_end(kj_gpu *g, kj_rt_error *e);
/* Wait for every launch; errors as kj_gpu_launch reports them. */
bool kj_gpu_synchronize(kj_gpu *g, kj_rt_error *e);

/* Host code is about to read (write = false) or write array `a` (any view
 * of it): bring a stale host copy back; a write makes the device copy
 * stale. Arrays that were never on the device cost one test. */
bool kj_gpu_host_access(kj_array *a, bool write, kj_rt_error *e);
/* Is a's device copy current and its host copy stale? */
bool kj_gpu_device_only(kj_array *a);
/* What a new device copy holds: the host's data (cuda.to_device), zeros
 * (device_array: as the host copy, so that both sides agree), or nothing
 * yet — an output that the next launch writes whole (a ufunc's). */
typedef enum {
    KJ_GPU_ZERO = KJ_ABI_FILL_ZERO,
    KJ_GPU_UPLOAD = KJ_ABI_FILL_UPLOAD,
    KJ_GPU_UNSET = KJ_ABI_FILL_UNSET,
} kj_gpu_fill;
/* Give `a` a device mirror now, current there and stale on the host. */
bool kj_gpu_to_device(kj_gpu *g, kj_array *a, kj_gpu_fill fill, kj_rt_error *e);
/* (gpu_blas.c) a @ b through cuBLAS: may it run there? Two 2-d non-empty
 * float32 or float64 views of one dtype, each C- or F-ordered, and cuBLAS
 * opens (else the host's product runs). kj_gpu_gemm: the product, a new
 * C-ordered array whose data are on the GPU only; NULL with e. */
bool kj_gpu_gemm_ok(kj_gpu *g, const kj_array *a, const kj_array *b);
kj_array *kj_gpu_gemm(kj_gpu *g, kj_array *a, kj_array *b, kj_rt_error *e);
/* Copy all of src into dst, two C-contiguous arrays of one dtype and size
 * (different memory), from wherever src is current to dst's device copy
 * (to_device: cuda.to_device) or its host memory (copy_to_host), without a
 * stop in between: one device-to-device copy, one transfer or a memcpy.
 * dst's other side becomes stale. */
bool kj_gpu_copy(kj_gpu *g, kj_array *dst, kj_array *src, bool to_device, kj_rt_error *e);
/* Free the mirror of an array being freed (array.c), whose own memory is
 * `data` (NULL when the array does not own it). True when the GPU context
 * kept that memory for reuse (kj_gpu_host_array): the caller must not free
 * it then. */
bool kj_gpu_mirror_free(kj_mirror *m, void *data);
/* A new C-ordered array over host memory a freed array of the same size
 * left (with its page-locking), or NULL when there is none: for the results
 * of ufunc calls, whose content the call writes whole. */
kj_array *kj_gpu_host_array(kj_gpu *g, kj_dtype dt, int ndim, const int64_t *shape);

/* Streams: created blocking, so that the default stream, which every
 * transfer uses, still orders them (a copy waits for their kernels). */
void *kj_gpu_stream_new(kj_gpu *g);
void kj_gpu_stream_free(kj_gpu *g, void *s);
/* Wait for stream s (NULL: the whole device). */
bool kj_gpu_stream_sync(kj_gpu *g, void *s, kj_rt_error *e);
/* kernel.max_cooperative_grid_blocks: occupancy of k's entry for blocks of
 * `threads` threads and `dyn` dynamic shared bytes, times the SMs. */
bool kj_gpu_coop_max_blocks(kj_gpu *g, kj_gpu_code *c, const struct kj_abi_kernel *k, int64_t threads, int64_t dyn,
                            int64_t *out, kj_rt_error *e);
/* (gpu_stream.c) cuda.default_stream() and its kin: kind a KJ_STREAM_*
 * (builtins_cuda_host.h), ptr the external stream's CUstream. Not owned:
 * never destroyed by kjit. */
void *kj_gpu_stream_special(kj_gpu *g, int kind, intptr_t ptr);
/* cuProfilerStart (start) or cuProfilerStop; true without them. */
bool kj_gpu_profile(kj_gpu *g, bool start, kj_rt_error *e);

/* Events: a CUevent each, recorded on the default stream. */
void *kj_gpu_event_new(kj_gpu *g);
void kj_gpu_event_free(kj_gpu *g, void *ev);
bool kj_gpu_event_record(kj_gpu *g, void *ev, void *stream, kj_rt_error *e); /* stream NULL: the default */
/* Milliseconds from a to b (both recorded), after waiting for b. */
bool kj_gpu_event_elapsed(kj_gpu *g, void *a, void *b, float *ms, kj_rt_error *e);

/* ---- MPI buffers (gpu_mpi.c, docs/scale-out.md) ----
 * Where an array view passed to MPI is current decides how its bytes go:
 * a view whose device copy is the one to use is "device-resident", and its
 * bytes go straight to a CUDA-aware MPI (its device address) or through a
 * page-locked staging buffer, only the view's bytes; any other goes
 * through its host copy, made current as for host code. */

/* Is view a device-resident for a send (its owner's device copy current,
 * the host copy stale) or a receive (the device copy current: receiving
 * there keeps it so), and C-contiguous? */
bool kj_gpu_mpi_on_device(const kj_array *a, bool recv);
/* The device address of device-resident view a, every launch finished
 * (the kernel that wrote it may be on any stream). */
bool kj_gpu_mpi_device_ptr(kj_gpu *g, const kj_array *a, void **p, kj_rt_error *e);
/* After MPI wrote view a on the device: its host copy is stale. */
void kj_gpu_mpi_received(kj_array *a);
/* The bytes of device-resident view a into host memory h, or from h into
 * its device copy (and into its host copy too when that is current, so
 * that it stays so). */
bool kj_gpu_view_download(kj_gpu *g, const kj_array *a, void *h, kj_rt_error *e);
bool kj_gpu_view_upload(kj_gpu *g, kj_array *a, const void *h, kj_rt_error *e);
/* ---- device buffers GPU to GPU between ranks of one node (gpu_ipc.c) ----
 * What a sender tells the receiver of a device-resident view: the IPC
 * handle of the allocation holding it, where the view is in it, an event
 * that follows every launch made before the send, and the sender's machine. */
typedef struct kj_gpu_ipc_desc {
    CUipcMemHandle mem;
    CUipcEventHandle ev;
    uint64_t offset, bytes;
    char node[40];
} kj_gpu_ipc_desc;
/* Export device-resident view a into d: an event slot to release once the
 * receiver has copied (kj_gpu_ipc_release), or -1 with e. */
int kj_gpu_ipc_export(kj_gpu *g, const kj_array *a, kj_gpu_ipc_desc *d, kj_rt_error *e);
/* An event after the launches made so far that used array a (those of its
 * one stream, else all): posted receives wait for it before writing their
 * buffer. Its slot, or -1 with e. */
int kj_gpu_ipc_fence(kj_gpu *g, const kj_array *a, kj_rt_error *e);
void kj_gpu_ipc_release(kj_gpu *g, int slot);
/* Copy what d describes into device-resident view dst, or into host memory
 * `host` when not NULL, after the sender's event and fence (a slot, or -1),
 * and wait for that copy: 1 when done, 0 when this GPU cannot reach the
 * peer's (another machine, no peer access: the sender must send the bytes),
 * -1 with e on a failure. */
int kj_gpu_ipc_pull(kj_gpu *g, const kj_gpu_ipc_desc *d, kj_array *dst, void *host, int fence, int combine,
                    kj_rt_error *e);
/* `combine` (KJ_MPI_OP_SUM, _MAX, _MIN; 0: a copy) makes the pull a
 * reduction into device-resident dst, reading the peer's memory in place
 * (gpu_combine.c): dst[i] = op(dst[i], peer[i]). */
bool kj_gpu_combine_supported(int op, kj_dtype dt);
/* Its kernel's PTX into s (cap >= 2048): the length, 0 when not supported
 * (the tests assemble each with ptxas). */
size_t kj_gpu_combine_ptx(int op, kj_dtype dt, char *s, size_t cap);
/* The same between two device-resident views of this GPU (a reduction's
 * own contribution), and dst = src when op is 0; waits for it. */
bool kj_gpu_view_combine(kj_gpu *g, int op, kj_array *dst, const kj_array *src, kj_rt_error *e);

/* ---- device memory shared with code outside kjit (gpu_foreign.c) ----
 * An array over `dptr`, device memory another library allocated in this
 * context (checked with cuMemGetAddressRange), with `strides` in bytes
 * (NULL: C order): launches use that memory as it is, kjit never frees it,
 * and its host copy (kjit's) is filled from it by each host read. */
kj_array *kj_gpu_wrap_device(kj_gpu *g, uint64_t dptr, kj_dtype dt, int ndim, const int64_t *shape,
                             const int64_t *strides, kj_rt_error *e);
/* The device address of a's first element: its device copy made current
 * (uploaded when the host's was newer) and from then on counted as the
 * current one, shared (later host reads copy it back). */
bool kj_gpu_device_ptr(kj_gpu *g, kj_array *a, uint64_t *out, kj_rt_error *e);

/* Page-locked host memory of n bytes (cuMemHostAlloc), and its release. */
void *kj_gpu_pinned_alloc(kj_gpu *g, size_t n, kj_rt_error *e);
void kj_gpu_pinned_free(kj_gpu *g, void *p);

/* gpu_dev.c: CU_DEVICE_ATTRIBUTE `code` of device `ordinal`, and its name
 * (cuDeviceGetAttribute, cuDeviceGetName); false when the driver refuses. */
bool kj_gpu_device_attr(kj_gpu *g, int ordinal, int code, int64_t *v);
bool kj_gpu_device_name(kj_gpu *g, int ordinal, char *buf, size_t cap);
/* its 16 UUID bytes (cuDeviceGetUuid; false where the driver has none) */
bool kj_gpu_device_uuid(kj_gpu *g, int ordinal, unsigned char out[16]);

/* Device memory: free and total bytes (cuMemGetInfo). */
bool kj_gpu_mem_info(kj_gpu *g, size_t *free_bytes, size_t *total_bytes);

#endif
