/* SPDX-License-Identifier: BSD-2-Clause */
/* The code generator's internals, shared by the files of src/codegen/:
 * KIR → LLVM IR (through the LLVM-C API only) → machine code loaded by ORC
 * LLJIT, or PTX. What the rest of kjit may call is codegen_api.h.
 *
 *   codegen_api.h  the public part: kj_codegen_host, kj_jit_*, kj_codegen_ptx
 *   llvm_ctx.c     LLVM initialisation (once), the host target machine, the
 *                  per-compile codegen state, intrinsics, runtime functions
 *                  (src/abi/rtfns.def) and the JIT's symbol table
 *   llvm_types.c   KIR types → LLVM types (value and memory forms)
 *   llvm_func.c    functions, entry wrappers, locals, structured control
 *                  flow, array lifetime
 *   llvm_expr.c    scalar instructions: arithmetic, casts, tuples, calls
 *   llvm_array.c   array descriptors: dims, element access, views, checks
 *   llvm_builtin.c built-in functions, one table row each
 *   llvm_host_builtins.c  host NumPy, print, time and cuda built-ins
 *   llvm_mpi.c     cuda.select_device, cuda.gpus and mpi4py in host code
 *   llvm_ufunc.c   elementwise array operations and ufunc call loops
 *   llvm_ufunc_gpu.c  a ufunc call's kernel launched on the GPU
 *   llvm_ufunc.h   what those two share
 *   llvm_parallel.c  outlined loop chunks for the thread pool
 *   llvm_pfor.c    prange loops on the pool
 *   llvm_launch.c  kernel launches in host code; lazy coherence checks
 *   llvm_cuda.c    cuda.* inside kernels, the target-neutral part
 *   llvm_cuda_const.c  cuda.const.array_like (the GPU's constant bank)
 *   llvm_lineinfo.c    line tables in the PTX (lineinfo=True, debug=True)
 *   llvm_kernel.c  kernels on the cpu (kj_target_host): thread loops,
 *                  regions split at barriers
 *   llvm_kernel_warp.c  their warp operations
 *   llvm_kernel_div.c   divergence within a warp
 *   kernel_int.h   what the three llvm_kernel*.c share
 *   llvm_pipeline.c  the optimise and emit steps every target shares
 *   host.c         the host pipeline (KIR → object file → ORC LLJIT)
 *   host_split.c   a program compiled as several modules, one per thread
 *   host_jit.c     ORC LLJIT: loading objects, resolving symbols
 *   host.h         what the three host*.c share
 *   vecmath.[ch]   libmvec's vector math for the loop vectoriser
 *   nvptx.c        the NVPTX back end (kj_target_nvptx), PTX text
 *   nvptx_cuda.c   cuda.* on the GPU
 *   nvptx.h        what the two nvptx*.c share
 *   libdevice.c    selective linking of NVIDIA's libdevice
 *
 * The ABI of generated code is in abi.h; the run-time functions it calls
 * are declared in src/abi/rtfns.def; how it all fits in docs/codegen.md. */
#ifndef KJ_CODEGEN_H
#define KJ_CODEGEN_H

#include "codegen_api.h"

#include "../ir/kir.h"
#include "../runtime/rt.h"
#include "../runtime/rt_host.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include <stdbool.h>
#include <stddef.h>

/* libdevice.c: link the __nv_* functions mod declares (and only those,
 * with what they call) from the libdevice bitcode at `path`; they become
 * internal, for the optimiser to inline. */
bool kj_libdevice_link(LLVMModuleRef mod, const char *path, char *err, size_t cap);

/* The run-time functions generated code may call, one per row of
 * src/abi/rtfns.def (which declares them, C types and all): KJ_RTF_RAISE,
 * KJ_RTF_ALLOC, ... Their flags (KJ_RTF_NORETURN, KJ_RTF_PURE) are in
 * rtfns.h. */
typedef enum {
#define KJ_RTFN(id, fn, flags, ret, params) KJ_RTF_##id,
#include "../abi/rtfns.def"
    KJ_RTF__COUNT
} kj_rtfn;

/* A symbol the JIT resolves to an address in this library (or libm). */
typedef struct kj_jit_symbol {
    const char *name;
    void (*addr)(void);
} kj_jit_symbol;

/* Every symbol generated code may reference by name: the run-time
 * functions above and the libm functions the math builtins call. */
const kj_jit_symbol *kj_jit_symbols(size_t *n);

/* A code generation target (QBE's Target): what differs between code for
 * the host (with kernels emulated, llvm_kernel.c) and for the GPU
 * (nvptx.c). Expression, statement and type lowering are shared and ask
 * the target through this table; a NULL hook means the host's way. */
