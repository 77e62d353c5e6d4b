/* SPDX-License-Identifier: BSD-2-Clause */
/* Semantic analysis: AST → typed KIR.
 *
 *   resolve  — imports, module constants (folded), functions and their
 *              decorators (kind, options, signature strings)
 *   infer    — type inference per specialisation, starting from main and
 *              from explicit signatures; every call, launch and ufunc call
 *              reachable from main is typed statically
 *   lower    — each specialisation to a kir_func
 *
 * All allocations go to `a`; errors to `d`. */
#ifndef KJ_SEMA_H
#define KJ_SEMA_H

#include "../frontend/ast.h"
#include "kir.h"
#include "types.h"

/* Reads the header of an .npy file, for np.load of a constant path (whose
 * array type comes from the file): NumPy's dtype name ("float32"), the
 * order and the shape (at most 8 dimensions). False with a message in err.
 * The IR knows no file formats: the embedding layer passes the runtime's
 * reader here. */
typedef bool (*kj_npy_info_fn)(const char *path, const char **dtype, bool *fortran, int *ndim,
                               int64_t shape[8], char *err, size_t cap);

/* A module-level array the host gives (kjit_compile_globals), frozen as the
 * source's constant arrays are (resolve_frozen.c): its elements' NumPy
 * dtype name and the frozen value (name, C-order shape, elements). */
typedef struct kj_sema_global {
    const char *dtype;
    kir_frozen fz;
} kj_sema_global;

typedef struct kj_sema_options {
    int boundscheck; /* -1: per decorator, 0: off, 1: on everywhere */
    kj_npy_info_fn npy_info; /* NULL: np.load of a constant path is an error */
    const kj_sema_global *globals; /* names the source reads without binding them */
    uint32_t nglobals;
} kj_sema_options;

/* The analysis (the ANALYZE stage of src/ir/pipeline.h): the module's KIR,
 * or NULL when errors were reported. The sema stays alive so that functions
 * can be specialised later for argument types known only at run time (the
 * C API's calls of @jit functions, as Numba's dispatcher does). The sema lives in
 * `a` and refers to `m`, `types` and `opt`: they must outlive it. */
typedef struct kj_sema kj_sema;
kj_sema *kj_sema_new(const kj_module *m, const kj_sema_options *opt, kj_types *types, kj_arena *a);
kir_module *kj_sema_run(kj_sema *s, kj_diags *d);
/* Specialise function `name` for `args` (host side for main, helpers and
 * @jit; device side for kernels and device functions), inferring and
 * lowering it and everything it newly reaches into the module kj_sema_run
 * returned. Returns the (possibly already existing) kir_func, or NULL after
 * reporting to `d`. New functions are appended to the module's funcs; the
 * caller compiles them. Not thread-safe: serialise calls on one sema. */
kir_func *kj_sema_specialize(kj_sema *s, const char *name, const kj_type *const *args,
                             uint32_t nargs, kj_diags *d);

/* ---- queries for the C API (sema_query.c); valid after kj_sema_run ---- */

typedef enum kj_sema_fn_kind {
    KJ_SEMA_FN_MAIN,
    KJ_SEMA_FN_HELPER,
    KJ_SEMA_FN_JIT,
    KJ_SEMA_FN_KERNEL,
    KJ_SEMA_FN_DEVICE,
    KJ_SEMA_FN_VECTORIZE,
    KJ_SEMA_FN_GUVECTORIZE,
} kj_sema_fn_kind;

/* The module-level function `name`: its kind and definition. False when
 * there is none (or its decorator was invalid). */
bool kj_sema_function(kj_sema *s, const char *name, kj_sema_fn_kind *kind, const kj_funcdef **def);
/* Does the module define any @cuda.jit kernel, or ufunc with target='cuda'? */
bool kj_sema_has_kernels(kj_sema *s);
/* Does the program import mpi4py (docs/scale-out.md)? */
bool kj_sema_uses_mpi(kj_sema *s);

/* A compile-time constant scalar or string. */
typedef struct kj_sema_const {
    const kj_type *type; /* weak int (int64), weak float (float64), bool or str */
    int64_t i;           /* int and bool */
    double f;
    const char *s;       /* str: NUL-terminated, in the sema's arena */
} kj_sema_const;

/* The value of the default of parameter `i` of `def`, evaluated as sema
 * evaluates constants (literals, module constants, math.pi, arithmetic).
 * False when there is no default or it is not a scalar/string constant.
 * Not thread-safe (like kj_sema_specialize). */
bool kj_sema_param_default(kj_sema *s, const kj_funcdef *def, uint32_t i, kj_sema_const *out);

#endif
