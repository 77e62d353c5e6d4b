/* SPDX-License-Identifier: BSD-2-Clause */
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

#include "../abi/exc.h"
#include "../abi/rtfns.h"
#include "random.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Kinds of run-time error, named after the Python exception they stand
 * for (../abi/exc.h lists them, with each one's base class). 0 means no
 * error; RuntimeError stands for anything else. */
typedef enum kj_rt_kind {
#define KJ_EXC_KIND(id, name, base, raisable) KJ_RT_##id,
    KJ_EXC_CLASSES(KJ_EXC_KIND)
#undef KJ_EXC_KIND
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
    /* Numba's thread-pool settings (rt_threads.c): the threads parallel
     * loops use (0: all of the pool's; numba.set_num_threads), this
     * context's worker index (numba.get_thread_id), the iterations per
     * chunk (0: kjit's choice; numba.set_parallel_chunksize). A worker's
     * context inherits the thread count and has chunk size 0, as Numba's. */
    int32_t num_threads, thread_id;
    int64_t chunksize;
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
     * the next result of the same size made where the run is at hand
     * (kj_rt_spare_array: ufuncs, fused expressions, fancy indexing,
     * random draws, copies, np.sort, np.argsort): a fresh block pays its
     * page faults again, which cost as much as a cheap loop over it. Freed
     * with the arrays. */
    struct kj_rt_spare {
        void *data;
        size_t bytes;
    } spare[4];
    unsigned nspare;
    /* MPI (mpi.h) for programs that import mpi4py, else NULL; the run's
     * requests (rt_mpi.c), freed with its arrays */
    struct kj_mpi *mpi;
    struct kj_rt_mpi_state *mpi_run;
    /* reflected lists made by generated code (list.c), freed with the arrays;
     * last, so that generated code's offsets of the fields above stay */
    struct kj_list **lists;
    size_t nlists, cap_lists;
    /* OpenBLAS and LAPACKE (linalg.h), opened by the run's first linear
     * algebra and closed with its arrays; NULL until then */
    struct kj_linalg_lib *linalg;
    /* the cooperative launch (grid.sync()) whose block this context runs
     * on the cpu targets (rt_grid.c), else NULL */
    struct kj_grid_run *grid;
    /* dicts and sets made by generated code (dict.c), freed with the lists */
    struct kj_dict **dicts;
    size_t ndicts, cap_dicts;
    /* strings made by generated code (str.c), freed with the arrays */
    char **strs;
    size_t nstrs, cap_strs;
    /* a script's module slots (rt_modslot.c): the values of module-level
     * names compiled functions read; a worker borrows its parent's */
    struct kj_rt_modslots *mods;
    bool mods_borrowed;
    /* the `random` module's stream, apart from np.random's (pyrandom.h,
     * rt_pyrandom.c), seeded from OS entropy at first use unless
     * pyrng_seeded; last, as kj_rt_init leaves it unwritten like rng */
    int32_t exc_form; /* the raised exception's arguments (exc_obj.h's KJ_EXC_FORM_*) */
    /* generators' frames (pygen.c): those scopes may free (gens), those
     * that live until the run ends (pinned); the most in gens at once */
    struct kj_gen_hdr **gens, **pinned;
    size_t ngens, cap_gens, npinned, cap_pinned, peak_gens;
    uint32_t gen_epoch;
    bool pyrng_seeded;
    kj_mt19937 pyrng;
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

/* ---- array lifetime (kj_rt_mark, kj_rt_collect, kj_rt_keep: rtfns.def) ---- */

/* Register an array the runtime created for generated code: the context
 * holds its one reference until released. */
void kj_rt_own(kj_rt *rt, kj_array *a);
/* Fill the ABI descriptor `out` (abi.h) of an ndim-dimensional view of the
 * whole of `a`, owned by `a`. */
void kj_rt_describe(void *out, const kj_array *a, int ndim);
/* Raise the kj_rt_error `e` (its exception named by e->exc) at line:col. */
_Noreturn void kj_rt_raise_error(kj_rt *rt, const kj_rt_error *e, int32_t line, int32_t col);
/* A launch configuration (abi.h's cfg) within CUDA's limits, as the driver
 * checks it, for kernel `kernel`; else false with the driver's error in e
 * (rt_launch.c). */
bool kj_rt_launch_check(const int64_t *cfg, const char *kernel, kj_rt_error *e);

/* Free the run's lists (list.c; with its arrays, at the end of a run). */
void kj_rt_list_free_all(kj_rt *rt);
/* Free the run's dicts and sets (dict.c). */
void kj_rt_dict_free_all(kj_rt *rt);
/* Free the run's generator frames (pygen.c; with its arrays, at the end of a run). */
void kj_rt_gen_free_all(kj_rt *rt);
/* Free the run's strings (str.c; with its arrays, at the end of a run). */
void kj_rt_str_free_all(kj_rt *rt);
/* rt_modslot.c: the memory form of module slot `index` when it is bound,
 * else NULL (kj_rt_module_slot raises NameError instead) */
const void *kj_rt_module_slot_peek(const kj_rt *rt, int32_t index);
/* rt_modslot.c: free the run's module slots (not a worker's borrowed ones) */
void kj_rt_modslots_free(kj_rt *rt);

/* ---- parallel loops (the `parallel` target; docs/runtime.md "Thread pool") ---- */

/* One chunk [begin, end) of a parallel loop's iteration space, with the
 * chunk's private reduction storage `acc` (NULL when the loop has no
 * reductions), which the chunk initialises and leaves its result in. */
enum { KJ_RT_MAX_ACC = 1024 }; /* the most bytes of reduction storage per chunk */
typedef void (*kj_rt_chunk_fn)(kj_rt *rt, void *env, int64_t begin, int64_t end, void *acc);
/* Fold one chunk's `acc` into the loop's variables (through env). */
typedef void (*kj_rt_combine_fn)(kj_rt *rt, void *env, void *acc);

/* The context's pool as tasks for the array layer (array.h kj_tasks: the
 * whole-array reductions), filled into *storage; NULL when there is nothing
 * to spread over: no pool, one thread, or a worker inside a parallel loop. */
struct kj_tasks;
const struct kj_tasks *kj_rt_tasks(kj_rt *rt, struct kj_tasks *storage);

/* The threads parallel work uses: the pool's, or fewer after
 * numba.set_num_threads (rt_threads.c). */
int kj_rt_threads(const kj_rt *rt);

/* ---- what generated code calls ----
 *
 * Raising, array lifetime, assignment, launches, parallel loops, the host
 * built-ins (rtfns.def tells their conventions): one prototype per row of
 * src/abi/rtfns.def, where each is declared and described, so that the
 * code generator's declarations (made from the same rows) and these agree. */
#define KJ_RTARG(letter, type, name) type name
#define KJ_RTFN(id, fn, flags, ret, params) KJ_RTATTR_##flags ret fn params;
#include "../abi/rtfns.def"
#undef KJ_RTARG

#endif