typedef enum kj_sreg { KJ_SREG_TID, KJ_SREG_BID, KJ_SREG_BDIM, KJ_SREG_GDIM } kj_sreg;
typedef struct kj_cg kj_cg;
typedef struct kj_cg_target {
    const char *name;
    /* a run-time function call (raise, lgamma, ...); NULL: call the runtime */
    LLVMValueRef (*rtcall)(kj_cg *cg, kj_rtfn id, LLVMValueRef *args, unsigned n);
    /* a math library function (libm's name: "sinf"); NULL: libm */
    LLVMValueRef (*libm)(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned n);
    /* an LLVM intrinsic call, or NULL when the target lowers it as it is */
    LLVMValueRef (*intrinsic)(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned n);
    /* kernels and device functions: declaration and definition */
    LLVMValueRef (*kernel_declare)(kj_cg *cg, const kir_func *f);
    void (*kernel_define)(kj_cg *cg, const kir_func *f, LLVMValueRef fn);
    /* cuda.* inside kernels (llvm_cuda.c asks): thread ids as i64, the
     * lane, barriers (the built-ins with KJ_BF_BARRIER), warp operations
     * (KJ_BF_WARP, syncwarp included), shared and local arrays */
    LLVMValueRef (*sreg)(kj_cg *cg, kj_sreg r, unsigned dim);
    LLVMValueRef (*laneid)(kj_cg *cg);
    LLVMValueRef (*barrier)(kj_cg *cg, const kir_inst *in);
    LLVMValueRef (*warp)(kj_cg *cg, const kir_inst *in);
    LLVMValueRef (*shared_array)(kj_cg *cg, const kir_inst *in);
    LLVMValueRef (*local_array)(kj_cg *cg, const kir_inst *in);
    /* print(...): NULL = the runtime's printing (llvm_host_builtins.c) */
    LLVMValueRef (*print)(kj_cg *cg, const kir_inst *in);
    /* Hooks into the shared function generator, for function bodies the
     * target generates its own way (the cpu's kernels split at barriers
     * into regions, llvm_kernel.c); NULL: none. body: the whole body (false:
     * generate it as usual); local_ptr: where local k lives; ret: a return
     * (true: handled); jump: a break/continue out of a region. */
    bool (*body)(kj_cg *cg);
    LLVMValueRef (*local_ptr)(kj_cg *cg, uint32_t k);
    bool (*ret)(kj_cg *cg);
    void (*jump)(kj_cg *cg, const kir_inst *in);
} kj_cg_target;

extern const kj_cg_target kj_target_host;  /* llvm_kernel.c */
extern const kj_cg_target kj_target_nvptx; /* nvptx.c */

/* What the host code does differently per run target (target.h): the
 * other table, beside kj_cg_target's device code. Every host-side question
 * that depends on the target is a row here, so a new target is a new
 * table (llvm_host_builtins.c), not a set of `if`s. */
typedef struct kj_cg_run {
    const char *name;
    /* kernels and device functions are compiled into the host module, their
     * blocks run by the CPU (false: they are the GPU's, nvptx.c) */
    bool host_kernels;
    /* a launch runs its blocks on the thread pool (the `parallel` flag of
     * the kernel descriptor, abi.h) */
    bool parallel_blocks;
    /* does host function f (or ufunc f called from host code) run its
     * ufunc and prange loops on the thread pool (llvm_parallel.c)? */
    bool (*parallel_loops)(const kir_func *f);
    /* Coherence of arrays between host and device (gpu.h): a check before
     * a statement touches an array's data in host code, and the checks of
     * a loop hoisted in front of it (true: hoisted, kj_cg_hoist_end after
     * it). NULL: host code needs none. llvm_launch.c. */
    void (*host_access)(kj_cg *cg, const kir_inst *in);
    bool (*hoist_access)(kj_cg *cg, const kir_inst *loop);
    /* Before a host `for` loop: when its launches may be replayed as a CUDA
     * graph, the call that says so (true: kj_cg_graph_end after the loop).
     * NULL: no graphs. llvm_graph.c. */
    bool (*graph_loop)(kj_cg *cg, const kir_inst *loop);
    /* cuda.* in host code: cuda.stream(), s.synchronize(),
     * cuda.synchronize() (the last two return nothing) */
    LLVMValueRef (*stream_new)(kj_cg *cg);
    void (*stream_sync)(kj_cg *cg, const kir_inst *in);
    void (*synchronize)(kj_cg *cg, const kir_inst *in);
    /* cuda.to_device(a), d.copy_to_host(ary=None), and the host array `arr`
     * of cuda.device_array(_like) made the device's */
    LLVMValueRef (*to_device)(kj_cg *cg, const kir_inst *in);
    LLVMValueRef (*copy_to_host)(kj_cg *cg, const kir_inst *in);
    LLVMValueRef (*device_array)(kj_cg *cg, const kir_inst *in, LLVMValueRef arr);
} kj_cg_run;

extern const kj_cg_run kj_run_cpu, kj_run_parallel, kj_run_cuda; /* llvm_host_builtins.c */
/* The host table of target t (DEFAULT: the cpu's). */
const kj_cg_run *kj_cg_run_of(kj_run_target t);

typedef struct kj_cg_loop {
    LLVMBasicBlockRef brk, cont; /* BREAK / CONTINUE targets */
} kj_cg_loop;

