/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal state of the public C API, shared by its files:
 *
 *   kjit.c     options, contexts, compiling, diagnostics, texts
 *   pipeline.c the compile pipeline (kj_pipeline; its stages in
 *              src/ir/pipeline.h)
 *   machine.c  machine code for a module: codegen, the compile cache,
 *              code for specialisations made at call time
 *   call.c     functions of a module, kjit_call / kjit_launch, marshalling
 *   array.c    kjit_array over the runtime's kj_array, dtypes, values
 *   stats.c    KJIT_STATS=1's counters of compiles, the pool, host launches
 *
 * Locking: a context's mutex serialises its compiles (they share its
 * diagnostics); a module's mutex serialises everything that changes it
 * after the compile (specialisation, code generation, function handles).
 * Calls of compiled code take the module lock only to find their entry
 * point, then run concurrently, each with its own kj_rt. */
#ifndef KJ_API_INT_H
#define KJ_API_INT_H

#include <kjit.h>

#include "abi/abi.h"
#include "cache/cache.h"
#include "codegen/codegen_api.h"
#include "frontend/ast.h"
#include "ir/kir.h"
#include "ir/pipeline.h"
#include "ir/sema.h"
#include "ir/types.h"
#include "runtime/array.h"
#include "runtime/events.h"
#include "runtime/gpu.h"
#include "runtime/mpi.h"
#include "runtime/pool.h"
#include "util/arena.h"
#include "util/diag.h"

#include <pthread.h>
#include <stdatomic.h>

/* The compile cache and its counters (kjit_ctx_cache_stats), shared by a
 * context and the modules it compiled: a module makes code at call time
 * (specialisations) and may do so after its context is freed. Reference
 * counted; the counters are atomic because modules count without the
 * context's lock. */
typedef struct kj_api_cache {
    kj_cache *c;
    atomic_uint refs;
    atomic_uint_least64_t hits, disk_hits, misses;
} kj_api_cache;

/* KJIT_STATS=1 (stats.c): counters shared, reference counted, by a
 * context and the modules it compiled, printed to stderr by the last
 * release. NULL everywhere when KJIT_STATS is off. */
enum { KJ_API_MAX_KSTATS = 64 };
typedef struct kj_api_stats {
    atomic_uint refs;
    pthread_mutex_t lock; /* modules specialise and launch concurrently */
    double stage_s[KJ_STAGE_END];
    unsigned host_modules, host_cached;
    kj_pool *pool; /* a reference, once a module runs parallel code */
    unsigned nk;
    struct {
        char name[64];
        uint64_t launches;
        double seconds;
    } k[KJ_API_MAX_KSTATS];
    unsigned nremap; /* kernels compiled with a thread-layout permutation (kir_layout.h) */
    char remap[KJ_API_MAX_KSTATS][64];
} kj_api_stats;

kj_api_stats *kj_api_stats_new(void); /* NULL unless KJIT_STATS is on */
kj_api_stats *kj_api_stats_retain(kj_api_stats *s);
void kj_api_stats_release(kj_api_stats *s);
void kj_api_stats_stage(kj_api_stats *s, kj_stage stage, double seconds);
void kj_api_stats_host_code(kj_api_stats *s, bool cached);
void kj_api_stats_remap(kj_api_stats *s, const char *kernel); /* kernel was remapped by LAYOUT */
void kj_api_stats_pool(kj_api_stats *s, kj_pool *p);
void kj_api_stats_launch(kj_api_stats *s, const char *kernel, double seconds);

/* The application's event hook (kjit_options.on_event) and the runtime's
 * sink that forwards to it (sink.user points at the hook): a context and
 * each of its modules hold one, since a module may outlive its context. */
typedef struct kj_api_events {
    kjit_event_hook hook;
    void *user;
    kj_api_stats *stats; /* launches on the host counted there (not a reference) */
    kj_ev_sink sink;     /* sink.fn NULL when there is no hook and no stats */
} kj_api_events;

/* ev for opt's hook (ev must not move afterwards: sink.user points into it). */
void kj_api_events_init(kj_api_events *ev, const kjit_options *opt);
/* Count ev's launches in s too (a module whose kernels run on the host). */
void kj_api_events_count(kj_api_events *ev, kj_api_stats *s);

