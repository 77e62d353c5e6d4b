/* SPDX-License-Identifier: BSD-2-Clause */
/* The code generator as the rest of kjit sees it (src/api/): host machine
 * code for a KIR module, loaded by ORC LLJIT or from a cached object file,
 * and the PTX of its kernels. No LLVM type appears here; everything else
 * of src/codegen/ is internal to it (codegen.h). */
#ifndef KJ_CODEGEN_API_H
#define KJ_CODEGEN_API_H

#include "../ir/kir.h"
#include "../runtime/rt.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct kj_codegen_opts {
    int opt_level;    /* 0..3: the default<On> pipeline and codegen level */
    bool verify;      /* run LLVM's verifier on the generated IR (tests, debug) */
    bool keep_ir;     /* keep the optimised LLVM IR as text: kj_jit_ir */
    bool keep_asm;    /* keep the assembly as text: kj_jit_asm */
    bool keep_object; /* keep the object file's bytes: kj_jit_object (for caching) */
    kj_run_target target; /* where the code runs (DEFAULT: cpu): picks the host table,
                             kj_cg_run_of */
} kj_codegen_opts;

/* Does a launch on target t run its blocks on the thread pool (the
 * `parallel` flag of a kernel descriptor, abi.h)? The host table's answer,
 * for the descriptors the C API makes of kernels specialised at call time. */
bool kj_codegen_parallel_blocks(kj_run_target t);
/* The bytes of a kernel's static shared arrays in its block storage (cpu
 * target: the launch checks them with the dynamic ones). */
int64_t kj_codegen_kernel_static_shared(const kir_func *f);
/* Does kernel f (or a function it calls) use grid.sync() (llvm_cuda_cg.c):
 * its launches are cooperative. */
bool kj_cg_uses_grid_sync(const kir_func *f);

/* A loaded host program: owns its LLJIT and everything it compiled. */
typedef struct kj_jit kj_jit;

/* Compile the host functions of `m` (main, helpers, @jit, ufunc scalar
 * functions; kernels and device functions are skipped) and load them.
 * `opt` may be NULL (-O3, no verification, nothing kept). Returns NULL
 * after reporting to `d` (located at the offending KIR instruction when
 * the problem is an unsupported construct). Thread-safe: each call has its
 * own LLVM context. */
kj_jit *kj_codegen_host(const kir_module *m, const kj_codegen_opts *opt, kj_diags *d);

/* Load an object file produced earlier (kj_jit_object), e.g. from a cache.
 * Returns NULL with a message in `err` (cap bytes) on failure. */
kj_jit *kj_jit_from_object(const void *obj, size_t size, char *err, size_t cap);

/* The entry point of the function with KIR mangled name `mangled` (abi.h:
 * call it through kj_rt_call_entry), or NULL when there is none. */
kj_entry_fn kj_jit_lookup(kj_jit *j, const char *mangled);

/* The address of symbol `name` in j's code, or NULL. */
void *kj_jit_address(kj_jit *j, const char *name);

/* Text kept at compile time (NULL unless requested in the options). */
const char *kj_jit_ir(const kj_jit *j);
const char *kj_jit_asm(const kj_jit *j);
const void *kj_jit_object(const kj_jit *j, size_t *size);

void kj_jit_free(kj_jit *j);

/* ---- the GPU (nvptx.c) ---- */

typedef struct kj_ptx_opts {
    const char *arch;      /* "sm_90" */
    int opt_level;         /* 0..3 */
    bool verify;           /* run LLVM's verifier first */
    const char *libdevice; /* path of libdevice.10.bc */
    const char *kernel;    /* only the kernels of this name (NULL: every kernel) */
    const kir_func *only;  /* only this kernel specialisation (NULL: as `kernel` says) */
    double *phases;        /* optional: seconds spent making the IR, linking libdevice,
                              optimising and emitting PTX (KJ_PTX_PHASES entries) */
} kj_ptx_opts;

enum { KJ_PTX_PHASES = 4 };

/* The PTX of every kernel of m (and the device and @jit functions they
 * call), malloc'd; NULL after reporting to d (also when o->kernel names no
 * kernel). No GPU or driver needed. */
char *kj_codegen_ptx(const kir_module *m, const kj_ptx_opts *o, kj_diags *d);
/* Does m have kernels (does it need PTX at all)? */
bool kj_nvptx_has_kernels(const kir_module *m);
/* The PTX entry name of the kernel specialisation with this mangled name
 * (valid PTX identifier, stable across compiles). */
const char *kj_ptx_symbol(kj_arena *a, const char *mangled);
/* The entry of its 32-bit index variant (kir_index32.h), beside it. */
const char *kj_ptx_symbol32(kj_arena *a, const char *mangled);

#endif
