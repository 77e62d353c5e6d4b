/* The run-time entry points that JIT-compiled host code calls, and the run
 * context it carries.
 *
 * Every generated host function receives a `kj_rt *` as its hidden first
 * parameter (see src/codegen/abi.h). Raising a run-time error records it in
 * the context and longjmps back to the innermost kj_rt_call_entry, which
 * returns the error's kind. This is safe because no frame between the two
 * needs unwinding: generated code has no destructors or cleanups, and the
 * runtime functions it calls hold no locks or resources when they raise. A
 * runtime function that owns temporaries must release them before calling
 * kj_rt_raise*. Arrays the generated code created before the error are
 * leaked unless registered for release in the context (future work).
 *
 * Everything here is thread-safe: state lives in the kj_rt of one call. */
#ifndef KJ_RT_H
#define KJ_RT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
    KJ_RT__COUNT
} kj_rt_kind;

/* The context of one call into generated code. */
typedef struct kj_rt {
    jmp_buf *jb;            /* the innermost kj_rt_call_entry; NULL outside one */
    const char *file;       /* source path for messages (not owned) */
    kj_rt_kind kind;        /* the error raised, KJ_RT_OK when none */
    int32_t line, col;      /* its location, 0 when unknown */
    char message[512];      /* without the kind: "index 10 is out of bounds ..." */
    void *user;             /* for the embedding layer (not read by kjit) */
} kj_rt;

/* The signature of every JIT entry point `M.entry` (abi.h). */
typedef void (*kj_entry_fn)(kj_rt *rt, void **args, void *ret);

void kj_rt_init(kj_rt *rt, const char *file);

/* Call an entry point, catching its run-time errors: returns KJ_RT_OK, or
 * the kind of the error (details in rt). Calls may nest (generated code →
 * runtime → generated code); an error returns to the innermost. */
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

/* ---- helpers called by generated code ---- */

/* dst[...] = src with NumPy broadcasting of src's shape into dst's; both
 * are ABI descriptors (abi.h) of elements of `itemsize` bytes. Overlapping
 * memory is handled (the source is copied first). Raises ValueError when
 * the shapes do not broadcast. */
void kj_rt_assign(kj_rt *rt, const void *dst, int32_t dst_ndim, const void *src, int32_t src_ndim,
                  int64_t itemsize, int32_t line, int32_t col);

/* round(x, ndigits) for floats, as Numba (and CPython's fallback) do it. */
double kj_rt_round_ndigits(double x, int64_t ndigits);
/* round(x, ndigits) for an integer and ndigits < 0: round half to even at
 * 10**-ndigits. */
int64_t kj_rt_round_int(int64_t x, int64_t ndigits);
/* math.lgamma without the global `signgam` of C's lgamma. */
double kj_rt_lgamma(double x);
float kj_rt_lgammaf(float x);

#endif