/* State while generating one function. */
typedef struct kj_cgfn {
    const kir_func *kf;
    LLVMValueRef fn;
    LLVMValueRef rt;        /* the hidden kj_rt* parameter */
    LLVMValueRef *vals;     /* per kir_ref: its value (NULL for statements) */
    LLVMValueRef *locals;   /* per local: its alloca */
    LLVMBasicBlockRef entry; /* allocas live here */
    kj_cg_loop *loops;
    uint32_t nloops, cap_loops;
    bool fastmath;
    LLVMValueRef gc_mark; /* kj_rt_mark at entry when the function allocates arrays */
    LLVMValueRef gen_mark; /* kj_rt_gen_mark at entry when it makes generators (llvm_genlife.c) */
    LLVMValueRef kx;      /* kernels and device functions: the kernel context (llvm_kernel.c) */
    struct kj_cg_kern *kern; /* kernels: their block-level state (llvm_kernel.c) */
    unsigned quiet_access;   /* inside loops whose coherence checks were hoisted (llvm_launch.c) */
    LLVMValueRef *frames;    /* by kir_ref of a TRY: its frame (llvm_exc.c); NULL: none yet */
    bool volatile_locals;    /* the function has a TRY: locals are volatile (llvm_exc.c) */
    LLVMMetadataRef di_scope; /* lineinfo: the function's DISubprogram (llvm_lineinfo.c), else NULL */
    unsigned nshared;         /* cuda.shared.array globals made so far (their names: nvptx_cuda.c) */
    struct kj_cg_gen *gen;    /* a generator: its coroutine (llvm_pygen.c), else NULL */
    bool nogc;                /* a generator, or resumes one: temporaries live until the run ends */
} kj_cgfn;

/* llvm_pygen.c: generators as coroutines. Does f need nogc; the coroutine's
 * start (after the locals); YIELD; a return; the end of the body;
 * GEN_NEXT and GEN_VALUE. */
bool kj_cg_gen_nogc(const kir_func *f);
/* llvm_genlife.c: generator frames freed by scope. Does t hold generators,
 * and which (into out); the mark of a scope whose block b makes generators
 * (NULL: none); the frees at an iteration's end and at a return. */
bool kj_cg_type_has_gen(const kj_type *t);
unsigned kj_cg_gens_of(kj_cg *cg, const kj_type *t, LLVMValueRef v, LLVMValueRef *out, unsigned n, unsigned max);
LLVMValueRef kj_cg_genlife_mark(kj_cg *cg, kir_blkid b);
void kj_cg_genlife_locals(kj_cg *cg, LLVMValueRef mark);
void kj_cg_genlife_return(kj_cg *cg, LLVMValueRef ret);
void kj_cg_gen_begin(kj_cg *cg);
void kj_cg_yield(kj_cg *cg, const kir_inst *in);
void kj_cg_gen_return(kj_cg *cg);
void kj_cg_gen_end(kj_cg *cg);
LLVMValueRef kj_cg_gen_inst(kj_cg *cg, const kir_inst *in);

/* State of one module's generation. */
struct kj_cg {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTargetDataRef td;
    const kir_module *km;
    kj_diags *d;
    kj_arena *a;
    bool failed;
    kj_cgfn *fn; /* the function being generated */
    LLVMTypeRef t_void, t_i1, t_i8, t_i32, t_i64, t_f32, t_f64, t_ptr;
    const kj_cg_target *tgt; /* kj_target_host unless set after kj_cg_init */
    const kj_cg_run *run;    /* the host table of the run target (kj_codegen_opts.target) */
    int sm;                  /* the GPU's compute capability ×10 (sm_90: 90); 0 for host code */
    struct kj_cg_di *di;     /* lineinfo's debug-info builder, made at its first use (llvm_lineinfo.c) */
    bool index32;            /* generating a kernel's 32-bit index variant (llvm_index32.c) */
};

/* llvm_index32.c (kir_index32.h), while cg->index32: the address of
 * element idx of `arr` (data: its data pointer), its multiplies in i32;
 * cuda.grid's a*b+c (c NULL: a*b) in i32, zero-extended. */
LLVMValueRef kj_cg_index32_ptr(kj_cg *cg, const kj_type *at, LLVMValueRef data, LLVMValueRef arr,
                               const LLVMValueRef *idx, uint64_t itemsize);
LLVMValueRef kj_cg_index32_grid(kj_cg *cg, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c);

/* llvm_lineinfo.c: line tables in the PTX (lineinfo=True / debug=True) */
LLVMMetadataRef kj_cg_di_func(kj_cg *cg, const kir_func *f, LLVMValueRef llfn);
void kj_cg_di_at(kj_cg *cg, LLVMMetadataRef sp, kj_span s);
void kj_cg_di_clear(kj_cg *cg);
void kj_cg_di_finish(kj_cg *cg);

/* llvm_ctx.c */
void kj_llvm_init_once(void);
/* The host target machine (CPU name and features of this machine) at
 * codegen level opt_level; NULL with *err (LLVMDisposeMessage) on failure. */
LLVMTargetMachineRef kj_llvm_host_tm(int opt_level, char **err);
void kj_cg_init(kj_cg *cg, LLVMContextRef ctx, LLVMModuleRef mod, const kir_module *km, kj_diags *d,
                kj_arena *a);
void kj_cg_dispose(kj_cg *cg);
/* Report an unsupported construct at `sp`; generation continues (so that
 * every problem is reported) but the module is not used. */