/* env.c: kjit_ctx_new's check of every environment variable the library
 * reads (a usage error for a value one does not take); a switch's value
 * (dflt when unset, or bad since the check); the device KJIT_DEVICE or the
 * launcher's node-local rank picks (kj_gpu_open's ordinal: -1 - rank for a
 * rank), false with the reason in err for a bad value. */
bool kj_api_check_env(kjit_error *err);
/* kjit.c: is `arch` a GPU architecture name (sm_90, sm_90a, sm_100f)? */
bool kj_api_arch_valid(const char *arch);
bool kj_api_env_flag(const char *name, bool dflt);
/* The optimisation level KJIT_OPT, else NUMBA_OPT, gives (dflt when unset,
 * or bad since the check). */
int kj_api_opt_level_from_env(int dflt);
bool kj_api_device_ordinal(int *out, char *err, size_t cap);

struct kjit_ctx {
    kjit_options opt;
    kj_api_events events;
    char *arch, *cache_dir; /* owned copies of the option strings */
    pthread_mutex_t lock;
    /* The last compile: its diagnostics point at `src`, a copy of its
     * source that outlives the module (which may already be freed). */
    kj_diags diags;
    kj_source src;
    kj_api_cache *cache; /* made at the first compile that generates code */
    /* The GPU (gpu.c), opened at the first compile for cuda or auto; a
     * failure is remembered (gpu_err) and not retried. */
    kj_gpu *gpu;
    bool gpu_tried;
    char gpu_err[256];
    /* MPI (runtime/mpi.h), opened at the first compile of a program that
     * imports mpi4py (mpi.c); a failure is remembered (mpi_err). */
    kj_mpi *mpi;
    bool mpi_tried;
    char mpi_err[256];
    /* The thread pool of the parallel target (runtime/pool.h), made at the
     * first compile that needs it (kj_api_pool); modules hold references. */
    kj_pool *pool;
    kj_api_stats *stats; /* KJIT_STATS (a reference), else NULL */
    struct kj_api_threads *threads; /* numba.set_num_threads ... (threads.c) */
};

/* One specialisation a kjit_fn has been called with: argument types
 * (interned, compared by pointer) → the compiled entry point, or the error
 * that made it impossible (reported again for every such call). */
typedef struct kj_api_spec {
    const kj_type **args;
    uint32_t nargs;
    const kir_func *kf;
    kj_entry_fn entry;
    /* kernels: what kj_rt_launch needs, their block function on the cpu
     * target or their GPU code on cuda */
    void *block;
    kj_gpu_code *code;
    kj_abi_kernel kernel; /* its launch descriptor, made once (module arena) */
    const kjit_error *failure; /* non-NULL: no entry */
    bool has_dict; /* dicts cross: the entry runs through values_dict.c */
    kj_entry_fn gen_next; /* it returns a generator: next()'s entry (values_gen.c) */
} kj_api_spec;

struct kjit_fn {
    kjit_module *m;
    const char *name;
    kjit_fn_kind kind;
    const kj_funcdef *def;
    const char **default_text; /* per parameter: its default as written, or NULL */
    KJ_VEC(kj_api_spec) specs;
    /* kernels: kjit_launch's own prepared launch, for the argument types of
     * its first launch; taken by one launch at a time (launch_plan.c) */
    _Atomic(struct kjit_launch_plan *) plan;
    atomic_bool plan_made;
};

