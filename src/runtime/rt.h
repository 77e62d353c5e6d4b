/* The run-time entry points that JIT-compiled host code calls, and the run
 * context it carries.
 *
 * Every generated host function receives a `kj_rt *` as its hidden first
 * parameter (see src/abi/abi.h). Raising a run-time error records it in
 * the context and longjmps back to the innermost kj_rt_call_entry, which
 * returns the error's kind. This is safe because no frame between the two
 * needs unwinding: generated code has no destructors or cleanups, and the
 * runtime functions it calls hold no locks or resources when they raise. A
 * runtime function that owns temporaries must release them before calling
 * kj_rt_raise*.
 *
 * Arrays: every kj_array the runtime creates for generated code is
 * registered in the context (kj_rt_own) and released when the outermost
 * kj_rt_call_entry returns, error or not; an array returned by the entry
 * point carries one extra reference for the caller (see "Array lifetime"
 * in docs/codegen.md). Functions and loops that allocate release their
 * dead temporaries early (kj_rt_mark / kj_rt_collect), so a loop that
 * allocates in every iteration runs in bounded memory.
 *
 * Everything here is thread-safe: state lives in the kj_rt of one call. */
#ifndef KJ_RT_H
#define KJ_RT_H

#include "random.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Kinds of run-time error, named after the Python exception they stand
 * for. 0 means no error. */
typedef enum kj_rt_kind {
    KJ_RT_OK = 0,
    KJ_RT_ZERO_DIVISION, /* ZeroDivisionError */
    KJ_RT_INDEX,         /* IndexError */
    KJ_RT_ASSERTION,     /* AssertionError */
    KJ_RT_VALUE,         /* ValueError */
    KJ_RT_OVERFLOW,      /* OverflowError */
    KJ_RT_MEMORY,        /* MemoryError */
    KJ_RT_RUNTIME,       /* RuntimeError: anything else */
    KJ_RT_TYPE,          /* TypeError (NumPy: bool - bool) */
    KJ_RT_OS,            /* OSError (np.save to an unwritable path) */
    KJ_RT_FILE_NOT_FOUND, /* FileNotFoundError (np.load) */
    KJ_RT_RECURSION,     /* RecursionError: the stack is nearly exhausted */
    KJ_RT_AXIS,          /* AxisError (numpy.exceptions): an axis out of bounds */
    KJ_RT__COUNT
} kj_rt_kind;

typedef struct kj_rt_event kj_rt_event;

/* The context of one run of generated code (one or more entry calls). */
typedef struct kj_rt {
    jmp_buf *jb;            /* the innermost kj_rt_call_entry; NULL outside one */
    const char *file;       /* source path for messages (not owned) */
    kj_rt_kind kind;        /* the error raised, KJ_RT_OK when none */
    int32_t line, col;      /* its location, 0 when unknown */
    char message[512];      /* without the kind: "index 10 is out of bounds ..." */
    void *user;             /* for the embedding layer (not read by kjit) */
    FILE *out;              /* where print() writes: stdout unless set after kj_rt_init;
                               flushed when the outermost entry call returns */
    int depth;              /* nesting of kj_rt_call_entry */
    kj_array **arrays;      /* arrays created by generated code (one reference each) */
    size_t narrays, cap_arrays;
    size_t peak_arrays;     /* the most registered at once (tests check loops stay bounded) */
    kj_rt_event *events;    /* cuda.event() objects, freed with the arrays */
    kj_mt19937 rng;         /* np.random's stream: one per context */
    struct kj_gpu *gpu;     /* the GPU kernels run on (gpu.h); NULL: they run on the host */
    void **streams;         /* cuda.stream()s made by the run (CUstream), destroyed with its arrays */
    size_t nstreams, cap_streams;
    struct kj_gpu_code *code; /* the program's loaded GPU code, with gpu */
    bool rng_seeded;        /* false: seeded from OS entropy at first use, as NumPy */
    /* The context's thread pool (pool.h) for parallel loops; NULL: they run
     * serially. in_parallel: this is a worker's context inside
     * kj_rt_parallel_for, where nested parallel loops run serially. */
    struct kj_pool *pool;
    bool in_parallel;
    /* Recursive functions raise RecursionError when the stack pointer goes
     * below stack_limit (kj_rt_stack_check). UINTPTR_MAX until the first
     * check of a run computes it for the stack [stack_lo, stack_hi) of the
     * thread that runs; a check on another thread's stack recomputes it. */
    uintptr_t stack_limit, stack_lo, stack_hi;
    /* What the fault handler (fault.h) names: the compiled function being
     * run and, when known, the line of its launch (0: unknown). */
    const char *fn_name;
    int32_t fn_line;
    bool launch_only;       /* the entry only launches on the GPU (kjit_launch): it returns
                               without waiting for the GPU (the application calls
                               kjit_sync, as with CUDA's launches) and prints nothing */
    const struct kj_ev_sink *sink; /* events.h: each launch reported and timed; NULL: none */
    /* The memory of large arrays the run dropped (kj_rt_collect), kept for
     * the next ufunc result of the same size (kj_rt_spare_array): a fresh
     * block pays its page faults again, which cost as much as a cheap loop
     * over it. Freed with the arrays. */
    struct kj_rt_spare {
        void *data;
        size_t bytes;
    } spare[4];
    unsigned nspare;
    /* MPI (mpi.h) for programs that import mpi4py, else NULL; the run's
     * requests (rt_mpi.c), freed with its arrays */
    struct kj_mpi *mpi;
    struct kj_rt_mpi_state *mpi_run;
} kj_rt;