void kj_cg_fail(kj_cg *cg, kj_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Call intrinsic `name` overloaded on `ty` (NULL: not overloaded). */
LLVMValueRef kj_cg_intrinsic(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args,
                             unsigned n);
/* Call a runtime function of the table above. */
LLVMValueRef kj_cg_rtcall(kj_cg *cg, kj_rtfn id, LLVMValueRef *args, unsigned n);
/* The host declaration of runtime function `id` in cg's module (made on
 * first use, with its attributes): the LLVM form of its rtfns.def row. */
LLVMValueRef kj_cg_rtfn_decl(kj_cg *cg, kj_rtfn id);
/* Call a libm function `name` of one or two arguments of type `ty`. */
LLVMValueRef kj_cg_libm(kj_cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned n);
/* A private constant C string. */
LLVMValueRef kj_cg_cstr(kj_cg *cg, const char *s);
/* An enum attribute by name ("noreturn", "nounwind", ...). */
LLVMAttributeRef kj_cg_attr(kj_cg *cg, const char *name, uint64_t val);

/* llvm_pipeline.c: default<On> on mod for tm; tm's code for mod (asm text
 * or an object file) into a malloc'd, NUL-terminated copy. False / NULL
 * with the reason in err. */
/* The function attribute of a barrier-free kernel's K.block (thread loops)
 * that kj_llvm_optimise prepares for vectorisation. */
#define KJ_THREAD_LOOP_ATTR "kjit-thread-loops"
bool kj_llvm_optimise(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt_level, char *err, size_t cap);
char *kj_llvm_emit(LLVMTargetMachineRef tm, LLVMModuleRef mod, LLVMCodeGenFileType kind, size_t *size, char *err,
                   size_t cap);

/* llvm_types.c */
LLVMTypeRef kj_cg_type(kj_cg *cg, const kj_type *t);    /* as a value (bool = i1) */
LLVMTypeRef kj_cg_memtype(kj_cg *cg, const kj_type *t); /* in memory (bool = i8) */
LLVMTypeRef kj_cg_array_type(kj_cg *cg, int ndim);
LLVMValueRef kj_cg_to_mem(kj_cg *cg, const kj_type *t, LLVMValueRef v);
LLVMValueRef kj_cg_from_mem(kj_cg *cg, const kj_type *t, LLVMValueRef v);
LLVMValueRef kj_cg_zero(kj_cg *cg, const kj_type *t);
bool kj_cg_is_void(const kj_type *t); /* none / returns nothing */
bool kj_cg_is_signed(const kj_type *t);

/* llvm_func.c */
bool kj_cg_module(kj_cg *cg); /* generate every host function; false on failure */
const char *kj_cg_fn_name(kj_cg *cg, const kir_func *f); /* its LLVM symbol */
void kj_cg_block(kj_cg *cg, kir_blkid b);
LLVMValueRef kj_cg_val(kj_cg *cg, kir_ref r);
LLVMBasicBlockRef kj_cg_bb(kj_cg *cg, const char *name);
bool kj_cg_terminated(kj_cg *cg); /* the current block has its terminator */
/* if (cond) raise kind(msg) at sp — the raise is in a cold block. */
void kj_cg_raise_if(kj_cg *cg, LLVMValueRef cond, kj_rt_kind kind, const char *msg, kj_span sp);
void kj_cg_raise_if_v(kj_cg *cg, LLVMValueRef cond, kj_rt_kind kind, LLVMValueRef msg, kj_span sp);
/* Emit a call that never returns, then continue in a fresh unreachable
 * block. */
void kj_cg_noreturn(kj_cg *cg);
LLVMValueRef kj_cg_i32(kj_cg *cg, int64_t v);
/* A temporary in the entry block (for values passed by pointer). */
LLVMValueRef kj_cg_alloca(kj_cg *cg, LLVMTypeRef ty, const char *name);
LLVMValueRef kj_cg_i64(kj_cg *cg, int64_t v);

/* llvm_func.c: functions. kx: the function runs on the device side (a
 * kernel or device function), with the kernel context after rt. */
typedef struct kj_cg_kern kj_cg_kern;
LLVMValueRef kj_cg_declare(kj_cg *cg, const kir_func *f, const char *name, bool kx);
void kj_cg_define(kj_cg *cg, const kir_func *f, LLVMValueRef llfn, kj_cg_kern *kern);
/* llvm_exc.c: TRY, TRY_END, EXC_MATCH, RERAISE; whether f has a TRY */
void kj_cg_exc(kj_cg *cg, kir_ref r);
bool kj_cg_volatile_locals(const kir_func *f);
void kj_cg_stmt(kj_cg *cg, kir_ref r);                /* one instruction of a block */
LLVMValueRef kj_cg_local_ptr(kj_cg *cg, uint32_t k); /* where local k lives now */
/* FOR/PFOR `in`: its start and step, the check that the step is not 0, and
 * the trip count (all of the loop variable's type). */
LLVMValueRef kj_cg_for_trips(kj_cg *cg, const kir_inst *in, LLVMValueRef *start, LLVMValueRef *step);
/* The counted loop of FOR/PFOR `in` over k in [k0, n) (the loop variable's
 * type): i = start + k*step, then the body; break/continue and array
 * lifetime as for any loop. */
void kj_cg_for_range(kj_cg *cg, const kir_inst *in, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                     LLVMValueRef n);
/* llvm_pfor.c: a prange loop on the pool; false when it runs serially
 * (not the parallel target, or a return / break out of it) */
bool kj_cg_pfor(kj_cg *cg, const kir_inst *in);
/* Iterations of range(start, stop, step) for step != 0 (scalar type t). */
LLVMValueRef kj_cg_trip_count(kj_cg *cg, const kj_type *t, LLVMValueRef start, LLVMValueRef stop,
                              LLVMValueRef step);

/* llvm_kernel.c: @cuda.jit kernels and device functions on the host (see
 * docs/kernels_cpu.md) */
bool kj_cg_device_side(const kir_func *f); /* a kernel or device function */
LLVMValueRef kj_cg_kernel_declare(kj_cg *cg, const kir_func *f);
/* A loop of a kernel that can only wait: its body (the condition
 * included) reads memory and changes nothing but through atomics, no local
 * and no other memory, and calls nothing. On the cpu target the other
 * threads of its block do not run meanwhile, so it may wait forever: the
 * function generator counts its iterations (kj_rt_spin_check). */
bool kj_cg_loop_waits(const kir_func *f, kir_blkid body);
void kj_cg_kernel_define(kj_cg *cg, const kir_func *f, LLVMValueRef fn);
/* The body of a kernel with barriers (regions); false: generate it as usual. */
bool kj_cg_kernel_body(kj_cg *cg);
LLVMValueRef kj_cg_kernel_local(kj_cg *cg, uint32_t k);
bool kj_cg_kernel_return(kj_cg *cg);             /* true: handled (a thread of a region ends) */
void kj_cg_kernel_jump(kj_cg *cg, const kir_inst *in); /* break/continue out of a region */
LLVMValueRef kj_cg_device_call(kj_cg *cg, const kir_inst *in);

/* llvm_cuda.c: cuda.* inside kernels, every target */
LLVMValueRef kj_cg_kernel_builtin(kj_cg *cg, const kir_inst *in);
/* cuda.cbrt, selp, nanosleep, lanemask_lt (llvm_cuda_intrin.c) */
LLVMValueRef kj_cg_cuda_misc(kj_cg *cg, const kir_inst *in);
/* llvm_libdevice.c: a call to a numba.cuda.libdevice function. */
LLVMValueRef kj_cg_libdevice(kj_cg *cg, const kir_inst *in);
/* datetime64 / timedelta64 (llvm_datetime.c): a DT_OP built-in; print of a scalar or an array of them */
LLVMValueRef kj_cg_datetime(kj_cg *cg, const kir_inst *in);
void kj_cg_print_dt(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool repr);
LLVMValueRef kj_cg_dt_convert(kj_cg *cg, LLVMValueRef v, const kj_type *from, const kj_type *to);
/* cuda.fp16.* (llvm_fp16.c) */
LLVMValueRef kj_cg_fp16(kj_cg *cg, const kir_inst *in);
/* llvm_record.c: records' fields (REC_GET/SET/VIEW), an element's bytes, allocation, printing */
LLVMValueRef kj_cg_record(kj_cg *cg, const kir_inst *in);
LLVMTypeRef kj_cg_record_memtype(kj_cg *cg, const kj_type *rec);
LLVMValueRef kj_cg_record_alloc(kj_cg *cg, int nd, LLVMValueRef bytes);
LLVMValueRef kj_cg_record_bytes(kj_cg *cg, const kj_type *at, LLVMValueRef arr);
void kj_cg_print_record(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool repr);
const char *kj_cg_record_descr(kj_cg *cg, const kj_type *rec);
LLVMValueRef kj_cg_record_copy(kj_cg *cg, const kir_inst *in, bool gpu);
/* numba.cuda.random (llvm_cuda_random.c): the generators in device code, and
 * create/init_xoroshiro128p_states in host code. */
LLVMValueRef kj_cg_xoroshiro(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_cg_xoroshiro_host(kj_cg *cg, const kir_inst *in);
/* Cooperative groups (llvm_cuda_cg.c; kj_cg_uses_grid_sync in codegen_api.h):
 * grid.sync()'s block-level part on the cpu targets. */
void kj_cg_grid_sync_host(kj_cg *cg, const kir_inst *in);
/* The constant shape of cuda.shared/local.array (an int or a tuple of
 * ints) into dims; false when it is not constant. */
bool kj_cg_const_shape(const kir_func *f, kir_ref r, int64_t *dims, unsigned nd);
int64_t kj_cg_elem_count(const int64_t *dims, unsigned nd);
/* A C-contiguous array descriptor of type at over data, with dims. */
LLVMValueRef kj_cg_c_array(kj_cg *cg, const kj_type *at, LLVMValueRef data, const LLVMValueRef *dims);
LLVMValueRef kj_cg_frozen_array(kj_cg *cg, const kir_inst *in); /* llvm_frozen.c: CONST_ARRAY */
/* llvm_frozen.c: a frozen array over its global in address space `as` (0: host; 1: GPU global;
 * KJ_CG_ADDR_CONST: the GPU's constant bank) */
enum { KJ_CG_ADDR_CONST = 4 };
LLVMValueRef kj_cg_frozen_array_in(kj_cg *cg, const kir_inst *in, unsigned as);
LLVMValueRef kj_cg_const_array_like(kj_cg *cg, const kir_inst *in); /* llvm_cuda_const.c */
LLVMValueRef kj_cg_module_get(kj_cg *cg, const kir_inst *in); /* llvm_frozen.c: MODULE_GET */
void kj_cg_module_set(kj_cg *cg, const kir_inst *in);         /* llvm_frozen.c: MODULE_SET */

/* llvm_launch.c: a kernel launch in host code (every target); with
 * kernels on the GPU, the coherence check before instruction `in` touches
 * array data (nothing otherwise) */
void kj_cg_launch(kj_cg *cg, const kir_inst *in);
/* Launch kernel k with configuration cfg (8 i64 values, as LAUNCH's
 * header) and arguments vals (register form, of k's parameter types);
 * errors located at `at`. */
void kj_cg_launch_kernel(kj_cg *cg, const kir_func *k, const LLVMValueRef *cfgv, const LLVMValueRef *vals,
                         const kir_inst *at);
void kj_cg_host_access(kj_cg *cg, const kir_inst *in);
/* llvm_kargs.c: tuple kernel parameters pass as their leaves (arrays and
 * numbers, in order); a parameter that is not a tuple is its own leaf. */
uint32_t kj_kargs_count(const kj_type *t);
uint32_t kj_kargs_total(const kir_func *f);
/* The leaf types of f's parameters; owner[i]: the parameter of leaf i. */
const kj_type **kj_kargs_leaf_types(kj_cg *cg, const kir_func *f, uint32_t *n, uint32_t **owner);
/* v of type t into its leaves out[*n...]; leaves back into a value of t. */
void kj_kargs_split(kj_cg *cg, const kj_type *t, LLVMValueRef v, LLVMValueRef *out, uint32_t *n);
LLVMValueRef kj_kargs_join(kj_cg *cg, const kj_type *t, const LLVMValueRef *leaf, uint32_t *n);
/* Before loop statement `loop`: when nothing in it can launch a kernel,
 * check its arrays once here and silence the checks inside (true; call
 * kj_cg_hoist_end after the loop). */
bool kj_cg_hoist_access(kj_cg *cg, const kir_inst *loop);
void kj_cg_hoist_end(kj_cg *cg);

/* llvm_graph.c: host loops whose launches a CUDA graph may replay. Does the
 * body of `loop` only launch (with a configuration made outside it) and
 * compute scalars? */
bool kj_cg_graph_loop_ok(const kir_func *f, const kir_inst *loop);
bool kj_cg_graph_begin(kj_cg *cg, const kir_inst *loop);
void kj_cg_graph_end(kj_cg *cg, const kir_inst *loop);

/* llvm_expr.c: the value of instruction r (NULL for statements) */
LLVMValueRef kj_cg_inst(kj_cg *cg, kir_ref r);
LLVMValueRef kj_cg_cast(kj_cg *cg, LLVMValueRef v, const kj_type *from, const kj_type *to);
LLVMValueRef kj_cg_fm(kj_cg *cg, LLVMValueRef v); /* fast-math flags when enabled */
/* x < y / x > y for scalars of type t (unsigned compare for unsigned). */
LLVMValueRef kj_cg_less(kj_cg *cg, const kj_type *t, LLVMValueRef x, LLVMValueRef y);

/* llvm_array.c */
LLVMValueRef kj_cg_array_inst(kj_cg *cg, kir_ref r);
LLVMValueRef kj_cg_array_dim(kj_cg *cg, LLVMValueRef arr, unsigned k);
LLVMValueRef kj_cg_array_stride(kj_cg *cg, LLVMValueRef arr, unsigned k); /* in bytes */
/* arr (of type t) is C- (f false) or F-contiguous, as NumPy's flags say (llvm_builtin.c) */
LLVMValueRef kj_cg_array_contiguous(kj_cg *cg, const kj_type *t, LLVMValueRef arr, bool f);

/* llvm_builtin.c */
LLVMValueRef kj_cg_builtin(kj_cg *cg, kir_ref r);

/* llvm_array.c: a[...] = v for every element of `arr` (type at), v of the
 * element type in registers. */
/* for idx[d] in range(n[d]), d = depth..nd-1, C order (nd <= 4): body(idx).
 * A counted loop nest with the builder left after it. */
typedef void (*kj_cg_loop_body)(kj_cg *cg, void *ctx, const LLVMValueRef *idx);
void kj_cg_loop_nest(kj_cg *cg, int nd, const LLVMValueRef *n, LLVMValueRef *idx, int depth,
                     kj_cg_loop_body body, void *ctx);
void kj_cg_array_fill(kj_cg *cg, const kj_type *at, LLVMValueRef arr, LLVMValueRef v);
/* a.T of `arr` (type at): a view with the shape and strides reversed. */
LLVMValueRef kj_cg_array_transpose(kj_cg *cg, const kj_type *at, LLVMValueRef arr);

/* llvm_host_builtins.c: host NumPy, print, time and cuda built-ins */
LLVMValueRef kj_cg_host_builtin(kj_cg *cg, const kir_inst *in);
/* llvm_list.c: the list BUILTINs (NULL for another built-in), and print's
 * [a, b] of a list with the elements' printer `put` and a text printer. */
LLVMValueRef kj_cg_list_builtin(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_cg_str_builtin(kj_cg *cg, const kir_inst *in); /* llvm_str.c */
/* llvm_excobj.c: the exception objects' built-ins (builtins_exc.h); an
 * exception, its args or its type as str() (repr: as repr()) prints them */
LLVMValueRef kj_cg_exc_builtin(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_cg_exc_str(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool repr);
LLVMValueRef kj_cg_bytes_builtin(kj_cg *cg, const kir_inst *in); /* llvm_bytes.c */
void kj_cg_print_buffer(kj_cg *cg, const kj_type *t, LLVMValueRef v);
LLVMValueRef kj_cg_pyrandom(kj_cg *cg, const kir_inst *in);     /* llvm_pyrandom.c: the `random` module */
LLVMValueRef kj_cg_threads(kj_cg *cg, const kir_inst *in);      /* llvm_threads.c: Numba's thread-pool API */
LLVMValueRef kj_cg_heapq(kj_cg *cg, const kir_inst *in);        /* llvm_heapq.c: the heapq module */
LLVMValueRef kj_cg_pymath(kj_cg *cg, const kir_inst *in);       /* llvm_pymath.c: math.degrees ... math.gcd */
LLVMValueRef kj_cg_ldexp64(kj_cg *cg, LLVMValueRef x, LLVMValueRef n); /* llvm_pymath.c: x * 2**n, rounded once */
LLVMValueRef kj_cg_npmath(kj_cg *cg, const kir_inst *in);       /* llvm_npmath.c: np.logaddexp ... np.spacing */
LLVMValueRef kj_cg_nppoly(kj_cg *cg, const kir_inst *in);       /* llvm_nppoly.c: numpy.polynomial */
LLVMValueRef kj_cg_pybuiltin(kj_cg *cg, const kir_inst *in);    /* llvm_pybuiltin.c: chr, ord, repr, hash */
/* llvm_list.c: the element order list_sort.c reads (rtfns.def LIST_SORT's desc), a constant string. */
LLVMValueRef kj_cg_list_elem_desc(kj_cg *cg, const kj_type *et);
LLVMValueRef kj_cg_str_split(kj_cg *cg, const kir_inst *in);   /* llvm_str_split.c */
void kj_cg_print_list(kj_cg *cg, const kir_inst *in, const kj_type *lt, LLVMValueRef l,
                      void (*put)(kj_cg *, const kir_inst *, const kj_type *, LLVMValueRef, bool),
                      void (*text)(kj_cg *, const char *));
/* llvm_optional.c: an Optional value between its register and memory forms; print's None or value. */
LLVMValueRef kj_cg_opt_convert(kj_cg *cg, const kj_type *t, LLVMValueRef v, bool to_mem);
LLVMValueRef kj_cg_opt_found(kj_cg *cg, const kj_type *t, LLVMValueRef p); /* *p (memory form), None when p is NULL */
void kj_cg_print_optional(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef v, bool repr,
                          void (*put)(kj_cg *, const kir_inst *, const kj_type *, LLVMValueRef, bool),
                          void (*text)(kj_cg *, const char *));
/* llvm_dict.c: the dict and set BUILTINs (NULL for another built-in), and
 * print's {k: v} / {x} of a dict or set with the elements' printer. */
LLVMValueRef kj_cg_dict_builtin(kj_cg *cg, const kir_inst *in);
void kj_cg_print_dict(kj_cg *cg, const kir_inst *in, const kj_type *t, LLVMValueRef d,
                      void (*putv)(kj_cg *, const kir_inst *, const kj_type *, LLVMValueRef, bool),
                      void (*text)(kj_cg *, const char *));
int32_t kj_cg_dtype(const kj_type *elem); /* the runtime's kj_dtype of a scalar type */
/* Store v in a fresh entry-block temporary; returns its address. */
LLVMValueRef kj_cg_spill(kj_cg *cg, LLVMValueRef v);
/* An operand for the runtime (rt_host.h): pointer, ndim (0 = a scalar in
 * memory) and dtype, for the value of instruction r. */
void kj_cg_operand(kj_cg *cg, kir_ref r, LLVMValueRef out[3]);
/* Storage for a result descriptor of ndim, to pass as `out`. */
LLVMValueRef kj_cg_out_desc(kj_cg *cg, int ndim);
/* llvm_host_builtins.c: a shape argument (an int or a tuple of nd ints) in
 * a [nd x i64] temporary; the array value behind an out descriptor. */
LLVMValueRef kj_cg_shape_arg(kj_cg *cg, kir_ref r, int nd);
LLVMValueRef kj_cg_load_desc(kj_cg *cg, LLVMValueRef p, int ndim);
LLVMValueRef kj_cg_device_array_strided(kj_cg *cg, const kir_inst *in); /* llvm_cuda_strides.c */
/* llvm_generator.c: a Generator distribution method (rng.normal(...), ...). */
struct kj_rdist_spec;
LLVMValueRef kj_cg_gen_dist(kj_cg *cg, const kir_inst *in, const struct kj_rdist_spec *sp);
/* A new array of src's shape (ndim dimensions) and element type elem,
 * holding src's values cast as astype casts them; errors point at `in`. */
LLVMValueRef kj_cg_array_copy_as(kj_cg *cg, kir_ref src, const kj_type *elem, int ndim, const kir_inst *in);
LLVMValueRef kj_cg_line(kj_cg *cg, const kir_inst *in); /* i32 line of in */
LLVMValueRef kj_cg_col(kj_cg *cg, const kir_inst *in);

/* llvm_complex.c: complex numbers (+ - * / ** on complex scalars, ==/!=,
 * conversions to and from complex, complex(), .real/.imag, cmath) */
LLVMValueRef kj_cg_complex_arith(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef kj_cg_complex_neg(kj_cg *cg, const kir_inst *in, LLVMValueRef v);
LLVMValueRef kj_cg_complex_compare(kj_cg *cg, const kir_inst *in, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef kj_cg_complex_cast(kj_cg *cg, LLVMValueRef v, const kj_type *from, const kj_type *to);
bool kj_cg_complex_builtin_of(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_cg_complex_builtin(kj_cg *cg, const kir_inst *in);
/* llvm_cpxufunc.c: NumPy's complex loops in fused array loops (op -1: not one) */
int kj_cg_cpx_ufunc_op(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_cg_cpx_ufunc(kj_cg *cg, int op, const kj_type *t, LLVMValueRef a, LLVMValueRef b);
void kj_cg_csqrt(kj_cg *cg, LLVMValueRef re, LLVMValueRef im, LLVMValueRef *ore, LLVMValueRef *oim);
bool kj_cg_cmath_inv(kj_cg *cg, unsigned id, LLVMValueRef re, LLVMValueRef im, LLVMValueRef *ore,
                     LLVMValueRef *oim); /* llvm_cmath_inv.c: cmath.acos ... cmath.tanh */
/* llvm_np_manip.c: np.array/asarray, the joins (np.concatenate, ...), np.flip */
LLVMValueRef kj_cg_np_manip(kj_cg *cg, const kir_inst *in);
/* np.roll, np.tril, np.diag, np.take, ... (llvm_np_manip2.c). */
LLVMValueRef kj_cg_np_manip2(kj_cg *cg, const kir_inst *in);

/* llvm_mpi.c: mpi4py's MPI.* and communicator methods in host code */
LLVMValueRef kj_cg_mpi(kj_cg *cg, const kir_inst *in);
/* np.sort, np.median, np.histogram, ... (builtins_npsort.h; llvm_npsort.c) */
LLVMValueRef kj_cg_npsort(kj_cg *cg, const kir_inst *in);
/* np.cov, np.cross, the window functions, ... (builtins_npother.h; llvm_npother.c) */
LLVMValueRef kj_cg_npother(kj_cg *cg, const kir_inst *in);
/* numpy.polynomial's Polynomial(...) and as_series (llvm_polynomial.c) */
LLVMValueRef kj_cg_polynomial(kj_cg *cg, const kir_inst *in);
/* array attributes and manipulation (builtins_npshape.h; llvm_npshape.c) */
LLVMValueRef kj_cg_npshape(kj_cg *cg, const kir_inst *in);
/* llvm_cuda_dev.c: numba.cuda's device API in host code (builtins_cuda_dev.h) */
LLVMValueRef kj_cg_cuda_dev(kj_cg *cg, const kir_inst *in);
/* (llvm_launch.c) the constant kj_abi_kernel of kernel specialisation k. */
LLVMValueRef kj_cg_kernel_desc(kj_cg *cg, const kir_func *k);
/* (llvm_cuda_host.c) the rows of builtins_cuda_host.h. */
LLVMValueRef kj_cg_cuda_host(kj_cg *cg, const kir_inst *in);
/* KJ_BF_LINALG built-ins: one kj_rt_linalg call (llvm_linalg.c) */
LLVMValueRef kj_cg_linalg(kj_cg *cg, const kir_inst *in);
LLVMValueRef kj_cg_gpu_matmul(kj_cg *cg, const kir_inst *in); /* kjit.gpu_matmul (llvm_linalg.c) */
/* Euclid's algorithm on two uint64 magnitudes, as i64 values (llvm_npmath.c). */
LLVMValueRef kj_cg_gcd_u64(kj_cg *cg, LLVMValueRef a, LLVMValueRef b);

/* llvm_ufunc.c: elementwise operations on arrays and ufunc calls */
LLVMValueRef kj_cg_array_arith(kj_cg *cg, const kir_inst *in);  /* ADD..GE, NEG/NOT/INVERT */
LLVMValueRef kj_cg_array_math(kj_cg *cg, const kir_inst *in);   /* math.*, abs, np.minimum ... */
LLVMValueRef kj_cg_ufunc_call(kj_cg *cg, kir_ref r);

/* llvm_parallel.c: outlined loop chunks for the parallel target
 * (docs/codegen.md "Parallel loops") */
/* Does the function being generated run its loops in parallel: the
 * parallel target, or @jit(parallel=True) (host code only)? */
bool kj_cg_parallel_here(kj_cg *cg);
/* Store *vals[0..n) into a new entry-block struct (its type in *type). */
LLVMValueRef kj_cg_pack(kj_cg *cg, LLVMValueRef *const *vals, unsigned n, LLVMTypeRef *type);
/* Load them back in another function: *vals[k] = env->k. */
void kj_cg_unpack(kj_cg *cg, LLVMTypeRef type, LLVMValueRef env, LLVMValueRef *const *vals, unsigned n);
/* A chunk function being generated: cg->fn is its state between begin and
 * end, the builder in its body; the enclosing function's state is put
 * back by end (which adds the return). */
typedef struct kj_cg_chunk {
    kj_cgfn fn;
    kj_cgfn *saved_fn;
    LLVMBasicBlockRef saved_bb;
    LLVMValueRef llfn, env, begin, end, acc; /* the function and its parameters */
} kj_cg_chunk;
void kj_cg_chunk_begin(kj_cg *cg, kj_cg_chunk *ch, const char *name);
void kj_cg_chunk_end(kj_cg *cg, kj_cg_chunk *ch);
/* kj_rt_parallel_for(rt, chunk, env, n, min_chunk, acc_bytes, combine). */
void kj_cg_parallel_for(kj_cg *cg, LLVMValueRef chunk, LLVMValueRef env, LLVMValueRef n, LLVMValueRef min_chunk,
                        int64_t acc_bytes, LLVMValueRef combine);

/* llvm_func.c: array lifetime (docs/codegen.md "Array lifetime") */
bool kj_cg_type_has_array(const kj_type *t);
/* Append the owner pointers of the arrays in v (type t) to out; returns the
 * new count (at most max). */
unsigned kj_cg_owners(kj_cg *cg, const kj_type *t, LLVMValueRef v, LLVMValueRef *out, unsigned n,
                      unsigned max);

#endif