struct kjit_module {
    kj_arena arena;
    kj_types *types;
    kj_source src; /* text and path in the arena */
    kj_module *ast;
    kj_sema_options sopt; /* the sema refers to it: lives as long as the module */
    kj_sema *sema;
    kir_module *kir;
    /* How the module was compiled (for code made at call time). */
    kj_codegen_opts cg;
    kjit_target target;
    FILE *out;
    kj_api_events events;
    bool check_only;
    bool fuse; /* fuse host array expressions (kir_fuse.h); $KJIT_NO_FUSE=1 turns it off */
    bool specialise; /* thread-layout specialisation (kir_layout.h); $KJIT_NO_SPECIALISE=1 turns it off */
    bool index32;    /* kernels' 32-bit index variants (kir_index32.h); $KJIT_INDEX32=1 turns them on */
    bool regroup;    /* cpu kernels' regrouped blocks (kir_regroup.h); $KJIT_NO_REGROUP=1 turns them off */
    /* Machine code: `jit` from kjit_compile, `extra` one per batch of
     * specialisations made at call time (see machine.c). */
    kj_jit *jit;
    KJ_VEC(kj_jit *) extra;
    /* cuda: the context's GPU (a reference), the kernels' code loaded
     * there, and code for kernels specialised at launch time */
    kj_gpu *gpu;
    kj_mpi *mpi; /* programs that import mpi4py: a reference to the context's */
    kj_gpu_code *gpu_code;
    KJ_VEC(kj_gpu_code *) gpu_extra;
    char arch[16]; /* the PTX target: --arch, the device's, else sm_90 */
    kj_pool *pool; /* the context's thread pool (a reference) when the module runs parallel code */
    /* The context's cache (a reference; NULL for check_only) and the
     * module's key in it, which the keys of its call-time specialisations
     * extend. */
    kj_api_cache *cache;
    kj_hash key;
    char *llvm_ir, *asm_text; /* generated again on request when not kept (malloc'd) */
    KJ_VEC(kjit_fn *) fns;
    kj_api_stats *stats; /* the context's (a reference), else NULL */
    struct kj_api_threads *threads; /* the context's settings (a reference; threads.c) */
    pthread_mutex_t lock;
};