/* On functions that call JIT-compiled code through a pointer: clang's
 * -fsanitize=function (part of UBSan) reads a type signature just before
 * the callee, which JIT code lacks; when the callee starts a page, that read
 * faults. */
#if defined(__clang__)
#define KJ_CALLS_JIT __attribute__((no_sanitize("function")))
#else
#define KJ_CALLS_JIT
#endif

/* The signature of every JIT entry point `M.entry` (abi.h). */
typedef void (*kj_entry_fn)(kj_rt *rt, void **args, void *ret);

/* A fresh context: print() to stdout, no arrays, the random stream not
 * yet seeded. */
void kj_rt_init(kj_rt *rt, const char *file);
/* Release what a context still holds (nothing after the outermost entry
 * call returned; needed only when calls were abandoned). */
void kj_rt_dispose(kj_rt *rt);

/* Call an entry point, catching its run-time errors: returns KJ_RT_OK, or
 * the kind of the error (details in rt). Calls may nest (generated code →
 * runtime → generated code); an error returns to the innermost. When the
 * outermost call returns, the arrays generated code created are released
 * (a returned array keeps the reference the entry point handed over: the
 * caller releases its `owner` with kj_array_release) and rt->out is
 * flushed. */
kj_rt_kind kj_rt_call_entry(kj_rt *rt, kj_entry_fn fn, void **args, void *ret);

/* "ZeroDivisionError", "IndexError", ... */
const char *kj_rt_kind_name(kj_rt_kind kind);

/* The error as "file:line:col: IndexError: message" (parts without a value
 * left out) into buf. Returns buf. */
char *kj_rt_format_error(const kj_rt *rt, char *buf, size_t cap);

/* ---- called by generated code (never return) ---- */

/* Raise `kind` with message `msg` (may be NULL) at line:col. */
_Noreturn void kj_rt_raise(kj_rt *rt, int32_t kind, const char *msg, int32_t line, int32_t col);
/* IndexError: index 10 is out of bounds for axis 0 with size 10 */
_Noreturn void kj_rt_raise_index(kj_rt *rt, int64_t index, int64_t axis, int64_t size, int32_t line,
                                 int32_t col);
/* The same for an unsigned index (its bits in `index`): a uint64 index of
 * 2**64-1 is "index 18446744073709551615 ...", as NumPy shows it. */
_Noreturn void kj_rt_raise_index_unsigned(kj_rt *rt, int64_t index, int64_t axis, int64_t size, int32_t line,
                                          int32_t col);

/* ---- array lifetime (called by generated code) ---- */

/* Register an array the runtime created for generated code: the context
 * holds its one reference until released. */
void kj_rt_own(kj_rt *rt, kj_array *a);
/* The registry's current size: arrays registered after this are the
 * temporaries of the scope (function call or loop) that asked. */
int64_t kj_rt_mark(kj_rt *rt);
/* Release the arrays registered since `mark` except those in keep[0..n)
 * (owners still reachable from live variables or a return value; NULLs
 * are ignored). */
void kj_rt_collect(kj_rt *rt, int64_t mark, void *const *keep, int32_t nkeep);
/* One more reference to `owner` (a kj_array*, or NULL) for the caller of
 * an entry point that returns it. */
void kj_rt_keep(kj_rt *rt, void *owner);
/* Fill the ABI descriptor `out` (abi.h) of an ndim-dimensional view of the
 * whole of `a`, owned by `a`. */
void kj_rt_describe(void *out, const kj_array *a, int ndim);
/* Raise the kj_rt_error `e` (its exception named by e->exc) at line:col. */
_Noreturn void kj_rt_raise_error(kj_rt *rt, const kj_rt_error *e, int32_t line, int32_t col);

/* ---- helpers called by generated code ---- */

/* dst[...] = src with NumPy broadcasting of src's shape into dst's; both
 * are ABI descriptors (abi.h) of elements of `itemsize` bytes. Overlapping
 * memory is handled (the source is copied first). Raises ValueError when
 * the shapes do not broadcast. */
void kj_rt_assign(kj_rt *rt, const void *dst, int32_t dst_ndim, const void *src, int32_t src_ndim,
                  int64_t itemsize, int32_t line, int32_t col);

