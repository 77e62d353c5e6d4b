/* SPDX-License-Identifier: BSD-2-Clause */
/* The run-time functions that generated code calls are each declared once,
 * in rtfns.def, with their C types. From that one declaration come
 *
 *   - the C prototypes the runtime is compiled against (src/runtime/rt.h):
 *     a definition that disagrees with its row does not compile
 *     (tests/abi/rtfns_mismatch.sh checks that it does not);
 *   - the code generator's enum of them (kj_rtfn), its LLVM declarations
 *     and its table of JIT symbols (src/codegen/codegen_int.h, llvm_ctx.c).
 *
 * rtfns.def is included with KJ_RTFN defined, once per use:
 *
 *   KJ_RTFN(ID, c_function, FLAGS, return type, (parameters))
 *
 * FLAGS is one word: NONE, NORETURN (never returns: a raise) or PURE (no
 * side effects, e.g. lgamma: calls may be merged or dropped). The return
 * type and each parameter are written with the macros below, which give
 * both the C type and the signature letter of the code generator (v void,
 * i i32, l i64, f float, d double, p ptr); they expand to KJ_RTARG(letter,
 * C type, name), which the includer defines for its use (rt.h: `type
 * name`; llvm_ctx.c: the letter). A parameter of any pointer type is
 * KJ_PTR(type, name). This header is the runtime's and the code
 * generator's both, so it includes neither. */
#ifndef KJ_ABI_RTFNS_H
#define KJ_ABI_RTFNS_H

#define KJ_VOID KJ_RTARG('v', void, )
#define KJ_NOARGS KJ_RTARG(0, void, ) /* the parameter list of a function without parameters */
#define KJ_I32(name) KJ_RTARG('i', int32_t, name)
#define KJ_I64(name) KJ_RTARG('l', int64_t, name)
#define KJ_F32(name) KJ_RTARG('f', float, name)
#define KJ_F64(name) KJ_RTARG('d', double, name)
#define KJ_PTR(type, name) KJ_RTARG('p', type, name)

/* The most signature letters (return type and parameters) of a row, and
 * the flags as values. */
enum { KJ_RTSIG_MAX = 24 };
enum { KJ_RTF_NONE = 0, KJ_RTF_NORETURN = 1, KJ_RTF_PURE = 2 };

/* The C function specifier each flag gives the prototype. */
#define KJ_RTATTR_NONE
#define KJ_RTATTR_NORETURN _Noreturn
#define KJ_RTATTR_PURE

#endif