/* kjit.c */
void kj_api_set_error(kjit_error *err, kjit_status code, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A usage error (KJIT_ERR_USAGE) with its message; returns the status. */
int kj_api_usage(kjit_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kj_api_clear_error(kjit_error *err);
/* `err` from the first error in `d` (code `code`), or a generic message. */
void kj_api_error_from_diags(kjit_error *err, kjit_status code, const kj_diags *d, const char *file);

/* call.c: the steps of kjit_launch, shared with prepared launches
 * (launch_plan.c). The checks of a launch of f with args and its
 * specialisation (compiled at first need); the bytes of the arguments'
 * memory forms (each 16-byte aligned); args marshalled into mem (that many
 * zeroed bytes), argv pointing into it; the marshalled arguments launched
 * over grid x block through kj_rt_launch. KJIT_OK or the error. */
/* launch_plan.c, for prepared launches and calls: what argument k must
 * be (from the parameter's type and the value at prepare), and the check
 * and write of a value into its memory form (false: not of that kind) */
typedef struct kj_api_plan_arg {
    kjit_value_kind kind;
    kjit_dtype dtype;   /* scalars: the value's */
    kj_dtype elem;      /* arrays: their elements' */
    int ndim;           /* arrays: their rank */
    unsigned flags;     /* arrays: the contiguity flags their code assumes (KJ_ARR_*) */
    kj_dtype store;     /* scalars: the parameter's type */
    const kj_type *param; /* Generators, records, arrays of records: the parameter's type (kj_api_to_mem) */
    int unit;           /* datetime scalars: their unit; buffers: their kjit_buffer_kind (values_cplx.c) */
    uint8_t time;       /* arrays: their datetime mark (kj_array.api_time) */
    bool unit_set;      /* a buffer or datetime array: values_cplx.c checks it */
} kj_api_plan_arg;
kj_api_plan_arg kj_api_plan_arg_of(const kj_type *param, const kjit_value *v);
bool kj_api_plan_rewrite(const kj_api_plan_arg *a, const kjit_value *v, void *out);
/* values_cplx.c: complex, datetime64/timedelta64 and buffer values (each "not mine": NULL, -1, false) */
kjit_array *kj_api_time_mark(kjit_array *a, kjit_dtype dt);
kjit_dtype kj_api_time_dtype(const kj_array *a);
const kj_type *kj_api_cplx_value_type(kj_types *T, const kjit_value *v);
int kj_api_cplx_check(const kjit_value *v, int k, kjit_error *err);
int kj_api_cplx_to_mem(const kj_type *t, const kjit_value *v, void *out);
kjit_value kj_api_cplx_result(const kj_type *t, const void *mem,
                               kjit_array *(*array_result)(const kj_type *, const void *));
/* Is a result of type t one for kj_api_cplx_result? */
static inline bool kj_api_cplx_result_type(const kj_type *t)
{
    return t->kind == KJ_T_COMPLEX || kj_is_dt(t) ||
           (t->kind == KJ_T_ARRAY && ((t->ref && kj_buffer_kind(t)) || kj_is_dt(t->elem))); /* a buffer: a marked array */
}
size_t kj_api_cplx_mem_size(const kj_type *t);
size_t kj_api_cplx_mem_align(const kj_type *t);
void kj_api_cplx_type_name(const kjit_value *v, char *buf, size_t cap);
bool kj_api_cplx_plan_rewrite(const kj_api_plan_arg *a, const kjit_value *v, void *out, bool *ok);
/* Is v a value of values_cplx.c's kinds (inline: other calls pay tests, not a call)? */
static inline bool kj_api_cplx_value(const kjit_value *v)
{
    return v->kind == KJIT_VALUE_COMPLEX || v->kind == KJIT_VALUE_BYTES ||
           (v->kind == KJIT_VALUE_INT && (v->dtype == KJIT_DATETIME64 || v->dtype == KJIT_TIMEDELTA64)) ||
           (v->kind == KJIT_VALUE_ARRAY && v->v.a && ((const kj_array *)(const void *)v->v.a)->api_time);
}
/* Is argument v of plan a one for kj_api_cplx_plan_rewrite? (inline: prepared calls of numbers and plain
 * arrays pay a test, not a call) */
static inline bool kj_api_plan_special(const kj_api_plan_arg *a, const kjit_value *v)
{
    if (v->kind == KJIT_VALUE_ARRAY) return a->unit_set; /* the common case first: one test */
    return v->kind == KJIT_VALUE_COMPLEX || v->kind == KJIT_VALUE_BYTES ||
           (v->kind != KJIT_VALUE_ARRAY && (a->store == KJ_DT_COMPLEX64 || a->store == KJ_DT_COMPLEX128)) ||
           (v->kind == KJIT_VALUE_INT && (a->dtype == KJIT_DATETIME64 || a->dtype == KJIT_TIMEDELTA64));
}
void kj_api_cplx_plan_arg(kj_api_plan_arg *a, const kj_type *param, const kjit_value *v);
/* call.c, for prepared calls (call_plan.c): kjit_call's checks and its
 * specialisation for args; and a run of it on marshalled arguments */
int kj_api_call_spec(kjit_fn *f, const kjit_value *args, int nargs, kj_api_spec *sp, kjit_error *err);
int kj_api_call_entry(kjit_module *m, const kj_api_spec *sp, const kjit_value *args, void **argv, void *ret,
                      kjit_value *result, kjit_error *err);
/* launch_tuple.c: kernels' tuple parameters pass as their leaves */
uint32_t kj_api_kernel_leaves(kj_arena *a, const kir_func *kf, const kj_type ***leaf, uint32_t **owner);
bool kj_api_has_tuple_arg(const kjit_value *args, int nargs);
int kj_api_launch_tuples(kjit_module *m, const kj_api_spec *sp, kjit_dim3 grid, kjit_dim3 block,
                         const kjit_value *args, kjit_error *err);
int kj_api_launch_spec(kjit_fn *f, const kjit_value *args, int nargs, kj_api_spec *sp, kjit_error *err);
size_t kj_api_args_bytes(const kj_api_spec *sp);
int kj_api_marshal_all(const kj_api_spec *sp, const kjit_value *args, void **argv, char *mem, kjit_error *err);
int kj_api_launch_run(kjit_module *m, const kj_api_spec *sp, kjit_dim3 grid, kjit_dim3 block, void **argv,
                      kjit_error *err);
/* launch_plan.c: kjit_launch through f's own plan when its arguments are of
 * the plan's types (true, the launch's status in *rc), else false; make that
 * plan after f's first launch; free it with the module. */
bool kj_api_launch_planned(kjit_fn *f, kjit_dim3 grid, kjit_dim3 block, const kjit_value *args, int nargs,
                           int *rc, kjit_error *err);
void kj_api_launch_plan_make(kjit_fn *f, const kjit_value *args, int nargs);
void kj_api_launch_plans_free(kjit_module *m);
/* values.c: scalar value v stored in the memory form of dtype dt (converted
 * as kj_api_to_mem converts it). */
void kj_api_store_scalar(void *out, kj_dtype dt, const kjit_value *v);

/* pipeline.c */
/* How kj_pipeline runs. */
typedef struct kj_pipeline_opts {
    kjit_ctx *ctx;        /* kjit_compile's context (its lock held); NULL later */
    kj_stage to;          /* the first stage not to run; 0: KJ_STAGE_END */
    /* a specialisation made at call time (NULL: kjit_compile), and the
     * first of the functions it added, which the stages work on */
    const kir_func *spec;
    uint32_t first;
    kj_run_target target; /* DEFAULT: the module's (m->cg.target) */
} kj_pipeline_opts;
/* Run the stages [from, o->to) of src/ir/pipeline.h on m, in order:
 * kjit_compile from PARSE (to UFUNCS for check_only), a specialisation
 * made at call time from FUSE on the functions it added, kjit_module_ptx
 * of a check_only module UFUNCS and VERIFY_LOWERED for cuda. False after
 * reporting to d, or with err set (no diagnostics) when the target, the
 * thread pool or MPI cannot be had. */
bool kj_pipeline(kjit_module *m, kj_stage from, const kj_pipeline_opts *o, kj_diags *d, kjit_error *err);
/* The compiler's run target for the API's (auto: DEFAULT, until resolved). */
kj_run_target kj_api_run_target(kjit_target t);

/* machine.c */
/* The cache key of the module's compile-time code (source, options,
 * build, host). */
kj_hash kj_api_module_key(const kjit_module *m);
/* globals.c: kjit_compile_globals' arrays copied into m->sopt (false with
 * err set for one kjit cannot take), and hashed into the module's key */
bool kj_api_globals_copy(kjit_module *m, const kjit_global *globals, int n, kjit_error *err);
void kj_api_globals_hash(kj_hasher *h, const kjit_module *m);
/* Generate (or load from the cache) the machine code of the module's host
 * functions into m->jit. False after reporting to `d`. */
bool kj_api_machine_code(kjit_ctx *ctx, kjit_module *m, kj_diags *d);
/* The entry point of `kf`, compiling it (and its callees) into a new JIT
 * when no loaded code has it. Call with the module lock held. */
kj_entry_fn kj_api_entry(kjit_module *m, const kir_func *kf, kj_diags *d);
/* Kernel kf's K.block_entry (cpu target), compiling it when no loaded code
 * has it. Module lock held. */
void *kj_api_block_entry(kjit_module *m, const kir_func *kf, kj_diags *d);
/* LLVM IR (llvm = true) or assembly of the module's compile-time code. */
char *kj_api_code_text(kjit_module *m, bool llvm, kjit_error *err);
void kj_api_free_code(kjit_module *m);
/* Drop a reference to a shared cache (closing it with the last one). */
void kj_api_cache_release(kj_api_cache *ac);

/* gpu.c */
/* Resolve auto (cuda when the program has kernels and a driver and device
 * are present, else cpu) and
 * open the GPU for cuda: false with "no CUDA driver found" / "no CUDA
 * device" (KJIT_ERR_RUNTIME) when cuda was asked for and cannot be had.
 * Sets m->target (and m->cg.target, the compiler's), m->arch and m->gpu.
 * The TARGET stage of kj_pipeline. */
bool kj_api_target(kjit_ctx *ctx, kjit_module *m, kjit_error *err);
/* The context's GPU opened once (ctx->gpu, or NULL with ctx->gpu_err);
 * false only for a bad KJIT_DEVICE (a usage error at `file`). */
bool kj_api_open_gpu(kjit_ctx *ctx, const char *file, kjit_error *err);
/* libdevice: $KJIT_LIBDEVICE, else under $CUDA_HOME, else /usr/local/cuda
 * (into buf unless the variable names it). */
const char *kj_api_libdevice_path(char *buf, size_t cap);
/* ptx_consts.c: cuda.compile_ptx(...)'s code, made for the functions from `first` on before their
 * host code; false after reporting to d. */
bool kj_api_ptx_consts(kjit_module *m, uint32_t first, kj_diags *d);
/* env.c: $KJIT_CACHE_MAX in bytes (KJ_CACHE_DISK_MAX when unset); false
 * with an error naming the variable when it is not a size. */
bool kj_api_cache_max(uint64_t *out, char *err, size_t cap);
/* mpi.c: MPI for a program that imports mpi4py (m->mpi); false with err set
 * when the library cannot be opened. */
bool kj_api_mpi(kjit_ctx *ctx, kjit_module *m, kjit_error *err);
/* kjit.c: the context's thread pool for a module on the parallel target or
 * with parallel functions (@vectorize(target='parallel'),
 * @jit(parallel=True)): made at the first such compile with the thread
 * count of the environment (pool.h); a bad count fails the compile. */
bool kj_api_pool(kjit_ctx *ctx, kjit_module *m, kjit_error *err);
/* The module's kernels as PTX → cubin (through the cache) loaded on its
 * GPU (m->gpu_code). False after reporting to d. */
bool kj_api_gpu_code(kjit_module *m, kj_diags *d);
/* The GPU code that has kernel kf's entry, compiling and loading it when
 * the kernel was specialised after the compile. Module lock held. */
kj_gpu_code *kj_api_kernel_code(kjit_module *m, const kir_func *kf, kj_diags *d);
/* A host function specialised at call time added kernels (its launches, its
 * ufunc calls on the GPU) from funcs[from] on: the module's GPU code made
 * again with them, for the launches of host code (rt.code). Module lock
 * held; false after reporting to d. */
bool kj_api_gpu_reload(kjit_module *m, uint32_t from, kj_diags *d);

/* values.c: a kjit_value in the ABI memory form of a kj type and back */
size_t kj_api_mem_size(const kj_type *t);
size_t kj_api_mem_align(const kj_type *t);
/* Store `v` as type `t` at `out` (kj_api_mem_size(t) bytes); false when
 * the value does not have that type's shape (kind, ndim, dtype, arity). */
bool kj_api_to_mem(const kj_type *t, const kjit_value *v, void *out);
/* A result of type `t` read from `mem`; arrays in it take the references
 * the entry point handed over. */
kjit_value kj_api_from_mem(const kj_type *t, const void *mem);
void kj_api_from_mem_to(const kj_type *t, const void *mem, kjit_value *out);
size_t kj_api_item_offset(const kj_type *t, uint32_t k); /* of item k of tuple type t in its memory form */
/* str results (str_result.c): the strings a run made are freed as its outermost entry call returns, so
 * a result's are copied before (malloc'd; its kjit_value's dtype KJ_API_STR_OWNED, which
 * kjit_value_release frees); an argument's (kjit_value_str: KJIT_BOOL) is never freed */
#define KJ_API_STR_OWNED KJIT_UINT8
bool kj_api_type_has_str(const kj_type *t);
/* values_dict.c: numba.typed.Dict values (KJIT_VALUE_DICT) */
bool kj_api_dict_ok(const kj_type *t);            /* a dict type kjit_call returns */
bool kj_api_type_has_dict(const kj_type *t);
bool kj_api_kf_has_dict(const kir_func *kf);     /* a parameter or the result holds a dict */
const kj_type *kj_api_dict_type(kj_types *t, const kjit_value *v);
int kj_api_dict_check(const kjit_value *v, int k, kjit_error *err);
kj_rt_kind kj_api_run_dict_entry(kj_rt *rt, const kj_api_spec *sp, void **argv, void *ret);
void kj_api_result_own(const kj_type *t, char *mem); /* a result's strings copied, dicts converted */
/* values_dict.c, for values_list.c's trampoline: the dict arguments built into the run before the entry;
 * after it their entries written back (when it returned) and the state freed */
void *kj_api_dicts_in(kj_rt *rt, const kj_api_spec *sp, void **argv);
void kj_api_dicts_out(void *state, bool returned);
/* values_gen.c: generators (KJIT_VALUE_GENERATOR) */
/* A specialisation that returns a generator gets its next() entry (module lock held); false and *err when it
 * cannot (it also takes a dict). Others: true, untouched. */
bool kj_api_gen_spec(kjit_module *m, const char *name, kj_api_spec *s, kjit_error *err);
int kj_api_call_gen(kjit_module *m, const kj_api_spec *sp, void **argv, void *ret, kjit_value *result,
                    kjit_error *err);
void kjit_generator_free(kjit_generator *g);
kj_rt_kind kj_api_run_entry(kj_rt *rt, kj_entry_fn fn, const kj_type *ret_type, void **argv, void *ret);
/* values_list.c: lists and sets (KJIT_VALUE_LIST, KJIT_VALUE_SET), built in the run from the caller's items,
 * reflected back, and results converted into malloc'd kjit_lists before the run frees its own */
bool kj_api_is_container(const kj_type *t);
bool kj_api_type_has_container(const kj_type *t);
bool kj_api_container_returnable(const kj_type *t, bool (*item_ok)(const kj_type *));
int kj_api_check_container(const kjit_fn *f, const kjit_value *v, int k, kjit_error *err);
void kj_api_own_container(const kj_type *t, void *mem);
void kj_api_list_value_release(kjit_value *v);
bool kj_api_spec_has_containers(const kj_api_spec *sp);
kj_rt_kind kj_api_run_containers(kj_rt *rt, const kj_api_spec *sp, const kjit_value *args, void **argv, void *ret);

/* values_namedtuple.c: a tuple result as kjit allocates it (freed through its first member), with the
 * class name of a namedtuple result type (NULL for other tuples) that kjit_tuple_name reads */
typedef struct kj_api_tuple_result {
    kjit_tuple tuple;
    const char *name;
} kj_api_tuple_result;
const char *kj_api_tuple_name(const kj_type *t);
/* values_function.c: KJIT_VALUE_FUNCTION, a function of the callee's module typed as that function */
int kj_api_function_check(const kjit_fn *callee, const kjit_value *v, int k, kjit_error *err);
const kj_type *kj_api_function_type(kj_types *t, const kjit_value *v);
/* values_dtype.c: KJIT_VALUE_DTYPE, typed dtype(scalar) */
bool kj_api_dtype_value_ok(kjit_dtype dt);
const kj_type *kj_api_dtype_value_type(kj_types *t, kjit_dtype dt);
bool kj_api_dtype_returnable(const kj_type *t);
kjit_value kj_api_dtype_result(const kj_type *t);
bool kj_api_dtype_to_mem(const kj_type *t, const kjit_value *v);

/* array.c */
kj_dtype kj_api_dtype(kjit_dtype dt);
kjit_dtype kj_api_public_dtype(kj_dtype dt);
bool kj_api_dtype_valid(kjit_dtype dt);
/* The scalar dtype of a KIR scalar type (bool, int, float). */
kj_dtype kj_api_type_dtype(const kj_type *t);
static inline kj_array *kj_api_arr(const kjit_array *a) { return (kj_array *)(uintptr_t)a; }
static inline kjit_array *kj_api_pub(kj_array *a) { return (kjit_array *)a; }

/* values_rng.c, values_record.c (since 0.5): Generators and records. Each
 * returns -1 for a value or type that is not of its kinds (the caller goes
 * on as before), else its answer. */
int kj_api_ext_check(const kjit_value *v, int k, kjit_error *err); /* KJIT_OK or a usage error */
const kj_type *kj_api_ext_type(kj_types *t, const kjit_value *v); /* NULL: not an ext value */
int kj_api_ext_to_mem(const kj_type *t, const kjit_value *v, void *out); /* 1 stored, 0 mismatch */
bool kj_api_ext_from_mem(const kj_type *t, const void *mem, kjit_value *out);
bool kj_api_ext_release(kjit_value *v);
/* an array of records: its rank as the caller sees it, the record layout (NULL: not one) */
static inline int kj_api_arr_rank(const kj_array *a) { return a->rec ? a->ndim - 1 : a->ndim; }
int64_t kj_api_rec_array_size(const kj_array *a);
bool kj_api_ext_gpu_refused(const kir_func *kf, const char *name, kjit_error *err);
/* values_poly.c: numpy.polynomial.Polynomial, a tuple tagged KJIT_TUPLE_POLYNOMIAL */
int kj_api_poly_check(const kjit_value *v, int k, kjit_error *err);
const kj_type *kj_api_poly_type(kj_types *t, const kjit_value *v, const kj_type *const *items);
void kj_api_poly_tag(const kj_type *t, kjit_value *r);
int kj_api_rng_check(const kjit_value *v, int k, kjit_error *err);
const kj_type *kj_api_rng_type(kj_types *t);
bool kj_api_is_rng_type(const kj_type *t);
int kj_api_rng_to_mem(const kj_type *t, const kjit_value *v, void *out);
kj_layout kj_api_rec_array_layout(const kj_array *a);

#endif