/* The one launch entry (rt_launch.c; abi.h "kernels"): kernel `k` (a
 * kj_abi_kernel) over cfg = grid x, y, z, block x, y, z, stream, dynamic
 * shared bytes, with args[j] pointing to argument j in its memory form.
 * The configuration is checked first: RuntimeError
 * "CUDA_ERROR_INVALID_VALUE: ..." for one CUDA rejects (a dimension < 1,
 * a block of more than 1024 threads or a dimension over its limit, a
 * negative count of dynamic shared bytes; static plus dynamic shared memory
 * over the device's opt-in limit, sm_90's 227 KiB on the cpu target, is
 * "kernel 'k' needs S bytes of static and D bytes of dynamic shared memory
 * per block; the device has at most N"). With a GPU in the context
 * (rt->gpu) the kernel runs there (gpu.h); else its blocks run here, in
 * order z, y, x, through k->block. */
void kj_rt_launch(kj_rt *rt, const void *k, const int64_t *cfg, void **args, int32_t line, int32_t col);

/* Block storage of a cpu kernel launch (abi.h, kj_abi_kx): a buffer of at
 * least `bytes` bytes (64-byte aligned; `K.block` zeroes what it uses)
 * owned by kx (a kj_abi_kx*), grown when needed. `guarded` (a kernel with
 * dynamic shared memory, which it puts last): the buffer ends at most 63
 * bytes before an inaccessible guard region, so that writing past the
 * launch's shared bytes faults instead of corrupting the heap. MemoryError
 * at line:col when it cannot be had. Called once per block by `K.block`. */
void *kj_rt_block_storage(kj_rt *rt, void *kx, int64_t bytes, int32_t guarded, int32_t line, int32_t col);

/* Called by a recursive function at entry when the stack pointer is below
 * rt->stack_limit: computes the limit first if the run has none yet for
 * this thread, then raises "RecursionError: maximum recursion depth
 * exceeded in 'fn'" at line:col (the function's definition) if the stack
 * is really nearly exhausted; else returns. */
void kj_rt_stack_check(kj_rt *rt, const char *fn, int32_t line, int32_t col);

/* Called by a loop of a cpu kernel that can only wait for another thread
 * (reads memory, changes nothing but through atomics) every 2^24
 * iterations, with *since (0 at the loop's start) for its state: raises
 * "RuntimeError: kernel 'k' waits in a loop that ..." at line:col (the
 * loop) when it has waited too long: at once when the blocks run one
 * after the other (nothing else can change what it reads), after 10 s
 * when they run on the pool (another block may). Else returns. */
void kj_rt_spin_check(kj_rt *rt, double *since, int32_t line, int32_t col);

/* ---- parallel loops (the `parallel` target; docs/runtime.md "Thread pool") ---- */

/* One chunk [begin, end) of a parallel loop's iteration space, with the
 * chunk's private reduction storage `acc` (NULL when the loop has no
 * reductions), which the chunk initialises and leaves its result in. */
enum { KJ_RT_MAX_ACC = 1024 }; /* the most bytes of reduction storage per chunk */
typedef void (*kj_rt_chunk_fn)(kj_rt *rt, void *env, int64_t begin, int64_t end, void *acc);
/* Fold one chunk's `acc` into the loop's variables (through env). */
typedef void (*kj_rt_combine_fn)(kj_rt *rt, void *env, void *acc);

/* Run fn over [0, n) in chunks of at least min_chunk iterations on the
 * context's pool, the calling thread taking part; then, on the calling
 * thread, combine(rt, env, acc) for each chunk in chunk order when
 * acc_bytes > 0 (so a reduction's result depends only on the chunk count,
 * i.e. on n and the thread count). With one chunk (small n, no pool, one
 * thread, or inside another parallel loop) fn runs inline on rt. Each
 * worker runs its chunks with a context of its own (its own jmp_buf and
 * arrays): the first error, by chunk order, is kept, chunks not yet
 * started are skipped, and the error is raised again here after the join.
 * A pool that cannot be had is not an error: the loop runs serially. */
void kj_rt_parallel_for(kj_rt *rt, kj_rt_chunk_fn fn, void *env, int64_t n, int64_t min_chunk,
                        int64_t acc_bytes, kj_rt_combine_fn combine);

/* The context's pool as tasks for the array layer (array.h kj_tasks: the
 * whole-array reductions), filled into *storage; NULL when there is nothing
 * to spread over: no pool, one thread, or a worker inside a parallel loop. */
struct kj_tasks;
const struct kj_tasks *kj_rt_tasks(kj_rt *rt, struct kj_tasks *storage);

/* round(x, ndigits) for floats, correctly rounded as CPython does it. */
double kj_rt_round_ndigits(double x, int64_t ndigits);
/* round(x, ndigits) for an integer and ndigits < 0: round half to even at
 * 10**-ndigits. */
int64_t kj_rt_round_int(int64_t x, int64_t ndigits);
/* math.lgamma without the global `signgam` of C's lgamma. */
double kj_rt_lgamma(double x);
float kj_rt_lgammaf(float x);

#endif
